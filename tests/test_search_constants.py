"""The search core keeps its own copies of the card facts, the position's flags and the action codes (the
compiled module reads them as C arrays and ints); these tests pin every copy to the one it copies.

The compiled module's constants are C globals, invisible from Python; it is built from ``core.py``, which
:func:`~bummerl.search.python_core` loads as plain Python, so the copies are read there (and
tests/test_search.py checks the two modes agree node for node).
"""

from __future__ import annotations

from itertools import product

from bummerl import actions, cards, engine
from bummerl.cards import HIGHER, POINTS, SUIT_MASKS, Rank, card_points, trick_winner
from bummerl.scoring import WIN_POINTS, game_point_table
from bummerl.search import core, position, python_core

PURE = python_core()


def test_the_search_core_copies_the_card_facts_of_the_cards_module() -> None:
    assert tuple(PURE.HIGHER) == HIGHER
    assert tuple(PURE.P) == POINTS == engine.POINTS
    assert core._PTS == PURE._PTS == tuple(r.points for r in Rank)  # visible in the compiled module too
    assert tuple(PURE.SUIT) == SUIT_MASKS
    assert [cards.mask_of(c for c in range(24) if c % 6 == r) for r in Rank] == PURE.RANKS
    assert PURE.RANKS[Rank.QUEEN] == PURE.QUEENS
    assert [card_points(m) for m in range(64)] == PURE.CHUNK


def test_the_search_core_decides_tricks_and_game_points_as_the_cards_and_scoring_modules() -> None:
    for lead, card, trump in product(range(24), range(24), range(4)):
        if lead != card:
            assert PURE._wins(lead, card, trump) == (trick_winner(lead, card, trump) == lead)
    for tricks, points in product(range(3), range(WIN_POINTS + 1)):
        assert PURE._table(tricks, points) == game_point_table(tricks, points)


def test_the_search_core_reads_the_position_flags_and_kinds_of_the_position_module() -> None:
    flags = {name for name in vars(position) if name.startswith("F_")}
    assert flags == {name for name in vars(PURE) if name.startswith("F_")}
    assert len(flags) == 11
    for name in flags:
        assert getattr(PURE, name) == getattr(position, name), name
    kinds = (position.LEAD, position.MARRIED, position.FOLLOW, position.ENDING)
    assert kinds == (PURE.K_LEAD, PURE.K_MARRIED, PURE.K_FOLLOW, PURE.K_ENDING)


def test_the_search_core_answers_with_the_action_codes_of_the_actions_module() -> None:
    codes = (actions.EXCHANGE_CODE, actions.CLOSE_CODE, actions.CLAIM_CODE, actions.PASS_CODE,
             actions.MARRY_CODE)
    assert codes == (PURE.A_EXCHANGE, PURE.A_CLOSE, PURE.A_CLAIM, PURE.A_PASS, PURE.A_MARRY)
    assert actions.Action.from_code(PURE.A_MARRY + 3) == actions.Action.parse("marry S")
