#!/usr/bin/env python3
"""Fits chess's evaluation terms (rules/chess/eval.yaml, after the PeSTO tables) to Stockfish.

    palace match variants/chess.yaml --nodes 3000 --rounds 150 --random-plies 8 --seed 11 --pgn games.pgn
    palace convert --notation uci --variant variants/chess.yaml games.pgn > games-uci.pgn
    bench/fit_eval.py label games-uci.pgn positions.txt     # Stockfish's depth-8 score, quiet ones
    bench/fit_eval.py fit positions.txt fitted.yaml         # coordinate descent, 4 sweeps

`label` keeps every third position of each game that is not in check, whose score is within
1000 centipawns and whose best move is not a capture, so that the static evaluation can be fair.
`fit` minimises the squared gap between sigmoid(scale x Palace's `eval`) and sigmoid(Stockfish's
score) on 4 positions in 5, with a pull of 2e-6 a step squared towards the figures below, so that a
term the positions hardly show stays put; it prints the gap on the fifth position before and after.
The result is an overlay of variants/chess.yaml (`palace,eval=fitted.yaml` in `palace match`).
Needs /usr/games/stockfish and ./build/palace (PALACE=... to change)."""
import json, math, os, re, subprocess, sys

PALACE = os.environ.get("PALACE", "./build/palace")
CHESS = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "variants", "chess.yaml"))
PULL = 2e-6

# name: (hand-set figure, step)
TERMS = {
    'mob_n': (4, 1), 'mob_b': (5, 1), 'mob_r': (2, 1), 'mob_q': (1, 1),
    'ra_n': (10, 3), 'ra_b': (10, 3), 'ra_r': (12, 3), 'ra_q': (15, 3),
    'th_p': (60, 8), 'th_n': (30, 8), 'th_b': (30, 8), 'th_r': (30, 8),
    'pair': (30, 8), 'iso': (-10, 5), 'dbl': (-10, 5), 'iso_e': (-15, 5), 'dbl_e': (-25, 5),
    'open': (25, 5), 'half': (10, 5), 'sh1': (15, 5), 'sh2': (8, 4), 'tempo': (0, 5),
}
for rank, (opening, endgame) in enumerate(zip([60, 40, 25, 15, 10, 10], [120, 80, 50, 30, 15, 15]), 1):
    TERMS['pp%d' % rank] = (opening, 8)
    TERMS['pe%d' % rank] = (endgame, 8)


def overlay(x):
    opening = [0] + [x['pp%d' % r] for r in range(1, 7)] + [0]
    endgame = [0] + [x['pe%d' % r] for r in range(1, 7)] + [0]
    return f"""import: [{CHESS}]
eval:
  mobility: {{knight: {x['mob_n']}, bishop: {x['mob_b']}, rook: {x['mob_r']}, queen: {x['mob_q']}}}
  passed:
    pawn:
      bonus: {opening}
      endgame: {endgame}
  royal_attack: {{knight: {x['ra_n']}, bishop: {x['ra_b']}, rook: {x['ra_r']}, queen: {x['ra_q']}}}
  threat: {{pawn: {x['th_p']}, knight: {x['th_n']}, bishop: {x['th_b']}, rook: {x['th_r']}}}
  pair: {{bishop: {x['pair']}}}
  structure:
    pawn: {{isolated: {x['iso']}, doubled: {x['dbl']}, endgame: {{isolated: {x['iso_e']}, doubled: {x['dbl_e']}}}}}
  open_file:
    rook: {{open: {x['open']}, half_open: {x['half']}}}
  shelter: {{kind: pawn, bonus: [{x['sh1']}, {x['sh2']}], zone: castled}}
  tempo: {x['tempo']}
"""


def games(path):
    """(set-up FEN, moves) of each game of a PGN in UCI notation, as `palace match` writes them."""
    for block in re.split(r'\n\n(?=\[)', open(path).read()):
        fen = re.search(r'\[FEN "([^"]+)"\]', block)
        body = " ".join(line for line in block.splitlines() if not line.startswith('['))
        moves = [re.sub(r'^\d+\.+', '', t) for t in body.split() if t not in ('1-0', '0-1', '1/2-1/2', '*')]
        moves = [m for m in moves if m]
        if fen and moves:
            yield fen.group(1), moves


