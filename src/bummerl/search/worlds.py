"""Worlds: the full-information deals consistent with what one seat knows.

A seat knows its hand, the trump card, every trick played, marriages shown and an exchange; it does not
know which of the unseen cards are in the opponent's hand and in what order the face-down talon lies.
A *world* is one answer: a :class:`~bummerl.engine.Deal` built with ``Deal.from_setup`` that holds the
opponent's hand and the talon order.

What is counted. With ``n`` unseen cards, ``k`` of them in the opponent's hand (besides the cards the
opponent is known to hold, which every world places there) and ``f = n - k`` face down in the talon:

* talon open: ``C(n, k) * f!`` worlds. Every order of the face-down cards is its own world, since the
  order decides who draws what (the winner of a trick draws the top card, the loser the next; the last
  face-down card goes to the winner and the trump card to the loser). Orders are counted even where
  the play to come can never tell two of them apart (after a later close, say);
* talon closed: ``C(n, k)`` worlds. The face-down cards never come into play again, so their order is
  irrelevant and each hand is one world (its talon written in card order);
* talon exhausted: one world (``f = 0``, ``k = n``).

Every world is equally likely: nothing is inferred from the opponent's play (a caller may pass a
``weight`` function to :func:`worlds` to weight or filter them). Up to a limit the worlds are
enumerated exactly; beyond it they are sampled uniformly without replacement, from a seed.

>>> from bummerl.puzzle import Puzzle
>>> p = Puzzle.parse("tompa CTK.DAK.HQ/?CQJ.DTQJ.HT 1 QS 0 28/27 2/2")
>>> count_worlds(p)
6
>>> ws = worlds(p)
>>> ws.exact, len(ws.deals), str(ws.deals[0].talon[0])
(True, 6, 'TH')
>>> count_worlds(Puzzle.parse("tompa CTK.DAK.HQ/?CQJ.DTQJ.HT.SJA 3 QS 0 15/27 1/2"))
336
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations, permutations
from math import comb, factorial
from random import Random

from bummerl.cards import Card, cards_in
from bummerl.engine import Deal, Trick
from bummerl.puzzle import Puzzle
from bummerl.view import View

__all__ = [
    "DEFAULT_SAMPLES",
    "EXACT_LIMIT",
    "Source",
    "Weight",
    "Worlds",
    "count_worlds",
    "iter_worlds",
    "sample_worlds",
    "world_at",
    "worlds",
]

#: A seat's knowledge: its :class:`~bummerl.view.View` or a :class:`~bummerl.puzzle.Puzzle`.
Source = View | Puzzle
#: An optional weight for each world (0 drops it), e.g. from inferences about the opponent's play.
Weight = Callable[[Deal], float]
#: :func:`worlds` enumerates every world when there are at most this many (and no sample size is given).
EXACT_LIMIT = 2000
#: How many worlds :func:`worlds` samples when there are more than :data:`EXACT_LIMIT`.
DEFAULT_SAMPLES = 400


@dataclass(frozen=True, slots=True)
class _Frame:
    """Everything needed to build the worlds of one source."""

    puzzle: Puzzle
    seat: int
    cards: tuple[int, ...]
    in_hand: int
    orders: int
    marriages: tuple[tuple[int, int], ...] = ()
    exchanged: tuple[int, Card, Card] | None = None
    dealer: int | None = None
    trick_log: tuple[Trick, ...] = ()
    #: The card that lay under the talon, once drawn (a view remembers it; the world should too).
    last_trump: int | None = None

    @property
    def total(self) -> int:
        return comb(len(self.cards), self.in_hand) * self.orders

    def build(self, hand_cards: Sequence[int], talon: Sequence[int]) -> Deal:
        hand = self.puzzle.opponent_has
        for c in hand_cards:
            hand |= 1 << c
        deal = self.puzzle.world(
            hand,
            talon,
            seat=self.seat,
            marriages=self.marriages,
            exchanged=self.exchanged,
            dealer=self.dealer,
            trick_log=self.trick_log,
        )
        if self.last_trump is not None and not deal.talon_size:
            deal.trump_card = self.last_trump
        return deal


def _last_trump(view: View) -> int | None:
    card = getattr(view, "last_trump_card", None)  # newer views remember the drawn trump card
    return None if card is None else int(card)


def _frame(source: Source, known: int = 0) -> _Frame:
    puzzle = Puzzle.from_view(source) if isinstance(source, View) else source
    if known:
        if known & ~puzzle.unseen:
            raise ValueError("known cards must be unseen cards of the source")
        puzzle = dataclasses.replace(puzzle, unseen=puzzle.unseen & ~known,
                                     opponent_has=puzzle.opponent_has | known)
    cards = tuple(int(c) for c in cards_in(puzzle.unseen))
    orders = factorial(puzzle.facedown) if puzzle.talon == "open" else 1
    if isinstance(source, View):
        return _Frame(
            puzzle,
            source.seat,
            cards,
            puzzle.hidden_in_hand,
            orders,
            marriages=source.marriages,
            exchanged=source.exchanged,
            dealer=source.dealer,
            trick_log=source.trick_log,
            last_trump=_last_trump(source),
        )
    return _Frame(puzzle, 0, cards, puzzle.hidden_in_hand, orders)


def count_worlds(source: Source) -> int:
    """How many worlds fit the source (see the module's note on what is counted).

    >>> from bummerl import Deal, Rules
    >>> count_worlds(View.of(Deal.random(Rules.preset("standard"), 1), 0))  # C(14, 5) * 9!
    726485760
    """
    return _frame(source).total


def _rest(cards: Sequence[int], chosen: Sequence[int]) -> list[int]:
    taken = set(chosen)
    return [c for c in cards if c not in taken]


def iter_worlds(source: Source) -> Iterator[Deal]:
    """Every world, in a fixed order (the order of :func:`world_at`'s index)."""
    f = _frame(source)
    for chosen in combinations(f.cards, f.in_hand):
        rest = _rest(f.cards, chosen)
        orders = permutations(rest) if f.orders > 1 else iter((tuple(rest),))
        for talon in orders:
            yield f.build(chosen, talon)


def _world(f: _Frame, index: int) -> Deal:
    hand_rank, order_rank = divmod(index, f.orders)
    n, k = len(f.cards), f.in_hand
    chosen: list[int] = []
    x = 0
    for i in range(k):  # lexicographic unranking, the order of itertools.combinations
        while True:
            c = comb(n - x - 1, k - i - 1)
            if hand_rank < c:
                break
            hand_rank -= c
            x += 1
        chosen.append(f.cards[x])
        x += 1
    rest = _rest(f.cards, chosen)
    talon: list[int] = []
    if f.orders > 1:
        for i in range(len(rest), 0, -1):  # the order of itertools.permutations
            q, order_rank = divmod(order_rank, factorial(i - 1))
            talon.append(rest.pop(q))
    else:
        talon = rest
    return f.build(chosen, talon)


def world_at(source: Source, index: int) -> Deal:
    """The world with this index (0 .. count - 1), the same as the index-th of :func:`iter_worlds`.

    >>> from bummerl.puzzle import Puzzle
    >>> p = Puzzle.parse("tompa CTK.DAK.HQ/?CQJ.DTQJ.HT 1 QS 0 28/27 2/2")
    >>> [str(world_at(p, i).talon[0]) for i in range(6)]
    ['TH', 'TD', 'QD', 'JD', 'QC', 'JC']
    """
    f = _frame(source)
    if not 0 <= index < f.total:
        raise IndexError(f"world index {index} out of range (there are {f.total} worlds)")
    return _world(f, index)


def _sample_indexes(total: int, n: int, rng: Random) -> list[int]:
    if n >= total:
        return list(range(total))
    try:
        return rng.sample(range(total), n)
    except OverflowError:  # more worlds than a range can hold: draw until n distinct
        seen: dict[int, None] = {}
        while len(seen) < n:
            seen[rng.randrange(total)] = None
        return list(seen)


def sample_worlds(source: Source, n: int, seed: int | Random = 0) -> list[Deal]:
    """``n`` distinct worlds drawn uniformly (all of them, in order, when there are no more than ``n``).

    The same seed gives the same worlds. They are placements of the unseen cards: a world the opponent's
    strict follows rule out is among them (:func:`~bummerl.bots.inference.rules_weight` says which).

    >>> from bummerl import Deal, Rules
    >>> view = View.of(Deal.random(Rules.preset("standard"), 1), 0)
    >>> def hands(seed): return [d.hand(1) for d in sample_worlds(view, 2, seed)]
    >>> hands(5) == hands(5) != hands(6)
    True
    """
    if n < 0:
        raise ValueError(f"cannot sample {n} worlds")
    f = _frame(source)
    rng = seed if isinstance(seed, Random) else Random(seed)
    return [_world(f, i) for i in _sample_indexes(f.total, n, rng)]


@dataclass(frozen=True, slots=True)
class Worlds:
    """The worlds chosen for a source: all of them (``exact``) or a uniform sample, with weights."""

    deals: tuple[Deal, ...]
    weights: tuple[float, ...]
    #: True when every world is here (before any weighting dropped some).
    exact: bool
    #: How many worlds fit the source in all.
    total: int
    #: The seed of the sample, None when exact.
    seed: int | None


def worlds(
    source: Source,
    samples: int | None = None,
    seed: int = 0,
    *,
    weight: Weight | None = None,
    exact_limit: int = EXACT_LIMIT,
    known: int = 0,
) -> Worlds:
    """The worlds to reason over: every world when there are at most ``samples`` of them (at most
    ``exact_limit`` when ``samples`` is None), else ``samples`` (default :data:`DEFAULT_SAMPLES`)
    distinct worlds drawn uniformly with ``seed``. ``weight`` may weight each world (0 drops it).
    ``known`` (a card mask) names unseen cards the seat has been told are in the opponent's hand: every
    world places them there (for yardsticks that peek, :class:`~bummerl.bots.cheater.PeekingBot`).

    >>> from bummerl.puzzle import Puzzle
    >>> p = Puzzle.parse("tompa CTK.DAK.HQ/?CQJ.DTQJ.HT.SJA 3 QS 0 15/27 1/2")
    >>> ws = worlds(p, samples=50, seed=1)
    >>> ws.exact, len(ws.deals), ws.total
    (False, 50, 336)
    >>> from bummerl.cards import Card
    >>> worlds(p, samples=50, seed=1, known=1 << int(Card.parse("AS"))).total  # AS placed: C(7, 4) * 3!
    210
    """
    if samples is not None and samples < 1:
        raise ValueError(f"samples must be at least 1, not {samples}")
    f = _frame(source, known)
    total = f.total
    limit = exact_limit if samples is None else samples
    if total <= limit:
        exact = True
        chosen = [_world(f, i) for i in range(total)]
        used_seed: int | None = None
    else:
        exact = False
        n = DEFAULT_SAMPLES if samples is None else samples
        chosen = [_world(f, i) for i in _sample_indexes(total, n, Random(seed))]
        used_seed = seed
    if weight is None:
        return Worlds(tuple(chosen), (1.0,) * len(chosen), exact, total, used_seed)
    kept: list[Deal] = []
    weights: list[float] = []
    for deal in chosen:
        w = float(weight(deal))
        if w < 0:
            raise ValueError(f"a world weight must not be negative, got {w}")
        if w > 0:
            kept.append(deal)
            weights.append(w)
    return Worlds(tuple(kept), tuple(weights), exact, total, used_seed)
