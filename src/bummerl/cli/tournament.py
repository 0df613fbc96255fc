"""``bummerl tournament``: a round robin of paired decks, read as ratings with intervals and a cross-table."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from bummerl.cli.app import app, fail, write_results
from bummerl.cli.arena import (
    Anchor,
    AsJson,
    Bots,
    Bummerls,
    Deals,
    Quiet,
    Ray,
    RayAddress,
    RuleOverrides,
    RulesName,
    Seed,
    Timeout,
    Workers,
    make_config,
    run_or_fail,
)

if TYPE_CHECKING:
    from bummerl.arena import ArenaResult

__all__ = ["tournament"]


@app.command()
def tournament(
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
    resamples: Annotated[int, typer.Option(help="Bootstrap resamples for the rating intervals.")] = 1000,
    as_json: AsJson = False,
    as_csv: Annotated[bool, typer.Option("--csv", help="Print one CSV row per bot: rating, interval, score "
                                                       "and its share against each bot.")] = False,
    quiet: Quiet = False,
) -> None:
    """Play every pair of bots on the same paired decks (the arena's round robin) and print each bot's
    Bradley-Terry rating with a 95% bootstrap interval, and a cross-table of who beat whom.

    Outside programs join as cmd:COMMAND, as in the arena; --ray runs the games on a Ray cluster.
    """
    if as_json and as_csv:
        fail("choose one of --json and --csv")
    if not 0 <= resamples <= 100_000:
        fail(f"--resamples must be between 0 and 100000, not {resamples}")
    config = make_config(bots, deals=deals, bummerls=bummerls, seed=seed, rules=rules, rule=rule,
                         workers=workers, timeout=timeout, anchor=anchor, ray=ray, ray_address=ray_address)
    result = run_or_fail(config, quiet, lambda partial: _print(partial, resamples, as_json, as_csv))
    _print(result, resamples, as_json, as_csv)


def _print(result: ArenaResult, resamples: int, as_json: bool, as_csv: bool) -> None:
    from bummerl.arena.tournament import print_tournament, to_csv, to_json
    from bummerl.arena.tournament import tournament as rate

    table = rate(result, resamples)
    write_results(as_json, as_csv, data=lambda: to_json(table), csv_text=lambda: to_csv(table),
                  report=lambda: print_tournament(table))
