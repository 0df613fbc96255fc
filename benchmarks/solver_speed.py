"""Speed of the open-card solver (bummerl.search), compiled core and pure Python, on seeded positions.

Cases (each position solved once per repeat; the best of the repeats counts, to damp a busy machine):

- whole deal: a fresh deal, solved from its first lead with every card placed (``solve``); the two
  games' deals are timed in turns (one of each, then the next of each), as the verdict compares them;
- whole deal, every action: the same with ``solve_actions`` (what a PIMC bot calls per world);
- talon gone: the first decision once the talon is closed or exhausted (five cards each in
  Schnapsen, the hardest positions of that kind), reached by random play, and by best play (both
  sides following the solver, which often closes);
- the cost of the public functions around the search: converting a Deal into the search's compact
  position (``from_deal``, paid by every call), and ``solve``/``solve_actions`` on easy positions;
- threads: the same whole deals (standard and Sixty-Six mixed) solved one after another, then by two
  threads at once (the compiled core releases the GIL): the wall-clock speed-up.

The search is one module, :mod:`bummerl.search.core`: "compiled" is its C build, "python" the same
file run as plain Python. The verdict lines at the end check the targets of the "one search core"
issue: compiled whole-deal mean <= 1.2 ms and median <= 0.3 ms (standard, from the first lead), and a
Sixty-Six whole-deal mean at most 5x Schnapsen's.

Times are per call in milliseconds: median, mean, 90th percentile, max; "nodes" is the median number of
positions the search visited (lead nodes).

The compiled core solves --deals positions of each game; plain Python --python-deals of standard and a
quarter of that of Sixty-Six (at least 5).

Usage: python benchmarks/solver_speed.py [--deals N] [--python-deals M] [--repeats R] [--seed S]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import threading
import time
from collections.abc import Callable, Sequence

from bummerl import Deal, Rules
from bummerl.actions import CLAIM
from bummerl.scripting import positive, run
from bummerl.search import BACKEND, core, python_core, solve, solve_actions
from bummerl.search.position import Position, from_deal

Analyse = Callable[[Position, bool], tuple[int, dict[int, int], int]]


def whole_deals(preset: str, n: int, seed: int) -> list[Deal]:
    rules = Rules.preset(preset)
    return [Deal.random(rules, seed + i, dealer=i % 2) for i in range(n)]


def talon_gone(preset: str, n: int, seed: int) -> list[Deal]:
    """The first decision after random play (no claims) leaves the talon closed or exhausted."""
    rules = Rules.preset(preset)
    rng = random.Random(seed)
    out: list[Deal] = []
    while len(out) < n:
        deal = Deal.random(rules, rng.randrange(1 << 30), dealer=rng.randrange(2))
        while deal.outcome is None and deal.talon_open:
            actions = [a for a in deal.legal_actions() if a is not CLAIM] or list(deal.legal_actions())
            deal.apply(rng.choice(actions))
        if deal.outcome is None:
            out.append(deal)
    return out


def talon_gone_best_play(preset: str, n: int, seed: int) -> list[Deal]:
    """Fresh deals played by the solver's best actions until the talon is closed or exhausted."""
    out: list[Deal] = []
    for deal in whole_deals(preset, 3 * n, seed + 10_000):
        while deal.outcome is None and deal.talon_open:
            values = solve_actions(deal)
            deal.apply(max(values, key=lambda a: values[a]))
        if deal.outcome is None:
            out.append(deal)
        if len(out) == n:
            break
    return out


def timed(analyse: Analyse, positions: Sequence[Position], want_actions: bool, repeats: int
          ) -> tuple[list[float], list[int]]:
    """Each position's best time of ``repeats`` passes over them all, and its nodes."""
    return timed_together(analyse, [positions], want_actions, repeats)[0]


