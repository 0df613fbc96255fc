"""What an edge in game points per deal is worth in Bummerls won: the bar of issue 16 in deal terms.

A model, not a measurement: the deals of a Bummerl are independent; the better player's results
are the measured self-play distribution of the preset (:mod:`bummerl.match_equity`'s data, made
symmetric, so the seat does not matter) tilted by ``exp(lam * k)`` towards winning k game points,
for the ``lam`` that gives the edge; the chance to win the game to 7 from 7:7 is then exact. It
leaves out what playing for the Bummerl adds (the expert's valuation by the score), which both
sides of an expert-against-expert match have.

    python scripts/edge_to_bummerls.py [--rules standard] [--edges 0.05 0.1 0.15 0.2] [--target 0.58]

prints the Bummerl share for each edge and the edge that gives ``--target``.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable, Sequence
from functools import cache

from bummerl.match_equity import OUTCOMES, deal_odds
from bummerl.rules import Rules, RulesError
from bummerl.scripting import run

TARGET = 7


def rising_root(f: Callable[[float], float], target: float, low: float, high: float) -> float:
    """The x in [low, high] where the rising function ``f`` reaches ``target`` (bisection).

    >>> round(rising_root(lambda x: x * x, 2.0, 0.0, 2.0), 9)
    1.414213562
    """
    for _ in range(60):
        mid = (low + high) / 2
        if f(mid) < target:
            low = mid
        else:
            high = mid
    return (low + high) / 2


def tilted(probs: Sequence[float], edge: float) -> tuple[float, ...]:
    """``probs`` (results -3..3, made symmetric) tilted to the mean ``edge`` game points per deal.

    >>> round(sum(k * p for k, p in zip(OUTCOMES, tilted(deal_odds("standard").probs, 0.1))), 6)
    0.1
    """
    sym = [(probs[i] + probs[len(probs) - 1 - i]) / 2 for i in range(len(probs))]

    def shaped(lam: float) -> tuple[float, ...]:
        w = [p * math.exp(lam * k) for k, p in zip(OUTCOMES, sym, strict=True)]
        total = sum(w)
        return tuple(x / total for x in w)

    return shaped(rising_root(lambda lam: sum(k * p for k, p in zip(OUTCOMES, shaped(lam), strict=True)),
                              edge, -5.0, 5.0))


def bummerl_share(probs: Sequence[float], target: int = TARGET) -> float:
    """The chance to win a game to ``target`` when every deal's result (mine) has ``probs``.

    >>> round(bummerl_share(tilted(deal_odds("standard").probs, 0.0)), 6)
    0.5
    """
    outcomes = [(k, p) for k, p in zip(OUTCOMES, probs, strict=True) if k and p]
    stay = sum(p for k, p in zip(OUTCOMES, probs, strict=True) if k == 0)

    @cache
    def win(mine: int, theirs: int) -> float:
        if mine <= 0:
            return 1.0
        if theirs <= 0:
            return 0.0
        moved = sum(p * (win(mine - k, theirs) if k > 0 else win(mine, theirs + k)) for k, p in outcomes)
        return moved / (1.0 - stay)  # a draw leaves the score as it was

    return win(target, target)


def edge_for(probs: Sequence[float], share: float) -> float:
    """The edge per deal whose Bummerl share is ``share`` (bisection; the share rises with the edge)."""
    return rising_root(lambda edge: bummerl_share(tilted(probs, edge)), share, 0.0, 2.0)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="standard", help="rules preset whose self-play odds are used")
    parser.add_argument("--edges", type=float, nargs="+", default=[0.02, 0.05, 0.1, 0.15, 0.2])
    parser.add_argument("--target", type=float, default=0.58, help="Bummerl share to find the edge for")
    args = parser.parse_args(argv)
    try:
        preset = Rules.preset(args.rules).base  # a typo is refused, not read as the standard odds
    except RulesError as err:
        parser.error(str(err))
    if not 0.5 < args.target < 1.0:
        parser.error("--target must be a Bummerl share between 0.5 and 1 (e.g. 0.58)")
    odds = deal_odds(preset)
    if odds.preset != preset:
        print(f"note: no self-play odds are shipped for {preset}: those of {odds.preset} are used")
    print(f"{args.rules}: self-play odds of {odds.bot} over {odds.deals} deals, tilted")
    print("edge (game points per deal)  deals won  Bummerls won")
    for edge in args.edges:
        probs = tilted(odds.probs, edge)
        won = sum(p for k, p in zip(OUTCOMES, probs, strict=True) if k > 0)
        print(f"{edge:+27.3f}  {won:9.1%}  {bummerl_share(probs):12.1%}")
    need = edge_for(odds.probs, args.target)
    if need >= 2.0 - 1e-9:  # the search's end: no edge up to 2 game points per deal reaches it
        print(f"{args.target:.0%} of Bummerls needs more than +2 game points per deal")
    else:
        print(f"{args.target:.0%} of Bummerls needs {need:+.3f} game points per deal")


if __name__ == "__main__":
    run(main)
