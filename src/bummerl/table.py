"""A game in progress between two seats (humans or bots): turn order, events, and the Bummerl around it.

A :class:`Table` is what every front end drives. It holds a :class:`~bummerl.game.Bummerl`, knows which
seat is a bot, asks the bot to move when it is the bot's turn (:meth:`Table.step_bot`), takes a human's
action (:meth:`Table.act`) and reports what happened as :class:`Event` values with a sentence each,
e.g. ``Computer declares 40`` or ``Computer claims 66 — correct, 2 game points``. It knows nothing about
screens or keys; the rules stay in the engine.

>>> from bummerl.rules import Rules
>>> table = Table(Rules.preset("standard"), (Seat("You"), Seat("Computer", FirstLegal())), seed=4,
...               first_dealer=1)
>>> table.waiting_for == 0 and table.phase == "playing"
True
>>> events = table.act(0, table.view(0).legal_actions[0])
>>> [e.kind for e in events]
['play']
>>> events = table.run_bots(); [e.kind for e in events][:2]
['play', 'trick']
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from random import Random
from typing import Any, Literal

from bummerl.actions import Action, ActionParseError
from bummerl.bots.base import Bot
from bummerl.cards import CARDS, Card, Rank, Suit, cards_in
from bummerl.engine import Deal, Illegal, IllegalActionError, Outcome
from bummerl.errors import BummerlError
from bummerl.game import Bummerl
from bummerl.records import GameRecord
from bummerl.rules import Rules
from bummerl.scoring import Reason
from bummerl.view import View

__all__ = [
    "RANK_LABELS",
    "CardStyle",
    "Event",
    "FirstLegal",
    "IllegalMove",
    "Seat",
    "Table",
    "card_long_name",
    "card_name",
    "reason_text",
    "suit_name",
]

CardStyle = Literal["french", "german"]
Phase = Literal["playing", "deal_over", "game_over"]


class IllegalMove(BummerlError):
    """A human's action the rules do not allow now; the message explains why in plain words."""


# ----------------------------------------------------------------------------- names of things


#: The rank as printed on a card face, per card style (German: Unter, Ober, König, Zehner, Sau).
RANK_LABELS: dict[str, tuple[str, ...]] = {
    "french": ("9", "J", "Q", "K", "10", "A"),
    "german": ("9", "U", "O", "K", "10", "Sau"),
}


def card_name(card: Card | int, style: CardStyle = "french") -> str:
    """A short name for a card: ``Q♥``, ``10♠`` (French) or ``Herz O``, ``Laub Sau`` (German).

    >>> card_name(Card.parse("QH")), card_name(Card.parse("TS")), card_name(Card.parse("AS"), "german")
    ('Q♥', '10♠', 'Laub Sau')
    """
    c = CARDS[int(card)]
    if style == "german":
        return f"{c.suit.german} {RANK_LABELS['german'][c.rank]}"
    return RANK_LABELS["french"][c.rank] + c.suit.symbol


def card_long_name(card: Card | int, style: CardStyle = "french") -> str:
    """A card's full name: ``Q♥`` stays short in French style, ``Herz Ober`` in German.

    >>> card_long_name(Card.parse("AD"), "german")
    'Schellen Sau'
    """
    c = CARDS[int(card)]
    return c.german if style == "german" else c.symbol


def suit_name(suit: Suit | int, style: CardStyle = "french") -> str:
    """A suit's name: its symbol (French) or its German name.

    >>> suit_name(Suit.H), suit_name(Suit.S, "german")
    ('♥', 'Laub')
    """
    s = Suit(int(suit))
    return s.german if style == "german" else s.symbol


def reason_text(outcome: Outcome, auto_claim: bool = False) -> str:
    """Why a deal ended, in words (the sentences of :class:`~bummerl.scoring.Reason`); under ``auto_claim``
    nobody claims by hand, so a claim is said as the 66 reached.

    >>> reason_text(Outcome(0, 2, "closer_failed"))
    'the player who closed the talon did not reach 66'
    >>> reason_text(Outcome(0, 2, "claim"), auto_claim=True)
    '66 reached (claimed automatically)'
    """
    if auto_claim and outcome.reason == Reason.CLAIM:
        return AUTO_CLAIM_SENTENCE
    return Reason(outcome.reason).sentence


#: Why a deal ended under automatic claims (rules.md 4.3) when its winner reached 66.
AUTO_CLAIM_SENTENCE = "66 reached (claimed automatically)"


