"""The Typer application every ``bummerl`` subcommand registers on, and the shared error exit."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import sys
from collections.abc import Callable, Iterator
from typing import Any, NoReturn

import typer

app = typer.Typer(
    name="bummerl",
    help="Schnapsen and Sixty-Six: play, replay, solve, analyse and pit bots against each other.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode="markdown",  # a docstring's lines are joined into paragraphs, as they were written
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _show_version(value: bool) -> None:
    if value:
        from bummerl import __version__
        from bummerl.search import BACKEND

        typer.echo(f"bummerl {__version__} ({BACKEND} search core)")
        raise typer.Exit()


#: The commands whose computer players or solver think: told when the search core runs as plain Python.
THINKING = frozenset({"play", "serve", "arena", "tournament", "solve", "analyse"})


def slow_core_note() -> str | None:
    """A one-line note when the search core was not compiled at install time (no C compiler or Cython:
    pip shows setup.py's warning only with ``-v``) and plain Python was not asked for
    (``BUMMERL_PURE_PYTHON``); None when the compiled core is in use."""
    from bummerl.search import BACKEND

    if BACKEND == "compiled" or os.environ.get("BUMMERL_PURE_PYTHON"):
        return None
    return ("note: the compiled search core is not installed (bummerl was installed without a C compiler or "
            "Cython), so the computer thinks about 50 times slower; install them and reinstall bummerl")


@app.callback()
def _root(
    ctx: typer.Context,
    version: bool = typer.Option(False, "--version", help="Show the version and exit.", is_eager=True,
                                 callback=_show_version),
) -> None:
    """Schnapsen and Sixty-Six: play, replay, solve, analyse and pit bots against each other."""
    if ctx.invoked_subcommand in THINKING and (note := slow_core_note()) is not None:
        typer.echo(note, err=True)


@contextlib.contextmanager
def stopped_as_by_ctrl_c(*signals: signal.Signals) -> Iterator[list[int]]:
    """While the block runs, each of ``signals`` (SIGTERM: ``kill``, ``timeout``; SIGHUP: a closed terminal)
    stops the command as Ctrl-C does, raising KeyboardInterrupt; the list yielded collects the signals
    received. The handlers before are back after the block (a second signal then acts at once).

    >>> with stopped_as_by_ctrl_c(signal.SIGTERM) as received:
    ...     pass
    >>> received
    []
    """
    received: list[int] = []

    def stop(signum: int, frame: object) -> None:
        received.append(signum)
        raise KeyboardInterrupt

    before = {s: signal.signal(s, stop) for s in signals}
    try:
        yield received
    finally:
        for s, handler in before.items():
            signal.signal(s, handler)


def stop_status(received: list[int]) -> int:
    """The exit status of a command stopped by the first of ``received`` (128 + its number), or by Ctrl-C.

    >>> stop_status([]), stop_status([signal.SIGTERM])
    (130, 143)
    """
    return 128 + (received[0] if received else signal.SIGINT)


@contextlib.contextmanager
def results_out() -> Iterator[None]:
    """Write results to standard output: a reader that stopped listening (``| head``) ends the command
    quietly; any other failure to write (a full disk) is one line, exit 2."""
    try:
        yield
        sys.stdout.flush()
    except OSError as err:
        why = output_failure(err)
        if why is None:
            raise typer.Exit(0) from None
        fail(why)


def output_failure(err: OSError) -> str | None:
    """After ``err`` writing standard output: what is left unwritten goes nowhere (not into a traceback at
    exit), and the one line to say (None for a reader that stopped listening, ``| head``: end quietly)."""
    with contextlib.suppress(OSError, ValueError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    if isinstance(err, BrokenPipeError):
        return None
    what = err.filename if err.filename is not None else "the output"
    return f"cannot write {what}: {err.strerror or err}"


def write_results(as_json: bool, as_csv: bool, *, data: Callable[[], Any], csv_text: Callable[[], str],
                  report: Callable[[], None]) -> None:
    """Write a command's results as JSON (``data()``), CSV (``csv_text()``) or the Rich report
    (``report()``), through :func:`results_out`."""
    with results_out():
        if as_json:
            typer.echo(json.dumps(data(), indent=2))
        elif as_csv:
            typer.echo(csv_text(), nl=False)
        else:
            report()


def fail(message: str, code: int = 2) -> NoReturn:
    """Print a one-line error on standard error and exit (no traceback)."""
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(code)


def parse_rule_overrides(items: list[str]) -> dict[str, str]:
    """``["false_claim=mirror", ...]`` as a dict; raises ValueError on an item without ``=``.

    >>> parse_rule_overrides(["false_claim=mirror", "open_tricks = no"])
    {'false_claim': 'mirror', 'open_tricks': 'no'}
    """
    out: dict[str, str] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name.strip() or not value.strip():
            raise ValueError(f"a rule override is FLAG=VALUE, e.g. false_claim=mirror, not {item!r}")
        out[name.strip()] = value.strip()
    return out
