"""A learned opponent model: how likely each card the opponent played was, given what it held then.

Issue 16's candidate "policy-based inference" (as in Skat programs: Solinas, Rebstock, Sturtevant and
Buro, 2019). :mod:`bummerl.bots.inference` weighs a world by what the opponent's play *rules out* (a
follow the strict rules forbid) and by missed exchanges and marriages; it says nothing about *which*
legal card the opponent chose. This module does:

- **The model** (:class:`OpponentModel`): a conditional logit over the legal cards of one card play,
  ``P(card | hand, public) = exp(w · f(card)) / sum over legal cards b of exp(w · f(b))``, with hand-made
  features :data:`FEATURES` per card (its points, trump or not, whether it wins the trick and what it
  captures or throws away, whether it is the highest card left of its suit, whether it breaks a
  marriage held, its suit's length in hand, the talon then, points then; a lead and a follow have their
  own weights). The weights are fitted by maximum likelihood on self-play of ``expert-v1`` and ``pimc``
  (``scripts/fit_opponent_model.py``) and ship in ``bummerl/data/opponent_model.json``, read through
  :mod:`bummerl.jsonio` and checked (:func:`model_from_json`).
- **The opponent's earlier plays** (:func:`opponent_plays`): from a view, every card the opponent played
  (its current lead included), with the public state then. Declared marriages' leads are left out (the
  card is forced).
- **Its hand then** (:func:`hands_then`): a world fixes the opponent's hand *now*; its hand at an earlier
  play is that plus the cards it played since, less the cards it drew since. Which of them it drew
  when is unknown: the draws are undone backwards, each time taking a card uniformly among those it may
  have drawn (not a marriage partner it showed before, not the trump card it took by an exchange), which
  samples the draw orders consistent with the view uniformly. The drawn trump card at the last open trick
  is known. An exchange's moment is not in a view: it is taken as the opponent's first lead where the
  rules allowed it (PIMC bots exchange at once).
- **The world weight** (:func:`model_weight`): the mean over ``orders`` sampled draw orders of the
  product of the model's probabilities of the opponent's plays, raised to ``temper``.
- **The bot** (:class:`ModelExpert`): ``expert-v1``'s play (:class:`~bummerl.bots.expert.ExpertBot`
  with its hand-set evidence and tilts kept), its sampled worlds' weights multiplied by the model weight.

Measured (``scripts/fit_opponent_model.py`` with its defaults: 268 ``expert-v1`` and 1000 ``pimc``
self-play deals, seed 16000, every fifth deal held out; 9,876 card plays with a choice fitted):

- *Held-out log-likelihood per card play*: ``expert-v1`` -0.983 nats (545 plays) against -1.453 for
  uniform over the legal cards; ``pimc`` -0.930 (2,005) against -1.429. Today's inference has no model of
  which legal card is played, so for card play it *is* the uniform one.
- *Belief check* (623 decisions of the held-out ``expert-v1`` deals, 100 worlds each): the mean log-loss,
  per card the decider does not see, of the weighted share of worlds in which the opponent holds it:
  uniform worlds 0.6276, today's inference 0.6140, today's inference times the model 0.6061 with
  ``temper`` 0.5 and 0.6125 with 1 (too sharp: few worlds carry the weight). Hence ``temper=0.5``.
- *Cost*: weighting 400 worlds takes a median 0.06 s, p95 0.13 s on the loaded 2-core machine. Per
  decision against ``expert-v1`` (6 deck pairs, seed 16, load about 6, one run): median 68 ms, p95 0.95 s,
  max 2.0 s, against ``expert-v1``'s own 90 ms, 0.86 s and 1.25 s; 18% more wall time.
- *Screening* (``scripts/compare_bots.py expert-v1 "bummerl.bots.opponent_model.ModelExpert:temper=0.5"
  --opponent expert-v1 --pairs 300 --seed 16``, the one run planned): variant - base +0.012 [-0.041,
  +0.065] game points per deal; 86 of 600 deals played differently. No measurable gain: the model
  changes few decisions, and those it changes are not clearly better.

>>> from bummerl import Deal, Rules, View
>>> deal = Deal.random(Rules.preset("standard"), 3)
>>> deal.apply(deal.legal_actions()[0])
>>> view = View.of(deal, deal.to_move)
>>> [p.card for p in opponent_plays(view).plays] == [deal.lead]  # the lead I am to follow
True
>>> weigh = model_weight(view, default_model(), seed=1)
>>> 0 < weigh(deal) <= 1
True
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import resources
from random import Random
from typing import Any

from bummerl.bots.expert import ExpertBot
from bummerl.bots.pimc import decision_seed
from bummerl.cards import (
    CARDS,
    HIGHER,
    MARRIAGE_PAIRS,
    PACK_MASKS,
    POINTS,
    SUIT_MASKS,
    SUITS,
    Rank,
    card_points,
    cards_in,
    trick_winner,
)
from bummerl.engine import Deal, PositionError, Setup
from bummerl.errors import BummerlError, require_at_least
from bummerl.jsonio import loads
from bummerl.rules import Rules
from bummerl.scoring import WIN_POINTS, marriage_points
from bummerl.view import View

__all__ = [
    "FEATURES", "FORMAT", "ModelExpert", "OpponentModel", "OpponentModelError", "OpponentPlays", "Play",
    "default_model", "features", "hands_then", "legal_cards", "load_model", "model_from_json",
    "model_weight", "opponent_plays",
]

#: The ``format`` field of the model's JSON file.
FORMAT = "bummerl opponent model 1"
#: The largest weight the loader accepts (a fitted one is a few units at most).
MOST_WEIGHT = 100.0
_DATA = "opponent_model.json"
QUEEN, KING = int(Rank.QUEEN), int(Rank.KING)

#: The features of one card play, in the order of the model's weights. ``lead_*`` are zero on a follow and
#: ``follow_*`` on a lead. ``pts``: the card's points / 11; ``trump``: a trump; ``boss``: no card of its
#: suit above it is left outside the player's hand; ``breaks``: a king or queen whose partner is in hand;
#: ``length``: cards of its suit in hand (itself included) / 5; ``strict``: the talon closed or exhausted;
#: ``talon``: cards in the talon / 10; ``win``: it takes the trick; ``capture``: the trick's points / 22
#: when it wins; ``throw``: its points / 11 when it loses; ``ruff``: a trump on a lead of another suit;
#: ``suit``: the lead's suit; ``reach``: winning takes the player to 66 points or more; ``near``: the
#: player's points / 66 before the trick (times ``win`` on a follow, times ``pts`` on a lead).
FEATURES: tuple[str, ...] = (
    "lead_pts", "lead_trump", "lead_trump_pts", "lead_boss", "lead_boss_pts", "lead_breaks", "lead_length",
    "lead_strict_pts", "lead_strict_trump", "lead_strict_boss", "lead_talon_pts", "lead_near_pts",
    "follow_pts", "follow_trump", "follow_win", "follow_capture", "follow_throw", "follow_ruff",
    "follow_suit", "follow_breaks", "follow_reach", "follow_strict_win", "follow_talon_win",
    "follow_near_win", "follow_length",
)


class OpponentModelError(BummerlError):
    """A model file that is missing, not JSON or not a model of this version; the message is one line."""


@dataclass(frozen=True, slots=True)
class Play:
    """One card the opponent played, and the public state then (as the other seat knows it).

    ``trick``: the trick's number (0 first); ``lead``: the card it followed, -1 for a lead; ``played``:
    the cards of the finished tricks before; ``strict``: the talon was closed or exhausted; ``talon``:
    the cards in the talon (0 when strict); ``points``: the player's points before the trick (cards won
    and marriages declared); ``marriage``: it led a card of a marriage it had just declared (forced)."""

    trick: int
    card: int
    lead: int
    played: int
    strict: bool
    talon: int
    points: int
    marriage: bool = False


@dataclass(frozen=True, slots=True)
class OpponentPlays:
    """The opponent's plays in a view, with what its hand's history needs: ``draws[i]`` is how its hand
    changed after the trick of ``plays[i]`` (-1: no draw; -2: a hidden card drawn; else the card drawn,
    known), ``sure[i]`` the cards it surely held at that play and kept (shown marriage partners, the card
    taken by exchange), ``exchange`` the index of the play before which it exchanged ``swap`` (the card
    given, the card taken), -1 if it did not."""

    rules: Rules
    trump: int
    opponent: int
    plays: tuple[Play, ...]
    draws: tuple[int, ...]
    sure: tuple[int, ...]
    exchange: int = -1
    swap: tuple[int, int] = (-1, -1)


def _open_tricks(view: View) -> int:
    """How many tricks were (or are being) played with the talon open (each drew after it)."""
    initial = view.rules.pack_size - 2 * view.rules.hand_size
    if view.talon_open:
        return len(view.trick_log) + 1
    if view.closed_by >= 0:
        return (initial - view.talon_size) // 2
    return initial // 2


def opponent_plays(view: View) -> OpponentPlays:
    """The opponent's card plays in ``view``, oldest first (its lead to the trick I am to follow included).

    >>> from bummerl import Deal, Rules, View
    >>> deal = Deal.random(Rules.preset("standard"), 5)
    >>> for _ in range(4):
    ...     deal.apply(deal.legal_actions()[0])
    >>> ops = opponent_plays(View.of(deal, 0))
    >>> [(p.trick, p.lead >= 0, p.talon) for p in ops.plays], ops.draws  # it followed twice, drew twice
    ([(0, True, 10), (1, True, 8)], (-2, -2))
    """
    rules = view.rules
    opp = 1 - view.seat
    trump = int(view.trump_suit)
    initial = rules.pack_size - 2 * rules.hand_size
    open_tricks = _open_tricks(view)
    tricks = [(t.leader, int(t.lead), int(t.follow), t.winner) for t in view.trick_log]
    if view.lead_card is not None and view.to_move == view.seat:
        tricks.append((opp, int(view.lead_card), -1, -1))
    married = {suit for player, suit in view.marriages if player == opp}
    opp_exchanged = view.exchanged is not None and view.exchanged[0] == opp
    exhausted = view.closed_by < 0 and not view.talon_open
    last_trump = int(view.last_trump_card) if view.last_trump_card is not None else -1
    plays: list[Play] = []
    draws: list[int] = []
    sure: list[int] = []
    exchange = -1
    held = 0  # cards surely held from some play on (shown marriage partners, the card taken by exchange)
    points = [0, 0]
    won = [0, 0]
    played = 0
    for i, (leader, lead, follow, winner) in enumerate(tricks):
        strict = i >= open_tricks
        mine = lead if leader == opp else follow
        marriage = False
        if leader == opp and lead % 6 in (QUEEN, KING) and lead // 6 in married:
            pair = MARRIAGE_PAIRS[lead // 6]
            if not played & pair:  # the first of the pair it played: the marriage's lead
                marriage = True
                held |= pair & ~(1 << lead)
                points[opp] += marriage_points(lead // 6, trump)  # counted now or at its first trick
        if (
            opp_exchanged and exchange < 0 and leader == opp and not strict
            and rules.may_exchange(initial - 2 * i, bool(won[opp]))
        ):
            assert view.exchanged is not None
            exchange = len(plays)
            held |= 1 << int(view.exchanged[2])
        plays.append(Play(
            i, mine, -1 if leader == opp else lead, played, strict,
            0 if strict else initial - 2 * i, points[opp], marriage,
        ))
        sure.append(held)
        if follow < 0:
            draws.append(-1)
            break
        played |= (1 << lead) | (1 << follow)
        won[winner] += 1
        points[winner] += POINTS[lead] + POINTS[follow]
        if strict:
            draws.append(-1)
        elif i + 1 == open_tricks and exhausted and winner != opp and last_trump >= 0:
            draws.append(last_trump)  # the loser of the last open trick takes the trump card
        else:
            draws.append(-2)
    swap = (int(view.exchanged[1]), int(view.exchanged[2])) if exchange >= 0 and view.exchanged else (-1, -1)
    return OpponentPlays(rules, trump, opp, tuple(plays), tuple(draws), tuple(sure), exchange, swap)


def hands_then(ops: OpponentPlays, hand: int, rng: Random) -> list[int] | None:
    """The opponent's hand at each of its plays (the card played included), when it holds ``hand`` now:
    one draw order sampled uniformly among those consistent with the view. None if there is none.

    >>> from bummerl import Deal, Rules, View
    >>> deal = Deal.random(Rules.preset("standard"), 5)
    >>> for _ in range(4):
    ...     deal.apply(deal.legal_actions()[0])
    >>> ops = opponent_plays(View.of(deal, 1))
    >>> hands = hands_then(ops, deal.hands[0], Random(1))
    >>> [(h.bit_count(), bool(h >> p.card & 1)) for h, p in zip(hands, ops.plays)]
    [(5, True), (5, True)]
    """
    out = [0] * len(ops.plays)
    for i in range(len(ops.plays) - 1, -1, -1):
        draw = ops.draws[i]
        if draw >= 0:
            if not hand >> draw & 1:
                return None
            hand ^= 1 << draw
        elif draw == -2:
            free = hand & ~ops.sure[i]
            if not free:
                return None
            cards = list(cards_in(free))
            hand ^= 1 << cards[rng.randrange(len(cards))]
        play = ops.plays[i]
        if hand >> play.card & 1:
            return None
        hand |= 1 << play.card
        out[i] = hand
        if i == ops.exchange:
            given, taken = ops.swap
            if not hand >> taken & 1 or hand >> given & 1:
                return None
            hand ^= (1 << taken) | (1 << given)
    return out


@cache
def _plain(rules: Rules) -> Rules:
    return rules.replace(auto_claim=False)


@lru_cache(maxsize=1 << 16)
def _strict_follows(rules: Rules, trump: int, hand: int, lead: int) -> int:
    """The cards the engine lets a follower holding ``hand`` play to ``lead`` under the strict rules."""
    rules = _plain(rules)
    pack = PACK_MASKS[rules.sixty_six]
    n = hand.bit_count()
    filler = list(cards_in(pack & ~hand & ~(1 << lead)))[: n - 1]
    leader_hand = sum(1 << c for c in filler)
    gone = pack & ~hand & ~leader_hand & ~(1 << lead)
    try:
        deal = Deal.from_setup(Setup(
            rules, hands=(leader_hand, hand), talon=(), trump=SUITS[trump], to_move=1, lead=CARDS[lead],
            tricks=(gone.bit_count() // 2, 0), points=(card_points(gone), 0),
        ))
    except PositionError:
        return hand
    return sum(1 << a.code for a in deal.legal_actions() if a.kind == "play")


def legal_cards(ops: OpponentPlays, play: Play, hand: int) -> int:
    """The cards the opponent could play at ``play`` holding ``hand`` (the engine decides strict follows).

    >>> from bummerl.cards import mask_of, parse_cards, Card
    >>> std = Rules.preset("standard")
    >>> ops = OpponentPlays(std, 0, 1, (), (), ())
    >>> strict = Play(8, int(Card.parse("AH")), int(Card.parse("TH")), 0, True, 0, 30)
    >>> from bummerl.cards import cards_str
    >>> cards_str(legal_cards(ops, strict, mask_of(parse_cards("JH AH QS"))))
    'AH'
    """
    if play.lead < 0 or not play.strict:
        return hand
    return _strict_follows(ops.rules, ops.trump, hand, play.lead)


def features(card: int, hand: int, play: Play, trump: int) -> list[float]:
    """The :data:`FEATURES` of playing ``card`` from ``hand`` at ``play`` (its card aside: the situation).

    >>> from bummerl.cards import Card, mask_of, parse_cards
    >>> p = Play(0, 0, int(Card.parse("TH")), 0, False, 10, 0)
    >>> f = dict(zip(FEATURES, features(int(Card.parse("AH")), mask_of(parse_cards("AH KS QS")), p, 0)))
    >>> f["follow_win"], f["follow_capture"] * 22, f["lead_pts"]
    (1.0, 21.0, 0.0)
    """
    out = [0.0] * len(FEATURES)
    suit = card // 6
    pts = POINTS[card] / 11
    is_trump = 1.0 if suit == trump else 0.0
    rank = card % 6
    breaks = 0.0
    if rank in (QUEEN, KING) and hand >> (card - rank + (KING if rank == QUEEN else QUEEN)) & 1:
        breaks = 1.0
    length = (hand & SUIT_MASKS[suit]).bit_count() / 5
    strict = 1.0 if play.strict else 0.0
    near = play.points / 66
    if play.lead < 0:
        boss = 1.0 if not HIGHER[card] & ~(play.played | hand) else 0.0
        out[0:12] = [
            pts, is_trump, is_trump * pts, boss, boss * pts, breaks, length,
            strict * pts, strict * is_trump, strict * boss, play.talon / 10 * pts, near * pts,
        ]
    else:
        lead = play.lead
        win = 1.0 if trick_winner(lead, card, trump) == card else 0.0
        trick_pts = POINTS[lead] + POINTS[card]
        reach = 1.0 if win and play.points + trick_pts >= WIN_POINTS else 0.0
        out[12:25] = [
            pts, is_trump, win, win * trick_pts / 22, (1 - win) * pts,
            1.0 if win and is_trump and lead // 6 != trump else 0.0,
            1.0 if suit == lead // 6 else 0.0, breaks, reach, strict * win, play.talon / 10 * win,
            near * win, length,
        ]
    return out


@dataclass(frozen=True, slots=True)
class OpponentModel:
    """The fitted weights of the card-play model (one per :data:`FEATURES`) and what the fit measured."""

    weights: tuple[float, ...]
    fit: dict[str, Any]

    def scores(self, ops: OpponentPlays, play: Play, hand: int) -> dict[int, float]:
        """``w · f(card)`` for every legal card of ``play`` with ``hand``."""
        w = self.weights
        out = {}
        for c in cards_in(legal_cards(ops, play, hand)):
            out[int(c)] = sum(x * y for x, y in zip(w, features(int(c), hand, play, ops.trump), strict=True)
                              if y)
        return out

    def probabilities(self, ops: OpponentPlays, play: Play, hand: int) -> dict[int, float]:
        """The probability of each legal card of ``play`` (a softmax of :meth:`scores`); they sum to 1.

        >>> from bummerl.cards import Card, mask_of, parse_cards
        >>> p = Play(0, int(Card.parse("AH")), -1, 0, False, 10, 0)
        >>> ops = OpponentPlays(Rules.preset("standard"), 0, 1, (p,), (-2,), (0,))
        >>> probs = default_model().probabilities(ops, p, mask_of(parse_cards("AH KS QS JD TC")))
        >>> len(probs), round(sum(probs.values()), 9)
        (5, 1.0)
        """
        s = self.scores(ops, play, hand)
        top = max(s.values())
        e = {c: math.exp(v - top) for c, v in s.items()}
        z = sum(e.values())
        return {c: v / z for c, v in e.items()}

    def likelihood(self, ops: OpponentPlays, play: Play, hand: int) -> float:
        """The probability that the opponent played ``play.card`` holding ``hand`` (0 if illegal)."""
        return self.probabilities(ops, play, hand).get(play.card, 0.0)

    def to_json(self) -> dict[str, Any]:
        """The model's JSON object (read back by :func:`model_from_json`)."""
        return {"format": FORMAT, "features": list(FEATURES), "weights": list(self.weights), "fit": self.fit}


