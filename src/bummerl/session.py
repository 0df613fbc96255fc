"""One Bummerl of you against the computer, stored after every action: a :class:`~bummerl.table.Table` plus
its row in the :class:`~bummerl.store.GameStore`. Front-end neutral (the terminal game and the web server
both drive it), so the apps stay thin.

Every change (:meth:`PlaySession.act`, :meth:`~PlaySession.apply_bot`, :meth:`~PlaySession.next_deal`,
:meth:`~PlaySession.act_seat`) is committed to the store before the call returns. If that fails, the table
still moves on, :attr:`PlaySession.save_error` says why, and a ``save_failed`` event (shown in the event
log) tells the player; the next successful save catches up on everything missed and adds a ``saved``
event.

>>> import tempfile
>>> from pathlib import Path
>>> s = PlaySession.new(Rules.preset("standard"), level="random", seed=3, first_dealer=1,
...                     home=Path(tempfile.mkdtemp()))
>>> s.table.human_to_move, s.store.load(s.id).record.deals[0].actions
(True, ())
>>> _ = s.act(s.view().legal_actions[0]); len(s.store.load(s.id).record.deals[0].actions), s.save_error
(1, None)
>>> again = PlaySession.resume(s.store.load(s.id), s.store)
>>> again.table.deal.history == s.table.deal.history
True
>>> s.close()
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from pathlib import Path
from random import Random

from bummerl.actions import Action
from bummerl.bots.base import Bot
from bummerl.bots.levels import LEVEL_NAMES
from bummerl.rules import Rules
from bummerl.store import COMPUTER_LEVELS, GameStore, StoredGame, StoreError, check_kind
from bummerl.table import CardStyle, Event, Seat, Table
from bummerl.view import View

__all__ = ["COMPUTER", "HUMAN", "LEVELS", "PlaySession", "computer_bot"]

#: The computer levels offered by ``bummerl play --level`` (:data:`bummerl.bots.levels.LEVEL_NAMES`).
LEVELS: tuple[str, ...] = LEVEL_NAMES
HUMAN = 0
COMPUTER = 1


def computer_bot(level: str, seed: int) -> Bot:
    """The computer player of a built-in level (never an outside program: levels come from storage too).

    >>> computer_bot("random", 1).name
    'random'
    >>> computer_bot("cmd:touch X", 1)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    bummerl.store.StoreError: unknown level 'cmd:touch X' (a stored game may name easy, medium, ... or human)
    """
    from bummerl.bots import make_bot

    if check_kind(level) not in COMPUTER_LEVELS:
        raise StoreError(f"{level!r} is not a computer level")
    # Its random numbers come from a generator of its own: seeded with the game's seed, which also shuffles
    # the first deal, its first choices told which cards could lie at the bottom of the talon.
    return make_bot(level, Random(f"bummerl computer {seed}").getrandbits(62))


class PlaySession:
    """A game against the computer that stores itself in ``store``.

    Build one with :meth:`new` or :meth:`resume`. ``store`` is shared by the caller, or opened by
    :meth:`new`/:meth:`resume` from ``home`` (None: the user's data directory) and closed by :meth:`close`.
    """

    def __init__(self, stored: StoredGame, table: Table, store: GameStore, *,
                 owns_store: bool = False) -> None:
        self._stored = stored
        self.table = table
        self.store = store
        self._owns_store = owns_store
        #: A remark for the player at the start (e.g. about the options a resumed game keeps), and its title.
        self.note = ""
        self.note_title = "Resumed game"
        #: Why the last save failed (None when every action so far is stored).
        self.save_error: str | None = None

    @staticmethod
    def new(
        rules: Rules,
        *,
        level: str = "medium",
        seed: int = 0,
        first_dealer: int | None = None,
        cards: CardStyle = "french",
        decks: Sequence[Sequence[int]] = (),
        home: Path | None = None,
        store: GameStore | None = None,
        bot: Bot | None = None,
        lease: str | None = None,
    ) -> PlaySession:
        """Start and store a new Bummerl (``first_dealer`` None: drawn from the seed; ``bot`` replaces the
        level's computer player, e.g. in tests; ``lease``: stored held by that owner, see
        :meth:`~bummerl.store.GameStore.create`). Raises :class:`~bummerl.store.StoreError`."""
        if bot is None:
            bot = computer_bot(level, seed)
        table = Table(rules, (Seat("You"), Seat("Computer", bot)), seed=seed, first_dealer=first_dealer,
                      decks=decks, card_style=cards)
        own = store is None
        store = GameStore.open(home) if store is None else store
        try:
            stored = store.create(rules=rules, level=check_kind(level), seed=seed, cards=cards,
                                  first_dealer=table.first_dealer, record=table.record(), lease=lease,
                                  decks=table.decks)
        except BaseException:
            if own:
                store.close()
            raise
        return PlaySession(stored, table, store, owns_store=own)

    @staticmethod
    def resume(game: StoredGame | str, store: GameStore | None = None, *, home: Path | None = None,
               bot: Bot | None = None) -> PlaySession:
        """Continue a stored game exactly where it stopped (the same decks, the same computer seed).

        ``game`` is a loaded game or an id. Raises :class:`~bummerl.store.StoreError` (e.g.
        :class:`~bummerl.store.GameDamaged` naming the game).
        """
        own = store is None
        store = GameStore.open(home) if store is None else store
        try:
            stored = store.load(game) if isinstance(game, str) else game
            if bot is None:
                bot = computer_bot(stored.level, stored.seed)
            style: CardStyle = "german" if stored.cards == "german" else "french"
            table = Table(stored.rules, (Seat("You"), Seat("Computer", bot)), seed=stored.seed,
                          first_dealer=stored.first_dealer, decks=stored.decks, card_style=style)
            table.replay(stored.record)
        except BaseException:
            if own:
                store.close()
            raise
        return PlaySession(stored, table, store, owns_store=own)

    def close(self) -> None:
        """Close the store if this session opened it."""
        if self._owns_store:
            self.store.close()

    # ------------------------------------------------------------------ what it is

    @property
    def id(self) -> str:
        """The stored game's id."""
        return self._stored.id

    @property
    def level(self) -> str:
        """The computer's level."""
        return self._stored.level

    @property
    def seed(self) -> int:
        """The seed of the later shuffles and of the computer."""
        return self._stored.seed

    @property
    def saved(self) -> StoredGame:
        """The game as it stands now (as :meth:`GameStore.load` will read it once saved)."""
        table = self.table
        game = table.game
        state = "finished" if game.is_over else "playing"
        return dataclasses.replace(
            self._stored, record=table.record(), score=table.score, state=state,
            outcomes=tuple(s.outcome for s in game.finished), winner=game.winner,
        )

    # ------------------------------------------------------------------ playing

    def view(self) -> View:
        """What you see now."""
        return self.table.view(HUMAN)

    def act(self, action: Action | str) -> list[Event]:
        """Your action (raises :class:`~bummerl.table.IllegalMove`); the game is stored."""
        return self.act_seat(HUMAN, action)

    def act_seat(self, seat: int, action: Action | str) -> list[Event]:
        """A seat's action (raises :class:`~bummerl.table.IllegalMove`); the game is stored."""
        return self._saved(self.table.act(seat, action))

    def bot_choice(self) -> Action:
        """The computer's choice in the current position (may take a while: call it off the UI thread)."""
        bot = self.table.seats[COMPUTER].bot
        assert bot is not None
        return bot.choose(self.table.view(COMPUTER))

    def apply_bot(self, action: Action) -> list[Event]:
        """Apply the computer's chosen action; the game is stored."""
        return self.act_seat(COMPUTER, action)

    def next_deal(self) -> list[Event]:
        """Deal the next deal; the game is stored."""
        return self._saved(self.table.next_deal())

    def sync(self) -> bool:
        """Store everything not stored yet; True when the store is up to date (see :attr:`save_error`)."""
        self._saved([])
        return self.save_error is None

    def _saved(self, events: list[Event]) -> list[Event]:
        """Store the table's record; on failure (or recovery) add an event saying so."""
        table = self.table
        try:
            self.store.sync(self.id, table.record())
        except StoreError as err:
            note = None if self.save_error is not None else Event(
                "save_failed", f"The game could not be saved: {err}", None, table.deal_number)
            self.save_error = str(err)
        else:
            note = None if self.save_error is None else Event(
                "saved", "The game is saved again (every move so far)", None, table.deal_number)
            self.save_error = None
        if note is not None:
            table.events.append(note)
            events = [*events, note]
        return events
