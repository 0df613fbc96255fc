"""``bummerl arena``: bots against each other on paired decks, with 95 % intervals, ratings and speed.

The options every arena run takes are written once here (``Deals``, ``Seed``, ...) and shared with
``bummerl tournament``, as is :func:`run_or_fail` (progress bar, one-line errors, Ctrl-C).
"""

from __future__ import annotations

import signal
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated

import typer

from bummerl.cli.app import app, fail, parse_rule_overrides, stop_status, stopped_as_by_ctrl_c, write_results

if TYPE_CHECKING:
    from bummerl.arena import ArenaConfig, ArenaResult

__all__ = ["arena", "make_config", "run_or_fail"]

Bots = Annotated[list[str] | None, typer.Argument(
    help="Two or more bots: registered names (see --list) or cmd:COMMAND for an outside program. Every pair "
         "of them plays.", show_default=False)]
#: Deals per pair of bots when neither ``--deals`` nor ``--bummerls`` is given.
DEFAULT_DEALS = 200
Deals = Annotated[int | None, typer.Option(
    help=f"Deals per pair of bots, even: every deck is dealt twice, seats swapped (default {DEFAULT_DEALS}).",
    show_default=False)]
Bummerls = Annotated[int | None, typer.Option(
    help="Play this many whole Bummerls per pair instead (even; twins on the same cards, seats swapped); "
         "bots see the score.", show_default=False)]
Seed = Annotated[int | None, typer.Option(
    help="Root of the decks and the bots' seeds: the same seed, the same games (default: a fresh secret one, "
         "printed with the results; a guessable seed lets a bot guess the decks).", show_default=False)]
RulesName = Annotated[str, typer.Option("--rules", help="Rules preset: standard, soft, sharp, tompa, vu, "
                                                        "sixty-six.")]
RuleOverrides = Annotated[list[str] | None, typer.Option(
    "--rule", help="Override one rule flag, FLAG=VALUE (repeatable), e.g. false_claim=mirror.")]
Workers = Annotated[int, typer.Option("--workers", "-j", help="Worker processes, or CPUs of a local Ray (the "
                                                              "results do not depend on it).")]
Timeout = Annotated[float | None, typer.Option(
    help="Seconds a bot may take per decision: an outside program is stopped then (default 10); a Python bot "
         "is held to it only when given (a slower decision forfeits the deal).", show_default=False)]
Anchor = Annotated[str | None, typer.Option(help="Bot rated 0 (default: random if playing, else the first "
                                                 "bot).", show_default=False)]
Ray = Annotated[bool, typer.Option(
    "--ray", help="Run the chunks as Ray tasks (pip install 'bummerl\\[cluster]') on a Ray started here "
                  "with -j CPUs, or on the cluster at --ray-address.")]
RayAddress = Annotated[str | None, typer.Option(
    "--ray-address", metavar="ADDRESS", help="The Ray cluster to run on (implies --ray): auto, HOST:6379 or "
                                             "ray://HOST:10001.", show_default=False)]
AsJson = Annotated[bool, typer.Option("--json", help="Print the results as JSON.")]
Quiet = Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")]


@app.command()
def arena(
    bots: Bots = None,
    deals: Deals = None,
    bummerls: Bummerls = None,
    seed: Seed = None,
    rules: RulesName = "standard",
    rule: RuleOverrides = None,
    workers: Workers = 1,
    timeout: Timeout = None,
    anchor: Anchor = None,
    ray: Ray = False,
    ray_address: RayAddress = None,
    as_json: AsJson = False,
    as_csv: Annotated[bool, typer.Option("--csv", help="Print one CSV row per bot and pairing.")] = False,
    quiet: Quiet = False,
    list_bots: Annotated[bool, typer.Option("--list", help="List the registered bots and exit.")] = False,
    list_all: Annotated[bool, typer.Option(
        "--all", help="With --list: also the baselines, research candidates, yardsticks (not for players).")
    ] = False,
) -> None:
    """Pit bots against each other on paired decks and report deals, game points and Bummerls won with 95%
    intervals, ratings (for three or more bots), time per decision and deals per second.

    A bot that fails or plays something illegal forfeits the deal (3 game points to the other side).
    """
    from bummerl.bots.registry import describe_bots

    if list_bots:
        rows = [*describe_bots(public_only=not list_all),
                ("cmd:COMMAND", "an outside program speaking JSON lines (see examples/random_bot.py)")]
        width = max(len(name) for name, _ in rows) + 2
        for name, description in rows:
            typer.echo(f"{name:{width}}{description}")
        if not list_all:
            typer.echo("(--list --all also lists the baselines and research candidates, e.g. expert-v1)")
        return
    if list_all:
        fail("--all goes with --list")
    if as_json and as_csv:
        fail("choose one of --json and --csv")
    config = make_config(bots, deals=deals, bummerls=bummerls, seed=seed, rules=rules, rule=rule,
                         workers=workers, timeout=timeout, anchor=anchor, ray=ray, ray_address=ray_address)
    result = run_or_fail(config, quiet, lambda partial: _print(partial, as_json, as_csv))
    _print(result, as_json, as_csv)


