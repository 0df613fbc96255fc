"""A seat's :class:`~bummerl.view.View` as a fixed-size numeric vector, and the fixed index space of actions.

Every environment of :mod:`bummerl.adapters` observes through this one module, and it reads nothing but
the view: what the vector holds is what that seat may know (rules.md section 6), for every preset.

**Actions** have 32 indexes, the engine's action codes: ``0..23`` play the card of that index (``suit * 6 +
rank``, suits C D H S, ranks 9 J Q K T A: ``0`` is ``play 9C``, ``23`` is ``play AS``; the nines exist in
Sixty-Six only), ``24`` exchange, ``25`` close, ``26`` claim, ``27`` pass, ``28..31`` marry C, D, H, S.

**The observation** is a ``float32`` vector of :data:`OBSERVATION_SIZE` values, made of the fields below
in this order. Cards are 24-slot blocks indexed like the actions (the nine slots stay 0 in Schnapsen).
Fields about both players are *relative*: the seat that observes first ("me"), then the opponent; the
absolute seat is in ``seat``. Counts are raw integers (no scaling); ``high`` is each field's largest
value, so ``obs / OBSERVATION_HIGH`` lies in [0, 1].

>>> print(layout_table())
field               start  size  high  what
seat                    0     2     1  one-hot: the observing seat (0 or 1)
dealer                  2     1     1  1 if this seat dealt
to_move                 3     1     1  1 if this seat is to move
rules                   4    12     1  the rule flags (1: yes, sixty-six, next_trick, tournament, mirror)
hand                   16    24     1  my cards
trump_suit             40     4     1  one-hot: C D H S
trump_card             44    24     1  the card that lies (face up or turned down) or lay under the talon
talon_size             68     1    12  cards in the talon, the trump card included
closed_by              69     2     1  who closed the talon: [me, opponent]
close_tricks           71     1    12  the non-closer's tricks when the talon was closed
close_points           72     1   230  the non-closer's points when the talon was closed
lead                   73    24     1  the card led to the trick now being played
married                97     4     1  the suit of a marriage declared in this lead
marriages             101     8     1  marriages declared: [me C D H S, opponent C D H S]
exchanged_by          109     2     1  who exchanged the trump card: [me, opponent]
exchange_took         111    24     1  the trump card taken by the exchange
points                135     2   230  points: [me, opponent]; 0 where the rules hide them (open_tricks no)
pending               137     2   100  declared marriage points not yet counted: [me, opponent]
tricks_won            139     2    12  tricks won: [me, opponent]
opponent_hand_size    141     1     6  cards in the opponent's hand
played                142    24     1  the cards of every finished trick
tricks                166   600     1  12 trick slots of 50: my card (24), the opponent's (24), I led, I won
score                 766     2     7  game points still needed in the Bummerl: [me, opponent], 0 at least
in_bummerl            768     1     1  1 if the deal is part of a Bummerl (score is given)

:func:`decode` reads the public facts back (the round trip is tested on random deals of every preset):

>>> from bummerl import Deal, Rules, View
>>> deal = Deal.random(Rules.preset("standard"), 7)
>>> view = View.of(deal, deal.to_move)
>>> obs = encode(view)
>>> obs.shape, obs.dtype, OBSERVATION_SIZE
((769,), dtype('float32'), 769)
>>> decode(obs).hand_mask == view.hand_mask, decode(obs).talon_size
(True, 10)
>>> [str(action_of(int(i))) for i in action_mask(view).nonzero()[0]] == sorted(
...     (str(a) for a in view.legal_actions), key=lambda s: Action.parse(s).code)
True

OpenSpiel's information state adds a perfect-recall block (:class:`History`) of :data:`HISTORY_SIZE`
values: the same 12 trick slots, 30 values each: the cards I drew after that trick (24), and, before its
lead, an exchange (1), a close (1) and the marriage declared (4, one-hot suit).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bummerl.adapters import rl_missing

try:
    import numpy as np
    import numpy.typing as npt
except ImportError as _missing:
    raise rl_missing(_missing) from None

from bummerl.actions import ACTIONS, Action
from bummerl.cards import CARDS, SUITS, Card, Suit
from bummerl.engine import Trick
from bummerl.errors import BummerlError, quote
from bummerl.game import TARGET
from bummerl.rules import FLAG_NAMES, Rules
from bummerl.view import View

__all__ = [
    "FIELDS",
    "HISTORY_SIZE",
    "NUM_ACTIONS",
    "OBSERVATION_HIGH",
    "OBSERVATION_SIZE",
    "DecodedView",
    "EncodingError",
    "Field",
    "History",
    "action_index",
    "action_mask",
    "action_of",
    "decode",
    "encode",
    "layout_table",
    "shown_points",
]

Vector = npt.NDArray[np.float32]

#: The size of the action index space (the engine's 32 action codes).
NUM_ACTIONS = len(ACTIONS)
#: Trick slots: the most tricks a deal has (Sixty-Six: 12).
MAX_TRICKS = 12
#: Bounds used for the count fields.
MAX_TALON = 12
MAX_POINTS = 230  # 120 card points, marriages 40 + 3 x 20, the last trick's 10
MAX_PENDING = 100
#: The flag word that encodes as 1, for the flags that are words rather than yes/no.
_WORD_ONE = {"game": "sixty-six", "marriage_scoring": "next_trick", "closing_scoring": "tournament",
             "false_claim": "mirror"}
_WORD_ZERO = {"game": "schnapsen", "marriage_scoring": "trick", "closing_scoring": "viennese",
              "false_claim": "fixed"}
_TRICK_SLOT = 50
_HISTORY_SLOT = 30


class EncodingError(BummerlError):
    """An action index out of range, or a vector that is not an observation of this layout."""


@dataclass(frozen=True, slots=True)
class Field:
    """One field of the observation: ``vector[start:start + size]``, values in ``0..high``."""

    name: str
    start: int
    size: int
    high: int
    doc: str

    @property
    def stop(self) -> int:
        """The index after the field's last value."""
        return self.start + self.size


