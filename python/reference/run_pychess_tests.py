"""Runs pychess-variants' server tests with palace in pyffish's place (or with pyffish itself, for the
baseline), one test file at a time, and prints every test's outcome and the counts.

    python3 python/reference/run_pychess_tests.py PYCHESS --module-dir build [--pyffish]
        [--python PYTHON] [--deps DIR]... [--timeout SECONDS] [FILE...]

PYCHESS is a pychess-variants clone. --module-dir holds the built module: palace's (then a shim
folder with a pyffish.py that hands palace to `import pyffish` comes first on the path), or with
--pyffish the reference's own pyffish. --python is the interpreter that runs the tests (the module
in --module-dir must be built for it); --deps adds folders of packages to its path before the
system's. FILE names test files (test_fairy_board.py ...); without any, every tests/test_*.py.

Each file runs as pychess-variants' CI runs its unit tests (`python -m unittest discover -s tests`,
PYTHONPATH=server, from the clone's top folder), in its own process so that one file that hangs or
crashes does not stop the others. Exit code 77 (skipped) when PYCHESS, the module or a package the
server imports at start-up is missing; otherwise 0, whatever the tests' results.
"""
import argparse
import glob
import json
import os
import subprocess
import sys
import tempfile

SKIP = 77
# What every server test needs before any of its own code runs: the test base classes import the
# web application, which imports these.
STARTUP_IMPORTS = ["aiohttp.web", "pymongo", "msgspec", "mongomock_motor", "jinja2", "pyffish"]
# pychess-variants is written for Python 3.14, whose annotations are evaluated only when read (PEP 649):
# its modules annotate with names imported under TYPE_CHECKING alone. On an older Python this hook,
# run at start-up as sitecustomize, compiles the clone's own files as `from __future__ import
# annotations` would (annotations kept as strings, never evaluated at definition), and nothing else.
ANNOTATIONS_HOOK = """import __future__, importlib.machinery, sys
ROOT = {root!r}


class Loader(importlib.machinery.SourceFileLoader):
    def source_to_code(self, data, path, *, _optimize=-1):
        return compile(data, path, "exec", flags=__future__.annotations.compiler_flag, dont_inherit=True)


class Finder(importlib.machinery.PathFinder):
    @classmethod
    def find_spec(cls, name, path=None, target=None):
        spec = importlib.machinery.PathFinder.find_spec(name, path, target)
        if spec is not None and isinstance(spec.loader, importlib.machinery.SourceFileLoader) \\
                and spec.origin.startswith(ROOT):
            spec.loader = Loader(spec.loader.name, spec.loader.path)
        return spec


sys.meta_path.insert(0, Finder)
"""


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("pychess")
    ap.add_argument("--module-dir", required=True)
    ap.add_argument("--pyffish", action="store_true", help="the module in --module-dir is pyffish")
    ap.add_argument("--python", default=sys.executable)
    ap.add_argument("--deps", action="append", default=[])
    ap.add_argument("--timeout", type=int, default=600)
    ap.add_argument("files", nargs="*")
    args = ap.parse_intermixed_args()

    pychess = os.path.abspath(args.pychess)
    if not os.path.isdir(os.path.join(pychess, "server")) or not os.path.isdir(os.path.join(pychess, "tests")):
        print(f"skipped: {pychess} is not a pychess-variants clone (no server/ and tests/)")
        return SKIP
    with tempfile.TemporaryDirectory(prefix="pychess-shim-") as shim:
        path = [os.path.abspath(args.module_dir)] + [os.path.abspath(d) for d in args.deps]
        if not args.pyffish:
            with open(os.path.join(shim, "pyffish.py"), "w") as f:
                f.write("import sys, palace\nsys.modules[__name__] = palace\n")
            path.insert(0, shim)
        path.append(os.path.join(pychess, "server"))
        version = subprocess.run([args.python, "-c", "import sys; print(sys.version_info >= (3, 14))"],
                                 capture_output=True, text=True).stdout.strip()
        if version != "True":
            with open(os.path.join(shim, "sitecustomize.py"), "w") as f:
                f.write(ANNOTATIONS_HOOK.format(root=pychess + os.sep))
            if shim not in path:
                path.insert(0, shim)
            print(f"note: {args.python} is older than 3.14: the clone's modules are compiled with "
                  "postponed annotations (PEP 563 standing in for PEP 649)")
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(path), PYTHONDONTWRITEBYTECODE="1")

        probe = subprocess.run([args.python, "-c", "import importlib, sys\n"
                                f"for m in {STARTUP_IMPORTS!r}:\n"
                                "    try: importlib.import_module(m)\n"
                                "    except Exception as e: print(m, type(e).__name__, e); sys.exit(1)"],
                               env=env, cwd=pychess, capture_output=True, text=True)
        if probe.returncode:
            print(f"skipped: {args.python} cannot import {probe.stdout.strip() or probe.stderr.strip()}")
            return SKIP

        files = args.files or sorted(os.path.basename(p) for p in glob.glob(os.path.join(pychess, "tests", "test_*.py")))
        totals = {"passed": 0, "failed": 0, "errors": 0, "skipped": 0}
        for name in files:
            counts, lines = run_file(args, env, pychess, name)
            for k in totals:
                totals[k] += counts[k]
            print(f"{name}: " + ", ".join(f"{counts[k]} {k}" for k in totals), flush=True)
            for line in lines:
                print("    " + line, flush=True)
    print(", ".join(f"{totals[k]} {k}" for k in totals))
    return 0


