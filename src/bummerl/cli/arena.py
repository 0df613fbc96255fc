"""``bummerl arena``: bots against each other on paired decks, with 95 % intervals, ratings and speed."""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, Annotated

import typer

from bummerl.cli.app import app, fail, parse_rule_overrides

if TYPE_CHECKING:
    from bummerl.arena import ArenaConfig, ArenaResult

__all__ = ["arena"]


@app.command()
def arena(
    bots: Annotated[list[str] | None, typer.Argument(
        help="Two or more bots: registered names (see --list) or cmd:COMMAND for an outside program. "
             "Every pair of them plays.", show_default=False)] = None,
    deals: Annotated[int, typer.Option(help="Deals per pair of bots, even: every deck is dealt twice, "
                                            "seats swapped.")] = 200,
    bummerls: Annotated[int | None, typer.Option(
        help="Play this many whole Bummerls per pair instead (even; twins on the same cards, seats swapped); "
             "bots see the score.", show_default=False)] = None,
    seed: Annotated[int | None, typer.Option(
        help="Root of the decks and the bots' seeds: the same seed, the same games (default: a fresh secret "
             "one, printed with the results; a guessable seed lets a bot guess the decks).",
        show_default=False)] = None,
    rules: Annotated[str, typer.Option(help="Rules preset: standard, soft, sharp, tompa, vu, sixty-six.")]
        = "standard",
    rule: Annotated[list[str] | None, typer.Option(
        "--rule", help="Override one rule flag, FLAG=VALUE (repeatable), e.g. false_claim=mirror.")] = None,
    workers: Annotated[int, typer.Option("--workers", "-j", help="Worker processes (the results do not "
                                                                 "depend on it).")] = 1,
    timeout: Annotated[float | None, typer.Option(help="Seconds an outside bot may take per decision "
                                                       "(default 10).", show_default=False)] = None,
    anchor: Annotated[str | None, typer.Option(help="Bot rated 0 (default: random if playing, else the "
                                                    "first bot).", show_default=False)] = None,
    ray: Annotated[bool, typer.Option(
        "--ray", help="Run the chunks as Ray tasks (pip install 'bummerl[cluster]') on a Ray started here "
                      "with -j CPUs, or on the cluster at --ray-address.")] = False,
    ray_address: Annotated[str | None, typer.Option(
        "--ray-address", metavar="ADDRESS", help="The Ray cluster to run on (implies --ray): auto, HOST:6379 "
                                                 "or ray://HOST:10001.", show_default=False)] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the results as JSON.")] = False,
    as_csv: Annotated[bool, typer.Option("--csv", help="Print one CSV row per bot and pairing.")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
    list_bots: Annotated[bool, typer.Option("--list", help="List the registered bots and exit.")] = False,
) -> None:
    """Pit bots against each other on paired decks and report deals, game points and Bummerls won with 95%
    intervals, ratings (for three or more bots), time per decision and deals per second.

    A bot that fails or plays something illegal forfeits the deal (3 game points to the other side).
    """
    from bummerl.bots.registry import describe_bots

    if list_bots:
        for name, description in describe_bots(public_only=True):
            typer.echo(f"{name:12} {description}")
        typer.echo("cmd:COMMAND  an outside program speaking JSON lines (see examples/random_bot.py)")
        return
    from bummerl.rules import Rules, RulesError

    specs = tuple(bots or ())
    if len(specs) < 2:
        known = ", ".join(name for name, _ in describe_bots(public_only=True))
        fail(f"name at least two bots (known bots: {known}; or cmd:COMMAND)")
    if as_json and as_csv:
        fail("choose one of --json and --csv")
    try:
        chosen = Rules.preset(rules).replace(**parse_rule_overrides(rule or []))
    except (RulesError, ValueError) as err:
        fail(str(err))

    from bummerl.arena import ArenaConfig, ArenaError, ArenaInterrupted, run_arena

    config = ArenaConfig(specs, chosen, seed=seed, deals=deals, bummerls=bummerls, workers=workers,
                         timeout=timeout, anchor=anchor,
                         ray=ray_address if ray_address is not None else ("local" if ray else None))
    try:
        result = run_arena(config) if quiet or not sys.stderr.isatty() else _run_with_progress(config)
    except ArenaError as err:
        fail(str(err))
    except ArenaInterrupted as stop:
        _print(stop.result, as_json, as_csv)
        fail(f"interrupted: the results above are the {stop.result.deals} deals finished", code=130)
    _print(result, as_json, as_csv)


def _print(result: ArenaResult, as_json: bool, as_csv: bool) -> None:
    from bummerl.arena import print_report, to_csv, to_json

    if as_json:
        typer.echo(json.dumps(to_json(result), indent=2))
    elif as_csv:
        typer.echo(to_csv(result), nl=False)
    else:
        print_report(result)


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
