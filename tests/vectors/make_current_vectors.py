#!/usr/bin/env python3
"""Vectors for a game the shared set does not cover, made here from the current reference engine.

    tests/vectors/make_current_vectors.py ENGINE UCI_VARIANT NAME [--ini FILE] [--seed N] [--positions 25]
        [--start-depth 5] [--max-plies 600]

ENGINE is Fairy-Stockfish built from its source (README: "Engines to test against"); UCI_VARIANT its
name for the game (with --ini, a variants.ini defining it); NAME the Palace file's name
(variants/NAME.yaml). Writes tests/vectors/current/NAME.{startpos.perft,perft,moves,terminal} in the
zoo's format (reference/zoo/README.md), each headed by the engine's version, so that a clone alone
passes. Positions come from random games the engine plays out; never edit the files by hand.
"""
import argparse
import pathlib
import random
import subprocess


class Engine:
    def __init__(self, path, variant, ini):
        self.proc = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.version = self.ask('uci', 'uciok')[0].split(' by ')[0]
        if ini:
            self.send(f'setoption name VariantPath value {ini}')
        self.send(f'setoption name UCI_Variant value {variant}')
        self.ask('isready', 'readyok')

    def send(self, line):
        self.proc.stdin.write(line + '\n')

    def ask(self, line, until):
        self.send(line)
        lines = []
        while True:
            out = self.proc.stdout.readline()
            if not out:
                raise SystemExit(f'the engine stopped answering "{line}"')
            lines.append(out.rstrip('\n'))
            if out.startswith(until):
                return lines

    def at(self, start, moves):
        self.send(f'position {start}' + (' moves ' + ' '.join(moves) if moves else ''))

    # The board's picture ends with lines that vary by version: read to the engine's readyok.
    def fen_and_check(self):
        self.send('d')
        lines = self.ask('isready', 'readyok')
        fen = next(l[5:] for l in lines if l.startswith('Fen: '))
        checkers = next(l for l in lines if l.startswith('Checkers:'))
        return fen, checkers.strip() != 'Checkers:'

    def perft(self, depth):
        lines = self.ask(f'go perft {depth}', 'Nodes searched:')
        moves = sorted(l.split(':')[0] for l in lines if ': ' in l and not l.startswith(('Nodes', 'info')))
        return moves, int(lines[-1].split(':')[1])

    # The game's result at a terminal position reached by `last` from the position before it, for
    # the side to move there. A UCI score is the mover's: for `last`, mate 1 means it mates (the side
    # to move lost), mate -1 that it is mated (the side to move won: giveaway's side left with no
    # move or no piece), cp 0 a draw. Searched to depth 2, so that the full search judges the
    # terminal position: at depth 1 the quiescence search would score a position without a move, not
    # in check, by its evaluation. A new game first, so that no earlier search's table answers.
    def result_after(self, start, before, last):
        self.send('ucinewgame')
        self.at(start, before)
        lines = self.ask(f'go depth 2 searchmoves {last}', 'bestmove')
        score = [l for l in lines if ' score ' in l][-1].split(' score ')[1].split()
        if score[0] == 'cp':
            return 'draw' if score[1] == '0' else None
        return {'1': 'loss', '-1': 'win'}.get(score[1])


# Plays random moves from the start until the game ends or `plies` are played; the engine is left at
# the last position.
def random_game(engine, rng, plies):
    moves = []
    while len(moves) < plies:
        engine.at('startpos', moves)
        legal, _ = engine.perft(1)
        if not legal:
            break
        moves.append(rng.choice(legal))
    engine.at('startpos', moves)
    return moves


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('engine')
    parser.add_argument('variant')
    parser.add_argument('name')
    parser.add_argument('--ini')
    parser.add_argument('--seed', type=int, default=1001)
    parser.add_argument('--positions', type=int, default=25)
    parser.add_argument('--start-depth', type=int, default=5)
    parser.add_argument('--max-plies', type=int, default=600)
    args = parser.parse_args()

    out = pathlib.Path(__file__).resolve().parent / 'current'
    out.mkdir(exist_ok=True)
    engine = Engine(args.engine, args.variant, args.ini)
    rng = random.Random(args.seed)
    origin = f"{engine.version}, '{args.variant}', seed {args.seed}"

    engine.at('startpos', [])
    start_fen, _ = engine.fen_and_check()
    counts = [engine.perft(d)[1] for d in range(1, args.start_depth + 1)]
    (out / f'{args.name}.startpos.perft').write_text(
        f'# {args.name}: start position perft ({origin})\n' +
        start_fen + ''.join(f' ;D{d} {n}' for d, n in enumerate(counts, 1)) + '\n')

    # Perft positions stop a random game at a random ply; terminal ones play it out, so that games
    # which end late (an extinction of sixteen pawns) are covered too.
    perfts, move_sets, terminals, seen = [], [], [], set()
    games = 0
    while len(perfts) < args.positions and games < 40 * args.positions:
        games += 1
        moves = random_game(engine, rng, rng.randrange(6, 80))
        fen, check = engine.fen_and_check()
        legal, _ = engine.perft(1)
        if legal and fen not in seen:
            seen.add(fen)
            counts = [engine.perft(d)[1] for d in range(1, 4)]
            perfts.append(fen + ''.join(f' ;D{d} {n}' for d, n in enumerate(counts, 1)))
            move_sets.append(f'{fen} | {int(check)} | {" ".join(legal)}')
    while len(terminals) < args.positions // 2 and games < 80 * args.positions:
        games += 1
        moves = random_game(engine, rng, args.max_plies)
        fen, check = engine.fen_and_check()
        if engine.perft(1)[0] or fen in seen:
            continue
        result = engine.result_after('startpos', moves[:-1], moves[-1])
        if result:
            seen.add(fen)
            terminals.append(f'{fen} | {int(check)} | {result}')

    (out / f'{args.name}.perft').write_text(f'# {args.name}: FEN ;D1 n ;D2 n ;D3 n ({origin})\n' + '\n'.join(perfts) + '\n')
    (out / f'{args.name}.moves').write_text(
        f'# {args.name}: FEN | in_check | sorted legal moves ({origin})\n' + '\n'.join(move_sets) + '\n')
    (out / f'{args.name}.terminal').write_text(
        f'# {args.name}: FEN | in_check | result for the side to move, game over ({origin})\n' +
        ''.join(t + '\n' for t in terminals))
    print(f'{args.name}: {len(perfts)} perft and move-set positions, {len(terminals)} terminal, from {games} games')


if __name__ == '__main__':
    main()
