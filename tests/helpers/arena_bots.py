"""Small bots for the tests: scripted, deterministic, failing in chosen ways, or recording what they see.

``register_test_bots`` registers them (in a private copy of the registry) under their names.
"""

from __future__ import annotations

from collections.abc import Sequence
from random import Random
from typing import Any

import pytest

from bummerl.actions import ACTIONS, Action
from bummerl.bots import registry
from bummerl.engine import Deal, Outcome
from bummerl.view import View


class Script:
    """A computer that plays the given actions in order, then the first legal one."""

    name = "script"

    def __init__(self, actions: Sequence[str]) -> None:
        self.actions = list(actions)

    def choose(self, view: View) -> Action:
        while self.actions:
            action = Action.parse(self.actions.pop(0))
            if action in view.legal_actions:
                return action
        return view.legal_actions[0]


class FirstBot:
    """Always the first legal action: deterministic, so paired games mirror each other."""

    name = "first"

    def __init__(self, seed: int | None = None) -> None:
        pass

    def choose(self, view: View) -> Action:
        return view.legal_actions[0]


class RaisingBot(FirstBot):
    name = "raiser"

    def choose(self, view: View) -> Action:
        raise RuntimeError("boom")


class StringBot(FirstBot):
    name = "stringer"

    def choose(self, view: View) -> Action:
        return str(view.legal_actions[0])  # type: ignore[return-value]


class IllegalBot(FirstBot):
    """Plays a card it does not hold."""

    name = "cheat"

    def choose(self, view: View) -> Action:
        pack = 0xFFFFFF if view.rules.sixty_six else sum(1 << c for c in range(24) if c % 6)
        missing = pack & ~view.hand_mask
        return ACTIONS[(missing & -missing).bit_length() - 1]


class FlakyBot:
    """Random, but raises on about one decision in twenty."""

    name = "flaky"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = Random(seed)

    def choose(self, view: View) -> Action:
        if self.rng.random() < 0.05:
            raise ValueError("flaked")
        return self.rng.choice(view.legal_actions)


class PeekBot(FirstBot):
    """Asks for the true deal (like the cheater yardstick), checks it, spoils its copy, plays first."""

    name = "peek"

    def choose(self, view: View) -> Action:
        raise AssertionError("a bot with choose_with_deal is never asked to choose from a view alone")

    def choose_with_deal(self, view: View, deal: Deal) -> Action:
        assert deal.hands[view.seat] == view.hand_mask and deal.to_move == view.seat
        action = view.legal_actions[0]
        deal.apply(action)  # a copy: the arena's deal must not notice
        return action


class BadHookBot(FirstBot):
    name = "badhook"

    def new_deal(self, view: View) -> None:
        raise KeyError("no deal for me")


#: What RecorderBot instances saw, in order: (event, bot tag, seat, data).
SEEN: list[tuple[str, str, int, Any]] = []


class RecorderBot(FirstBot):
    """Plays the first legal action and records every hook call and decision in ``SEEN``."""

    name = "recorder"

    def __init__(self, seed: int | None = None, tag: str = "rec") -> None:
        self.tag = tag
        self.seed = seed

    def new_deal(self, view: View) -> None:
        SEEN.append(("new_deal", self.tag, view.seat, (view.hand_mask, view.dealer, view.score)))

    def choose(self, view: View) -> Action:
        assert type(view) is View
        SEEN.append(("choose", self.tag, view.seat, view.score))
        return super().choose(view)

    def end_deal(self, view: View, outcome: Outcome, fault: str | None) -> None:
        SEEN.append(("end_deal", self.tag, view.seat, (outcome, fault)))


def register_test_bots(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str, int, Any]]:
    """Register the test bots (rec-a and rec-b are recorders tagged A and B); return ``SEEN``, emptied."""
    monkeypatch.setattr(registry, "_REGISTRY", dict(registry._REGISTRY))
    for cls in (FirstBot, RaisingBot, StringBot, IllegalBot, FlakyBot, BadHookBot, PeekBot):
        registry.register(cls.name, cls, f"test bot {cls.name}", public=False)
    registry.register("rec-a", lambda seed: RecorderBot(seed, "A"), "recorder A", public=False)
    registry.register("rec-b", lambda seed: RecorderBot(seed, "B"), "recorder B", public=False)
    SEEN.clear()
    return SEEN


class NeverClaims:
    """Plays the first legal card, never claims or closes; passes when all cards are played."""

    name = "never-claims"

    def choose(self, view: View) -> Action:
        plays = [a for a in view.legal_actions if a.kind == "play"]
        return plays[0] if plays else Action.parse("pass")
