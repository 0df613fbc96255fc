"""Puzzle diagrams: a position seen by one player ("me"), as in Tompa's find-the-winning-play puzzles.

A :class:`Puzzle` holds what "me" knows: my hand, the cards I have not seen (the opponent's hand plus the
face-down talon), the trump card or suit, the talon's state, both players' points and tricks, who is to
move, a card already led, and cards the opponent is known to hold. It reads and writes a JSON diagram
and the one-line notation of :mod:`bummerl.notation`, refuses anything inconsistent with a
:class:`PuzzleError`, and builds full-information deals ("worlds") from a placement of the unseen cards.
It is built on :class:`~bummerl.setup.Setup`: a puzzle is checked as the full position its unseen cards
make (placed lowest first), so the rules of a consistent position are written once, there; only what a
puzzle alone can get wrong (its talon fields, the unseen cards, what is known of the opponent) is here.

In a puzzle, index 0 of every pair is "me" and index 1 the opponent.

>>> p = Puzzle.from_json({"rules": "tompa", "hand": ["QH", "TC", "KC", "AD", "KD"],
...     "unseen": ["TH", "QC", "JC", "TD", "QD", "JD"], "trump_card": "QS", "talon": "open",
...     "facedown": 1, "points": {"me": 28, "opponent": 27}, "tricks": {"me": 2, "opponent": 2},
...     "to_move": "me", "lead": None, "opponent_has": []})
>>> p.talon_size, p.opponent_hand_size, p.hidden_in_hand
(2, 5, 5)
>>> str(p)
'tompa CTK.DAK.HQ/?CQJ.DTQJ.HT 1 QS 0 28/27 2/2'
>>> Puzzle.from_json(dict(p.to_json(), facedown=3))  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
bummerl.puzzle.PuzzleError: with the talon open both players hold 5 cards, but the opponent would hold 3
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bummerl.cards import CARDS, MARRIAGE_PAIRS, SUITS, Card, CardParseError, Suit, cards_in, parse_cards
from bummerl.engine import Deal
from bummerl.errors import quote
from bummerl.grammar import NotationError, PuzzleLine, bad_position, read_puzzle_line, write_puzzle_line
from bummerl.rules import Rules, RulesError
from bummerl.setup import PositionError, Setup, TalonState, Trick, check_cards, split_points
from bummerl.view import View

__all__ = ["PLAYER_NAMES", "Puzzle", "PuzzleError", "TalonState", "split_points"]

#: The JSON names of the two players of a puzzle, index 0 first.
PLAYER_NAMES: tuple[str, str] = ("me", "opponent")
_SAY: tuple[str, str] = ("me", "the opponent")
_KEYS = (
    "rules",
    "hand",
    "unseen",
    "trump_card",
    "trump",
    "talon",
    "facedown",
    "points",
    "tricks",
    "to_move",
    "lead",
    "opponent_has",
    "closed_by",
    "at_close",
    "pending",
    "married",
    "claim_ok",
)


class PuzzleError(PositionError):
    """A puzzle diagram that is malformed or cannot happen in a deal."""


@dataclass(frozen=True, slots=True)
class Puzzle:
    """A position from "me"'s point of view; every pair is (me, opponent), ``to_move`` 0 is me.

    Card sets are bitmasks. ``unseen`` holds the opponent's hand (less ``opponent_has``) and the
    ``facedown`` talon cards; ``trump_card`` is the card under the talon (face up, or turned down once
    closed), None once drawn. ``lead`` is the card led to the trick in progress, by the player not to move.
    ``closed_by``/``at_close``: who closed the talon and the other player's (tricks, points) then.
    ``pending``: marriage points declared but not yet counted; ``married``: the suit of a marriage just
    declared by the player to move; ``claim_ok``: whether the player to lead may claim, when it differs
    from the usual "the leader won the last trick" (after an exchange or a close in this turn).
    """

    rules: Rules
    hand: int
    unseen: int
    trump: Suit
    trump_card: Card | None = None
    talon: TalonState = "open"
    facedown: int = 0
    points: tuple[int, int] = (0, 0)
    tricks: tuple[int, int] = (0, 0)
    to_move: int = 0
    lead: Card | None = None
    opponent_has: int = 0
    closed_by: int | None = None
    at_close: tuple[int, int] | None = None
    pending: tuple[int, int] = (0, 0)
    married: Suit | None = None
    claim_ok: bool | None = None
    #: A full position that fits the puzzle (the unseen cards placed lowest first), checked as a Setup.
    _setup: Setup = dataclasses.field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        setup = self._check()
        object.__setattr__(self, "_setup", setup)
        object.__setattr__(self, "claim_ok", setup.claim_ok)  # None where it is the usual right

    # ----------------------------------------------------------------- derived facts

    @property
    def talon_size(self) -> int:
        """Cards in the talon, counting the trump card under it (0 once exhausted)."""
        return 0 if self.talon == "exhausted" else self.facedown + 1

    @property
    def hidden_in_hand(self) -> int:
        """How many unseen cards are in the opponent's hand."""
        return self.unseen.bit_count() - self.facedown

    @property
    def opponent_hand_size(self) -> int:
        """Cards in the opponent's hand (known and unseen ones)."""
        return self.hidden_in_hand + self.opponent_has.bit_count()

    @property
    def leader(self) -> int:
        """Who leads the trick in progress: 0 me, 1 the opponent."""
        return self.to_move if self.lead is None else 1 - self.to_move

    @property
    def may_claim(self) -> bool:
        """Whether the player to move has the claim right of a trick winner (``claim_ok`` resolved)."""
        return self._setup.may_claim

    # ----------------------------------------------------------------- validation

    def _check(self) -> Setup:
        """Refuse what only a puzzle can get wrong (its talon fields, the unseen cards, what is known of
        the opponent's hand), then check the rest as a full position with the unseen cards placed
        lowest first: every placement is the same position to the rules."""
        rules, talon, facedown, trump_card = self.rules, self.talon, self.facedown, self.trump_card
        if talon not in ("open", "closed", "exhausted"):
            raise PuzzleError(f"talon must be open, closed or exhausted, not {quote(talon)}")
        if self.to_move not in (0, 1):
            raise PuzzleError("to_move must be me or the opponent")
        if talon == "exhausted":
            if trump_card is not None:
                raise PuzzleError(
                    'an exhausted talon has no trump card: give the trump suit ("trump") instead'
                )
            if facedown:
                raise PuzzleError(f"an exhausted talon has no face-down cards, not {quote(facedown)}")
        elif trump_card is None:
            raise PuzzleError(f'a {talon} talon still has its trump card: give "trump_card"')
        elif facedown < 1:
            raise PuzzleError(f"a {talon} talon has face-down cards (1, 3, ...), not {quote(facedown)}")
        if talon == "closed":
            if self.closed_by not in (0, 1) or self.at_close is None:
                raise PuzzleError(
                    'a closed talon needs "closed_by" (me or the opponent) and "at_close" {tricks, points}'
                )
        elif self.closed_by is not None or self.at_close is not None:
            raise PuzzleError('"closed_by" and "at_close" belong to a closed talon only')
        listed = [("hand", self.hand), ("unseen", self.unseen), ("opponent_has", self.opponent_has)]
        if trump_card is not None:
            listed.append(("trump_card", 1 << trump_card))
        if self.lead is not None:
            listed.append(("lead", 1 << self.lead))
        try:
            check_cards(rules, listed)
        except PositionError as err:
            raise PuzzleError(str(err)) from None
        hidden = self.hidden_in_hand
        if hidden < 0:
            raise PuzzleError(
                f"{self.unseen.bit_count()} unseen cards cannot include {facedown} face-down talon cards"
            )
        if self.married is not None and self.to_move == 1 and self.lead is None:
            pair = MARRIAGE_PAIRS[self.married]
            if self.opponent_has & pair != pair:  # a declared marriage is shown
                raise PuzzleError(
                    f"the marriage in {self.married.letter} needs its king and queen in the hand of "
                    "the opponent, the player to move"
                )
        unseen = list(cards_in(self.unseen))
        opponent = self.opponent_has
        for c in unseen[:hidden]:
            opponent |= 1 << c
        if rules.auto_claim and not (self.hand | opponent) and self.lead is None:
            raise PuzzleError("no cards are left: with automatic claims the deal is already over")
        try:
            return Setup(
                rules=rules, hands=(self.hand, opponent), talon=tuple(unseen[hidden:]), trump=self.trump,
                trump_card=trump_card, to_move=self.to_move, lead=self.lead, points=self.points,
                tricks=self.tricks, pending=self.pending, closed_by=self.closed_by, at_close=self.at_close,
                married=self.married, claim_ok=self.claim_ok, names=_SAY,
            )
        except PositionError as err:
            raise PuzzleError(str(err)) from None

    # ----------------------------------------------------------------- conversions

    @staticmethod
    def from_json(obj: Any) -> Puzzle:
        """Read a puzzle diagram (a dict from JSON); raise :class:`PuzzleError` with a clear message."""
        if not isinstance(obj, Mapping):
            raise PuzzleError(f"a puzzle is a JSON object, not {type(obj).__name__}")
        unknown = [k for k in obj if k not in _KEYS]
        if unknown:
            raise PuzzleError(f"unknown puzzle key {quote(unknown[0])} (keys: {', '.join(_KEYS)})")
        for key in ("hand", "unseen"):
            if key not in obj:
                raise PuzzleError(f'a puzzle needs "{key}"')
        try:
            rules = Rules.from_json(obj.get("rules", "standard"))
        except RulesError as err:
            raise PuzzleError(str(err)) from None
        trump_card = _card(obj.get("trump_card"), "trump_card")
        trump_text = obj.get("trump")
        if trump_text is None:
            if trump_card is None:
                raise PuzzleError(
                    'a puzzle needs "trump_card" (talon open or closed) or "trump" (a suit letter)'
                )
            trump = SUITS[trump_card // 6]
        else:
            if not isinstance(trump_text, str):
                raise PuzzleError(f"trump must be a suit letter, not {quote(trump_text)}")
            try:
                trump = Suit.parse(trump_text)
            except CardParseError as err:
                raise PuzzleError(str(err)) from None
        talon = obj.get("talon", "open" if trump_card is not None else "exhausted")
        closed_by = obj.get("closed_by")
        at_close = obj.get("at_close")
        married = obj.get("married")
        claim_ok = obj.get("claim_ok")
        if claim_ok is not None and not isinstance(claim_ok, bool):
            raise PuzzleError(f"claim_ok must be true or false, not {quote(claim_ok)}")
        try:
            married_suit = None if married is None else Suit.parse(str(married))
        except CardParseError as err:
            raise PuzzleError(f"married: {err}") from None
        return Puzzle(
            rules=rules,
            hand=_mask(obj["hand"], "hand"),
            unseen=_mask(obj["unseen"], "unseen"),
            trump=trump,
            trump_card=trump_card,
            talon=talon,
            facedown=_int(obj.get("facedown", 0), "facedown"),
            points=_pair(obj.get("points", {"me": 0, "opponent": 0}), "points"),
            tricks=_pair(obj.get("tricks", {"me": 0, "opponent": 0}), "tricks"),
            to_move=_player(obj.get("to_move", "me"), "to_move"),
            lead=_card(obj.get("lead"), "lead"),
            opponent_has=_mask(obj.get("opponent_has", []), "opponent_has"),
            closed_by=None if closed_by is None else _player(closed_by, "closed_by"),
            at_close=None if at_close is None else _at_close(at_close),
            pending=_pair(obj.get("pending", {"me": 0, "opponent": 0}), "pending"),
            married=married_suit,
            claim_ok=claim_ok,
        )

    def to_json(self) -> dict[str, Any]:
        """The JSON diagram (optional keys only when they say something)."""
        out: dict[str, Any] = {
            "rules": self.rules.to_json(),
            "hand": _names(self.hand),
            "unseen": _names(self.unseen),
        }
        if self.trump_card is not None:
            out["trump_card"] = str(self.trump_card)
        else:
            out["trump"] = self.trump.letter
        out["talon"] = self.talon
        out["facedown"] = self.facedown
        out["points"] = dict(zip(PLAYER_NAMES, self.points, strict=True))
        out["tricks"] = dict(zip(PLAYER_NAMES, self.tricks, strict=True))
        out["to_move"] = PLAYER_NAMES[self.to_move]
        out["lead"] = None if self.lead is None else str(self.lead)
        out["opponent_has"] = _names(self.opponent_has)
        if self.closed_by is not None and self.at_close is not None:
            out["closed_by"] = PLAYER_NAMES[self.closed_by]
            out["at_close"] = {"tricks": self.at_close[0], "points": self.at_close[1]}
        if any(self.pending):
            out["pending"] = dict(zip(PLAYER_NAMES, self.pending, strict=True))
        if self.married is not None:
            out["married"] = self.married.letter
        if self.claim_ok is not None:
            out["claim_ok"] = self.claim_ok
        return out

    @staticmethod
    def from_view(view: View) -> Puzzle:
        """The puzzle a seat's view makes: "me" is ``view.seat``.

        >>> from bummerl import Deal, Rules
        >>> deal = Deal.random(Rules.preset("standard"), 7)
        >>> deal.apply(deal.legal_actions()[0])
        >>> p = Puzzle.from_view(View.of(deal, 1))
        >>> p.to_move, p.lead is not None, p.unseen.bit_count(), p.facedown
        (0, True, 13, 9)
        """
        seat, other = view.seat, 1 - view.seat
        closed = view.closed_by >= 0
        talon: TalonState = "exhausted" if not view.talon_size else ("closed" if closed else "open")
        claim_ok: bool | None = None
        if view.to_move == seat and not view.rules.auto_claim and view.married < 0 and view.lead_card is None:
            holds = view.hand_mask or view.opponent_hand_size
            claim_ok = any(a.kind == "claim" for a in view.legal_actions) if holds else False
        return Puzzle(
            rules=view.rules,
            hand=view.hand_mask,
            unseen=view.unseen_mask,
            trump=view.trump_suit,
            trump_card=view.bottom_card,
            talon=talon,
            facedown=max(view.talon_size - 1, 0),
            points=(view.points[seat], view.points[other]),
            tricks=(view.tricks_won[seat], view.tricks_won[other]),
            to_move=0 if view.to_move == seat else 1,
            lead=view.lead_card,
            opponent_has=view.opponent_known_mask,
            closed_by=(0 if view.closed_by == seat else 1) if closed else None,
            at_close=view.close_snapshot if closed else None,
            pending=(view.pending[seat], view.pending[other]),
            married=SUITS[view.married] if view.married >= 0 else None,
            claim_ok=claim_ok,
        )

    def world(
        self,
        opponent_hand: int,
        talon: Sequence[int] = (),
        *,
        seat: int = 0,
        marriages: tuple[tuple[int, int], ...] = (),
        exchanged: tuple[int, Card, Card] | None = None,
        dealer: int | None = None,
        trick_log: tuple[Trick, ...] = (),
    ) -> Deal:
        """A full-information deal: the opponent's hand (``opponent_hand``, a mask that must hold
        ``opponent_has``) and the face-down talon cards top first. "me" sits at ``seat``; the keyword
        arguments carry the public history a view knows (marriages, exchange, dealer, tricks).

        >>> p = Puzzle.parse("tompa CTK.DAK.HQ/?CQJ.DTQJ.HT 1 QS 0 28/27 2/2")
        >>> from bummerl.cards import mask_of, parse_cards
        >>> d = p.world(mask_of(parse_cards("TH QC JC TD QD")), parse_cards("JD"))
        >>> d.to_move, d.talon_size, d.points, sorted(str(a) for a in d.legal_actions())[:2]
        (0, 2, (28, 27), ['close', 'play AD'])
        """
        if opponent_hand & self.opponent_has != self.opponent_has or opponent_hand & ~(
            self.unseen | self.opponent_has
        ):
            raise PuzzleError("the opponent's hand must hold opponent_has and otherwise unseen cards only")
        order = list(talon)
        placed = opponent_hand & self.unseen
        if placed.bit_count() != self.hidden_in_hand or len(order) != self.facedown:
            raise PuzzleError(
                f"a world places {self.hidden_in_hand} unseen cards in the opponent's hand and "
                f"{self.facedown} in the talon"
            )
        rest = self.unseen & ~placed
        if sum(1 << c for c in order) != rest:
            raise PuzzleError("the talon must hold exactly the unseen cards not in the opponent's hand")

        def seat_of(p: int) -> int:
            return seat if p == 0 else 1 - seat

        def pair(values: tuple[int, int]) -> tuple[int, int]:
            return (values[0], values[1]) if seat == 0 else (values[1], values[0])

        try:
            setup = Setup(
                rules=self.rules,
                hands=pair((self.hand, opponent_hand)),
                talon=tuple(CARDS[c] for c in order),
                trump=self.trump,
                trump_card=self.trump_card,
                to_move=seat_of(self.to_move),
                lead=self.lead,
                points=pair(self.points),
                tricks=pair(self.tricks),
                pending=pair(self.pending),
                closed_by=None if self.closed_by is None else seat_of(self.closed_by),
                at_close=self.at_close,
                married=self.married,
                claim_ok=self.may_claim,
                dealer=dealer,
                marriages=marriages,
                exchanged=exchanged,
                trick_log=trick_log,
            )
        except PositionError as err:
            raise PuzzleError(f"the position cannot be set up: {err}") from None
        return Deal.from_setup(setup)

    @staticmethod
    def from_setup(setup: Setup, seat: int) -> Puzzle:
        """What ``seat`` sees of a full position, as a puzzle ("me" is ``seat``): the other hand and the
        talon become unseen cards (a setup keeps no history, so the only cards known to be theirs are those of
        a marriage they have just declared).

        >>> str(Puzzle.from_setup(Setup.parse("tompa CTK.DAK.HQ/CQJ.DTQ.HT JD QS 0 28/27 2/2"), 0))
        'tompa CTK.DAK.HQ/?CQJ.DTQJ.HT 1 QS 0 28/27 2/2'
        """
        other = 1 - seat

        def mine(pair: tuple[int, int]) -> tuple[int, int]:
            return (pair[seat], pair[other])

        talon = 0
        for c in setup.talon:
            talon |= 1 << c
        shown = 0  # a marriage the other player has just declared shows its king and queen
        if setup.married is not None and setup.to_move == other:
            shown = MARRIAGE_PAIRS[setup.married]
        return Puzzle(
            rules=setup.rules,
            hand=setup.hands[seat],
            unseen=(setup.hands[other] | talon) & ~shown,
            opponent_has=shown,
            trump=setup.trump,
            trump_card=setup.trump_card,
            talon=setup.talon_state,
            facedown=len(setup.talon),
            points=mine(setup.points),
            tricks=mine(setup.tricks),
            to_move=0 if setup.to_move == seat else 1,
            lead=setup.lead,
            closed_by=None if setup.closed_by is None else (0 if setup.closed_by == seat else 1),
            at_close=setup.at_close,
            pending=mine(setup.pending),
            married=setup.married,
            claim_ok=setup.claim_ok if setup.to_move == seat else None,
        )

    # ----------------------------------------------------------------- notation

    @staticmethod
    def parse(text: str) -> Puzzle:
        """Read the one-line notation of a puzzle (see :mod:`bummerl.notation`); raises
        :class:`~bummerl.grammar.NotationError` naming the line and the problem."""
        try:
            f = read_puzzle_line(text)
            return Puzzle(
                rules=f.rules, hand=f.hand, unseen=f.unseen, trump=f.trump, trump_card=f.trump_card,
                talon="exhausted" if f.trump_card is None else ("open" if f.closed_by is None else "closed"),
                facedown=f.facedown, points=f.points, tricks=f.tricks, to_move=f.to_move, lead=f.lead,
                opponent_has=f.known, closed_by=f.closed_by, at_close=f.at_close, pending=f.pending,
                married=f.married, claim_ok=f.claim_ok,
            )
        except (NotationError, PositionError) as err:
            raise bad_position(text, err) from None

    def __str__(self) -> str:
        return write_puzzle_line(PuzzleLine(
            self.rules, self.hand, self.opponent_has, self.unseen, self.facedown, self.trump, self.trump_card,
            self.to_move, self.lead, self.points, self.pending, self.tricks, self.closed_by, self.at_close,
            self.married, self.claim_ok,
        ))

    def __repr__(self) -> str:
        return f"Puzzle.parse({str(self)!r})"

    def replace(self, **changes: Any) -> Puzzle:
        """A copy with some fields changed (checked again)."""
        return dataclasses.replace(self, **changes)


# --------------------------------------------------------------------- JSON field readers


def _names(mask: int) -> list[str]:
    return [str(c) for c in cards_in(mask)]


def _mask(value: Any, key: str) -> int:
    if isinstance(value, str):
        items: list[str] = value.replace(",", " ").split()
    elif isinstance(value, list) and all(isinstance(v, str) for v in value):
        items = value
    else:
        raise PuzzleError(f'{key} must be a list of card codes such as ["QH", "TC"], not {quote(value)}')
    try:
        cards = parse_cards(items)
    except CardParseError as err:
        raise PuzzleError(f"{key}: {err}") from None
    mask = 0
    for c in cards:
        if mask >> c & 1:
            raise PuzzleError(f"card {c} is listed twice in {key}")
        mask |= 1 << c
    return mask


def _card(value: Any, key: str) -> Card | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise PuzzleError(f'{key} must be a card code such as "QS", not {quote(value)}')
    try:
        return Card.parse(value)
    except CardParseError as err:
        raise PuzzleError(f"{key}: {err}") from None


def _int(value: Any, key: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise PuzzleError(f"{key} must be a whole number, not {quote(value)}")
    return value


def _pair(value: Any, key: str) -> tuple[int, int]:
    if isinstance(value, Mapping):
        extra = [k for k in value if k not in PLAYER_NAMES]
        if extra:
            raise PuzzleError(f'{key} has an unknown player {quote(extra[0])} (use "me" and "opponent")')
        return (_int(value.get("me", 0), f"{key}.me"), _int(value.get("opponent", 0), f"{key}.opponent"))
    if isinstance(value, list) and len(value) == 2:
        return (_int(value[0], key), _int(value[1], key))
    raise PuzzleError(f'{key} must be {{"me": n, "opponent": m}}, not {quote(value)}')


def _player(value: Any, key: str) -> int:
    if value in PLAYER_NAMES:
        return PLAYER_NAMES.index(value)
    raise PuzzleError(f'{key} must be "me" or "opponent", not {quote(value)}')


def _at_close(value: Any) -> tuple[int, int]:
    if not isinstance(value, Mapping) or set(value) - {"tricks", "points"}:
        raise PuzzleError(f'at_close must be {{"tricks": n, "points": m}}, not {quote(value)}')
    return (_int(value.get("tricks", 0), "at_close.tricks"), _int(value.get("points", 0), "at_close.points"))
