#!/usr/bin/env python3
"""Fits a variant's evaluation weights to the reference engine's scores and writes an engine file.

    bench/fit_eval.py games VARIANT games.pgn                 # Palace self-play, 60 games at 3000 nodes
    bench/fit_eval.py label VARIANT games.pgn positions.txt   # the reference's depth-7 score, quiet ones
    bench/fit_eval.py fit VARIANT positions.txt ENGINE_FILE   # coordinate descent, 3 sweeps

`games` plays Palace against itself from random openings (`palace match ... --random-plies 8
--pgn`), for positions the engine meets. `label` replays each game in the reference engine
(REFERENCE=..., default /work/fsf/fairy-stockfish-current, told the variant by `UCI_Variant` as the
variant's `uci.variant` names it) and keeps every second position that is not in check, whose score
at a fixed depth is within 1000 centipawns and whose best move is not a capture, so that a static
evaluation can be fair to it. `fit` minimises the squared gap between sigmoid(scale x Palace's
`eval`) and sigmoid(the reference's score) on 4 positions in 5, with a pull of 2e-6 a step squared
towards the starting figures, so that a term the positions hardly show stays put, and prints the
gap on the fifth position before and after.

Which terms are fitted comes from the variant's rules, not its name (--terms narrows them):
  goal    eval.goal by distance 1 to 3, where ends.zone_reached wins by reaching a zone
  checks  eval.checks by checks given, where ends.checks_given counts them
  few     eval.few_pieces for 0 to 2 pieces, where ends.bare_royal or ends.no_pieces decides
  hand    eval.hand for each kind a hand may hold, where the variant has hands
  value   each kind's value, where the engine has no tables for the variant yet
  square  per kind without a table: centipawns per rank forward and per file nearer the centre,
          written as the kind's table
  mobility  centipawns per point for each kind that slides
The result, ENGINE_FILE, holds only `engine: {eval: ...}` with the fitted keys: import it from the
variant after its other engine files. `palace,eval=OVERLAY` in `palace match` plays a variant that
imports it. Needs PyYAML, the reference engine and ./build/palace (PALACE=... to change).
Positions bound the time: --positions N (default 2500) keeps the first N of the file."""
import argparse, math, os, re, subprocess, sys, tempfile

import yaml

PALACE = os.environ.get("PALACE", "./build/palace")
REFERENCE = os.environ.get("REFERENCE", "/work/fsf/fairy-stockfish-current")
PULL = 2e-6


def merged_rules(path):
    """The variant file merged over its imports, as the loader merges them (a later map key wins,
    a null removes it); enough to name pieces, ends, hands and engine terms."""
    def merge(into, over):
        for key, value in over.items():
            if value is None:
                into.pop(key, None)
            elif isinstance(value, dict) and isinstance(into.get(key), dict):
                merge(into[key], value)
            else:
                into[key] = value
        return into

    doc = yaml.safe_load(open(path)) or {}
    imports = doc.pop('import', [])
    base = {}
    for imported in [imports] if isinstance(imports, str) else imports:
        merge(base, merged_rules(os.path.join(os.path.dirname(path), imported)))
    return merge(base, doc)


