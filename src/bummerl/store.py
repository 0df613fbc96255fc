"""The game store: every game of the terminal game and the web server in one SQLite database.

The database is ``games.db`` in the data directory (``$BUMMERL_HOME``, else the platform's user data
directory for ``bummerl``). It is opened in WAL mode with ``synchronous=FULL`` and a busy timeout, so several
processes (terminal games, a web server) share it safely, and every change is committed before the call
returns: an action the front end shows is on disk. The schema version is ``PRAGMA user_version``; the
:data:`MIGRATIONS` list brings an older database up to date, one numbered step at a time (append-only: a
later feature appends a step, never edits one).

A game is a row (id, created/updated times, rules, level, card faces, seed, first dealer, state, score),
its deals (dealer and deck order), an append-only table of actions and, if its first deals were given
decks, those (``given_decks``). Loading rebuilds the game record
(rules.md section 9) and replays it through the engine, so a row that does not replay, or a field that is
not one of the known values (a level must be a built-in level: a ``cmd:`` bot is never read from storage),
is reported as :class:`GameDamaged`, naming the game. Old JSON saves (``<data dir>/games/*.json``, the
``bummerl-game/1`` format) are imported once, automatically; the files are kept.

Public API: :meth:`GameStore.open`, :meth:`~GameStore.create`, :meth:`~GameStore.sync` (append what a
record has beyond the stored game, in one transaction; :meth:`~GameStore.sync_many` for several games),
:meth:`~GameStore.finish` (abandon a game), :meth:`~GameStore.load`,
:meth:`~GameStore.games`, :meth:`~GameStore.latest_playing`, :meth:`~GameStore.resolve` (an id or a
unique prefix), :meth:`~GameStore.delete`, :meth:`~GameStore.lease` (one player process per game),
:meth:`~GameStore.stats`, :meth:`~GameStore.settings` / :meth:`~GameStore.remember`, :meth:`~GameStore.close`.

>>> import tempfile
>>> from bummerl.game import Bummerl
>>> store = GameStore.open(Path(tempfile.mkdtemp()))
>>> game = Bummerl(Rules.preset("standard"), seed=5, first_dealer=1)
>>> stored = store.create(rules=game.rules, level="easy", seed=5, cards="french", first_dealer=1,
...                       record=GameRecord.from_game(game))
>>> game.apply(game.deal.legal_actions()[0])
>>> store.sync(stored.id, GameRecord.from_game(game))
>>> again = store.load(stored.id)
>>> again.state, again.level, again.record.deals[0].actions == (str(game.deal.history[0]),)
('playing', 'easy', True)
>>> with store.lease(stored.id, "terminal"):
...     store.latest_playing().id == stored.id
True
>>> store.close()
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
import shutil
import socket
import sqlite3
import threading
import urllib.parse
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from bummerl import jsonio
from bummerl.bots.levels import LEVEL_NAMES
from bummerl.cards import Card, CardParseError, parse_cards
from bummerl.engine import Deal, Outcome
from bummerl.errors import BummerlError, quote
from bummerl.liveness import FOREIGN_LEASE_HOURS, alive, process_start
from bummerl.records import DealRecord, GameRecord, RecordError
from bummerl.rules import Rules, RulesError

__all__ = [
    "CARD_STYLES",
    "COMPUTER_LEVELS",
    "DB_NAME",
    "FOREIGN_LEASE_HOURS",
    "KINDS",
    "MIGRATIONS",
    "STATES",
    "Appended",
    "GameBusy",
    "GameDamaged",
    "GameNotFound",
    "GameStore",
    "Stats",
    "StoreError",
    "StoredGame",
    "Tally",
    "check_kind",
    "data_dir",
    "shown_id",
]

#: The file name of the database inside the data directory.
DB_NAME = "games.db"
#: The computer levels a stored game may name (``random`` plays uniformly at random).
COMPUTER_LEVELS: tuple[str, ...] = (*LEVEL_NAMES, "random")
#: Every kind of other seat a stored game may name: a computer level, or ``human`` for a person.
KINDS: tuple[str, ...] = (*COMPUTER_LEVELS, "human")
#: Card faces.
CARD_STYLES: tuple[str, ...] = ("french", "german")
#: The states of a game.
STATES: tuple[str, ...] = ("playing", "finished", "abandoned")
State = Literal["playing", "finished", "abandoned"]

#: The directory of the JSON saves of releases before the store, imported when the store is opened.
LEGACY_DIR = "games"
_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")
_LEGACY_MAX_BYTES = 4_000_000
_BUSY_MS = 15_000

#: Schema steps, numbered from 1 (``PRAGMA user_version`` is the number of steps applied). Append-only.
MIGRATIONS: list[tuple[str, ...]] = [
    (  # 1: games, their deals and actions, leases, settings, and the record of imported JSON saves
        """CREATE TABLE games (
            id TEXT PRIMARY KEY,
            created TEXT NOT NULL,
            updated TEXT NOT NULL,
            rules TEXT NOT NULL,
            level TEXT NOT NULL,
            cards TEXT NOT NULL,
            seed INTEGER NOT NULL,
            first_dealer INTEGER NOT NULL,
            target INTEGER NOT NULL,
            state TEXT NOT NULL,
            score0 INTEGER NOT NULL,
            score1 INTEGER NOT NULL
        )""",
        "CREATE INDEX games_by_update ON games (updated)",
        """CREATE TABLE deals (
            game_id TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            deal_index INTEGER NOT NULL,
            dealer INTEGER NOT NULL,
            deck TEXT NOT NULL,
            PRIMARY KEY (game_id, deal_index)
        )""",
        """CREATE TABLE actions (
            game_id TEXT NOT NULL,
            deal_index INTEGER NOT NULL,
            seq INTEGER NOT NULL,
            action TEXT NOT NULL,
            PRIMARY KEY (game_id, deal_index, seq),
            FOREIGN KEY (game_id, deal_index) REFERENCES deals (game_id, deal_index) ON DELETE CASCADE
        )""",
        """CREATE TABLE leases (
            game_id TEXT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
            owner TEXT NOT NULL,
            pid INTEGER NOT NULL,
            host TEXT NOT NULL,
            started TEXT NOT NULL,
            since TEXT NOT NULL
        )""",
        "CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
        """CREATE TABLE legacy_imports (
            file TEXT PRIMARY KEY,
            game_id TEXT,
            problem TEXT,
            imported TEXT NOT NULL
        )""",
    ),
    (  # 2: the decks given for a game's first deals (POST /api/games "decks"), kept for its later deals
        """CREATE TABLE given_decks (
            game_id TEXT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
            decks TEXT NOT NULL
        )""",
    ),
]
#: The schema version from which the table ``given_decks`` exists (an older store's games have none).
_GIVEN_DECKS_SINCE = 2


# ----------------------------------------------------------------------------------------------- errors


class StoreError(BummerlError):
    """The store cannot be opened, read or written (one line, e.g. ``cannot write the data directory``)."""


class GameDamaged(StoreError):
    """A stored game that does not read or replay; the message names it, and the other games are fine."""

    def __init__(self, game_id: str, why: str) -> None:
        game_id = shown_id(game_id)
        super().__init__(f"game {game_id} is damaged: {why}; the other games are fine")
        self.game_id = game_id
        self.why = why


#: Who may hold a game, in words: a lease's owner (the terminal's and the web server's).
_HOLDERS = {"terminal": "bummerl play", "web": "bummerl serve"}


class GameBusy(StoreError):
    """Another live process (or another owner in this one) plays this game.

    >>> print(GameBusy.of("3f2a9c01b2d4", "web"))
    game 3f2a9c01b2d4 is open in another window (bummerl serve): close it there first
    """

    @classmethod
    def of(cls, game_id: str | None, owner: object) -> GameBusy:
        """The error for a game ``owner`` holds (``game_id`` None: one of several being saved)."""
        holder = _HOLDERS.get(owner) if isinstance(owner, str) else None
        what = "a game being saved" if game_id is None else f"game {shown_id(game_id)}"
        by = f" ({holder})" if holder else ""
        return cls(f"{what} is open in another window{by}: close it there first")


class GameNotFound(StoreError):
    """No stored game has this id (or prefix)."""


# ----------------------------------------------------------------------------------------------- values


def shown_id(text: object) -> str:
    r"""A game id as it may be printed: itself when it is one, else quoted (a damaged row's id may hold
    terminal escapes) and cut to 80 characters.

    >>> print(shown_id("3f2a9c01b2d4"), shown_id("x" + chr(27) + "]0;title"))
    3f2a9c01b2d4 'x\x1b]0;title'
    """
    if isinstance(text, str) and _ID.fullmatch(text):
        return text
    return quote(str(text))


def data_dir() -> Path:
    """Where bummerl keeps its files: ``$BUMMERL_HOME`` or the user data directory.

    >>> from unittest import mock
    >>> with mock.patch.dict(os.environ, {"BUMMERL_HOME": "/tmp/somewhere"}):
    ...     str(data_dir())
    '/tmp/somewhere'
    """
    home = os.environ.get("BUMMERL_HOME")
    if home:
        return Path(home).expanduser()
    import platformdirs

    return Path(platformdirs.user_data_dir("bummerl", appauthor=False))


def check_kind(value: object) -> str:
    """A stored level or seat kind, checked against the built-in ones (never a ``cmd:`` program).

    >>> check_kind("expert")
    'expert'
    >>> check_kind("cmd:touch X")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    bummerl.store.StoreError: unknown level 'cmd:touch X' (a stored game may name easy, medium, ... or human)
    """
    if isinstance(value, str) and value in KINDS:
        return value
    shown = repr(value)[:80]
    raise StoreError(f"unknown level {shown} (a stored game may name {', '.join(KINDS[:-1])} or human)")


@dataclass(frozen=True)
class StoredGame:
    """One stored game, replayed: its settings, state, record (with the scores) and deal results.

    ``level`` is a computer level (:data:`COMPUTER_LEVELS`) or ``human``; seat 0 is the person at this
    front end, seat 1 the other seat; ``score`` is the game points each seat still needs.
    """

    id: str
    created: datetime
    updated: datetime
    rules: Rules
    level: str
    cards: str
    seed: int
    first_dealer: int
    state: str
    record: GameRecord
    score: tuple[int, int]
    outcomes: tuple[Outcome, ...] = ()
    winner: int | None = None
    #: The deck orders given for the first deals when the game was made (usually none: shuffled by seed).
    given_decks: tuple[tuple[int, ...], ...] = ()

    @property
    def decks(self) -> list[tuple[int, ...]]:
        """The decks a table bringing the game back deals: those of the deals so far, then the given ones
        for deals not begun yet (the later ones come from the seed)."""
        played = [tuple(int(c) for c in d.deck) for d in self.record.deals]
        return played + list(self.given_decks[len(played):])

    @property
    def finished(self) -> bool:
        """True once somebody has won the Bummerl."""
        return self.state == "finished"

    def summary(self) -> dict[str, Any]:
        """The game as a JSON object for listings (``bummerl games --json``)."""
        return {
            "id": self.id,
            "state": self.state,
            "created": self.created.isoformat(),
            "updated": self.updated.isoformat(),
            "rules": self.rules.to_json(),
            "rules_text": self.rules.describe(),
            "level": self.level,
            "cards": self.cards,
            "score": list(self.score),
            "deals": len(self.record.deals),
            "winner": self.winner,
        }


@dataclass
class Tally:
    """What seat 0 (you) won in a group of games against the computer."""

    deals: int = 0
    deals_won: int = 0
    bummerls: int = 0
    bummerls_won: int = 0
    playing: int = 0
    abandoned: int = 0
    game_points_won: int = 0
    game_points_lost: int = 0

    def add(self, game: StoredGame) -> None:
        """Count one game."""
        for outcome in game.outcomes:
            self.deals += 1
            if outcome.winner == 0:
                self.deals_won += 1
                self.game_points_won += outcome.game_points
            elif outcome.winner == 1:
                self.game_points_lost += outcome.game_points
        if game.state == "finished":
            self.bummerls += 1
            self.bummerls_won += game.winner == 0
        elif game.state == "abandoned":
            self.abandoned += 1
        else:
            self.playing += 1


@dataclass
class Stats:
    """Totals over the games against the computer, per level and per rules preset; damaged games listed."""

    by_level: dict[str, Tally] = field(default_factory=dict)
    by_rules: dict[str, Tally] = field(default_factory=dict)
    damaged: list[GameDamaged] = field(default_factory=list)


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds")


def _state_after(score: tuple[int, int]) -> State:
    """The state of a game stored with ``score`` (game points still needed): ``finished`` once somebody has
    won, else ``playing`` (a game played on after it was abandoned is played again)."""
    return "finished" if min(score) <= 0 else "playing"


# ----------------------------------------------------------------------------------------------- the store


@dataclass(frozen=True, slots=True)
class Appended:
    """What a game record holds beyond what is stored of it (:meth:`of`), for
    :meth:`GameStore.append_many`: new deals ``(deal_index, dealer, deck)``, new actions ``(deal_index,
    seq, action)``, the score after them, and :attr:`stored`, what is stored once they are.

    >>> from bummerl.game import Bummerl
    >>> game = Bummerl(Rules.preset("standard"), seed=5, first_dealer=1)
    >>> game.apply(game.deal.legal_actions()[0])
    >>> part = Appended.of("g1", GameRecord.from_game(game), stored=(1, 0))
    >>> part.deals, [a[:2] for a in part.actions], part.score, part.stored
    ((), [(0, 0)], (7, 7), (1, 1))
    """

    game_id: str
    deals: tuple[tuple[int, int, str], ...]
    actions: tuple[tuple[int, int, str], ...]
    score: tuple[int, int]
    #: (deals stored, actions stored in the last of them) once this part is.
    stored: tuple[int, int]

    @staticmethod
    def of(game_id: str, record: GameRecord, stored: tuple[int, int]) -> Appended:
        """The part of ``record`` beyond ``stored``: (deals stored, actions stored in the last of them;
        the deals before it are complete, as a deal is only followed by another once it is over)."""
        count, have = stored
        if not 1 <= count <= len(record.deals) or have > len(record.deals[count - 1].actions):
            raise StoreError(f"game {game_id}: the game being saved is shorter than the stored one")
        deals = tuple((i, d.dealer, " ".join(str(c) for c in d.deck))
                      for i, d in enumerate(record.deals) if i >= count)
        actions = tuple((i, seq, a) for i in range(count - 1, len(record.deals))
                        for seq, a in enumerate(record.deals[i].actions) if i >= count or seq >= have)
        score = record.scores[-1] if record.scores else (record.target, record.target)
        return Appended(game_id, deals, actions, score, (len(record.deals), len(record.deals[-1].actions)))


class GameStore:
    """The SQLite game store (see the module docstring); thread-safe, one per process is enough."""

    def __init__(self, path: Path, connection: sqlite3.Connection, schema: int = len(MIGRATIONS)) -> None:
        self.path = path
        self._db = connection
        #: The schema version when opened: the current one, or an older one read as it is (read-only).
        self._schema = schema
        self._lock = threading.RLock()
        self._held: dict[str, str] = {}
        #: Problems met while importing old JSON saves this time (each is also kept in the database).
        self.notes: list[str] = []

    # ------------------------------------------------------------------ opening

    @classmethod
    def open(cls, home: Path | None = None, *, reading: bool = False) -> GameStore:
        """Open (creating and migrating it if needed) the store in ``home`` (default :func:`data_dir`).

        Raises :class:`StoreError` with one line when the directory cannot be written or the database is
        damaged or newer than this bummerl. With ``reading`` (a listing, an export) a store that cannot be
        written (a read-only directory or file: a backup, a mounted disk) is opened read-only instead, an
        older schema read as it is (not migrated: nothing is written).
        """
        home = data_dir() if home is None else Path(home)
        path = home / DB_NAME
        if home.exists() and not home.is_dir():
            raise StoreError(f"the data directory {home} is a file, not a directory (set BUMMERL_HOME to a "
                             "directory)")
        if path.is_dir():
            raise StoreError(f"the game database {path} is a directory, not a file: move it away")
        if reading and not path.exists() and not (home / LEGACY_DIR).is_dir() and _may_be_made(home):
            return cls._nothing_yet(path)  # a listing creates nothing
        writable = os.access(home, os.W_OK | os.X_OK) and os.access(path, os.W_OK)
        if reading and path.is_file() and not writable:
            return cls._open_read_only(path)
        try:
            home.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise StoreError(f"cannot write the data directory {home}: {err.strerror or err}") from None
        if not os.access(home, os.W_OK | os.X_OK):
            raise StoreError(f"cannot write the data directory {home}: permission denied")
        _check_with_its_log(path)
        existed = path.exists()
        try:
            db = sqlite3.connect(path, timeout=_BUSY_MS / 1000, isolation_level=None, check_same_thread=False)
        except sqlite3.Error as err:
            raise _unwritable(home, err) from None
        store = cls(path, db)
        try:
            db.execute(f"PRAGMA busy_timeout = {_BUSY_MS}")
            version = db.execute("PRAGMA user_version").fetchone()[0]
            if _foreign(db, version):
                # not the tables its schema version promises: another program's file, left as it is (not
                # even WAL, not migrated)
                raise _not_ours(path, ": move it away, or choose another data directory with BUMMERL_HOME")
            refusal = _schema_refusal(path, version)
            if refusal is not None:  # before anything is written (WAL)
                raise refusal
            db.execute("PRAGMA journal_mode = WAL")
            db.execute("PRAGMA synchronous = FULL")
            db.execute("PRAGMA foreign_keys = ON")
            store._migrate()
            store._import_legacy(home / LEGACY_DIR)
        except sqlite3.DatabaseError as err:
            db.close()
            if "unable to open" in str(err):
                raise _unwritable(home, err) from None
            if _disk_trouble(err):
                if not existed and path.is_file() and path.stat().st_size == 0:
                    path.unlink()  # made here, empty: a full disk leaves nothing behind
                elif reading and path.is_file():
                    return cls._open_read_only(path)  # a listing or an export needs no room on the disk
            raise store.store_error(err) from None
        except UnicodeDecodeError:  # SQLite's message quotes bytes of a damaged schema that are not text
            db.close()
            raise StoreError(f"the game database {path} is damaged: its schema cannot be read (move it away "
                             "to start afresh)") from None
        except BaseException:
            db.close()
            raise
        return store

    @classmethod
    def _nothing_yet(cls, path: Path) -> GameStore:
        """An empty store, in memory and read-only, standing for the one at ``path`` that does not exist
        yet: what a listing sees, without creating the data directory and the database."""
        db = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
        for step in MIGRATIONS:
            for statement in step:
                db.execute(statement)
        db.execute("PRAGMA query_only = ON")
        return cls(path, db)

    @classmethod
    def _open_read_only(cls, path: Path) -> GameStore:
        """The store at ``path`` for reading only: no migration, no import, no lease (see :meth:`open`).
        A store of an older schema (from schema version 1 on) is read as it is."""
        base = _read_only_uri(path)
        # A store in WAL mode needs its -shm file, which a read-only directory may not hold: then it is read
        # as immutable (nobody can write there either).
        for uri in (base, base + "&immutable=1"):
            db = sqlite3.connect(uri, uri=True, timeout=_BUSY_MS / 1000, isolation_level=None,
                                 check_same_thread=False)  # opens lazily: the first statement may fail
            try:
                version = db.execute("PRAGMA user_version").fetchone()[0]
            except sqlite3.OperationalError as err:
                db.close()
                if "immutable" not in uri:
                    if _has_log(path):  # read as immutable, the log's saves would be left out
                        raise StoreError(f"cannot read the game database {path} where it is: its log holds "
                                         "saves that need a writable directory (copy games.db and "
                                         "games.db-wal to one, and point BUMMERL_HOME there)") from None
                    continue
                raise StoreError(f"cannot read the game database {path}: {err}") from None
            except (sqlite3.DatabaseError, UnicodeDecodeError) as err:
                db.close()
                raise StoreError(f"the game database {path} is damaged: {err}") from None
            refusal = _schema_refusal(path, version)
            if version and _foreign(db, version):
                refusal = _not_ours(path)
            if refusal is None and version == 0:  # no bummerl tables yet (an empty file, another program's)
                refusal = StoreError(f"the game database {path} cannot be written, and its schema (version "
                                     f"0) is not this bummerl's ({len(MIGRATIONS)}): copy it to a writable "
                                     "directory and point BUMMERL_HOME there")
            if refusal is not None:
                db.close()
                raise refusal
            return cls(path, db, version)
        raise AssertionError("unreachable")

    def store_error(self, err: sqlite3.Error) -> StoreError:
        """The one-line :class:`StoreError` for an SQLite error on this database: busy, not writable, or
        damaged."""
        text = str(err)
        if isinstance(err, sqlite3.OperationalError) and "locked" in text:
            return StoreError(f"the game database {self.path} is busy (another bummerl holds it too long)")
        if isinstance(err, sqlite3.OperationalError) and ("readonly" in text or "unable to open" in text):
            return StoreError(f"cannot write the game database {self.path}: {err}")
        if _disk_trouble(err):
            return StoreError(_disk_words(self.path, err))
        return StoreError(f"the game database {self.path} is damaged: {err} (move it away to start afresh; "
                          "`sqlite3 games.db .recover` may save its games)")

    def _migrate(self) -> None:
        if self._db.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS):
            return  # up to date: no write lock needed (a writer elsewhere does not block opening)
        with self._tx() as db:
            version = db.execute("PRAGMA user_version").fetchone()[0]
            refusal = _schema_refusal(self.path, version)
            if refusal is not None:
                raise refusal
            for number in range(version, len(MIGRATIONS)):
                for statement in MIGRATIONS[number]:
                    db.execute(statement)
                db.execute(f"PRAGMA user_version = {number + 1}")

    def check_games(self) -> None:
        """Check the table of games and its indexes (``PRAGMA quick_check(games)``, that table only): a server
        about to list them for every page refuses a damaged one at its start, in one line, instead of
        answering every listing with an error. Raises :class:`StoreError`."""
        with self._reading() as db:
            verdict = [str(row[0]) for row in db.execute("PRAGMA quick_check(games)").fetchall()]
        if verdict != ["ok"]:
            why = f"its table of games is damaged ({verdict[0][:120]})"
            raise self.store_error(sqlite3.DatabaseError(why))

    @property
    def schema_version(self) -> int:
        """The number of migration steps applied."""
        with self._reading() as db:
            return int(db.execute("PRAGMA user_version").fetchone()[0])

    def close(self) -> None:
        """Release this process's leases and close the connection."""
        with self._lock:
            for game_id, owner in list(self._held.items()):
                with contextlib.suppress(sqlite3.Error):
                    self._release(game_id, owner)
            self._db.close()

    def __enter__(self) -> GameStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextlib.contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        """One write transaction (``BEGIN IMMEDIATE``), committed on success, rolled back on error."""
        with self._lock:
            db = self._db
            db.execute("BEGIN IMMEDIATE")
            try:
                yield db
                db.execute("COMMIT")
            except BaseException:
                if db.in_transaction:  # also after a failed COMMIT: leave no transaction open
                    with contextlib.suppress(sqlite3.Error):
                        db.execute("ROLLBACK")
                raise

    @contextlib.contextmanager
    def _writing(self, what: str, doing: str = "save") -> Iterator[sqlite3.Connection]:
        """A write transaction whose SQLite errors become one-line :class:`StoreError`: cannot ``doing``
        ``what``."""
        try:
            with self._tx() as db:
                yield db
        except sqlite3.Error as err:
            raise StoreError(f"cannot {doing} {what} in {self.path}: {err}") from None

    @contextlib.contextmanager
    def _reading(self) -> Iterator[sqlite3.Connection]:
        """The connection, under the lock, with SQLite errors as one-line :class:`StoreError`."""
        with self._lock:
            try:
                yield self._db
            except sqlite3.Error as err:
                raise self.store_error(err) from None
            except UnicodeDecodeError as err:  # a damaged page's bytes quoted in SQLite's message
                raise self.store_error(sqlite3.DatabaseError(f"unreadable bytes ({err.reason})")) from None

    # ------------------------------------------------------------------ writing games

    def create(
        self,
        *,
        rules: Rules,
        level: str,
        seed: int,
        cards: str,
        first_dealer: int,
        record: GameRecord,
        lease: str | None = None,
        decks: Sequence[Sequence[int]] = (),
    ) -> StoredGame:
        """Store a new game (with the deals and actions of ``record`` so far: at least the first deal) and
        return it. ``level`` is a computer level or ``human``; ``seed`` the seed of the later shuffles and
        of the computer; ``decks`` the deck orders given for its first deals, if any (kept, so that a game
        brought back deals them too). With ``lease`` the game is stored held by that owner (as :meth:`lease`
        takes it; one transaction, so a lease that cannot be written leaves no game behind); :meth:`lease`
        with the same owner then holds it on, and releases it."""
        check_kind(level)
        if cards not in CARD_STYLES:
            raise StoreError(f"unknown card faces {cards!r} (french or german)")
        if record.rules != rules or record.first_dealer != first_dealer or not record.deals:
            raise StoreError("the record's rules or first dealer differ from the game's, or it has no deal")
        target = record.target
        game_id = secrets.token_hex(6)
        now = _now()
        with self._writing(f"game {game_id}") as db:
            db.execute(
                "INSERT INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'playing', ?, ?)",
                (game_id, now, now, json.dumps(rules.to_json()), level, cards, seed, first_dealer, target,
                 target, target),
            )
            self._append(db, game_id, record)
            if decks:
                shown = [" ".join(str(Card.from_index(int(c))) for c in deck) for deck in decks]
                db.execute("INSERT INTO given_decks VALUES (?, ?)", (game_id, json.dumps(shown)))
            if lease is not None:
                self._take(db, game_id, lease)
        return self.load(game_id)

    def sync(self, game_id: str, record: GameRecord) -> None:
        """Append what ``record`` has beyond the stored game (new deals, new actions) and its score and
        state, in one transaction. The stored part must be the start of ``record``, else
        :class:`StoreError`."""
        with self._writing(f"game {game_id}") as db:
            self._append(db, game_id, record)

    def sync_many(self, items: Sequence[tuple[str, GameRecord]]) -> None:
        """:meth:`sync` for several games in one transaction (one disk sync for all, e.g. a busy server):
        all are stored or, on any error, none."""
        with self._writing(f"{len(items)} games") as db:
            for game_id, record in items:
                self._append(db, game_id, record)

    def append_many(self, parts: Sequence[Appended]) -> None:
        """Store what several games added since they were last stored (:class:`Appended`) in one
        transaction with a fixed number of statements whatever their number (a busy server's group commit:
        the thread that commits takes the GIL back after every statement, so fewer statements wait less
        for the event loop). All are stored or, on any error, none: a game another live process holds
        (:class:`GameBusy`), an action already stored at that place (the game was played on elsewhere), a
        game that is not stored; the caller then syncs them one by one (:meth:`sync` checks everything)."""
        if not parts:
            return
        ids = [p.game_id for p in parts]
        marks = ", ".join("?" * len(ids))
        with self._writing(f"{len(parts)} games") as db:
            here = (os.getpid(), socket.gethostname())
            held, known = db.execute(
                f"SELECT (SELECT COUNT(*) FROM leases WHERE game_id IN ({marks}) "
                f"AND NOT (pid = ? AND host = ?)), (SELECT COUNT(*) FROM games WHERE id IN ({marks}))",
                (*ids, *here, *ids)).fetchone()
            if held:
                raise GameBusy.of(None, None)
            if known != len(set(ids)):
                raise GameNotFound("a game being saved is not stored")
            for table, rows in (("deals", [(p.game_id, *d) for p in parts for d in p.deals]),
                                ("actions", [(p.game_id, *a) for p in parts for a in p.actions])):
                for start in range(0, len(rows), 1000):  # one statement per thousand rows
                    chunk = rows[start:start + 1000]
                    values = ", ".join(["(?, ?, ?, ?)"] * len(chunk))
                    db.execute(f"INSERT INTO {table} VALUES {values}", [x for row in chunk for x in row])
            cases = " ".join(["WHEN ? THEN ?"] * len(parts))
            db.execute(
                f"UPDATE games SET updated = ?, state = CASE id {cases} END, score0 = CASE id {cases} END, "
                f"score1 = CASE id {cases} END WHERE id IN ({marks})",
                [_now(),
                 *[x for p in parts for x in (p.game_id, _state_after(p.score))],
                 *[x for p in parts for x in (p.game_id, p.score[0])],
                 *[x for p in parts for x in (p.game_id, p.score[1])], *ids])

    def _append(self, db: sqlite3.Connection, game_id: str, record: GameRecord) -> None:
        self._check_lease(db, game_id)
        row = db.execute("SELECT target FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise GameNotFound(f"no saved game {game_id}")
        target = row[0]
        stored_deals = db.execute("SELECT deal_index, dealer, deck FROM deals WHERE game_id = ? "
                                  "ORDER BY deal_index", (game_id,)).fetchall()
        stored_actions: dict[int, list[str]] = {}
        for index, action in db.execute("SELECT deal_index, action FROM actions WHERE game_id = ? "
                                        "ORDER BY deal_index, seq", (game_id,)):
            stored_actions.setdefault(index, []).append(action)
        if len(stored_deals) > len(record.deals):
            raise StoreError(f"game {game_id} has more deals stored than the game being saved")
        for index, deal in enumerate(record.deals):
            deck = " ".join(str(c) for c in deal.deck)
            if index < len(stored_deals):
                if tuple(stored_deals[index][1:]) != (deal.dealer, deck):
                    raise StoreError(f"game {game_id}: deal {index + 1} differs from the stored one")
            else:
                db.execute("INSERT INTO deals VALUES (?, ?, ?, ?)", (game_id, index, deal.dealer, deck))
            have = stored_actions.get(index, [])
            if list(deal.actions[:len(have)]) != have:
                raise StoreError(f"game {game_id}: deal {index + 1} was played differently elsewhere")
            new = [(game_id, index, seq, a) for seq, a in enumerate(deal.actions) if seq >= len(have)]
            db.executemany("INSERT INTO actions VALUES (?, ?, ?, ?)", new)
        score = record.scores[-1] if record.scores else (target, target)
        db.execute("UPDATE games SET updated = ?, state = ?, score0 = ?, score1 = ? WHERE id = ?",
                   (_now(), _state_after(score), score[0], score[1], game_id))

    def finish(self, game_id: str, state: State = "abandoned") -> None:
        """Mark a game ``abandoned`` (given up while unfinished; playing on makes it ``playing`` again) or
        ``playing``; ``finished`` is set by :meth:`sync` when somebody wins, and only then allowed here."""
        if state not in STATES:
            raise StoreError(f"unknown game state {str(state)[:80]!r}")
        game = self.load(game_id)
        if (state == "finished") != game.finished:  # (load checks: finished exactly when it is over)
            over = "is over" if game.finished else "is not over"
            raise StoreError(f"game {game_id} {over}: it cannot be marked {state}")
        with self._writing(f"game {game_id}") as db:
            self._check_lease(db, game_id)
            db.execute("UPDATE games SET updated = ?, state = ? WHERE id = ?", (_now(), state, game_id))

    def delete(self, game_id: str) -> None:
        """Delete a game (its deals, actions and lease too); :class:`GameNotFound` if there is none."""
        with self._writing(f"game {game_id}", "delete") as db:
            self._check_lease(db, game_id)
            if db.execute("DELETE FROM games WHERE id = ?", (game_id,)).rowcount == 0:
                raise GameNotFound(f"no saved game {game_id}")

    # ------------------------------------------------------------------ reading games

    def resolve(self, text: str) -> str:
        """The id of the one game whose id is ``text`` or starts with it.

        Raises :class:`GameNotFound` when none does, :class:`StoreError` when several do.
        """
        if not isinstance(text, str) or not _ID.fullmatch(text):
            raise GameNotFound(f"no saved game {str(text)[:80]!r}")
        with self._reading() as db:
            ids = [r[0] for r in db.execute(
                "SELECT id FROM games WHERE id = ? OR substr(id, 1, ?) = ? ORDER BY id",
                (text, len(text), text))]
        if text in ids:
            return str(text)
        if not ids:
            raise GameNotFound(f"no saved game {text!r} (bummerl games lists them)")
        if len(ids) > 1:
            shown = ", ".join(shown_id(i) for i in ids[:4])
            raise StoreError(f"{text!r} starts {len(ids)} game ids ({shown}): give more of it")
        return str(ids[0])

    def load(self, game_id: str) -> StoredGame:
        """The stored game, replayed; :class:`GameNotFound`, or :class:`GameDamaged` naming what is wrong
        (its rows do not read, or do not replay)."""
        with self._lock:
            db = self._db
            snapshot = False
            try:
                if not db.in_transaction:  # one read transaction: the three reads see one commit
                    db.execute("BEGIN")
                    snapshot = True
                row = db.execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchone()
                if row is None:
                    raise GameNotFound(f"no saved game {quote(game_id)} (bummerl games lists them)")
                deals = db.execute("SELECT deal_index, dealer, deck FROM deals WHERE game_id = ? "
                                   "ORDER BY deal_index", (game_id,)).fetchall()
                actions = db.execute("SELECT deal_index, seq, action FROM actions WHERE game_id = ? "
                                     "ORDER BY deal_index, seq", (game_id,)).fetchall()
                given = db.execute("SELECT decks FROM given_decks WHERE game_id = ?",
                                   (game_id,)).fetchone() if self._has_given_decks(db) else None
            except sqlite3.Error as err:
                if _unreadable(err):
                    raise GameDamaged(game_id, f"its rows cannot be read ({err})") from None
                raise self.store_error(err) from None
            finally:
                if snapshot and db.in_transaction:
                    with contextlib.suppress(sqlite3.Error):
                        db.execute("COMMIT")
        try:
            game = _build(row, deals, actions)
            return game if given is None else replace(game, given_decks=_given_decks(game.rules, given[0]))
        except (BummerlError, ValueError, TypeError, KeyError, RecursionError) as err:
            raise GameDamaged(str(row[0]), str(err)[:200]) from None

    def _has_given_decks(self, db: sqlite3.Connection) -> bool:
        """Whether the store has the table of given decks: an older store read as it is (read-only) has
        not, unless another bummerl has upgraded it since (read in the caller's read transaction)."""
        return self._schema >= _GIVEN_DECKS_SINCE or (
            db.execute("PRAGMA user_version").fetchone()[0] >= _GIVEN_DECKS_SINCE)

    def games(self) -> Iterator[StoredGame | GameDamaged]:
        """Every stored game, the most recently played first; a damaged one is yielded as its error."""
        with self._reading() as db:
            try:
                ids = [r[0] for r in db.execute("SELECT id FROM games ORDER BY updated DESC, rowid DESC")]
            except sqlite3.DatabaseError as err:  # a damaged index: read the table itself, newest rows first
                if not _unreadable(err):
                    raise
                ids = [r[0] for r in db.execute("SELECT id FROM games NOT INDEXED ORDER BY rowid DESC")]
        for game_id in ids:
            try:
                yield self.load(game_id)
            except GameDamaged as err:
                yield err
            except GameNotFound:  # deleted meanwhile
                continue

    def latest_playing(self, levels: Sequence[str] = KINDS) -> StoredGame | None:
        """The most recently played unfinished game, leaving out those of known kinds not in ``levels``
        (default: none left out), if any; :class:`GameDamaged` if that one is damaged (a level that is not
        a known kind is never left out silently)."""
        others = [k for k in KINDS if k not in levels] or [""]
        marks = ", ".join("?" for _ in others)
        with self._reading() as db:
            row = db.execute(f"SELECT id FROM games WHERE state = 'playing' AND level NOT IN ({marks}) "
                             "ORDER BY updated DESC, rowid DESC LIMIT 1", tuple(others)).fetchone()
        return None if row is None else self.load(row[0])

    def unfinished(self, levels: Sequence[str] = COMPUTER_LEVELS) -> int:
        """How many games of these levels are still being played (default: those against the computer)."""
        marks = ", ".join("?" for _ in levels) or "''"
        with self._reading() as db:
            row = db.execute(f"SELECT COUNT(*) FROM games WHERE state = 'playing' AND level IN ({marks})",
                             tuple(levels)).fetchone()
        return int(row[0])

    def stats(self) -> Stats:
        """Totals of your games against the computer, per level and per rules (preset and overrides)."""
        out = Stats()
        for game in self.games():
            if isinstance(game, GameDamaged):
                out.damaged.append(game)
            elif game.level != "human":
                out.by_level.setdefault(game.level, Tally()).add(game)
                out.by_rules.setdefault(game.rules.describe(), Tally()).add(game)  # overrides apart
        return out

    # ------------------------------------------------------------------ leases

    @contextlib.contextmanager
    def lease(self, game_id: str, owner: str) -> Iterator[None]:
        """Hold a game for ``owner`` in this process while the block runs.

        Raises :class:`GameBusy` ("game ... is open in another window") when another live process, or
        another owner in this one, holds it. A lease left by a process that has ended is taken over.
        """
        self._acquire(game_id, owner)
        try:
            yield
        finally:
            with contextlib.suppress(sqlite3.Error):
                self._release(game_id, owner)

    def _acquire(self, game_id: str, owner: str) -> None:
        with self._writing(f"the lease of game {game_id}") as db:
            if db.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone() is None:
                raise GameNotFound(f"no saved game {quote(game_id)}")
            self._take(db, game_id, owner)

    def _take(self, db: sqlite3.Connection, game_id: str, owner: str) -> None:
        """Write ``owner``'s lease of the game in the transaction ``db`` (unless a live other holds it)."""
        me = (owner, os.getpid(), socket.gethostname())
        row = db.execute("SELECT owner, pid, host, started, since FROM leases WHERE game_id = ?",
                         (game_id,)).fetchone()
        if row is not None and tuple(row[:3]) != me and alive(*row[1:]):
            raise GameBusy.of(game_id, row[0])
        db.execute("INSERT OR REPLACE INTO leases VALUES (?, ?, ?, ?, ?, ?)",
                   (game_id, owner, me[1], me[2], process_start(me[1]), _now()))
        self._held[game_id] = owner

    def _release(self, game_id: str, owner: str) -> None:
        with self._tx() as db:
            db.execute("DELETE FROM leases WHERE game_id = ? AND owner = ? AND pid = ? AND host = ?",
                       (game_id, owner, os.getpid(), socket.gethostname()))
        self._held.pop(game_id, None)

    def _check_lease(self, db: sqlite3.Connection, game_id: str) -> None:
        """Refuse a write to a game another live process holds."""
        row = db.execute("SELECT owner, pid, host, started, since FROM leases WHERE game_id = ?",
                         (game_id,)).fetchone()
        if row is None:
            return
        if (row[1] == os.getpid() and row[2] == socket.gethostname()) or not alive(*row[1:]):
            return  # this process holds it (for one of its owners), or the holder has ended
        raise GameBusy.of(game_id, row[0])

    def holder(self, game_id: str) -> int | None:
        """The pid of the live process holding the game, if any."""
        with self._reading() as db:
            row = db.execute("SELECT pid, host, started, since FROM leases WHERE game_id = ?",
                             (game_id,)).fetchone()
        return row[0] if row is not None and alive(*row) else None

    # ------------------------------------------------------------------ settings

    def settings(self) -> dict[str, Any]:
        """The remembered settings (values as JSON); unreadable ones are left out (callers check values)."""
        out: dict[str, Any] = {}
        with self._reading() as db:
            rows = db.execute("SELECT key, value FROM settings").fetchall()
        for key, value in rows:
            with contextlib.suppress(ValueError, TypeError):  # jsonio's InputError is a ValueError
                out[str(key)] = jsonio.loads(value)  # the hardened reader: no RecursionError
        return out

    def remember(self, values: Mapping[str, Any]) -> None:
        """Remember settings (JSON values) for next time."""
        with self._writing("the settings") as db:
            db.executemany("INSERT OR REPLACE INTO settings VALUES (?, ?)",
                           [(k, json.dumps(v)) for k, v in values.items()])

    # ------------------------------------------------------------------ old JSON saves

    def import_problems(self) -> list[str]:
        """One line for every old JSON save that could not be imported and is still there."""
        try:
            with self._reading() as db:
                rows = db.execute("SELECT file, problem FROM legacy_imports WHERE problem IS NOT NULL "
                                  "ORDER BY file").fetchall()
        except StoreError as err:
            return [f"the list of imported old saves cannot be read: {err}"]
        folder = self.path.parent / LEGACY_DIR
        notes, damaged = [], False
        for file, problem in rows:
            try:  # a hand-edited or damaged row: a file name that is no plain text name of that folder
                if not isinstance(file, str) or not isinstance(problem, str) or Path(file).name != file:
                    raise ValueError(file)
                if (folder / file).exists():
                    notes.append(_legacy_note(file, problem))
            except (OSError, ValueError):
                damaged = True
        if damaged:
            notes.append("the list of imported old saves has damaged rows (left out)")
        return notes

    def _import_legacy(self, folder: Path) -> None:
        """Import each ``games/*.json`` not imported before (once per file; the files stay)."""
        if not folder.is_dir():
            return
        with self._lock:
            done = {r[0] for r in self._db.execute("SELECT file FROM legacy_imports")}
        for path in sorted(folder.glob("*.json")):
            if path.name in done:
                continue
            with self._tx() as db:
                if db.execute("SELECT 1 FROM legacy_imports WHERE file = ?", (path.name,)).fetchone():
                    continue
                try:
                    game_id = _import_file(db, path)
                    problem = None
                except (BummerlError, OSError, ValueError, TypeError, KeyError, RecursionError,
                        OverflowError) as err:
                    game_id, problem = None, str(err)[:200]
                    self.notes.append(_legacy_note(path.name, problem))
                db.execute("INSERT INTO legacy_imports VALUES (?, ?, ?, ?)",
                           (path.name, game_id, problem, _now()))


def _check_with_its_log(path: Path) -> None:
    """When a write-ahead log (``games.db-wal``) lies beside the database (a crash left it, or another
    process is using the store), check the two together read-only before a writer opens them: a writer would
    copy the log into the database on closing, and a log that belongs to another database (or to the one a
    backup replaced) would damage it for good. Raises :class:`StoreError`, the files untouched.

    >>> import tempfile
    >>> _check_with_its_log(Path(tempfile.mkdtemp()) / DB_NAME)  # no log: nothing to check
    """
    log = path.with_name(path.name + "-wal")
    if not _has_log(path):
        return
    try:
        probe = sqlite3.connect(_read_only_uri(path), uri=True, timeout=_BUSY_MS / 1000, isolation_level=None)
    except sqlite3.Error:
        return  # cannot even look: the normal open says why
    try:
        verdict = [str(row[0]) for row in probe.execute("PRAGMA quick_check").fetchall()]
    except (sqlite3.DatabaseError, UnicodeDecodeError) as err:
        verdict = [str(err)]
    finally:
        probe.close()
    if verdict != ["ok"] and not any("locked" in v or "unable to open" in v for v in verdict):
        raise StoreError(
            f"the game database {path} is damaged together with its log {log.name} ({verdict[0][:120]}); "
            f"if {log.name} does not belong to it (a backup copied over {path.name}, or files from another "
            f"computer), move {log.name} and {path.name}-shm away, and {path.name} opens as it is")


def _may_be_made(folder: Path) -> bool:
    """Whether ``folder`` is a directory or could be made one: the nearest of it and its parents that
    exists is a directory (not a file)."""
    for place in (folder, *folder.parents):
        if place.exists():
            return place.is_dir()
    return True


def _tables(version: int) -> set[str]:
    """The tables the first ``version`` schema steps create.

    >>> sorted(_tables(1))
    ['actions', 'deals', 'games', 'leases', 'legacy_imports', 'settings']
    """
    return {match.group(1) for step in MIGRATIONS[:version] for statement in step
            if (match := re.match(r"\s*CREATE TABLE (\w+)", statement))}


def _foreign(db: sqlite3.Connection, version: int) -> bool:
    """Whether the database is another program's: schema version 0 yet not empty, or without the tables
    its version promises (``user_version`` is a number any program may set)."""
    names = {str(row[0]) for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if version == 0:
        return bool(db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0])
    return not _tables(max(version, 0)) <= names


def _not_ours(path: Path, advice: str = "") -> StoreError:
    """The refusal of another program's SQLite file at ``path`` (:func:`_foreign`), then ``advice``."""
    return StoreError(f"{path} is not a bummerl game database (it holds another program's tables){advice}")


def _schema_refusal(path: Path, version: int) -> StoreError | None:
    """Why this bummerl cannot use a database of schema ``version`` (damaged, or newer), if it cannot.

    >>> print(_schema_refusal(Path("games.db"), 99))  # doctest: +ELLIPSIS
    the game database games.db has schema version 99, newer than this bummerl knows (...): upgrade bummerl
    >>> _schema_refusal(Path("games.db"), 1) is None
    True
    """
    if version < 0:
        return StoreError(f"the game database {path} is damaged (schema version {version}); "
                          "move it away to start afresh")
    if version > len(MIGRATIONS):
        return StoreError(f"the game database {path} has schema version {version}, newer than "
                          f"this bummerl knows ({len(MIGRATIONS)}): upgrade bummerl")
    return None


def _read_only_uri(path: Path) -> str:
    """The SQLite URI that opens the database ``path`` read-only."""
    return "file:" + urllib.parse.quote(str(path.resolve())) + "?mode=ro"


def _has_log(path: Path) -> bool:
    """Whether a non-empty write-ahead log (``games.db-wal``) lies beside the database ``path``."""
    log = path.with_name(path.name + "-wal")
    try:
        return path.is_file() and log.is_file() and log.stat().st_size > 0
    except OSError:
        return False


#: Free bytes below which the disk of the data directory counts as full.
FULL_BELOW = 1 << 20


def _disk_trouble(err: sqlite3.Error) -> bool:
    """Whether SQLite failed at the disk (full, or failing to read or write), not at the file's contents.

    >>> _disk_trouble(sqlite3.OperationalError("database or disk is full"))
    True
    >>> _disk_trouble(sqlite3.DatabaseError("database disk image is malformed"))
    False
    """
    text = str(err)
    return isinstance(err, sqlite3.OperationalError) and ("disk I/O error" in text or "disk is full" in text)


def _disk_words(path: Path, err: sqlite3.Error) -> str:
    """What a disk failure means for the player, never that the database is damaged (a full disk made
    SQLite say "disk I/O error" of a healthy file, and the advice to move it away would have lost it)."""
    try:
        free = shutil.disk_usage(path.parent).free
    except OSError:
        free = None
    if free is not None and free < FULL_BELOW:
        return (f"the disk holding the game database {path} is full ({err}): free some space and try again "
                "(the database is not damaged)")
    return (f"cannot use the game database {path}: {err} (the disk may be full or failing; nothing says the "
            "database is damaged: try again, or copy it to another disk)")


def _unwritable(home: Path, err: sqlite3.Error) -> StoreError:
    return StoreError(f"cannot write the data directory {home}: cannot open {DB_NAME} there ({err})")


def _unreadable(err: sqlite3.Error) -> bool:
    """Whether an SQLite error means damaged rows (not a busy or unwritable database)."""
    return isinstance(err, sqlite3.IntegrityError | sqlite3.DataError) or any(
        w in str(err) for w in ("malformed", "not a database", "corrupt"))


def _legacy_note(file: str, problem: str) -> str:
    return f"the old save games/{file} is damaged: {problem}; it was not imported (the file is kept)"


def _import_file(db: sqlite3.Connection, path: Path) -> str:
    """Insert one old ``bummerl-game/1`` JSON save; raises with the reason it cannot be imported."""
    if not path.is_file():  # a named pipe would block the import (and the write lock) for ever
        raise StoreError("not a regular file")
    with path.open("rb") as fh:
        raw = fh.read(_LEGACY_MAX_BYTES + 1)
    if len(raw) > _LEGACY_MAX_BYTES:
        raise StoreError("the file is too large to be a saved game")
    data = jsonio.loads(raw)
    if not isinstance(data, dict) or data.get("format") != "bummerl-game/1":
        raise StoreError("not a saved bummerl game")
    game_id = data.get("id")
    if not isinstance(game_id, str) or not _ID.fullmatch(game_id):
        raise StoreError(f"bad game id {str(game_id)[:80]!r}")
    level = check_kind(data.get("level"))
    if level == "human":
        raise StoreError("an old save always played against the computer")
    cards = data.get("cards", "french")
    if cards not in CARD_STYLES:
        raise StoreError(f"unknown card faces {str(cards)[:80]!r}")
    seed = data.get("seed")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
        raise StoreError(f"bad seed {str(seed)[:80]!r}")
    if data.get("human_seat", 0) != 0:
        raise StoreError("the person must play seat 0")
    record = GameRecord.from_json(data.get("record"))
    game = record.replay()
    full = GameRecord.from_game(game)
    times = []
    for key in ("created", "updated"):
        try:
            stamp = datetime.fromisoformat(str(data.get(key)))
        except ValueError:
            stamp = datetime.fromtimestamp(path.stat().st_mtime, UTC)
        if stamp.tzinfo is None:
            stamp = stamp.replace(tzinfo=UTC)
        times.append(stamp.astimezone(UTC).isoformat(timespec="microseconds"))
    if db.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone():
        raise StoreError(f"a game with the id {game_id} is already stored")
    state = "finished" if game.is_over else "playing"
    db.execute("INSERT INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
               (game_id, times[0], times[1], json.dumps(record.rules.to_json()), level, cards, seed,
                record.first_dealer, record.target, state, game.score[0], game.score[1]))
    for index, deal in enumerate(full.deals):
        db.execute("INSERT INTO deals VALUES (?, ?, ?, ?)",
                   (game_id, index, deal.dealer, " ".join(str(c) for c in deal.deck)))
        db.executemany("INSERT INTO actions VALUES (?, ?, ?, ?)",
                       [(game_id, index, seq, a) for seq, a in enumerate(deal.actions)])
    return game_id


def _given_decks(rules: Rules, text: object) -> tuple[tuple[int, ...], ...]:
    """The given decks as stored (a JSON list of deck strings), each checked to be a whole deck."""
    decks = jsonio.loads(text) if isinstance(text, str) else None
    if not isinstance(decks, list) or not all(isinstance(d, str) for d in decks):
        raise StoreError("its given decks are malformed")
    out = []
    for n, deck in enumerate(decks, start=1):
        try:
            cards = tuple(int(c) for c in parse_cards(deck))
            Deal(rules, cards, 0)  # the engine checks the pack
        except BummerlError as err:
            raise StoreError(f"given deck {n}: {err}") from None
        out.append(cards)
    return tuple(out)


def _build(row: sqlite3.Row | tuple[Any, ...], deals: list[Any], actions: list[Any]) -> StoredGame:
    """A stored game from its rows, every field checked and the record replayed (raises on damage)."""
    game_id, created, updated, rules_text, level, cards, seed, first_dealer, target, state, s0, s1 = row
    if not isinstance(game_id, str) or not _ID.fullmatch(game_id):
        raise StoreError("its id is not a game id")
    level = check_kind(level)
    if cards not in CARD_STYLES:
        raise StoreError(f"unknown card faces {str(cards)[:80]!r}")
    if state not in STATES:
        raise StoreError(f"unknown state {str(state)[:80]!r}")
    for name, value in (("seed", seed), ("first dealer", first_dealer), ("target", target)):
        if not isinstance(value, int):
            raise StoreError(f"the {name} is not a number")
    if first_dealer not in (0, 1) or not 1 <= target <= 1000:
        raise StoreError("bad first dealer or target")
    try:
        rules = Rules.from_json(jsonio.loads(rules_text))
    except (RulesError, ValueError, TypeError) as err:  # jsonio's InputError is a ValueError
        raise StoreError(f"bad rules: {str(err)[:80]}") from None
    moves: dict[int, list[str]] = {}
    for index, seq, action in actions:
        got = moves.setdefault(index, [])
        if seq != len(got) or not isinstance(action, str):
            raise StoreError(f"the actions of deal {index + 1} are out of order")
        got.append(action)
    records = []
    for n, (index, dealer, deck) in enumerate(deals):
        if index != n or dealer not in (0, 1) or not isinstance(deck, str):
            raise StoreError(f"deal {n + 1} is missing or malformed")
        try:
            cards_of_deck = tuple(Card.parse(c) for c in deck.split())
        except CardParseError as err:
            raise StoreError(f"deal {n + 1}: {err}") from None
        records.append(DealRecord(rules, dealer, cards_of_deck, tuple(moves.pop(index, []))))
    if moves:
        raise StoreError("actions of a deal that is not stored")
    if not records:
        raise StoreError("no deal is stored")
    try:
        game = GameRecord(rules, first_dealer, tuple(records), None, target).replay()
    except RecordError as err:
        raise StoreError(f"it does not replay: {err}") from None
    record = GameRecord.from_game(game)
    if game.is_over != (state == "finished"):
        over = "over" if game.is_over else "not over"
        raise StoreError(f"it is stored as {state} but the Bummerl is {over}")
    if (s0, s1) != game.score:
        raise StoreError(f"the stored score {[s0, s1]} differs from the replay's {list(game.score)}")
    try:
        when = (datetime.fromisoformat(created), datetime.fromisoformat(updated))
        for stamp in when:  # a time shown in local time must exist there (not 0001-01-01 at +05:00)
            stamp.astimezone(UTC).astimezone()
    except (TypeError, ValueError, OverflowError):
        raise StoreError("bad times") from None
    return StoredGame(
        id=game_id, created=when[0], updated=when[1], rules=rules, level=level, cards=cards, seed=seed,
        first_dealer=first_dealer, state=state, record=record, score=game.score,
        outcomes=tuple(s.outcome for s in game.finished), winner=game.winner,
    )