def make_config(bots: list[str] | None, *, deals: int | None, bummerls: int | None, seed: int | None,
                rules: str, rule: list[str] | None, workers: int, timeout: float | None, anchor: str | None,
                ray: bool, ray_address: str | None) -> ArenaConfig:
    """The arena settings from the shared options (exit 2 with one line for what cannot work here)."""
    from bummerl.arena import ArenaConfig
    from bummerl.bots.registry import describe_bots
    from bummerl.rules import Rules, RulesError

    specs = tuple(bots or ())
    if deals is not None and bummerls is not None:
        fail("choose --deals or --bummerls, not both")
    if deals is None:
        deals = DEFAULT_DEALS
    if len(specs) < 2:
        known = ", ".join(name for name, _ in describe_bots(public_only=True))
        fail(f"name at least two bots (known bots: {known}; or cmd:COMMAND)")
    try:
        chosen = Rules.preset(rules).replace(**parse_rule_overrides(rule or []))
    except (RulesError, ValueError) as err:
        fail(str(err))
    return ArenaConfig(specs, chosen, seed=seed, deals=deals, bummerls=bummerls, workers=workers,
                       timeout=timeout, anchor=anchor,
                       ray=ray_address if ray_address is not None else ("local" if ray else None))


def run_or_fail(config: ArenaConfig, quiet: bool,
                on_interrupt: Callable[[ArenaResult], None]) -> ArenaResult:
    """Run the arena (with a progress bar on a terminal unless ``quiet``); settings that cannot work exit 2
    with one line; Ctrl-C shows the results so far through ``on_interrupt`` and exits 130. SIGTERM and SIGHUP
    (``kill``, ``timeout``, a closed terminal, a cancelled job) stop it the same way (exit 143, 129): the
    workers and the outside programs are stopped, none is left running."""
    from bummerl.arena import ArenaBroken, ArenaError, ArenaInterrupted, run_arena

    with stopped_as_by_ctrl_c(signal.SIGTERM, signal.SIGHUP) as received:
        try:
            return run_arena(config) if quiet or not sys.stderr.isatty() else _run_with_progress(config)
        except ArenaBroken as broken:
            on_interrupt(broken.result)  # what was finished is not lost
            fail(f"the run stopped: {broken}; the results above are the {broken.result.deals} deals finished")
        except ArenaError as err:
            fail(str(err))
        except ArenaInterrupted as interrupted:
            stopped = interrupted.result
    # (the handlers are back: a second signal while the report is written ends it at once)
    on_interrupt(stopped)
    why = f"stopped by {signal.Signals(received[0]).name}" if received else "interrupted"
    fail(f"{why}: the results above are the {stopped.deals} deals finished", code=stop_status(received))


def _print(result: ArenaResult, as_json: bool, as_csv: bool) -> None:
    from bummerl.arena import print_report, to_csv, to_json

    write_results(as_json, as_csv, data=lambda: to_json(result), csv_text=lambda: to_csv(result),
                  report=lambda: print_report(result))


def _run_with_progress(config: ArenaConfig) -> ArenaResult:
    """Run the arena with a Rich progress bar on standard error.

    The bar is redrawn as chunks finish, not by a thread of its own: worker processes are forked while
    it runs, and a fork must not catch another thread holding the standard error lock.
    """
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    from bummerl.arena import run_arena

    def advance(n: int) -> None:
        bar.advance(task, n)
        bar.refresh()

    pairs = len(config.bots) * (len(config.bots) - 1) // 2
    unit = "deals" if config.bummerls is None else "Bummerls"
    columns = (TextColumn(f"[bold]arena[/] {unit}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns, console=Console(stderr=True), transient=True, auto_refresh=False) as bar:
        task = bar.add_task("arena", total=config.games * pairs)
        bar.refresh()
        return run_arena(config, progress=advance)
