"""Engine throughput: random-vs-random deals per second in one process, next to the ``schnapsen`` baseline.

The loop is the same kind as ``benchmarks/schnapsen_baseline.py``: whole deals between two seeded random
bots, the deals from one seeded generator, the leader alternating. Each decision builds the seat's
``View`` (what a bot is given) and the bot picks uniformly from ``view.legal_actions``; the engine checks
and applies the action. Preset ``vu`` has the same rules as the ``schnapsen`` package (no closing,
automatic claims), so its row is the like-for-like comparison; ``standard`` and ``sixty-six`` follow.
If ``schnapsen`` can be imported, its baseline runs in the same process and the ratio is printed.
The last rows time the arena (``run_arena``, random vs random, one worker, and two workers) on ``vu``.
Rows are timed in rounds (each row once per round) so that load on the machine hits them alike.

Usage: python benchmarks/engine_speed.py [--deals N] [--repeats R] [--seed S] [--no-arena]
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from random import Random
from types import ModuleType

from bummerl import Deal, Rules, View
from bummerl.arena import ArenaConfig, run_arena
from bummerl.bots.random_bot import RandomBot
from bummerl.scripting import positive, run

PRESETS = ("vu", "standard", "sixty-six")


def play_deals(rules: Rules, deals: int, seed: int) -> tuple[float, int]:
    """Play ``deals`` random-vs-random deals; return (elapsed seconds, decisions made)."""
    deal_rng = Random(seed)
    bots = (RandomBot(seed + 1), RandomBot(seed + 2))
    view_of = View.of
    moves = 0
    start = time.perf_counter()
    for i in range(deals):
        first = i & 1  # alternate who leads the first trick
        deal = Deal.random(rules, deal_rng, dealer=1 - first)
        while deal.outcome is None:
            seat = deal.to_move
            deal.apply(bots[seat ^ first].choose(view_of(deal, seat)))
            moves += 1
    return time.perf_counter() - start, moves


def load_baseline() -> ModuleType | None:
    """``benchmarks/schnapsen_baseline.py`` as a module, or None when ``schnapsen`` is not installed."""
    if importlib.util.find_spec("schnapsen") is None:
        return None
    path = Path(__file__).with_name("schnapsen_baseline.py")
    spec = importlib.util.spec_from_file_location("schnapsen_baseline", path)
    if spec is None or spec.loader is None:
        return None
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except SystemExit:  # it exits when an import inside schnapsen fails
        return None
    return module


def arena_seconds(deals: int, seed: int, workers: int) -> float:
    """Wall seconds of ``run_arena`` for random vs random on ``vu`` (planning and summary included)."""
    start = time.perf_counter()
    run_arena(ArenaConfig(("random", "random"), Rules.preset("vu"), seed=seed, deals=deals, workers=workers))
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--deals", type=positive, default=2000, help="deals per repeat (default 2000)")
    parser.add_argument("--repeats", type=positive, default=5, help="timed repeats (default 5)")
    parser.add_argument("--seed", type=int, default=1, help="base seed (default 1)")
    parser.add_argument("--no-arena", action="store_true", help="skip the arena rows")
    args = parser.parse_args(argv)
    if args.deals < 2 or args.repeats < 1:
        parser.error("--deals must be at least 2 and --repeats positive")
    deals = args.deals - args.deals % 2

    # Every row is timed once per round, the rounds one after the other, so that a busy machine slows
    # all rows alike; the ratio is the median of the per-round ratios.
    rows: dict[str, Callable[[], float]] = {}
    moves: dict[str, int] = {}
    for name in PRESETS:
        rules = Rules.preset(name)
        moves[name] = play_deals(rules, deals, args.seed)[1]
        rows[f"bummerl {name}"] = lambda rules=rules: play_deals(rules, deals, args.seed)[0]  # type: ignore[misc]
    baseline = load_baseline()
    if baseline is not None:
        rows["schnapsen 0.0.5 RandBot (baseline)"] = lambda: float(baseline.play_deals(deals, args.seed))
    if not args.no_arena:
        for workers in (1, 2):
            label = f"arena vu, {workers} worker{'s' if workers > 1 else ''}"
            rows[label] = lambda w=workers: arena_seconds(deals, args.seed, w)  # type: ignore[misc]
    for warm_up in rows.values():  # untimed
        warm_up()
    rates: dict[str, list[float]] = {label: [] for label in rows}
    for _ in range(args.repeats):
        for label, timed_run in rows.items():
            rates[label].append(deals / timed_run())

    print(f"bummerl engine speed, Python {sys.version.split()[0]}, random vs random, "
          f"{deals} deals x {args.repeats} rounds, median shown")
    print(f"{'what':<34} {'deals/s':>10} {'moves/deal':>11} {'min..max deals/s':>20}")
    for label, values in rates.items():
        name = label.removeprefix("bummerl ")
        per_deal = f"{moves[name] / deals:.2f}" if name in moves else ""
        print(f"{label:<34} {statistics.median(values):>10.0f} {per_deal:>11} "
              f"{min(values):>9.0f}..{max(values):<9.0f}")
    if baseline is None:
        print(f"{'schnapsen 0.0.5 (not installed)':<34} {'-':>10}")
    else:
        base = rates["schnapsen 0.0.5 RandBot (baseline)"]
        ratio = statistics.median(a / b for a, b in zip(rates["bummerl vu"], base, strict=True))
        print(f"{'ratio bummerl vu / schnapsen':<34} {ratio:>9.2f}x  (median of per-round ratios)")
    return 0


if __name__ == "__main__":
    run(main)
