#!/usr/bin/env python3
"""Fixed-depth search cost over positions taken from game records: the nodes and the time each
engine build needs to reach the same depth, summed over the positions, one line per build.

A search change that prunes or orders better shows as fewer nodes to the same depth; whether the
shallower tree still plays as well is for a match (`palace match`) to tell.

  bench/search_depth.py --variant variants/xiangqi.yaml --pgn games.uci.pgn --depth 9 \
      --engine build/palace --engine /tmp/old/palace

The PGN must be in UCI notation (`palace convert --notation uci`); positions are each game's
start and every --every plies after it.
"""
import argparse
import re
import subprocess
import sys
import time


def positions(pgn_text, every, most):
    """(fen or None, [uci moves]) for each game's start and every `every` plies of it."""
    found = []
    for game in re.split(r"\n(?=\[Event )", pgn_text):
        fen = re.search(r'\[FEN "([^"]+)"\]', game)
        body = "\n".join(line for line in game.splitlines() if not line.startswith("["))
        moves = [t for t in body.split() if not re.match(r"^(\d+\.+|1-0|0-1|1/2-1/2|\*)$", t)]
        for ply in range(0, len(moves), every):
            found.append((fen.group(1) if fen else None, moves[:ply]))
    return found[:most]


def search_costs(engine, variant, places, depth):
    """Total nodes and seconds (the engine's own `time`) to `depth` over the positions."""
    proc = subprocess.Popen([engine, "uci", variant], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            text=True, bufsize=1)

    def send(line):
        proc.stdin.write(line + "\n")

    def wait_for(prefix):
        last_info = None
        for line in proc.stdout:
            if line.startswith("info") and " nodes " in line:
                last_info = line
            if line.startswith(prefix):
                return last_info
        sys.exit(f"{engine}: ended before '{prefix}'")

    send("uci")
    wait_for("uciok")
    total_nodes = total_ms = 0
    for fen, moves in places:
        send("ucinewgame")
        where = f"fen {fen}" if fen else "startpos"
        send(f"position {where}" + (" moves " + " ".join(moves) if moves else ""))
        send(f"go depth {depth}")
        info = wait_for("bestmove")
        if info:
            total_nodes += int(re.search(r" nodes (\d+)", info).group(1))
            total_ms += int(re.search(r" time (\d+)", info).group(1))
    send("quit")
    proc.wait()
    return total_nodes, total_ms / 1000


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--variant", required=True)
    parser.add_argument("--pgn", required=True)
    parser.add_argument("--depth", type=int, default=8)
    parser.add_argument("--every", type=int, default=20)
    parser.add_argument("--most", type=int, default=24)
    parser.add_argument("--engine", action="append", required=True)
    args = parser.parse_args()
    with open(args.pgn, encoding="utf-8") as f:
        places = positions(f.read(), args.every, args.most)
    for engine in args.engine:
        start = time.time()
        nodes, seconds = search_costs(engine, args.variant, places, args.depth)
        print(f"{engine}: {len(places)} positions to depth {args.depth}: {nodes} nodes, "
              f"{seconds:.2f} s searching ({time.time() - start:.1f} s wall)", flush=True)


if __name__ == "__main__":
    main()