def model_from_json(data: Any) -> OpponentModel:
    """A model from its JSON object, checked: the format, the features (names and order) and finite
    weights no larger than :data:`MOST_WEIGHT`; anything else raises :class:`OpponentModelError`.

    >>> model_from_json({"format": FORMAT, "features": ["pts"], "weights": [1.0]})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    bummerl.bots.opponent_model.OpponentModelError: opponent model: the features are not this version's ...
    """
    if not isinstance(data, dict):
        raise OpponentModelError("opponent model: not a JSON object")
    if data.get("format") != FORMAT:
        raise OpponentModelError(f"opponent model: the format is not {FORMAT!r}")
    names = data.get("features")
    if not isinstance(names, list) or tuple(names) != FEATURES:
        given = len(names) if isinstance(names, list) else 0
        raise OpponentModelError(
            f"opponent model: the features are not this version's ({given} given, {len(FEATURES)} expected)")
    weights = data.get("weights")
    if not isinstance(weights, list) or len(weights) != len(FEATURES):
        raise OpponentModelError(f"opponent model: expected {len(FEATURES)} weights")
    for w in weights:
        if isinstance(w, bool) or not isinstance(w, int | float) or not abs(w) <= MOST_WEIGHT:
            raise OpponentModelError(f"opponent model: a weight is not a number within ±{MOST_WEIGHT:g}")
    fit = data.get("fit", {})
    if not isinstance(fit, dict):
        raise OpponentModelError("opponent model: 'fit' is not a JSON object")
    return OpponentModel(tuple(float(w) for w in weights), fit)


