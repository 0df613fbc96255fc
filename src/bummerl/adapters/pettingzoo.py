"""PettingZoo AEC environments: one deal (``bummerl_deal_v0``) or a whole Bummerl (``bummerl_game_v0``).

Agents ``player_0`` and ``player_1`` are the seats. Each agent observes a dict: ``observation``, its view
encoded by :mod:`bummerl.adapters.encoding` (``float32``, 769 values), and ``action_mask`` (``int8``, 32
values, 1 for each legal action; all 0 when the agent is not to move). Actions are ``Discrete(32)``, the
encoding's index space. Rewards are game points, zero-sum, given when a deal ends; a Bummerl episode goes on
deal after deal (the dealer alternates) until one seat has counted down from 7. An illegal action forfeits:
-3 to the offender, +3 to the other, and the episode ends (``infos[agent]["fault"]`` says why). After each
finished deal both agents' ``infos`` hold ``{"outcome": {"winner", "game_points", "reason"}}``, and
``"outcomes"``: every deal that ended since that agent last acted (an agent's info is kept until its own
next step, so the agent that did not end the deal reads it in :meth:`last` even when the other moves first
in the next deal).

A bummerl bot can play an agent: hand it :meth:`DealEnv.view` of its seat (a :class:`~bummerl.view.View`,
never the deal) and step the index of the action it returns.

>>> from bummerl.bots import make_bot
>>> env = deal_env(rules="standard")
>>> env.reset(seed=1)
>>> bots = {"player_0": make_bot("random", seed=2), "player_1": make_bot("heuristic", seed=3)}
>>> for agent in env.agent_iter():
...     observation, reward, termination, truncation, info = env.last()
...     if termination or truncation:
...         env.step(None)
...     else:
...         env.step(action_index(bots[agent].choose(env.view(agent))))
>>> sorted(env.infos), env.agents  # every agent has finished
([], [])
"""

from __future__ import annotations

from random import Random
from typing import Any, ClassVar

from bummerl.adapters import rl_missing

try:
    from gymnasium import spaces
    from pettingzoo import AECEnv
except ImportError as _missing:
    raise rl_missing(_missing) from None

from bummerl.adapters.encoding import NUM_ACTIONS, action_index, action_mask, action_of, encode
from bummerl.adapters.episode import Episode, rules_of
from bummerl.adapters.gymnasium import observation_space
from bummerl.rules import Rules
from bummerl.view import View

__all__ = ["AGENTS", "BummerlEnv", "DealEnv", "action_index", "bummerl_env", "deal_env", "observation_space"]

#: The agents, by seat.
AGENTS: tuple[str, str] = ("player_0", "player_1")


class DealEnv(AECEnv):  # type: ignore[misc]  # pettingzoo ships no type information
    """One deal of any preset, the dealer drawn from the seed. ``rules`` is a preset name or
    :class:`~bummerl.rules.Rules`; ``render_mode`` ``"ansi"`` (returns text) or ``"human"`` (prints it)."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi", "human"], "name": "bummerl_deal_v0", "is_parallelizable": False,
    }
    whole_bummerl = False

    def __init__(self, rules: Rules | str = "standard", render_mode: str | None = None) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            modes = self.metadata["render_modes"]
            raise ValueError(f"render_mode must be one of {modes}, not {render_mode!r}")
        self.rules = rules_of(rules)
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        self.observation_spaces = {a: observation_space() for a in AGENTS}
        self.action_spaces = {a: spaces.Discrete(NUM_ACTIONS) for a in AGENTS}
        self._rng = Random()
        self.episode = Episode(self.rules, self._rng, self.whole_bummerl)
        self.agents: list[str] = []

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new episode; a seed makes its decks (and every later reset's) repeatable."""
        if seed is not None:
            self._rng = Random(seed)
        self.episode = Episode(self.rules, self._rng, self.whole_bummerl)
        self.agents = list(AGENTS)
        self.rewards = {a: 0.0 for a in AGENTS}
        self._cumulative_rewards = {a: 0.0 for a in AGENTS}
        self.terminations = {a: False for a in AGENTS}
        self.truncations = {a: False for a in AGENTS}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in AGENTS}
        self.agent_selection = AGENTS[self.episode.to_move]

    def view(self, agent: str) -> View:
        """The agent's :class:`~bummerl.view.View` now: what a bummerl bot playing it is handed."""
        return self._view(agent, "view")

    def _view(self, agent: str, what: str) -> View:
        self._started(what)
        if agent not in AGENTS:
            raise ValueError(f"unknown agent {agent!r} (the agents are {', '.join(AGENTS)})")
        return self.episode.view(AGENTS.index(agent))

    def _started(self, what: str) -> None:
        """Refuse ``what`` before the first :meth:`reset` (as the gymnasium environment does)."""
        if not hasattr(self, "agent_selection"):
            raise ValueError(f"call reset() before {what}()")

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        self._started("last")
        result: tuple[Any, float, bool, bool, dict[str, Any]] = super().last(observe)
        return result

    def observe(self, agent: str) -> dict[str, Any]:
        view = self._view(agent, "observe")
        return {"observation": encode(view), "action_mask": action_mask(view)}

    def step(self, action: int | None) -> None:
        self._started("step")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to move: None is only for an agent whose episode ended")
        chosen = action_of(action)  # before anything changes: a refused step changes nothing
        self._cumulative_rewards[agent] = 0.0
        episode = self.episode
        rewards = episode.step(chosen)
        self.rewards = {a: float(r) for a, r in zip(AGENTS, rewards, strict=True)}
        self.infos[agent] = {}  # the other agent keeps what it has not read yet (last() after its turn)
        if episode.deal_ended is not None:
            for a in AGENTS:  # each agent its own copy: a wrapper that changes one changes nothing else
                outcome = episode.deal_ended.to_json()
                self.infos[a] = {**self.infos[a], "outcome": outcome,
                                 "outcomes": [*self.infos[a].get("outcomes", []), outcome]}
        if episode.over:
            self.terminations = {a: True for a in AGENTS}
            if episode.fault is not None:
                for a in AGENTS:
                    self.infos[a]["fault"] = f"{agent}: {episode.fault}"
        else:
            self.agent_selection = AGENTS[episode.to_move]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The deal as text: the rules, the dealer, the deck, the actions so far, the score."""
        return self.episode.render(self.render_mode)

    def close(self) -> None:
        """Nothing to release."""


class BummerlEnv(DealEnv):
    """A whole Bummerl (deals until a seat has counted down from 7); the views carry the score."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi", "human"], "name": "bummerl_game_v0", "is_parallelizable": False,
    }
    whole_bummerl = True


def deal_env(rules: Rules | str = "standard", render_mode: str | None = None) -> DealEnv:
    """A :class:`DealEnv` (PettingZoo's ``env()`` convention)."""
    return DealEnv(rules, render_mode)


def bummerl_env(rules: Rules | str = "standard", render_mode: str | None = None) -> BummerlEnv:
    """A :class:`BummerlEnv`."""
    return BummerlEnv(rules, render_mode)
