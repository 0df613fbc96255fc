"""The open-card solver agrees with plain minimax over the engine, compiled and as plain Python.

Positions come from random play (every preset, and presets with random flag overrides), stopped
where the reference is cheap: after the talon is closed or exhausted, or on the last trick that
still draws. Whole deals from the first lead are checked compiled against plain Python (one source,
one algorithm; only the transposition table's memory differs, so node counts agree on small searches).
``BUMMERL_PURE_PYTHON=1`` leaves the compiled core out (CI's plain-Python run); CI also checks that the
compiled core is built, so nothing here is skipped for want of it.
"""

from __future__ import annotations

import doctest
import os
import random
import threading
from collections.abc import Callable

import pytest

from bummerl import Deal, Rules
from bummerl.actions import CLAIM, Action
from bummerl.cards import parse_cards
from bummerl.notation import parse_position
from bummerl.rules import PRESETS
from bummerl.search import core, python_core
from bummerl.search.position import Position, from_deal
from bummerl.search.reference import reference_action_values

Analyse = Callable[[Position, bool], tuple[int, dict[int, int], int]]

PURE = python_core()
ONLY_PYTHON = os.environ.get("BUMMERL_PURE_PYTHON", "") not in ("", "0")
#: The compiled core (when built: CI makes sure it is) and the same module as plain Python.
BACKENDS = [pytest.param(PURE.solve_position, id="python")] + (
    [] if ONLY_PYTHON else [pytest.param(core.solve_position, id="compiled")]
)
#: The comparisons of the two modes belong to the main run, not to the plain-Python one.
both_modes = pytest.mark.skipif(ONLY_PYTHON, reason="compiled against plain Python: the main run's job")
FLAGS = (
    "allow_close", "close_with_two_left", "exchange_with_two_left", "exchange_needs_trick",
    "marriage_needs_trick", "marriage_leads_king", "auto_claim",
)


def random_rules(rng: random.Random) -> Rules:
    """A preset, half of the time with some flags changed at random."""
    rules = PRESETS[rng.choice(sorted(PRESETS))]
    if rng.random() < 0.5:
        return rules
    over: dict[str, object] = {f: rng.random() < 0.5 for f in FLAGS if rng.random() < 0.3}
    over["marriage_scoring"] = rng.choice(["trick", "next_trick"])
    over["closing_scoring"] = rng.choice(["viennese", "tournament"])
    over["false_claim"] = rng.choice(["fixed", "mirror"])
    return rules.replace(**over)


def cards_left(deal: Deal) -> int:
    return (deal.hands[0] | deal.hands[1]).bit_count()


def random_position(rng: random.Random, rules: Rules, stop: Callable[[Deal], bool]) -> Deal:
    """Random play (claims now and then) until ``stop`` holds at a decision; retried until it does."""
    while True:
        deal = Deal.random(rules, rng.randrange(1 << 30), dealer=rng.randrange(2))
        while deal.outcome is None:
            if stop(deal) and rng.random() < 0.5:
                return deal
            actions = deal.legal_actions()
            if CLAIM in actions and rng.random() < 0.05:
                deal.apply(CLAIM)
            else:
                deal.apply(rng.choice([a for a in actions if a is not CLAIM] or list(actions)))


def set_up(deal: Deal) -> Deal:
    """The same position given to :meth:`Deal.from_setup` (no deck, no trick record)."""
    return Deal.from_setup(deal.setup().replace(marriages=(), exchanged=None, trick_log=()))


def assert_agrees(analyse: Analyse, deal: Deal) -> None:
    expected = reference_action_values(deal)
    value, codes, _ = analyse(from_deal(deal), True)
    got = {Action.from_code(c): v for c, v in codes.items()}
    where = f"{deal.rules.describe()} deck={' '.join(map(str, deal.deck))} dealer={deal.dealer} " + \
        f"actions={[str(a) for a in deal.history]}"
    assert got == expected, where
    assert value == max(expected.values()), where
    assert analyse(from_deal(deal), False)[0] == value, where


def closed_or_exhausted(max_cards: int) -> Callable[[Deal], bool]:
    return lambda deal: not deal.talon_open and cards_left(deal) <= max_cards


@pytest.mark.parametrize("analyse", BACKENDS)
@pytest.mark.parametrize("max_cards", [4, 6, 8])
def test_every_action_is_worth_what_minimax_over_the_engine_says_once_the_talon_is_gone(
    analyse: Analyse, max_cards: int
) -> None:
    rng = random.Random(max_cards)
    count = {4: 1200, 6: 600, 8: 250}[max_cards]
    for _ in range(count):
        assert_agrees(analyse, random_position(rng, random_rules(rng), closed_or_exhausted(max_cards)))