def _layout(*specs: tuple[str, int, int, str]) -> tuple[Field, ...]:
    fields: list[Field] = []
    start = 0
    for name, size, high, doc in specs:
        fields.append(Field(name, start, size, high, doc))
        start += size
    return tuple(fields)


#: The observation's fields, in order (see the module's table).
FIELDS: tuple[Field, ...] = _layout(
    ("seat", 2, 1, "one-hot: the observing seat (0 or 1)"),
    ("dealer", 1, 1, "1 if this seat dealt"),
    ("to_move", 1, 1, "1 if this seat is to move"),
    ("rules", len(FLAG_NAMES), 1,
     "the rule flags (1: yes, sixty-six, next_trick, tournament, mirror)"),
    ("hand", 24, 1, "my cards"),
    ("trump_suit", 4, 1, "one-hot: C D H S"),
    ("trump_card", 24, 1, "the card that lies (face up or turned down) or lay under the talon"),
    ("talon_size", 1, MAX_TALON, "cards in the talon, the trump card included"),
    ("closed_by", 2, 1, "who closed the talon: [me, opponent]"),
    ("close_tricks", 1, MAX_TRICKS, "the non-closer's tricks when the talon was closed"),
    ("close_points", 1, MAX_POINTS, "the non-closer's points when the talon was closed"),
    ("lead", 24, 1, "the card led to the trick now being played"),
    ("married", 4, 1, "the suit of a marriage declared in this lead"),
    ("marriages", 8, 1, "marriages declared: [me C D H S, opponent C D H S]"),
    ("exchanged_by", 2, 1, "who exchanged the trump card: [me, opponent]"),
    ("exchange_took", 24, 1, "the trump card taken by the exchange"),
    ("points", 2, MAX_POINTS, "points: [me, opponent]; 0 where the rules hide them (open_tricks no)"),
    ("pending", 2, MAX_PENDING, "declared marriage points not yet counted: [me, opponent]"),
    ("tricks_won", 2, MAX_TRICKS, "tricks won: [me, opponent]"),
    ("opponent_hand_size", 1, 6, "cards in the opponent's hand"),
    ("played", 24, 1, "the cards of every finished trick"),
    ("tricks", MAX_TRICKS * _TRICK_SLOT, 1,
     f"{MAX_TRICKS} trick slots of {_TRICK_SLOT}: my card (24), the opponent's (24), I led, I won"),
    ("score", 2, TARGET, "game points still needed in the Bummerl: [me, opponent], 0 at least"),
    ("in_bummerl", 1, 1, "1 if the deal is part of a Bummerl (score is given)"),
)
_AT: dict[str, int] = {f.name: f.start for f in FIELDS}
#: The observation's length.
OBSERVATION_SIZE = FIELDS[-1].stop
#: Each value's largest possible value (the upper bound of the observation space; the lower is 0).
OBSERVATION_HIGH: Vector = np.concatenate([np.full(f.size, f.high, dtype=np.float32) for f in FIELDS])
#: The length of :class:`History`'s perfect-recall block.
HISTORY_SIZE = MAX_TRICKS * _HISTORY_SLOT

