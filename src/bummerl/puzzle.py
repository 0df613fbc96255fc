"""Puzzle diagrams: a position seen by one player ("me"), as in Tompa's find-the-winning-play puzzles.

A :class:`Puzzle` holds what "me" knows: my hand, the cards I have not seen (the opponent's hand plus the
face-down talon), the trump card or suit, the talon's state, both players' points and tricks, who is to
move, a card already led, and cards the opponent is known to hold. It reads and writes a JSON diagram
and the one-line notation of :mod:`bummerl.notation`, refuses anything inconsistent with a
:class:`PuzzleError`, and builds full-information deals ("worlds") from a placement of the unseen cards.

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
bummerl.puzzle.PuzzleError: with the talon open both players hold 5 cards, but the opponent would hold 3 (...)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from bummerl.cards import (
    PACK_MASKS,
    SUITS,
    Card,
    CardParseError,
    Suit,
    card_points,
    cards_in,
    cards_str,
    parse_cards,
)
from bummerl.engine import Deal, DeckError, Trick
from bummerl.errors import BummerlError
from bummerl.rules import Rules, RulesError
from bummerl.view import View

__all__ = [
    "PLAYER_NAMES",
    "Puzzle",
    "PuzzleError",
    "TalonState",
    "check_accounting",
    "check_position",
    "default_claim_ok",
    "split_points",
]

TalonState = Literal["open", "closed", "exhausted"]
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
_QUEEN, _KING = 2, 3


class PuzzleError(BummerlError):
    """A puzzle diagram that is malformed or cannot happen in a deal."""


def split_points(
    points: tuple[int, int], card_total: int, bonus: tuple[int, int] = (0, 0)
) -> tuple[tuple[int, int], tuple[int, int]] | None:
    """Split both players' points into card points (adding up to ``card_total``, the played cards' worth)
    and counted marriages (20s and 40s), less a Sixty-Six last-trick ``bonus``; None if impossible.
    When several splits fit, the marriages go to player 0 first (the engine only adds them up).

    >>> split_points((48, 27), 55), split_points((10, 10), 0)
    (((28, 27), (20, 0)), None)
    """
    net = (points[0] - bonus[0], points[1] - bonus[1])
    extra = net[0] + net[1] - card_total
    if extra < 0 or extra % 20:
        return None
    for m0 in range(min(extra, max(net[0], 0)) // 20 * 20, -1, -20):
        c0, c1 = net[0] - m0, net[1] - (extra - m0)
        if c0 >= 0 and c1 >= 0:
            return (c0, c1), (m0, extra - m0)
    return None


def check_accounting(
    rules: Rules,
    listed: Sequence[tuple[str, int]],
    tricks: tuple[int, int],
    points: tuple[int, int],
    *,
    names: tuple[str, str] = _SAY,
    bonus: tuple[int, int] = (0, 0),
) -> tuple[tuple[int, int], tuple[int, int]]:
    """Check that a position's cards and points add up and return the points split into
    (card points, counted marriages) per player; raise :class:`PuzzleError` if they do not add up.

    ``listed`` names every card set the position places (hands, unseen cards, the trump card, a lead...);
    the rest of the pack must be exactly the cards of the tricks played, and the points of both players
    must be those cards' points plus counted marriages (20 or 40 each) plus ``bonus`` (Sixty-Six's 10
    for the last trick).

    >>> from bummerl.cards import mask_of, parse_cards
    >>> check_accounting(Rules.preset("standard"), [("hand", mask_of(parse_cards("AS")))], (0, 0), (0, 0))
    Traceback (most recent call last):
    ...
    bummerl.puzzle.PuzzleError: the position places 1 card, so 19 were played, but 0 tricks hold 0 cards
    """
    pack = PACK_MASKS[rules.sixty_six]
    seen: dict[int, str] = {}
    total = 0
    for label, mask in listed:
        outside = mask & ~pack
        if outside:
            raise PuzzleError(
                f"{cards_str(outside)} {'is' if outside.bit_count() == 1 else 'are'} "
                f"not in a {rules.game} pack ({label})"
            )
        for card in cards_in(mask & total):
            raise PuzzleError(f"card {card} is listed twice ({seen[card]} and {label})")
        for card in cards_in(mask):
            seen[card] = label
        total |= mask
    for who, n in zip(names, tricks, strict=True):
        if n < 0:
            raise PuzzleError(f"{who} cannot have {n} tricks")
    for who, n in zip(names, points, strict=True):
        if n < 0:
            raise PuzzleError(f"{who} cannot have {n} points")
    played = pack & ~total
    n_played, n_tricks = played.bit_count(), sum(tricks)
    if n_played != 2 * n_tricks:
        placed = total.bit_count()
        raise PuzzleError(
            f"the position places {placed} card{'s' * (placed != 1)}, so {n_played} were played, "
            f"but {n_tricks} trick{'s' * (n_tricks != 1)} hold {2 * n_tricks} cards"
        )
    for who, n, t in zip(names, points, tricks, strict=True):
        if n and not t:
            raise PuzzleError(
                f"{who} has {n} points without a trick (points come from tricks and counted marriages)"
            )
    worth = card_points(played)
    split = split_points(points, worth, bonus)
    if split is None:
        raise PuzzleError(
            f"the points do not add up: the {n_played} played cards are worth {worth}, so "
            f"{points[0]} + {points[1]} can only exceed that by counted marriages (20 or 40 each)"
            + (" and the 10 for the last trick" if any(bonus) else "")
        )
    return split


def default_claim_ok(tricks: tuple[int, int], lead: int | None, married: int | None, cards_left: int) -> bool:
    """Whether the player to move may claim in the usual case: the leader, who won the last trick, before
    any other action of the turn (an exchange or a close in the turn takes it away). With no cards left
    (``cards_left`` counts both hands) the claim comes from the end of the deal instead.

    >>> default_claim_ok((1, 0), None, None, 2), default_claim_ok((0, 0), None, None, 2)
    (True, False)
    """
    return sum(tricks) > 0 and lead is None and married is None and cards_left != 0


def check_position(
    rules: Rules,
    *,
    hand: int,
    unseen: int,
    opponent_has: int,
    trump: Suit,
    trump_card: Card | None,
    talon: str,
    facedown: int,
    points: tuple[int, int],
    tricks: tuple[int, int],
    to_move: int,
    lead: Card | None,
    closed_by: int | None,
    at_close: tuple[int, int] | None,
    pending: tuple[int, int],
    married: Suit | None,
    names: tuple[str, str] = _SAY,
) -> tuple[tuple[int, int], tuple[int, int]]:
    """Refuse a position that cannot happen, with a :class:`PuzzleError` naming the first problem;
    return the points split into card points and counted marriages (see :func:`split_points`).

    Player 0 holds ``hand``; player 1 holds ``opponent_has`` plus the ``unseen`` cards that are not among
    the ``facedown`` talon cards (a full-information position passes its talon as ``unseen``). ``names``
    are the players' names in messages.
    """
    me, opp = names
    if talon not in ("open", "closed", "exhausted"):
        raise PuzzleError(f"talon must be open, closed or exhausted, not {talon!r}")
    if to_move not in (0, 1):
        raise PuzzleError(f"to_move must be {me} or {opp}")
    if trump_card is not None and trump_card // 6 != trump:
        raise PuzzleError(f"the trump card {trump_card} is not of the trump suit {trump.letter}")
    if talon == "exhausted":
        if trump_card is not None:
            raise PuzzleError('an exhausted talon has no trump card: give the trump suit ("trump") instead')
        if facedown:
            raise PuzzleError(f"an exhausted talon has no face-down cards, not {facedown}")
    elif trump_card is None:
        raise PuzzleError(f'a {talon} talon still has its trump card: give "trump_card"')
    elif facedown < 1 or facedown % 2 == 0:
        raise PuzzleError(f"a {talon} talon has an odd number of face-down cards (1, 3, ...), not {facedown}")
    if talon == "closed":
        if not rules.allow_close:
            raise PuzzleError(f"the {rules.describe()} rules do not allow closing")
        if closed_by not in (0, 1) or at_close is None:
            raise PuzzleError(
                f'a closed talon needs "closed_by" ({me} or {opp}) and "at_close" {{tricks, points}}'
            )
        if facedown == 1 and not rules.close_with_two_left:
            raise PuzzleError(f"the {rules.describe()} rules do not allow closing a talon of two cards")
    elif closed_by is not None or at_close is not None:
        raise PuzzleError('"closed_by" and "at_close" belong to a closed talon only')
    leader = to_move if lead is None else 1 - to_move
    lead_bit = 0 if lead is None else 1 << lead
    listed = [("hand", hand), ("unseen", unseen), ("opponent_has", opponent_has)]
    if trump_card is not None:
        listed.append(("trump_card", 1 << trump_card))
    listed.append(("lead", lead_bit))
    if sum(tricks) and not tricks[leader]:
        raise PuzzleError(f"the leader ({names[leader]}) won the previous trick, so cannot have 0 tricks")
    hidden = unseen.bit_count() - facedown
    ending = not hand and hidden + opponent_has.bit_count() == 0 and lead is None
    bonus = (0, 0)
    if ending and rules.sixty_six and talon != "closed":
        bonus = (10, 0) if to_move == 0 else (0, 10)
    split = check_accounting(rules, listed, tricks, points, names=names, bonus=bonus)
    if hidden < 0:
        raise PuzzleError(
            f"{unseen.bit_count()} unseen cards cannot include {facedown} face-down talon cards"
        )
    sizes = [hand.bit_count(), hidden + opponent_has.bit_count()]
    held = list(sizes)
    if lead is not None:
        sizes[leader] += 1
    if talon == "open" and sizes != [rules.hand_size] * 2:
        short = 0 if sizes[0] != rules.hand_size else 1
        detail = (
            "in the hand" if short == 0 else f"{unseen.bit_count()} unseen cards less {facedown} face down"
        )
        raise PuzzleError(
            f"with the talon open both players hold {rules.hand_size} cards, but {names[short]} would hold "
            f"{held[short]} ({detail})"
        )
    if sizes[0] != sizes[1] or sizes[0] > rules.hand_size:
        raise PuzzleError(
            f"the hands do not fit: {me} {sizes[0]} and {opp} {sizes[1]} cards (counting a led card)"
        )
    if talon == "closed" and closed_by is not None and at_close is not None:
        other = 1 - closed_by
        at_t, at_p = at_close
        since = rules.hand_size - sizes[0]
        if at_p and not at_t:
            raise PuzzleError(f"at_close gives {names[other]} {at_p} points but no trick")
        if at_t < 0 or at_p < 0 or at_t > tricks[other] or at_p > points[other]:
            raise PuzzleError(
                f"at_close ({at_t} tricks, {at_p} points) cannot exceed {names[other]}'s {tricks[other]} "
                f"tricks and {points[other]} points now"
            )
        if tricks[other] - at_t > since:
            raise PuzzleError(
                f"only {since} tricks were played since closing, but {names[other]} won "
                f"{tricks[other] - at_t} of them"
            )
    if rules.auto_claim:
        for who, pts in zip(names, points, strict=True):
            if pts >= 66:
                raise PuzzleError(f"{who} has {pts} points: with automatic claims the deal is already over")
        if ending:
            raise PuzzleError("no cards are left: with automatic claims the deal is already over")
    for who, pend, t in zip(names, pending, tricks, strict=True):
        if pend < 0 or pend % 20:
            raise PuzzleError(f"{who}'s pending marriage points must be a multiple of 20, not {pend}")
        if pend and t and rules.marriage_scoring == "trick":
            raise PuzzleError(f"{who} has won a trick, so a marriage counts at once and cannot be pending")
    if married is not None:
        pair = (1 << (married * 6 + _KING)) | (1 << (married * 6 + _QUEEN))
        holder = hand if to_move == 0 else opponent_has
        if lead is not None:
            raise PuzzleError("a marriage is declared by the leader before leading, not while following")
        if holder & pair != pair:
            raise PuzzleError(
                f"the marriage in {married.letter} needs its king and queen in the hand of "
                f"{names[to_move]}, the player to move"
            )
    return split


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
    #: (card points, counted marriages) per player, as :func:`split_points` finds them.
    _split: tuple[tuple[int, int], tuple[int, int]] = dataclasses.field(
        init=False, repr=False, compare=False, default=((0, 0), (0, 0))
    )

    def __post_init__(self) -> None:
        object.__setattr__(self, "_split", self._check())
        if self.claim_ok is not None and (self.rules.auto_claim or self.claim_ok == self._default_claim_ok()):
            object.__setattr__(self, "claim_ok", None)

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
        return self._default_claim_ok() if self.claim_ok is None else self.claim_ok

    def _default_claim_ok(self) -> bool:
        return default_claim_ok(
            self.tricks, self.lead, self.married, self.hand.bit_count() + self.opponent_hand_size
        )

    # ----------------------------------------------------------------- validation

    def _check(self) -> tuple[tuple[int, int], tuple[int, int]]:
        return check_position(
            self.rules,
            hand=self.hand,
            unseen=self.unseen,
            opponent_has=self.opponent_has,
            trump=self.trump,
            trump_card=self.trump_card,
            talon=self.talon,
            facedown=self.facedown,
            points=self.points,
            tricks=self.tricks,
            to_move=self.to_move,
            lead=self.lead,
            closed_by=self.closed_by,
            at_close=self.at_close,
            pending=self.pending,
            married=self.married,
        )

    # ----------------------------------------------------------------- conversions

    @staticmethod
    def from_json(obj: Any) -> Puzzle:
        """Read a puzzle diagram (a dict from JSON); raise :class:`PuzzleError` with a clear message."""
        if not isinstance(obj, Mapping):
            raise PuzzleError(f"a puzzle is a JSON object, not {type(obj).__name__}")
        unknown = [k for k in obj if k not in _KEYS]
        if unknown:
            raise PuzzleError(f"unknown puzzle key {unknown[0]!r} (keys: {', '.join(_KEYS)})")
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
                raise PuzzleError(f"trump must be a suit letter, not {trump_text!r}")
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
            raise PuzzleError(f"claim_ok must be true or false, not {claim_ok!r}")
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

        hands = pair((self.hand, opponent_hand))
        cards, marriages_pts = self._split
        if trick_log:
            won = [0, 0]
            for t in trick_log:
                won[t.winner] += t.lead.points + t.follow.points
            cards = (won[seat], won[1 - seat])
            marriages_pts = (self.points[0] - cards[0], self.points[1] - cards[1])
            if self.talon != "closed" and self.rules.sixty_six and not (self.hand or self.opponent_hand_size):
                marriages_pts = (
                    marriages_pts[0] - 10 * (self.to_move == 0),
                    marriages_pts[1] - 10 * (self.to_move == 1),
                )
        at_close = self.at_close if self.at_close is not None else (0, 0)
        try:
            deal = Deal.from_state(
                self.rules,
                hands=hands,
                talon=order,
                trump_card=self.trump_card,
                trump_suit=int(self.trump),
                leader=seat_of(self.leader),
                lead=self.lead,
                closed_by=None if self.closed_by is None else seat_of(self.closed_by),
                close_snapshot=at_close,
                tricks_won=pair(self.tricks),
                card_points=pair(cards),
                marriage_points=pair(marriages_pts),
                pending=pair(self.pending),
                marriages=marriages,
                exchanged=exchanged,
                married=-1 if self.married is None else int(self.married),
                claim_ok=self.may_claim,
                dealer=dealer,
                trick_log=trick_log,
            )
        except DeckError as err:
            raise PuzzleError(f"the position cannot be set up: {err}") from None
        return deal

    # ----------------------------------------------------------------- notation

    @staticmethod
    def parse(text: str) -> Puzzle:
        """Read the one-line notation of a puzzle (see :mod:`bummerl.notation`)."""
        from bummerl.notation import parse_puzzle

        return parse_puzzle(text)

    def __str__(self) -> str:
        from bummerl.notation import format_puzzle

        return format_puzzle(self)

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
        raise PuzzleError(f'{key} must be a list of card codes such as ["QH", "TC"], not {value!r}')
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
        raise PuzzleError(f'{key} must be a card code such as "QS", not {value!r}')
    try:
        return Card.parse(value)
    except CardParseError as err:
        raise PuzzleError(f"{key}: {err}") from None


def _int(value: Any, key: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise PuzzleError(f"{key} must be a whole number, not {value!r}")
    return value


def _pair(value: Any, key: str) -> tuple[int, int]:
    if isinstance(value, Mapping):
        extra = [k for k in value if k not in PLAYER_NAMES]
        if extra:
            raise PuzzleError(f'{key} has an unknown player {extra[0]!r} (use "me" and "opponent")')
        return (_int(value.get("me", 0), f"{key}.me"), _int(value.get("opponent", 0), f"{key}.opponent"))
    if isinstance(value, list) and len(value) == 2:
        return (_int(value[0], key), _int(value[1], key))
    raise PuzzleError(f'{key} must be {{"me": n, "opponent": m}}, not {value!r}')


def _player(value: Any, key: str) -> int:
    if value in PLAYER_NAMES:
        return PLAYER_NAMES.index(value)
    raise PuzzleError(f'{key} must be "me" or "opponent", not {value!r}')


def _at_close(value: Any) -> tuple[int, int]:
    if not isinstance(value, Mapping) or set(value) - {"tricks", "points"}:
        raise PuzzleError(f'at_close must be {{"tricks": n, "points": m}}, not {value!r}')
    return (_int(value.get("tricks", 0), "at_close.tricks"), _int(value.get("points", 0), "at_close.points"))
