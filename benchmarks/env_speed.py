"""Environment throughput: steps per second through the PettingZoo and Gymnasium adapters (random policy),
next to the bummerl engine alone and the ``schnapsen`` course engine's random play (PyPI, version 0.0.5).

A *step* is one decision: one ``env.step`` of an agent that is to move (PettingZoo: either seat; the dead
steps after the end are not counted), one learner ``step`` of ``BummerlVsBot-v0`` (the opponent's decisions
inside it are timed but not counted: that row's steps are the learner's alone, about half of a deal's
decisions, so its rate is not comparable with the others), one ``choose`` + ``apply`` of the bare engine loop,
one ``get_move`` of the course engine. The random policy of the environments samples an index from the
action mask with numpy, as an untrained policy would. Each row is timed once per round and the median of
the rounds is shown; the ratio is the median of the per-round ratios (robust on a busy machine).

The course engine runs as ``benchmarks/schnapsen_baseline.py`` in a child process each round (its median
deals/s times its moves per deal). When ``schnapsen`` cannot be imported here it is installed for this run
only, with its dependencies (scikit-learn, Flask), into a temporary directory that is deleted afterwards
(about 280 MB and half a minute); ``--no-baseline`` skips it.

Usage: python benchmarks/env_speed.py [--deals N] [--repeats R] [--seed S] [--no-baseline]
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from random import Random

import numpy as np

from bummerl import Deal, Rules, View
from bummerl.adapters.gymnasium import BummerlVsBot
from bummerl.adapters.pettingzoo import deal_env
from bummerl.bots.random_bot import RandomBot
from bummerl.scripting import positive, run

BASELINE = Path(__file__).with_name("schnapsen_baseline.py")
#: (label, function(deals, seed) -> (seconds, decisions))
Row = tuple[str, Callable[[int, int], tuple[float, int]]]


def pettingzoo_steps(preset: str) -> Callable[[int, int], tuple[float, int]]:
    """Whole deals through ``DealEnv``, both agents a random policy on the action mask."""

    def run(deals: int, seed: int) -> tuple[float, int]:
        env = deal_env(preset)
        rng = np.random.default_rng(seed)
        steps = 0
        start = time.perf_counter()
        for i in range(deals):
            env.reset(seed=seed + i)
            for _ in env.agent_iter():
                observation, _, termination, truncation, _ = env.last()
                if termination or truncation:
                    env.step(None)
                    continue
                env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
                steps += 1
        return time.perf_counter() - start, steps

    return run


def gymnasium_steps(preset: str) -> Callable[[int, int], tuple[float, int]]:
    """Whole deals of ``BummerlVsBot-v0`` against the random bot, the learner a random policy."""

    def run(deals: int, seed: int) -> tuple[float, int]:
        env = BummerlVsBot(opponent="random", rules=preset)
        rng = np.random.default_rng(seed)
        steps = 0
        start = time.perf_counter()
        for i in range(deals):
            obs, _ = env.reset(seed=seed + i)
            done = False
            while not done:
                obs, _, done, _, _ = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
                steps += 1
        elapsed = time.perf_counter() - start
        return elapsed, steps

    return run


def engine_steps(preset: str) -> Callable[[int, int], tuple[float, int]]:
    """The bare loop without an environment: the seat's View, the random bot, the engine applies."""
    rules = Rules.preset(preset)

    def run(deals: int, seed: int) -> tuple[float, int]:
        rng = Random(seed)
        bots = (RandomBot(seed + 1), RandomBot(seed + 2))
        steps = 0
        start = time.perf_counter()
        for i in range(deals):
            deal = Deal.random(rules, rng, dealer=i & 1)
            while deal.outcome is None:
                seat = deal.to_move
                deal.apply(bots[seat].choose(View.of(deal, seat)))
                steps += 1
        return time.perf_counter() - start, steps

    return run


