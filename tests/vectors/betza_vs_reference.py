#!/usr/bin/env python3
"""Perft of pieces written in Betza, in Palace and in the reference engine (Fairy-Stockfish).

Each row puts one Betza piece in place of chess's queen (or pawn) and counts the same position in
both engines: Palace reads the text with `betza:` (loader/betza.h), the reference as `customPiece1`.
Usage: betza_vs_reference.py PALACE FAIRY_STOCKFISH [DEPTH]
"""
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
CHESS = os.path.normpath(os.path.join(HERE, "..", "..", "variants", "chess.yaml"))
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
# (Betza, the kind it replaces, the position, the depth)
ROWS = [
    ("fmWfcFifmnD", "pawn", START, 4),
    ("N", "queen", KIWIPETE, 3), ("B", "queen", KIWIPETE, 3), ("R", "queen", KIWIPETE, 3),
    ("Q", "queen", KIWIPETE, 3), ("K", "queen", KIWIPETE, 3), ("nN", "queen", KIWIPETE, 3),
    ("nA", "queen", KIWIPETE, 3), ("mRcpR", "queen", KIWIPETE, 3), ("pR", "queen", KIWIPETE, 3),
    ("gQ", "queen", KIWIPETE, 3), ("R4", "queen", KIWIPETE, 3), ("W2", "queen", KIWIPETE, 3),
    ("fsW", "queen", KIWIPETE, 3), ("vR", "queen", KIWIPETE, 3), ("sW", "queen", KIWIPETE, 3),
    ("ffN", "queen", KIWIPETE, 3), ("fsN", "queen", KIWIPETE, 3), ("rfN", "queen", KIWIPETE, 3),
    ("fN", "queen", KIWIPETE, 3), ("bhN", "queen", KIWIPETE, 3), ("hlN", "queen", KIWIPETE, 3),
    ("cK", "queen", KIWIPETE, 3), ("mK", "queen", KIWIPETE, 3), ("fsK", "queen", KIWIPETE, 3),
    ("mWcF", "queen", KIWIPETE, 3), ("nZ", "queen", KIWIPETE, 3), ("nDnH", "queen", KIWIPETE, 3),
    ("CGZ", "queen", KIWIPETE, 3), ("FAfsW", "queen", KIWIPETE, 3), ("WfF", "queen", KIWIPETE, 3),
    ("fRbW", "queen", KIWIPETE, 3), ("lrBvW", "queen", KIWIPETE, 3), ("BN", "queen", KIWIPETE, 3),
    ("NN", "queen", KIWIPETE, 3), ("N2", "queen", KIWIPETE, 3), ("mNNcK", "queen", KIWIPETE, 3),
    ("NNQ", "queen", KIWIPETE, 3), ("DD", "queen", KIWIPETE, 3), ("ffNN", "queen", KIWIPETE, 3),
]
LETTER = {"queen": "q", "pawn": "p"}


def palace(palace_bin, betza, kind, fen, depth, tmp):
    path = os.path.join(tmp, "betza.yaml")
    zone = ", initial_zone: pawn-rank" if "i" in betza else ""
    with open(path, "w") as f:
        # The reference turns Black's moves round rather than mirroring them: a chiral piece (rfN) differs.
        f.write("language: 1\nimport: [%s]\nname: betza-test\nuci: ~\nnotation: {pgn: [betza-test]}\n"
                "sides:\n  black: {turned: true}\n"
                "pieces:\n  %s: {moves: [{betza: \"%s\"%s}]}\n" % (CHESS, kind, betza, zone))
    out = subprocess.run([palace_bin, "perft", path, "--depth", str(depth), "--fen", fen],
                         capture_output=True, text=True)
    return out.stdout.split()[-1] if out.returncode == 0 else "error: " + out.stderr.strip()


def reference(fsf_bin, betza, kind, fen, depth, tmp):
    path = os.path.join(tmp, "betza.ini")
    with open(path, "w") as f:
        f.write("[betzatest:chess]\ncustomPiece1 = a:%s\n" % betza)
    letter = LETTER[kind]
    board, rest = fen.split(" ", 1)
    board = board.replace(letter, "a").replace(letter.upper(), "A")
    commands = ("uci\nsetoption name VariantPath value %s\nsetoption name UCI_Variant value betzatest\n"
                "position fen %s %s\ngo perft %d\n" % (path, board, rest, depth))
    proc = subprocess.Popen([fsf_bin], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    proc.stdin.write(commands)
    proc.stdin.flush()
    for line in proc.stdout:
        m = re.match(r"Nodes searched: (\d+)", line)
        if m:
            proc.stdin.write("quit\n")
            proc.stdin.flush()
            proc.wait()
            return m.group(1)
    return "no count"


def main():
    palace_bin, fsf_bin = sys.argv[1], sys.argv[2]
    differ = 0
    with tempfile.TemporaryDirectory() as tmp:
        for betza, kind, fen, depth in ROWS:
            ours = palace(palace_bin, betza, kind, fen, depth, tmp)
            theirs = reference(fsf_bin, betza, kind, fen, depth, tmp)
            where = "start" if fen == START else "kiwipete"
            print("%-12s %-6s %-8s %d  palace %-10s reference %-10s %s" %
                  (betza, kind, where, depth, ours, theirs, "same" if ours == theirs else "DIFFERENT"))
            differ += ours != theirs
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
