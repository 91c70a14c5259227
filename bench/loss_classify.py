#!/usr/bin/env python3
"""Sorts the lost games bench/loss_scan.py scanned by how they were lost.

Usage: bench/loss_classify.py SCAN.json VARIANT (xiangqi or chess)
The losing move is Palace's first after which the reference's score fell by 150 centipawns or more
from above -150. It is "tactical" when Palace's material (R 9, H 4, C 4.5, A/E 2, P 1 in xiangqi;
Q 9, R 5, B/N 3, P 1 in chess) is lower 6 to 8 plies later, "mating attack missed" when the game
ended within 14 plies, else "positional". Prints one line a game, then the counts.
"""
import collections, json, os, subprocess, sys
f, variant = sys.argv[1], sys.argv[2]
vals = {'xiangqi': {'r':9,'n':4,'c':4.5,'a':2,'b':2,'p':1,'k':0}, 'chess': {'q':9,'r':5,'b':3,'n':3,'p':1,'k':0}}[variant]
def material(fen, side):  # side 0 = white (uppercase)
    s = 0
    for ch in fen.split()[0]:
        if ch.isalpha():
            v = vals.get(ch.lower(), 0)
            s += v if ch.isupper() == (side == 0) else -v
    return s
def pieces(fen): return sum(ch.isalpha() and ch.lower() not in 'pk' for ch in fen.split()[0])
def fens(fen, moves):
    # FENs after each ply through the reference
    p = subprocess.Popen([os.environ.get('REF', '/work/fsf/fairy-stockfish-current')], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    script = 'setoption name UCI_Variant value %s\n' % variant + ''.join('position fen %s moves %s\nd\n' % (fen, ' '.join(moves[:i])) for i in range(len(moves)+1)) + 'quit\n'
    out = p.communicate(script)[0]
    return [l.split('Fen: ')[1].strip() for l in out.splitlines() if l.startswith('Fen: ')]
cls = collections.Counter(); rows = []
for g in json.load(open(f)):
    ev = g['evals']; pw = g['pw']
    if not ev: continue
    allf = fens(g['fen'], g['moves'])
    k = None
    for a, b in zip(ev, ev[1:]):
        if a[1] > -150 and b[1] <= a[1] - 150: k = (a, b); break
    if k is None:
        c = 'lost from the start' if ev[0][1] <= -150 else 'gradual (no single drop >=150)'
        cls[c] += 1; rows.append((g['round'], c, ev[0][0], '')); continue
    (i, s0, pv0), (j, s1, _) = k
    played = g['moves'][i]
    m0 = material(allf[i], pw); later = [material(allf[t], pw) for t in range(i, min(i + 9, len(allf)))]
    loss = m0 - (max(later[-3:]) if len(later) >= 7 else later[-1])
    left = len(g['moves']) - i
    npc = pieces(allf[i])
    if i < 16: phase = 'opening'
    elif npc <= 6: phase = 'endgame'
    else: phase = 'middlegame'
    if loss >= 2: kind = 'tactical: material lost within 8 plies'
    elif left <= 14: kind = 'mating attack missed'
    else: kind = 'positional (no material lost within 8 plies)'
    cls[(kind, phase)] += 1
    rows.append((g['round'], kind, phase, i, played, 'best ' + (pv0[0] if pv0 else '?'), s0, s1, 'mat-%g' % loss, 'ply left %d' % left, allf[i]))
for r in rows: print(*r, sep=' | ')
for c, n in cls.most_common(): print(n, c)
