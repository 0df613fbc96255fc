"""bummerl.adapters.pettingzoo: PettingZoo's own API and seed tests, zero-sum game-point rewards, forfeits."""

from __future__ import annotations

import warnings
from typing import Any

import pytest

pytest.importorskip("pettingzoo", reason="PettingZoo is in the rl extra: pip install 'bummerl[rl]'")

import itertools

from pettingzoo.test import api_test, seed_test

from bummerl import Rules
from bummerl.adapters.encoding import action_index, decode
from bummerl.adapters.pettingzoo import AGENTS, BummerlEnv, DealEnv, bummerl_env, deal_env
from bummerl.bots import make_bot
from bummerl.rules import PRESETS


@pytest.mark.parametrize("preset", list(PRESETS))
def test_the_deal_env_passes_pettingzoos_api_test(preset: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # advice such as "observation space probably should be a Box"
        api_test(deal_env(preset), num_cycles=200)


def test_the_bummerl_env_passes_pettingzoos_api_test() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(bummerl_env("sixty-six"), num_cycles=400)


@pytest.mark.parametrize("make", [deal_env, bummerl_env])
def test_both_envs_pass_pettingzoos_seed_test(make: Any) -> None:
    seed_test(lambda: make("standard"), num_cycles=300)


def play_out(env: DealEnv, seed: int, bots: dict[str, Any]) -> tuple[dict[str, float], list[dict[str, Any]]]:
    """Play an episode with bummerl bots through the env; return each agent's summed rewards and the deal
    outcomes reported in the infos."""
    env.reset(seed=seed)
    totals = dict.fromkeys(AGENTS, 0.0)
    outcomes: list[dict[str, Any]] = []
    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        totals[agent] += reward
        if "outcome" in info and (not outcomes or outcomes[-1] is not info["outcome"]):
            outcomes.append(info["outcome"])
        if termination or truncation:
            env.step(None)
            continue
        view = env.view(agent)
        assert decode(obs["observation"]).hand_mask == view.hand_mask
        assert {int(i) for i in obs["action_mask"].nonzero()[0]} == {a.code for a in view.legal_actions}
        env.step(action_index(bots[agent].choose(view)))
    return totals, outcomes


def test_a_deal_pays_its_game_points_zero_sum_to_both_agents() -> None:
    for seed in range(20):
        env = deal_env("standard")
        bots = {"player_0": make_bot("random", 1), "player_1": make_bot("heuristic", 2)}
        totals, _ = play_out(env, seed, bots)
        outcome = env.episode.deal.outcome
        assert outcome is not None
        assert totals == {f"player_{s}": float(outcome.value_for(s)) for s in (0, 1)}
        assert totals["player_0"] == -totals["player_1"] != 0 or outcome.winner is None


def test_a_bummerl_episode_plays_deals_until_a_seat_has_seven_game_points() -> None:
    env = bummerl_env("standard")
    bots = {"player_0": make_bot("heuristic", 1), "player_1": make_bot("random", 2)}
    totals, _ = play_out(env, 7, bots)
    game = env.episode.game
    assert game is not None and game.is_over and len(game.finished) >= 3
    booked = [sum(d.outcome.value_for(s) for d in game.finished) for s in (0, 1)]
    assert totals == {"player_0": booked[0], "player_1": booked[1]}
    assert totals["player_0"] == -totals["player_1"]
    won = sum(d.outcome.game_points for d in game.finished if d.outcome.winner == game.winner)
    assert won >= 7
    dealers = [d.dealer for d in game.finished]
    assert all(a != b for a, b in itertools.pairwise(dealers))


def test_each_agent_reads_every_deal_outcome_even_when_the_other_moves_first_next() -> None:
    """An agent's info lasts until its own next step: the agent that did not end a deal still reads the
    outcome when the one that ended it leads the next deal (first legal action: this happens often)."""
    for seed in range(6):
        env = bummerl_env("standard")
        env.reset(seed=seed)
        read: dict[str, list[dict[str, Any]]] = {a: [] for a in AGENTS}
        for agent in env.agent_iter():
            obs, _, termination, truncation, info = env.last()
            read[agent] += info.get("outcomes", [])
            if termination or truncation:
                env.step(None)
            else:
                env.step(int(obs["action_mask"].nonzero()[0][0]))
        game = env.episode.game
        assert game is not None
        expected = [d.outcome.to_json() for d in game.finished if d.outcome is not None]
        assert len(expected) >= 2 and read["player_0"] == expected and read["player_1"] == expected


def test_the_views_of_a_bummerl_carry_the_score() -> None:
    env = BummerlEnv("vu")
    env.reset(seed=3)
    assert env.view("player_0").score == (7, 7)
    assert decode(env.observe("player_1")["observation"]).score == (7, 7)


def test_an_illegal_action_forfeits_three_game_points_and_ends_the_episode() -> None:
    env = deal_env("standard")
    env.reset(seed=4)
    agent = env.agent_selection
    other = AGENTS[1 - AGENTS.index(agent)]
    env.step(action_index("pass"))
    assert all(env.terminations.values())
    assert env.rewards == {agent: -3.0, other: 3.0}
    assert env.infos[agent]["fault"] == f"{agent}: illegal action: pass"
    forfeit = {"winner": AGENTS.index(other), "game_points": 3, "reason": "forfeit"}
    assert env.infos[other]["outcome"] == forfeit


def test_the_same_seed_gives_the_same_decks_and_rules_are_kept() -> None:
    first, second = DealEnv(Rules.preset("sharp")), DealEnv("sharp")
    first.reset(seed=9)
    second.reset(seed=9)
    assert first.episode.deal.deck == second.episode.deal.deck
    assert first.view("player_0").rules == Rules.preset("sharp")


def test_render_shows_the_deal_as_text() -> None:
    env = deal_env("standard", render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    assert text is not None and text.startswith("<Deal standard dealer=")
    with pytest.raises(ValueError, match="render_mode"):
        deal_env(render_mode="rgb_array")


@pytest.mark.parametrize("make", [deal_env, bummerl_env])
def test_step_last_and_observe_before_reset_say_to_reset(make: Any) -> None:
    env = make()
    for call in (lambda: env.step(0), env.last, lambda: env.observe("player_0")):
        with pytest.raises(ValueError, match=r"call reset\(\) before"):
            call()
    with pytest.raises(ValueError, match=r"^call reset\(\) before view\(\)$"):
        env.view("player_0")
    env.reset(seed=1)
    observation, _reward, termination, _truncation, _info = env.last()
    assert observation["action_mask"].sum() > 0 and not termination
    unknown = r"^unknown agent 'player_7' \(the agents are player_0, player_1\)$"
    for call in (env.observe, env.view):
        with pytest.raises(ValueError, match=unknown):
            call("player_7")
