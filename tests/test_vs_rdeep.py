"""The RdeepBot benchmark's own parts that need no ``schnapsen`` package: decks, pairing, arguments.

The bridge to their engine is tested by the benchmark itself on every deal (the mirror's result must equal
theirs) and by ``python benchmarks/vs_rdeep.py --self-check 400``: ``schnapsen`` is not a dependency."""

from __future__ import annotations

from functools import partial
from pathlib import Path

import pytest

from bummerl import Deal, Rules
from helpers.scripts import load as load_file

load = partial(load_file, folder=Path(__file__).resolve().parent.parent / "benchmarks")


def test_each_deck_is_a_full_vu_pack_the_same_for_both_twins_and_new_per_deal() -> None:
    bench = load("vs_rdeep")
    first = bench.deck_for(1, 0, 0)
    assert sorted(first) == sorted(str(c) for c in Deal.random(Rules.preset("vu"), 0).deck)
    assert bench.deck_for(1, 0, 0) == first  # both twins of a pair (and reruns) get the same cards
    assert bench.deck_for(1, 0, 1) != first and bench.deck_for(1, 1, 0) != first
    assert bench.deck_for(2, 0, 0) != first
    Deal.from_deck(bench.RULES, first, dealer=0)  # a deal our engine accepts


def test_an_odd_number_of_bummerls_is_refused_before_anything_is_installed() -> None:
    bench = load("vs_rdeep")
    with pytest.raises(SystemExit) as stop:
        bench.main(["--bummerls", "3"])
    assert stop.value.code == 2


def test_the_cheater_yardstick_is_handed_the_mirrors_true_deal(monkeypatch: pytest.MonkeyPatch) -> None:
    bench = load("vs_rdeep")
    deal = Deal.from_deck(bench.RULES, bench.deck_for(1, 0, 0), dealer=0)
    handed = []

    class Yardstick:
        sees_deal = True

        def choose(self, view: object) -> object:
            raise AssertionError("a bot that sees the deal must not be asked with a view alone")

        def choose_with_deal(self, view: object, true_deal: Deal) -> object:
            handed.append(true_deal)
            return deal.legal_actions()[-1]

    class Perspective:  # their engine's offer, as our action texts
        def valid_moves(self) -> list[str]:
            return [str(a) for a in deal.legal_actions()]

    monkeypatch.setattr(bench, "our_actions", lambda move: [move])
    choose = bench.ours(Yardstick(), bench.Mirror(deal), deal.to_move, [7, 7])
    assert choose(Perspective(), None) == str(deal.legal_actions()[-1])
    assert len(handed) == 1 and handed[0] is not deal  # a copy of the true deal, as in the arena
    assert handed[0].setup() == deal.setup()
