"""The server's side of the game store: web games (a :class:`~bummerl.session.PlaySession` each, every
action committed before it is shown) and the seat tokens of the web.

Games live in the one SQLite :class:`~bummerl.store.GameStore` the terminal game uses, so a game started
in one front end continues in the other. The web adds one table of its own, ``web_seats`` (a token per
human seat of a game), created by the web's own numbered migration steps (:data:`WEB_MIGRATIONS`, append-
only like the store's); the number applied is kept in the store's settings under ``web.schema``.

A seat token opens its seat, so the table keeps it sealed: XORed with a pad made from a key that lives in
a file of its own next to the database (``web-secret``, readable by its owner alone), with a check. A copy
of the database alone (a backup) opens no seat; without the key a sealed token is lost, and the seat gets a
new one when its player opens the game again (:meth:`WebStore.token_for`).

>>> import tempfile
>>> from bummerl.rules import Rules
>>> with WebStore(Path(tempfile.mkdtemp())) as web:
...     session = web.create(Rules.preset("standard"), level="easy", seed=1, cards="french",
...                          first_dealer=None, decks=())
...     token = web.token_for(session.id, 0)
...     stored = web.query("SELECT token FROM web_seats")[0][0]
...     web.tokens(session.id) == {0: token}, token in stored, web.seat_for(session.id, token)
(True, False, 0)
"""

from __future__ import annotations

import base64
import contextlib
import hmac
import os
import re
import secrets
import sqlite3
import threading
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from bummerl.rules import Rules
from bummerl.session import PlaySession
from bummerl.store import GameDamaged, GameStore, StoredGame, StoreError, Tally, shown_id
from bummerl.table import CardStyle

__all__ = ["LEASE_OWNER", "WEB_MIGRATIONS", "WebStore"]

#: A seat token as this server makes them (``secrets.token_urlsafe``), as older servers kept them too.
_TOKEN = re.compile(r"[A-Za-z0-9_-]{16,128}")
#: A sealed token in the table: ``s1.`` nonce, sealed token and check, each in URL-safe base64.
_SEALED = re.compile(r"s1\.([A-Za-z0-9_-]{16})\.([A-Za-z0-9_-]{22,172})\.([A-Za-z0-9_-]{22})")
#: The file of the key that seals the seat tokens, next to the database.
SECRET_NAME = "web-secret"

