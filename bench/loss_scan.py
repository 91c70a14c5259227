#!/usr/bin/env python3
"""Where Palace's lost games turned, by the reference's eye.

Usage: bench/loss_scan.py GAMES.pgn UCI_VARIANT DEPTH MAX_LOSSES OUT.json
GAMES.pgn in UCI notation (`palace convert X.pgn --notation uci --variant variants/V.yaml`), Palace
playing as "palace". For each game Palace lost (the first MAX_LOSSES), every position with Palace to
move is searched by /work/fsf/fairy-stockfish-current (REF=... to change) to DEPTH, until the score
falls below -600; the scores (Palace's view) and the lines go to OUT.json for
bench/loss_classify.py.
"""
import json, os, re, subprocess, sys

pgn, variant, depth, maxgames, out = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]

txt = open(pgn).read()
games = txt.split('[Event ')[1:]
eng = subprocess.Popen([os.environ.get('REF', '/work/fsf/fairy-stockfish-current')], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
def send(s): eng.stdin.write(s + '\n')
def wait(tok):
    lines = []
    while True:
        l = eng.stdout.readline()
        lines.append(l)
        if l.startswith(tok): return lines
send('uci'); wait('uciok')
send('setoption name UCI_Variant value ' + variant); send('setoption name Hash value 32')
def search(fen, moves):
    send('position fen %s moves %s' % (fen, ' '.join(moves)) if moves else 'position fen ' + fen)
    send('go depth %d' % depth)
    lines = wait('bestmove')
    sc, pv = None, []
    for l in lines:
        m = re.search(r'score (cp|mate) (-?\d+)', l)
        if m and ' pv ' in l:
            sc = int(m.group(2)) if m.group(1) == 'cp' else (30000 - 100*abs(int(m.group(2)))) * (1 if int(m.group(2)) > 0 else -1)
            pv = l.split(' pv ')[1].split()
    return sc, pv
res = []
n = 0
for gi, g in enumerate(games):
    h = dict(re.findall(r'\[(\w+) "([^"]*)"\]', g))
    pw = 0 if h['White'] == 'palace' else 1
    r = h['Result']
    if r == '1/2-1/2' or (r == '1-0') == (pw == 0): continue
    n += 1
    if n > maxgames: break
    body = g.split('\n\n', 1)[1]
    moves = [t for t in body.split() if not re.match(r'^\d+\.$', t) and t not in ('1-0', '0-1', '1/2-1/2', '*')]
    fen = h['FEN']; stm = 0 if fen.split()[1] == 'w' else 1
    evals = []
    send('ucinewgame')
    for i in range(len(moves) + 1):
        if (stm + i) % 2 != pw: continue
        sc, pv = search(fen, moves[:i])
        if sc is None: continue
        evals.append((i, sc, pv[:8]))
        if sc < -600: break
    res.append({'round': h['Round'], 'pw': pw, 'fen': fen, 'moves': moves, 'evals': evals})
    json.dump(res, open(out, 'w'))
    print(h['Round'], [e[1] for e in evals], flush=True)
send('quit')
