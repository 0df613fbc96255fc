# The C types of core.py (Cython's pure-Python mode): the module's only declarations, no logic.
cimport cython

ctypedef unsigned long long u64

cdef extern from *:
    """
    static inline int bm_ctz(unsigned long long x) { return __builtin_ctzll(x); }
    static inline int bm_bitlen(unsigned long long x) { return x ? 64 - __builtin_clzll(x) : 0; }
    static inline int bm_popcount(unsigned long long x) {  /* no popcnt instruction assumed */
        x = x - ((x >> 1) & 0x5555555555555555ULL);
        x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
        return (int)((((x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL) * 0x0101010101010101ULL) >> 56);
    }
    """
    int ctz "bm_ctz" (u64 x) nogil
    int bitlen "bm_bitlen" (u64 x) nogil
    int popcount "bm_popcount" (u64 x) nogil

cdef int P[24]
cdef u64 SUIT[4]
cdef u64 HIGHER[24]
cdef u64 RANKS[6]
cdef u64 QUEENS
cdef int CHUNK[64]
cdef int SWAP[3]
cdef int PROBES[12]
cdef int ORDER[2304]
cdef int RANK[2304]
cdef int SPLIT[96]
cdef int SLOTS[256]
cdef int NOW_SLOT[24]
cdef int CARD_SLOT[96]
cdef int EXCHANGE_MOVE, CLOSE_MOVE, MARRY, NO_CUT
cdef int A_EXCHANGE, A_CLOSE, A_CLAIM, A_PASS, A_MARRY
cdef int F_SIXTY_SIX, F_AUTO, F_ALLOW_CLOSE, F_CLOSE_TWO, F_EXCH_TWO, F_EXCH_TRICK
cdef int F_MARRY_TRICK, F_LEADS_KING, F_NEXT_TRICK, F_TOURNAMENT, F_MIRROR
cdef int K_LEAD, K_MARRIED, K_FOLLOW, K_ENDING
cdef int J_LEAD, J_RESPOND, J_FOLLOWER, J_MARRIED
cdef u64 MIX1, MIX2, MIX3, MASK64
cdef u64 TT_BITS, TT_SIZE, TT_WAYS, HANDS, GT_BITS, GT_SIZE, GT_WAYS

cdef bint _wins(int c, int f, int trump) noexcept nogil
cdef int _table(int tricks, int points) noexcept nogil
cdef int _mask_points(u64 m) noexcept nogil
@cython.locals(total=int, r=int, n=int, x=u64)
cdef int _cheapest(u64 hand, int k) noexcept nogil
@cython.locals(o=u64, top=int)
cdef u64 _above(u64 h1, u64 h2, int suit) noexcept nogil
@cython.locals(n=int)
cdef int _cashed(u64 sure, u64 other) noexcept nogil
cdef int _low(u64 m) noexcept nogil
cdef int _cut(int lo, int hi, int alpha, int beta) noexcept nogil
cdef (int, int) _narrow(int lo, int hi, int alpha, int beta) noexcept nogil
cdef (int, int) _settled(int best, int alpha, int beta, int lo, int hi) noexcept nogil
@cython.locals(r=int)
cdef int _top_points(u64 m) noexcept nogil