def load_model(text: str | bytes) -> OpponentModel:
    """A model from the text of its JSON file (:func:`model_from_json` checks it)."""
    return model_from_json(loads(text))


@cache
def default_model() -> OpponentModel:
    """The model shipped in ``bummerl/data/opponent_model.json``."""
    try:
        text = resources.files("bummerl").joinpath("data", _DATA).read_bytes()
    except OSError as err:
        raise OpponentModelError(f"opponent model: cannot read {_DATA} ({err.strerror})") from None
    return load_model(text)


def model_weight(
    view: View, model: OpponentModel, seed: int, *, orders: int = 2, temper: float = 1.0
) -> Callable[[Deal], float]:
    """A weight for the worlds of ``view``: the mean over ``orders`` draw orders (:func:`hands_then`) of
    the product of the model's probabilities of the opponent's plays, to the power ``temper``. The
    draw orders come from ``seed`` and the order the worlds are weighed in, so the same seed and worlds
    give the same weights.

    >>> from bummerl import Deal, Rules
    >>> deal = Deal.random(Rules.preset("standard"), 2)
    >>> model_weight(View.of(deal, 0), default_model(), seed=1)(deal)  # nothing played yet
    1.0
    """
    ops = opponent_plays(view)
    scored = [i for i, p in enumerate(ops.plays) if not p.marriage]
    if not scored:
        return lambda world: 1.0
    rng = Random(seed)
    memo: dict[tuple[int, int], float] = {}
    opp = ops.opponent

    def likely(i: int, hand: int) -> float:
        key = (i, hand)
        p = memo.get(key)
        if p is None:
            p = memo[key] = model.likelihood(ops, ops.plays[i], hand)
        return p

    def weight(world: Deal) -> float:
        now = world.hands[opp]
        total = 0.0
        for _ in range(orders):
            hands = hands_then(ops, now, rng)
            if hands is None:
                continue
            prod = 1.0
            for i in scored:
                prod *= likely(i, hands[i])
                if not prod:
                    break
            total += prod ** temper if prod else 0.0
        return total / orders

    return weight