@pytest.mark.parametrize("analyse", BACKENDS)
def test_sixty_six_once_the_talon_is_gone_is_solved_like_minimax_whoever_holds_the_points(
    analyse: Analyse,
) -> None:
    """The race to 66 read from the points each side makes sure of (Search.secure), in every variant:
    closed or exhausted, pending and counted marriages, tournament closing, mirror false claims,
    claims by hand."""
    rng = random.Random(66)
    base = Rules.preset("sixty-six")
    for i in range(500):
        over: dict[str, object] = {f: rng.random() < 0.5 for f in ("auto_claim", "marriage_needs_trick")
                                   if rng.random() < 0.4}
        over["closing_scoring"] = rng.choice(["viennese", "tournament"])
        over["false_claim"] = rng.choice(["fixed", "mirror"])
        rules = base.replace(**over)
        assert_agrees(analyse, random_position(rng, rules, closed_or_exhausted(8 if i % 5 == 0 else 6)))


@pytest.mark.parametrize("analyse", BACKENDS)
def test_in_a_sixty_six_game_closed_by_the_other_a_false_claim_by_hand_can_beat_losing(
    analyse: Analyse,
) -> None:
    """Who wins a closed game decides its value only with automatic claims: by hand the loser may claim
    falsely for 2 instead of losing 3 (here after TD, and in positions like it)."""
    rules = Rules.preset("sixty-six").replace(auto_claim=False)
    deal = Deal.from_deck(rules, "9C AD JS TD QS QD JD AH QC 9S AS KH JC TC KC KS KD JH QH TH TS 9H 9D AC", 1)
    for a in ("play 9C", "play AS", "close", "play AH", "play KH", "play 9S", "play QS"):
        deal.apply(a)
    _, codes, _ = analyse(from_deal(deal), True)
    assert {str(Action.from_code(c)): v for c, v in codes.items()}["play TD"] == -2
    rng = random.Random(5)
    for _ in range(400):
        assert_agrees(analyse, random_position(rng, rules, lambda d: d.closed_by not in (-1, d.leader)
                                               and cards_left(d) <= 8 and d.claim_ok))


@pytest.mark.parametrize("analyse", BACKENDS)
def test_set_up_positions_are_solved_like_the_deals_they_copy(analyse: Analyse) -> None:
    rng = random.Random(7)
    done = 0
    while done < 300:
        rules = random_rules(rng)
        deal = random_position(rng, rules, closed_or_exhausted(8))
        try:
            copy = set_up(deal)
        except ValueError:  # e.g. auto_claim refuses a player already on 66
            continue
        if copy.outcome is None:
            assert_agrees(analyse, copy)
            assert analyse(from_deal(copy), False)[0] == analyse(from_deal(deal), False)[0]
            done += 1


@pytest.mark.parametrize("analyse", BACKENDS)
def test_the_last_trick_that_draws_is_solved_exactly(analyse: Analyse) -> None:
    """Five tricks to go with the talon open (exchange, closing and marriages all still possible)."""
    rng = random.Random(11)
    for _ in range(12):
        deal = random_position(rng, random_rules(rng), lambda d: d.talon_open and d.talon_size == 2)
        assert_agrees(analyse, deal)


@pytest.mark.parametrize("analyse", BACKENDS)
@pytest.mark.parametrize(
    ("rules", "deck", "dealer", "actions", "values"),
    [
        # Player 1 closed before player 0 won a trick: 0's false claim costs 2, playing on costs 3.
        (
            "standard", "TC AD AH AS TD JS QS QD KH KS TH AC QH QC JH KC KD JC TS JD", 1,
            "play AH,play JS,play TH,play QD,close,play AS,play QH,play AC,play TC,play QC,play KH,play TD,"
            "play AD",
            {"claim": -2, "play JH": -3},
        ),
        # With mirror false claims the opponent scores only what the table gives a correct claim.
        (
            {"preset": "sharp", "false_claim": "mirror"},
            "JH AH TD TC QH AD KC JC QS TS AC KS JS KH AS KD QC TH JD QD", 0,
            "play TD,play AD,play AC,play JS,play TC,play AS,play KD,play AH,play TH,play QC",
            {"claim": -1, "play JC": -2, "play JD": -2, "play QD": -2, "play JH": -2, "play QS": -2},
        ),
    ],
)
def test_a_false_claim_is_valued_by_its_outcome_and_can_be_the_best_action(
    analyse: Analyse, rules: object, deck: str, dealer: int, actions: str, values: dict[str, int]
) -> None:
    deal = Deal.from_deck(Rules.from_json(rules), deck, dealer)
    for a in actions.split(","):
        deal.apply(a)
    _, codes, _ = analyse(from_deal(deal), True)
    assert {str(Action.from_code(c)): v for c, v in codes.items()} == values
    assert_agrees(analyse, deal)


