"""bummerl.adapters.gymnasium: BummerlVsBot-v0 passes Gymnasium's env checker and plays the bot fairly."""

from __future__ import annotations

import sys
import warnings
from typing import Any

import pytest

gymnasium = pytest.importorskip("gymnasium", reason="Gymnasium is in the rl extra: pip install 'bummerl[rl]'")

from gymnasium.utils.env_checker import check_env  # noqa: E402

from bummerl.adapters.encoding import decode  # noqa: E402
from bummerl.adapters.gymnasium import ENV_ID, BummerlVsBot  # noqa: E402
from bummerl.engine import IllegalActionError  # noqa: E402
from bummerl.rules import PRESETS  # noqa: E402


@pytest.mark.parametrize("preset", list(PRESETS))
def test_the_env_passes_gymnasiums_env_checker(preset: str) -> None:
    made = gymnasium.make(ENV_ID, opponent="heuristic", rules=preset, render_mode="ansi")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the checker's advice counts as a failure too
        check_env(made.unwrapped, skip_render_check=False)  # with its spec, so each render mode is tried


def test_the_bummerl_env_passes_the_env_checker() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(BummerlVsBot(opponent="random", rules="standard", bummerl=True), skip_render_check=True)


def test_it_is_registered_with_gymnasium() -> None:
    env = gymnasium.make(ENV_ID, opponent="random", rules="vu", seat=1)
    obs, info = env.reset(seed=3)
    assert info["seat"] == 1 and decode(obs["observation"]).seat == 1
    env.close()


def play(env: BummerlVsBot, seed: int) -> tuple[float, list[dict[str, Any]]]:
    obs, info = env.reset(seed=seed)
    total, infos, done = 0.0, [info], False
    while not done:
        legal = obs["action_mask"].nonzero()[0]
        assert (env.action_masks() == obs["action_mask"].astype(bool)).all()
        obs, reward, done, truncated, info = env.step(int(legal[len(legal) // 2]))
        assert not truncated
        total += reward
        infos.append(info)
    return total, infos


def test_the_learner_is_paid_the_game_points_of_its_seat() -> None:
    for seed in range(12):
        env = BummerlVsBot(opponent="heuristic", rules="standard")
        total, infos = play(env, seed)
        outcome = env.episode.deal.outcome
        assert outcome is not None and total == outcome.value_for(env.seat)
        assert infos[-1]["outcome"] == outcome.to_json()
        assert decode(env._observe()["observation"]).seat == env.seat


def test_a_bummerl_episode_pays_every_deal_and_ends_with_the_bummerl() -> None:
    env = BummerlVsBot(opponent="heuristic", rules="tompa", bummerl=True, seat=0)
    total, infos = play(env, 5)
    game = env.episode.game
    assert game is not None and game.is_over and len(game.finished) >= 3
    assert total == sum(d.outcome.value_for(0) for d in game.finished)
    assert sum("outcome" in i for i in infos) == len(game.finished)


def test_deals_the_opponent_ends_before_the_learners_move_are_paid_and_each_is_in_the_info() -> None:
    # Under soft rules the random opponent may marry and claim (falsely) on the first lead: the deal ends
    # before the learner moves. Its reward was dropped at reset (a single deal's episode was over before
    # any step), and a step that ended two deals kept one in its info (session 11's audit).
    seen_at_reset = 0
    for seed in range(400):
        env = BummerlVsBot(opponent="random", rules="soft", seat=0, bummerl=True)
        total, infos = play(env, seed)
        game = env.episode.game
        assert game is not None and game.is_over
        assert total == sum(d.outcome.value_for(0) for d in game.finished)
        assert sum(len(i.get("outcomes", [])) for i in infos) == len(game.finished)
        seen_at_reset += "outcomes" in infos[0]
        if seed < 100:
            single = BummerlVsBot(opponent="random", rules="soft", seat=0)
            total, infos = play(single, seed)  # a step was always possible: the episode was not over
            assert single.episode.deal.outcome is not None
            assert total == single.episode.deal.outcome.value_for(0)
    assert seen_at_reset >= 1  # the case was met


def test_the_seed_fixes_the_seat_the_decks_and_the_opponents_play() -> None:
    runs = []
    for _ in range(2):
        env = BummerlVsBot(opponent="easy", rules="soft")
        total, _ = play(env, 21)
        runs.append((env.seat, total, [str(a) for a in env.episode.deal.history]))
    assert runs[0] == runs[1]
    seats = set()
    for seed in range(10):
        env = BummerlVsBot()
        env.reset(seed=seed)
        seats.add(env.seat)
    assert seats == {0, 1}


def test_an_illegal_action_forfeits_three_game_points() -> None:
    env = BummerlVsBot(seat=0)
    env.reset(seed=2)
    _obs, reward, terminated, _truncated, info = env.step(27)  # pass: never legal before the last trick
    assert (reward, terminated) == (-3.0, True)
    assert info["fault"] == "illegal action: pass" and info["outcome"]["reason"] == "forfeit"
    with pytest.raises(ValueError, match="reset"):
        env.step(0)


class Cheat:
    name = "cheat"

    def choose(self, view: Any) -> Any:
        from bummerl.actions import Action

        return Action.parse("pass")


def test_an_illegal_action_of_the_opponent_is_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    from bummerl.bots import registry

    entry = registry.BotEntry("cheat", lambda seed: Cheat(), "plays pass", public=False)
    monkeypatch.setitem(registry._REGISTRY, "cheat", entry)
    env = BummerlVsBot(opponent="cheat", seat=1)
    with pytest.raises(IllegalActionError, match="opponent 'cheat'"):
        for seed in range(4):  # the bot leads in about half the deals
            env.reset(seed=seed)
            env.step(int(env.action_masks().nonzero()[0][0]))


def test_an_outside_program_can_be_the_opponent() -> None:
    program = "examples/random_bot.py"
    env = BummerlVsBot(opponent=f"cmd:{sys.executable} {program}", rules="standard")
    try:
        _total, infos = play(env, 1)
    finally:
        env.close()
    assert infos[-1]["outcome"]["reason"] != "forfeit"


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError, match="seat"):
        BummerlVsBot(seat=2)
    with pytest.raises(ValueError, match="render_mode"):
        BummerlVsBot(render_mode="rgb_array")


def test_every_action_the_action_space_contains_is_taken_a_zero_d_array_too() -> None:
    import numpy as np

    from bummerl.adapters.encoding import EncodingError

    env = BummerlVsBot(opponent="random", seat=0)
    obs, _ = env.reset(seed=0)
    legal = int(np.flatnonzero(obs["action_mask"])[0])
    for action in (np.array(legal), np.array([legal])):  # Discrete contains the first, not the second
        assert env.action_space.contains(action) == (action.shape == ())
    env.step(np.array(legal))  # (refused before: some RL libraries pass 0-d arrays)
    with pytest.raises(EncodingError, match="an action index is an integer"):
        env.step(np.array([legal]))
