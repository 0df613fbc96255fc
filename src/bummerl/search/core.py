"""The open-card solver, written once: plain Python, compiled to C by Cython when it is built.

This one module is the search. ``pip install`` compiles it (Cython's pure-Python mode: the types live
in ``core.pxd``) into a C extension that releases the GIL while it searches; without a C compiler the
same file runs as plain Python. Both read a :data:`~bummerl.search.position.Position` (bitmask hands,
points, flags), never touch the engine, visit the same nodes and give the same values; they are checked
against :mod:`bummerl.search.reference`, which plays the engine itself. Values are game points for the
player to move, -3..3.

Every setting of a search (the rules' flags, the trump, the talon's cards, the transposition table, the
node count) lives in a :class:`Search` object, one per thread, so threads solve different positions
(different rules) at once; the compiled core runs them on different cores.

How it is fast:

- negamax at trick boundaries ("lead nodes"): the leader's options (lead a card, declare a marriage
  and lead its king or queen, exchange, close, claim) times the follower's answers; everything is
  relative to the leader, so both seats share one transposition table;
- a transposition table of lead nodes holding bounds and the best move, keyed by the state's shape
  (hands, trick flags, pending marriages, closing and its snapshot, talon, trump card, claim right)
  and the points: more points of mine and fewer of the other's never lower my value, so an entry's
  bounds also hold at dominated points (:class:`Search`), shared by positions whose played points
  were split differently;
- null-window tests over the tiny value range (is the value at least t?) in the order of
  :data:`PROBES`: at least 2, at most -2, then who wins, the costly test, last;
- move order: the table's move, else the last move that cut at the same talon size (a killer move,
  while the talon is open), then exchange, close, marriages, cards the follower cannot beat; the
  follower's answers: the last answer that refuted the same card at the same talon size, the dearest
  winning card, then a cheap losing card, then the rest (the killers start afresh with each position);
- while the talon is open, an answer already known to refute a lead is found before searching
  (enhanced transposition cut-off), and an answer that ends the deal is valued at once;
- exact cut-offs from the rules: a correct claim ends the search (rules.md 7: never worse than playing
  on); a closer who cannot reach 66 any more has lost; sure winners that reach 66 win; game points are
  bounded by the tables of rules.md 4.2 (no trick, 33 points, the closing snapshot) and by who can
  still reach 66 (remaining card points, possible marriages, trumps the other cannot beat): without a
  closed talon, one who cannot reach 66 wins at most 1 game point, in Sixty-Six too (all 130 points
  are shared out, so winning on points leaves the other at least 65);
- a plain lead of a king or queen is skipped inside the tree when the marriage with the same card is
  legal (more points never hurt their owner); every action is still valued at the root.
- Sixty-Six once the talon is gone: no marriage can come any more, so the tricks left are a game
  of points alone. Without marriages counted only one side can make 66, so the points the leader
  makes sure of (:meth:`Search.secure`, a search over points whose table is keyed by the two hands)
  say who wins (:meth:`Search.race`); the search itself goes on only to tell how much, or when
  marriages let both sides make 66. (Not on the six-card lead right after the talon ran out in a
  search begun with it open: its five-card races cost less there.)

Claims are valued by their outcome, false ones included: one can be the best action (see the
example: player 1 closed before player 0 won a trick).

>>> from bummerl import Deal, Rules
>>> from bummerl.search.position import from_deal
>>> deck = "TC AD AH AS TD JS QS QD KH KS TH AC QH QC JH KC KD JC TS JD"
>>> deal = Deal.from_deck(Rules.preset("standard"), deck, dealer=1)
>>> for a in ("play AH", "play JS", "play TH", "play QD", "close", "play AS", "play QH", "play AC",
...           "play TC", "play QC", "play KH", "play TD", "play AD"):
...     deal.apply(a)
>>> value, actions, nodes = solve_position(from_deal(deal), True)
>>> value, actions  # player 1 closed before 0 won a trick: claiming (26) falsely loses 2, JH (13) loses 3
(-2, {26: -2, 13: -3})
"""

from __future__ import annotations

import threading
from array import array
from typing import Any

try:
    import cython
except ImportError:  # no Cython installed: the module runs as plain Python all the same
    from bummerl.search import _nocython as cython

__all__ = ["COMPILED", "Search", "analyse", "solve_position"]

#: True when this module runs as the compiled C extension.
COMPILED: bool = cython.compiled

if not cython.compiled:
    # The bit helpers; the compiled module takes them from the C compiler instead (core.pxd).
    def ctz(x: int) -> int:
        """The index of the lowest set bit of a nonzero mask."""
        return (x & -x).bit_length() - 1

    def bitlen(x: int) -> int:
        """The number of bits needed for a mask (0 for 0)."""
        return x.bit_length()

    def popcount(x: int) -> int:
        """The number of set bits."""
        return x.bit_count()