@cython.final
cdef class Search:
    cdef int s66, manual, viennese, mirror, allow_close, close_two, exch_two, exch_trick
    cdef int marry_trick, leads_king, next_trick, trump, bonus_ok, low_trump_card
    cdef u64 tmask, low_trump
    cdef u64 win_bit[14]
    cdef u64 lose_bit[14]
    cdef u64 fd_mask[14]
    cdef int killer[14]
    cdef int rkill[336]
    cdef public long nodes
    cdef dict tt
    cdef dict gt
    cdef object words
    cdef u64* tab
    cdef object gwords
    cdef u64* gtab
    cdef u64 gen
    cdef u64 ho0
    cdef int po0, tm0, to0, qo0, cl0, sw0, sf0, ts0, tc0

    @cython.locals(view=u64[::1])
    cdef void bind(self)
    @cython.locals(h=u64)
    cdef inline u64 tt_find(self, u64 k1, u64 k2) noexcept nogil
    @cython.locals(b=u64, i=u64, w=u64, acc=int, found=int)
    cdef inline int tt_get(self, u64 k1, u64 k2, int pts) noexcept nogil
    @cython.locals(pm=int, po=int, use_lo=int, use_hi=int)
    cdef inline int merge(self, int acc, int ep, int ent, int pts) noexcept nogil
    @cython.locals(b=u64, e=u64, i=u64, w=u64, old=u64)
    cdef inline void tt_put(self, u64 k1, u64 k2, u64 depth, u64 entry) noexcept nogil
    @cython.locals(i=u64, w=u64, b=u64, ent=int)
    cdef inline int gt_get(self, u64 key) noexcept nogil
    @cython.locals(h=u64)
    cdef inline u64 gt_find(self, u64 key) noexcept nogil
    @cython.locals(b=u64, e=u64, i=u64, w=u64, old=u64)
    cdef inline void gt_put(self, u64 key, u64 entry, u64 depth) noexcept nogil
    @cython.locals(entry=u64, depth=u64)
    cdef inline void store(self, u64 k1, u64 k2, int pts, int lo, int hi, int move) noexcept nogil

    cdef inline int claim_win(self, int to, int po, int cl, int sw, int sf) noexcept nogil
    cdef inline int false_claim(self, int to, int po, int cl, int sf) noexcept nogil
    cdef inline int passed(self, int pm, int po, int tm, int to, int cl, int sf) noexcept nogil
    @cython.locals(v=int, fc=int)
    cdef inline int all_played(self, int pm, int po, int tm, int to, int cl, int sf) noexcept nogil

    @cython.locals(trump=int, cs=int, pc=int, nts=int, ntc=int, row=int, manual=int, vmin=int, todo=u64,
                   m=u64, f=int, low=u64, pts=int, h1=u64, h2=u64, v=int, k1=u64, k2=u64, ent=int, split=int,
                   step=int, b=int, bnd=int, sign=int, wh=u64, lh=u64, kf=int, wp=int, lp=int, lt=int, lq=int,
                   wcl=int, a=int, bb=int)
    cdef int respond(self, int c, u64 fmask, u64 hm, u64 ho, int pm, int po, int tm, int to, int qm,
                     int qo, int cl, int sw, int sf, int ts, int tc, int alpha, int beta) noexcept nogil

    @cython.locals(unplayed=u64, tmask=u64, pairs=u64, mm=int, mo=int, rest=int, reach_m=int, reach_o=int,
                   hi=int, lo=int, w=int)
    cdef int bounds(self, u64 hm, u64 ho, int pm, int po, int tm, int to, int qm, int qo, int cl, int sw,
                    int sf, int ts, int tc) noexcept nogil

    @cython.locals(trump=int, c=int, f=int, pts=int, fc=int, v=int, ocl=int, k1=u64, k2=u64, ent=int, b=int,
                   lo=int, hi=int, bm=int, a0=int, best=int, move=int, pairs=u64, otr=u64, sure=u64, now=u64,
                   s=int, need=int, gain=int, g=int, n=int, moves=u64, one=u64, first=int, km=int, kbit=int,
                   m=u64, r=int, mv=int, bit=int, slots=int, val=int, pm2=int, qm2=int)
    cdef int lead(self, u64 hm, u64 ho, int pm, int po, int tm, int to, int qm, int qo, int cl, int sw,
                  int sf, int ts, int tc, int claim, int alpha, int beta) noexcept nogil

    @cython.locals(trump=int, c=int, f=int, key=u64, ent=int, bm=int, lo=int, hi=int, a0=int, best=int,
                   move=int, one=u64, otr=u64, now=u64, s=int, moves=u64, first=int, m=u64, bit=int,
                   slots=int, hc=u64, fm=u64, row=int, todo=u64, split=int, vmin=int, b=int, pts=int, bnd=int,
                   v=int)
    cdef int secure(self, u64 h1, u64 h2, int rest, int bonus, int alpha, int beta) noexcept nogil
    @cython.locals(sure=u64, s=int)
    cdef inline u64 sure_winners(self, u64 h1, u64 h2) noexcept nogil
    @cython.locals(trump=int, best=int, m=u64, c=int, c2=int, fm=u64, vmin=int, f=int, f2=int, pts=int, v=int)
    cdef int last_two(self, u64 h1, u64 h2, int rest) noexcept nogil
    cdef inline int at_least(self, u64 hm, u64 ho, int rest, int bonus, int t) noexcept nogil
    @cython.locals(bonus=int, rest=int, t1=int, t2=int, win=int, lose=int, lo=int, hi=int)
    cdef int race(self, u64 hm, u64 ho, int pm, int po, int cl, int alpha, int beta) noexcept nogil

    @cython.locals(best=int, r=int, c=int, v=int, a=int)
    cdef int married(self, int suit, u64 hm, int pm, int qm, int alpha, int beta) noexcept nogil
    cdef int run_job(self, int job, int arg, u64 fmask, u64 hm, int pm, int qm, int cl, int sw, int sf,
                     int ts, int tc, int claim, int alpha, int beta) noexcept nogil
    @cython.locals(draws=int, lo=int, t=int, v=int, i=int)
    cdef int exact(self, int job, int arg, u64 fmask, u64 hm, int pm, int qm, int cl, int sw, int sf,
                   int ts, int tc, int claim, int hi) noexcept nogil
    @cython.locals(v=int)
    cdef int solve(self, int job, int arg, u64 fmask, u64 hm, int pm, int qm, int cl, int sw, int sf,
                   int ts, int tc, int claim, int hi)
    @cython.locals(flags=int, stock=tuple, n=int, t=int, i=int, c=int)
    cpdef void setup(self, tuple pos)
    @cython.locals(kind=int, arg=int, hm=u64, pm=int, qm=int, claim=int, ho=u64, po=int, tm=int, to=int,
                   cl=int, sw=int, sf=int, ts=int, tc=int, claim_value=int, values=dict,
                   c=int, f=int, fmask=u64, m=u64, value=int, r=int, suit=int, val=int, v=int)
    cpdef tuple solve_position(self, tuple pos, bint want_actions)