#: How the game says each reason an action is illegal (:class:`~bummerl.engine.Illegal`), by action kind
#: where the words differ; the reasons that name cards are worded in :meth:`Table.explain_illegal`.
_ILLEGAL_WORDS: dict[Illegal, str | dict[str, str]] = {
    Illegal.DEAL_OVER: "the deal is over",
    Illegal.ALL_PLAYED: "all cards are played: claim 66 (g) or pass (p)",
    Illegal.NOT_LEADING: {
        "exchange": "you can exchange only when you lead",
        "close": "you can close only when you lead",
        "marry": "you can declare a marriage only when you lead",
    },
    Illegal.MARRIAGE_DECLARED: {
        "exchange": "you cannot exchange now",
        "close": "you cannot close now",
        "marry": "you already declared a marriage in this lead: now lead its card",
    },
    Illegal.TALON_CLOSED: {
        "exchange": "you can exchange only while the talon is open",
        "close": "the talon is already closed",
        "marry": "in Sixty-Six marriages are declared only while the talon is open",
    },
    Illegal.TALON_EXHAUSTED: {
        "exchange": "you can exchange only while the talon is open",
        "close": "the talon is used up",
        "marry": "in Sixty-Six marriages are declared only while the talon is open",
    },
    Illegal.TALON_TOO_SMALL: {
        "exchange": "too few cards are left in the talon to exchange",
        "close": "too few cards are left in the talon to close",
    },
    Illegal.NO_TRICK_YET: {
        "exchange": "you must win a trick before you may exchange",
        "marry": "you must win a trick before you may declare a marriage",
    },
    Illegal.CLOSING_NOT_ALLOWED: "these rules do not allow closing the talon",
    Illegal.NO_MARRIAGE: "you hold no king and queen of the same suit to declare",
    Illegal.AUTO_CLAIM: "under these rules 66 is claimed automatically",
    Illegal.CLAIM_NOT_NOW: (
        "you may claim only right after winning a trick (or declaring a marriage), before you lead"
    ),
    Illegal.PASS_NOT_NOW: "you may pass only after the last trick",
}


# ----------------------------------------------------------------------------- seats and stand-in bots


class FirstLegal:
    """A computer player that always takes the first legal action (handy in examples and tests).

    >>> from bummerl.rules import Rules
    >>> deal = Deal.random(Rules.preset("standard"), 1)
    >>> FirstLegal().choose(View.of(deal, deal.to_move)) == deal.legal_actions()[0]
    True
    """

    name = "first"

    def choose(self, view: View) -> Action:
        """The first legal action."""
        return view.legal_actions[0]


@dataclass
class Seat:
    """A place at the table: a name and, for the computer, its bot (None for a human)."""

    name: str
    bot: Bot | None = None

    @property
    def is_human(self) -> bool:
        """True when a person chooses this seat's actions."""
        return self.bot is None

    @property
    def is_you(self) -> bool:
        """True when the seat is addressed as "You" (second person in event texts)."""
        return self.name.lower() == "you"


# ----------------------------------------------------------------------------- events


@dataclass(frozen=True)
class Event:
    """Something that happened at the table, with a sentence for the log.

    ``kind`` is one of: ``deal`` (a new deal), ``play``, ``trick`` (a trick was taken), ``talon`` (it is used
    up), ``exchange``, ``close``, ``marry``, ``claim``, ``pass``, ``deal_over``, ``game_over``.
    A ``deal_over`` event's ``data`` is one line of the score sheet: ``winner`` (None for a draw),
    ``game_points``, ``reason``, ``why`` (the reason in words), ``dealer`` and ``score`` (the game points each
    seat still needs after the deal).
    """

    kind: str
    text: str
    seat: int | None = None
    deal_number: int = 0
    data: dict[str, Any] = field(default_factory=dict)


# ----------------------------------------------------------------------------- the table


def _strict_rule(why: Illegal, allowed: Sequence[Card], view: View) -> str:
    """What the strict rules (rules.md 3.2) ask of this follower, to be followed by the cards ``allowed``:
    to follow suit and beat the card only when it holds a card of the suit that beats it."""
    if why is Illegal.MUST_TRUMP:
        return "trump it, since you have none of its suit"
    lead = view.lead_card
    of_suit = [c for c in cards_in(view.hand_mask) if lead is not None and c.suit == lead.suit]
    if len(allowed) < len(of_suit):  # only the cards of the suit that beat it
        return "beat the card, since you can" if why is Illegal.MUST_HEAD else "follow suit and beat the card"
    return "follow suit"


