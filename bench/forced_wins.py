#!/usr/bin/env python3
"""The forced-win set (tests/search/forced_wins.epd): positions where the reference engine proves a
win at depth 20, and how far Palace's announced win is from the reference's.

Report Palace on the whole set (one line per position, then a summary):

  bench/forced_wins.py report --engine build/palace --depth 12

Find new positions with the reference (self-play at a few thousand nodes a move; the first
positions where it sees a mate, each then searched at depth 20, never less: a shallow search
reports wrong distances). Prints set lines to add by hand:

  bench/forced_wins.py find --reference /work/fsf/fairy-stockfish-current --variant janggi \
      --games 20 --seed 1

Both talk UCI. The set's lines: `UCI_Variant; FEN as the reference reads it; mate N; remark`,
where `mate N` is the reference's `score mate N` at `go depth 20` and N > 0 (the side to move
wins). A win may end by counting points (Janggi's bikjang or two passes in a row): the reference
scores those as mates too, and so does Palace.
"""
import argparse
import random
import re
import subprocess
import sys
import threading
import time


class Uci:
    def __init__(self, command):
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.send("uci")
        self.wait_for("uciok")

    def send(self, line):
        self.proc.stdin.write(line + "\n")

    def wait_for(self, prefix):
        lines = []
        for line in self.proc.stdout:
            lines.append(line.rstrip("\n"))
            if line.startswith(prefix):
                return lines
        sys.exit(f"{self.proc.args}: ended before '{prefix}'")

    def set_variant(self, name):
        self.send(f"setoption name UCI_Variant value {name}")

    def position(self, fen=None, moves=()):
        where = f"fen {fen}" if fen else "startpos"
        self.send(f"position {where}" + (" moves " + " ".join(moves) if moves else ""))

    def go(self, limit, give_up=0):
        """(last info line with a score, bestmove word) of `go LIMIT`, stopped after `give_up`
        seconds where set."""
        self.send("go " + limit)
        timer = threading.Timer(give_up, lambda: self.send("stop")) if give_up else None
        if timer:
            timer.start()
        lines = self.wait_for("bestmove")
        if timer:
            timer.cancel()
        scored = [l for l in lines if l.startswith("info") and " score " in l]
        return (scored[-1] if scored else ""), lines[-1].split()[1]

    def fen(self):
        """The current position's FEN, by the reference's `d` command."""
        self.send("d")
        self.send("isready")
        lines = self.wait_for("readyok")
        return next(l.split(":", 1)[1].strip() for l in lines if l.startswith("Fen:"))

    def legal_moves(self):
        """The reference's legal moves, from `go perft 1`."""
        self.send("go perft 1")
        self.send("isready")
        lines = self.wait_for("readyok")
        return [l.split(":")[0] for l in lines if re.match(r"^[a-z]+\d+[a-z]+\d+[a-z+]*: \d+$", l)]

    def close(self):
        self.send("quit")
        self.proc.wait()


def mate_of(info):
    found = re.search(r" score mate (-?\d+)", info)
    return int(found.group(1)) if found else None


def pv_of(info):
    found = re.search(r" pv (.*)$", info)
    return found.group(1).split() if found else []


def read_set(path):
    entries = []
    for line in open(path):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        variant, fen, mate, remark = [f.strip() for f in line.split(";", 3)]
        entries.append((variant, fen, int(mate.split()[1]), remark))
    return entries


def report(args):
    engine = Uci([args.engine, "uci"])
    if args.hash:
        engine.send(f"setoption name Hash value {args.hash}")
    exact = 0
    entries = read_set(args.set)
    print(f"{'variant':14} {'ref':>4} {'palace':>6} {'depth':>5} {'nodes':>9} {'ms':>6}  fen")
    for variant, fen, mate, remark in entries:
        engine.set_variant(variant)
        engine.send("ucinewgame")
        engine.position(fen)
        limit = f"depth {args.depth}" if args.depth else f"nodes {args.nodes}"
        info, _ = engine.go(limit)
        found = mate_of(info)
        exact += found == mate
        depth = re.search(r" depth (\d+)", info).group(1)
        nodes = re.search(r" nodes (\d+)", info).group(1)
        ms = re.search(r" time (\d+)", info).group(1)
        shown = "-" if found is None else str(found)
        print(f"{variant:14} {mate:>4} {shown:>6} {depth:>5} {nodes:>9} {ms:>6}  {fen}  {remark}")
    print(f"shortest win announced in {exact} of {len(entries)}")
    engine.close()


def describe(pv):
    """What the reference's line holds: passes (a move from a point to itself)."""
    passes = sum(1 for m in pv if re.match(r"^([a-z]+\d+)\1$", m))
    return f"pass x{passes}" if passes else ""


def palace_fen(fen):
    """The reference's Janggi FEN in Palace's orientation (ranks numbered from the other edge)."""
    board, rest = fen.split(" ", 1)
    return "/".join(reversed(board.split("/"))) + " " + rest