_BITS = np.arange(24, dtype=np.int64)  # card slots, for masks of the History block


def layout_table() -> str:
    """The observation's fields as a text table (the module's documentation prints it)."""
    lines = [f"{'field':<18} {'start':>6} {'size':>5} {'high':>5}  what"]
    lines += [f"{f.name:<18} {f.start:>6} {f.size:>5} {f.high:>5}  {f.doc}" for f in FIELDS]
    return "\n".join(lines)


# Field starts as module constants: encode runs at every environment step.
_SEAT, _DEALER, _TO_MOVE, _RULES = _AT["seat"], _AT["dealer"], _AT["to_move"], _AT["rules"]
_HAND, _TRUMP_SUIT, _TRUMP_CARD = _AT["hand"], _AT["trump_suit"], _AT["trump_card"]
_CLOSED_BY, _CLOSE_TRICKS = _AT["closed_by"], _AT["close_tricks"]
_LEAD, _MARRIED = _AT["lead"], _AT["married"]
_MARRIAGES, _EXCHANGED_BY, _TOOK = _AT["marriages"], _AT["exchanged_by"], _AT["exchange_took"]
_PLAYED, _TRICKS, _SCORE, _IN_BUMMERL = _AT["played"], _AT["tricks"], _AT["score"], _AT["in_bummerl"]
#: The count fields, in the order encode writes them.
_COUNT_INDEXES = [
    _AT["talon_size"], _AT["points"], _AT["points"] + 1, _AT["pending"], _AT["pending"] + 1,
    _AT["tricks_won"], _AT["tricks_won"] + 1, _AT["opponent_hand_size"],
]


_RULE_BITS: dict[int, tuple[Rules, tuple[int, ...]]] = {}


def _rule_bits(rules: Rules) -> tuple[int, ...]:
    """The indexes of the rule flags that encode as 1 (remembered per rules object: hashing one is slow)."""
    known = _RULE_BITS.get(id(rules))
    if known is not None and known[0] is rules:
        return known[1]
    bits = tuple(
        _RULES + i for i, flag in enumerate(FLAG_NAMES)
        if getattr(rules, flag) is True or getattr(rules, flag) == _WORD_ONE.get(flag)
    )
    if len(_RULE_BITS) > 256:
        _RULE_BITS.clear()
    _RULE_BITS[id(rules)] = (rules, bits)
    return bits


#: The set bits of every byte, for masks of cards.
_BYTE_BITS: tuple[tuple[int, ...], ...] = tuple(tuple(i for i in range(8) if b >> i & 1) for b in range(256))


def _bits(base: int, mask: int) -> list[int]:
    """``base + i`` for every card ``i`` in ``mask``."""
    table = _BYTE_BITS
    return ([base + i for i in table[mask & 255]] + [base + 8 + i for i in table[mask >> 8 & 255]]
            + [base + 16 + i for i in table[mask >> 16 & 255]])


