"""Compile the search core (src/bummerl/search/core.py, typed by core.pxd) with Cython when possible.

Without Cython or a C compiler the install still succeeds and bummerl runs the same module as plain
Python (much slower), with a loud warning; CI checks ``bummerl.search.BACKEND == "compiled"``.
"""

from __future__ import annotations

import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

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


def extensions() -> list[Extension]:
    try:
        from Cython.Build import cythonize
    except ImportError:
        warn("Cython is not installed")
        return []
    return list(cythonize([Extension("bummerl.search.core", [CORE])], compiler_directives=DIRECTIVES,
                          quiet=True))


setup(ext_modules=extensions(), cmdclass={"build_ext": OptionalBuildExt})
