"""The ``bummerl`` command line. Each subcommand lives in a module of its own and registers on :data:`app`."""

from __future__ import annotations

from bummerl.cli import (
    arena,  # noqa: F401
    games,  # noqa: F401
    play,  # noqa: F401
    replay,  # noqa: F401
    serve,  # noqa: F401
    solve,  # noqa: F401
    tournament,  # noqa: F401
)
from bummerl.cli.app import app

__all__ = ["app", "main"]


def main() -> None:
    """Entry point of the ``bummerl`` console script."""
    app()
