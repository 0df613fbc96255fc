"""Thinking time per decision of the computer players, against the project's targets.

Each bot plays ``--pairs`` deck pairs (both seats of each deck, the arena's decks) against ``--opponent``;
every call of its ``choose`` is timed. Times are exact quantiles over the decisions, in milliseconds:

- **all**: every decision, as the arena counts them (a bot answers a forced move, one legal action, at
  once, so these pull the median down);
- **choices**: decisions with more than one legal action;
- by phase, the choices with 18 or more cards still to be played (the first two tricks of Schnapsen, the
  first four of Sixty-Six, where the worlds are largest and the bots use their early budget) and after.

The targets (issues 4 and 16, on a 2-core machine): ``expert`` median <= 0.5 s and p95 <= 3 s (in
Schnapsen and in Sixty-Six: ``--rules sixty-six``), ``pimc`` median <= 0.3 s, on all decisions; the
verdict is printed per bot.

Usage: python benchmarks/bot_speed.py [--bots expert,pimc] [--opponent pimc] [--pairs N] [--seed S]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from bummerl import Rules
from bummerl.actions import Action
from bummerl.arena.match import deck_deal, play_deal
from bummerl.bots import make_bot
from bummerl.bots.base import Bot
from bummerl.bots.pimc import EARLY_CARDS, cards_left
from bummerl.scripting import positive, run
from bummerl.view import View

#: (median, p95) targets in seconds on all decisions; None: no target.
TARGETS: dict[str, tuple[float, float | None]] = {"expert": (0.5, 3.0), "pimc": (0.3, None)}


@dataclass
class Timed:
    """A bot wrapped to record, per decision, (legal actions, cards still to be played, nanoseconds)."""

    bot: Bot
    records: list[tuple[int, int, int]] = field(default_factory=list)
    name: str = ""

    def __post_init__(self) -> None:
        self.name = self.bot.name

    def choose(self, view: View) -> Action:
        start = time.perf_counter_ns()
        action = self.bot.choose(view)
        self.records.append((len(view.legal_actions), cards_left(view), time.perf_counter_ns() - start))
        return action


def time_bot(name: str, opponent: str, rules: Rules, pairs: int,
             seed: int) -> tuple[list[tuple[int, int, int]], list[str]]:
    """Every decision of bot ``name`` over ``pairs`` deck pairs against ``opponent``, and the reasons of
    the deals it forfeited (a bot that raises or plays illegally is not measured by its other decisions)."""
    timed = Timed(make_bot(name, seed))
    other = make_bot(opponent, seed + 1)
    faults = []
    for pair in range(pairs):
        for seat in (0, 1):
            bots: tuple[Bot, Bot] = (timed, other) if seat == 0 else (other, timed)
            result = play_deal(deck_deal(rules, seed, pair), bots)
            if result.fault is not None and result.fault_seat == seat:
                faults.append(result.fault)
    return timed.records, faults


def median_p95(values: Sequence[float]) -> tuple[float, float]:
    """The median and the 95th percentile (exact, interpolated) of at least one value."""
    ordered = sorted(values)
    p95 = statistics.quantiles(ordered, n=20, method="inclusive")[-1] if len(ordered) > 1 else ordered[0]
    return statistics.median(ordered), p95


def report(name: str, records: list[tuple[int, int, int]]) -> list[str]:
    """The table rows of one bot (milliseconds) and its verdict against the targets."""
    rows = [
        ("all", [t for _, _, t in records]),
        ("choices", [t for n, _, t in records if n > 1]),
        (f"  {EARLY_CARDS}+ cards left", [t for n, c, t in records if n > 1 and c >= EARLY_CARDS]),
        (f"  under {EARLY_CARDS}", [t for n, c, t in records if n > 1 and c < EARLY_CARDS]),
    ]
    lines = []
    for label, ns in rows:
        ms = [t / 1e6 for t in ns]
        cells = f"{len(ms):>6}" + ("".join(f" {x:>10.1f}" for x in (*median_p95(ms), max(ms))) if ms else "")
        lines.append(f"{name:8s} {label:20s} {cells}")
    if name in TARGETS and records:
        median, p95 = median_p95([t / 1e9 for _, _, t in records])
        want_median, want_p95 = TARGETS[name]
        ok = median <= want_median and (want_p95 is None or p95 <= want_p95)
        target = f"median <= {want_median:g} s" + (f", p95 <= {want_p95:g} s" if want_p95 else "")
        lines.append(f"{name:8s} target {target}: {'met' if ok else 'MISSED'} "
                     f"(median {median * 1e3:.1f} ms, p95 {p95 * 1e3:.1f} ms)")
    return lines


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bots", default="expert,pimc", help="comma-separated bot names")
    parser.add_argument("--opponent", default="pimc")
    parser.add_argument("--pairs", type=positive, default=20, help="deck pairs per bot (both seats)")
    parser.add_argument("--rules", default="standard")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    rules = Rules.preset(args.rules)
    print(f"thinking time per decision against {args.opponent}, {args.rules}, {args.pairs} deck pairs, "
          f"seed {args.seed}")
    print(f"{'bot':8s} {'decisions':20s} {'n':>6} {'median ms':>10} {'p95 ms':>10} {'max ms':>10}")
    forfeits = 0
    for name in args.bots.split(","):
        start = time.perf_counter()
        records, faults = time_bot(name.strip(), args.opponent, rules, args.pairs, args.seed)
        for line in report(name.strip(), records):
            print(line)
        if faults:
            forfeits += len(faults)
            print(f"{name.strip():8s} FORFEITED {len(faults)} of {2 * args.pairs} deals "
                  f"(first: {faults[0]}): these times do not measure it")
        print(f"{'':8s} ({time.perf_counter() - start:.0f} s wall)")
    if forfeits:
        sys.exit(1)


if __name__ == "__main__":
    run(main)