def timed_together(analyse: Analyse, groups: Sequence[Sequence[Position]], want_actions: bool,
                   repeats: int) -> list[tuple[list[float], list[int]]]:
    """:func:`timed` for several lists of positions at once, taken in turns (the first of each, then the
    second of each, ...), so that a slow spell of the machine falls on every list alike.

    The verdict compares the two games' means: timed one after the other, a slow minute that fell on
    one game only gave 5.4x in one run and 18.3x in the next (the same core; its instructions say 10.4x).

    >>> fake = lambda pos, want: (0, {}, pos[0])
    >>> [nodes for _, nodes in timed_together(fake, [[(1,), (2,)], [(5,)]], False, 2)]
    [[1, 2], [5]]
    """
    best = [[float("inf")] * len(g) for g in groups]
    nodes = [[0] * len(g) for g in groups]
    for _ in range(repeats):
        for i in range(max(len(g) for g in groups)):
            for k, group in enumerate(groups):
                if i < len(group):
                    t0 = time.perf_counter()
                    _, _, nodes[k][i] = analyse(group[i], want_actions)
                    best[k][i] = min(best[k][i], time.perf_counter() - t0)
    return list(zip(best, nodes, strict=True))


def row(case: str, backend: str, seconds: Sequence[float], nodes: Sequence[int] | None = None,
        unit: float = 1e3) -> str:
    s = sorted(seconds)
    p90 = s[min(len(s) - 1, int(0.9 * len(s)))]
    cols = [statistics.median(s) * unit, statistics.mean(s) * unit, p90 * unit, s[-1] * unit]
    node_col = f"{statistics.median(nodes):>9.0f}" if nodes else f"{'':>9}"
    return f"{case:<40} {backend:<7} {len(s):>6} " + " ".join(f"{c:>9.3f}" for c in cols) + node_col


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=positive, default=300, help="positions per case, compiled core")
    parser.add_argument("--python-deals", type=positive, default=60, help="positions per case, pure Python")
    parser.add_argument("--repeats", type=positive, default=3, help="solves per position; the best counts")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if args.deals < 12 or args.python_deals < 1 or args.repeats < 1:
        parser.error("--deals must be at least 12 (the two-thread row splits a third of them), "
                     "--python-deals and --repeats at least 1")

    backends: list[tuple[str, Analyse, int]] = []
    if core.COMPILED:
        backends.append(("compiled", core.solve_position, args.deals))
    else:
        print("the compiled core is not built: plain Python only", file=sys.stderr)
    backends.append(("python", python_core().solve_position, args.python_deals))
    # The whole deals of both games, timed in turns (timed_together): the verdicts compare them.
    whole: dict[tuple[str, str], tuple[list[Position], tuple[list[float], list[int]]]] = {}
    for backend, analyse, count in backends:
        # The compiled core solves as many Sixty-Six deals as standard ones: its mean rests on a few
        # slow deals, and the ratio's interval on 50 deals was about 3.7x wide (6.0 to 22.0).
        sizes = {"standard": count, "sixty-six": count if backend == "compiled" else max(5, count // 4)}
        lists = {preset: [from_deal(d) for d in whole_deals(preset, n, args.seed)]
                 for preset, n in sizes.items()}
        results = timed_together(analyse, list(lists.values()), False, args.repeats)
        for (preset, deals), result in zip(lists.items(), results, strict=True):
            whole[preset, backend] = deals, result

    print(f"{'case':<40} {'backend':<7} {'calls':>6} {'median':>9} {'mean':>9} {'p90':>9} {'max':>9}"
          f"{'nodes':>9}")
    print(f"{'':<40} {'':<7} {'':>6} {'ms':>9} {'ms':>9} {'ms':>9} {'ms':>9}")
    for preset in ("standard", "sixty-six"):
        for backend, analyse, _count in backends:
            deals, (secs, nodes) = whole[preset, backend]
            n = len(deals)
            print(row(f"{preset}: whole deal", backend, secs, nodes), flush=True)
            secs, nodes = timed(analyse, deals, True, args.repeats)
            print(row(f"{preset}: whole deal, every action", backend, secs, nodes), flush=True)
            gone = [from_deal(d) for d in talon_gone(preset, n, args.seed)]
            secs, nodes = timed(analyse, gone, False, args.repeats)
            print(row(f"{preset}: talon gone (random play)", backend, secs, nodes), flush=True)
            gone = [from_deal(d) for d in talon_gone_best_play(preset, n, args.seed)]
            secs, nodes = timed(analyse, gone, False, args.repeats)
            print(row(f"{preset}: talon gone (best play)", backend, secs, nodes), flush=True)
    # What the public functions add to the search: converting the Deal, building the result.
    sample = whole_deals("standard", 200, args.seed) + talon_gone("standard", 200, args.seed)
    easy = talon_gone("standard", 200, args.seed + 1)
    cases: list[tuple[str, Callable[[Deal], object], list[Deal]]] = [
        ("from_deal(deal), in µs", from_deal, sample),
        ("solve(deal), talon gone, in µs", solve, easy),
        ("solve_actions(deal), talon gone, in µs", solve_actions, easy),
    ]
    for case, fn, items in cases:
        best = [float("inf")] * len(items)
        for _ in range(args.repeats):
            for i, item in enumerate(items):
                t0 = time.perf_counter()
                fn(item)
                best[i] = min(best[i], time.perf_counter() - t0)
        print(row(case, BACKEND if fn is not from_deal else "-", best, unit=1e6))
    if core.COMPILED:
        print(threads_row(args.deals // 3, args.seed), flush=True)
        verdicts({key: secs for key, (_, (secs, _)) in whole.items()})
    return 0


def threads_row(n: int, seed: int) -> str:
    """Whole deals of both games solved one after another, then split between two threads."""
    deals = whole_deals("standard", n, seed) + whole_deals("sixty-six", n // 4, seed)
    jobs = [from_deal(d) for d in deals]
    core.solve_position(jobs[0], True)

    def work(part: Sequence[Position]) -> None:
        for pos in part:
            core.solve_position(pos, True)

    ratios = []
    for _ in range(3):
        t0 = time.perf_counter()
        work(jobs)
        one = time.perf_counter() - t0
        pair = [threading.Thread(target=work, args=(jobs[i::2],)) for i in range(2)]
        t0 = time.perf_counter()
        for th in pair:
            th.start()
        for th in pair:
            th.join()
        ratios.append(one / (time.perf_counter() - t0))
    return (f"threads: {len(jobs)} whole deals, every action, one thread vs two: speed-up "
            f"{statistics.median(ratios):.2f}x (median of 3; 2.00 = both cores)")


def interval(stat: Callable[[list[float], list[float]], float], a: list[float], b: list[float],
             resamples: int = 2000) -> tuple[float, float]:
    """A 95% bootstrap interval of ``stat(a, b)``, the deals of each list resampled (a fixed seed).

    The deals differ far more than the timing noise does (a few Sixty-Six deals take a hundred times the
    median), so which deals were drawn is the uncertainty that matters.

    >>> low, high = interval(lambda x, _: statistics.mean(x), [float(t) for t in range(100)], [])
    >>> low < 49.5 < high, round(high - low)
    (True, 11)
    """
    rng = random.Random(0)
    values = sorted(stat(rng.choices(a, k=len(a)), rng.choices(b, k=len(b)) if b else b)
                    for _ in range(resamples))
    return values[int(0.025 * resamples)], values[int(0.975 * resamples) - 1]


def verdicts(means: dict[tuple[str, str], list[float]]) -> None:
    """The targets of the "one search core" issue, each with a 95% bootstrap interval over the deals."""
    std = means["standard", "compiled"]
    s66 = means["sixty-six", "compiled"]
    ratio = statistics.mean(s66) / statistics.mean(std)
    m_lo, m_hi = interval(lambda x, _: statistics.mean(x) * 1e3, std, [])
    d_lo, d_hi = interval(lambda x, _: statistics.median(x) * 1e3, std, [])
    r_lo, r_hi = interval(lambda x, y: statistics.mean(y) / statistics.mean(x), std, s66)
    print(f"target: standard whole deal mean {statistics.mean(std) * 1e3:.3f} ms [{m_lo:.3f}, {m_hi:.3f}] "
          f"<= 1.2: {'yes' if statistics.mean(std) <= 1.2e-3 else 'NO'}; "
          f"median {statistics.median(std) * 1e3:.3f} ms [{d_lo:.3f}, {d_hi:.3f}] <= 0.3: "
          f"{'yes' if statistics.median(std) <= 0.3e-3 else 'NO'}")
    print(f"target: Sixty-Six whole deal mean / Schnapsen's = {ratio:.1f} [{r_lo:.1f}, {r_hi:.1f}] <= 5: "
          f"{'yes' if ratio <= 5 else 'NO'}")
    print("         (intervals: 95% bootstrap over the deals drawn, not over the timing noise)")


if __name__ == "__main__":
    run(main)