def random_endgames(rng, count, palace, variant_file):
    """Janggi endings: the side to move with one to three attackers against a general with at most
    two defenders, the side not to move out of check (asked of Palace)."""
    found = []
    while len(found) < count:
        board = {}

        def put(letter, files, ranks):
            while True:
                point = (rng.choice(files), rng.choice(ranks))
                if point not in board:
                    board[point] = letter
                    return

        put("K", "def", range(1, 4))
        put("k", "def", range(8, 11))
        cho = rng.random() < 0.5
        for _ in range(rng.randint(1, 3)):
            letter = rng.choice("RRCNNBP")
            ranks = range(1, 11) if letter != "P" else (range(4, 11) if cho else range(1, 8))
            put(letter if cho else letter.lower(), "abcdefghi", ranks)
        for _ in range(rng.randint(0, 2)):
            letter = rng.choice("AAPB")
            if letter == "A":
                put("a" if cho else "A", "def", range(8, 11) if cho else range(1, 4))
            else:
                ranks = range(1, 8) if cho else range(4, 11)
                put(letter.lower() if cho else letter, "abcdefghi", ranks)
        rows = []
        for rank in range(10, 0, -1):
            row, empty = "", 0
            for file in "abcdefghi":
                if (file, rank) in board:
                    row += (str(empty) if empty else "") + board[(file, rank)]
                    empty = 0
                else:
                    empty += 1
            rows.append(row + (str(empty) if empty else ""))
        side = "w" if cho else "b"
        fen = "/".join(rows) + f" {side} - - 0 1"
        other = "/".join(rows) + f" {'b' if cho else 'w'} - - 0 1"
        status = subprocess.run([palace, "status", variant_file, "--fen", palace_fen(other)],
                                capture_output=True, text=True).stdout
        if "in check: no" in status and "unfinished" in status:
            found.append(fen)
    return found


def find(args):
    rng = random.Random(args.seed)
    ref = Uci([args.reference])
    ref.send(f"setoption name Hash value {args.hash or 64}")
    ref.set_variant(args.variant)
    candidates = []
    if args.fens:
        candidates = [l.strip() for l in open(args.fens) if l.strip() and not l.startswith("#")]
    if args.endgames:
        candidates += random_endgames(rng, args.endgames, args.palace, args.variant_file)
    for game in range(args.games):
        moves = []
        ref.send("ucinewgame")
        while len(moves) < 300:
            ref.position(None, moves)
            if len(moves) < args.random_plies:
                legal = ref.legal_moves()
                if not legal:
                    break
                moves.append(rng.choice(legal))
                continue
            info, best = ref.go(f"nodes {args.nodes}")
            if best == "(none)":
                break
            mate = mate_of(info)
            if mate is not None and 0 < mate <= args.most:
                candidates.append(ref.fen())
                print(f"# game {game} ply {len(moves)}: shallow mate {mate}", file=sys.stderr)
                # One or two of the plies after too, where the same side still wins.
                moves.append(best)
                ref.position(None, moves)
                info, reply = ref.go(f"nodes {args.nodes}")
                if reply == "(none)":
                    break
                moves.append(reply)
                ref.position(None, moves)
                candidates.append(ref.fen())
                break
            moves.append(best)
    for fen in dict.fromkeys(candidates):
        ref.send("ucinewgame")
        ref.position(fen)
        started = time.time()
        info, _ = ref.go("depth 20", args.give_up)
        mate = mate_of(info)
        if " depth 20 " not in info:
            print(f"# depth 20 not reached in {args.give_up} s: {fen}", file=sys.stderr)
            continue
        if mate is None or mate <= 0:
            print(f"# no win at depth 20 ({time.time() - started:.0f} s): {fen}", file=sys.stderr)
            continue
        pv = pv_of(info)
        print(f"{args.variant}; {fen}; mate {mate}; {describe(pv)} pv {' '.join(pv)}", flush=True)
    ref.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    rep = sub.add_parser("report", help="Palace on the set")
    rep.add_argument("--engine", default="build/palace")
    rep.add_argument("--set", default="tests/search/forced_wins.epd")
    rep.add_argument("--depth", type=int, default=0)
    rep.add_argument("--nodes", type=int, default=2_000_000)
    rep.add_argument("--hash", type=int, default=0)
    fnd = sub.add_parser("find", help="new positions from the reference's self-play")
    fnd.add_argument("--reference", required=True)
    fnd.add_argument("--variant", default="janggi")
    fnd.add_argument("--games", type=int, default=10)
    fnd.add_argument("--seed", type=int, default=1)
    fnd.add_argument("--random-plies", type=int, default=6)
    fnd.add_argument("--nodes", type=int, default=4000)
    fnd.add_argument("--most", type=int, default=6, help="largest shallow mate distance kept")
    fnd.add_argument("--hash", type=int, default=0)
    fnd.add_argument("--fens", help="a file of FENs to search at depth 20, one a line")
    fnd.add_argument("--endgames", type=int, default=0, help="random Janggi endings to try first")
    fnd.add_argument("--palace", default="build/palace", help="checks the random endings")
    fnd.add_argument("--variant-file", default="variants/janggi-modern.yaml")
    fnd.add_argument("--give-up", type=int, default=60, help="seconds a depth-20 search may take")
    args = parser.parse_args()
    report(args) if args.command == "report" else find(args)


if __name__ == "__main__":
    main()
