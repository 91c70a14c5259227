"""The ctest entry of the Python module's tests: runs pytest on this folder with the build folder
first on the import path; exit code 77 (skipped) when the module was not built or pytest is missing.

    python3 tests/python/run_pytest.py BUILD_FOLDER [pytest options]
"""
import importlib.util
import os
import sys

SKIPPED = 77


def main():
    build = os.path.abspath(sys.argv[1])
    sys.path.insert(0, build)
    os.environ["PYTHONPATH"] = build + os.pathsep + os.environ.get("PYTHONPATH", "")
    if importlib.util.find_spec("pytest") is None:
        print("skipped: pytest is not installed for", sys.executable, "(Debian: python3-pytest)")
        return SKIPPED
    if importlib.util.find_spec("palace") is None:
        print("skipped: the palace module is not in", build, "(configure with -DPALACE_PYTHON=ON and pybind11-dev)")
        return SKIPPED
    import pytest
    return pytest.main([os.path.dirname(os.path.abspath(__file__)), "-q", "-p", "no:cacheprovider"] + sys.argv[2:])


if __name__ == "__main__":
    sys.exit(main())
