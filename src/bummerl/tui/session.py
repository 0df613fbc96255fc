"""One Bummerl of you against the computer, saved after every action: a :class:`~bummerl.table.Table` plus
its :class:`~bummerl.storage.SavedGame`. Independent of the screen, so the app stays thin.

>>> import tempfile
>>> from pathlib import Path
>>> s = PlaySession.new(Rules.preset("standard"), level="random", seed=3, first_dealer=1,
...                     home=Path(tempfile.mkdtemp()))
>>> s.table.human_to_move, s.saved.record["deals"][0]["actions"]
(True, [])
>>> _ = s.act(s.view().legal_actions[0]); len(s.saved.record["deals"][0]["actions"])
1
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from bummerl.actions import Action
from bummerl.bots.base import Bot
from bummerl.records import GameRecord
from bummerl.rules import Rules
from bummerl.storage import SavedGame, save
from bummerl.table import CardStyle, Event, Seat, Table
from bummerl.view import View

__all__ = ["COMPUTER", "HUMAN", "LEVELS", "PlaySession", "computer_bot"]

#: The computer levels offered by ``bummerl play --level``.
LEVELS: tuple[str, ...] = ("easy", "medium", "hard", "expert")
HUMAN = 0
COMPUTER = 1


def computer_bot(level: str, seed: int) -> tuple[Bot, str]:
    """The computer player for a level, and a note when that level is not available (then a random bot).

    >>> bot, note = computer_bot("random", 1); bot.name
    'random'
    """
    from bummerl.bots import UnknownBotError, make_bot

    try:
        return make_bot(level, seed), ""
    except UnknownBotError:
        return make_bot("random", seed), f"level {level!r} is not available yet: the computer plays at random"


class PlaySession:
    """A game against the computer that saves itself (``home`` None: the user's data directory)."""

    def __init__(self, saved: SavedGame, table: Table, note: str = "", home: Path | None = None,
                 autosave: bool = True) -> None:
        self.saved = saved
        self.table = table
        self.note = note
        self.home = home
        self.autosave = autosave

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
        autosave: bool = True,
        bot: Bot | None = None,
    ) -> PlaySession:
        """Start a new Bummerl (``first_dealer`` None: drawn from the seed; ``bot`` replaces the level's)."""
        note = ""
        if bot is None:
            bot, note = computer_bot(level, seed)
        table = Table(rules, (Seat("You"), Seat("Computer", bot)), seed=seed, first_dealer=first_dealer,
                      decks=decks, card_style=cards)
        saved = SavedGame.new(record={}, level=level, seed=seed, human_seat=HUMAN, cards=cards)
        session = PlaySession(saved, table, note, home, autosave)
        session.sync()
        return session

    @staticmethod
    def resume(saved: SavedGame, home: Path | None = None, autosave: bool = True) -> PlaySession:
        """Continue a saved game exactly where it stopped (the same decks, the same computer seed).

        Raises :class:`~bummerl.records.RecordError` when the saved record does not replay.
        """
        record = GameRecord.from_json(saved.record)
        bot, note = computer_bot(saved.level, saved.seed)
        style: CardStyle = "german" if saved.cards == "german" else "french"
        decks = [d.deck for d in record.deals]
        table = Table(record.rules, (Seat("You"), Seat("Computer", bot)), seed=saved.seed,
                      first_dealer=record.first_dealer, decks=decks, card_style=style)
        table.replay(record)
        session = PlaySession(saved, table, note, home, autosave)
        session.sync()
        return session

    # ------------------------------------------------------------------ playing

    def view(self) -> View:
        """What you see now."""
        return self.table.view(HUMAN)

    def act(self, action: Action | str) -> list[Event]:
        """Your action (raises :class:`~bummerl.table.IllegalMove`); the game is saved."""
        events = self.table.act(HUMAN, action)
        self.sync()
        return events

    def bot_choice(self) -> Action:
        """The computer's choice in the current position (may take a while: call it off the UI thread)."""
        bot = self.table.seats[COMPUTER].bot
        assert bot is not None
        return bot.choose(self.table.view(COMPUTER))

    def apply_bot(self, action: Action) -> list[Event]:
        """Apply the computer's chosen action; the game is saved."""
        events = self.table.act(COMPUTER, action)
        self.sync()
        return events

    def next_deal(self) -> list[Event]:
        """Deal the next deal; the game is saved."""
        events = self.table.next_deal()
        self.sync()
        return events

    def sync(self) -> None:
        """Copy the table's state into the saved game and write it."""
        table = self.table
        saved = self.saved
        saved.record = table.record().to_json()
        saved.results = [s.outcome.to_json() for s in table.game.finished]
        saved.score = list(table.score)
        saved.finished = table.game.is_over
        saved.winner = table.game.winner
        if self.autosave:
            save(saved, self.home)
