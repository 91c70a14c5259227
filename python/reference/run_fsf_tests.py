"""Runs the reference engine's Python tests (Fairy-Stockfish's test.py) against palace through the
adapter beside this file (pyffish.py), and prints a table: one row per test, with how many of its
checks pass and fail, and how many could not run because the test calls a variant Palace does not
have or a pyffish function the adapter does not map.

    PYTHONPATH=build python3 python/reference/run_fsf_tests.py PATH [--details]

PATH is test.py, or the git folder of a Fairy-Stockfish clone (its HEAD's test.py is read). The
reference's file is not kept in this repository; python/README.md names the commit it was run at.

A test of test.py stops at its first failure, and nearly every one touches some variant Palace does
not have, so each test is run check by check: every statement of a test runs on its own, a check
(`self.assert...`) counts as passed or failed, and a value that could not be computed (its call
raised) makes the checks that read it "not run" rather than failed. --details lists every failed
check and every refusal with its line.
"""
import ast
import importlib.util
import os
import re
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


class NotComputed(Exception):
    """Raised by any use of a value whose computation failed."""


class Missing:
    """Stands for a value whose call raised: every use of it raises NotComputed."""

    def __init__(self, why):
        self.why = why

    def _refuse(self, *args, **kwargs):
        raise NotComputed(self.why)

    def __repr__(self):  # read back from messages that quote it (a TypeError naming the arguments)
        return f"<Missing {self.why[0]}>"

    __eq__ = __ne__ = __contains__ = __iter__ = __len__ = __getitem__ = __bool__ = _refuse
    __getattr__ = __lt__ = __gt__ = __hash__ = _refuse


class Ledger:
    """What happened to each statement, by test."""

    def __init__(self):
        self.test = None
        self.rows = {}
        self.events = []  # (test, line, kind, message)

    def row(self):
        return self.rows.setdefault(self.test, {"pass": 0, "fail": 0, "variant": 0, "function": 0, "refused": 0})

    def check_passed(self):
        self.row()["pass"] += 1

    def failed(self, line, error, is_check):
        """A statement raised: a check counts by why; any other statement's value becomes Missing."""
        quoted = re.search(r"<Missing (\w+)>", str(error))
        if isinstance(error, NotComputed):
            kind, message = error.args[0]
        elif quoted:  # the statement handed a missing value on, which said so
            kind, message = quoted.group(1), one_line(error)
        else:
            kind, message = classify(error), one_line(error)
        if is_check:
            self.row()[kind] += 1
        self.events.append((self.test, line, kind, message))
        return Missing((kind, message))


def one_line(error):
    text = str(error).strip().splitlines()
    return type(error).__name__ + ": " + (text[0] if text else "")


def classify(error):
    if isinstance(error, AttributeError) and "pyffish" in str(error):
        return "function"
    if re.match(r'unknown variant "', str(error)):
        return "variant"
    if isinstance(error, AssertionError):
        return "fail"
    return "refused"


class Isolate(ast.NodeTransformer):
    """Wraps each simple statement of the test class's methods so that it runs on its own."""

    def wrap(self, statement):
        is_check = (isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call)
                    and isinstance(statement.value.func, ast.Attribute)
                    and statement.value.func.attr.startswith("assert"))
        record = ast.parse(f"__ledger__.failed({statement.lineno}, __error__, {is_check})", mode="eval").body
        if isinstance(statement, ast.Assign) and all(isinstance(t, ast.Name) for t in statement.targets):
            handler_body = [ast.Assign(targets=[ast.Name(t.id, ast.Store()) for t in statement.targets], value=record)]
        else:
            handler_body = [ast.Expr(record)]
        after = [ast.Expr(ast.parse("__ledger__.check_passed()", mode="eval").body)] if is_check else []
        return ast.Try(body=[statement] + after,
                       handlers=[ast.ExceptHandler(type=ast.Name("Exception", ast.Load()), name="__error__", body=handler_body)],
                       orelse=[], finalbody=[])

    def block(self, statements):
        out = []
        for s in statements:
            if isinstance(s, (ast.For, ast.With, ast.If)):
                s.body = self.block(s.body)
                if isinstance(s, (ast.For, ast.If)):
                    s.orelse = self.block(s.orelse)
                out.append(s)
            else:
                out.append(self.wrap(s))
        return out

    def visit_ClassDef(self, node):
        for item in node.body:
            if isinstance(item, ast.FunctionDef):
                item.body = self.block(item.body)
        return node


def main():
    args = [a for a in sys.argv[1:] if a != "--details"]
    if len(args) != 1:
        print(__doc__)
        return 2
    tree = ast.fix_missing_locations(Isolate().visit(ast.parse(test_source(args[0]))))
    sys.path.insert(0, HERE)  # `import pyffish` finds the adapter
    import pyffish
    ledger = Ledger()
    module = type(sys)("fsf_test")
    module.__ledger__ = ledger
    exec(compile(tree, "test.py", "exec"), module.__dict__)
    suite = unittest.defaultTestLoader.loadTestsFromModule(module)
    for test in suite:
        for case in test:
            ledger.test = case._testMethodName
            ledger.row()
            result = unittest.TestResult()
            case.run(result)
            for _, trace in result.errors + result.failures:  # outside any statement: not expected
                ledger.row()["refused"] += 1
                ledger.events.append((ledger.test, 0, "refused", trace.strip().splitlines()[-1]))
    print("| test | checks passed | failed | not run: variant not in Palace | not run: function not mapped | calls refused |")
    print("|---|---|---|---|---|---|")
    totals = dict.fromkeys(["pass", "fail", "variant", "function", "refused"], 0)
    for name, r in ledger.rows.items():
        print(f"| {name} | {r['pass']} | {r['fail']} | {r['variant']} | {r['function']} | {r['refused']} |")
        for key in totals:
            totals[key] += r[key]
    print(f"| **all** | {totals['pass']} | {totals['fail']} | {totals['variant']} | {totals['function']} | {totals['refused']} |")
    print(f"\n{len(pyffish.skipped_configs)} INI variant configuration(s) skipped")
    if "--details" in sys.argv:
        print("\ntest, line, kind, message:")
        for test, line, kind, message in ledger.events:
            if kind in ("fail", "refused"):
                print(f"{test}:{line}: {kind}: {message[:200]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
