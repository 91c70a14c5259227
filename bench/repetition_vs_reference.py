#!/usr/bin/env python3
"""Checks janggi-modern's repetition and move-limit verdicts against the reference engine on real games.

    bench/repetition_vs_reference.py REPLAY_LOG

REPLAY_LOG is bench/replay_collection.sh's log of a .gib collection replayed with
variants/janggi-modern.yaml. For every game of the files where it noted a game's end by
repetition or by the move limit (100 plies without a capture), the ending ply is found with
`palace status` (bisected), and the reference (its XBoard mode, `variant janggi`, which announces a
game's end at the root) is asked at the position before (it must play a move) and at that position
(it must name the same winner). One line a game, then
the totals. PALACE (default build/palace) and REFERENCE (default /work/fsf/fairy-stockfish-current)
name the programs."""
import os, re, subprocess, sys
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PALACE = os.environ.get('PALACE', os.path.join(ROOT, 'build/palace'))
VAR = os.path.join(ROOT, 'variants/janggi-modern.yaml')
KAKAO = os.path.join(ROOT, 'variants/janggi-kakao.yaml')
FSF = os.environ.get('REFERENCE', '/work/fsf/fairy-stockfish-current')

# The records as Palace reads them under the service's own rules (every game replays), in its
# coordinates (Cho on ranks 7-10).
def games_of(path):
    out = subprocess.run([PALACE, 'convert', path, '--to', 'pgn', '--notation', 'uci', '--variant',
                          KAKAO], capture_output=True, text=True).stdout
    games = []
    for chunk in re.split(r'\n\n(?=\[)', out.strip()):
        fen = re.search(r'\[FEN "([^"]+)"\]', chunk)
        body = '\n'.join(l for l in chunk.splitlines() if not l.startswith('['))
        toks = [t for t in body.split() if not re.match(r'^\d+\.+$', t) and t not in ('1-0', '0-1', '1/2-1/2', '*')]
        toks = [re.sub(r'^\d+\.+', '', t) for t in toks]
        games.append((fen.group(1) if fen else None, [t for t in toks if t]))
    return games

def status(fen, moves):
    r = subprocess.run([PALACE, 'status', VAR, '--fen', fen, '--moves', *moves], capture_output=True, text=True)
    return (r.stdout.strip().splitlines() or [r.stderr.strip()])[-1]

def mirror_sq(s):
    # xboard numbers a 10-rank board's ranks 0-9
    return s[0] + str(10 - int(s[1:]))

# The reference puts Cho on ranks 1-4.
def fsf_fen(fen):
    board, rest = fen.split(' ', 1)
    return '/'.join(reversed(board.split('/'))) + ' ' + rest

def board_of(fen):
    b = {}
    rows = fen.split(' ')[0].split('/')
    for i, row in enumerate(rows):
        rank = 10 - i; f = 0
        for ch in re.findall(r'\d+|.', row):
            if ch.isdigit(): f += int(ch)
            else: b['abcdefghi'[f] + str(rank)] = ch; f += 1
    return b

def fsf_moves(fen, moves):
    b = board_of(fen); stm = fen.split()[1]; out = []
    for m in moves:
        fr, to = re.match(r'([a-i]\d+)([a-i]\d+)', m).groups() if m not in ('pass', '@@@@', '0000') else (None, None)
        if fr == to:
            out.append('@@@@')
        else:
            b[to] = b.pop(fr)
            out.append(mirror_sq(fr) + mirror_sq(to))
        stm = 'b' if stm == 'w' else 'w'
    return out

def reference(fen, moves):
    cmds = ['xboard', 'protover 2', 'variant janggi', 'force', 'setboard ' + fsf_fen(fen)]
    cmds += ['usermove ' + m for m in fsf_moves(fen, moves)] + ['sd 1', 'go']
    p = subprocess.Popen([FSF], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    for c in cmds: p.stdin.write(c + '\n')
    p.stdin.flush()
    res = None
    for line in p.stdout:
        if line.startswith(('1-0', '0-1', '1/2-1/2')): res = line.strip(); break
        if line.startswith('move ') or 'Illegal' in line or 'Error' in line: res = res or line.strip(); break
    p.stdin.write('quit\n'); p.stdin.flush(); p.wait()
    return res

log = sys.argv[1]
rows = []
for line in open(log):
    # The replay notes each such ruling the players went past.
    m = re.match(r'(.*) game (\d+) \(line \d+\): note: .*"[^"]*": (.* wins: (?:repetition|move limit).*); the game went on$', line.strip())
    if m: rows.append((m.group(1), int(m.group(2)), m.group(3)))
files = sorted({r[0] for r in rows})
agree = disagree = nofen = 0
for path in files:
  for idx, (fen, moves) in enumerate(games_of(path), 1):
    if fen is None: nofen += 1; continue
    over = lambda k: re.search(r'wins: (repetition|move limit)', status(fen, moves[:k])) is not None
    if not over(len(moves)): continue
    lo, hi = 0, len(moves)   # not over at lo, over at hi
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (lo, mid) if over(mid) else (mid, hi)
    end = hi
    verdict = status(fen, moves[:end])
    before = reference(fen, moves[:end - 1]); at = reference(fen, moves[:end])
    palace_winner = 'cho' if verdict.startswith('cho') else 'han'
    ref_winner = 'cho' if at and at.startswith('1-0') else 'han' if at and at.startswith('0-1') else None
    ok = ref_winner == palace_winner and before and before.startswith('move ')
    agree += ok; disagree += not ok
    print(('AGREE' if ok else 'DIFFER'), path.split('/')[-1], idx, 'ply', end, '|', verdict, '| ref at:', at, '| ref before:', before, flush=True)
print(f'{agree} agree, {disagree} differ, {nofen} games without a FEN skipped')
