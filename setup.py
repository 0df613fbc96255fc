"""Build the compiled search core when a C compiler is present; bummerl falls back to pure Python without it."""

from __future__ import annotations

from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext


class OptionalBuildExt(build_ext):
    """Build extensions, but never fail the install: the pure-Python search is the fallback."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as err:  # noqa: BLE001 - any build failure means "no compiled core"
            print(f"warning: compiled search core not built ({err}); using pure Python")

    def build_extension(self, ext):  # type: ignore[no-untyped-def]
        try:
            super().build_extension(ext)
        except Exception as err:  # noqa: BLE001
            print(f"warning: {ext.name} not built ({err}); using pure Python")


def extensions() -> list:  # type: ignore[type-arg]
    sources = sorted(Path("src/bummerl/search").glob("*.pyx"))
    if not sources:
        return []
    try:
        from Cython.Build import cythonize
    except ImportError:
        return []
    return cythonize(
        [str(p) for p in sources],
        compiler_directives={"language_level": "3", "boundscheck": False, "wraparound": False},
        quiet=True,
    )


setup(ext_modules=extensions(), cmdclass={"build_ext": OptionalBuildExt})
