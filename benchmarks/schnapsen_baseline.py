"""Throughput baseline for the ``schnapsen`` course engine (PyPI, version 0.0.5).

Plays whole deals (their "games": until someone reaches 66 or the cards run out)
between two seeded ``RandBot``s through ``SchnapsenGamePlayEngine.play_game`` in a
single process, and prints deals per second for each repeat plus the median.
Every repeat uses the same seed, so all repeats play the identical set of deals.

Usage: python benchmarks/schnapsen_baseline.py [--deals N] [--repeats R] [--seed S]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from importlib import metadata

try:
    from schnapsen.bots import RandBot
    from schnapsen.game import Move, PlayerPerspective, SchnapsenGamePlayEngine
except ImportError as exc:
    print(f"error: cannot import schnapsen ({exc}); install it with: pip install schnapsen==0.0.5",
          file=sys.stderr)
    sys.exit(2)


class CountingRandBot(RandBot):
    """RandBot that counts its moves; used only in the untimed statistics pass."""

    moves = 0

    def get_move(self, perspective: PlayerPerspective, leader_move: Move | None) -> Move:
        CountingRandBot.moves += 1
        return super().get_move(perspective, leader_move)


def play_deals(deals: int, seed: int, bot_class: type[RandBot] = RandBot) -> float:
    """Play ``deals`` deals with seeded random bots; return elapsed wall seconds."""
    engine = SchnapsenGamePlayEngine()
    deal_rng = random.Random(seed)
    bots = (bot_class(random.Random(seed + 1), "a"), bot_class(random.Random(seed + 2), "b"))
    start = time.perf_counter()
    for i in range(deals):
        first = i & 1  # alternate who leads the first trick
        engine.play_game(bots[first], bots[1 - first], deal_rng)
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=2000, help="deals per repeat (default 2000)")
    parser.add_argument("--repeats", type=int, default=5, help="timed repeats (default 5)")
    parser.add_argument("--seed", type=int, default=1, help="base seed (default 1)")
    args = parser.parse_args(argv)
    if args.deals < 1 or args.repeats < 1:
        parser.error("--deals and --repeats must be positive")

    print(f"schnapsen {metadata.version('schnapsen')}, Python {sys.version.split()[0]}, "
          f"RandBot vs RandBot, {args.deals} deals x {args.repeats} repeats")
    play_deals(min(args.deals, 200), args.seed)  # warm-up
    print(f"{'repeat':>6} {'seconds':>9} {'deals/s':>10}")
    rates: list[float] = []
    for r in range(1, args.repeats + 1):
        elapsed = play_deals(args.deals, args.seed)
        rates.append(args.deals / elapsed)
        print(f"{r:>6} {elapsed:>9.3f} {rates[-1]:>10.1f}")
    print(f"{'median':>6} {'':>9} {statistics.median(rates):>10.1f}")

    CountingRandBot.moves = 0
    play_deals(args.deals, args.seed, CountingRandBot)
    print(f"moves per deal (untimed pass, both bots, incl. trump exchanges/marriages): "
          f"{CountingRandBot.moves / args.deals:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