# ---------------------------------------------------------------------------------- constant tables
_PTS = (0, 2, 3, 4, 10, 11)
P = [_PTS[c % 6] for c in range(24)]
SUIT = [0x3F << (6 * s) for s in range(4)]
HIGHER = [sum(1 << x for x in range(c + 1, (c // 6) * 6 + 6)) for c in range(24)]
RANKS = [sum(1 << (s * 6 + r) for s in range(4)) for r in range(6)]
QUEENS: int = sum(1 << (s * 6 + 2) for s in range(4))
CHUNK = [sum(_PTS[r] for r in range(6) if m >> r & 1) for m in range(64)]
SWAP = [0, 2, 1]
#: The order of the root's null-window tests "is the value at least t?" (:meth:`Search.exact`): with
#: the talon open, outside-in (at least 2? at most -2? then who wins); with it gone, top-down.
PROBES = [2, -1, 1, 3, -2, 0, 2, 1, 3, 0, -1, -2]

#: Move codes inside the search: 0..23 play a card, 32 + card declare its marriage and lead it.
EXCHANGE_MOVE = 24
CLOSE_MOVE = 25
MARRY = 32
#: No value: what :func:`_cut` says when a node's bounds do not settle its window.
NO_CUT = -999
# Action codes of the contract (bummerl.actions).
A_EXCHANGE, A_CLOSE, A_CLAIM, A_PASS, A_MARRY = 24, 25, 26, 27, 28
# Rule flags (bummerl.search.position.F_*).
F_SIXTY_SIX, F_AUTO, F_ALLOW_CLOSE, F_CLOSE_TWO, F_EXCH_TWO, F_EXCH_TRICK = 1, 2, 4, 8, 16, 32
F_MARRY_TRICK, F_LEADS_KING, F_NEXT_TRICK, F_TOURNAMENT, F_MIRROR = 64, 128, 256, 512, 1024
# Position kinds (bummerl.search.position).
K_LEAD, K_MARRIED, K_FOLLOW, K_ENDING = 0, 1, 2, 3
# What a null-window test searches (Search.run_job).
J_LEAD, J_RESPOND, J_FOLLOWER, J_MARRIED = 0, 1, 2, 3


def _wins(c: int, f: int, trump: int) -> bool:
    """Does the leader's c beat the follower's f?"""
    return f < c if f // 6 == c // 6 else f // 6 != trump


def _answer_order() -> tuple[list[int], list[int], list[int]]:
    """The follower's answers to each lead, best first, for each trump: order, rank of a card, split.

    The answers that win the trick come first, the dearest same-suit card first and trumps cheap first;
    then those that lose it, the cheapest first; ties go to the lower card. Row ``trump * 24 + c``:
    ``order[row * 24 + i]`` is the i-th card, ``rank[row * 24 + f]`` the place of card f and
    ``split[row]`` the number of winning answers.
    """
    order, rank, split = [0] * 2304, [0] * 2304, [0] * 96
    for trump in range(4):
        for c in range(24):
            row = trump * 24 + c

            def key(f: int, c: int = c, trump: int = trump) -> tuple[int, int]:
                if _wins(c, f, trump):
                    return 40 + P[f] - P[c], f
                return (8 - P[f] if f // 6 != c // 6 else -P[f]), f

            cards = sorted(range(24), key=key)
            for i, f in enumerate(cards):
                order[row * 24 + i] = f
                rank[row * 24 + f] = i
            split[row] = sum(not _wins(c, f, trump) for f in range(24))
    return order, rank, split


_ORDERS = _answer_order()
ORDER = _ORDERS[0]
RANK = _ORDERS[1]
SPLIT = _ORDERS[2]


def _move_slots() -> list[int]:
    """The leader's moves laid out on 64 bits, best first; ``slots[trump * 64 + bit]`` is the move.

    Bit 0 exchange, 1 close, 2..9 marriages (kings by suit, then queens), 10..33 cards the follower
    cannot beat, 34..57 the other plain cards, 58..63 the other trumps; within a group the dearest
    card first, then the lower suit (``NOW_SLOT`` and ``CARD_SLOT`` place a card).
    """
    slots = [0] * 256
    for trump in range(4):
        base = trump * 64
        slots[base] = EXCHANGE_MOVE
        slots[base + 1] = CLOSE_MOVE
        for s in range(4):
            slots[base + 2 + s] = MARRY + s * 6 + 3
            slots[base + 6 + s] = MARRY + s * 6 + 2
        for c in range(24):
            pos = (5 - c % 6) * 4 + c // 6
            slots[base + 10 + pos] = c
            slots[base + 34 + pos] = c
        for r in range(6):
            slots[base + 58 + 5 - r] = trump * 6 + r
    return slots


SLOTS = _move_slots()
#: A lead's bit in SLOTS: ``NOW_SLOT[card]`` when the follower cannot beat it, else
#: ``CARD_SLOT[trump * 24 + card]`` (plain cards, then trumps).
NOW_SLOT = [10 + (5 - c % 6) * 4 + c // 6 for c in range(24)]
CARD_SLOT = [63 - c % 6 if c // 6 == t else 34 + (5 - c % 6) * 4 + c // 6
             for t in range(4) for c in range(24)]


def _table(tricks: int, points: int) -> int:
    return 3 if tricks == 0 else (2 if points < 33 else 1)


def _mask_points(m: int) -> int:
    return CHUNK[m & 63] + CHUNK[m >> 6 & 63] + CHUNK[m >> 12 & 63] + CHUNK[m >> 18 & 63]


def _cheapest(hand: int, k: int) -> int:
    """The card points of the k cheapest cards of a hand (cards are cheapest by rank)."""
    total = 0
    for r in range(6):
        x = hand & RANKS[r]
        n = popcount(x) if cython.compiled else x.bit_count()
        if n >= k:
            return total + k * P[r]
        total += n * P[r]
        k -= n
    return total


def _above(h1: int, h2: int, suit: int) -> int:
    """The cards of h1 in a suit above all of h2's cards of that suit."""
    o = h2 & SUIT[suit]
    top = bitlen(o) if cython.compiled else o.bit_length()
    return h1 & SUIT[suit] >> top << top


def _cashed(sure: int, other: int) -> int:
    """The card points that sure winners take when cashed: theirs and the other hand's cheapest cards."""
    if not sure:
        return 0
    n = popcount(sure) if cython.compiled else sure.bit_count()
    return _mask_points(sure) + _cheapest(other, n)


def _low(m: int) -> int:
    """The lowest set bit of a non-empty mask."""
    return ctz(m) if cython.compiled else (m & -m).bit_length() - 1


def _cut(lo: int, hi: int, alpha: int, beta: int) -> int:
    """The value that bounds lo..hi settle for the window alpha..beta, or NO_CUT."""
    if lo >= beta or lo == hi:
        return lo
    if hi <= alpha:
        return hi
    return NO_CUT


def _narrow(lo: int, hi: int, alpha: int, beta: int) -> tuple[int, int]:
    """The window alpha..beta narrowed by a node's bounds lo..hi (that do not settle it: :func:`_cut`)."""
    return (lo if lo > alpha else alpha, hi if hi < beta else beta)


def _settled(best: int, alpha: int, beta: int, lo: int, hi: int) -> tuple[int, int]:
    """A node's bounds lo..hi once its search in the window alpha..beta gave best (fail-soft): a lower
    bound above alpha, an upper bound below beta, exact inside the window."""
    return (best if best > alpha else lo, best if best < beta else hi)


def _top_points(m: int) -> int:
    """The points of the dearest card of a mask (0 for none)."""
    for r in range(5, -1, -1):
        if m & RANKS[r]:
            return P[r]
    return 0


# Odd constants that mix a key's bits (the table's hash).
MIX1, MIX2, MIX3, MASK64 = 0x9E3779B97F4A7C15, 0xC2B2AE3D27D4EB4F, 0xBF58476D1CE4E5B9, (1 << 64) - 1
#: The transposition table: 2**16 entries of 16 bytes (1 MB, cache-sized) in buckets of 4.
TT_BITS = 16
TT_SIZE = 1 << TT_BITS
TT_WAYS = 4
#: The table of :meth:`Search.secure`: 2**15 entries of 16 bytes in buckets of 2.
GT_BITS = 14
GT_SIZE = 1 << GT_BITS
GT_WAYS = 2
#: The two hands in a key's first word.
HANDS = (1 << 48) - 1


class Search:
    """One search's settings and memory: the rules' flags, the talon, the transposition table.

    Not shared between threads (:func:`solve_position` keeps one per thread). The transposition
    table is the same in both modes (a fixed cache-sized array of 4-entry buckets), so the compiled
    and the plain-Python search visit the same nodes and give the same values.

    An entry is keyed by a lead node's *shape*, everything but the two players' points, and holds
    the points with the bounds: a player's value never falls when they have more points and the
    other fewer (rules.md 4.2-4.4: reaching 66 sooner, a lower table for the other), so a lower
    bound found with fewer points of mine (more of the other's) holds here too, and an upper bound
    found with more of mine (fewer of the other's). The positions with the same cards left differ
    mostly in how the played points were split, so these bounds are shared widely. Not with
    ``false_claim=mirror``: there a false claim costs less when the other has more points, so only
    the entry with the same points counts.
    """

    # Declared for mypy; the compiled class takes its fields from core.pxd.
    s66: int
    manual: int
    viennese: int
    mirror: int
    allow_close: int
    close_two: int
    exch_two: int
    exch_trick: int
    marry_trick: int
    leads_king: int
    next_trick: int
    trump: int
    bonus_ok: int
    low_trump_card: int
    tmask: int
    low_trump: int
    win_bit: Any
    lose_bit: Any
    fd_mask: Any
    killer: Any
    rkill: Any
    nodes: int
    tt: dict[int, dict[int, int]]
    gt: dict[int, int]
    words: Any
    tab: Any
    gwords: Any
    gtab: Any
    gen: int
    ho0: int
    po0: int
    tm0: int
    to0: int
    qo0: int
    cl0: int
    sw0: int
    sf0: int
    ts0: int
    tc0: int

    def __init__(self) -> None:
        self.win_bit = [0] * 14
        self.lose_bit = [0] * 14
        self.fd_mask = [0] * 14
        self.killer = [-1] * 14
        self.rkill = [-1] * 336
        self.tt = {}
        self.gt = {}
        self.nodes = 0
        self.gen = 0
        if cython.compiled:
            self.words = array("Q", bytes(16 * TT_SIZE))
            self.gwords = array("Q", bytes(16 * GT_SIZE))
            self.bind()

    # ------------------------------------------------------------------ the transposition table
    def bind(self) -> None:
        """(C only) Point ``tab`` at the words of the table."""
        view = self.words
        self.tab = cython.address(view[0])
        view = self.gwords
        self.gtab = cython.address(view[0])

    def tt_find(self, k1: int, k2: int) -> int:
        """(C only) The first slot of the shape's bucket (TT_WAYS slots of two words, one cache line).

        A slot's first word is ``k1``: both hands (48 bits) and the shape's low 16 bits; its second
        holds the shape's high 8 bits, the points (pm | po << 8) from bit 8, the search's generation
        from bit 24, the depth from bit 40 and the entry (bounds, best move) from bit 48.
        """
        h = (k1 * MIX1 ^ k2 * MIX2) & MASK64
        h ^= h >> 29
        return ((h * MIX3 & MASK64) >> (64 - TT_BITS)) & (TT_SIZE - TT_WAYS)

    def tt_get(self, k1: int, k2: int, pts: int) -> int:
        """What the table knows of a lead node, or -1 if nothing of its shape is there.

        Packed as (lo + 3) | (hi + 3) << 3 | (best move + 1) << 6 | exact << 12: the bounds of every
        entry of the shape whose points dominate (see the class), the best move of the entry with
        these points, and whether there is one (then ``bounds`` was already applied).
        """
        acc = 6 << 3
        if not cython.compiled:
            entries = self.tt.get(k2 << 64 | k1)
            if entries is None:
                return -1
            for ep, ent in entries.items():
                acc = self.merge(acc, ep, ent, pts)
            return acc
        b = self.tt_find(k1, k2)
        found = 0
        for i in range(b, b + TT_WAYS):
            w = self.tab[2 * i + 1]
            if self.tab[2 * i] == k1 and (w & 0xFF) == k2 and (w >> 24 & 0xFFFF) == self.gen:
                found = 1
                acc = self.merge(acc, w >> 8 & 0xFFFF, w >> 48, pts)
        return acc if found else -1

    def merge(self, acc: int, ep: int, ent: int, pts: int) -> int:
        """Add an entry stored at points ``ep`` to what :meth:`tt_get` knows (``acc``) at ``pts``."""
        pm = pts & 0xFF
        po = pts >> 8
        if ep == pts:
            acc = (acc & 0x3F) | (ent >> 6) << 6 | 1 << 12
            use_lo = 1
            use_hi = 1
        elif self.mirror:
            return acc
        else:
            # A lower bound found with fewer points of mine and more of the other's holds here;
            # an upper bound found with more of mine and fewer of the other's too.
            use_lo = 1 if (ep & 0xFF) <= pm and (ep >> 8) >= po else 0
            use_hi = 1 if (ep & 0xFF) >= pm and (ep >> 8) <= po else 0
        if use_lo and (ent & 7) > (acc & 7):
            acc = (acc & ~7) | (ent & 7)
        if use_hi and (ent & 0x38) < (acc & 0x38):
            acc = (acc & ~0x38) | (ent & 0x38)
        return acc

    def tt_put(self, k1: int, k2: int, depth: int, entry: int) -> None:
        """(C only) Store over the same key (points included), else over an entry of an earlier search, else
        over the shallowest. ``k2`` here holds the shape's high bits and the points."""
        b = self.tt_find(k1, k2 & 0xFF)
        e = b
        for i in range(b, b + TT_WAYS):
            w = self.tab[2 * i + 1]
            old = self.tab[2 * e + 1]
            if self.tab[2 * i] == k1 and (w & 0xFFFFFF) == k2 and (w >> 24 & 0xFFFF) == self.gen:
                e = i
                break
            if (w >> 24 & 0xFFFF) != self.gen:
                if (old >> 24 & 0xFFFF) == self.gen:
                    e = i
            elif (old >> 24 & 0xFFFF) == self.gen and (w >> 40 & 0xFF) < (old >> 40 & 0xFF):
                e = i
        self.tab[2 * e] = k1
        self.tab[2 * e + 1] = k2 | self.gen << 24 | depth << 40 | entry << 48

    def store(self, k1: int, k2: int, pts: int, lo: int, hi: int, move: int) -> None:
        """Remember a lead node's bounds and best move (the deeper positions are kept first)."""
        entry = (lo + 3) | (hi + 3) << 3 | (move + 1) << 6
        if cython.compiled:
            self.tt_put(k1, k2 | pts << 8, popcount(k1 & HANDS) + (k1 >> 62 | (k2 & 3) << 2), entry)
        else:
            entries = self.tt.get(k2 << 64 | k1)
            if entries is None:
                self.tt[k2 << 64 | k1] = {pts: entry}
            else:
                entries[pts] = entry

    def gt_get(self, key: int) -> int:
        """The entry of :meth:`secure`'s table for two hands, or -1: lo | hi << 8 | (best lead + 1) << 16.

        (C: a slot is the key, then the generation, the entry from bit 16 and the depth from bit 40.)
        """
        ent: int = -1
        if not cython.compiled:
            ent = self.gt.get(key, -1)
            return ent
        b = self.gt_find(key)
        for i in range(b, b + GT_WAYS):
            w = self.gtab[2 * i + 1]
            if self.gtab[2 * i] == key and (w & 0xFFFF) == self.gen:
                ent = w >> 16 & 0xFFFFFF
        return ent

    def gt_find(self, key: int) -> int:
        """(C only) The first slot of the key's bucket in :meth:`secure`'s table."""
        h = (key * MIX1) & MASK64
        h ^= h >> 29
        return ((h * MIX3 & MASK64) >> (64 - GT_BITS)) & (GT_SIZE - GT_WAYS)

    def gt_put(self, key: int, entry: int, depth: int) -> None:
        """Store over the same key, else over an entry of an earlier search, else over the shallowest."""
        if not cython.compiled:
            self.gt[key] = entry
            return
        b = self.gt_find(key)
        e = b
        for i in range(b, b + GT_WAYS):
            w = self.gtab[2 * i + 1]
            old = self.gtab[2 * e + 1]
            if self.gtab[2 * i] == key and (w & 0xFFFF) == self.gen:
                e = i
                break
            if (w & 0xFFFF) != self.gen:
                if (old & 0xFFFF) == self.gen:
                    e = i
            elif (old & 0xFFFF) == self.gen and (w >> 40) < (old >> 40):
                e = i
        self.gtab[2 * e] = key
        self.gtab[2 * e + 1] = self.gen | entry << 16 | depth << 40

    # ------------------------------------------------------------------ the values of the rules
    def claim_win(self, to: int, po: int, cl: int, sw: int, sf: int) -> int:
        """A correct claim by me (rules.md 4.2)."""
        if cl == 2:
            return sf
        if cl == 1 and self.viennese:
            return sw
        return 3 if to == 0 else (2 if po < 33 else 1)

    def false_claim(self, to: int, po: int, cl: int, sf: int) -> int:
        if cl == 1:
            return -sf
        if self.mirror:
            return -(3 if to == 0 else (2 if po < 33 else 1))
        return -3 if to == 0 else -2

    def passed(self, pm: int, po: int, tm: int, to: int, cl: int, sf: int) -> int:
        """rules.md 4.4 for me, the winner of the last trick, when nobody claims."""
        if cl == 1:
            return -sf
        if cl == 2:
            return sf
        if not self.s66:
            return 1
        if pm > po:
            return 3 if to == 0 else (2 if po < 33 else 1)
        if pm < po:
            return -(3 if tm == 0 else (2 if pm < 33 else 1))
        return 0

    def all_played(self, pm: int, po: int, tm: int, to: int, cl: int, sf: int) -> int:
        """The last trick's winner without a correct claim: pass, or (by hand) a false claim if better."""
        v = self.passed(pm, po, tm, to, cl, sf)
        if self.manual:
            fc = self.false_claim(to, po, cl, sf)
            if fc > v:
                v = fc
        return v

    # ------------------------------------------------------------------ the search
    def respond(self, c: int, fmask: int, hm: int, ho: int, pm: int, po: int, tm: int, to: int, qm: int,
                qo: int, cl: int, sw: int, sf: int, ts: int, tc: int, alpha: int, beta: int) -> int:
        """Me led c (hm no longer holds it); op answers from fmask (0: every legal card). Value for me.

        First every answer's outcome is looked at without searching: a trick that ends the deal, or a
        position after it already known well enough to refute the lead (enhanced transposition
        cut-off). Then the others are searched in :data:`ORDER`, except that after a first answer that
        wins the trick the cheapest losing one comes next.
        """
        trump = self.trump
        if not fmask:
            fmask = ho if ts else ho & HIGHER[c] or ho & SUIT[c // 6] or ho & self.tmask or ho
        cs = c // 6
        pc = P[c]
        nts = ts - 2 if ts else 0
        ntc = tc if nts else 0
        row = (trump * 24 + c) * 24
        manual = self.manual
        vmin = 4
        todo = 0
        m = fmask
        while m:
            f = ctz(m) if cython.compiled else (m & -m).bit_length() - 1
            low = m & -m
            m ^= low
            pts = pc + P[f]
            # The trick's winner (w) leads next; its value is searched from w's side, so sign
            # turns it into mine.
            if (f < c) if f // 6 == cs else f // 6 != trump:  # _wins(c, f, trump), inline
                sign, wh, lh, wp, lp, lt, lq, wcl = 1, hm, ho ^ low, pm + qm + pts, po, to, qo, cl
            else:
                sign, wh, lh, wp, lp, lt, lq, wcl = -1, ho ^ low, hm, po + qo + pts, pm, tm, qm, SWAP[cl]
            # The winner draws the talon's top card, the loser the next (the trump card when two are left).
            h1 = wh | self.win_bit[ts]
            h2 = lh | self.lose_bit[ts] | (1 << tc if ts == 2 else 0)
            if not h1 and cl == 0:
                wp += self.bonus_ok
            if wp >= 66:
                v = sign * self.claim_win(lt, lp, wcl, sw, sf)
            elif not h1:
                v = sign * self.all_played(wp, lp, 1, lt, wcl, sf)
            else:
                if ts:
                    k2 = (1 | lt << 1 | lq // 20 << 5 | wcl << 8 | sw << 10 | sf << 12 | nts << 14 | ntc << 18
                          | manual << 23)
                    k1 = (k2 & 0xFFFF) << 48 | h2 << 24 | h1
                    ent = self.tt_get(k1, k2 >> 16, wp | lp << 8)
                    if ent >= 0:
                        v = (ent >> 3 & 7) - 3 if sign > 0 else 3 - (ent & 7)  # my upper bound
                        if v <= alpha:
                            return v
                todo |= 1 << RANK[row + f]
                continue
            # the deal ends with this trick
            if v < vmin:
                vmin = v
                if v <= alpha:
                    return v
        split = SPLIT[trump * 24 + c]
        step = 0
        kf = self.rkill[ts * 24 + c]  # the last answer that refuted c at this talon size
        while todo:
            b = ctz(todo) if cython.compiled else (todo & -todo).bit_length() - 1
            if step == 0 and kf >= 0 and todo >> RANK[row + kf] & 1:
                b = RANK[row + kf]
            elif step == 1 and b < split and todo >> split:
                # After the best winning answer, the cheapest losing one.
                b = ctz(todo >> split << split) if cython.compiled else \
                    (todo >> split << split & -(todo >> split << split)).bit_length() - 1
            step += 1
            todo ^= 1 << b
            f = ORDER[row + b]
            low = 1 << f
            pts = pc + P[f]
            bnd = vmin if vmin < beta else beta
            if b >= split:
                sign, wh, lh, wp, lp, lt, lq, wcl = 1, hm, ho ^ low, pm + qm + pts, po, to, qo, cl
                a, bb = alpha, bnd
            else:
                sign, wh, lh, wp, lp, lt, lq, wcl = -1, ho ^ low, hm, po + qo + pts, pm, tm, qm, SWAP[cl]
                a, bb = -bnd, -alpha
            h1 = wh | self.win_bit[ts]
            h2 = lh | self.lose_bit[ts] | (1 << tc if ts == 2 else 0)
            v = sign * self.lead(h1, h2, wp, lp, 1, lt, 0, lq, wcl, sw, sf, nts, ntc, manual, a, bb)
            if v < vmin:
                vmin = v
                if v <= alpha:
                    self.rkill[ts * 24 + c] = f
                    return v
        return vmin

    def bounds(self, hm: int, ho: int, pm: int, po: int, tm: int, to: int, qm: int, qo: int, cl: int,
               sw: int, sf: int, ts: int, tc: int) -> int:
        """Bounds on a lead node's value before searching it, packed as (lo + 3) | (hi + 3) << 3.

        From what each player can still reach (rules.md 4.2, 4.4): remaining card points, possible
        marriages, and, with the talon gone, trumps the other cannot beat.
        """
        unplayed = hm | ho
        tmask = self.tmask
        if ts:
            unplayed |= self.fd_mask[ts] | 1 << tc
            pairs = unplayed & unplayed >> 1 & QUEENS
            mm = 20 * (popcount(pairs) if cython.compiled else pairs.bit_count())
            mm += 20 if pairs & tmask else 0
            mo = mm
        elif self.s66:
            mm = 0
            mo = 0
        else:
            pairs = hm & hm >> 1 & QUEENS
            mm = 20 * (popcount(pairs) if cython.compiled else pairs.bit_count())
            mm += 20 if pairs & tmask else 0
            pairs = ho & ho >> 1 & QUEENS
            mo = 20 * (popcount(pairs) if cython.compiled else pairs.bit_count())
            mo += 20 if pairs & tmask else 0
        rest = _mask_points(unplayed) + (self.bonus_ok if cl == 0 else 0)
        reach_m = pm + qm + rest + mm
        reach_o = po + qo + rest + mo
        if not ts:
            # Trumps above all the other's trumps win whatever the other does: the other never
            # gets their points, nor those of the cheapest cards played to them.
            if ho & tmask:
                reach_m -= _cashed(_above(ho, hm, self.trump), hm)
            if hm & tmask:
                reach_o -= _cashed(_above(hm, ho, self.trump), ho)
        if cl == 1:
            if reach_m < 66:
                return (3 - sf) * 9
            hi = sw if self.viennese else (3 if to == 0 else (2 if po < 33 else 1))
            lo = -sf
        elif cl == 2:
            if reach_o < 66:
                return (3 + sf) * 9
            hi = sf
            lo = -(sw if self.viennese else (3 if tm == 0 else (2 if pm < 33 else 1)))
        else:
            # Whoever cannot reach 66 wins at most 1: in Sixty-Six the winner on points leaves the
            # other 65 or more of the 130 (the last trick's 10 included).
            hi = 3 if to == 0 else (2 if po < 33 else 1)
            if reach_m < 66:
                hi = 1
            if self.allow_close and (ts >= 6 or (ts == 4 and self.close_two)):
                w = 3 if tm == 0 else 2
                if w > hi:
                    hi = w
            lo = -(3 if tm == 0 else (2 if pm < 33 else 1))
            if reach_o < 66:
                lo = -1
        return (lo + 3) | (hi + 3) << 3

    def lead(self, hm: int, ho: int, pm: int, po: int, tm: int, to: int, qm: int, qo: int, cl: int, sw: int,
             sf: int, ts: int, tc: int, claim: int, alpha: int, beta: int) -> int:
        """Value for me, the leader, before anything is declared this turn (fail-soft)."""
        self.nodes += 1
        if claim and pm >= 66:
            return self.claim_win(to, po, cl, sw, sf)
        trump = self.trump
        if not ts and not hm & (hm - 1):
            # The last trick: one card each.
            c = ctz(hm) if cython.compiled else hm.bit_length() - 1
            f = ctz(ho) if cython.compiled else ho.bit_length() - 1
            pts = P[c] + P[f] + (self.bonus_ok if cl == 0 else 0)
            fc = self.false_claim(to, po, cl, sf) if claim else -4
            if _wins(c, f, trump):
                pm += qm + pts
                v = (self.claim_win(to, po, cl, sw, sf) if pm >= 66 else
                     self.all_played(pm, po, 1, to, cl, sf))
            else:
                po += qo + pts
                ocl = SWAP[cl]
                v = -(self.claim_win(tm, pm, ocl, sw, sf) if po >= 66 else
                      self.all_played(po, pm, 1, tm, ocl, sf))
            return fc if fc > v else v
        # The table's key: the shape (hands and the state's small fields) and the points.
        k2 = (tm | to << 1 | qm // 20 << 2 | qo // 20 << 5 | cl << 8 | sw << 10 | sf << 12 | ts << 14
              | tc << 18 | claim << 23)
        k1 = (k2 & 0xFFFF) << 48 | ho << 24 | hm
        k2 >>= 16
        pts = pm | po << 8
        ent = self.tt_get(k1, k2, pts)
        if ent >= 0 and ent >> 12:
            lo = (ent & 7) - 3
            hi = (ent >> 3 & 7) - 3
            bm = (ent >> 6 & 63) - 1
            v = _cut(lo, hi, alpha, beta)
            if v != NO_CUT:
                return v
        else:
            bm = -1
            b = self.bounds(hm, ho, pm, po, tm, to, qm, qo, cl, sw, sf, ts, tc)
            lo = (b & 7) - 3
            hi = (b >> 3 & 7) - 3
            if ent >= 0:  # bounds from entries of the same shape with other points
                if (ent & 7) - 3 > lo:
                    lo = (ent & 7) - 3
                if (ent >> 3 & 7) - 3 < hi:
                    hi = (ent >> 3 & 7) - 3
            if lo == hi:
                self.store(k1, k2, pts, lo, lo, -1)
                return lo
            if lo >= beta:
                return lo
            if hi <= alpha:
                return hi
        if (self.s66 and not ts and not qm | qo and pm < 66 and po < 66
                and (cl or not self.ts0 or (popcount(hm) if cython.compiled else hm.bit_count()) < 6)):
            # Sixty-Six with the talon gone: who wins, from the points each side makes sure of.
            # Not on the first lead after the talon ran out in a search begun with it open (six
            # cards each): the five-card races of the search below cost less there than one
            # six-card race (measured); a closed game needs it, it decides the game at once.
            b = self.race(hm, ho, pm, po, cl, alpha, beta)
            if cl and self.viennese and not self.manual:
                # Closed, claims automatic: who wins decides the value (rules.md 4.2, 4.3); with
                # claims by hand the loser may do better by a false claim.
                if (b & 7) - 3 > 0:
                    return sw if cl == 1 else sf
                if (b >> 3 & 7) - 3 < 0:
                    return -sf if cl == 1 else -sw
            if (b & 7) - 3 > lo:
                lo = (b & 7) - 3
            if (b >> 3 & 7) - 3 < hi:
                hi = (b >> 3 & 7) - 3
            v = _cut(lo, hi, alpha, beta)
            if v != NO_CUT:
                return v
        alpha, beta = _narrow(lo, hi, alpha, beta)
        a0 = alpha
        # Marriages the leader may declare now (queen bits of the suits).
        pairs = hm & hm >> 1 & QUEENS if (tm or not self.marry_trick) and (ts or not self.s66) else 0
        best = -4
        move = -1
        if self.manual and (claim or pairs):
            best = self.false_claim(to, po, cl, sf)
            if best > alpha:
                alpha = best
                if alpha >= beta:
                    self.store(k1, k2, pts, lo if lo > best else best, hi, -1)
                    return best
        # Sure winners: cards op cannot beat, now and (with the talon gone) later: trumps above op's
        # trumps, and when op has no trump, cards above op's cards of their suit. Once the talon is
        # gone op's hand only shrinks, so they can be cashed one after another.
        otr = ho & self.tmask
        sure = 0
        now = 0
        for s in range(4):
            if not hm & SUIT[s]:
                continue
            if s == trump or not otr:
                sure |= _above(hm, ho, s)
            elif ho & SUIT[s] and not ts:
                now |= _above(hm, ho, s)
        now |= sure
        need = 66 - pm - qm
        if now and need <= (22 if ts else _mask_points(hm | ho)):
            # A claim op cannot stop: win the next trick (cash every sure winner once the talon is
            # gone) and reach 66. (Checked only when a trick or a few could be enough.)
            gain = _top_points(now) + _cheapest(ho, 1)
            if sure and not ts and gain < need:
                n = popcount(sure) if cython.compiled else sure.bit_count()
                g = _mask_points(sure) + _cheapest(ho, n)
                if g > gain:
                    gain = g
            if gain >= need:
                v = self.claim_win(to, po, cl, sw, sf)
                self.store(k1, k2, pts, v, v, -1)
                return v
        # The leader's options, best first: one bit each in the order of SLOTS.
        moves = 0
        one = 1
        first = -1
        km = self.killer[ts] if ts else -2  # the last move that cut at this talon size (killer)
        kbit = -1
        m = hm
        while m:
            c = ctz(m) if cython.compiled else (m & -m).bit_length() - 1
            m &= m - 1
            r = c % 6
            if pairs and (r == 3 or (r == 2 and not self.leads_king)) and pairs >> (c - r + 2) & 1:
                mv = MARRY + c
                bit = 2 + c // 6 + (0 if r == 3 else 4)
            else:
                mv = c
                bit = NOW_SLOT[c] if now >> c & 1 else CARD_SLOT[trump * 24 + c]
            moves |= one << bit
            if mv == bm:
                first = bit
            elif mv == km:
                kbit = bit
        if ts:
            if hm & self.low_trump and (ts > 2 or self.exch_two) and (tm or not self.exch_trick):
                moves |= 1
            if self.allow_close and (ts > 2 or self.close_two):
                moves |= 2
            # Slot 0 exchanges, slot 1 closes.
            if EXCHANGE_MOVE <= bm <= CLOSE_MOVE and moves >> (bm - EXCHANGE_MOVE) & 1:
                first = bm - EXCHANGE_MOVE
            elif EXCHANGE_MOVE <= km <= CLOSE_MOVE and moves >> (km - EXCHANGE_MOVE) & 1:
                kbit = km - EXCHANGE_MOVE
        if first < 0:
            first = kbit  # the table's move first, else the killer (its slot is cleared when tried)
        slots = trump * 64
        while first >= 0 or moves:
            b = first if first >= 0 else _low(moves)
            first = -1
            moves &= ~(one << b)
            mv = SLOTS[slots + b]
            if mv < 24:
                v = self.respond(mv, 0, hm ^ 1 << mv, ho, pm, po, tm, to, qm, qo, cl, sw, sf, ts, tc, alpha,
                                 beta)
            elif mv >= MARRY:
                c = mv - MARRY
                val = 40 if c // 6 == trump else 20
                if tm and not self.next_trick:
                    pm2 = pm + val
                    qm2 = qm
                else:
                    pm2 = pm
                    qm2 = qm + val
                if pm2 >= 66:  # a claim after the marriage is correct (by hand or automatic)
                    v = self.claim_win(to, po, cl, sw, sf)
                else:
                    v = self.respond(c, 0, hm ^ 1 << c, ho, pm2, po, tm, to, qm2, qo, cl, sw, sf, ts, tc,
                                     alpha, beta)
            elif mv == EXCHANGE_MOVE:
                v = self.lead(hm ^ self.low_trump | 1 << tc, ho, pm, po, tm, to, qm, qo, cl, sw, sf, ts,
                              self.low_trump_card, 0, alpha, beta)
            else:
                v = self.lead(hm, ho, pm, po, tm, to, qm, qo, 1, 3 if to == 0 else (2 if po < 33 else 1),
                              3 if to == 0 else 2, 0, 0, 0, alpha, beta)
            if v > best:
                best = v
                move = mv
                if v > alpha:
                    alpha = v
                    if v >= beta:
                        if ts:
                            self.killer[ts] = mv
                        break
        lo, hi = _settled(best, a0, beta, lo, hi)
        self.store(k1, k2, pts, lo, hi, move)
        return best

    # ------------------------------------------------------------------ Sixty-Six once the talon is gone
    def secure(self, h1: int, h2: int, rest: int, bonus: int, alpha: int, beta: int) -> int:
        """The card points the leader (hand h1) makes sure of in the tricks left, worth ``rest`` in all.

        Sixty-Six with the talon gone: no marriage any more, so the tricks left are a game of points
        alone, whoever holds which points now (fail-soft within alpha, beta). ``bonus`` is 1 while the
        last trick's 10 (in ``rest``) is to be won: not after closing. Its table is keyed by the hands
        alone, so one answer serves every split of the points played.
        """
        if beta <= 0:
            return 0
        if alpha >= rest:
            return rest
        self.nodes += 1
        trump = self.trump
        slots = trump * 64
        if not h1 & (h1 - 1):
            c = ctz(h1) if cython.compiled else h1.bit_length() - 1
            f = ctz(h2) if cython.compiled else h2.bit_length() - 1
            return rest if _wins(c, f, trump) else 0
        m = h1 & (h1 - 1)
        if not m & (m - 1):
            return self.last_two(h1, h2, rest)
        key = h1 | h2 << 24 | (HANDS + 1 if bonus else 0)
        ent = self.gt_get(key)
        bm = -1
        lo = 0
        hi = rest
        if ent < 0:
            # My sure winners (trumps above op's, and, when op has no trump, the cards above op's in
            # their suit) can be cashed one after another, each taking a card of op's; op's trumps
            # above mine win whenever op plays them (op's other top cards may have to be thrown away).
            lo = _cashed(self.sure_winners(h1, h2), h2)
            if lo >= beta:
                return lo
            hi = rest - _cashed(_above(h2, h1, trump), h1) if h2 & self.tmask else rest
            if hi <= alpha:
                return hi
        else:
            lo = ent & 0xFF
            hi = ent >> 8 & 0xFF
            bm = (ent >> 16) - 1
            v = _cut(lo, hi, alpha, beta)
            if v != NO_CUT:
                return v
            alpha, beta = _narrow(lo, hi, alpha, beta)
        a0 = alpha
        best = -1
        move = -1
        # Leads: the table's move, then cards op cannot beat, dearest first, then the rest, trumps last.
        otr = h2 & self.tmask
        now = 0
        for s in range(4):
            if h1 & SUIT[s] and (s == trump or h2 & SUIT[s] or not otr):
                now |= _above(h1, h2, s)
        moves = 0
        one = 1
        first = -1
        m = h1
        while m:
            c = ctz(m) if cython.compiled else (m & -m).bit_length() - 1
            m &= m - 1
            bit = NOW_SLOT[c] if now >> c & 1 else CARD_SLOT[trump * 24 + c]
            moves |= one << bit
            if c == bm:
                first = bit
        while first >= 0 or moves:
            b = first if first >= 0 else _low(moves)
            first = -1
            moves &= ~(one << b)
            c = SLOTS[slots + b]
            # op's answers, best first (ORDER): each trick's value to me, the least counts.
            hc = h1 ^ 1 << c
            fm = h2 & HIGHER[c] or h2 & SUIT[c // 6] or h2 & self.tmask or h2
            row = (trump * 24 + c) * 24
            todo = 0
            while fm:
                f = ctz(fm) if cython.compiled else (fm & -fm).bit_length() - 1
                fm &= fm - 1
                todo |= 1 << RANK[row + f]
            split = SPLIT[trump * 24 + c]
            vmin = 999
            while todo:
                b = ctz(todo) if cython.compiled else (todo & -todo).bit_length() - 1
                todo &= todo - 1
                f = ORDER[row + b]
                pts = P[c] + P[f]
                bnd = vmin if vmin < beta else beta
                if b >= split:  # I win the trick and lead on
                    v = pts + self.secure(hc, h2 ^ 1 << f, rest - pts, bonus, alpha - pts, bnd - pts)
                else:
                    v = rest - pts - self.secure(h2 ^ 1 << f, hc, rest - pts, bonus, rest - pts - bnd,
                                                 rest - pts - alpha)
                if v < vmin:
                    vmin = v
                    if v <= alpha:
                        break
            if vmin > best:
                best = vmin
                move = c
                alpha = best if best > alpha else alpha
                if alpha >= beta:
                    break
        lo, hi = _settled(best, a0, beta, lo, hi)
        self.gt_put(key, lo | hi << 8 | (move + 1) << 16, popcount(h1) if cython.compiled else h1.bit_count())
        return best

    def sure_winners(self, h1: int, h2: int) -> int:
        """The cards of h1 that win when led, the talon gone: trumps above all of h2's and, when h2 has no
        trump, the cards above all of h2's in their suit."""
        sure = 0
        for s in range(4):
            if h1 & SUIT[s] and (s == self.trump or not h2 & self.tmask):
                sure |= _above(h1, h2, s)
        return sure

    def last_two(self, h1: int, h2: int, rest: int) -> int:
        """:meth:`secure` with two cards each, worked out directly."""
        trump = self.trump
        best = 0
        m = h1
        while m:
            c = ctz(m) if cython.compiled else (m & -m).bit_length() - 1
            m &= m - 1
            c2 = _low(h1 ^ 1 << c)  # my other card
            fm = h2 & HIGHER[c] or h2 & SUIT[c // 6] or h2 & self.tmask or h2
            vmin = rest
            while fm:
                f = ctz(fm) if cython.compiled else (fm & -fm).bit_length() - 1
                fm &= fm - 1
                f2 = _low(h2 ^ 1 << f)
                pts = P[c] + P[f]
                # _wins(c, f, trump): then I lead the last card too, else op does.
                if (f < c) if f // 6 == c // 6 else f // 6 != trump:
                    v = pts + (rest - pts if ((f2 < c2) if f2 // 6 == c2 // 6 else f2 // 6 != trump) else 0)
                else:
                    v = 0 if ((c2 < f2) if c2 // 6 == f2 // 6 else c2 // 6 != trump) else rest - pts
                if v < vmin:
                    vmin = v
            if vmin > best:
                best = vmin
        return best

    def at_least(self, hm: int, ho: int, rest: int, bonus: int, t: int) -> int:
        """Does the leader make sure of t card points in the tricks left (:meth:`secure`)?"""
        return 1 if self.secure(hm, ho, rest, bonus, t - 1, t) >= t else 0

    def race(self, hm: int, ho: int, pm: int, po: int, cl: int, alpha: int, beta: int) -> int:
        """Sixty-Six, talon gone, no marriage pending: who wins, from :meth:`secure`.

        Packed as (lo + 3) | (hi + 3) << 3 (nothing known: -3, 3). If I make sure of G more points,
        I end with at least pm + G and op with at most po + rest - G, and op can hold me to pm + G.
        Without marriages counted only one of us can make 66 (the 120 card points and the last
        trick's 10 are all there is), so G decides: at least 66 - pm, I reach 66 and op never does;
        below po + rest - 65, op does and I never do; in between (one point, talon exhausted) a
        draw. The closer who does not reach 66 loses, so a closed game is won or lost. With
        marriages counted both may make 66 and who gets there first is left to the search. Only
        the questions the window asks are put: do I win (alpha >= 0), do I lose (beta <= 0).
        """
        bonus = 0 if cl else 1
        rest = _mask_points(hm | ho) + (self.bonus_ok if bonus else 0)
        t1 = 66 - pm  # G >= t1: I reach 66
        t2 = po + rest - 65  # G >= t2: op never does
        if t1 < t2:
            return 6 << 3
        win = t2 if cl == 2 else t1
        lose = t1 if cl == 1 else t2
        lo = -3
        hi = 3
        if alpha >= 0 or beta >= 1:
            if self.at_least(hm, ho, rest, bonus, win):
                return 4 | 6 << 3
            hi = 0 if cl == 0 else -1
            if hi <= alpha:
                return (lo + 3) | (hi + 3) << 3
        if beta <= 0 or alpha <= -1:
            if not self.at_least(hm, ho, rest, bonus, lose):
                return 2 << 3
            lo = 0 if cl == 0 else 1
        return (lo + 3) | (hi + 3) << 3

    def married(self, suit: int, hm: int, pm: int, qm: int, alpha: int, beta: int) -> int:
        """The root leader has declared the marriage in suit (points added): claim, or lead its K or Q."""
        if pm >= 66:
            return self.claim_win(self.to0, self.po0, self.cl0, self.sw0, self.sf0)
        best = self.false_claim(self.to0, self.po0, self.cl0, self.sf0) if self.manual else -4
        for r in range(2):
            c = suit * 6 + 3 - r
            if (r and self.leads_king) or best >= beta:
                break
            a = alpha if alpha > best else best
            v = self.respond(c, 0, hm ^ 1 << c, self.ho0, pm, self.po0, self.tm0, self.to0, qm, self.qo0,
                             self.cl0, self.sw0, self.sf0, self.ts0, self.tc0, a, beta)
            if v > best:
                best = v
        return best

    # ------------------------------------------------------------------ the root
    def run_job(self, job: int, arg: int, fmask: int, hm: int, pm: int, qm: int, cl: int, sw: int, sf: int,
                ts: int, tc: int, claim: int, alpha: int, beta: int) -> int:
        """One test of a root job: the leader's position, a lead, an answer to a lead, or a marriage."""
        if job == J_LEAD:
            return self.lead(hm, self.ho0, pm, self.po0, self.tm0, self.to0, qm, self.qo0, cl, sw, sf, ts,
                             tc, claim, alpha, beta)
        if job == J_RESPOND:
            return self.respond(arg, 0, hm ^ 1 << arg, self.ho0, pm, self.po0, self.tm0, self.to0, qm,
                                self.qo0, cl, sw, sf, ts, tc, alpha, beta)
        if job == J_FOLLOWER:
            return -self.respond(arg, fmask, hm, self.ho0, pm, self.po0, self.tm0, self.to0, qm, self.qo0,
                                 cl, sw, sf, ts, tc, -beta, -alpha)
        return self.married(arg, hm, pm, qm, alpha, beta)

    def exact(self, job: int, arg: int, fmask: int, hm: int, pm: int, qm: int, cl: int, sw: int, sf: int,
              ts: int, tc: int, claim: int, hi: int) -> int:
        """The exact value of a root job by null-window tests, ``hi`` a known upper bound.

        Each test asks "is the value at least t?" for the first t of :data:`PROBES` still open. With
        the talon open: first the outer questions (at least 2? at most -2?), then "at least 1?", who
        wins, which is the costly one and is cheaper once the outer tests have filled the table
        (a third fewer nodes on whole deals). With the talon gone the searches are tiny and
        top-down (2, 1, ...) asks one question fewer. Sixty-Six has draws; Schnapsen has none, so
        there "at least 0" is "at least 1".
        """
        draws = self.s66
        lo = -3
        if hi == 0 and not draws:
            hi = -1
        while lo < hi:
            t = 0
            for i in range(0 if ts else 6, 12):
                t = PROBES[i]
                if lo < t <= hi and (draws or t != 0):
                    break
            v = self.run_job(job, arg, fmask, hm, pm, qm, cl, sw, sf, ts, tc, claim, t - 1, t)
            if v >= t:
                lo = v
            else:
                hi = v
            if not draws:
                if hi == 0:
                    hi = -1
                if lo == 0:
                    lo = 1
        return lo

    def solve(self, job: int, arg: int, fmask: int, hm: int, pm: int, qm: int, cl: int, sw: int, sf: int,
              ts: int, tc: int, claim: int, hi: int) -> int:
        """:meth:`exact`, with the GIL released in the compiled core."""
        if not cython.compiled:
            return self.exact(job, arg, fmask, hm, pm, qm, cl, sw, sf, ts, tc, claim, hi)
        with cython.nogil:
            v = self.exact(job, arg, fmask, hm, pm, qm, cl, sw, sf, ts, tc, claim, hi)
        return v

    def setup(self, pos: tuple[Any, ...]) -> None:
        """Take a position's rules, talon and root state; forget the previous search."""
        flags = pos[16]
        self.trump = pos[17]
        self.s66 = 1 if flags & F_SIXTY_SIX else 0
        self.manual = 0 if flags & F_AUTO else 1
        self.viennese = 0 if flags & F_TOURNAMENT else 1
        self.mirror = 1 if flags & F_MIRROR else 0
        self.allow_close = 1 if flags & F_ALLOW_CLOSE else 0
        self.close_two = 1 if flags & F_CLOSE_TWO else 0
        self.exch_two = 1 if flags & F_EXCH_TWO else 0
        self.exch_trick = 1 if flags & F_EXCH_TRICK else 0
        self.marry_trick = 1 if flags & F_MARRY_TRICK else 0
        self.leads_king = 1 if flags & F_LEADS_KING else 0
        self.next_trick = 1 if flags & F_NEXT_TRICK else 0
        self.tmask = SUIT[self.trump]
        self.low_trump_card = self.trump * 6 + (0 if self.s66 else 1)
        self.low_trump = 1 << self.low_trump_card
        self.bonus_ok = 10 if self.s66 else 0
        (self.ho0, self.po0, self.tm0, self.to0, self.qo0, self.cl0, self.sw0, self.sf0, self.ts0,
         self.tc0) = pos[3], pos[5], pos[6], pos[7], pos[9], pos[10], pos[11], pos[12], pos[13], pos[14]
        # What the trick's winner and loser draw when the open talon holds ts cards (0: the trump card).
        stock = pos[18]
        n = len(stock)
        for t in range(14):
            self.win_bit[t] = 0
            self.lose_bit[t] = 0
            self.fd_mask[t] = 0
            self.killer[t] = -1
            for c in range(24):
                self.rkill[t * 24 + c] = -1
        for t in range(2, self.ts0 + 1, 2):
            i = n - (t - 1)
            self.win_bit[t] = 1 << stock[i]
            self.lose_bit[t] = 1 << stock[i + 1] if t > 2 else 0
            for c in stock[i:]:
                self.fd_mask[t] |= 1 << c
        self.nodes = 0
        if cython.compiled:
            self.gen += 1
            if self.gen > 0xFFFF:
                self.words = array("Q", bytes(16 * TT_SIZE))
                self.gwords = array("Q", bytes(16 * GT_SIZE))
                self.bind()
                self.gen = 1
        else:
            self.tt.clear()
            self.gt.clear()

    def solve_position(self, pos: tuple[Any, ...], want_actions: bool) -> tuple[int, dict[int, int], int]:
        """Solve a position: (value for the player to move, {action code: value} if wanted, nodes)."""
        self.setup(pos)
        kind, arg, hm, pm, qm, claim = pos[0], pos[1], pos[2], pos[4], pos[8], pos[15]
        ho, po, tm, to = self.ho0, self.po0, self.tm0, self.to0
        cl, sw, sf, ts, tc = self.cl0, self.sw0, self.sf0, self.ts0, self.tc0
        claim_value = self.claim_win(to, po, cl, sw, sf) if pm >= 66 else self.false_claim(to, po, cl, sf)
        values: dict[int, int] = {}
        if kind == K_ENDING:
            values[A_CLAIM] = claim_value
            values[A_PASS] = self.passed(pm, po, tm, to, cl, sf)
            return max(values.values()), (values if want_actions else {}), 0
        # Every action's value is searched after the position's own value, which bounds them all and
        # leaves the transposition table full of their bounds.
        if kind == K_FOLLOW:
            c = arg
            fmask = ho if ts else ho & HIGHER[c] or ho & SUIT[c // 6] or ho & self.tmask or ho
            value = self.solve(J_FOLLOWER, c, fmask, hm, pm, qm, cl, sw, sf, ts, tc, 0, 3)
            if want_actions:
                m = fmask
                while m:
                    f = ctz(m)
                    m &= m - 1
                    values[f] = self.solve(J_FOLLOWER, c, 1 << f, hm, pm, qm, cl, sw, sf, ts, tc, 0, value)
            return value, values, self.nodes
        if kind == K_MARRIED:
            value = self.solve(J_MARRIED, arg, 0, hm, pm, qm, cl, sw, sf, ts, tc, 0, 3)
            if want_actions:
                if self.manual:
                    values[A_CLAIM] = claim_value
                for r in range(2 - self.leads_king):
                    c = arg * 6 + 3 - r
                    values[c] = self.solve(J_RESPOND, c, 0, hm, pm, qm, cl, sw, sf, ts, tc, 0, value)
            return value, values, self.nodes
        value = self.solve(J_LEAD, 0, 0, hm, pm, qm, cl, sw, sf, ts, tc, claim, 3)
        if not want_actions:
            return value, values, self.nodes
        if claim:
            values[A_CLAIM] = claim_value
        m = hm
        while m:
            c = ctz(m)
            m &= m - 1
            values[c] = self.solve(J_RESPOND, c, 0, hm, pm, qm, cl, sw, sf, ts, tc, 0, value)
        if (tm or not self.marry_trick) and (ts or not self.s66):
            for suit in range(4):
                if hm >> (suit * 6 + 2) & hm >> (suit * 6 + 3) & 1:
                    val = 40 if suit == self.trump else 20
                    if tm and not self.next_trick:
                        v = self.solve(J_MARRIED, suit, 0, hm, pm + val, qm, cl, sw, sf, ts, tc, 0, value)
                    else:
                        v = self.solve(J_MARRIED, suit, 0, hm, pm, qm + val, cl, sw, sf, ts, tc, 0, value)
                    values[A_MARRY + suit] = v
        if ts and hm & self.low_trump and (ts > 2 or self.exch_two) and (tm or not self.exch_trick):
            values[A_EXCHANGE] = self.solve(J_LEAD, 0, 0, hm ^ self.low_trump | 1 << tc, pm, qm, cl, sw, sf,
                                            ts, self.low_trump_card, 0, value)
        if ts and self.allow_close and (ts > 2 or self.close_two):
            values[A_CLOSE] = self.solve(J_LEAD, 0, 0, hm, pm, qm, 1, _table(to, po), 3 if to == 0 else 2,
                                         0, 0, 0, value)
        assert max(values.values()) == value
        return value, values, self.nodes


_local = threading.local()


def solve_position(pos: tuple[Any, ...], want_actions: bool) -> tuple[int, dict[int, int], int]:
    """Solve a position: (value for the player to move, {action code: value} if wanted, nodes).

    Each thread has its own :class:`Search`, so threads may call this at once.
    """
    search = getattr(_local, "search", None)
    if search is None:
        search = _local.search = Search()
    result: tuple[int, dict[int, int], int] = search.solve_position(pos, want_actions)
    return result


#: The former name of :func:`solve_position` (kept for callers of the old twins' ``analyse``).
analyse = solve_position