def label(pgn, out_path):
    sf = subprocess.Popen(['/usr/games/stockfish'], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def ask(command, last):
        sf.stdin.write(command + "\n")
        sf.stdin.flush()
        lines = []
        while not lines or not lines[-1].startswith(last):
            line = sf.stdout.readline()
            if not line:
                sys.exit("stockfish ended")
            lines.append(line.rstrip("\n"))
        return lines

    ask("uci", "uciok")
    kept = 0
    with open(out_path, "w") as out:
        for start, moves in games(pgn):
            for ply in range(0, len(moves) - 1, 3):
                shown = ask("position fen %s moves %s\nd" % (start, " ".join(moves[:ply])), "Checkers:")
                if shown[-1].strip() != "Checkers:":
                    continue
                fen = next(line[5:] for line in shown if line.startswith("Fen: "))
                searched = ask("go depth 8", "bestmove")
                scores = [re.search(r' score (cp|mate) (-?\d+)', line) for line in searched]
                score = [s for s in scores if s][-1]
                best = searched[-1].split()[1]
                if score.group(1) != 'cp' or abs(int(score.group(2))) > 1000:
                    continue
                placement, _, _, en_passant = fen.split()[:4]
                rows = [re.sub(r'\d', lambda d: '.' * int(d.group()), row) for row in placement.split('/')]
                to = best[2:4]
                if rows[8 - int(to[1])][ord(to[0]) - ord('a')] != '.' or to == en_passant:
                    continue
                out.write("%s;%s\n" % (fen, score.group(2)))
                kept += 1
    print(kept, "positions")


def fit(positions_path, out_path):
    rows = [line.strip().split(';') for line in open(positions_path) if line.strip()]
    fitted = [r for i, r in enumerate(rows) if i % 5]
    held = [r for i, r in enumerate(rows) if not i % 5]
    sigmoid = lambda cp: 1 / (1 + math.exp(-cp / 200))

    def evals(x, sample):
        with open(out_path, "w") as f:
            f.write(overlay(x))
        script = "".join("position fen %s\neval\n" % r[0] for r in sample) + "quit\n"
        said = subprocess.run([PALACE, "uci", out_path], input=script, capture_output=True, text=True).stdout
        v = [int(line.split()[4]) for line in said.splitlines() if line.startswith("info string static evaluation")]
        assert len(v) == len(sample), said[-500:]
        return v

    def gap(x, sample, scale):
        return sum((sigmoid(scale * e) - sigmoid(int(r[1]))) ** 2 for e, r in zip(evals(x, sample), sample)) / len(sample)

    def pull(x):
        return PULL * sum(((x[k] - TERMS[k][0]) / TERMS[k][1]) ** 2 for k in TERMS)

    x = {k: v[0] for k, v in TERMS.items()}
    start = evals(x, fitted)
    # The scale at which Palace's centipawns best match Stockfish's, found once and kept.
    scale = min(range(50, 200, 2), key=lambda s: sum((sigmoid(s / 100 * e) - sigmoid(int(r[1]))) ** 2
                                                   for e, r in zip(start, fitted))) / 100
    held_before = gap(x, held, scale)
    best = gap(x, fitted, scale) + pull(x)
    for sweep in range(4):
        improved = False
        for k, (_, step) in TERMS.items():
            for d in (step, -step):
                y = dict(x, **{k: x[k] + d})
                loss = gap(y, fitted, scale) + pull(y)
                if loss >= best - 1e-7:
                    continue
                while loss < best - 1e-7:  # keep going while it pays
                    best, x = loss, y
                    y = dict(x, **{k: x[k] + d})
                    loss = gap(y, fitted, scale) + pull(y)
                improved = True
                print("sweep %d: %s = %d, loss %.6f" % (sweep, k, x[k], best), flush=True)
                break
        if not improved:
            break
    print("scale %.2f; held-out gap %.6f before, %.6f after" % (scale, held_before, gap(x, held, scale)))
    with open(out_path, "w") as f:
        f.write(overlay(x))
    print(json.dumps(x))


if __name__ == "__main__":
    if len(sys.argv) != 4 or sys.argv[1] not in ("label", "fit"):
        sys.exit(__doc__)
    (label if sys.argv[1] == "label" else fit)(sys.argv[2], sys.argv[3])