class Terms:
    """The fitted terms of one variant: name -> (start, step), and how to write them as `eval:`."""

    def __init__(self, rules, chosen):
        self.start, self.step = {}, {}
        pieces = rules.get('pieces', {})
        ends = rules.get('ends', {}) or {}
        engine = (rules.get('engine', {}) or {}).get('eval', {}) or {}
        tuned = engine.get('pieces', {}) or {}
        board = rules.get('board', {})
        self.files, self.ranks = board.get('files', 8), board.get('ranks', 8)
        self.kinds = [k for k, p in pieces.items() if not p.get('royal')]
        self.royals = [k for k, p in pieces.items() if p.get('royal')]
        value = {k: (tuned.get(k) or {}).get('value', round(100 * pieces[k].get('value', 1))) for k in self.kinds}
        want = lambda family: chosen is None or family in chosen
        self.goal = 'zone_reached' in ends and want('goal')
        if self.goal:
            for d, figure in enumerate(engine.get('goal', [150, 60, 25])[:3], 1):
                self.add('goal%d' % d, figure, 10)
        self.checks = ends.get('checks_given', 0) if want('checks') else 0
        for n, figure in enumerate(engine.get('checks', [80, 250])[:max(self.checks - 1, 0)], 1):
            self.add('checks%d' % n, figure, 10)
        self.few = ('bare_royal' in ends or 'no_pieces' in ends) and want('few')
        if self.few:
            for n, figure in enumerate(engine.get('few_pieces', [0, 0, 0])[:3]):
                self.add('few%d' % n, figure, 20)
        hands = rules.get('hands')
        demoted = set(((hands or {}).get('demote') or {}).keys())
        self.hand = [k for k in self.kinds if k not in demoted and not pieces[k].get('promoted')] if hands and want('hand') else []
        for k in self.hand:
            self.add('hand.' + k, (engine.get('hand') or {}).get(k, value[k]), 10)
        # Values and tables only where the engine has no table for the variant yet: a tabled
        # evaluation (chess's PeSTO) is kept, and only the terms of the game's ends fitted over it.
        untabled = [] if any((p or {}).get('table') for p in tuned.values()) else self.kinds + self.royals
        self.values = [k for k in self.kinds if k in untabled] if want('value') else []
        for k in self.values:
            self.add('value.' + k, value[k], 10)
        self.square = untabled if want('square') else []
        for k in self.square:
            self.add('advance.' + k, 0, 2)
            self.add('centre.' + k, 0, 2)
        sliders = [k for k in self.kinds if k not in demoted and any('slide' in m for m in pieces[k].get('moves', []) if isinstance(m, dict))]
        self.mobility = sliders if want('mobility') else []
        for k in self.mobility:
            self.add('mobility.' + k, (engine.get('mobility') or {}).get(k, 0), 1)

    def add(self, name, start, step):
        self.start[name], self.step[name] = start, step

    def table(self, x, k):
        """A kind's table from its two square terms, far rank first as the side sees the board."""
        centre = (self.files - 1) / 2
        return [[round(x['advance.' + k] * (self.ranks - 1 - row) + x['centre.' + k] * (centre - abs(f - centre)))
                 for f in range(self.files)] for row in range(self.ranks)]

    def eval_section(self, x):
        out = {}
        if self.goal:
            out['goal'] = [x['goal%d' % d] for d in (1, 2, 3)]
        if self.checks > 1:
            out['checks'] = [x['checks%d' % n] for n in range(1, self.checks)]
        if self.few:
            out['few_pieces'] = [x['few%d' % n] for n in range(3)]
        if self.hand:
            out['hand'] = {k: x['hand.' + k] for k in self.hand}
        pieces = {}
        for k in self.values:
            pieces.setdefault(k, {})['value'] = x['value.' + k]
        for k in self.square:
            pieces.setdefault(k, {})['table'] = self.table(x, k)
        if pieces:
            out['pieces'] = pieces
        if self.mobility:
            out['mobility'] = {k: x['mobility.' + k] for k in self.mobility}
        return out


def engine_file(section):
    """An engine file: `language: 1` and the eval section, tables one row a line."""
    text = yaml.safe_dump({'language': 1, 'engine': {'eval': section}}, sort_keys=False, default_flow_style=None, width=200)
    return "# Fitted by bench/fit_eval.py (docs/engine-tuning.md, \"Fitting\").\n" + text


def games_command(args):
    subprocess.run(['nice', PALACE, 'match', args.variant, '--player', 'palace', '--player', 'palace',
                    '--nodes', str(args.nodes), '--rounds', str(args.rounds), '--random-plies', '8',
                    '--seed', str(args.seed), '--max-plies', '240', '--pgn', args.out], check=True)


def games(path, variant):
    """(set-up FEN, moves) of each game, in UCI notation as `palace convert` writes them."""
    text = subprocess.run([PALACE, 'convert', '--notation', 'uci', '--variant', variant, path],
                          capture_output=True, text=True, check=True).stdout
    for block in re.split(r'\n\n(?=\[)', text):
        fen = re.search(r'\[FEN "([^"]+)"\]', block)
        body = " ".join(line for line in block.splitlines() if not line.startswith('['))
        moves = [re.sub(r'^\d+\.+', '', t) for t in body.split() if t not in ('1-0', '0-1', '1/2-1/2', '*')]
        moves = [m for m in moves if m]
        if moves:
            yield (fen.group(1) if fen else None), moves


def occupied(fen, square):
    """Whether a FEN's placement has a piece on `square` (file letter, rank number)."""
    rows = fen.split()[0].split('[')[0].split('/')
    rank = int(square[1:])
    if rank > len(rows):
        return False
    file = 0
    for token in re.findall(r'\d+|\+?[A-Za-z]~?|\*', rows[len(rows) - rank]):
        if token.isdigit():
            file += int(token)
            continue
        if file == ord(square[0]) - ord('a'):
            return True
        file += 1
    return False


