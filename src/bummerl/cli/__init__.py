"""The ``bummerl`` command line. Each subcommand lives in a module of its own and registers on :data:`app`."""

from __future__ import annotations

import sys
from collections.abc import Sequence

from bummerl.cli import (
    arena,  # noqa: F401
    games,  # noqa: F401
    play,  # noqa: F401
    replay,  # noqa: F401
    serve,  # noqa: F401
    solve,  # noqa: F401
    tournament,  # noqa: F401
)
from bummerl.cli.app import app, output_failure

__all__ = ["app", "main"]


from typer import Abort

try:  # recent Typer carries its own copy of Click
    from typer._click.exceptions import ClickException, NoArgsIsHelpError
except ImportError:  # pragma: no cover - older Typer runs on Click itself
    from click.exceptions import ClickException, NoArgsIsHelpError  # type: ignore[assignment]
from typer.main import get_command


def main(args: Sequence[str] | None = None) -> None:
    """Entry point of the ``bummerl`` console script: a mistake on the command line is one line on stderr
    (Typer would draw a five-line box), naming the command's help; exit status 2.

    >>> main(["solve", "--nope"])
    Traceback (most recent call last):
    SystemExit: 2
    """
    try:
        code = app(args=args, prog_name="bummerl", standalone_mode=False)
    except NoArgsIsHelpError as e:
        e.show()
        sys.exit(e.exit_code)
    except ClickException as e:
        ctx = getattr(e, "ctx", None)
        where = ctx.command_path if ctx is not None else command_path(sys.argv[1:] if args is None else args)
        print(f"error: {e.format_message()} (see '{where} -h')", file=sys.stderr)
        sys.exit(e.exit_code)
    except Abort:
        print("Aborted.", file=sys.stderr)
        sys.exit(1)
    except OSError as err:  # what no command caught: writing its output (a full disk, a closed pipe)
        _output_failed(err)
    sys.exit(code if isinstance(code, int) else 0)


def _output_failed(err: OSError) -> None:
    """One line for an ``OSError`` that reached :func:`main`, mostly standard output that cannot be written
    (``bummerl games export ID > backup.json`` on a full disk; :func:`~bummerl.cli.app.output_failure`)."""
    why = output_failure(err)
    if why is None:
        sys.exit(0)
    print(f"error: {why}", file=sys.stderr)
    sys.exit(2)


def command_path(args: Sequence[str]) -> str:
    """The command that ``args`` name, for an error Click raised without its context (a missing value).

    >>> command_path(["games", "export", "--format"]), command_path(["play", "--level"]), command_path([])
    ('bummerl games export', 'bummerl play', 'bummerl')
    """
    path = ["bummerl"]
    commands = getattr(get_command(app), "commands", {})  # a group's subcommands by name
    for word in args:
        if word.startswith("-") or word not in commands:
            break
        commands = getattr(commands[word], "commands", {})
        path.append(word)
    return " ".join(path)
