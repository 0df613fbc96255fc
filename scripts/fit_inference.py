"""Measure the constants of bummerl.bots.inference by PIMC self-play, and print them.

Two measurements over DEALS self-play deals of the standard preset:

- *Missed chances*: at how many of its leads where it could, the bot exchanged the trump jack and
  declared a marriage it held (``MISSED_EXCHANGE``/``MISSED_MARRIAGE`` are one minus these rates).
- *Tilts*: at every decision with a hidden card left, the deciding player's open-card value ``v`` (game
  points) in the true deal and in SAMPLES worlds sampled from its view (with the hard and soft inference).
  For each context (who closed, whether the opponent has just led, the last trick before the talon runs
  out) the tilt ``t`` that makes ``exp(t * v)``-weighted worlds most likely to contain the true deal is
  fitted by maximum likelihood, with a 95% interval (where the log-likelihood drops by 1.92).

    python scripts/fit_inference.py --deals 600 --workers 2 --seed 50000
"""

from __future__ import annotations

import argparse
import math
from collections import Counter, defaultdict

from selfplay_jobs import run_jobs

from bummerl.bots import make_bot
from bummerl.bots.inference import tilt_context
from bummerl.bots.pimc import PimcBot, action_values
from bummerl.engine import Deal
from bummerl.rules import Rules
from bummerl.scripting import positive, run
from bummerl.view import View

#: A decision's record: its context, the true deal's value, the sampled worlds' values and weights.
Record = tuple[str, int, list[int], list[float]]


def play(job: tuple[int, int, int]) -> tuple[Counter[str], list[Record]]:
    """One self-play deal: the missed-chance counts and the records of its decisions."""
    seed, samples, sampler_seed = job
    deal = Deal.random(Rules.preset("standard"), seed)
    bots = [make_bot("pimc", 2 * seed), make_bot("pimc", 2 * seed + 1)]
    sampler = PimcBot(sampler_seed, samples=samples, early_samples=samples, infer=True)
    counts: Counter[str] = Counter()
    records: list[Record] = []
    while deal.outcome is None:
        seat = deal.to_move
        view = View.of(deal, seat)
        action = bots[seat].choose(view)
        kinds = {a.kind for a in view.legal_actions}
        if "exchange" in kinds:
            counts["exchange chances"] += 1
            counts["exchanged"] += action.kind == "exchange"
        elif "marry" in kinds:
            counts["marriage chances"] += 1
            counts["declared"] += action.kind == "marry"
        ctx = tilt_context(view)
        if ctx is not None and len(view.legal_actions) > 1:
            deals, weights = sampler.sample(view)
            sampled = [max(action_values(d).values()) for d in deals]
            records.append((ctx, max(action_values(deal).values()), sampled, weights))
        deal.apply(action)
    return counts, records


def log_likelihood(records: list[Record], tilt: float) -> float:
    """How likely the true deals are among their tilted sampled worlds."""
    total = 0.0
    for _, truth, values, weights in records:
        mass = sum(weights)
        dist: Counter[int] = Counter()
        for v, w in zip(values, weights, strict=True):
            dist[v] += w / mass
        z = sum(p * math.exp(tilt * v) for v, p in dist.items())
        total += math.log(max(dist.get(truth, 0.0), 1e-3) * math.exp(tilt * truth) / z)
    return total


def fit(records: list[Record]) -> tuple[float, float, float]:
    """The best tilt and its 95% interval, on a grid of 0.02."""
    grid = [t / 50 for t in range(-75, 76)]
    ll = [log_likelihood(records, t) for t in grid]
    best = max(range(len(grid)), key=ll.__getitem__)
    inside = [t for t, v in zip(grid, ll, strict=True) if v >= ll[best] - 1.92]
    return grid[best], min(inside), max(inside)


def main(argv: list[str] | None = None) -> None:
    """Play, fit and print."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=positive, default=600)
    parser.add_argument("--samples", type=positive, default=40)
    parser.add_argument("--workers", type=positive, default=1)
    parser.add_argument("--seed", type=int, default=50000)
    args = parser.parse_args(argv)
    jobs = [(args.seed + k, args.samples, args.seed + 7 * k) for k in range(args.deals)]
    counts: Counter[str] = Counter()
    by_context: dict[str, list[Record]] = defaultdict(list)
    for c, records in run_jobs(play, jobs, args.workers, chunksize=4, every=50):
        counts.update(c)
        for r in records:
            by_context[r[0]].append(r)
    print(f"exchanged at {counts['exchanged']} of {counts['exchange chances']} leads where it could; "
          f"declared a marriage at {counts['declared']} of {counts['marriage chances']}")
    for ctx in sorted(by_context):
        tilt, low, high = fit(by_context[ctx])
        n = len(by_context[ctx])
        print(f"{ctx:26s} {n:6d} decisions  tilt {tilt:+.2f}  95% [{low:+.2f}, {high:+.2f}]")


if __name__ == "__main__":
    run(main)
