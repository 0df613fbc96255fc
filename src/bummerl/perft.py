"""Perft for Schnapsen: count the action sequences from a position, to check the move generator.

``python -m bummerl.perft`` prints the counts of the fixed suite (:func:`suite`) for every preset; the
tests pin them (``tests/test_perft.py``).

Borrowed from chess engines (python-chess keeps such counts as a test job): the number of distinct action
sequences of a given length from fixed positions depends on every rule that decides what is legal (following,
heading, trumping, exchanging, closing, marriages, claims), so pinning the counts makes any change of the
rules show. A sequence that ends the deal before the depth counts once, as a leaf.

>>> from bummerl import Deal, Rules
>>> deal = Deal.random(Rules.preset("standard"), 1)
>>> [perft(deal, depth) for depth in range(4)]
[1, 7, 36, 225]
"""

from __future__ import annotations

from random import Random

from bummerl.engine import Deal
from bummerl.rules import PRESETS, Rules

__all__ = ["divide", "perft", "suite"]

#: The suite's positions: (seed, random card plays before it, depth), for seeds 0..2.
SUITE_SHAPE: tuple[tuple[int, int], ...] = ((0, 5), (8, 5), (14, 6))


def perft(deal: Deal, depth: int) -> int:
    """The number of action sequences of length ``depth`` from ``deal`` (a finished deal is one leaf).

    The deal is walked with ``push``/``pop`` and left as it was.
    """
    if depth == 0 or deal.is_over:
        return 1
    total = 0
    for action in deal.legal_actions():
        deal.push(action)
        total += perft(deal, depth - 1)
        deal.pop()
    return total


def divide(deal: Deal, depth: int) -> dict[str, int]:
    """:func:`perft` split by the first action (``depth`` >= 1): where two engines disagree, look here.

    >>> from bummerl import Deal, Rules
    >>> divide(Deal.random(Rules.preset("standard"), 1), 1)["close"]
    1
    """
    counts: dict[str, int] = {}
    for action in deal.legal_actions():
        deal.push(action)
        counts[str(action)] = perft(deal, depth - 1)
        deal.pop()
    return counts


def suite(preset: str) -> list[tuple[str, Deal, int]]:
    """The fixed perft positions of a preset: (label, position, depth).

    Seeds 0..2 deal a deck (dealer ``seed % 2``); from each, the start, and the positions after 8 and 14
    card plays chosen by ``Random(seed)`` among the legal plays sorted as strings (mid-deal with the talon
    open, and the end game).

    >>> [(label, depth) for label, _, depth in suite("vu")][:2]
    [('seed 0 after 0 plays', 5), ('seed 0 after 8 plays', 5)]
    """
    rules = Rules.preset(preset)
    out: list[tuple[str, Deal, int]] = []
    for seed in range(3):
        for plays, depth in SUITE_SHAPE:
            deal = Deal.random(rules, seed, dealer=seed % 2)
            rng = Random(seed)
            for _ in range(plays):
                deal.apply(rng.choice([a for a in sorted(deal.legal_actions(), key=str) if a.kind == "play"]))
            out.append((f"seed {seed} after {plays} plays", deal, depth))
    return out


def main() -> None:
    """Print the suite's counts for every preset."""
    for preset in sorted(PRESETS):
        counts = [perft(deal, depth) for _, deal, depth in suite(preset)]
        print(f"{preset:10} {' '.join(f'{c:6d}' for c in counts)}")


if __name__ == "__main__":
    main()