#: The lease owner name of games the web server is playing.
LEASE_OWNER = "web"
#: The web's schema steps, numbered from 1 (the store's setting ``web.schema`` counts those applied).
#: Append-only: a later feature (players, ratings) appends a step, never edits one.
WEB_MIGRATIONS: list[tuple[str, ...]] = [
    (  # 1: one unguessable token per human seat of a game (the WebSocket of that seat opens with it)
        """CREATE TABLE IF NOT EXISTS web_seats (
            game_id TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            seat INTEGER NOT NULL CHECK (seat IN (0, 1)),
            token TEXT NOT NULL,
            PRIMARY KEY (game_id, seat)
        )""",
    ),
    (  # 2: players without passwords (a name and the SHA-256 of a secret key; Glicko-2 rating) and the
       # games between two of them (server/players.py)
        """CREATE TABLE IF NOT EXISTS web_players (
            id TEXT PRIMARY KEY,
            name TEXT NOT NULL,
            folded TEXT NOT NULL UNIQUE,
            key_hash TEXT NOT NULL UNIQUE,
            rating REAL NOT NULL DEFAULT 1500,
            deviation REAL NOT NULL DEFAULT 350,
            volatility REAL NOT NULL DEFAULT 0.06,
            games INTEGER NOT NULL DEFAULT 0,
            created TEXT NOT NULL
        )""",
        """CREATE TABLE IF NOT EXISTS web_friend_games (
            game_id TEXT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
            invite TEXT NOT NULL UNIQUE,
            player0 TEXT REFERENCES web_players (id),
            player1 TEXT REFERENCES web_players (id),
            rated INTEGER NOT NULL DEFAULT 0,
            rated_done INTEGER NOT NULL DEFAULT 0
        )""",
    ),
    (  # 3: an invitation may be public (listed in the lobby until somebody takes the seat)
        "ALTER TABLE web_friend_games ADD COLUMN public INTEGER NOT NULL DEFAULT 0",
    ),
    (  # 4: the rematch of a friend game (the same two players, seats swapped)
        "ALTER TABLE web_friend_games ADD COLUMN rematch TEXT",
    ),
    (  # 5: what spectators of a friend game see (public view only, or also the deals that are over), and
       # the player who started a game against the computer (their player page lists it)
        "ALTER TABLE web_friend_games ADD COLUMN spectators TEXT NOT NULL DEFAULT 'public'",
        """CREATE TABLE IF NOT EXISTS web_computer_games (
            game_id TEXT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
            player TEXT NOT NULL REFERENCES web_players (id)
        )""",
        "CREATE INDEX IF NOT EXISTS web_computer_games_player ON web_computer_games (player)",
    ),
    (  # 6: the clocks of a friend game (chosen at invitation: seconds left per seat, whose clock runs and
       # since when) and how a friend game ended when nobody won it at the table: the present player
       # claimed it from an absent one ('abandoned') or a clock ran out ('time') (server/presence.py)
        """CREATE TABLE IF NOT EXISTS web_clocks (
            game_id TEXT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
            initial REAL NOT NULL,
            increment REAL NOT NULL,
            left0 REAL NOT NULL,
            left1 REAL NOT NULL,
            running INTEGER CHECK (running IN (0, 1)),
            since REAL NOT NULL DEFAULT 0
        )""",
        """CREATE TABLE IF NOT EXISTS web_game_ends (
            game_id TEXT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
            winner INTEGER NOT NULL CHECK (winner IN (0, 1)),
            reason TEXT NOT NULL CHECK (reason IN ('abandoned', 'time')),
            at REAL NOT NULL
        )""",
    ),
    (  # 7: the seat a rematch gave a player who has not opened the game yet (NULL: none): nobody may claim
       # the Bummerl from a player who never came to the table
        "ALTER TABLE web_friend_games ADD COLUMN unopened INTEGER CHECK (unopened IN (0, 1))",
    ),
    (  # 8: a player may resign the Bummerl ('resigned'); SQLite cannot change a CHECK, so the table of ends
       # is made again with the wider one and its rows copied over
        """CREATE TABLE web_game_ends_8 (
            game_id TEXT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
            winner INTEGER NOT NULL CHECK (winner IN (0, 1)),
            reason TEXT NOT NULL CHECK (reason IN ('abandoned', 'time', 'resigned')),
            at REAL NOT NULL
        )""",
        # (an end whose game is gone, left by a hand edit, would fail the foreign key: it means nothing)
        "INSERT INTO web_game_ends_8 SELECT game_id, winner, reason, at FROM web_game_ends "
        "WHERE game_id IN (SELECT id FROM games)",
        "DROP TABLE web_game_ends",
        "ALTER TABLE web_game_ends_8 RENAME TO web_game_ends",
    ),
    (  # 9: indexes for the lookups made on every friend game brought to life and every look at a player's
       # games (whose rematch is this; which games are this player's): they read the whole table before
        "CREATE INDEX IF NOT EXISTS web_friend_games_rematch ON web_friend_games (rematch)",
        "CREATE INDEX IF NOT EXISTS web_friend_games_player0 ON web_friend_games (player0)",
        "CREATE INDEX IF NOT EXISTS web_friend_games_player1 ON web_friend_games (player1)",
    ),
]
_SCHEMA_KEY = "web.schema"


