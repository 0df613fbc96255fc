"""A fast rule-based player: the strategy of the seed articles written down as rules.

It counts both sides' points, keeps marriage partners and trumps, throws jacks and dead cards, exchanges the
trump jack, declares marriages, wins tricks with tens and aces cheaply, trumps a led ten or ace when it is
worth it, closes the talon when it counts a sure 66, and claims as soon as (and only when) it has 66.

It sees nothing but its :class:`~bummerl.view.View`.

>>> from bummerl import Deal, Rules, View
>>> deal = Deal.random(Rules.preset("standard"), 4)
>>> bot = HeuristicBot()
>>> while not deal.is_over:
...     deal.apply(bot.choose(View.of(deal, deal.to_move)))
>>> deal.outcome.reason in ("claim", "closer_failed", "last_trick")
True
"""

from __future__ import annotations

from collections.abc import Sequence
from math import comb
from random import Random

from bummerl.actions import CLAIM, CLOSE, EXCHANGE, PASS, Action
from bummerl.bots.base import forced_action
from bummerl.cards import HIGHER, POINTS, SUIT_MASKS, Rank, cards_in, trick_winner
from bummerl.scoring import HALF_POINTS, WIN_POINTS, marriage_points
from bummerl.view import View

__all__ = ["HeuristicBot", "follower_wins", "make_heuristic"]

QUEEN, KING, TEN, ACE = int(Rank.QUEEN), int(Rank.KING), int(Rank.TEN), int(Rank.ACE)
#: Points a player needs to win a deal, and to avoid losing two game points (rules.md 4.2).
WIN, HALF = WIN_POINTS, HALF_POINTS


def follower_wins(lead: int, card: int, trump: int) -> bool:
    """Whether ``card`` played to ``lead`` takes the trick (rules.md 3.3): :func:`~bummerl.cards.trick_winner`
    asked about the follower.

    >>> from bummerl.cards import Card
    >>> c = Card.parse
    >>> follower_wins(c("TH"), c("AH"), 0), follower_wins(c("AH"), c("JC"), 0)
    (True, True)
    >>> follower_wins(Card.parse("AH"), Card.parse("AS"), 0)
    False
    """
    return trick_winner(lead, card, trump) == card


class _Situation:
    """Everything the rules of thumb read from one view, computed once per decision."""

    __slots__ = (
        "declared",
        "exchange_later",
        "hand",
        "known",
        "me",
        "my_pending",
        "my_points",
        "my_tricks",
        "n_hidden",
        "n_unknown",
        "open",
        "opp",
        "opp_pending",
        "opp_points",
        "opp_tricks",
        "possible",
        "trump",
        "view",
    )

    def __init__(self, view: View) -> None:
        self.view = view
        self.me = view.seat
        self.opp = 1 - view.seat
        self.trump = int(view.trump_suit)
        self.hand = view.hand_mask
        self.known = view.opponent_known_mask
        unseen = view.unseen_mask
        #: Cards the opponent may hold.
        self.possible = unseen | self.known
        #: How many of the opponent's cards are unknown, and among how many unseen cards.
        self.n_hidden = max(0, view.opponent_hand_size - self.known.bit_count())
        self.n_unknown = unseen.bit_count()
        self.my_points = view.points[self.me]
        self.opp_points = view.points[self.opp]
        self.my_pending = view.pending[self.me]
        self.opp_pending = view.pending[self.opp]
        self.my_tricks = view.tricks_won[self.me]
        self.opp_tricks = view.tricks_won[self.opp]
        self.open = view.talon_open
        rules = view.rules
        self.exchange_later = view.trump_card is not None and rules.may_exchange(view.talon_size, True)
        self.declared = 0
        for _player, suit in view.marriages:
            self.declared |= 1 << suit

    # ------------------------------------------------------------------ knowledge

    def p_holds_any(self, mask: int) -> float:
        """Chance that the opponent holds at least one card of ``mask`` (uniform over unseen cards)."""
        if self.possible & mask & self.known:
            return 1.0
        k = (mask & self.possible & ~self.known).bit_count()
        if k == 0 or self.n_hidden == 0:
            return 0.0
        n = self.n_unknown
        if self.n_hidden > n - k:
            return 1.0
        return 1.0 - comb(n - k, self.n_hidden) / comb(n, self.n_hidden)

    def beaters(self, card: int) -> int:
        """Cards the opponent may hold that would take ``card`` when it is led."""
        mask = HIGHER[card]
        if card // 6 != self.trump:
            mask |= SUIT_MASKS[self.trump]
        return mask & self.possible

    def is_master(self, card: int) -> bool:
        """No card the opponent may hold is higher in ``card``'s suit."""
        return not (HIGHER[card] & self.possible)

    def keep_value(self, card: int) -> float:
        """What keeping ``card`` in hand is worth for later (in rough card points)."""
        suit, rank = divmod(card, 6)
        value = 0.0
        trump = suit == self.trump
        if trump:
            value += 6 + (3, 3, 4, 5, 8, 10)[rank]
            if rank == self.view.rules.exchange_rank and self.exchange_later:
                trump_card = self.view.trump_card
                value += 6 + (POINTS[trump_card] if trump_card is not None else 0)
        elif rank == ACE:
            value += 4
        elif rank == TEN and self.is_master(card):
            value += 3
        if not self.open and self.is_master(card) and (trump or not self.possible & SUIT_MASKS[self.trump]):
            # Talon closed or exhausted: a master card wins its trick later whatever happens.
            value = max(value, POINTS[card] + 4.0)
        if rank in (QUEEN, KING) and not self.declared >> suit & 1:
            partner = suit * 6 + (KING if rank == QUEEN else QUEEN)
            marriage_open = self.view.rules.may_marry(self.open, True)
            if marriage_open and self.hand >> partner & 1:
                value += 20 if trump else 10
            elif self.open and self.possible >> partner & 1 and not self.known >> partner & 1:
                value += 4 if trump else 2
        return value

    def points_after_win(self, gain: int) -> int:
        """My points if I win a trick worth ``gain`` (a pending marriage counts then)."""
        return self.my_points + gain + self.my_pending

    def opp_points_after_win(self, gain: int) -> int:
        """The opponent's points if they win a trick worth ``gain``."""
        return self.opp_points + gain + self.opp_pending


