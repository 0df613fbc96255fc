"""The pure-Python open-card solver: alpha-beta over compact ints (the reference for the compiled core).

The search reads a :data:`~bummerl.search.position.Position` (bitmask hands, points, flags) and never
touches the engine: it is checked against :mod:`bummerl.search.reference`, which plays the engine
itself. Values are game points for the player to move, -3..3.

How it is fast:

- negamax at trick boundaries ("lead nodes"): the leader's options (lead a card, declare a marriage
  and lead its king or queen, exchange, close, claim) times the follower's answers; everything is
  relative to the leader, so both seats share one transposition table;
- a transposition table keyed at lead nodes by the whole state (hands, points, trick flags, pending
  marriages, closing and its snapshot, talon, trump card, claim right) holding bounds and the best move;
- null-window tests over the tiny value range (is the value at least t?), the first at t = 2;
- move order: the table's move, then exchange, close, marriages, cards the follower cannot beat; the
  follower's answers: the dearest winning card, then a cheap losing card, then the rest;
- while the talon is open, an answer already known to refute a lead is found before searching
  (enhanced transposition cut-off), and an answer that ends the deal is valued at once;
- exact cut-offs from the rules: a correct claim ends the search (rules.md 7: never worse than playing
  on); a closer who cannot reach 66 any more has lost; sure winners that reach 66 win; game points are
  bounded by the tables of rules.md 4.2 (no trick, 33 points, the closing snapshot) and by who can
  still reach 66 (remaining card points, possible marriages, trumps the other cannot beat);
- a plain lead of a king or queen is skipped inside the tree when the marriage with the same card is
  legal (more points never hurt their owner); every action is still valued at the root.

Claims are valued by their outcome, false ones included: one can be the best action (see the
example: player 1 closed before player 0 won a trick).

>>> from bummerl import Deal, Rules
>>> from bummerl.search.position import from_deal
>>> deck = "TC AD AH AS TD JS QS QD KH KS TH AC QH QC JH KC KD JC TS JD"
>>> deal = Deal.from_deck(Rules.preset("standard"), deck, dealer=1)
>>> for a in ("play AH", "play JS", "play TH", "play QD", "close", "play AS", "play QH", "play AC",
...           "play TC", "play QC", "play KH", "play TD", "play AD"):
...     deal.apply(a)
>>> value, actions, nodes = analyse(from_deal(deal), True)
>>> value, actions  # player 1 closed before 0 won a trick: claiming (26) falsely loses 2, JH (13) loses 3
(-2, {26: -2, 13: -3})
"""

from __future__ import annotations

from collections.abc import Callable

from bummerl.cards import POINTS
from bummerl.search.position import (
    ENDING,
    F_ALLOW_CLOSE,
    F_AUTO,
    F_CLOSE_TWO,
    F_EXCH_TRICK,
    F_EXCH_TWO,
    F_LEADS_KING,
    F_MARRY_TRICK,
    F_MIRROR,
    F_NEXT_TRICK,
    F_SIXTY_SIX,
    F_TOURNAMENT,
    FOLLOW,
    LEAD,
    MARRIED,
    Position,
)

__all__ = ["CLOSE_MOVE", "EXCHANGE_MOVE", "analyse", "exact"]