class WebStore:
    """The game store as the web server uses it (``home`` None: the user's data directory)."""

    def __init__(self, home: Path | None = None) -> None:
        self.store = GameStore.open(home)
        self._db = sqlite3.connect(self.store.path, timeout=15, isolation_level=None, check_same_thread=False)
        self._lock = threading.Lock()
        # Reads go through a connection of their own: in WAL mode a read never waits for a writer, so a write
        # that waits for the database's lock (another process holds it) holds up no read on the event loop.
        self._reader = sqlite3.connect(self.store.path, timeout=15, isolation_level=None,
                                       check_same_thread=False)
        self._read_lock = threading.Lock()
        self._leases: dict[str, contextlib.ExitStack] = {}
        try:
            self._key = _seal_key(self.store.path.parent / SECRET_NAME)
            self._db.execute("PRAGMA foreign_keys = ON")
            self._db.execute("PRAGMA secure_delete = ON")  # a replaced token leaves no trace in free pages
            self._reader.execute("PRAGMA query_only = ON")
            self._migrate()
            self._seal_plain_tokens()
            self.store.check_games()  # the pages list them: a damaged table is refused now, in one line
        except BaseException:
            self._db.close()
            self._reader.close()
            self.store.close()
            raise

    def _migrate(self) -> None:
        """Apply the web's migrations. Every start writes (the schema number, again when it is up to date),
        so a database this process cannot write is refused here in one line, not at the first move."""
        applied = self.store.settings().get(_SCHEMA_KEY, 0)
        if not isinstance(applied, int) or applied < 0:
            raise StoreError(f"the game database {self.store.path} is damaged: its web schema is "
                             f"{applied!r}, not a valid schema number (move it away to start afresh)")
        if applied > len(WEB_MIGRATIONS):
            raise StoreError(f"the game database {self.store.path} has web schema {applied}, newer than this "
                             f"bummerl knows ({len(WEB_MIGRATIONS)}): upgrade bummerl")
        with self._lock:
            try:
                for number in range(applied, len(WEB_MIGRATIONS)):
                    self._write_schema(WEB_MIGRATIONS[number], number + 1)
                if applied == len(WEB_MIGRATIONS):
                    self._write_schema((), applied)
            except sqlite3.Error as err:
                raise self.store.store_error(err) from None

    def _write_schema(self, statements: Sequence[str], number: int) -> None:
        """Run ``statements`` and record web schema ``number``, in one transaction (hold the lock)."""
        with self._begin() as db:
            for statement in statements:
                db.execute(statement)
            db.execute("INSERT OR REPLACE INTO settings VALUES (?, ?)", (_SCHEMA_KEY, str(number)))

    @contextlib.contextmanager
    def _begin(self) -> Iterator[sqlite3.Connection]:
        """One transaction on the web's connection (the caller holds the lock): committed at the end of the
        block, rolled back if anything in it (or the commit) fails."""
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield self._db
            self._db.execute("COMMIT")
        except BaseException:
            with contextlib.suppress(sqlite3.Error):
                self._db.execute("ROLLBACK")
            raise

    @contextlib.contextmanager
    def transaction(self, what: str) -> Iterator[sqlite3.Connection]:
        """A block of writes to the web's tables that all happen or none (``BEGIN IMMEDIATE``: its reads see
        no other writer meanwhile), on the connection it gives. An SQLite error in it is one
        :class:`~bummerl.store.StoreError`, ``cannot save {what}: ...``; any other error rolls it back and
        goes on as it is.

        >>> import tempfile
        >>> with WebStore(Path(tempfile.mkdtemp())) as web, web.transaction("a note") as db:
        ...     db.execute("INSERT INTO nowhere VALUES (1)")
        Traceback (most recent call last):
        ...
        bummerl.store.StoreError: cannot save a note: no such table: nowhere
        """
        with self._lock:
            try:
                with self._begin() as db:
                    yield db
            except sqlite3.Error as err:
                raise StoreError(f"cannot save {what}: {err}") from None

    def write(self, sql: str, args: tuple[Any, ...] = (), what: str = "the web's tables") -> int:
        """Run one write to the web's tables (committed at once): the rows it changed. An SQLite error is one
        :class:`~bummerl.store.StoreError`, ``cannot save {what}: ...``.

        >>> import tempfile
        >>> with WebStore(Path(tempfile.mkdtemp())) as web:
        ...     web.write("INSERT INTO web_seats VALUES ('nosuch', 0, 'x')", what="the seat token")
        Traceback (most recent call last):
        ...
        bummerl.store.StoreError: cannot save the seat token: FOREIGN KEY constraint failed
        """
        with self._lock:
            try:
                return self._db.execute(sql, args).rowcount
            except sqlite3.Error as err:
                raise StoreError(f"cannot save {what}: {err}") from None

    def query(self, sql: str, args: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        """The rows of a read of the web's tables, on the read connection (never behind a waiting write:
        the event loop reads with it)."""
        with self._read_lock:
            return list(self._reader.execute(sql, args).fetchall())

    def close(self) -> None:
        """Release the leases and close the database."""
        for game_id in list(self._leases):
            self.release(game_id)
        self._db.close()
        self._reader.close()
        self.store.close()

    def __enter__(self) -> WebStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------ games

    def create(self, rules: Rules, *, level: str, seed: int, cards: CardStyle, first_dealer: int | None,
               decks: Sequence[Sequence[int]]) -> PlaySession:
        """Start and store a new game of you (seat 0) against the computer at ``level``."""
        return PlaySession.new(rules, level=level, seed=seed, first_dealer=first_dealer, cards=cards,
                               decks=decks, store=self.store)

    def resume(self, game_id: str) -> PlaySession:
        """A stored game, replayed to where it stopped (:class:`~bummerl.store.StoreError` if it cannot)."""
        return PlaySession.resume(game_id, self.store)

    def load(self, game_id: str) -> StoredGame:
        """A stored game, as the store has it (:class:`~bummerl.store.GameNotFound`,
        :class:`~bummerl.store.GameDamaged`)."""
        return self.store.load(game_id)

    def lease(self, game_id: str) -> None:
        """Hold the game for the web server (:class:`~bummerl.store.GameBusy` when the terminal has it)."""
        if game_id in self._leases:
            return
        stack = contextlib.ExitStack()
        stack.enter_context(self.store.lease(game_id, LEASE_OWNER))
        self._leases[game_id] = stack

    def release(self, game_id: str) -> None:
        """Let the game go (e.g. to the terminal) once nobody plays it here."""
        stack = self._leases.pop(game_id, None)
        if stack is not None:
            with contextlib.suppress(StoreError, sqlite3.Error):
                stack.close()

    def games(self) -> list[dict[str, Any]]:
        """Every readable stored game, the most recently played first (summaries)."""
        return [g.summary() for g in self.store.games() if not isinstance(g, GameDamaged)]

    def finished_record(self, game_id: str) -> dict[str, Any]:
        """The game record (rules.md section 9) of a finished game; :class:`~bummerl.store.StoreError`
        if there is no such game or it is not over."""
        game = self.store.load(game_id)
        if not game.finished:
            raise StoreError("the game is not over yet: its record is given once it is")
        return game.record.to_json()

    def stats(self) -> list[dict[str, Any]]:
        """Your totals against the computer per level and per rules preset."""
        stats = self.store.stats()

        def row(by: str, name: str, t: Tally) -> dict[str, Any]:
            return {"by": by, "name": name, "bummerls": t.bummerls, "bummerls_won": t.bummerls_won,
                    "deals": t.deals, "deals_won": t.deals_won, "playing": t.playing,
                    "game_points_won": t.game_points_won, "game_points_lost": t.game_points_lost}

        return ([row("level", k, v) for k, v in stats.by_level.items()]
                + [row("rules", k, v) for k, v in stats.by_rules.items()])

    # ------------------------------------------------------------------ seat tokens

    def tokens(self, game_id: str) -> dict[int, str]:
        """The seat tokens of a game, opened (:class:`~bummerl.store.StoreError` for a damaged row: a seat
        that is not 0 or 1, a token that is neither sealed nor one this server made, e.g. a NULL read as
        ``"None"``). A token sealed with another key (the key file was lost) is left out: that seat gets a
        new one from :meth:`token_for`."""
        rows = self.query("SELECT seat, token FROM web_seats WHERE game_id = ?", (game_id,))
        if not all(type(seat) is int and seat in (0, 1) and isinstance(token, str)
                   and (_TOKEN.fullmatch(token) or _SEALED.fullmatch(token)) for seat, token in rows):
            raise StoreError(f"the seats of game {shown_id(game_id)} are damaged")
        opened = {seat: self._open(game_id, seat, token) for seat, token in rows}
        return {seat: token for seat, token in opened.items() if token is not None}

    def set_token(self, game_id: str, seat: int, token: str) -> None:
        """Store a seat's token, sealed (replacing an older one)."""
        self.write("INSERT OR REPLACE INTO web_seats VALUES (?, ?, ?)",
                   (game_id, seat, self._seal(game_id, seat, token)), f"the seat token of game {game_id}")

    def token_for(self, game_id: str, seat: int) -> str:
        """The seat's token; one is made (and stored) if the seat has none or its own cannot be opened."""
        token = self.tokens(game_id).get(seat)
        if token is None:
            token = secrets.token_urlsafe(24)
            self.set_token(game_id, seat, token)
        return token

    def _pad(self, game_id: str, seat: int, nonce: bytes, size: int) -> bytes:
        blocks = (hmac.digest(self._key, b"pad|%d|%s|%d|" % (i, game_id.encode(), seat) + nonce, "sha256")
                  for i in range((size + 31) // 32))
        return b"".join(blocks)[:size]

    def _check(self, game_id: str, seat: int, nonce: bytes, sealed: bytes) -> bytes:
        head = b"check|%s|%d|" % (game_id.encode(), seat)
        return hmac.digest(self._key, head + nonce + sealed, "sha256")[:16]

    def _xor(self, game_id: str, seat: int, nonce: bytes, data: bytes) -> bytes:
        """``data`` XOR the pad of this seat and nonce: seals a token, and opens a sealed one."""
        return bytes(a ^ b for a, b in zip(data, self._pad(game_id, seat, nonce, len(data)), strict=True))

    def _seal(self, game_id: str, seat: int, token: str) -> str:
        nonce = secrets.token_bytes(12)
        sealed = self._xor(game_id, seat, nonce, token.encode())
        return "s1." + ".".join(_b64(x) for x in (nonce, sealed, self._check(game_id, seat, nonce, sealed)))

    def _open(self, game_id: str, seat: int, stored: str) -> str | None:
        """A stored token opened: as it is if it was kept unsealed (an older server), else unsealed if its
        check holds under this key (None: sealed with another key)."""
        if _TOKEN.fullmatch(stored):
            return stored
        match = _SEALED.fullmatch(stored)
        if match is None:
            return None
        try:
            nonce, sealed, check = (base64.urlsafe_b64decode(part + "=" * (-len(part) % 4)) for part in
                                    match.groups())
        except ValueError:
            return None
        if not hmac.compare_digest(check, self._check(game_id, seat, nonce, sealed)):
            return None
        token = self._xor(game_id, seat, nonce, sealed).decode("ascii", "replace")
        return token if _TOKEN.fullmatch(token) else None

    def _seal_plain_tokens(self) -> None:
        """Seal the tokens an older server kept as they are (once, at start)."""
        rows = self.query("SELECT game_id, seat, token FROM web_seats WHERE token NOT LIKE 's1.%'")
        for game_id, seat, token in rows:
            if isinstance(token, str) and _TOKEN.fullmatch(token) and seat in (0, 1):
                self.set_token(game_id, seat, token)

    def seat_for(self, game_id: str, token: str) -> int | None:
        """The seat ``token`` opens in the game, or None (compared in constant time). A token that is not
        text at all (a lone surrogate, which a JSON body may carry) opens nothing, like any wrong one."""
        try:
            given = token.encode()
        except UnicodeEncodeError:
            return None
        found = None
        for seat, expected in self.tokens(game_id).items():
            if secrets.compare_digest(given, expected.encode()):
                found = seat
        return found


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def _write_new(path: Path, key: str) -> None:
    """Write the key to a file that must not exist yet, readable by its owner alone, and sync it."""
    with os.fdopen(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "w", encoding="ascii") as out:
        out.write(key + "\n")
        out.flush()
        os.fsync(out.fileno())


def _seal_key(path: Path) -> bytes:
    """The key that seals the seat tokens, from its file, made when there is none: written whole to a file
    of its own (readable by its owner alone), then linked into place, so another process starting at the
    same moment reads either no file or the whole key. A file that holds no key is refused in one line."""
    for attempt in range(3):
        try:
            text = path.read_text(encoding="ascii", errors="replace").strip()
        except FileNotFoundError:
            key = secrets.token_hex(32)
            fresh = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
            try:
                _write_new(fresh, key)
                try:
                    os.link(fresh, path)
                except FileExistsError:
                    continue  # another process made it meanwhile: read theirs
                except OSError:  # a file system without hard links: made in place (a start at the same
                    _write_new(path, key)  # moment may read it empty: it looks again above)
                return bytes.fromhex(key)
            except OSError as err:
                raise StoreError(f"cannot make the web's key file {path}: {err.strerror}") from None
            finally:
                with contextlib.suppress(OSError):
                    fresh.unlink()
        except OSError as err:
            raise StoreError(f"cannot read the web's key file {path}: {err.strerror}") from None
        if re.fullmatch(r"[0-9a-f]{64}", text):
            return bytes.fromhex(text)
        if not text and attempt < 2:  # (an older bummerl's file being written): look again
            time.sleep(0.2)
            continue
        raise StoreError(f"the web's key file {path} is damaged: move it away (the links of games in "
                         "progress then stop working; each player gets a new one by opening the game again)")
    raise StoreError(f"cannot read the web's key file {path}")