def _sure_points(s: _Situation, hand: int) -> tuple[int, int]:
    """(points, tricks) I can cash for sure from the lead with the talon closed: master trumps first, then,
    once the opponent can hold no trump, master cards of other suits (a lower bound)."""
    trump_mask = SUIT_MASKS[s.trump]
    opp_trumps = (s.possible & trump_mask).bit_count()
    opp_cards = min(s.view.opponent_hand_size, s.possible.bit_count())
    cashed: list[int] = []
    # Master trumps from the top.
    for card in sorted(cards_in(hand & trump_mask), reverse=True):
        if not s.is_master(card):
            break
        cashed.append(card)
    trumps_drawn = len(cashed) >= min(opp_trumps, opp_cards)
    if trumps_drawn:
        for card in cards_in(hand & ~trump_mask):
            if s.is_master(card):
                cashed.append(card)
        # Once the opponent has no trump left every trump of mine wins too.
        for card in cards_in(hand & trump_mask):
            if card not in cashed:
                cashed.append(card)
    tricks = min(len(cashed), opp_cards)
    cashed.sort(key=lambda c: -POINTS[c])
    theirs = sorted(POINTS[c] for c in cards_in(s.possible))[:tricks]
    return sum(POINTS[c] for c in cashed[:tricks]) + sum(theirs), tricks


