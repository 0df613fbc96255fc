"""Perft: the number of action sequences from fixed seeded positions is pinned for every preset.

A change of any rule that decides what is legal changes a count here. The counts were taken from the engine
when this test was written (it agreed with every rules test then); if a rules change is intended, say so in
the commit and take the new counts from ``python -m bummerl.perft``.
"""

from __future__ import annotations

import pytest

from bummerl import Deal, Rules
from bummerl.perft import divide, perft, suite
from bummerl.rules import PRESETS

PINNED: dict[str, list[int]] = {
    "sharp": [5244, 751, 16, 5514, 1016, 20, 4984, 1013, 16],
    "sixty-six": [11019, 10249, 14, 10210, 9738, 604, 12469, 5934, 112],
    "soft": [6044, 789, 16, 6445, 1065, 20, 5382, 1075, 16],
    "standard": [6044, 751, 16, 6371, 1016, 20, 5050, 1031, 16],
    "tompa": [5359, 600, 6, 5726, 786, 7, 4687, 719, 1],
    "vu": [4339, 568, 6, 4627, 742, 7, 3550, 664, 1],
}


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_perft_counts_are_pinned(preset: str) -> None:
    assert [perft(deal, depth) for _, deal, depth in suite(preset)] == PINNED[preset]


def test_every_preset_is_pinned() -> None:
    assert set(PINNED) == set(PRESETS)


def test_perft_leaves_the_deal_as_it_was_and_divide_adds_up() -> None:
    deal = Deal.random(Rules.preset("standard"), 4)
    before = [str(a) for a in deal.legal_actions()], deal.talon_size, deal.points
    parts = divide(deal, 3)
    assert sum(parts.values()) == perft(deal, 3)
    assert ([str(a) for a in deal.legal_actions()], deal.talon_size, deal.points) == before


def test_a_finished_deal_is_one_leaf() -> None:
    deal = Deal.random(Rules.preset("standard"), 4)
    while not deal.is_over:
        deal.apply(deal.legal_actions()[0])
    assert perft(deal, 3) == 1