def drawn_first_dealer(seed: int) -> int:
    """The first dealer a table with ``seed`` draws: from a generator of its own, apart from the one that
    shuffles the decks (the same stream's first number would tell the first deal's bottom talon card).

    >>> [drawn_first_dealer(seed) for seed in range(8)]
    [0, 1, 1, 1, 0, 0, 1, 1]
    """
    return Random(f"bummerl first dealer {seed}").randrange(2)


class Table:
    """A Bummerl between two seats, seat 0 and seat 1, with its event log.

    ``decks`` optionally fixes the deck order (card indices, top first) of the first deals (to set up a
    situation, e.g. in tests); later deals come from ``seed``. ``first_dealer`` None draws it from the seed,
    apart from the decks' draws: a table built again from a stored game (with the first dealer it stored)
    then deals its later deals exactly as the first one would have. It is drawn from a generator of its own
    (:func:`drawn_first_dealer`), not the first number of the decks' one: that number also places the first
    deal's bottom talon card, which the dealer everyone sees would give away.

    >>> from bummerl.rules import Rules
    >>> seats = (Seat("A"), Seat("B"))
    >>> drawn = Table(Rules.preset("standard"), seats, seed=7)
    >>> again = Table(Rules.preset("standard"), seats, seed=7, first_dealer=drawn.first_dealer)
    >>> drawn.deal.setup() == again.deal.setup()
    True
    """

    def __init__(
        self,
        rules: Rules,
        seats: tuple[Seat, Seat],
        *,
        seed: int = 0,
        first_dealer: int | None = None,
        decks: Sequence[Sequence[int]] = (),
        card_style: CardStyle = "french",
    ) -> None:
        self.rules = rules
        self.seats = seats
        self.seed = seed
        self.card_style: CardStyle = card_style
        self.decks: list[tuple[int, ...]] = [tuple(int(c) for c in d) for d in decks]
        if first_dealer is None:  # drawn here, not from the game's own generator (see the class docstring)
            first_dealer = drawn_first_dealer(seed)
        self.game = Bummerl(rules, seed=seed, first_dealer=first_dealer)
        self.first_dealer = self.game.first_dealer
        self.events: list[Event] = []
        self.deal_number = 0
        self._start_deal()

    # ------------------------------------------------------------------ state

    @property
    def deal(self) -> Deal:
        """The deal being played (or just finished)."""
        return self.game.deal

    @property
    def score(self) -> tuple[int, int]:
        """Game points each seat still needs (counting down from 7)."""
        return self.game.score

    @property
    def phase(self) -> Phase:
        """``playing``, ``deal_over`` (waiting for :meth:`next_deal`) or ``game_over``."""
        if self.game.is_over:
            return "game_over"
        return "deal_over" if self.deal.is_over else "playing"

    @property
    def waiting_for(self) -> int | None:
        """The seat whose action the table waits for, or None between deals and at the end."""
        return self.deal.to_move if self.phase == "playing" else None

    @property
    def human_to_move(self) -> bool:
        """True when a human seat is to act."""
        seat = self.waiting_for
        return seat is not None and self.seats[seat].is_human

    @property
    def bot_to_move(self) -> bool:
        """True when a bot seat is to act."""
        seat = self.waiting_for
        return seat is not None and not self.seats[seat].is_human

    def view(self, seat: int) -> View:
        """What ``seat`` may see now (with the Bummerl score)."""
        return View.of(self.deal, seat, self.score)

    def name(self, seat: int) -> str:
        """A seat's name."""
        return self.seats[seat].name

    def take_seat(self, seat: int, name: str) -> None:
        """Somebody takes the seat kept free for them (a friend opened the invitation): the seat gets their
        name, and so does the deal's opening line if nothing has happened since (as if they had been there
        from the start, as a game brought back from the store says it).

        >>> table = Table(Rules.preset("standard"), (Seat("Host"), Seat("Friend")), seed=1, first_dealer=1)
        >>> table.events[0].text.split(".")[0]
        'Deal 1: Friend deals'
        >>> table.take_seat(1, "Anna"); table.events[0].text.split(".")[0]
        'Deal 1: Anna deals'
        """
        self.seats[seat].name = name
        if [e.kind for e in self.events] == ["deal"]:
            self.events[0] = self._deal_event()

    def card(self, card: Card | int) -> str:
        """A card's name in this table's card style."""
        return card_name(card, self.card_style)

    # ------------------------------------------------------------------ acting

    def act(self, seat: int, action: Action | str) -> list[Event]:
        """Apply ``seat``'s action; raises :class:`IllegalMove` with an explanation if it is not allowed."""
        if self.phase != "playing":
            raise IllegalMove("the deal is over: start the next deal" if self.phase == "deal_over"
                              else "the Bummerl is over")
        if seat != self.deal.to_move:
            raise IllegalMove(self._not_your_turn(seat))
        if not isinstance(action, Action):
            try:
                action = Action.parse(action)
            except ActionParseError as err:
                raise IllegalMove(str(err)) from None
        if not self.deal.is_legal(action):
            raise IllegalMove(self.explain_illegal(seat, action))
        before = self._snapshot()
        try:
            self.game.apply(action)
        except IllegalActionError as err:  # pragma: no cover - is_legal said yes
            raise IllegalMove(str(err)) from None
        return self._record(self._describe(seat, action, before))

    def step_bot(self) -> list[Event]:
        """Let the bot to move choose and apply one action; [] when no bot is to move."""
        seat = self.waiting_for
        if seat is None or self.seats[seat].is_human:
            return []
        bot = self.seats[seat].bot
        assert bot is not None
        return self.act(seat, bot.choose(self.view(seat)))

    def run_bots(self) -> list[Event]:
        """Let bots move until a human is to act or the deal ends."""
        out: list[Event] = []
        while self.bot_to_move:
            out += self.step_bot()
        return out

    def next_deal(self) -> list[Event]:
        """Deal the next deal once the current one is over."""
        if self.phase != "deal_over":
            over = "the deal is not over yet" if self.phase == "playing" else "the Bummerl is over"
            raise IllegalMove(over)
        self.game.next_deal()
        return self._start_deal()

    # ------------------------------------------------------------------ history

    def record(self) -> GameRecord:
        """The game so far as a game record (rules, first dealer, every deal's deck and actions, scores)."""
        return GameRecord.from_game(self.game)

    def replay(self, record: GameRecord) -> None:
        """Play a recorded game onto this fresh table, quietly (the events are logged as they were).

        The decks must be the ones this table deals (the same seed, or given as ``decks``); raises
        ValueError otherwise.
        """
        for number, rec in enumerate(record.deals):
            if number > 0:
                self.next_deal()
            if self.deal.deck != tuple(rec.deck) or self.deal.dealer != rec.dealer:
                raise ValueError(f"deal {number + 1} of the record does not match the table's deck")
            for text in rec.actions:
                self.act(self.deal.to_move, text)

    def decisions(self, seat: int) -> Iterator[tuple[int, View, Action]]:
        """Every choice ``seat`` made with more than one legal action: (deal number, view, action taken)."""
        score = (self.game.target, self.game.target)
        summaries = [(s.dealer, s.deck, s.actions, s.score_after) for s in self.game.finished]
        if not self.deal.is_over:
            summaries.append((self.deal.dealer, tuple(int(c) for c in self.deal.deck),
                              tuple(str(a) for a in self.deal.history), self.score))
        for number, (dealer, deck, actions, after) in enumerate(summaries, start=1):
            deal = Deal(self.rules, deck, dealer)
            for text in actions:
                action = Action.parse(text)
                if deal.to_move == seat and len(deal.legal_actions()) > 1:
                    yield number, View.of(deal, seat, score), action
                deal.apply(action)
            score = after

    # ------------------------------------------------------------------ explanations

    def pass_words(self, seat: int) -> str | None:
        """What a pass after the last trick would do for ``seat``, in words (None while it may not pass):
        the engine plays it on a copy of the deal, this only words the outcome. Without ``open_tricks`` a
        Sixty-Six pass is not foretold unless the talon was closed (it would tell who has more points; after
        a close the closer has failed, scored by the tricks at the close).

        >>> table = Table(Rules.preset("standard"), (Seat("You"), Seat("Computer")), seed=7)
        >>> table.pass_words(0) is None
        True
        """
        if self.deal.to_move != seat or not self.deal.is_legal("pass"):
            return None
        rules = self.rules
        if rules.sixty_six and not rules.open_tricks and self.deal.closed_by < 0:
            return "pass (p): the last trick counts 10 more and more points win"
        after = self.deal.copy()
        after.apply("pass")
        outcome = after.outcome
        assert outcome is not None
        if outcome.winner is None:
            return f"pass (p): a draw ({outcome.reason.short})"
        points = f"{outcome.game_points} game point{'s' if outcome.game_points != 1 else ''}"
        who = "you win" if outcome.winner == seat else f"{self.name(outcome.winner)} wins"
        return f"pass (p): {who} the deal, {points} ({outcome.reason.short})"

    def explain_illegal(self, seat: int, action: Action) -> str:
        """Why an action is not allowed now, in words: the engine says why (:meth:`Deal.illegal_reason`,
        an :class:`~bummerl.engine.Illegal` value) and this only words it for ``seat``."""
        why = self.deal.illegal_reason(action, seat)
        kind = action.kind
        if why is None:
            return f"{action} is allowed now"
        if why is Illegal.NOT_YOUR_TURN:
            return self._not_your_turn(seat)
        view = self.view(seat)
        if why is Illegal.NOT_IN_HAND:
            return f"you do not hold {self.card(action.card or 0)}"
        if why is Illegal.MUST_LEAD_MARRIAGE:
            pair = self._marriage_cards(view)
            return f"after declaring a marriage you must lead {pair}"
        if why in (Illegal.MUST_FOLLOW_SUIT, Illegal.MUST_HEAD, Illegal.MUST_TRUMP):
            cards = [a.card for a in view.legal_actions if a.card is not None]
            plays = ", ".join(self.card(c) for c in cards)
            state = "closed" if view.closed_by >= 0 else "used up"
            return f"with the talon {state} you must {_strict_rule(why, cards, view)}: {plays}"
        if why is Illegal.NO_TRUMP_LOW:
            rank = self.rules.exchange_rank
            name, low = rank.english, Card.of(rank, view.trump_suit)
            if view.trump_card == low:
                return f"the trump {name} ({self.card(low)}) is the face-up card: nothing to exchange"
            return f"you need the trump {name} ({self.card(low)}) to exchange"
        words = _ILLEGAL_WORDS[why]
        return words if isinstance(words, str) else words.get(kind, f"{action} is not allowed now")

    def _not_your_turn(self, seat: int) -> str:
        return f"it is {self.name(self.deal.to_move)}'s turn, not {self.name(seat)}'s"

    def _marriage_cards(self, view: View) -> str:
        ranks = reversed(self.rules.marriage_lead_ranks)  # the king first
        return " or ".join(self.card(Card.from_index(view.married * 6 + r)) for r in ranks)

    # ------------------------------------------------------------------ event texts

    def _say(self, seat: int, you: str, other: str) -> str:
        return f"{self.name(seat)} {you if self.seats[seat].is_you else other}"

    def _snapshot(self) -> tuple[int, int, tuple[int, int], int | None]:
        d = self.deal
        return (len(d.trick_log), d.talon_size, (d.pending[0], d.pending[1]), d.face_up_trump)

    def _start_deal(self) -> list[Event]:
        self.deal_number += 1
        if self.deal_number <= len(self.decks):
            self.game.deal = Deal(self.rules, self.decks[self.deal_number - 1], self.deal.dealer)
        deal = self.deal
        for seat in self.seats:
            hook = getattr(seat.bot, "new_deal", None)
            if callable(hook):
                hook(View.of(deal, self.seats.index(seat), self.score))
        return self._record([self._deal_event()])

    def _deal_event(self) -> Event:
        deal = self.deal
        trump = deal.face_up_trump
        assert trump is not None
        text = (
            f"Deal {self.deal_number}: {self._say(deal.dealer, 'deal', 'deals')}. "
            f"Trump is {suit_name(deal.trump_suit, self.card_style)} ({self.card(trump)} face up)."
        )
        return Event("deal", text, deal.dealer, self.deal_number)

    def _record(self, events: list[Event]) -> list[Event]:
        self.events.extend(events)
        return events

    def _describe(
        self, seat: int, action: Action, before: tuple[int, int, tuple[int, int], int | None]
    ) -> list[Event]:
        deal = self.deal
        n = self.deal_number
        tricks_before, talon_before, pending_before, trump_before = before
        out: list[Event] = []
        kind = action.kind
        if kind == "play" and action.card is not None:
            out.append(Event("play", f"{self._say(seat, 'play', 'plays')} {self.card(action.card)}", seat, n,
                             {"card": int(action.card)}))
            if len(deal.trick_log) > tricks_before:
                trick = deal.trick_log[-1]
                pts = trick.lead.points + trick.follow.points
                last = not (deal.hands[0] or deal.hands[1])
                bonus = deal.bonus[trick.winner] if last else 0  # Sixty-Six's 10 for the last trick
                extra = (f" (+{pts}{f', +{bonus} for the last trick' if bonus else ''})"
                         if self.rules.open_tricks else "")
                data = {"points": pts, **({"bonus": bonus} if bonus else {})}
                out.append(Event("trick", f"{self._say(trick.winner, 'take', 'takes')} the trick{extra}",
                                 trick.winner, n, data))
                if deal.talon_size == 0 and talon_before > 0 and deal.closed_by < 0:
                    text = "The talon is used up: from now on follow suit strictly"
                    out.append(Event("talon", text, None, n))
        elif kind == "exchange":
            assert deal.exchanged is not None and trump_before is not None
            _, low, taken = deal.exchanged
            out.append(Event("exchange", f"{self._say(seat, 'exchange', 'exchanges')} {self.card(low)} "
                                         f"for the trump card {self.card(taken)}", seat, n))
        elif kind == "close":
            out.append(Event("close", f"{self._say(seat, 'close', 'closes')} the talon", seat, n))
        elif kind == "marry" and action.suit is not None:
            value = 40 if action.suit == deal.trump_suit else 20
            k = Card.of(Rank.KING, action.suit)
            q = Card.of(Rank.QUEEN, action.suit)
            later = "another trick" if deal.tricks[seat] else "a trick"  # vu: one won after declaring
            counted = f" (counts once {later} is won)" if deal.pending[seat] > pending_before[seat] else ""
            out.append(Event("marry", f"{self._say(seat, 'declare', 'declares')} {value} "
                                      f"({self.card(k)} {self.card(q)}){counted}", seat, n,
                             {"suit": int(action.suit), "value": value}))
        elif kind == "claim":
            outcome = deal.outcome
            assert outcome is not None
            pts = deal.points[seat]
            if outcome.reason == "claim":
                text = f"{self._say(seat, 'claim', 'claims')} 66 — correct ({pts} points), " \
                       f"{_gp(outcome.game_points)}"
            else:
                other = self._say(1 - seat, "score", "scores")
                text = f"{self._say(seat, 'claim', 'claims')} 66 — wrong, only {pts} points: " \
                       f"{other} {_gp(outcome.game_points)}"
            out.append(Event("claim", text, seat, n, {"correct": outcome.reason == "claim"}))
        elif kind == "pass":
            out.append(Event("pass", f"{self._say(seat, 'pass', 'passes')}", seat, n))
        if deal.outcome is not None:
            out += self._deal_over_events(kind == "claim")
        return out

    def _deal_over_events(self, claimed: bool) -> list[Event]:
        deal = self.deal
        outcome = deal.outcome
        assert outcome is not None
        n = self.deal_number
        out: list[Event] = []
        if outcome.reason == "claim" and not claimed and outcome.winner is not None:
            w = outcome.winner
            gp = _gp(outcome.game_points)
            text = f"{self._say(w, 'reach', 'reaches')} 66 ({deal.points[w]} points) — {gp}"
            out.append(Event("claim", text, w, n, {"correct": True, "auto": True}))
        you_need = " · ".join(f"{self.name(s)} {max(self.score[s], 0)}" for s in (0, 1))  # 0: done
        why = reason_text(outcome, self.rules.auto_claim)
        if outcome.winner is None:
            text = f"Deal {n} is a draw ({why}). Still needed: {you_need}"
        else:
            text = (f"Deal {n}: {self._say(outcome.winner, 'win', 'wins')} {_gp(outcome.game_points)} — "
                    f"{why}. Still needed: {you_need}")
        data = {"winner": outcome.winner, "game_points": outcome.game_points, "reason": outcome.reason,
                "why": why, "dealer": self.deal.dealer, "score": list(self.score)}
        out.append(Event("deal_over", text, outcome.winner, n, data))
        winner = self.game.winner
        if winner is not None:
            loser_left = self.score[1 - winner]
            out.append(Event("game_over", f"{self._say(winner, 'win', 'wins')} the Bummerl "
                                          f"({self.name(1 - winner)} still needed {loser_left})", winner, n,
                             {"winner": winner}))
        return out


def _gp(points: int) -> str:
    return f"{points} game point{'s' if points != 1 else ''}"