def encode(view: View, out: Vector | None = None) -> Vector:
    """The observation of a view (into ``out`` when given, which must have :data:`OBSERVATION_SIZE`)."""
    if out is None:
        out = np.zeros(OBSERVATION_SIZE, dtype=np.float32)
    else:
        out.fill(0.0)
    me = view.seat
    opp = 1 - me
    ones = [_SEAT + me, _TRUMP_SUIT + view.trump_suit, *_rule_bits(view.rules)]
    if view.dealer == me:
        ones.append(_DEALER)
    if view.to_move == me:
        ones.append(_TO_MOVE)
    ones += _bits(_HAND, view.hand_mask)
    ones += _bits(_PLAYED, view.played_tricks_mask)
    if view.last_trump_card is not None:
        ones.append(_TRUMP_CARD + view.last_trump_card)
    points, pending, snapshot = shown_points(view)
    if view.closed_by >= 0:
        ones.append(_CLOSED_BY + (view.closed_by != me))
        out[_CLOSE_TRICKS], out[_CLOSE_TRICKS + 1] = snapshot
    if view.lead_card is not None:
        ones.append(_LEAD + view.lead_card)
    if view.married >= 0:
        ones.append(_MARRIED + view.married)
    for player, suit in view.marriages:
        ones.append(_MARRIAGES + 4 * (player != me) + suit)
    if view.exchanged is not None:
        ones.append(_EXCHANGED_BY + (view.exchanged[0] != me))
        ones.append(_TOOK + view.exchanged[2])
    slot = _TRICKS
    for trick in view.tricks:
        if trick.leader == me:
            ones += (slot + trick.lead, slot + 24 + trick.follow, slot + 48)
        else:
            ones += (slot + trick.follow, slot + 24 + trick.lead)
        if trick.winner == me:
            ones.append(slot + 49)
        slot += _TRICK_SLOT
    out[ones] = 1.0
    won = view.tricks_won
    counts = [view.talon_size, points[me], points[opp], pending[me], pending[opp], won[me], won[opp],
              view.opponent_hand_size]
    out[_COUNT_INDEXES] = counts
    if view.score is not None:
        out[_SCORE] = min(max(view.score[me], 0), TARGET)
        out[_SCORE + 1] = min(max(view.score[opp], 0), TARGET)
        out[_IN_BUMMERL] = 1.0
    return out


@dataclass(frozen=True, slots=True)
class DecodedView:
    """The public facts an observation holds, in the view's own (absolute) terms."""

    seat: int
    dealer: int
    to_move: int
    rules: Rules
    hand_mask: int
    trump_suit: Suit
    #: As :attr:`View.last_trump_card` (None only when the observation names none).
    last_trump_card: Card | None
    talon_size: int
    closed_by: int
    close_snapshot: tuple[int, int]
    lead_card: Card | None
    married: int
    #: Every marriage declared, as (player, suit), sorted (the view keeps them in the order declared).
    marriages: tuple[tuple[int, int], ...]
    exchanged: tuple[int, Card, Card] | None
    #: None where the rules hide running points (``open_tricks`` no; the tricks themselves are there).
    points: tuple[int, int] | None
    pending: tuple[int, int]
    tricks_won: tuple[int, int]
    opponent_hand_size: int
    played_tricks_mask: int
    tricks: tuple[Trick, ...]
    #: Game points still needed, each at least 0; None outside a Bummerl.
    score: tuple[int, int] | None

    @property
    def bottom_card(self) -> Card | None:
        """The trump card under the talon, face up or turned down (as :attr:`View.bottom_card`)."""
        return self.last_trump_card if self.talon_size else None

    @property
    def trump_card(self) -> Card | None:
        """The face-up trump card (as :attr:`View.trump_card`)."""
        return self.bottom_card if self.closed_by < 0 else None