# Run in the test interpreter: one file through unittest discovery, as `python -m unittest discover
# -s tests -p FILE` does, with every outcome written to a JSON file (stderr carries the server's log).
DRIVER = """import json, sys, unittest
suite = unittest.TestLoader().discover("tests", pattern=sys.argv[1])
result = unittest.TextTestRunner(stream=sys.stderr, verbosity=0).run(suite)
def last(trace):
    lines = [l.strip() for l in trace.splitlines() if l.strip()]
    return lines[-1] if lines else "?"
json.dump({"ran": result.testsRun,
           "failed": [[t.id(), last(e)] for t, e in result.failures + [(u, "unexpected success") for u in result.unexpectedSuccesses]],
           "errors": [[t.id(), last(e)] for t, e in result.errors],
           "skipped": [[t.id(), why] for t, why in result.skipped]}, open(sys.argv[2], "w"))
"""


def run_file(args, env, pychess, name):
    """One test file in its own process: its counts and one line per test that did not pass."""
    counts = {"passed": 0, "failed": 0, "errors": 0, "skipped": 0}
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        try:
            proc = subprocess.run([args.python, "-c", DRIVER, name, out.name], env=env, cwd=pychess,
                                  capture_output=True, text=True, timeout=args.timeout)
        except subprocess.TimeoutExpired:
            counts["errors"] += 1
            return counts, [f"timed out after {args.timeout} s"]
        try:
            with open(out.name) as f:
                result = json.load(f)
        except ValueError:
            counts["errors"] += 1
            return counts, ["crashed: " + (proc.stderr.strip().splitlines() or ["no output"])[-1][:300]]
    lines = []
    # A test counts once, whatever number of its subtests (`id (params)`) fail; an error in a class's
    # setUpClass stands for a test that never ran, so it is not among the ran ones.
    seen = set()
    for kind in ("errors", "failed", "skipped"):
        for test, why in result[kind]:
            lines.append(f"{test} {kind.upper() if kind != 'skipped' else 'skipped'}: {why[:300]}")
            parent = test.split(" (")[0]
            if parent not in seen:
                seen.add(parent)
                counts[kind] += 1
    class_errors = sum(1 for test in seen if test.startswith(("setUpClass", "tearDownClass", "setUpModule")))
    counts["passed"] = result["ran"] - (len(seen) - class_errors)
    return counts, sorted(lines)


if __name__ == "__main__":
    sys.exit(main())
