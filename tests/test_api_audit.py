"""What session 7's audit of the Python API and the research adapters found, each now refused cleanly
or fixed: a refused PettingZoo step that wiped an agent's unread reward, OpenSpiel chance outcomes and
action ids that were taken unchecked (a card dealt twice, a negative id picking an action from the end),
a deck card of 2**40 that allocated a gigabyte, seats given as 1.0, action indexes given as floats or
strings, and running points shown to agents under rules that hide them."""

from __future__ import annotations

import time

import numpy as np
import pytest

pytest.importorskip("pyspiel", reason="OpenSpiel is in the rl extra: pip install 'bummerl[rl]'")
pytest.importorskip("pettingzoo", reason="PettingZoo is in the rl extra: pip install 'bummerl[rl]'")

import pyspiel

from bummerl import Deal, DeckError, Rules, View
from bummerl.adapters.encoding import EncodingError, action_of, decode, encode, shown_points
from bummerl.adapters.openspiel import GAME_NAME
from bummerl.adapters.pettingzoo import bummerl_env
from bummerl.engine import IllegalActionError
from bummerl.errors import quote
from bummerl.setup import PositionError, Setup

STANDARD = [c for c in range(24) if c % 6]


def test_a_refused_step_leaves_every_reward_as_it_was() -> None:
    env = bummerl_env()
    env.reset(seed=1)
    for agent in env.agent_iter():
        obs, reward, terminated, _, _ = env.last()
        if reward != 0 and not terminated:  # a deal just ended: its reward is not read yet
            before = dict(env._cumulative_rewards)
            for bad in (99, float("nan"), 2.9, "5", True, None):
                with pytest.raises((EncodingError, ValueError)):
                    env.step(bad)
                assert env._cumulative_rewards == before and env.agent_selection == agent
            assert sum(before.values()) == 0 and env.last()[1] == reward
            return
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    pytest.fail("no deal ended")


def test_action_indexes_are_integers_in_range() -> None:
    assert str(action_of(np.int64(3))) == str(action_of(3))
    for bad in (2.9, "5", b"5", True, -1, 32, np.array([5]), None):
        with pytest.raises(EncodingError):
            action_of(bad)  # type: ignore[arg-type]


def test_openspiel_refuses_impossible_outcomes_and_actions_and_changes_nothing() -> None:
    game = pyspiel.load_game(GAME_NAME)
    state = game.new_initial_state()
    with pytest.raises(IllegalActionError):
        state.apply_action(5)  # the dealer is 0 or 1
    state.apply_action(0)
    state.apply_action(1)
    with pytest.raises(IllegalActionError):
        state.apply_action(1)  # dealt already
    with pytest.raises(IllegalActionError):
        state.apply_action(99)
    assert state.history() == [0, 1] and len(state.chance_outcomes()) == 19
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    history = state.history()
    for bad in (-7, -2, 32):  # -7 used to apply ACTIONS[-7], "close" (-1 is OpenSpiel's own "no action")
        with pytest.raises(EncodingError):
            state.apply_action(bad)
    assert state.history() == history


def test_a_huge_number_in_a_deck_is_refused_at_once() -> None:
    for bad in (2**40, 10**5000, -1):
        started = time.perf_counter()
        with pytest.raises(DeckError, match="which is not a card"):
            Deal.from_deck(Rules.preset("standard"), [*STANDARD[:19], bad])
        assert time.perf_counter() - started < 1.0  # not a gigabyte-sized 1 << 2**40 first
    assert quote(10**5000) == "an integer far too large"


def test_seats_given_as_floats_are_taken_as_ints_or_refused() -> None:
    setup = Setup.parse("standard CTK.DAK.HQ/CQJ.DTQ.HT JD QS 0 28/27 2/2").replace(to_move=0.0)
    assert type(setup.to_move) is int and Deal.from_setup(setup).legal_actions()
    with pytest.raises(PositionError):
        setup.replace(to_move=True)
    with pytest.raises(DeckError, match=r"dealer must be player 0 or 1, not 1\.0"):
        Deal.from_deck(Rules.preset("standard"), STANDARD, dealer=1.0)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="seat must be 0 or 1"):
        View.of(Deal.random(Rules.preset("standard"), 1), 0.0)  # type: ignore[arg-type]


def test_agents_see_no_running_points_where_the_rules_hide_them() -> None:
    state = pyspiel.load_game(f"{GAME_NAME}(rules=sharp)").new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    deal = state.deal
    while deal.points[0] == 0 or deal.points[1] == 0:  # both have taken a trick
        state.apply_action(min(a.code for a in deal.legal_actions() if a.kind == "play"))
    assert deal.outcome is None and deal.points[0] > 0 and deal.points[1] > 0
    for seat in (0, 1):
        view = View.of(deal, seat)
        assert shown_points(view) == ((0, 0), (0, 0), (0, 0))
        seen = decode(encode(view))
        assert seen.points is None and seen.pending == (0, 0) and seen.close_snapshot == (0, 0)
        assert "points 0-0 pending 0-0" in state.observation_string(seat)
        assert "points 0-0 pending 0-0" in state.information_state_string(seat)


def test_the_gymnasium_env_says_what_to_do_when_used_out_of_order() -> None:
    from bummerl.adapters.gymnasium import BummerlVsBot

    env = BummerlVsBot()
    with pytest.raises(ValueError, match=r"call reset\(\) before step\(\)"):
        env.step(0)
    assert env.episode.deal.history == []  # nothing was applied
    for bad in ({"seat": 1.0}, {"seat": True}, {"opponent": None}):
        with pytest.raises(ValueError):
            BummerlVsBot(**bad)  # type: ignore[arg-type]
