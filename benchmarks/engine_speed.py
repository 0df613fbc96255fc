"""Engine throughput: random-vs-random deals per second in one process, next to the ``schnapsen`` baseline.

The loop is the same kind as ``benchmarks/schnapsen_baseline.py``: whole deals between two seeded random
bots, the deals from one seeded generator, the leader alternating. Each decision builds the seat's
``View`` (what a bot is given) and the bot picks uniformly from ``view.legal_actions``; the engine checks
and applies the action. Preset ``vu`` has the same rules as the ``schnapsen`` package (no closing,
automatic claims), so its row is the like-for-like comparison; ``standard`` and ``sixty-six`` follow.
If ``schnapsen`` can be imported, its baseline runs in the same process and the ratio is printed.
The last rows time the arena (``run_arena``, random vs random, one worker, and two workers) on ``vu``.

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


def median_rate(run: Callable[[], float], deals: int, repeats: int) -> tuple[float, list[float]]:
    """Median deals/s over ``repeats`` timed runs (``run`` returns seconds for ``deals`` deals)."""
    rates = [deals / run() for _ in range(repeats)]
    return statistics.median(rates), rates


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
    parser.add_argument("--deals", type=int, default=2000, help="deals per repeat (default 2000)")
    parser.add_argument("--repeats", type=int, default=5, help="timed repeats (default 5)")
    parser.add_argument("--seed", type=int, default=1, help="base seed (default 1)")
    parser.add_argument("--no-arena", action="store_true", help="skip the arena rows")
    args = parser.parse_args(argv)
    if args.deals < 2 or args.repeats < 1:
        parser.error("--deals must be at least 2 and --repeats positive")
    deals = args.deals - args.deals % 2

    print(f"bummerl engine speed, Python {sys.version.split()[0]}, random vs random, "
          f"{deals} deals x {args.repeats} repeats, median shown")
    print(f"{'what':<34} {'deals/s':>10} {'moves/deal':>11} {'min..max deals/s':>20}")
    rows: dict[str, float] = {}
    for name in PRESETS:
        rules = Rules.preset(name)
        play_deals(rules, min(deals, 200), args.seed)  # warm-up
        moves_seen: list[int] = []

        def run(rules: Rules = rules, moves_seen: list[int] = moves_seen) -> float:
            seconds, moves = play_deals(rules, deals, args.seed)
            moves_seen.append(moves)
            return seconds

        rate, rates = median_rate(run, deals, args.repeats)
        rows[name] = rate
        print(f"{'bummerl ' + name:<34} {rate:>10.0f} {moves_seen[0] / deals:>11.2f} "
              f"{min(rates):>9.0f}..{max(rates):<9.0f}")

    baseline = load_baseline()
    if baseline is None:
        print(f"{'schnapsen 0.0.5 (not installed)':<34} {'-':>10}")
    else:
        baseline.play_deals(min(deals, 200), args.seed)  # warm-up
        base_rate, base_rates = median_rate(
            lambda: float(baseline.play_deals(deals, args.seed)), deals, args.repeats
        )
        print(f"{'schnapsen 0.0.5 RandBot (baseline)':<34} {base_rate:>10.0f} {'':>11} "
              f"{min(base_rates):>9.0f}..{max(base_rates):<9.0f}")
        print(f"{'ratio bummerl vu / schnapsen':<34} {rows['vu'] / base_rate:>9.2f}x")

    if not args.no_arena:
        for workers in (1, 2):
            arena_seconds(min(deals, 200), args.seed, workers)  # warm-up
            rate, rates = median_rate(
                lambda w=workers: arena_seconds(deals, args.seed, w), deals, args.repeats  # type: ignore[misc]
            )
            label = f"arena vu, {workers} worker{'s' if workers > 1 else ''}"
            print(f"{label:<34} {rate:>10.0f} {'':>11} {min(rates):>9.0f}..{max(rates):<9.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
