#!/usr/bin/env python3
"""How long `palace uci` takes to answer `stop` with its bestmove, for every shipped variant and
the hostile hooked ones of tests/repro/serve-and-hooks/: `go infinite` from the start, `stop` after
DELAY ms, the time to `bestmove` measured REPEATS times. Prints the median and the worst per
variant and over all; fails (exit 1) when any answer took BOUND ms or more, or none came.
  python3 bench/stop_latency.py build/palace [REPEATS=3] [BOUND=1000] [DELAY=300]
"""
import os
import select
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HOSTILE = ["flip7", "flip7_local", "slow", "addmany", "dag", "pf", "trap"]


def variant_files():
    shipped = sorted(os.path.join("variants", f) for f in os.listdir(os.path.join(ROOT, "variants")) if f.endswith(".yaml"))
    return shipped + [os.path.join("tests/repro/serve-and-hooks", name + ".yaml") for name in HOSTILE]


def read_until(engine, prefix, timeout):
    """Lines until one starting with `prefix`; None when none comes within `timeout` seconds."""
    deadline = time.monotonic() + timeout
    buffered = b""
    while time.monotonic() < deadline:
        ready, _, _ = select.select([engine.stdout], [], [], max(0.0, deadline - time.monotonic()))
        if not ready:
            break
        chunk = os.read(engine.stdout.fileno(), 65536)
        if not chunk:
            return None
        buffered += chunk
        for line in buffered.split(b"\n"):
            if line.startswith(prefix):
                return line.decode(errors="replace")
        buffered = buffered[buffered.rfind(b"\n") + 1:]
    return None


def stop_times(palace, variant, repeats, delay):
    engine = subprocess.Popen([palace, "uci", variant], cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL)
    times = []
    try:
        engine.stdin.write(b"isready\n")
        engine.stdin.flush()
        if read_until(engine, b"readyok", 30) is None:
            raise RuntimeError("no readyok")
        for _ in range(repeats):
            engine.stdin.write(b"position startpos\ngo infinite\n")
            engine.stdin.flush()
            time.sleep(delay / 1000)
            began = time.monotonic()
            engine.stdin.write(b"stop\n")
            engine.stdin.flush()
            if read_until(engine, b"bestmove", 30) is None:
                raise RuntimeError("no bestmove within 30 s of stop")
            times.append((time.monotonic() - began) * 1000)
        engine.stdin.write(b"quit\n")
        engine.stdin.flush()
        engine.wait(timeout=10)
    finally:
        if engine.poll() is None:
            engine.kill()
    return times


def main():
    if len(sys.argv) < 2:
        print(__doc__.strip().splitlines()[-1].strip(), file=sys.stderr)
        return 2
    palace = os.path.abspath(sys.argv[1])
    repeats = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    bound = float(sys.argv[3]) if len(sys.argv) > 3 else 1000
    delay = float(sys.argv[4]) if len(sys.argv) > 4 else 300
    everything, failures = [], []
    for variant in variant_files():
        try:
            times = stop_times(palace, variant, repeats, delay)
        except RuntimeError as e:
            failures.append(f"{variant}: {e}")
            print(f"{variant:48} FAILED: {e}")
            continue
        everything += times
        print(f"{variant:48} median {statistics.median(times):7.1f} ms  worst {max(times):7.1f} ms")
        if max(times) >= bound:
            failures.append(f"{variant}: stop answered after {max(times):.0f} ms (bound {bound:.0f} ms)")
    if everything:
        print(f"all {len(everything)} stops: median {statistics.median(everything):.1f} ms, worst {max(everything):.1f} ms")
    for failure in failures:
        print("FAIL: " + failure, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
