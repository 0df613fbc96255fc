"""Actions: the canonical strings of the contract (``play QH``, ``exchange``, ``close``, ``marry H``,
``claim``, ``pass``) as small interned values.

Every action is one of 32 shared instances, so legal-action lists allocate nothing.

>>> Action.parse("play qh"), str(Action.marry(Suit.H))
(Action.parse('play QH'), 'marry H')
>>> Action.parse("play QH") is Action.play(Card.parse("QH"))
True
>>> Action.parse("dance")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
bummerl.actions.ActionParseError: not an action: 'dance' (actions: play XY, exchange, close, marry S, ...)
"""

from __future__ import annotations

from typing import Literal

from bummerl.cards import CARDS, Card, CardParseError, Suit, is_card_text, is_index
from bummerl.errors import BummerlError, quote

__all__ = ["ACTIONS", "CLAIM", "CLOSE", "EXCHANGE", "PASS", "Action", "ActionParseError"]

Kind = Literal["play", "exchange", "close", "marry", "claim", "pass"]

#: Action codes: 0..23 play that card, then the four fixed actions, then marry C..S.
EXCHANGE_CODE = 24
CLOSE_CODE = 25
CLAIM_CODE = 26
PASS_CODE = 27
MARRY_CODE = 28  # + suit
_HELP = "actions: play XY, exchange, close, marry S, claim, pass"


class ActionParseError(BummerlError):
    """A text that is not an action string (or a code, card or suit out of range)."""


def _index(value: object, size: int, what: str) -> int:
    """``value`` as an index 0..size-1 (a negative one must not count from the end)."""
    if not is_index(value, size):
        raise ActionParseError(f"{what} is 0..{size - 1}, not {quote(value)}")
    return int(value)


class Action:
    """One action; compare with ``is`` or ``==``, hash by its code."""

    __slots__ = ("_text", "card", "code", "kind", "suit")

    code: int
    kind: Kind
    card: Card | None
    suit: Suit | None

    def __init__(self, code: int, kind: Kind, card: Card | None, suit: Suit | None, text: str) -> None:
        self.code = code
        self.kind = kind
        self.card = card
        self.suit = suit
        self._text = text

    @staticmethod
    def play(card: Card | int) -> Action:
        """The action that plays (leads or follows with) a card (0..23)."""
        return ACTIONS[_index(card, 24, "a card")]

    @staticmethod
    def marry(suit: Suit | int) -> Action:
        """The action that declares the marriage in a suit (0..3)."""
        return ACTIONS[MARRY_CODE + _index(suit, 4, "a suit")]

    @staticmethod
    def from_code(code: int) -> Action:
        """The action with this code (see the module's codes; 0..31).

        >>> Action.from_code(-1)
        Traceback (most recent call last):
        ...
        bummerl.actions.ActionParseError: an action code is 0..31, not -1
        """
        return ACTIONS[_index(code, len(ACTIONS), "an action code")]

    @staticmethod
    def parse(text: str) -> Action:
        """Parse an action string (any case, extra spaces allowed)."""
        if not is_card_text(text):
            raise ActionParseError(f"not an action: {quote(text)} ({_HELP})")
        words = text.split()
        if not words:
            raise ActionParseError(f"empty action ({_HELP})")
        verb = words[0].lower()
        try:
            if verb == "play" and len(words) == 2:
                return ACTIONS[Card.parse(words[1])]
            if verb == "marry" and len(words) == 2:
                return ACTIONS[MARRY_CODE + Suit.parse(words[1])]
        except CardParseError as err:
            raise ActionParseError(f"bad action {quote(text)}: {err}") from None
        if len(words) == 1 and verb in _SIMPLE:
            return _SIMPLE[verb]
        raise ActionParseError(f"not an action: {quote(text)} ({_HELP})")

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Action.parse({self._text!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Action) and other.code == self.code

    def __hash__(self) -> int:
        return self.code

    def __lt__(self, other: Action) -> bool:
        return self._text < other._text

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return (Action.from_code, (self.code,))


def _build() -> tuple[Action, ...]:
    acts: list[Action] = [Action(c, "play", CARDS[c], None, f"play {CARDS[c]}") for c in range(24)]
    acts += [
        Action(EXCHANGE_CODE, "exchange", None, None, "exchange"),
        Action(CLOSE_CODE, "close", None, None, "close"),
        Action(CLAIM_CODE, "claim", None, None, "claim"),
        Action(PASS_CODE, "pass", None, None, "pass"),
    ]
    acts += [Action(MARRY_CODE + s, "marry", None, s, f"marry {s.letter}") for s in Suit]
    return tuple(acts)


#: All 32 actions, indexed by code.
ACTIONS: tuple[Action, ...] = _build()
EXCHANGE = ACTIONS[EXCHANGE_CODE]
CLOSE = ACTIONS[CLOSE_CODE]
CLAIM = ACTIONS[CLAIM_CODE]
PASS = ACTIONS[PASS_CODE]
_SIMPLE: dict[str, Action] = {"exchange": EXCHANGE, "close": CLOSE, "claim": CLAIM, "pass": PASS}