class ModelExpert(ExpertBot):
    """``expert-v1`` whose worlds are weighted by the learned opponent model too (see the module's note).

    ``temper``: the exponent of the model's likelihood (0 turns the model off); ``orders``: draw orders
    averaged per world. The other options are :class:`ExpertBot`'s, with ``expert-v1``'s settings as
    defaults (spelled out here, so a change of the expert's defaults leaves this candidate as it is).

    >>> from bummerl import Deal, Rules, View
    >>> deal = Deal.random(Rules.preset("standard"), 4)
    >>> for _ in range(12):
    ...     deal.apply(deal.legal_actions()[0])
    >>> view = View.of(deal, deal.to_move)
    >>> bot = ModelExpert(seed=1, samples=8, lookahead=8)
    >>> bot.choose(view) in view.legal_actions and bot.choose(view) == bot.choose(view)
    True
    """

    name = "expert-model"

    def __init__(self, seed: int | None = None, samples: int = 400, early_samples: int | None = 120, *,
                 temper: float = 0.5, orders: int = 2, model: OpponentModel | None = None,
                 name: str = "expert-model", **options: Any) -> None:
        options = {"bummerl": True, "infer": True, "fusion": frozenset({"exchange"}), "close_bias": 0.17,
                   "pv_worlds": 0, "pv_max_talon": 4, "read_leads": False, "lookahead": 200, "look_from": 18,
                   "sixty_six_early": None, **options}
        super().__init__(seed, samples, early_samples, name=name, **options)
        require_at_least("temper", temper, 0)
        require_at_least("orders", orders, 1)
        self.temper = temper
        self.orders = orders
        self.model = model if model is not None else default_model()

    def sample(self, view: View, n: int | None = None) -> tuple[list[Deal], list[float]]:
        """The expert's worlds and weights, each weight times the model's weight of its world (the
        model is left out if it weighs every world 0)."""
        deals, weights = super().sample(view, n)
        if not self.infer or not self.temper:
            return deals, weights
        seed = Random(f"{decision_seed(self.seed, view)}/model").getrandbits(62)
        weigh = model_weight(view, self.model, seed, orders=self.orders, temper=self.temper)
        model_w = [w * weigh(d) for d, w in zip(deals, weights, strict=True)]
        if not any(model_w):
            return deals, weights
        return deals, model_w
