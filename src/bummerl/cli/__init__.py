"""The ``bummerl`` command line. Each subcommand lives in a module of its own and registers on :data:`app`."""

from __future__ import annotations

from bummerl.cli import arena  # noqa: F401
from bummerl.cli import play  # noqa: F401
from bummerl.cli import replay  # noqa: F401
from bummerl.cli import solve  # noqa: F401
from bummerl.cli.app import app

__all__ = ["app", "main"]


def main() -> None:
    """Entry point of the ``bummerl`` console script."""
    app()