def decode(obs: npt.ArrayLike) -> DecodedView:
    """The public facts of an observation made by :func:`encode`."""
    vec = np.asarray(obs)
    if vec.shape != (OBSERVATION_SIZE,):
        raise EncodingError(f"an observation has shape ({OBSERVATION_SIZE},), not {vec.shape}")
    try:
        floats = vec.astype(float)
    except (TypeError, ValueError):
        raise EncodingError("not an observation: its values are not numbers") from None
    if not np.isfinite(floats).all():
        raise EncodingError("not an observation: it holds NaN or infinite values")
    values = [round(float(x)) for x in floats]
    at = _AT

    def block(name: str, size: int = 24) -> list[int]:
        return values[at[name]:at[name] + size]

    def mask(name: str) -> int:
        return sum(1 << i for i, bit in enumerate(block(name)) if bit)

    def one(name: str, size: int = 24, *, required: bool = False) -> int:
        hot = [i for i, bit in enumerate(block(name, size)) if bit]
        if len(hot) > 1 or (required and not hot):
            raise EncodingError(f"not an observation: its {name.replace('_', ' ')} marks {len(hot)} values, "
                                f"not {'exactly' if required else 'at most'} one")
        return hot[0] if hot else -1

    seat = one("seat", 2)
    if seat < 0:
        raise EncodingError("not an observation: no seat is marked")
    opp = 1 - seat

    def who(relative: int) -> int:
        return seat if relative == 0 else opp

    def pair(name: str) -> tuple[int, int]:
        mine, theirs = block(name, 2)
        return (mine, theirs) if seat == 0 else (theirs, mine)

    flags: dict[str, object] = {}
    for i, flag in enumerate(FLAG_NAMES):
        bit = values[at["rules"] + i]
        flags[flag] = (_WORD_ONE[flag] if bit else _WORD_ZERO[flag]) if flag in _WORD_ONE else bool(bit)
    rules = Rules(**flags)  # type: ignore[arg-type]
    trump_suit = SUITS[one("trump_suit", 4, required=True)]
    trump = one("trump_card")
    closer = one("closed_by", 2)
    lead = one("lead")
    marriages = sorted(
        (who(i // 4), i % 4) for i, bit in enumerate(block("marriages", 8)) if bit
    )
    exchanger = one("exchanged_by", 2)
    exchanged = None
    if exchanger >= 0:
        gave = CARDS[trump_suit * 6 + rules.exchange_rank]
        exchanged = (who(exchanger), gave, CARDS[one("exchange_took")])
    tricks: list[Trick] = []
    for t in range(MAX_TRICKS):
        slot = values[at["tricks"] + t * _TRICK_SLOT: at["tricks"] + (t + 1) * _TRICK_SLOT]
        if not any(slot[:48]):
            break
        if slot[:24].count(1) != 1 or slot[24:48].count(1) != 1:
            raise EncodingError(f"not an observation: trick {t + 1} does not hold one card of each player")
        mine, theirs = CARDS[slot[:24].index(1)], CARDS[slot[24:48].index(1)]
        leader = seat if slot[48] else opp
        lead_card, follow = (mine, theirs) if leader == seat else (theirs, mine)
        tricks.append(Trick(leader, lead_card, follow, seat if slot[49] else opp))
    in_bummerl = values[at["in_bummerl"]]
    return DecodedView(
        seat=seat,
        dealer=seat if values[at["dealer"]] else opp,
        to_move=seat if values[at["to_move"]] else opp,
        rules=rules,
        hand_mask=mask("hand"),
        trump_suit=trump_suit,
        last_trump_card=CARDS[trump] if trump >= 0 else None,
        talon_size=values[at["talon_size"]],
        closed_by=who(closer) if closer >= 0 else -1,
        close_snapshot=(values[at["close_tricks"]], values[at["close_points"]]),
        lead_card=CARDS[lead] if lead >= 0 else None,
        married=one("married", 4),
        marriages=tuple(marriages),
        exchanged=exchanged,
        points=pair("points") if flags["open_tricks"] else None,
        pending=pair("pending"),
        tricks_won=pair("tricks_won"),
        opponent_hand_size=values[at["opponent_hand_size"]],
        played_tricks_mask=mask("played"),
        tricks=tuple(tricks),
        score=pair("score") if in_bummerl else None,
    )


def action_index(action: Action | str) -> int:
    """The index of an action (an :class:`~bummerl.actions.Action` or its string).

    >>> action_index("play AS"), action_index("exchange"), action_index("marry H")
    (23, 24, 30)
    """
    return (Action.parse(action) if isinstance(action, str) else action).code


def shown_points(view: View) -> tuple[tuple[int, int], tuple[int, int], tuple[int, int]]:
    """The running points, the pending marriage points and the closing snapshot a player may see: all
    ``(0, 0)`` while a deal is played under rules without ``open_tricks`` (rules.md: running points are
    not shown; the players count them in their heads), as the web game shows them.

    >>> from bummerl import Deal, Rules
    >>> deal = Deal.random(Rules.preset("sharp"), 1)
    >>> for _ in range(2):  # one trick
    ...     deal.apply(next(a for a in deal.legal_actions() if a.kind == "play"))
    >>> sum(deal.points) > 0, shown_points(View.of(deal, 0))
    (True, ((0, 0), (0, 0), (0, 0)))
    """
    if view.rules.open_tricks or view.is_over:
        return view.points, view.pending, view.close_snapshot
    return (0, 0), (0, 0), (0, 0)


def action_of(index: int | np.integer[Any] | npt.NDArray[np.integer[Any]]) -> Action:
    """The action with this index (a Python or NumPy integer, or a NumPy integer array of one value and no
    axes, which Gymnasium's ``Discrete`` also contains and some RL libraries pass); :class:`EncodingError`
    for anything else (a float, a string, a bool, an array with axes) and outside ``0..31``.

    >>> str(action_of(0)), str(action_of(np.int64(27))), str(action_of(np.array(26)))
    ('play 9C', 'pass', 'claim')
    >>> action_of(2.9)
    Traceback (most recent call last):
    ...
    bummerl.adapters.encoding.EncodingError: an action index is an integer in 0..31, not 2.9
    """
    if isinstance(index, np.ndarray) and index.shape == () and np.issubdtype(index.dtype, np.integer):
        index = index[()]
    if isinstance(index, bool) or not isinstance(index, int | np.integer):
        raise EncodingError(f"an action index is an integer in 0..{NUM_ACTIONS - 1}, not {quote(index)}")
    if not 0 <= index < NUM_ACTIONS:
        raise EncodingError(f"action index {index} is outside 0..{NUM_ACTIONS - 1}")
    return ACTIONS[int(index)]


def action_mask(view: View) -> npt.NDArray[np.int8]:
    """1 at the index of every legal action of the view's seat (all 0 when it is not to move)."""
    mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
    for action in view.legal_actions:
        mask[action.code] = 1
    return mask


class History:
    """The perfect-recall block of one seat's information state (what a view forgets: when each card was
    drawn, and in which lead the exchange, the close and each marriage came). Feed it the seat's view
    after every action, in order, from the start of the deal; :attr:`vector` is the block.

    >>> from bummerl import Deal, Rules
    >>> deal = Deal.from_deck(Rules.preset("standard"),
    ...     "QH TC AS JD KD QS AH KS TD JH KH AD JC QC TH KC AC JS TS QD", dealer=1)
    >>> history = History()
    >>> history.see(View.of(deal, 0))
    >>> for action in ("play AS", "play QS"):
    ...     deal.apply(action)
    ...     history.see(View.of(deal, 0))
    >>> [str(CARDS[i]) for i in history.vector[:24].nonzero()[0]]  # drawn after trick 1
    ['AD']
    """

    __slots__ = ("_closed", "_exchanged", "_hand", "_marriages", "vector")

    def __init__(self) -> None:
        self.vector: Vector = np.zeros(HISTORY_SIZE, dtype=np.float32)
        self._hand = -1
        self._exchanged = False
        self._closed = False
        self._marriages = 0

    def see(self, view: View) -> None:
        """Take in the seat's next view."""
        lead_slot = len(view.tricks) * _HISTORY_SLOT
        if self._hand >= 0:
            gained = view.hand_mask & ~self._hand
            if view.exchanged is not None and not self._exchanged:
                self.vector[lead_slot + 24] = 1
                gained &= ~(1 << view.exchanged[2])
            if view.closed_by >= 0 and not self._closed:
                self.vector[lead_slot + 25] = 1
            for _, suit in view.marriages[self._marriages:]:
                self.vector[lead_slot + 26 + suit] = 1
            if gained:
                start = lead_slot - _HISTORY_SLOT  # drawn after the trick just finished
                self.vector[start:start + 24] += (gained >> _BITS) & 1
        self._hand = view.hand_mask
        self._exchanged = view.exchanged is not None
        self._closed = view.closed_by >= 0
        self._marriages = len(view.marriages)

    def copy(self) -> History:
        """An independent copy."""
        twin = History.__new__(History)
        twin.vector = self.vector.copy()
        twin._hand, twin._exchanged, twin._closed = self._hand, self._exchanged, self._closed
        twin._marriages = self._marriages
        return twin
