"""Builds the extension module `palace` with the project's CMake (the target palace_python) and puts
the variants, rules and scripts it reads beside it, in palace_data/ (python/README.md)."""
import os
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = os.path.dirname(os.path.abspath(__file__))


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        # PALACE_BUILD_DIR reuses a CMake build folder (the README's `build`) instead of a fresh one.
        build = os.path.abspath(os.environ.get("PALACE_BUILD_DIR") or os.path.join(self.build_temp, "cmake"))
        subprocess.run(["cmake", "-S", ROOT, "-B", build, "-DCMAKE_BUILD_TYPE=Release", "-DPALACE_PYTHON=ON",
                        "-DPALACE_BENCHMARKS=OFF", f"-DPython3_EXECUTABLE={sys.executable}"], check=True)
        subprocess.run(["cmake", "--build", build, "--target", "palace_python", "-j", str(os.cpu_count() or 1)], check=True)
        built = [f for f in os.listdir(build) if f.startswith("palace.") and f.endswith(".so")]
        target = self.get_ext_fullpath(ext.name)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copyfile(os.path.join(build, built[0]), target)
        data = os.path.join(os.path.dirname(target), "palace_data")
        for folder in ("variants", "rules", "scripts"):
            shutil.rmtree(os.path.join(data, folder), ignore_errors=True)
            shutil.copytree(os.path.join(ROOT, folder), os.path.join(data, folder))


setup(ext_modules=[Extension("palace", sources=[])], cmdclass={"build_ext": CMakeBuild})
