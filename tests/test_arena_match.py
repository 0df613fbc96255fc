"""Arena games: one deal between bots, paired decks with seats swapped, Bummerls, and forfeits."""

from __future__ import annotations

import re
import time
from dataclasses import replace
from random import Random
from typing import Any

import pytest

from bummerl import Action, Deal, Rules, View
from bummerl.arena.match import (
    FORFEIT,
    FORFEIT_POINTS,
    Task,
    bot_seeds,
    deck_deal,
    play_bummerl,
    play_chunk,
    play_deal,
)
from bummerl.bots import registry
from bummerl.bots.random_bot import RandomBot
from bummerl.bots.registry import is_outside
from helpers.arena_bots import FirstBot, RecorderBot, register_test_bots

STANDARD = Rules.preset("standard")


@pytest.fixture
def seen(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """The test bots, registered; what the recorders saw."""
    return register_test_bots(monkeypatch)


def task(names: tuple[str, str], count: int = 3, mode: str = "deals", preset: str = "standard",
         first: int = 0) -> Task:
    return Task(0, names, Rules.preset(preset), seed=7, mode=mode, first=first, count=count)  # type: ignore[arg-type]


def test_a_deal_is_played_to_its_end_and_every_decision_is_timed() -> None:
    deal = Deal.random(STANDARD, 4)
    clocks: tuple[list[int], list[int]] = ([], [])
    result = play_deal(deal, (RandomBot(1), RandomBot(2)), clocks=clocks)
    assert result.outcome == deal.outcome and result.fault is None
    assert len(clocks[0]) + len(clocks[1]) == len(deal.history)
    assert all(ns >= 0 for ns in clocks[0] + clocks[1])


def test_bots_are_handed_views_with_the_score(seen: list[Any]) -> None:
    deal = Deal.random(STANDARD, 4)
    play_deal(deal, (RecorderBot(tag="A"), RecorderBot(tag="B")), score=(5, 2))
    chosen = [e for e in seen if e[0] == "choose"]
    assert chosen and all(e[3] == (5, 2) for e in chosen)


def test_both_deals_of_a_deck_pair_deal_the_same_cards() -> None:
    a, b = deck_deal(STANDARD, 3, 4), deck_deal(STANDARD, 3, 4)
    assert a.deck == b.deck and a.dealer == b.dealer == 0
    assert deck_deal(STANDARD, 3, 5).dealer == 1
    assert deck_deal(STANDARD, 3, 5).deck != a.deck


def test_seats_are_swapped_between_the_two_deals_of_a_pair(seen: list[Any]) -> None:
    play_chunk(task(("rec-a", "rec-b"), count=2))
    starts = [(tag, seat, data[0]) for event, tag, seat, data in seen if event == "new_deal"]
    assert len(starts) == 8  # 2 pairs x 2 deals x 2 seats
    for j in range(2):
        first, second = starts[4 * j: 4 * j + 2], starts[4 * j + 2: 4 * j + 4]
        hands_first = {seat: (tag, hand) for tag, seat, hand in first}
        hands_second = {seat: (tag, hand) for tag, seat, hand in second}
        assert hands_first[0][0] == "A" and hands_second[0][0] == "B"
        assert hands_first[0][1] == hands_second[0][1] and hands_first[1][1] == hands_second[1][1]


def test_identical_deterministic_bots_mirror_each_other_on_paired_decks(seen: list[Any]) -> None:
    result = play_chunk(task(("first", "first"), count=10))
    pairs = list(zip(result.points[::2], result.points[1::2], strict=True))
    assert len(pairs) == 10 and all(a == -b for a, b in pairs)


def test_a_bot_that_raises_forfeits_every_deal_to_three_points(seen: list[Any]) -> None:
    result = play_chunk(task(("raiser", "first"), count=3))
    assert result.points == [-FORFEIT_POINTS] * 6
    assert result.reasons == {FORFEIT: 6} and result.fault_counts == [6, 0]
    assert {f.bot for f in result.faults} == {0}
    # where in the bot's code: a bot author can find the line (an audit's bot said only AttributeError)
    reason = result.faults[0].reason
    assert re.fullmatch(r"raised RuntimeError: boom \(at arena_bots\.py:\d+ in choose\)", reason)


def test_any_escape_from_a_bot_loses_its_deal_never_the_run() -> None:
    import asyncio

    class Cancelled(FirstBot):
        def choose(self, view: View) -> Action:
            raise asyncio.CancelledError  # a BaseException, neither Exception nor SystemExit

    deal = Deal.random(Rules.preset("standard"), 5)
    result = play_deal(deal, (Cancelled(), Cancelled()))
    assert result.fault is not None
    assert result.fault.startswith("raised CancelledError (at test_arena_match.py:")


def test_a_bot_that_returns_a_string_forfeits(seen: list[Any]) -> None:
    result = play_chunk(task(("first", "stringer"), count=1))
    assert result.points == [FORFEIT_POINTS, FORFEIT_POINTS] and result.fault_counts == [0, 2]
    assert "returned str" in result.faults[0].reason and "not an Action" in result.faults[0].reason


def test_an_illegal_action_forfeits_with_the_engines_reason(seen: list[Any]) -> None:
    result = play_chunk(task(("cheat", "first"), count=1))
    assert result.fault_counts == [2, 0]
    reason = result.faults[0].reason
    assert reason.startswith("illegal action: play ") and "does not hold" in reason


def test_a_failing_new_deal_hook_forfeits_the_deal(seen: list[Any]) -> None:
    result = play_chunk(task(("badhook", "first"), count=1))
    assert result.fault_counts == [2, 0] and "new_deal raised KeyError" in result.faults[0].reason


def test_end_deal_hooks_hear_the_outcome_and_the_fault(seen: list[Any]) -> None:
    play_chunk(task(("rec-a", "raiser"), count=1))
    ends = [data for event, tag, _, data in seen if event == "end_deal"]
    assert len(ends) == 2
    for outcome, fault in ends:
        assert outcome.reason == FORFEIT and outcome.game_points == FORFEIT_POINTS and "boom" in fault


def test_a_flaky_bot_forfeits_some_deals_and_the_match_goes_on(seen: list[Any]) -> None:
    result = play_chunk(task(("flaky", "first"), count=20))
    faults = result.fault_counts[0]
    assert 0 < faults < 40 and result.reasons[FORFEIT] == faults
    for f in result.faults:
        assert result.points[f.deal] == -FORFEIT_POINTS
    assert len(result.points) == 40 and sum(result.decisions) > 40


def test_a_bummerl_ends_when_a_seat_reaches_zero_and_bots_see_the_countdown(seen: list[Any]) -> None:
    winner, deals = play_bummerl(STANDARD, Random(3), 0, (RecorderBot(tag="A"), RecorderBot(tag="B")))
    needed = [7, 7]
    starts = [data for event, tag, seat, data in seen if event == "new_deal" and seat == 0]
    assert len(starts) == len(deals)
    for k, (start, result) in enumerate(zip(starts, deals, strict=True)):
        assert start[2] == tuple(needed)
        assert start[1] == k % 2  # the dealer alternates from the first dealer
        needed[result.outcome.winner] -= result.outcome.game_points
    assert needed[winner] <= 0 < needed[1 - winner]


def test_twin_bummerls_deal_the_same_cards_so_identical_bots_mirror(seen: list[Any]) -> None:
    result = play_chunk(task(("first", "first"), count=4, mode="bummerls"))
    assert len(result.winners) == 8
    assert all(a != b for a, b in zip(result.winners[::2], result.winners[1::2], strict=True))
    assert sum(result.lengths) == len(result.points)


def test_bot_seeds_differ_per_chunk_and_repeat_per_seed() -> None:
    assert bot_seeds(1, 0, 0) == bot_seeds(1, 0, 0)
    assert len({bot_seeds(1, 0, c) for c in range(5)} | {bot_seeds(2, 0, 0), bot_seeds(1, 1, 0)}) == 7


@pytest.mark.parametrize("preset", ["vu", "sixty-six", "sharp"])
def test_chunks_replay_exactly_from_their_task(preset: str) -> None:
    t = task(("random", "random"), count=3, preset=preset, first=5)
    a, b = play_chunk(t), play_chunk(t)
    assert a.points == b.points and a.reasons == b.reasons and a.decisions == b.decisions


def test_a_bot_asking_for_the_deal_gets_a_copy_of_the_true_deal(seen: list[Any]) -> None:
    peek = play_chunk(task(("peek", "first"), count=4))
    plain = play_chunk(task(("first", "first"), count=4))
    assert peek.faults == [] and peek.points == plain.points


def test_a_bot_with_choose_with_deal_that_does_not_say_it_sees_the_deal_gets_views_only() -> None:
    # An audit's bot played solve_actions(deal) from a choose_with_deal hook alone: 79% against heuristic,
    # nothing in the report. Only a bot declaring sees_deal (the cheater yardsticks) is handed the deal.
    handed: list[object] = []

    class Sneaky:
        def choose(self, view: View) -> Action:
            return view.legal_actions[0]

        def choose_with_deal(self, view: View, deal: Deal) -> Action:
            handed.append(deal)
            return view.legal_actions[0]

    deal = Deal.random(Rules.preset("standard"), 5)
    play_deal(deal, (Sneaky(), Sneaky()))  # type: ignore[arg-type]
    assert deal.outcome is not None and handed == []


class SlowBot(RandomBot):
    """A random bot that takes ``pause`` seconds over each decision."""

    def __init__(self, seed: int | None = None, pause: float = 0.03) -> None:
        super().__init__(seed)
        self.pause = pause

    def choose(self, view: Any) -> Any:
        time.sleep(self.pause)
        return super().choose(view)


def test_a_python_bot_over_its_time_limit_forfeits_the_deal() -> None:
    deal = Deal.random(STANDARD, 4)
    result = play_deal(deal, (RandomBot(1), SlowBot(2)), limits=(0.01, 0.01))
    assert result.fault_seat == 1 and result.outcome.reason == FORFEIT
    assert result.fault is not None and "over the limit of 0.01 s" in result.fault
    # without a limit (the default) it plays on, however slow
    result = play_deal(Deal.random(STANDARD, 4), (RandomBot(1), SlowBot(2, 0.002)))
    assert result.fault is None


def test_the_arena_timeout_holds_python_bots_to_it_only_when_given(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(registry, "_REGISTRY", dict(registry._REGISTRY))
    registry.register("slow", SlowBot, "sleeps 30 ms a decision", public=False)
    timed = play_chunk(replace(task(("slow", "random"), count=1), timeout=0.01))
    assert timed.fault_counts == [2, 0] and "to decide, over the limit of 0.01 s" in timed.faults[0].reason
    assert play_chunk(task(("slow", "random"), count=1)).fault_counts == [0, 0]
    assert is_outside("cmd:python bot.py") and not is_outside("slow")  # (outside: stopped by ExternalBot)


def test_a_fault_names_the_bots_line_not_the_library_line_it_failed_in() -> None:
    import random as stdlib_random

    class Chooser(FirstBot):
        def choose(self, view: View) -> Action:
            return stdlib_random.choice([])  # IndexError inside random.py

    result = play_deal(Deal.random(Rules.preset("standard"), 5), (Chooser(), Chooser()))
    assert result.fault is not None
    assert re.search(r"\(at test_arena_match\.py:\d+ in choose\)$", result.fault), result.fault
