"""Runs the reference engine's Python tests (Fairy-Stockfish's test.py) against palace through the
adapter beside this file, and prints one table row per test: passed or failed, its subtests, and the
first failure in a line.

    python3 python/reference/run_fsf_tests.py PATH     # PATH: test.py, or a clone's git folder
    PYTHONPATH=build python3 python/reference/run_fsf_tests.py /work/.mirror/.../repo

The reference's file is not kept in this repository (python/README.md has the commit it was run at).
"""
import importlib.util
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))


def test_source(path):
    if os.path.isdir(path):  # a git folder: its HEAD's test.py
        return subprocess.run(["git", "--git-dir", path, "show", "HEAD:test.py"], check=True,
                              capture_output=True, text=True).stdout
    with open(path, encoding="utf-8") as f:
        return f.read()


class TableResult(unittest.TestResult):
    """Per test: 'pass' or 'fail', subtests passed and failed, the first problem in one line."""

    def __init__(self):
        super().__init__()
        self.rows = {}

    def row(self, test):
        return self.rows.setdefault(test._testMethodName, {"ok": True, "sub_ok": 0, "sub_bad": 0, "first": ""})

    def note(self, test, err):
        r = self.row(test)
        r["ok"] = False
        if not r["first"]:
            kind, value = err[0].__name__, str(err[1]).strip().splitlines()
            r["first"] = kind + ": " + (value[0] if value else "")

    def startTest(self, test):
        super().startTest(test)
        self.row(test)

    def addFailure(self, test, err):
        self.note(test, err)

    def addError(self, test, err):
        self.note(test, err)

    def addSubTest(self, test, subtest, err):
        r = self.row(test)
        if err is None:
            r["sub_ok"] += 1
        else:
            r["sub_bad"] += 1
            self.note(test, err)


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    source = test_source(sys.argv[1])
    sys.path.insert(0, HERE)  # `import pyffish` finds the adapter
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "fsf_test.py")
        with open(path, "w", encoding="utf-8") as f:
            f.write(source)
        spec = importlib.util.spec_from_file_location("fsf_test", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    import pyffish
    result = TableResult()
    unittest.defaultTestLoader.loadTestsFromModule(module).run(result)
    print("| test | result | subtests passed/failed | first failure |")
    print("|---|---|---|---|")
    for name, r in result.rows.items():
        subs = f"{r['sub_ok']}/{r['sub_bad']}" if r["sub_ok"] + r["sub_bad"] else ""
        first = r["first"].replace("|", "\\|")[:140]
        print(f"| {name} | {'pass' if r['ok'] else 'fail'} | {subs} | {first} |")
    passed = sum(r["ok"] for r in result.rows.values())
    print(f"\n{passed} of {len(result.rows)} tests pass; "
          f"{len(pyffish.skipped_configs)} INI variant configuration(s) skipped")
    return 0


if __name__ == "__main__":
    sys.exit(main())
