# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The compiled open-card solver: the algorithm of :mod:`bummerl.search.pysolver`, typed for C.

Same position tuple in, same (value, {action code: value}, nodes) out; the tests hold the two to
the same values on thousands of positions. Only plain C ints and a fixed transposition table are
touched inside the search.
"""

from libc.stdint cimport int8_t, uint8_t, uint32_t, uint64_t
from libc.stdlib cimport calloc
from libc.string cimport memset

cdef extern from *:
    """
    static inline int bm_ctz(unsigned int x) { return __builtin_ctz(x); }
    static inline void bm_prefetch(const void* p) { __builtin_prefetch(p); }
    static inline int bm_len(unsigned int x) { return x ? 32 - __builtin_clz(x) : 0; }
    static inline int bm_pop(unsigned int x) {
        x = x - ((x >> 1) & 0x55555555u);
        x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
        return (int)((((x + (x >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24);
    }
    """
    int bm_ctz(unsigned int x) nogil
    void bm_prefetch(const void* p) nogil
    int bm_len(unsigned int x) nogil
    int bm_pop(unsigned int x) nogil


cdef enum:
    TT_BITS = 16
    TT_SIZE = 1 << TT_BITS
    TT_WAYS = 4
    EXCHANGE_MOVE = 24
    CLOSE_MOVE = 25
    MARRY = 32
    A_CLAIM = 26
    A_PASS = 27
    A_MARRY = 28
    F_SIXTY_SIX = 1
    F_AUTO = 2
    F_ALLOW_CLOSE = 4
    F_CLOSE_TWO = 8
    F_EXCH_TWO = 16
    F_EXCH_TRICK = 32
    F_MARRY_TRICK = 64
    F_LEADS_KING = 128
    F_NEXT_TRICK = 256
    F_TOURNAMENT = 512
    F_MIRROR = 1024
    K_LEAD = 0
    K_MARRIED = 1
    K_FOLLOW = 2
    K_ENDING = 3


cdef struct St:
    uint32_t hm
    uint32_t ho
    int pm
    int po
    int tm
    int to
    int qm
    int qo
    int cl
    int sw
    int sf
    int ts
    int tc


cdef struct Entry:
    uint64_t k1
    uint32_t k2
    uint8_t gen
    uint8_t depth
    int8_t bounds
    int8_t move


# ---------------------------------------------------------------------- constant tables
cdef int P[24]
cdef uint32_t SUIT[4]
cdef uint32_t HIGHER[24]
cdef uint32_t RANKS[6]
cdef int RANK_POINTS[6]
cdef int CHUNK[64]
cdef uint32_t QUEENS = 0
cdef int SWAP[3]

cdef int _i, _r, _m
for _i in range(24):
    P[_i] = (0, 2, 3, 4, 10, 11)[_i % 6]
    HIGHER[_i] = 0
    for _r in range(_i + 1, (_i // 6) * 6 + 6):
        HIGHER[_i] |= 1u << _r
for _i in range(4):
    SUIT[_i] = 0x3Fu << (6 * _i)
    QUEENS |= 1u << (_i * 6 + 2)
for _r in range(6):
    RANK_POINTS[_r] = (0, 2, 3, 4, 10, 11)[_r]
    RANKS[_r] = 0
    for _i in range(4):
        RANKS[_r] |= 1u << (_i * 6 + _r)
for _m in range(64):
    CHUNK[_m] = 0
    for _r in range(6):
        if _m >> _r & 1:
            CHUNK[_m] += RANK_POINTS[_r]
SWAP[0] = 0
SWAP[1] = 2
SWAP[2] = 1

# ---------------------------------------------------------------------- the search context
cdef int s66, manual, viennese, mirror, allow_close, close_two, exch_two, exch_trick
cdef int marry_trick, leads_king, next_trick, trump, bonus_ok, low_trump_card
cdef uint32_t tmask, low_trump
cdef uint32_t win_bit[14]
cdef uint32_t lose_bit[14]
cdef uint32_t fd_mask[14]
cdef long nodes
cdef Entry* tt = <Entry*> calloc(TT_SIZE, sizeof(Entry))
cdef uint8_t gen = 0
if tt == NULL:
    raise MemoryError("no memory for the solver's transposition table")


cdef inline int mask_points(uint32_t m) noexcept nogil:
    return CHUNK[m & 63] + CHUNK[(m >> 6) & 63] + CHUNK[(m >> 12) & 63] + CHUNK[(m >> 18) & 63]


cdef inline int cheapest(uint32_t hand, int k) noexcept nogil:
    """The card points of the k cheapest cards of a hand."""
    cdef int total = 0, r, n
    for r in range(6):
        n = bm_pop(hand & RANKS[r])
        if n >= k:
            return total + k * RANK_POINTS[r]
        total += n * RANK_POINTS[r]
        k -= n
    return total


cdef inline int top_points(uint32_t m) noexcept nogil:
    cdef int r
    for r in range(5, -1, -1):
        if m & RANKS[r]:
            return RANK_POINTS[r]
    return 0


cdef inline int table(int tricks, int points) noexcept nogil:
    if tricks == 0:
        return 3
    return 2 if points < 33 else 1


cdef inline int claim_win(int to, int po, int cl, int sw, int sf) noexcept nogil:
    if cl == 2:
        return sf
    if cl == 1 and viennese:
        return sw
    return table(to, po)


cdef inline int false_claim(int to, int po, int cl, int sf) noexcept nogil:
    if cl == 1:
        return -sf
    if mirror:
        return -table(to, po)
    return -3 if to == 0 else -2


cdef inline int passed(int pm, int po, int tm, int to, int cl, int sf) noexcept nogil:
    if cl == 1:
        return -sf
    if cl == 2:
        return sf
    if not s66:
        return 1
    if pm > po:
        return table(to, po)
    if pm < po:
        return -table(tm, pm)
    return 0


cdef inline int all_played(int pm, int po, int tm, int to, int cl, int sf) noexcept nogil:
    cdef int v = passed(pm, po, tm, to, cl, sf), fc
    if manual:
        fc = false_claim(to, po, cl, sf)
        if fc > v:
            v = fc
    return v


cdef inline uint64_t key1(St* s) noexcept nogil:
    return <uint64_t> s.hm | (<uint64_t> s.ho << 24) | (<uint64_t> s.pm << 48) | (<uint64_t> s.po << 56)


cdef inline uint32_t key2(St* s, int claim) noexcept nogil:
    return (<uint32_t> s.tm | (<uint32_t> s.to << 1) | (<uint32_t> (s.qm // 20) << 2)
            | (<uint32_t> (s.qo // 20) << 5) | (<uint32_t> s.cl << 8) | (<uint32_t> s.sw << 10)
            | (<uint32_t> s.sf << 12) | (<uint32_t> s.ts << 14) | (<uint32_t> s.tc << 18)
            | (<uint32_t> claim << 23))


cdef inline Entry* tt_bucket(uint64_t k1, uint32_t k2) noexcept nogil:
    """The first of the TT_WAYS entries (one cache line) where this key may live."""
    cdef uint64_t h = (k1 * 0x9E3779B97F4A7C15ULL) ^ (<uint64_t> k2 * 0xC2B2AE3D27D4EB4FULL)
    h ^= h >> 29
    return &tt[((h * 0xBF58476D1CE4E5B9ULL) >> (64 - TT_BITS)) & ~(<uint64_t> (TT_WAYS - 1))]


cdef inline Entry* tt_find(Entry* b, uint64_t k1, uint32_t k2) noexcept nogil:
    cdef int i
    for i in range(TT_WAYS):
        if b[i].k1 == k1 and b[i].k2 == k2 and b[i].gen == gen:
            return &b[i]
    return NULL


cdef inline void tt_put(uint64_t k1, uint32_t k2, int depth, int lo, int hi, int move) noexcept nogil:
    """Store bounds: over the same key, else an entry of an earlier search, else the shallowest."""
    cdef Entry* b = tt_bucket(k1, k2)
    cdef Entry* e = &b[0]
    cdef int i
    for i in range(TT_WAYS):
        if b[i].k1 == k1 and b[i].k2 == k2 and b[i].gen == gen:
            e = &b[i]
            break
        if b[i].gen != gen:
            if e.gen == gen:
                e = &b[i]
        elif e.gen == gen and b[i].depth < e.depth:
            e = &b[i]
    e.k1 = k1
    e.k2 = k2
    e.gen = gen
    e.depth = <uint8_t> depth
    e.bounds = <int8_t> ((lo + 3) | ((hi + 3) << 3))
    e.move = <int8_t> move


cdef int respond(int c, uint32_t fmask, St* s, int alpha, int beta) noexcept nogil:
    """Me led c (s.hm no longer holds it); op answers from fmask (0: every legal card). Value for me.

    First every answer's outcome is looked at without searching (a trick that ends the deal, or a
    position already known to refute the lead); then the others are searched in order."""
    cdef int cs = c // 6, pc = P[c], n = 0, i, j, f, fs, score, pts, v, vmin, b, ocl, nts, ntc
    cdef int order_s[8]
    cdef int order_k[8]
    cdef int mine[8]
    cdef St kids[8]
    cdef uint64_t ek1[8]
    cdef uint32_t ek2[8]
    cdef Entry* slots[8]
    cdef St* t
    cdef uint32_t m, fbit
    cdef uint64_t k1
    cdef uint32_t k2
    cdef Entry* e
    if fmask == 0:
        if s.ts:
            fmask = s.ho
        else:
            fmask = s.ho & HIGHER[c]
            if not fmask:
                fmask = s.ho & SUIT[cs]
                if not fmask:
                    fmask = s.ho & tmask
                    if not fmask:
                        fmask = s.ho
    nts = s.ts - 2 if s.ts else 0
    ntc = s.tc if nts else 0
    vmin = 4
    m = fmask
    while m:
        f = bm_ctz(m)
        m &= m - 1
        fbit = 1u << f
        fs = f // 6
        pts = pc + P[f]
        t = &kids[n]
        t.tm = 1
        t.qm = 0
        t.sw = s.sw
        t.sf = s.sf
        t.ts = nts
        t.tc = ntc
        if (f < c) if fs == cs else fs != trump:
            # me wins the trick and leads next
            t.pm = s.pm + s.qm + pts
            t.po = s.po
            t.to = s.to
            t.qo = s.qo
            t.cl = s.cl
            if s.ts:
                t.hm = s.hm | win_bit[s.ts]
                t.ho = (s.ho ^ fbit) | (lose_bit[s.ts] if s.ts > 2 else (1u << s.tc))
            else:
                t.hm = s.hm
                t.ho = s.ho ^ fbit
                if not t.hm and s.cl == 0:
                    t.pm += bonus_ok
            if t.pm >= 66:
                v = claim_win(t.to, t.po, t.cl, t.sw, t.sf)
            elif not t.hm:
                v = all_played(t.pm, t.po, 1, t.to, t.cl, t.sf)
            else:
                if s.ts:
                    ek1[n] = key1(t)
                    ek2[n] = key2(t, manual)
                    slots[n] = tt_bucket(ek1[n], ek2[n])
                    bm_prefetch(slots[n])
                score = 40 + P[f] - pc
                mine[n] = 1
                i = n
                while i > 0 and order_s[i - 1] > score:
                    order_s[i] = order_s[i - 1]
                    order_k[i] = order_k[i - 1]
                    i -= 1
                order_s[i] = score
                order_k[i] = n
                n += 1
                continue
        else:
            # op wins the trick and leads next (from op's side: me and op swap)
            t.pm = s.po + s.qo + pts
            t.po = s.pm
            t.to = s.tm
            t.qo = s.qm
            ocl = SWAP[s.cl]
            t.cl = ocl
            if s.ts:
                t.hm = (s.ho ^ fbit) | win_bit[s.ts]
                t.ho = s.hm | (lose_bit[s.ts] if s.ts > 2 else (1u << s.tc))
            else:
                t.hm = s.ho ^ fbit
                t.ho = s.hm
                if not t.hm and s.cl == 0:
                    t.pm += bonus_ok
            if t.pm >= 66:
                v = -claim_win(t.to, t.po, ocl, t.sw, t.sf)
            elif not t.hm:
                v = -all_played(t.pm, t.po, 1, t.to, ocl, t.sf)
            else:
                if s.ts:
                    ek1[n] = key1(t)
                    ek2[n] = key2(t, manual)
                    slots[n] = tt_bucket(ek1[n], ek2[n])
                    bm_prefetch(slots[n])
                score = (8 - P[f]) if fs != cs else -P[f]
                mine[n] = 0
                i = n
                while i > 0 and order_s[i - 1] > score:
                    order_s[i] = order_s[i - 1]
                    order_k[i] = order_k[i - 1]
                    i -= 1
                order_s[i] = score
                order_k[i] = n
                n += 1
                continue
        # the deal ends with this trick
        if v < vmin:
            vmin = v
            if v <= alpha:
                return v
    if n > 2 and not mine[order_k[0]] and not mine[order_k[1]]:
        # After the best winning card, a cheap losing card before the other winning ones.
        for j in range(2, n):
            if mine[order_k[j]]:
                i = order_k[j]
                while j > 1:
                    order_k[j] = order_k[j - 1]
                    j -= 1
                order_k[1] = i
                break
    # Enhanced transposition cut-off: an answer already known to refute the lead.
    for i in range(n if s.ts else 0):
        e = tt_find(slots[i], ek1[i], ek2[i])
        if e != NULL:
            if mine[i]:
                v = ((e.bounds >> 3) & 7) - 3
            else:
                v = 3 - (e.bounds & 7)
            if v <= alpha:
                return v
    for j in range(n):
        i = order_k[j]
        b = vmin if vmin < beta else beta
        if mine[i]:
            v = lead(&kids[i], manual, alpha, b)
        else:
            v = -lead(&kids[i], manual, -b, -alpha)
        if v < vmin:
            vmin = v
            if v <= alpha:
                return v
    return vmin


cdef int lead(St* s, int claim, int alpha, int beta) noexcept nogil:
    """Value for me, the leader, before anything is declared this turn (fail-soft)."""
    global nodes
    cdef int c, f, pts, v, fc, lo, hi, bm, a0, best, move, reach_m, reach_o, mm, mo, top, w
    cdef int r, n, i, score, mv, val, su, gain, g
    cdef uint32_t unplayed, pairs, mt, ot, sure_o, sure_m, otr, sure, now, ms, os_, m
    cdef uint64_t k1, h
    cdef uint32_t k2
    cdef Entry* e
    cdef int depth
    cdef int moves[12]
    cdef int scores[12]
    cdef St t
    nodes += 1
    if claim and s.pm >= 66:
        return claim_win(s.to, s.po, s.cl, s.sw, s.sf)
    if not s.ts and not (s.hm & (s.hm - 1)):
        # The last trick: one card each.
        c = bm_ctz(s.hm)
        f = bm_ctz(s.ho)
        pts = P[c] + P[f] + (bonus_ok if s.cl == 0 else 0)
        fc = false_claim(s.to, s.po, s.cl, s.sf) if claim else -4
        if (c > f) if f // 6 == c // 6 else f // 6 != trump:
            c = s.pm + s.qm + pts
            v = claim_win(s.to, s.po, s.cl, s.sw, s.sf) if c >= 66 else all_played(c, s.po, 1, s.to, s.cl, s.sf)
        else:
            c = s.po + s.qo + pts
            r = SWAP[s.cl]
            v = -(claim_win(s.tm, s.pm, r, s.sw, s.sf) if c >= 66 else all_played(c, s.pm, 1, s.tm, r, s.sf))
        return fc if fc > v else v
    k1 = key1(s)
    k2 = key2(s, claim)
    depth = s.ts + 2 * bm_pop(s.hm)
    e = tt_find(tt_bucket(k1, k2), k1, k2)
    if e != NULL:
        lo = (e.bounds & 7) - 3
        hi = ((e.bounds >> 3) & 7) - 3
        bm = e.move
        if lo >= beta or lo == hi:
            return lo
        if hi <= alpha:
            return hi
    else:
        bm = -1
        # Bounds from what each player can still reach (rules.md 4.2, 4.4).
        unplayed = s.hm | s.ho
        if s.ts:
            unplayed |= fd_mask[s.ts] | (1u << s.tc)
            pairs = unplayed & (unplayed >> 1) & QUEENS
            mm = 20 * bm_pop(pairs) + (20 if pairs & tmask else 0)
            mo = mm
        elif s66:
            mm = 0
            mo = 0
        else:
            pairs = s.hm & (s.hm >> 1) & QUEENS
            mm = 20 * bm_pop(pairs) + (20 if pairs & tmask else 0)
            pairs = s.ho & (s.ho >> 1) & QUEENS
            mo = 20 * bm_pop(pairs) + (20 if pairs & tmask else 0)
        r = mask_points(unplayed) + (bonus_ok if s.cl == 0 else 0)
        reach_m = s.pm + s.qm + r + mm
        reach_o = s.po + s.qo + r + mo
        if not s.ts:
            mt = s.hm & tmask
            ot = s.ho & tmask
            top = bm_len(mt)
            sure_o = (ot >> top) << top
            if sure_o:
                reach_m -= mask_points(sure_o) + cheapest(s.hm, bm_pop(sure_o))
            top = bm_len(ot)
            sure_m = (mt >> top) << top
            if sure_m:
                reach_o -= mask_points(sure_m) + cheapest(s.ho, bm_pop(sure_m))
        reach_m = reach_m >= 66
        reach_o = reach_o >= 66
        if s.cl == 1:
            if not reach_m:
                tt_put(k1, k2, depth, -s.sf, -s.sf, -1)
                return -s.sf
            hi = s.sw if viennese else table(s.to, s.po)
            lo = -s.sf
        elif s.cl == 2:
            if not reach_o:
                tt_put(k1, k2, depth, s.sf, s.sf, -1)
                return s.sf
            hi = s.sf
            lo = -(s.sw if viennese else table(s.tm, s.pm))
        else:
            hi = table(s.to, s.po)
            if not reach_m and not s66:
                hi = 1
            if allow_close and (s.ts >= 6 or (s.ts == 4 and close_two)):
                w = 3 if s.tm == 0 else 2
                if w > hi:
                    hi = w
            lo = -table(s.tm, s.pm)
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
    if (s.tm or not marry_trick) and (s.ts or not s66):
        pairs = s.hm & (s.hm >> 1) & QUEENS
    else:
        pairs = 0
    if manual and (claim or pairs):
        best = false_claim(s.to, s.po, s.cl, s.sf)
        if best > alpha:
            alpha = best
            if alpha >= beta:
                tt_put(k1, k2, depth, lo if lo > best else best, hi, -1)
                return best
    # Sure winners: cards op cannot beat, now and (with the talon gone) later.
    otr = s.ho & tmask
    sure = 0
    now = 0
    for su in range(4):
        ms = s.hm & SUIT[su]
        if ms:
            os_ = s.ho & SUIT[su]
            top = bm_len(os_)
            if su == trump or not otr:
                sure |= (ms >> top) << top
            elif os_ and not s.ts:
                now |= (ms >> top) << top
    now |= sure
    if now:
        gain = top_points(now) + cheapest(s.ho, 1)
        if sure and not s.ts:
            g = mask_points(sure) + cheapest(s.ho, bm_pop(sure))
            if g > gain:
                gain = g
        if s.pm + s.qm + gain >= 66:
            v = claim_win(s.to, s.po, s.cl, s.sw, s.sf)
            tt_put(k1, k2, depth, v, v, -1)
            return v
    # The leader's options, best first.
    n = 0
    m = s.hm
    while m:
        c = bm_ctz(m)
        m &= m - 1
        r = c % 6
        if pairs and (r == 2 or r == 3) and (pairs >> (c - r + 2)) & 1 and (r == 3 or not leads_king):
            mv = MARRY + c
            score = -100 - P[c]
        else:
            mv = c
            if (now >> c) & 1:
                score = -50 - P[c]
            elif c // 6 == trump:
                score = 20 - P[c]
            else:
                score = -P[c]
        if mv == bm:
            score = -1000
        i = n
        while i > 0 and scores[i - 1] > score:
            scores[i] = scores[i - 1]
            moves[i] = moves[i - 1]
            i -= 1
        scores[i] = score
        moves[i] = mv
        n += 1
    if s.ts:
        if (s.hm & low_trump) and (s.ts > 2 or exch_two) and (s.tm or not exch_trick):
            score = -1000 if bm == EXCHANGE_MOVE else -400
            i = n
            while i > 0 and scores[i - 1] > score:
                scores[i] = scores[i - 1]
                moves[i] = moves[i - 1]
                i -= 1
            scores[i] = score
            moves[i] = EXCHANGE_MOVE
            n += 1
        if allow_close and (s.ts > 2 or close_two):
            score = -1000 if bm == CLOSE_MOVE else -300
            i = n
            while i > 0 and scores[i - 1] > score:
                scores[i] = scores[i - 1]
                moves[i] = moves[i - 1]
                i -= 1
            scores[i] = score
            moves[i] = CLOSE_MOVE
            n += 1
    for i in range(n):
        mv = moves[i]
        if mv < 24:
            t = s[0]
            t.hm = s.hm ^ (1u << mv)
            v = respond(mv, 0, &t, alpha, beta)
        elif mv >= MARRY:
            c = mv - MARRY
            val = 40 if c // 6 == trump else 20
            t = s[0]
            t.hm = s.hm ^ (1u << c)
            if s.tm and not next_trick:
                t.pm = s.pm + val
            else:
                t.qm = s.qm + val
            if t.pm >= 66:
                v = claim_win(s.to, s.po, s.cl, s.sw, s.sf)
            else:
                v = respond(c, 0, &t, alpha, beta)
        elif mv == EXCHANGE_MOVE:
            t = s[0]
            t.hm = (s.hm ^ low_trump) | (1u << s.tc)
            t.tc = low_trump_card
            v = lead(&t, 0, alpha, beta)
        else:
            t = s[0]
            t.cl = 1
            t.sw = table(s.to, s.po)
            t.sf = 3 if s.to == 0 else 2
            t.ts = 0
            t.tc = 0
            v = lead(&t, 0, alpha, beta)
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
        lo = best
        hi = best
    tt_put(k1, k2, depth, lo, hi, move)
    return best


cdef int married_value(int suit, St* s, int alpha, int beta) noexcept nogil:
    """The leader has declared the marriage in suit (points already added): claim or lead K/Q."""
    cdef int best, c, v, a, r
    cdef St t
    if s.pm >= 66:
        return claim_win(s.to, s.po, s.cl, s.sw, s.sf)
    best = false_claim(s.to, s.po, s.cl, s.sf) if manual else -4
    for r in range(2):
        c = suit * 6 + 3 - r
        if r and leads_king:
            break
        if best >= beta:
            break
        t = s[0]
        t.hm = s.hm ^ (1u << c)
        a = alpha if alpha > best else best
        v = respond(c, 0, &t, a, beta)
        if v > best:
            best = v
    return best


cdef enum:
    J_LEAD = 0
    J_RESPOND = 1
    J_FOLLOWER = 2
    J_MARRIED = 3


cdef int run_job(int job, int arg, uint32_t fmask, St* s, int claim, int alpha, int beta) noexcept nogil:
    cdef St t
    if job == J_LEAD:
        return lead(s, claim, alpha, beta)
    if job == J_RESPOND:
        t = s[0]
        t.hm = s.hm ^ (1u << arg)
        return respond(arg, 0, &t, alpha, beta)
    if job == J_FOLLOWER:
        return -respond(arg, fmask, s, -beta, -alpha)
    return married_value(arg, s, alpha, beta)


cdef int exact(int job, int arg, uint32_t fmask, St s, int claim, int hi) noexcept nogil:
    """The exact value of a job by null-window tests, hi a known upper bound (as pysolver.exact)."""
    cdef int lo = -3, t, v
    if hi == 0 and not s66:
        hi = -1
    t = 2 if hi == 3 else hi
    while True:
        v = run_job(job, arg, fmask, &s, claim, t - 1, t)
        if v >= t:
            lo = v
        else:
            hi = v
        if not s66:
            if hi == 0:
                hi = -1
            if lo == 0:
                lo = 1
        if lo >= hi:
            return lo
        if v >= t:
            t = lo + 1
            if t == 0 and not s66:
                t = 1
        else:
            t = hi


def analyse(tuple pos, bint want_actions):
    """Solve a position tuple: (value for the player to move, {action code: value} if wanted, nodes)."""
    global s66, manual, viennese, mirror, allow_close, close_two, exch_two, exch_trick
    global marry_trick, leads_king, next_trick, trump, bonus_ok, low_trump_card, tmask, low_trump
    global nodes, gen
    cdef int kind = pos[0], arg = pos[1], flags = pos[16], claim0 = pos[15]
    cdef St s
    cdef St t
    cdef tuple stock = pos[18]
    cdef int n, i, ts, c, f, suit, val, value
    cdef uint32_t m, fmask
    s.hm = pos[2]
    s.ho = pos[3]
    s.pm = pos[4]
    s.po = pos[5]
    s.tm = pos[6]
    s.to = pos[7]
    s.qm = pos[8]
    s.qo = pos[9]
    s.cl = pos[10]
    s.sw = pos[11]
    s.sf = pos[12]
    s.ts = pos[13]
    s.tc = pos[14]
    trump = pos[17]
    s66 = (flags & F_SIXTY_SIX) != 0
    manual = (flags & F_AUTO) == 0
    viennese = (flags & F_TOURNAMENT) == 0
    mirror = (flags & F_MIRROR) != 0
    allow_close = (flags & F_ALLOW_CLOSE) != 0
    close_two = (flags & F_CLOSE_TWO) != 0
    exch_two = (flags & F_EXCH_TWO) != 0
    exch_trick = (flags & F_EXCH_TRICK) != 0
    marry_trick = (flags & F_MARRY_TRICK) != 0
    leads_king = (flags & F_LEADS_KING) != 0
    next_trick = (flags & F_NEXT_TRICK) != 0
    tmask = SUIT[trump]
    low_trump_card = trump * 6 + (0 if s66 else 1)
    low_trump = 1u << low_trump_card
    bonus_ok = 10 if s66 else 0
    n = len(stock)
    for i in range(14):
        win_bit[i] = 0
        lose_bit[i] = 0
        fd_mask[i] = 0
    for ts in range(2, s.ts + 1, 2):
        i = n - (ts - 1)
        win_bit[ts] = 1u << <int> stock[i]
        lose_bit[ts] = (1u << <int> stock[i + 1]) if ts > 2 else 0
        for c in stock[i:]:
            fd_mask[ts] |= 1u << c
    gen += 1
    if gen == 0:
        memset(tt, 0, TT_SIZE * sizeof(Entry))
        gen = 1
    nodes = 0
    values = {}
    if kind == K_ENDING:
        values[A_CLAIM] = (claim_win(s.to, s.po, s.cl, s.sw, s.sf) if s.pm >= 66
                           else false_claim(s.to, s.po, s.cl, s.sf))
        values[A_PASS] = passed(s.pm, s.po, s.tm, s.to, s.cl, s.sf)
        return max(values.values()), (values if want_actions else {}), 0
    if kind == K_FOLLOW:
        c = arg
        if s.ts:
            fmask = s.ho
        else:
            fmask = s.ho & HIGHER[c]
            if not fmask:
                fmask = s.ho & SUIT[c // 6]
            if not fmask:
                fmask = s.ho & tmask
            if not fmask:
                fmask = s.ho
        value = exact(J_FOLLOWER, c, fmask, s, 0, 3)
        if not want_actions:
            return value, {}, nodes
        m = fmask
        while m:
            f = bm_ctz(m)
            m &= m - 1
            values[f] = exact(J_FOLLOWER, c, 1u << f, s, 0, value)
        return value, values, nodes
    if kind == K_MARRIED:
        value = exact(J_MARRIED, arg, 0, s, 0, 3)
        if not want_actions:
            return value, {}, nodes
        if manual:
            values[A_CLAIM] = (claim_win(s.to, s.po, s.cl, s.sw, s.sf) if s.pm >= 66
                               else false_claim(s.to, s.po, s.cl, s.sf))
        values[arg * 6 + 3] = exact(J_RESPOND, arg * 6 + 3, 0, s, 0, value)
        if not leads_king:
            values[arg * 6 + 2] = exact(J_RESPOND, arg * 6 + 2, 0, s, 0, value)
        return value, values, nodes
    value = exact(J_LEAD, 0, 0, s, claim0, 3)
    if not want_actions:
        return value, {}, nodes
    if claim0:
        values[A_CLAIM] = (claim_win(s.to, s.po, s.cl, s.sw, s.sf) if s.pm >= 66
                           else false_claim(s.to, s.po, s.cl, s.sf))
    m = s.hm
    while m:
        c = bm_ctz(m)
        m &= m - 1
        values[c] = exact(J_RESPOND, c, 0, s, 0, value)
    if (s.tm or not marry_trick) and (s.ts or not s66):
        for suit in range(4):
            if (s.hm >> (suit * 6 + 2)) & (s.hm >> (suit * 6 + 3)) & 1:
                val = 40 if suit == trump else 20
                t = s
                if s.tm and not next_trick:
                    t.pm = s.pm + val
                else:
                    t.qm = s.qm + val
                values[A_MARRY + suit] = exact(J_MARRIED, suit, 0, t, 0, value)
    if s.ts:
        if (s.hm & low_trump) and (s.ts > 2 or exch_two) and (s.tm or not exch_trick):
            t = s
            t.hm = (s.hm ^ low_trump) | (1u << s.tc)
            t.tc = low_trump_card
            values[24] = exact(J_LEAD, 0, 0, t, 0, value)
        if allow_close and (s.ts > 2 or close_two):
            t = s
            t.cl = 1
            t.sw = table(s.to, s.po)
            t.sf = 3 if s.to == 0 else 2
            t.ts = 0
            t.tc = 0
            values[25] = exact(J_LEAD, 0, 0, t, 0, value)
    return value, values, nodes