@contextlib.contextmanager
def schnapsen_path() -> Iterator[str | None]:
    """A PYTHONPATH under which ``schnapsen`` imports ("" if it already does here), installed for this run
    into a temporary directory if needed; None if that fails."""
    if importlib.util.find_spec("schnapsen") is not None:
        yield ""
        return
    with tempfile.TemporaryDirectory(prefix="schnapsen-baseline-") as folder:
        print("schnapsen is not installed: installing schnapsen==0.0.5 into a temporary directory for "
              "this run", file=sys.stderr)
        done = subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--disable-pip-version-check",
                               "--target", folder, "schnapsen==0.0.5"], capture_output=True, text=True)
        if done.returncode != 0:
            print(f"could not install schnapsen: {done.stderr.strip().splitlines()[-1:]}", file=sys.stderr)
            yield None
        else:
            yield folder


def baseline_steps(pythonpath: str) -> Callable[[int, int], tuple[float, int]]:
    """One repeat of ``schnapsen_baseline.py`` in a child process: its timed seconds and its moves."""

    def run(deals: int, seed: int) -> tuple[float, int]:
        env = dict(os.environ)
        if pythonpath:
            env["PYTHONPATH"] = pythonpath
        done = subprocess.run(
            [sys.executable, str(BASELINE), "--deals", str(deals), "--repeats", "1", "--seed", str(seed)],
            capture_output=True, text=True, env=env, check=True,
        )
        seconds = float(re.search(r"^\s+1\s+([\d.]+)", done.stdout, re.M)[1])  # type: ignore[index]
        per_deal = float(re.search(r"moves per deal.*: ([\d.]+)", done.stdout)[1])  # type: ignore[index]
        return seconds, round(per_deal * deals)

    return run


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=positive, default=500, help="deals per row and round (default 500)")
    parser.add_argument("--repeats", type=positive, default=5, help="rounds (default 5)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-baseline", action="store_true", help="skip the schnapsen course engine")
    args = parser.parse_args(argv)
    if args.deals < 1 or args.repeats < 1:
        parser.error("--deals and --repeats must be positive")
    rows: list[Row] = [
        ("pettingzoo DealEnv vu", pettingzoo_steps("vu")),
        ("pettingzoo DealEnv standard", pettingzoo_steps("standard")),
        ("pettingzoo DealEnv sixty-six", pettingzoo_steps("sixty-six")),
        ("gymnasium BummerlVsBot vu (learner)", gymnasium_steps("vu")),
        ("bummerl engine vu, no env", engine_steps("vu")),
    ]
    with contextlib.ExitStack() as stack:
        path = None if args.no_baseline else stack.enter_context(schnapsen_path())
        if path is not None:
            rows.append(("schnapsen 0.0.5 RandBot (baseline)", baseline_steps(path)))
        elif not args.no_baseline:
            print("the schnapsen baseline is skipped: it could not be installed", file=sys.stderr)
        for _, run in rows:  # warm-up
            run(min(args.deals, 50), args.seed)
        rates: dict[str, list[float]] = {label: [] for label, _ in rows}
        steps: dict[str, int] = {}
        for r in range(args.repeats):
            for label, run in rows:
                seconds, count = run(args.deals, args.seed + 1000 * r)
                rates[label].append(count / seconds)
                steps[label] = count
    print(f"bummerl environment speed, Python {sys.version.split()[0]}, random policy, "
          f"{args.deals} deals x {args.repeats} rounds, median shown")
    print(f"{'what':<38} {'steps/s':>9} {'steps/deal':>11} {'min..max steps/s':>18}")
    for label, values in rates.items():
        spread = f"{min(values):.0f}..{max(values):.0f}"
        median = statistics.median(values)
        print(f"{label:<38} {median:>9.0f} {steps[label] / args.deals:>11.2f} {spread:>18}")
    base = "schnapsen 0.0.5 RandBot (baseline)"
    if base in rates:
        ratios = [a / b for a, b in zip(rates["pettingzoo DealEnv vu"], rates[base], strict=True)]
        print(f"ratio pettingzoo vu / schnapsen steps: {statistics.median(ratios):.2f}x "
              "(median of per-round ratios)")
    return 0


if __name__ == "__main__":
    run(main)