def label_command(args):
    rules = merged_rules(args.variant)
    ref = subprocess.Popen(['nice', REFERENCE], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def ask(command, last):
        ref.stdin.write(command + "\n")
        ref.stdin.flush()
        lines = []
        while not lines or not lines[-1].startswith(last):
            line = ref.stdout.readline()
            if not line:
                sys.exit("the reference engine ended")
            lines.append(line.rstrip("\n"))
        return lines

    ask("uci", "uciok")
    ask("setoption name UCI_Variant value %s\nisready" % (rules.get('uci') or {}).get('variant', rules['name']), "readyok")
    kept = 0
    with open(args.out, "w") as out:
        for start, moves in games(args.games, args.variant):
            begin = "fen " + start if start else "startpos"
            for ply in range(args.every, len(moves) - 1, args.every):
                shown = ask("position %s moves %s\nd" % (begin, " ".join(moves[:ply])), "Checkers:")
                if shown[-1].strip() != "Checkers:":
                    continue
                fen = next(line[5:] for line in shown if line.startswith("Fen: "))
                searched = ask("go depth %d" % args.depth, "bestmove")
                scores = [s for s in (re.search(r' score (cp|mate) (-?\d+)', line) for line in searched) if s]
                if not scores or scores[-1].group(1) != 'cp' or abs(int(scores[-1].group(2))) > 1000:
                    continue
                squares = re.findall(r'[a-z]\d+', searched[-1].split()[1])
                if '@' not in searched[-1].split()[1] and len(squares) == 2 and occupied(fen, squares[1]):
                    continue
                out.write("%s;%s\n" % (fen, scores[-1].group(2)))
                kept += 1
    ref.stdin.write("quit\n")
    ref.stdin.flush()
    print(kept, "positions")


def readable(rows, variant):
    """The rows whose FEN Palace reads: one it refuses would be scored as the position before it."""
    said = subprocess.run([PALACE, "uci", variant], capture_output=True, text=True,
                          input="".join("position fen %s\neval\n" % r[0] for r in rows) + "quit\n").stdout
    bad, i = set(), 0
    for line in said.splitlines():
        if line.startswith("info string bad position"):
            bad.add(i)
        elif line.startswith("info string static evaluation"):
            i += 1
    if bad:
        print("%d positions Palace cannot read, left out" % len(bad))
    return [r for i, r in enumerate(rows) if i not in bad]


def fit_command(args):
    rules = merged_rules(args.variant)
    terms = Terms(rules, set(args.terms.split(',')) if args.terms else None)
    if not terms.start:
        sys.exit("nothing to fit: the variant has none of the terms asked for")
    rows = [line.strip().split(';') for line in open(args.positions) if line.strip()][:args.positions_kept]
    rows = readable(rows, args.variant)
    fitted = [r for i, r in enumerate(rows) if i % 5]
    held = [r for i, r in enumerate(rows) if not i % 5]
    sigmoid = lambda cp: 1 / (1 + math.exp(-cp / 200))
    workdir = tempfile.mkdtemp(prefix='fit_eval.')
    overlay = os.path.join(workdir, 'overlay.yaml')

    def evals(x, sample):
        with open(overlay, "w") as f:
            f.write("import: [%s]\n" % os.path.abspath(args.variant))
            f.write(yaml.safe_dump({'engine': {'eval': terms.eval_section(x)}}, default_flow_style=None, width=200))
        script = "".join("position fen %s\neval\n" % r[0] for r in sample) + "quit\n"
        said = subprocess.run([PALACE, "uci", overlay], input=script, capture_output=True, text=True).stdout
        v = [int(line.split()[4]) for line in said.splitlines() if line.startswith("info string static evaluation")]
        assert len(v) == len(sample), said[-500:]
        return v

    def gap(x, sample, scale):
        return sum((sigmoid(scale * e) - sigmoid(int(r[1]))) ** 2 for e, r in zip(evals(x, sample), sample)) / len(sample)

    def pull(x):
        return PULL * sum(((x[k] - terms.start[k]) / terms.step[k]) ** 2 for k in terms.start)

    x = dict(terms.start)
    start = evals(x, fitted)
    # The scale at which Palace's centipawns best match the reference's, found once and kept.
    scale = min(range(30, 300, 2), key=lambda s: sum((sigmoid(s / 100 * e) - sigmoid(int(r[1]))) ** 2
                                                   for e, r in zip(start, fitted))) / 100
    held_before = gap(x, held, scale)
    best = gap(x, fitted, scale) + pull(x)
    print("%d positions fitted, %d held out; %d terms; scale %.2f" % (len(fitted), len(held), len(x), scale), flush=True)
    for sweep in range(args.sweeps):
        improved = False
        for k, step in terms.step.items():
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
        with open(args.engine_file, "w") as f:  # each sweep's figures, should the run be cut short
            f.write(engine_file(terms.eval_section(x)))
        if not improved:
            break
    print("scale %.2f; held-out gap %.6f before, %.6f after" % (scale, held_before, gap(x, held, scale)))
    with open(args.engine_file, "w") as f:
        f.write(engine_file(terms.eval_section(x)))
    print("wrote", args.engine_file)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest='command', required=True)
    g = commands.add_parser('games')
    g.add_argument('variant')
    g.add_argument('out')
    g.add_argument('--rounds', type=int, default=30)
    g.add_argument('--nodes', type=int, default=3000)
    g.add_argument('--seed', type=int, default=11)
    g.set_defaults(run=games_command)
    lb = commands.add_parser('label')
    lb.add_argument('variant')
    lb.add_argument('games')
    lb.add_argument('out')
    lb.add_argument('--depth', type=int, default=7)
    lb.add_argument('--every', type=int, default=2)
    lb.set_defaults(run=label_command)
    ft = commands.add_parser('fit')
    ft.add_argument('variant')
    ft.add_argument('positions')
    ft.add_argument('engine_file')
    ft.add_argument('--terms', help='comma-separated families: goal,checks,few,hand,value,square,mobility')
    ft.add_argument('--positions', dest='positions_kept', type=int, default=2500)
    ft.add_argument('--sweeps', type=int, default=3)
    ft.set_defaults(run=fit_command)
    args = parser.parse_args()
    args.run(args)
