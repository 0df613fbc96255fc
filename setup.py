"""Compile the search core (src/bummerl/search/core.py, typed by core.pxd) with Cython when possible.

Without Cython or a C compiler the install still succeeds and bummerl runs the same module as plain
Python (much slower), with a warning (pip shows it under ``-v``; ``bummerl`` itself then says so at each
command that thinks); CI checks ``bummerl.search.BACKEND == "compiled"``.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

CORE = "src/bummerl/search/core.py"
DIRECTIVES = {
    "language_level": "3",
    "annotation_typing": False,  # the C types are in core.pxd; the annotations are for mypy
    "infer_types": True,
    "boundscheck": False,
    "wraparound": False,
    "cdivision": True,
    "initializedcheck": False,
}


def warn(reason: str) -> None:
    bar = "!" * 78
    print(f"\n{bar}\nWARNING: the compiled search core was NOT built ({reason}).\n"
          "bummerl falls back to the plain-Python solver, about 50x slower.\n"
          f"Install Cython and a C compiler, then reinstall, to build it.\n{bar}\n", file=sys.stderr)


class OptionalBuildExt(build_ext):
    """Build the extension, but never fail the install: the plain-Python search is the fallback."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as err:
            warn(str(err))

    def build_extension(self, ext: Extension) -> None:
        try:
            super().build_extension(ext)
        except Exception as err:
            warn(f"{ext.name}: {err}")


class BuildPyWithRules(build_py):
    """Ship ``docs/rules.md``, the web game's rules page, inside the package as ``bummerl/data/rules.md`` (an
    editable install reads it from the checkout); leave out the C file Cython generates from ``core.py``
    (2 MB that only the compiler reads)."""

    def run(self) -> None:
        super().run()
        for generated in Path(self.build_lib, "bummerl").rglob("*.c"):
            generated.unlink()
        source = Path("docs/rules.md")
        if source.is_file():
            target = Path(self.build_lib, "bummerl", "data", "rules.md")
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, target)


def extensions() -> list[Extension]:
    try:
        from Cython.Build import cythonize
    except ImportError:
        warn("Cython is not installed")
        return []
    # Without debug information (Python's own flags ask for it: 2 MB instead of about 0.4 MB).
    core = Extension("bummerl.search.core", [CORE], extra_compile_args=["-g0"], extra_link_args=["-s"])
    return list(cythonize([core], compiler_directives=DIRECTIVES, quiet=True))


setup(ext_modules=extensions(), cmdclass={"build_ext": OptionalBuildExt, "build_py": BuildPyWithRules})