_P = POINTS
_SUIT = tuple(0x3F << (6 * s) for s in range(4))
_HIGHER = tuple(sum(1 << x for x in range(c + 1, (c // 6) * 6 + 6)) for c in range(24))
_QUEENS = sum(1 << (s * 6 + 2) for s in range(4))
_CHUNK = tuple(sum(_P[r] for r in range(6) if m >> r & 1) for m in range(64))
_SWAP = (0, 2, 1)
#: Move codes inside the search: 0..23 play a card, 32 + card declare its marriage and lead it.
EXCHANGE_MOVE = 24
CLOSE_MOVE = 25
_MARRY = 32
# Action codes of the contract (bummerl.actions).
_A_EXCHANGE, _A_CLOSE, _A_CLAIM, _A_PASS, _A_MARRY = 24, 25, 26, 27, 28

Search = Callable[[int, int], int]


def _mask_points(m: int) -> int:
    return _CHUNK[m & 63] + _CHUNK[m >> 6 & 63] + _CHUNK[m >> 12 & 63] + _CHUNK[m >> 18 & 63]


_RANKS = tuple(sum(1 << (s * 6 + r) for s in range(4)) for r in range(6))
_RANK_POINTS = (0, 2, 3, 4, 10, 11)


def _top_points(m: int) -> int:
    """The card of a nonempty mask worth the most points (the highest rank present)."""
    for r in (5, 4, 3, 2, 1, 0):
        x = m & _RANKS[r]
        if x:
            return x.bit_length() - 1
    raise ValueError("empty mask")


def _cheapest(hand: int, k: int) -> int:
    """The card points of the k cheapest cards of a hand (cards are cheapest by rank)."""
    total = 0
    for r in range(6):
        n = (hand & _RANKS[r]).bit_count()
        if n >= k:
            return total + k * _RANK_POINTS[r]
        total += n * _RANK_POINTS[r]
        k -= n
    return total


def _table(tricks: int, points: int) -> int:
    return 3 if tricks == 0 else (2 if points < 33 else 1)


def exact(fn: Search, draws: bool, hi: int = 3) -> int:
    """The exact value of a fail-soft search ``fn(alpha, beta)`` by null-window tests.

    ``draws`` says whether 0 can happen (Sixty-Six); Schnapsen has no draws, so "at least 0" is
    "at least 1". ``hi`` is a known upper bound (the first test asks "at least hi?" when it is below 3).

    >>> exact(lambda a, b: 2, False), exact(lambda a, b: -1, True), exact(lambda a, b: -2, False, 1)
    (2, -1, -2)
    """
    lo = -3
    if hi == 0 and not draws:
        hi = -1
    t = 2 if hi == 3 else hi
    while True:
        v = fn(t - 1, t)
        if v >= t:
            lo = v
        else:
            hi = v
        if not draws:
            if hi == 0:
                hi = -1
            if lo == 0:
                lo = 1
        if lo >= hi:
            return lo
        if v >= t:
            t = lo + 1
            if t == 0 and not draws:
                t = 1
        else:
            t = hi


def analyse(pos: Position, want_actions: bool) -> tuple[int, dict[int, int], int]:
    """Solve a position: (value for the player to move, {action code: value} if wanted, nodes)."""
    (kind, arg, hm0, ho0, pm0, po0, tm0, to0, qm0, qo0, cl0, sw0, sf0, ts0, tc0, claim0,
     flags, trump, stock) = pos
    s66 = bool(flags & F_SIXTY_SIX)
    manual = 0 if flags & F_AUTO else 1
    viennese = not flags & F_TOURNAMENT
    mirror = bool(flags & F_MIRROR)
    allow_close = bool(flags & F_ALLOW_CLOSE)
    close_two = bool(flags & F_CLOSE_TWO)
    exch_two = bool(flags & F_EXCH_TWO)
    exch_trick = bool(flags & F_EXCH_TRICK)
    marry_trick = bool(flags & F_MARRY_TRICK)
    leads_king = bool(flags & F_LEADS_KING)
    next_trick = bool(flags & F_NEXT_TRICK)
    tmask = _SUIT[trump]
    low_trump = 1 << (trump * 6 + (0 if s66 else 1))
    bonus_ok = 10 if s66 else 0
    # What the trick's winner and loser draw when the open talon holds ts cards (0: the trump card).
    win_bit = [0] * 14
    lose_bit = [0] * 14
    fd_mask = [0] * 14
    n = len(stock)
    for t in range(2, ts0 + 1, 2):
        i = n - (t - 1)
        win_bit[t] = 1 << stock[i]
        lose_bit[t] = 1 << stock[i + 1] if t > 2 else 0
        for c in stock[i:]:
            fd_mask[t] |= 1 << c
    tt: dict[int, int] = {}
    tt_get = tt.get
    nodes = 0

    def claim_win(to: int, po: int, cl: int, sw: int, sf: int) -> int:
        # A correct claim by me (rules.md 4.2).
        if cl == 2:
            return sf
        if cl == 1 and viennese:
            return sw
        return 3 if to == 0 else (2 if po < 33 else 1)

    def false_claim(to: int, po: int, cl: int, sf: int) -> int:
        if cl == 1:
            return -sf
        if mirror:
            return -(3 if to == 0 else (2 if po < 33 else 1))
        return -3 if to == 0 else -2

    def passed(pm: int, po: int, tm: int, to: int, cl: int, sf: int) -> int:
        # rules.md 4.4 for me, the winner of the last trick, when nobody claims.
        if cl == 1:
            v = -sf
        elif cl == 2:
            v = sf
        elif not s66:
            v = 1
        elif pm > po:
            v = 3 if to == 0 else (2 if po < 33 else 1)
        elif pm < po:
            v = -(3 if tm == 0 else (2 if pm < 33 else 1))
        else:
            v = 0
        return v

    def all_played(pm: int, po: int, tm: int, to: int, cl: int, sf: int) -> int:
        # The last trick's winner without a correct claim: pass, or (by hand) a false claim if better.
        v = passed(pm, po, tm, to, cl, sf)
        if manual:
            fc = false_claim(to, po, cl, sf)
            if fc > v:
                v = fc
        return v

    def respond(c: int, fmask: int, hm: int, ho: int, pm: int, po: int, tm: int, to: int, qm: int, qo: int,
                cl: int, sw: int, sf: int, ts: int, tc: int, alpha: int, beta: int) -> int:
        """Me led c (hm no longer holds it); op answers from fmask (0: every legal card). Value for me.

        First every answer's outcome is looked at without searching: a trick that ends the deal, or a
        position after it already known well enough to refute the lead (enhanced transposition
        cut-off). Then the others are searched, cheap winning cards first, then cheap losing cards.
        """
        if not fmask:
            fmask = ho if ts else ho & _HIGHER[c] or ho & _SUIT[c // 6] or ho & tmask or ho
        cs = c // 6
        pc = _P[c]
        nts = ts - 2 if ts else 0
        ntc = tc if nts else 0
        vmin = 4
        kids = []
        m = fmask
        while m:
            low = m & -m
            f = low.bit_length() - 1
            m ^= low
            fs = f // 6
            pts = pc + _P[f]
            if (f < c) if fs == cs else fs != trump:
                # me wins the trick and leads next
                npm = pm + qm + pts
                if ts:
                    h1 = hm | win_bit[ts]
                    h2 = (ho ^ low) | (lose_bit[ts] or 1 << tc)
                else:
                    h1 = hm
                    h2 = ho ^ low
                    if not h1 and cl == 0:
                        npm += bonus_ok
                if npm >= 66:
                    v = claim_win(to, po, cl, sw, sf)
                elif not h1:
                    v = all_played(npm, po, 1, to, cl, sf)
                else:
                    if ts:
                        key = (((((1 | to << 1 | qo << 9 | cl << 16 | sw << 18 | sf << 20 | nts << 22
                                   | ntc << 26 | manual << 31) << 8 | po) << 8 | npm) << 24 | h2) << 24) | h1
                        ent = tt_get(key)
                        if ent is not None and (ent >> 3 & 7) - 3 <= alpha:
                            return (ent >> 3 & 7) - 3
                    kids.append((40 + _P[f] - pc, f, 1, h1, h2, npm, po, 1, to, 0, qo, cl))
                    continue
            else:
                # op wins the trick and leads next (from op's side)
                npo = po + qo + pts
                if ts:
                    h1 = (ho ^ low) | win_bit[ts]
                    h2 = hm | (lose_bit[ts] or 1 << tc)
                else:
                    h1 = ho ^ low
                    h2 = hm
                    if not h1 and cl == 0:
                        npo += bonus_ok
                ocl = _SWAP[cl]
                if npo >= 66:
                    v = -claim_win(tm, pm, ocl, sw, sf)
                elif not h1:
                    v = -all_played(npo, pm, 1, tm, ocl, sf)
                else:
                    if ts:
                        key = (((((1 | tm << 1 | qm << 9 | ocl << 16 | sw << 18 | sf << 20 | nts << 22
                                   | ntc << 26 | manual << 31) << 8 | pm) << 8 | npo) << 24 | h2) << 24) | h1
                        ent = tt_get(key)
                        if ent is not None and (ent & 7) - 3 >= -alpha:
                            return 3 - (ent & 7)
                    kids.append((8 - _P[f] if fs != cs else -_P[f], f, 0, h1, h2, npo, pm, 1, tm, 0, qm, ocl))
                    continue
            # the deal ends with this trick
            if v < vmin:
                vmin = v
                if v <= alpha:
                    return v
        kids.sort()
        if len(kids) > 2 and not kids[0][2] and not kids[1][2]:
            # After the best winning card, a cheap losing card before the other winning ones.
            for j in range(2, len(kids)):
                if kids[j][2]:
                    kids.insert(1, kids.pop(j))
                    break
        for _, _, mine, h1, h2, p1, p2, t1, t2, q1, q2, c1 in kids:
            b = vmin if vmin < beta else beta
            if mine:
                v = lead(h1, h2, p1, p2, t1, t2, q1, q2, c1, sw, sf, nts, ntc, manual, alpha, b)
            else:
                v = -lead(h1, h2, p1, p2, t1, t2, q1, q2, c1, sw, sf, nts, ntc, manual, -b, -alpha)
            if v < vmin:
                vmin = v
                if v <= alpha:
                    return v
        return vmin

    def lead(hm: int, ho: int, pm: int, po: int, tm: int, to: int, qm: int, qo: int, cl: int, sw: int,
             sf: int, ts: int, tc: int, claim: int, alpha: int, beta: int) -> int:
        """Value for me, the leader, before anything is declared this turn (fail-soft)."""
        nonlocal nodes
        nodes += 1
        if claim and pm >= 66:
            return claim_win(to, po, cl, sw, sf)
        if not ts and not hm & (hm - 1):
            # The last trick: one card each.
            c = hm.bit_length() - 1
            f = ho.bit_length() - 1
            pts = _P[c] + _P[f] + (bonus_ok if cl == 0 else 0)
            fc = false_claim(to, po, cl, sf) if claim else -4
            if (c > f) if f // 6 == c // 6 else f // 6 != trump:
                pm += qm + pts
                v = claim_win(to, po, cl, sw, sf) if pm >= 66 else all_played(pm, po, 1, to, cl, sf)
            else:
                po += qo + pts
                ocl = _SWAP[cl]
                v = -(claim_win(tm, pm, ocl, sw, sf) if po >= 66 else all_played(po, pm, 1, tm, ocl, sf))
            return fc if fc > v else v
        key = (((((tm | to << 1 | qm << 2 | qo << 9 | cl << 16 | sw << 18 | sf << 20 | ts << 22 | tc << 26
                   | claim << 31) << 8 | po) << 8 | pm) << 24 | ho) << 24) | hm
        ent = tt_get(key)
        if ent is not None:
            lo = (ent & 7) - 3
            hi = (ent >> 3 & 7) - 3
            bm = ent >> 6
            if lo >= beta or lo == hi:
                return lo
            if hi <= alpha:
                return hi
        else:
            lo, hi, bm = -3, 3, -1
            # Bounds from what each player can still reach (rules.md 4.2, 4.4).
            unplayed = hm | ho
            if ts:
                unplayed |= fd_mask[ts] | 1 << tc
                pairs = unplayed & unplayed >> 1 & _QUEENS
                mm = mo = 20 * pairs.bit_count() + (20 if pairs & tmask else 0)
            elif s66:
                mm = mo = 0
            else:
                pairs = hm & hm >> 1 & _QUEENS
                mm = 20 * pairs.bit_count() + (20 if pairs & tmask else 0)
                pairs = ho & ho >> 1 & _QUEENS
                mo = 20 * pairs.bit_count() + (20 if pairs & tmask else 0)
            rest = _mask_points(unplayed) + (bonus_ok if cl == 0 else 0)
            reach_m = pm + qm + rest + mm
            reach_o = po + qo + rest + mo
            if not ts:
                # Trumps above all the other's trumps win whatever the other does: the other never
                # gets their points, nor those of the cheapest cards played to them.
                mt = hm & tmask
                ot = ho & tmask
                top = mt.bit_length()
                sure_o = ot >> top << top
                if sure_o:
                    reach_m -= _mask_points(sure_o) + _cheapest(hm, sure_o.bit_count())
                top = ot.bit_length()
                sure_m = mt >> top << top
                if sure_m:
                    reach_o -= _mask_points(sure_m) + _cheapest(ho, sure_m.bit_count())
            reach_m = reach_m >= 66
            reach_o = reach_o >= 66
            if cl == 1:
                if not reach_m:
                    tt[key] = (3 - sf) * 9 | -64
                    return -sf
                hi = sw if viennese else (3 if to == 0 else (2 if po < 33 else 1))
                lo = -sf
            elif cl == 2:
                if not reach_o:
                    tt[key] = (3 + sf) * 9 | -64
                    return sf
                hi = sf
                lo = -(sw if viennese else (3 if tm == 0 else (2 if pm < 33 else 1)))
            else:
                hi = 3 if to == 0 else (2 if po < 33 else 1)
                if not reach_m and not s66:
                    hi = 1
                if allow_close and (ts >= 6 or (ts == 4 and close_two)):
                    w = 3 if tm == 0 else 2
                    if w > hi:
                        hi = w
                lo = -(3 if tm == 0 else (2 if pm < 33 else 1))
                if not reach_o and not s66:
                    lo = -1
            if lo >= beta:
                return lo
            if hi <= alpha:
                return hi
        if lo > alpha:
            alpha = lo
        if hi < beta:
            beta = hi
        a0 = alpha
        best = -4
        move = -1
        # Marriages the leader may declare now (queen bits of the suits).
        pairs = hm & hm >> 1 & _QUEENS if (tm or not marry_trick) and (ts or not s66) else 0
        if manual and (claim or pairs):
            best = false_claim(to, po, cl, sf)
            if best > alpha:
                alpha = best
                if alpha >= beta:
                    hi_ = hi
                    tt[key] = (max(lo, best) + 3) | (hi_ + 3) << 3 | -64
                    return best
        # Sure winners: cards op cannot beat, now and (with the talon gone) later: trumps above op's
        # trumps, and when op has no trump, cards above op's cards of their suit. Once the talon is
        # gone op's hand only shrinks, so they can be cashed one after another.
        otr = ho & tmask
        sure = now = 0
        for s in range(4):
            ms = hm & _SUIT[s]
            if ms:
                os_ = ho & _SUIT[s]
                top = os_.bit_length()
                if s == trump or not otr:
                    sure |= ms >> top << top
                elif os_ and not ts:
                    now |= ms >> top << top
        now |= sure
        need = 66 - pm - qm
        if now and need <= (22 if ts else _mask_points(hm | ho)):
            # A claim op cannot stop: win the next trick (cash every sure winner once the talon is
            # gone) and reach 66. (Checked only when a trick or a few could be enough.)
            gain = _P[_top_points(now)] + _cheapest(ho, 1)
            if sure and not ts and gain < need:
                g = _mask_points(sure) + _cheapest(ho, sure.bit_count())
                if g > gain:
                    gain = g
            if gain >= need:
                v = claim_win(to, po, cl, sw, sf)
                tt[key] = (v + 3) * 9 | -64
                return v
        # The leader's options, best first: sort keys (score + 1024) << 6 | move.
        moves: list[int] = []
        m = hm
        while m:
            low = m & -m
            c = low.bit_length() - 1
            m ^= low
            r = c % 6
            if pairs and (r == 3 or (r == 2 and not leads_king)) and pairs >> (c - r + 2) & 1:
                mv = _MARRY + c
                score = -100 - _P[c]
            else:
                mv = c
                # cards op cannot beat first, then the others; the dearest first, trumps after the rest
                score = -50 - _P[c] if now >> c & 1 else (20 - _P[c] if c // 6 == trump else -_P[c])
            moves.append((0 if mv == bm else score + 1024) << 6 | mv)
        if ts:
            if hm & low_trump and (ts > 2 or exch_two) and (tm or not exch_trick):
                moves.append((0 if bm == EXCHANGE_MOVE else 624) << 6 | EXCHANGE_MOVE)
            if allow_close and (ts > 2 or close_two):
                moves.append((0 if bm == CLOSE_MOVE else 724) << 6 | CLOSE_MOVE)
        moves.sort()
        for mv in moves:
            mv &= 63
            if mv < 24:
                v = respond(mv, 0, hm ^ 1 << mv, ho, pm, po, tm, to, qm, qo, cl, sw, sf, ts, tc, alpha, beta)
            elif mv >= _MARRY:
                c = mv - _MARRY
                val = 40 if c // 6 == trump else 20
                if tm and not next_trick:
                    pm2, qm2 = pm + val, qm
                else:
                    pm2, qm2 = pm, qm + val
                if pm2 >= 66:  # a claim after the marriage is correct (by hand or automatic)
                    v = claim_win(to, po, cl, sw, sf)
                else:
                    v = respond(c, 0, hm ^ 1 << c, ho, pm2, po, tm, to, qm2, qo, cl, sw, sf, ts, tc,
                                alpha, beta)
            elif mv == EXCHANGE_MOVE:
                lt = low_trump.bit_length() - 1
                v = lead(hm ^ low_trump | 1 << tc, ho, pm, po, tm, to, qm, qo, cl, sw, sf, ts, lt, 0,
                         alpha, beta)
            else:
                v = lead(hm, ho, pm, po, tm, to, qm, qo, 1, 3 if to == 0 else (2 if po < 33 else 1),
                         3 if to == 0 else 2, 0, 0, 0, alpha, beta)
            if v > best:
                best = v
                move = mv
                if v > alpha:
                    alpha = v
                    if v >= beta:
                        break
        if best <= a0:
            hi = best
        elif best >= beta:
            lo = best
        else:
            lo = hi = best
        tt[key] = (lo + 3) | (hi + 3) << 3 | move << 6
        return best

    # ------------------------------------------------------------------ the root
    def married(suit: int, hm: int, pm: int, qm: int, alpha: int, beta: int) -> int:
        """The leader has declared the marriage in suit (points added): claim, or lead its K or Q."""
        if pm >= 66:
            return claim_win(to0, po0, cl0, sw0, sf0)
        best = false_claim(to0, po0, cl0, sf0) if manual else -4
        for c in (suit * 6 + 3, suit * 6 + 2)[: 1 if leads_king else 2]:
            if best >= beta:
                break
            v = respond(c, 0, hm ^ 1 << c, ho0, pm, po0, tm0, to0, qm, qo0, cl0, sw0, sf0, ts0, tc0,
                        max(alpha, best), beta)
            best = max(best, v)
        return best

    # Every action's value is searched after the position's own value, which bounds them all and
    # leaves the transposition table full of their bounds.
    def solve_lead(hm: int, pm: int, qm: int, cl: int, sw: int, sf: int, ts: int, tc: int, claim: int,
                   hi: int = 3) -> int:
        return exact(lambda a, b: lead(hm, ho0, pm, po0, tm0, to0, qm, qo0, cl, sw, sf, ts, tc, claim, a, b),
                     s66, hi)

    def solve_play(c: int, hi: int) -> int:
        hm = hm0 ^ 1 << c
        return exact(lambda a, b: respond(c, 0, hm, ho0, pm0, po0, tm0, to0, qm0, qo0, cl0, sw0, sf0, ts0,
                                          tc0, a, b), s66, hi)

    def solve_follow(c: int, fmask: int, hi: int = 3) -> int:
        return exact(lambda a, b: -respond(c, fmask, hm0, ho0, pm0, po0, tm0, to0, qm0, qo0, cl0, sw0, sf0,
                                           ts0, tc0, -b, -a), s66, hi)

    def solve_married(suit: int, hm: int, pm: int, qm: int, hi: int = 3) -> int:
        return exact(lambda a, b: married(suit, hm, pm, qm, a, b), s66, hi)

    claim_value = claim_win(to0, po0, cl0, sw0, sf0) if pm0 >= 66 else false_claim(to0, po0, cl0, sf0)
    values: dict[int, int] = {}
    if kind == ENDING:
        values[_A_CLAIM] = claim_value
        values[_A_PASS] = passed(pm0, po0, tm0, to0, cl0, sf0)
        return max(values.values()), (values if want_actions else {}), 0
    if kind == FOLLOW:
        c = arg
        fmask = ho0 if ts0 else ho0 & _HIGHER[c] or ho0 & _SUIT[c // 6] or ho0 & tmask or ho0
        value = solve_follow(c, fmask)
        if not want_actions:
            return value, {}, nodes
        m = fmask
        while m:
            low = m & -m
            m ^= low
            values[low.bit_length() - 1] = solve_follow(c, low, value)
        return value, values, nodes
    if kind == MARRIED:
        value = solve_married(arg, hm0, pm0, qm0)
        if not want_actions:
            return value, {}, nodes
        if manual:
            values[_A_CLAIM] = claim_value
        for c in (arg * 6 + 3, arg * 6 + 2)[: 1 if leads_king else 2]:
            values[c] = solve_play(c, value)
        return value, values, nodes
    assert kind == LEAD
    value = solve_lead(hm0, pm0, qm0, cl0, sw0, sf0, ts0, tc0, claim0)
    if not want_actions:
        return value, {}, nodes
    if claim0:
        values[_A_CLAIM] = claim_value
    m = hm0
    while m:
        low = m & -m
        m ^= low
        values[low.bit_length() - 1] = solve_play(low.bit_length() - 1, value)
    if (tm0 or not marry_trick) and (ts0 or not s66):
        for suit in range(4):
            if hm0 >> (suit * 6 + 2) & hm0 >> (suit * 6 + 3) & 1:
                val = 40 if suit == trump else 20
                if tm0 and not next_trick:
                    values[_A_MARRY + suit] = solve_married(suit, hm0, pm0 + val, qm0, value)
                else:
                    values[_A_MARRY + suit] = solve_married(suit, hm0, pm0, qm0 + val, value)
    if ts0 and hm0 & low_trump and (ts0 > 2 or exch_two) and (tm0 or not exch_trick):
        lt = low_trump.bit_length() - 1
        values[_A_EXCHANGE] = solve_lead(hm0 ^ low_trump | 1 << tc0, pm0, qm0, cl0, sw0, sf0, ts0, lt, 0,
                                         value)
    if ts0 and allow_close and (ts0 > 2 or close_two):
        values[_A_CLOSE] = solve_lead(hm0, pm0, qm0, 1, _table(to0, po0), 3 if to0 == 0 else 2, 0, 0, 0,
                                      value)
    assert max(values.values()) == value
    return value, values, nodes