class HeuristicBot:
    """Rule-based play from the seed articles' strategy; ``blunder`` is the chance of a random card play
    (for weaker levels). It never claims without 66.

    >>> from bummerl import Deal, Rules, View
    >>> deck = "JH QS KS AC TC AH TH QH KC QD JS JC KH JD TD AD TS AS QC KD"
    >>> deal = Deal.from_deck(Rules.preset("standard"), deck)
    >>> HeuristicBot().choose(View.of(deal, 0))  # holds the trump jack: exchanges it for the ace first
    Action.parse('exchange')
    """

    name = "heuristic"

    def __init__(self, seed: int | None = None, blunder: float = 0.0) -> None:
        self.blunder = blunder
        self.rng = Random(seed)

    def choose(self, view: View) -> Action:
        """The action these rules of thumb pick for ``view`` (one of ``view.legal_actions``)."""
        if (forced := forced_action(view)) is not None:
            return forced
        legal = view.legal_actions
        plays = [a for a in legal if a.kind == "play"]
        s = _Situation(view)
        if self.blunder and plays and self.rng.random() < self.blunder and not (
            CLAIM in legal and s.my_points >= WIN
        ):
            return self.rng.choice(plays)
        return self.choose_among(view, legal, s)

    def choose_among(self, view: View, actions: Sequence[Action], s: _Situation | None = None) -> Action:
        """The action these rules of thumb prefer among ``actions`` (some of the legal ones), e.g. to
        break ties between actions a search values the same."""
        if s is None:
            s = _Situation(view)
        if CLAIM in actions and s.my_points >= WIN:
            return CLAIM
        if PASS in actions:
            return PASS
        if EXCHANGE in actions:
            return EXCHANGE
        if CLOSE in actions and self._should_close(s, view.legal_actions):
            return CLOSE
        marriages = [a for a in actions if a.kind == "marry"]
        if marriages and not (s.open or self._declare_now(s, marriages)):
            marriages = []
        if marriages:
            return max(marriages, key=lambda a: int(a.suit == s.trump))
        plays = [a for a in actions if a.kind == "play"]
        if not plays:
            return actions[0]
        lead = view.lead_card
        if lead is not None:
            return max(plays, key=lambda a: self._follow_value(s, int(lead), a.code))
        return max(plays, key=lambda a: self._lead_value(s, a.code))

    def _declare_now(self, s: _Situation, marriages: list[Action]) -> bool:
        """With the talon closed or exhausted a marriage can wait (Schnapsen): declare it now only if it
        wins the deal at once or no sure winner is there to cash first."""
        for a in marriages:
            value = marriage_points(a.suit, s.trump) if a.suit is not None else 0
            if s.my_tricks and s.my_points + value >= WIN:
                return True
        sure = [c for c in cards_in(s.hand) if s.is_master(c) and not (s.beaters(c))]
        return not sure

    # ------------------------------------------------------------------ closing

    def _should_close(self, s: _Situation, legal: tuple[Action, ...]) -> bool:
        bonus = 0
        for a in legal:
            if a.kind == "marry" and a.suit is not None:
                bonus = max(bonus, marriage_points(a.suit, s.trump))
        sure, tricks = _sure_points(s, s.hand)
        if tricks == 0 and s.my_tricks == 0:
            return False
        counted = s.my_points + s.my_pending + bonus
        return counted + sure >= WIN

    # ------------------------------------------------------------------ following

    def _follow_value(self, s: _Situation, lead: int, card: int) -> float:
        gain = POINTS[lead] + POINTS[card]
        wins = follower_wins(lead, card, s.trump)
        value = -s.keep_value(card)
        if wins:
            value += gain
            if s.points_after_win(gain) >= WIN:
                value += 100
            elif s.my_points < HALF <= s.points_after_win(gain):
                value += 6
            if s.my_tricks == 0:
                value += 4
        else:
            value -= gain
            if s.opp_points_after_win(gain) >= WIN:
                value -= 100
            elif s.opp_points < HALF <= s.opp_points_after_win(gain):
                value -= 3
        return value

    # ------------------------------------------------------------------ leading

    def _lead_value(self, s: _Situation, card: int) -> float:
        value = -s.keep_value(card)
        points = POINTS[card]
        beaters = s.beaters(card)
        if s.open:
            # The opponent may play anything: it takes a valuable card with a beater if it has one.
            p_beaten = s.p_holds_any(beaters) * (1.0 if points >= TEN else 0.5)
            reply = 2.0
        else:
            # Closed or exhausted: the opponent must head the trick, follow suit or trump if it can.
            p_beaten = s.p_holds_any(beaters)
            same = s.possible & SUIT_MASKS[card // 6] & ~HIGHER[card]
            if same and not (beaters & SUIT_MASKS[card // 6]):
                p_beaten *= 1.0 - s.p_holds_any(same)
            reply = 4.0
        value += (1.0 - p_beaten) * (points + reply) - p_beaten * (points + reply + 4)
        if not s.open and s.is_master(card) and card // 6 == s.trump and s.possible & SUIT_MASKS[s.trump]:
            value += 8  # draw the opponent's trumps first
        if p_beaten == 0.0 and s.points_after_win(points) >= WIN:
            value += 100
        return value


def make_heuristic(seed: int | None = None) -> HeuristicBot:
    """The registry's factory for ``heuristic``.

    >>> make_heuristic(1).name
    'heuristic'
    """
    return HeuristicBot(seed)
