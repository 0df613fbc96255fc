"""Small bots for the tests: scripted, deterministic, failing in chosen ways, or recording what they see.

``register_test_bots`` registers them (in a private copy of the registry) under their names.
"""

from __future__ import annotations

import os
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


class ExitingBot(FirstBot):
    """A careless bot that ends the program (sys.exit) at its first decision."""

    name = "exiter"

    def choose(self, view: View) -> Action:
        raise SystemExit(3)


class BadCloseBot(FirstBot):
    """A bot whose goodbye fails."""

    name = "badclose"

    def close(self) -> None:
        raise ValueError("close fails")


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
    sees_deal = True

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


class KillerBot(FirstBot):
    """Ends its whole process (``os._exit``) at its 30th decision: a worker dies under the arena."""

    name = "killer"
    decisions = 0

    def choose(self, view: View) -> Action:
        KillerBot.decisions += 1
        if KillerBot.decisions >= 30:
            os._exit(3)
        return view.legal_actions[0]


#: Bots the ``tired`` factory has made in this process.
TIRED: list[int] = []


def tired(seed: int | None = None) -> FirstBot:
    """A factory that makes two bots (the run's check and the first chunk), then fails."""
    TIRED.append(1)
    if len(TIRED) > 2:
        raise RuntimeError("out of licences")
    return FirstBot(seed)


def register_test_bots(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str, int, Any]]:
    """Register the test bots (rec-a and rec-b are recorders tagged A and B); return ``SEEN``, emptied."""
    monkeypatch.setattr(registry, "_REGISTRY", dict(registry._REGISTRY))
    for cls in (FirstBot, RaisingBot, StringBot, IllegalBot, FlakyBot, BadHookBot, PeekBot, SeedGuesser,
                ExitingBot, BadCloseBot):
        registry.register(cls.name, cls, f"test bot {cls.name}", public=False)
    registry.register("nothing", lambda seed: None, "a factory that returns no bot", public=False)
    registry.register("killer", KillerBot, "ends its process", public=False)
    registry.register("tired", tired, "a factory that fails after two bots", public=False)
    TIRED.clear()
    registry.register("rec-a", lambda seed: RecorderBot(seed, "A"), "recorder A", public=False)
    registry.register("rec-b", lambda seed: RecorderBot(seed, "B"), "recorder B", public=False)
    SEEN.clear()
    GUESSES.clear()
    return SEEN


class NeverClaims:
    """Plays the first legal card, never claims or closes; passes when all cards are played."""

    name = "never-claims"

    def choose(self, view: View) -> Action:
        plays = [a for a in view.legal_actions if a.kind == "play"]
        return plays[0] if plays else Action.parse("pass")


class SeedGuesser:
    """An attacker: it tries the arena's public derivation for the roots 0..``GUESS_ROOTS`` to foresee the
    opponent's hand, from its own seed (the bot stream) and from its own cards (the first decks of each
    root). At each deal it records ``(own hand, predicted opponent hand, how)`` in ``GUESSES``; when it
    finds nothing it guesses 5 of the unseen cards at random (chance). Register it with
    ``register_test_bots`` under ``guesser``.
    """

    name = "guesser"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self.rng = Random(seed)
        self.root: int | None = _roots_by_bot_seed().get(seed) if seed is not None else None

    def new_deal(self, view: View) -> None:
        hand = view.hand_mask
        how = "chance"
        predicted = None
        if self.root is not None:  # the root is known: find this deal among its decks
            predicted = _opponent_in_decks(view, self.root, range(0, 4096))
            how = "bot seed"
        if predicted is None:
            predicted = _cards_table(view.rules).get((hand, view.trump_card))
            how = "own cards" if predicted is not None else "chance"
        if predicted is None:
            pack = 0xFFFFFF if view.rules.sixty_six else sum(1 << c for c in range(24) if c % 6)
            unseen = pack & ~hand & ~(1 << view.trump_card if view.trump_card is not None else 0)
            cards = [c for c in range(24) if unseen >> c & 1]
            predicted = sum(1 << c for c in self.rng.sample(cards, view.opponent_hand_size))
        GUESSES.append((hand, predicted, how))

    def choose(self, view: View) -> Action:
        return self.rng.choice(view.legal_actions)


#: What SeedGuesser predicted: (own hand mask, predicted opponent hand mask, how it was found).
GUESSES: list[tuple[int, int, str]] = []
#: The roots SeedGuesser tries: the public derivation for every one of them.
GUESS_ROOTS = 10_000
_GUESS_CHUNKS = 40
_GUESS_DECKS = 2


def _roots_by_bot_seed() -> dict[int, int]:
    """Every bot seed the arena could hand out for a root up to GUESS_ROOTS (pairing 0, early chunks)."""
    global _BOT_SEED_TABLE
    if _BOT_SEED_TABLE is None:
        from bummerl.arena.seeds import bot_seeds

        _BOT_SEED_TABLE = {}
        for root in range(GUESS_ROOTS + 1):
            for chunk in range(_GUESS_CHUNKS):
                for seed in bot_seeds(root, 0, chunk):
                    _BOT_SEED_TABLE[seed] = root
    return _BOT_SEED_TABLE


_BOT_SEED_TABLE: dict[int, int] | None = None
_CARDS_TABLES: dict[object, dict[tuple[int, int | None], int]] = {}


def _cards_table(rules: Any) -> dict[tuple[int, int | None], int]:
    """(a seat's hand, the trump card) -> the other seat's hand, over the first decks of every root."""
    table = _CARDS_TABLES.get(rules)
    if table is None:
        from bummerl.arena.match import deck_deal

        table = {}
        for root in range(GUESS_ROOTS + 1):
            for pair in range(_GUESS_DECKS):
                deal = deck_deal(rules, root, pair)
                for seat in (0, 1):
                    table[(deal.hands[seat], deal.trump_card)] = deal.hands[1 - seat]
        _CARDS_TABLES[rules] = table
    return table


def _opponent_in_decks(view: View, root: int, pairs: range) -> int | None:
    from bummerl.arena.match import deck_deal

    for pair in pairs:
        deal = deck_deal(view.rules, root, pair)
        if deal.hands[view.seat] == view.hand_mask and deal.trump_card == view.trump_card:
            return deal.hands[1 - view.seat]
    return None
