"""Arena throughput, local against Ray: Bummerls per second of the same run in this process, in worker
processes, and as Ray tasks on a Ray started here (issue 15 section 4).

    python benchmarks/arena_ray.py                       # heuristic vs random, 2000 Bummerls, 3 repeats
    python benchmarks/arena_ray.py --bots pimc heuristic --bummerls 100 --repeats 1

Every row plays the same games (same seed: the results are checked equal); the time is ``run_arena``'s
own wall time of the run. Ray is started once, before the timed runs (its start-up is timed on a row of
its own), so the Ray rows show the cost of running chunks as tasks, not of starting Ray.
"""

from __future__ import annotations

import argparse
import logging
import statistics
import time
from collections.abc import Sequence

from bummerl.arena import ArenaConfig, ArenaResult, run_arena, to_json
from bummerl.arena.cluster import ray_available
from bummerl.rules import Rules
from bummerl.scripting import positive, run


def _numbers(result: ArenaResult) -> object:
    data = to_json(result)
    return [[(r["won"], r["bummerls_won"]) for r in p["results"]] for p in data["pairings"]]


def timed(config: ArenaConfig, repeats: int) -> tuple[list[float], object]:
    """Bummerls per second of each repeat, and the results (the same every time)."""
    rates, numbers = [], None
    for _ in range(repeats):
        result = run_arena(config)
        got = _numbers(result)
        if numbers is not None and got != numbers:
            raise SystemExit("error: a repeat gave other results: the benchmark is not measuring one run")
        numbers = got
        rates.append(config.games * len(result.pairings) / result.seconds)
    return rates, numbers


def row(label: str, rates: list[float]) -> str:
    return f"{label:34} {statistics.median(rates):12.1f} {min(rates):10.1f}..{max(rates):<10.1f}"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bots", nargs=2, default=["heuristic", "random"])
    parser.add_argument("--bummerls", type=positive, default=2000)
    parser.add_argument("--rules", default="standard")
    parser.add_argument("--workers", type=positive, default=2)
    parser.add_argument("--repeats", type=positive, default=3)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--no-ray", action="store_true", help="only the local rows")
    args = parser.parse_args(argv)
    base = ArenaConfig(tuple(args.bots), Rules.preset(args.rules), seed=args.seed, bummerls=args.bummerls)
    print(f"arena {' vs '.join(args.bots)}, {args.bummerls} Bummerls, rules {args.rules}, seed {args.seed}, "
          f"median of {args.repeats}")
    print(f"{'backend':34} {'Bummerls/s':>12} {'range':>22}")
    local, reference = timed(base, args.repeats)
    print(row("local, 1 process", local), flush=True)
    procs, numbers = timed(ArenaConfig(**{**_fields(base), "workers": args.workers}), args.repeats)
    print(row(f"local, {args.workers} worker processes", procs), flush=True)
    if numbers != reference:
        raise SystemExit("error: the worker processes gave other results")
    if args.no_ray:
        return 0
    if not ray_available():
        print("ray: not installed (pip install 'bummerl[cluster]')")
        return 0
    import ray

    start = time.perf_counter()
    ray.init(address="local", num_cpus=args.workers, include_dashboard=False, log_to_driver=False,
             logging_level=logging.ERROR)
    try:
        # Ray starts its worker processes at their first task: a small untimed run starts them, so the
        # first timed repeat measures the arena as the others do.
        run_arena(ArenaConfig(**{**_fields(base), "workers": args.workers, "ray": "local",
                                 "bummerls": min(args.bummerls, 2 * args.workers)}))
        print(f"{'ray start-up (ray.init, workers)':34} {time.perf_counter() - start:11.1f}s", flush=True)
        on_ray, numbers = timed(ArenaConfig(**{**_fields(base), "workers": args.workers, "ray": "local"}),
                                args.repeats)
        print(row(f"ray, local, {args.workers} CPUs", on_ray))
        if numbers != reference:
            raise SystemExit("error: Ray gave other results")
    finally:
        ray.shutdown()
    print(f"ray / local 1 process: {statistics.median(on_ray) / statistics.median(local):.2f}x; "
          f"ray / {args.workers} processes: {statistics.median(on_ray) / statistics.median(procs):.2f}x")
    return 0


def _fields(config: ArenaConfig) -> dict[str, object]:
    return {name: getattr(config, name) for name in config.__dataclass_fields__}


if __name__ == "__main__":
    run(main)
