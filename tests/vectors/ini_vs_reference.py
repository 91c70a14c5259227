#!/usr/bin/env python3
"""A variants.ini converted by `palace import-ini`, each converted section's perft against the
reference engine's (Fairy-Stockfish) loading the same file with VariantPath.

For every converted section: perft from the start to DEPTH (default 3, `palace perft` on the file),
and from POSITIONS positions of random games (the reference's random legal moves, seeded; depth 2
there), both engines given the same moves over UCI (`palace uci` with VariantFile). Prints a line a
section, then the counts: sections, converted, perft equal, refused, and the refusals grouped by the
key that refused them.
Usage: ini_vs_reference.py PALACE FAIRY_STOCKFISH INI [DEPTH] [POSITIONS]
"""
import collections
import os
import random
import re
import subprocess
import sys
import tempfile
import threading


class Engine:
    """One UCI engine process, its options set."""

    def __init__(self, command, options):
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True)
        self.send("uci")
        for name, value in options:
            self.send("setoption name %s value %s" % (name, value))

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def until(self, pattern, seconds=120):
        """The lines up to one matching `pattern`; an engine silent for `seconds` is stopped."""
        watchdog = threading.Timer(seconds, self.proc.kill)
        watchdog.start()
        lines = []
        try:
            for line in self.proc.stdout:
                lines.append(line.rstrip("\n"))
                if re.match(pattern, line):
                    return lines
        finally:
            watchdog.cancel()
        raise RuntimeError("no answer: " + " | ".join(lines[-3:]))

    def perft(self, position, depth):
        """The count and, at depth 1, the moves."""
        self.send("position " + position)
        self.send("go perft %d" % depth)
        lines = self.until(r"Nodes searched: ")
        moves = [l.split(":")[0] for l in lines if re.match(r"^\S+: \d+$", l)]
        return int(lines[-1].split()[-1]), moves

    def quit(self):
        if self.proc.poll() is None:
            self.send("quit")
        self.proc.wait()


def palace_perft(binary, path, depth):
    command = [binary, "perft", path, "--depth", str(depth)]
    out = subprocess.run(command, capture_output=True, text=True)
    if out.returncode:
        return "error: " + out.stderr.strip()
    return int(out.stdout.split()[-1])


def refusing_key(line):
    """`FILE:LINE: [NAME] KEY = VALUE: why` gives KEY; a refusal at the section's header its why."""
    m = re.match(r"^[^:]*:\d+: \[[^]]*\] (\w+) = ", line)
    if m:
        return m.group(1)
    m = re.match(r"^[^:]*:(?:\d+:)? \[[^]]*\]:? ?(.*)$", line)
    why = m.group(1) if m else line
    why = re.sub(r"parent \S+", "parent X", why)
    return "(section) " + ("the converted file does not load" if "does not load" in why else why[:80])


def main():
    palace, fsf, ini = sys.argv[1], sys.argv[2], os.path.abspath(sys.argv[3])
    depth = int(sys.argv[4]) if len(sys.argv) > 4 else 3
    positions = int(sys.argv[5]) if len(sys.argv) > 5 else 0
    rng = random.Random(52)
    with tempfile.TemporaryDirectory() as out:
        run = subprocess.run([palace, "import-ini", ini, "--out", out], capture_output=True, text=True)
        converted = [l.split()[-1] for l in run.stdout.splitlines() if l.startswith("wrote ")]
        refusals = [l for l in run.stderr.splitlines() if l.strip()]
        equal = 0
        for path in converted:
            name = os.path.basename(path)[:-5]
            ref = Engine([fsf], [("VariantPath", ini), ("UCI_Variant", name)])
            own = Engine([palace, "uci"], [("VariantFile", path)])
            ours = palace_perft(palace, path, depth)
            theirs, _ = ref.perft("startpos", depth)
            same = ours == theirs
            detail = "start %s/%s" % (ours, theirs)
            for _ in range(positions):
                moves = []
                for _ in range(rng.randint(4, 16)):
                    _, legal = ref.perft("startpos moves " + " ".join(moves), 1)
                    if not legal:
                        break
                    moves.append(rng.choice(legal))
                position = "startpos moves " + " ".join(moves)
                try:
                    ours_at, _ = own.perft(position, 2)
                except RuntimeError as e:
                    ours_at = str(e)
                    own = Engine([palace, "uci"], [("VariantFile", path)])
                theirs_at, _ = ref.perft(position, 2)
                if ours_at != theirs_at:
                    same = False
                    detail += "; %s: %s/%s" % (" ".join(moves), ours_at, theirs_at)
            ref.quit()
            own.quit()
            equal += same
            print("%-22s %s  %s" % (name, "equal" if same else "DIFFERENT", detail))
    by_key = collections.Counter(refusing_key(l) for l in refusals)
    print("%d sections, %d converted, %d perft equal, %d refused" %
          (len(converted) + len(refusals), len(converted), equal, len(refusals)))
    for key, n in by_key.most_common():
        print("  %3d %s" % (n, key))
    sys.exit(0 if equal == len(converted) else 1)


if __name__ == "__main__":
    main()
