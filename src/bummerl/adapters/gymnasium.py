"""``BummerlVsBot-v0``: a single-agent Gymnasium environment, one learner against any bummerl bot.

The learner sits at ``seat`` (0 or 1; None draws it from the seed each episode) and plays a deal (or a whole
Bummerl with ``bummerl=True``) of any preset against ``opponent``, a bot name or ``cmd:COMMAND`` spec of
:func:`~bummerl.bots.make_bot`, made afresh with a seed from the episode's seed. Observations are the
PettingZoo environments' dict: ``observation`` (the learner's view, :mod:`bummerl.adapters.encoding`) and
``action_mask``; :meth:`BummerlVsBot.action_masks` gives the mask as booleans (the name MaskablePPO looks
for). Actions are ``Discrete(32)``. The reward of a step is the game points the learner won (negative: lost)
in the deals that ended before its next turn (the first step's also those of deals that ended before the
learner's first move; an episode that would end before it, a deal the opponent ends at once, is dealt
again); ``info["outcome"]`` is the last deal that ended in the step and ``info["outcomes"]`` every one, in
order. An illegal action of the learner forfeits the deal and ends the episode (-3). The opponent gets the
bot hooks the arena calls (``new_deal``, ``end_deal``, ``close``); an illegal action of the opponent raises
:class:`~bummerl.engine.IllegalActionError`.

Registered with Gymnasium on import; ``gymnasium.make("bummerl.adapters.gymnasium:BummerlVsBot-v0")``
imports it first.

>>> import gymnasium
>>> env = gymnasium.make("BummerlVsBot-v0", opponent="heuristic", rules="standard", seat=0)
>>> obs, info = env.reset(seed=1)
>>> obs["observation"].shape, obs["action_mask"].sum() > 0, info["seat"]
((769,), np.True_, 0)
>>> terminated = False
>>> while not terminated:
...     action = int(obs["action_mask"].nonzero()[0][0])  # the first legal action
...     obs, reward, terminated, truncated, info = env.step(action)
>>> reward in (-3, -2, -1, 1, 2, 3), sorted(info["outcome"])
(True, ['game_points', 'reason', 'winner'])
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from random import Random
from typing import Any

from bummerl.adapters import rl_missing

try:
    import gymnasium
    import numpy as np
    import numpy.typing as npt
    from gymnasium import spaces
except ImportError as _missing:
    raise rl_missing(_missing) from None

from bummerl.adapters.encoding import (
    NUM_ACTIONS,
    OBSERVATION_HIGH,
    OBSERVATION_SIZE,
    action_mask,
    action_of,
    encode,
)
from bummerl.adapters.episode import Episode, rules_of
from bummerl.bots.base import Bot
from bummerl.bots.registry import make_bot
from bummerl.engine import IllegalActionError, Outcome
from bummerl.rules import Rules
from bummerl.view import View

__all__ = ["ENV_ID", "BummerlVsBot", "observation_space"]

#: The id registered with Gymnasium.
ENV_ID = "BummerlVsBot-v0"

#: An observation: ``{"observation": float32 array, "action_mask": int8 array}``.
Observation = dict[str, Any]


def observation_space() -> spaces.Dict:
    """The observation space of one seat: the encoded view and the action mask."""
    return spaces.Dict({
        "observation": spaces.Box(0.0, OBSERVATION_HIGH, shape=(OBSERVATION_SIZE,), dtype=np.float32),
        "action_mask": spaces.Box(0, 1, shape=(NUM_ACTIONS,), dtype=np.int8),
    })


class BummerlVsBot(gymnasium.Env[Observation, np.int64]):
    """One learner against a bummerl bot; see the module."""

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"], "render_fps": 4}  # noqa: RUF012 (as in Env)

    def __init__(
        self,
        opponent: str = "random",
        rules: Rules | str = "standard",
        seat: int | None = None,
        bummerl: bool = False,
        render_mode: str | None = None,
    ) -> None:
        if seat is not None and (type(seat) is not int or seat not in (0, 1)):  # not 1.0, not True
            raise ValueError(f"seat must be 0, 1 or None, not {seat!r}")
        if not isinstance(opponent, str):
            raise ValueError(f"opponent must be a bot's name such as 'random', not {opponent!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            modes = self.metadata["render_modes"]
            raise ValueError(f"render_mode must be one of {modes}, not {render_mode!r}")
        self.opponent_name = opponent
        self.rules = rules_of(rules)
        self.fixed_seat = seat
        self.whole_bummerl = bummerl
        self.render_mode = render_mode
        self.observation_space = observation_space()
        self.action_space = spaces.Discrete(NUM_ACTIONS)
        self._rng = Random()
        self.seat = 0
        self.opponent: Bot | None = None
        self.episode = Episode(self.rules, self._rng, bummerl)
        #: Game points of the learner from deals that ended before its first move, paid with its first step.
        self._carried = 0

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self._rng = Random(seed)
        rng = self._rng
        self.seat = rng.randrange(2) if self.fixed_seat is None else self.fixed_seat
        self._close_opponent()
        self.opponent = make_bot(self.opponent_name, seed=rng.randrange(1 << 31))
        while True:
            self.episode = Episode(self.rules, rng, self.whole_bummerl)
            self._hook("new_deal")
            # The opponent moves until the learner may act; the game points of deals that end meanwhile are
            # paid with the first step's reward.
            self._carried, played = self._opponent_plays()
            if not self.episode.over:
                break
            # The opponent ended the episode before the learner's first move (a deal ended at once, e.g.
            # by its false claim, under rules that allow one on the first lead): no decision of the
            # learner is in it, and no step could pay its reward: deal again.
        return self._observe(), {**_ended_info(played), "seat": self.seat}

    def step(self, action: int | np.integer[Any]) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        if self.opponent is None:
            raise ValueError("call reset() before step()")
        if self.episode.over:
            raise ValueError("the episode is over: call reset()")
        rewards = self.episode.step(action_of(action))
        info: dict[str, Any] = {"seat": self.seat}
        reward, self._carried = rewards[self.seat] + self._carried, 0
        ended = [self._deal_over(self.episode.deal_ended)] if self.episode.deal_ended is not None else []
        more, later = self._opponent_plays()
        info.update(_ended_info([*ended, *later]))
        if self.render_mode == "human":
            self.render()
        return self._observe(), float(reward + more), self.episode.over, False, info

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions of the learner now, as booleans."""
        return action_mask(self.episode.view(self.seat)).astype(bool)

    def render(self) -> str | None:
        """The deal as text (rules, dealer, deck, actions so far), the learner's seat and the score."""
        return self.episode.render(self.render_mode, f" learner=seat {self.seat}")

    def close(self) -> None:
        """Stop the opponent (an outside program is ended)."""
        self._close_opponent()

    # ------------------------------------------------------------------ the loop

    def _observe(self) -> Observation:
        view = self.episode.view(self.seat)
        return {"observation": encode(view), "action_mask": action_mask(view)}

    def _opponent_plays(self) -> tuple[int, list[dict[str, Any]]]:
        """The opponent's moves until the learner is to move or the episode ends: the learner's reward and
        the info of each deal that ended (:meth:`_deal_over`'s), in order."""
        episode, bot, other = self.episode, self.opponent, 1 - self.seat
        assert bot is not None
        reward = 0
        ended = []
        while not episode.over and episode.to_move == other:
            action = bot.choose(episode.view(other))
            if not episode.deal.is_legal(action):
                raise IllegalActionError(f"the opponent {bot.name!r} chose {action}, which is not legal here")
            rewards = episode.step(action)
            reward += rewards[self.seat]
            if episode.deal_ended is not None:
                ended.append(self._deal_over(episode.deal_ended))
        return reward, ended

    def _deal_over(self, outcome: Outcome) -> dict[str, Any]:
        """Tell the opponent the deal ended (its ``end_deal`` hook), and a new one began if one did."""
        episode = self.episode
        fault = episode.fault
        end_deal: Callable[..., Any] | None = getattr(self.opponent, "end_deal", None)
        if end_deal is not None and episode.ended_deal is not None:
            end_deal(View.of(episode.ended_deal, 1 - self.seat, episode.score), outcome, fault)
        if not episode.over:
            self._hook("new_deal")
        info: dict[str, Any] = {"outcome": outcome.to_json()}
        if fault is not None:
            info["fault"] = fault
        return info

    def _hook(self, name: str) -> None:
        hook: Callable[[View], Any] | None = getattr(self.opponent, name, None)
        if hook is not None:
            hook(self.episode.view(1 - self.seat))

    def _close_opponent(self) -> None:
        close: Callable[[], Any] | None = getattr(self.opponent, "close", None)
        if close is not None:
            with contextlib.suppress(Exception):
                close()


def _ended_info(ended: list[dict[str, Any]]) -> dict[str, Any]:
    """The info of the deals that ended (each :meth:`BummerlVsBot._deal_over`'s): the last one's keys
    (``outcome``, ``fault``) and ``outcomes``, every outcome in order; nothing if none ended."""
    if not ended:
        return {}
    return {**ended[-1], "outcomes": [e["outcome"] for e in ended]}


gymnasium.register(id=ENV_ID, entry_point="bummerl.adapters.gymnasium:BummerlVsBot")
