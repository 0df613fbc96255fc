"""Compare two versions of a bot against the same opponent with common random numbers.

Both versions play the same deals from both seats, with the same seeds for themselves and for the
opponent. Where they choose alike the deals play out alike, so only the deals where they part ways add
noise: a small difference shows up in far fewer deals than in two separate arena runs.

    python scripts/compare_bots.py expert "expert:lookahead=100" --opponent pimc --pairs 1000 --workers 2

A spec is a bot class's short name with optional keyword arguments for it: ``expert:samples=200,infer=False``;
a dotted class path with them: ``bummerl.bots.expert.ExpertBot:lookahead=100``; or a registered bot's name
without them: ``expert-v1``.
The base version's deals can be kept in ``--cache FILE`` (JSON) and reused for the next variant. Each
spec's deals are kept with a fingerprint of what that version and the opponent play on a few seeded
positions: a bot or an opponent changed under the same spec plays its deals again instead of reusing the
old version's (deals cached before fingerprints were kept are used as they are, with a warning).
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import json
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from random import Random
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from selfplay_jobs import fingerprint, run_jobs

from bummerl.arena.match import deck_deal, play_deal
from bummerl.arena.stats import mean_interval
from bummerl.bots.base import Bot
from bummerl.errors import BummerlError
from bummerl.rules import Rules
from bummerl.scripting import positive, run

CLASSES = {
    "expert": "bummerl.bots.expert:ExpertBot",
    "pimc": "bummerl.bots.pimc:PimcBot",
    "heuristic": "bummerl.bots.heuristic:HeuristicBot",
    "random": "bummerl.bots.random_bot:RandomBot",
}


def make(spec: str, seed: int) -> Bot:
    """A bot from ``name`` or ``name:key=value,...``: a registered bot name with the options its factory
    takes (as ``bummerl arena`` reads them), or one of :data:`CLASSES` or a dotted class path, whose
    options are Python literals passed to the class."""
    import importlib

    name, _, args = spec.partition(":")
    if name not in CLASSES and "." not in name:
        from bummerl.bots.registry import make_bot

        return make_bot(spec, seed)  # an unknown name or option: an UnknownBotError, one line
    module, _, attr = CLASSES[name].partition(":") if name in CLASSES else name.rpartition(".")
    try:
        cls = getattr(importlib.import_module(module), attr)
        kwargs: dict[str, Any] = {}
        for item in filter(None, args.split(",")):
            key, _, value = item.partition("=")
            kwargs[key.strip()] = ast.literal_eval(value.strip())
        bot: Bot = cls(seed, **kwargs)
    except (ImportError, AttributeError, TypeError, ValueError, SyntaxError) as error:
        raise BummerlError(f"cannot make the bot {spec!r}: {error}") from None
    return bot


#: The cache's entry for each spec's fingerprint (the other keys are spec|opponent|rules|seed).
FINGERPRINTS = "fingerprints"


@dataclass(frozen=True)
class Job:
    spec: str
    opponent: str
    preset: str
    seed: int
    pair: int


def play(job: Job) -> list[tuple[int, str, float]]:
    """For each seat of deck pair ``job.pair``: the bot's signed game points, a digest of the deal's
    actions, and the bot's thinking seconds."""
    rules = Rules.preset(job.preset)
    rng = Random(f"{job.seed}/compare/{job.pair}")
    mine, theirs = rng.getrandbits(62), rng.getrandbits(62)
    out = []
    for seat in (0, 1):
        bot, opp = make(job.spec, mine), make(job.opponent, theirs)
        deal = deck_deal(rules, job.seed, job.pair)
        clocks: tuple[list[int], list[int]] = ([], [])
        bots = (bot, opp) if seat == 0 else (opp, bot)
        result = play_deal(deal, bots, None, clocks)
        digest = hashlib.sha1(" ".join(map(str, deal.history)).encode()).hexdigest()[:16]
        out.append((result.outcome.value_for(seat), digest, sum(clocks[seat]) / 1e9))
    return out


def results(spec: str, args: argparse.Namespace, cache: dict[str, Any]) -> list[list[tuple[int, str, float]]]:
    """Every deck pair's results for ``spec``, from the cache where it has them."""
    key = f"{spec}|{args.opponent}|{args.rules}|{args.seed}"
    known = cache.setdefault(key, {})
    if args.cache:  # only a kept cache can hold another version's deals
        prints = cache.setdefault(FINGERPRINTS, {})
        # The deals depend on both players: a changed opponent under the same spec counts as well.
        rules = Rules.preset(args.rules)
        now = "/".join(fingerprint(lambda seed, s=s: make(s, seed), rules) for s in (spec, args.opponent))
        if known and prints.get(key, now) != now:
            print(f"{spec}: the cached deals were played by another version of it or of {args.opponent} "
                  f"(fingerprint {prints[key]}, now {now}): playing them again", file=sys.stderr)
            known.clear()
        elif known and key not in prints:
            print(f"{spec}: cached deals from before fingerprints were kept: used as they are",
                  file=sys.stderr)
        prints[key] = now
    todo = [Job(spec, args.opponent, args.rules, args.seed, j)
            for j in range(args.pairs) if str(j) not in known]
    if todo:
        print(f"{spec}: {len(todo)} deck pairs to play", file=sys.stderr)
        for job, res in zip(todo, run_jobs(play, todo, args.workers, chunksize=2, every=10), strict=True):
            known[str(job.pair)] = res
    return [[tuple(x) for x in known[str(j)]] for j in range(args.pairs)]  # type: ignore[misc]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("base", help="the version compared against, e.g. expert")
    parser.add_argument("variant", help="the version under test, e.g. expert:lookahead=100")
    parser.add_argument("--opponent", default="pimc")
    parser.add_argument("--pairs", type=positive, default=500, help="deck pairs (both seats each)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rules", default="standard")
    parser.add_argument("--workers", type=positive, default=os.cpu_count() or 1)
    parser.add_argument("--cache", type=Path, help="a JSON file keeping every version's deals")
    args = parser.parse_args(argv)
    Rules.preset(args.rules)  # an unknown preset, or a bot that cannot be made: one line before any deal
    for spec in (args.base, args.variant, args.opponent):
        make(spec, 1)
    cache: dict[str, Any] = json.loads(args.cache.read_text()) if args.cache and args.cache.exists() else {}
    try:
        base = results(args.base, args, cache)
        variant = results(args.variant, args, cache)
    finally:
        if args.cache:
            args.cache.write_text(json.dumps(cache))
    pairs = list(zip(base, variant, strict=True))
    diffs = [sum(v[0] - b[0] for b, v in zip(bp, vp, strict=True)) / 2 for bp, vp in pairs]
    apart = sum(b[1] != v[1] for bp, vp in pairs for b, v in zip(bp, vp, strict=True))
    mean, lo, hi = mean_interval(diffs)
    for name, rows in ((args.base, base), (args.variant, variant)):
        pts = [sum(r[0] for r in pair) / 2 for pair in rows]
        m, lo_, hi_ = mean_interval(pts)
        secs = sum(r[2] for pair in rows for r in pair)
        print(f"{name:40s} vs {args.opponent}: {m:+.3f} [{lo_:+.3f}, {hi_:+.3f}] game pts/deal, "
              f"{secs:.0f} s thinking")
    deals = 2 * args.pairs
    print(f"variant - base: {mean:+.3f} [{lo:+.3f}, {hi:+.3f}] game pts/deal "
          f"(±{(hi - lo) / 2:.3f}); {apart}/{deals} deals played differently ({apart / deals:.0%})")


if __name__ == "__main__":
    run(main)