@pytest.mark.parametrize("analyse", BACKENDS)
def test_a_sixty_six_draw_is_worth_nothing(analyse: Analyse) -> None:
    deck = "TC JC TD QH TS AH AD TH JS KS 9D KH KD AC 9H 9C JH AS QD KC QC 9S QS JD"
    deal = Deal.from_deck(Rules.preset("sixty-six"), deck, 0)
    for card in parse_cards("TD TS KS QH JC 9D KD AC AH JS JH TC KC 9C 9H TH QC JD"):
        deal.apply(Action.play(card))
    _, codes, _ = analyse(from_deal(deal), True)
    values = {str(Action.from_code(c)): v for c, v in codes.items()}
    assert values == {"play KH": 0, "play 9S": -1, "play AS": 0}
    assert_agrees(analyse, deal)


DEALS = {"standard": 70, "soft": 30, "sharp": 30, "tompa": 30, "vu": 20, "sixty-six": 8}


def test_the_search_module_keeps_its_examples_in_both_modes() -> None:
    for module in (PURE, core):
        failed, attempted = doctest.testmod(module)
        assert (failed, attempted > 0) == (0, True), module.__file__


def test_the_compiled_core_is_the_plain_python_module_compiled() -> None:
    assert PURE.COMPILED is False
    assert PURE.__file__.endswith("core.py")
    assert core.COMPILED is (not core.__file__.endswith(".py"))


@both_modes
@pytest.mark.parametrize("preset", sorted(DEALS))
def test_compiled_and_plain_python_agree_on_whole_deals(preset: str) -> None:
    rules = Rules.preset(preset)
    for seed in range(DEALS[preset]):
        pos = from_deal(Deal.random(rules, seed, dealer=seed % 2))
        value = core.solve_position(pos, False)[0]
        assert value == PURE.solve_position(pos, False)[0], f"{preset} seed {seed}"


@both_modes
def test_compiled_and_plain_python_visit_the_same_nodes_while_the_table_has_room() -> None:
    rng = random.Random(9)
    for _ in range(100):
        pos = from_deal(random_position(rng, random_rules(rng), closed_or_exhausted(10)))
        assert core.solve_position(pos, True) == PURE.solve_position(pos, True)


@both_modes
def test_compiled_and_plain_python_agree_on_every_action_while_the_talon_is_open() -> None:
    rng = random.Random(3)
    for _ in range(150):
        rules = random_rules(rng)
        deal = random_position(rng, rules, lambda d: d.talon_open and 2 <= d.talon_size <= 6)
        pos = from_deal(deal)
        assert core.solve_position(pos, True)[:2] == PURE.solve_position(pos, True)[:2], rules.describe()


@pytest.mark.parametrize("analyse", BACKENDS)
def test_threads_solving_different_rules_at_once_get_the_answers_of_one_thread(analyse: Analyse) -> None:
    """Each thread has its own search (settings, table): no answer leaks into another's."""
    rng = random.Random(4)
    jobs = [from_deal(random_position(rng, Rules.preset(p), lambda d: d.talon_open and d.talon_size <= 4))
            for _ in range(4) for p in ("standard", "sixty-six", "tompa", "vu")]
    alone = [analyse(pos, True) for pos in jobs]
    results: dict[tuple[int, int], tuple[int, dict[int, int], int]] = {}
    errors: list[BaseException] = []

    def work(t: int) -> None:
        try:
            for rnd in range(2):
                order = list(range(len(jobs)))
                random.Random(t * 10 + rnd).shuffle(order)
                for i in order:
                    results[t, i] = analyse(jobs[i], True)
        except BaseException as err:
            errors.append(err)

    threads = [threading.Thread(target=work, args=(t,)) for t in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert not errors
    assert len(results) == 4 * len(jobs)
    for (_, i), got in results.items():
        assert got == alone[i]


@pytest.mark.parametrize("analyse", BACKENDS)
def test_a_solve_does_not_depend_on_the_solves_before_it(analyse: Analyse) -> None:
    """The move-order memory (killer moves, table) starts afresh for each position: same values, same
    nodes, in whatever order the positions come."""
    rng = random.Random(12)
    jobs = [from_deal(random_position(rng, Rules.preset(p), lambda d: d.talon_open and d.talon_size <= 6))
            for p in ("sixty-six", "standard") for _ in range(3)]
    first = [analyse(pos, True) for pos in jobs]
    assert [analyse(pos, True) for pos in reversed(jobs)] == first[::-1]


@pytest.mark.parametrize("analyse", BACKENDS)
def test_with_mirror_false_claims_the_table_shares_no_bound_across_points(analyse: Analyse) -> None:
    """A false claim costs less when the other has more points (rules.md 7, ``mirror``), so a value can
    rise with the other's points: bounds stored at other points must not be used there. With them,
    playing JH here (code 29) came out 2 instead of 1."""
    deal = Deal.from_setup(parse_position(
        "soft:false_claim=mirror DAKQ.HA.SJ/CAK.DT.HTQ JH,QC,TC KS 0 32/0 3/0 closed=0@0/0 claim=no"))
    expected = reference_action_values(deal)
    value, codes, _ = analyse(from_deal(deal), True)
    assert {Action.from_code(c): v for c, v in codes.items()} == expected
    assert value == max(expected.values())
