"""Players without passwords, and the games between two of them, in the web's tables of the game store.

A player picks a name (unique per server, compared case- and width-insensitively) and gets a secret
player key, which the browser keeps; the server stores only the key's SHA-256, so a copy of the database
does not let anyone act as a player. A friend game records who sits where, its invitation code (the link
that gives the free seat to whoever opens it first), whether it is rated, and whether its rating is done.
The tables come from the web's append-only schema steps (:data:`~bummerl.server.web_store.WEB_MIGRATIONS`).

>>> import tempfile
>>> from pathlib import Path
>>> from bummerl.server.web_store import WebStore
>>> with WebStore(Path(tempfile.mkdtemp())) as web:
...     players = Players(web)
...     alice, key = players.register("Alice")
...     players.by_key(key) == alice, players.by_key("guess"), alice.rating.rating
(True, None, 1500.0)
"""

from __future__ import annotations

import hashlib
import math
import re
import secrets
import unicodedata
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from bummerl.errors import BummerlError, quote
from bummerl.ratings import Rating, update_pair
from bummerl.server.web_store import WebStore
from bummerl.store import State, StoreError

__all__ = ["MAX_NAME", "MAX_OPEN_INVITATIONS", "FriendGame", "NameTaken", "Player", "Players", "check_name",
           "hash_key"]

#: The longest player name (characters).
MAX_NAME = 20
_NAME = re.compile(r"^[^\W_](?:[^\W_]|[ .'-])*$")  # a letter or digit first; no underscore
#: Scripts that one name may mix (Japanese is written in three).
_ONE_SCRIPT = {"HIRAGANA": "CJK", "KATAKANA": "CJK", "CJK": "CJK"}
#: Names that would read as someone else in the game's texts.
_RESERVED = {"you", "computer", "friend", "spectator"}


class NameTaken(BummerlError):
    """The name is another player's."""


def check_name(name: object) -> str:
    """A valid player name (trimmed, NFC) or :class:`~bummerl.errors.BummerlError` saying why not.

    >>> check_name("  Anna-Lena ")
    'Anna-Lena'
    >>> check_name("<script>")
    Traceback (most recent call last):
    ...
    bummerl.errors.BummerlError: a name is letters, digits, spaces and . ' - (starting with a letter or digit)
    >>> check_name("Y\u043eu")  # a Cyrillic o among Latin letters
    Traceback (most recent call last):
    ...
    bummerl.errors.BummerlError: a name's letters are all of one alphabet
    """
    if not isinstance(name, str):
        raise BummerlError("the name must be a string")
    name = unicodedata.normalize("NFC", " ".join(name.split()))
    if not name:
        raise BummerlError("choose a name")
    if len(name) > MAX_NAME:
        raise BummerlError(f"a name is at most {MAX_NAME} characters")
    if not _NAME.match(name):
        raise BummerlError("a name is letters, digits, spaces and . ' - (starting with a letter or digit)")
    if len(_scripts(name)) > 1:  # "Yоu" with a Cyrillic о would read as someone else
        raise BummerlError("a name's letters are all of one alphabet")
    if _fold(name) in _RESERVED:
        raise BummerlError(f"the name {name!r} is reserved")
    return name


def _scripts(name: str) -> set[str]:
    """The alphabets of a name's letters (LATIN, CYRILLIC, GREEK, ...; Japanese counts as one)."""
    found = set()
    for ch in name:
        if ch.isalpha():
            script = unicodedata.name(ch, "?").split()[0]
            found.add(_ONE_SCRIPT.get(script, script))
    return found


def _fold(name: str) -> str:
    return unicodedata.normalize("NFKC", name).casefold()


def hash_key(key: str) -> str:
    """The stored form of a player key."""
    return hashlib.sha256(key.encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class Player:
    """A registered player (never holds the key)."""

    id: str
    name: str
    rating: Rating
    games: int

    def to_json(self) -> dict[str, Any]:
        """``{"name", "rating", "deviation", "games"}`` (the id stays on the server)."""
        return {"name": self.name, "rating": round(self.rating.rating),
                "deviation": round(self.rating.deviation), "games": self.games}


@dataclass(frozen=True, slots=True)
class FriendGame:
    """A game between two players: the seats' player ids (None: not taken yet) and its invitation."""

    game_id: str
    invite: str
    players: tuple[str | None, str | None]
    rated: bool
    rated_done: bool
    public: bool = False
    rematch: str | None = None
    #: What spectators see: ``public`` (the public view) or ``delayed`` (also every deal that is over).
    spectators: str = "public"
    #: A seat whose player has not opened the game yet (None: none): the host of a new invitation, or the
    #: player a rematch seated without asking.
    unopened: int | None = None

    def seat_of(self, player_id: str) -> int | None:
        """The seat this player holds, or None."""
        for seat, holder in enumerate(self.players):
            if holder == player_id:
                return seat
        return None


_PLAYER_COLUMNS = "id, name, rating, deviation, volatility, games"
_FRIEND_COLUMNS = ("game_id, invite, player0, player1, rated, rated_done, public, rematch, spectators, "
                   "unopened")
_FRIEND_COLUMNS_OF_F = ", ".join("f." + c for c in _FRIEND_COLUMNS.split(", "))  # (joined with games g)
#: The state of a stored game that is not over (bound as a parameter: the store names the states).
_PLAYING: State = "playing"
#: A friend game (``f``, joined with its stored game ``g``) whose host withdrew the invitation before anybody
#: took the seat: stored as no longer playing with its seat still free (one ``?``: :data:`_PLAYING`).
_WITHDRAWN = "(f.player1 IS NULL AND g.state != ?)"
#: Open invitations (nobody has taken the other seat yet) a player may have at once.
MAX_OPEN_INVITATIONS = 5


class Players:
    """The players and friend games of a :class:`~bummerl.server.web_store.WebStore`."""

    def __init__(self, web: WebStore) -> None:
        self.web = web

    def _query(self, sql: str, args: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        return self.web.query(sql, args)

    # ------------------------------------------------------------------ players

    def register(self, name: str) -> tuple[Player, str]:
        """A new player with a valid, free name: (the player, the secret key to give the browser)."""
        name = check_name(name)
        key = secrets.token_urlsafe(24)
        player_id = uuid.uuid4().hex
        now = datetime.now(UTC).isoformat(timespec="seconds")
        with self.web.transaction("the player") as db:
            if db.execute("SELECT 1 FROM web_players WHERE folded = ?", (_fold(name),)).fetchone():
                raise NameTaken(f"the name {name!r} is taken: choose another")
            db.execute("INSERT INTO web_players (id, name, folded, key_hash, created) VALUES (?, ?, ?, ?, ?)",
                       (player_id, name, _fold(name), hash_key(key), now))
        return Player(player_id, name, Rating(), 0), key

    def by_key(self, key: str) -> Player | None:
        """The player whose key this is, or None."""
        if not key or len(key) > 200:
            return None
        rows = self._query(f"SELECT {_PLAYER_COLUMNS} FROM web_players WHERE key_hash = ?", (hash_key(key),))
        return _player(rows[0]) if rows else None

    def by_name(self, name: str) -> Player | None:
        """The player with this name (any case), or None."""
        rows = self._query(f"SELECT {_PLAYER_COLUMNS} FROM web_players WHERE folded = ?", (_fold(name),))
        return _player(rows[0]) if rows else None

    def by_id(self, player_id: str) -> Player | None:
        """The player with this id, or None."""
        rows = self._query(f"SELECT {_PLAYER_COLUMNS} FROM web_players WHERE id = ?", (player_id,))
        return _player(rows[0]) if rows else None

    # ------------------------------------------------------------------ friend games

    def add_friend_game(self, game_id: str, host: Player, *, rated: bool, public: bool = False,
                        spectators: str = "public") -> FriendGame:
        """Record a new friend game with the host at seat 0 and seat 1 free (its invitation made now);
        ``spectators`` is the host's choice of what spectators see (``public`` or ``delayed``). The host's
        seat counts as not opened until the host opens the game: nobody may claim the Bummerl from a host
        who made the invitation and never saw the game (a browser play-test lost one so, rated)."""
        invite = secrets.token_urlsafe(12)
        self.web.write("INSERT INTO web_friend_games (game_id, invite, player0, rated, public, spectators, "
                       "unopened) VALUES (?, ?, ?, ?, ?, ?, 0)",
                       (game_id, invite, host.id, int(rated), int(public), spectators),
                       f"the invitation of game {game_id}")
        return FriendGame(game_id, invite, (host.id, None), rated, False, public, None, spectators, 0)

    def open_invitations(self, host: Player | None = None) -> list[FriendGame]:
        """Invitations nobody has taken yet, the newest first: the host's (all), or else the public ones
        (the lobby)."""
        where = "f.player0 = ?" if host is not None else "f.public = 1"
        rows = self._query(f"SELECT {_FRIEND_COLUMNS_OF_F} "
                           "FROM web_friend_games f JOIN games g ON g.id = f.game_id "
                           f"WHERE f.player1 IS NULL AND g.state = ? AND {where} "
                           "ORDER BY g.created DESC LIMIT 100",
                           (_PLAYING, *((host.id,) if host is not None else ())))
        return [_friend(r) for r in rows]

    def withdrawn(self, game_id: str) -> bool:
        """True when this friend game's invitation was taken back by its host before anybody took the seat
        (:meth:`~bummerl.server.online.Online.withdraw`: stored as abandoned with its seat still free)."""
        return bool(self._query("SELECT 1 FROM web_friend_games f JOIN games g ON g.id = f.game_id "
                                f"WHERE f.game_id = ? AND {_WITHDRAWN}",
                                (game_id, _PLAYING)))

    def is_rematch(self, game_id: str) -> bool:
        """True when this friend game is the rematch of another (made by one player, seating both)."""
        return bool(self._query("SELECT 1 FROM web_friend_games WHERE rematch = ? LIMIT 1", (game_id,)))

    def friend_game(self, *, invite: str = "", game_id: str = "") -> FriendGame | None:
        """The friend game of an invitation code or a game id, or None."""
        column, value = ("invite", invite) if invite else ("game_id", game_id)
        rows = self._query(f"SELECT {_FRIEND_COLUMNS} FROM web_friend_games WHERE {column} = ?", (value,))
        return _friend(rows[0]) if rows else None

    def take_seat(self, game_id: str, player: Player) -> int | None:
        """Give the free seat to ``player`` (the first to ask gets it); their seat, or None for a watcher."""
        self.web.write("UPDATE web_friend_games SET player1 = ? WHERE game_id = ? AND player1 IS NULL "
                       "AND player0 != ?", (player.id, game_id, player.id), f"the seat of game {game_id}")
        game = self.friend_game(game_id=game_id)
        return None if game is None else game.seat_of(player.id)

    def set_rematch(self, game_id: str, rematch_id: str) -> None:
        """Record the rematch of a game."""
        self.web.write("UPDATE web_friend_games SET rematch = ? WHERE game_id = ?", (rematch_id, game_id),
                       f"the rematch of game {game_id}")

    def set_unopened(self, game_id: str, seat: int | None) -> None:
        """Record the seat whose player has not opened the game yet (a rematch's), or None once they have."""
        self.web.write("UPDATE web_friend_games SET unopened = ? WHERE game_id = ?", (seat, game_id),
                       f"the seats of game {game_id}")

    def games_of(self, player: Player) -> list[FriendGame]:
        """The player's friend games, the newest first (not the invitations they withdrew)."""
        rows = self._query(f"SELECT {_FRIEND_COLUMNS_OF_F} "
                           "FROM web_friend_games f JOIN games g ON g.id = f.game_id "
                           "WHERE (f.player0 = ? OR f.player1 = ?) "
                           f"AND NOT {_WITHDRAWN} ORDER BY g.updated DESC",
                           (player.id, player.id, _PLAYING))
        return [_friend(r) for r in rows]

    # ------------------------------------------------------------------ games against the computer

    def add_computer_game(self, game_id: str, player: Player) -> None:
        """Record that ``player`` started this game against the computer (their page lists it)."""
        self.web.write("INSERT OR IGNORE INTO web_computer_games (game_id, player) VALUES (?, ?)",
                       (game_id, player.id), f"the player of game {game_id}")

    def computer_games_of(self, player: Player) -> list[str]:
        """The ids of the games against the computer that ``player`` started, the newest first."""
        rows = self._query("SELECT c.game_id FROM web_computer_games c JOIN games g ON g.id = c.game_id "
                           "WHERE c.player = ? ORDER BY g.updated DESC", (player.id,))
        return [str(r[0]) for r in rows]

    def listed_games(self, player: Player, *, over: bool, most: int) -> list[str]:
        """The ids of the player's games on their page, the most recently played first, at most ``most``:
        with a friend (both seats taken) and against the computer (started by them), those that are over
        (``over``: finished, abandoned, or won away from the table) or not. Chosen here, before any game
        is read: a player with thousands of games had every one of them replayed for each look at the
        page, to show 50."""
        ended = "(g.state != ? OR EXISTS (SELECT 1 FROM web_game_ends e WHERE e.game_id = g.id))"
        rows = self._query(
            "SELECT g.id FROM games g WHERE (g.id IN (SELECT game_id FROM web_friend_games "
            "WHERE (player0 = ? AND player1 IS NOT NULL) OR (player1 = ? AND player0 IS NOT NULL)) "
            "OR g.id IN (SELECT game_id FROM web_computer_games WHERE player = ?)) "
            f"AND {ended if over else 'NOT ' + ended} ORDER BY g.updated DESC, g.rowid DESC LIMIT ?",
            (player.id, player.id, player.id, _PLAYING, most))
        return [str(r[0]) for r in rows]

    def owner_of(self, game_id: str) -> str | None:
        """The id of the player who started this game against the computer, or None."""
        rows = self._query("SELECT player FROM web_computer_games WHERE game_id = ?", (game_id,))
        return str(rows[0][0]) if rows else None

    def rate(self, game_id: str, winner: int) -> bool:
        """Update both players' ratings for a finished rated game won by seat ``winner``, once: True when
        this call rated it (False: not rated, not both seats taken, or rated before). A store that cannot
        be written raises :class:`StoreError` and rates nothing (a later call rates it)."""
        with self.web.transaction(f"the ratings of game {game_id} now") as db:
            row = db.execute("SELECT player0, player1 FROM web_friend_games WHERE game_id = ? AND rated = 1 "
                             "AND rated_done = 0 AND player1 IS NOT NULL", (game_id,)).fetchone()
            if row is None:
                return False
            select = f"SELECT {_PLAYER_COLUMNS} FROM web_players WHERE id = ?"
            found = [db.execute(select, (pid,)).fetchone() for pid in row]
            first, second = (_player(r) for r in found)
            new = update_pair(first.rating, second.rating, 1.0 if winner == 0 else 0.0)
            for player, rating in zip((first, second), new, strict=True):
                db.execute("UPDATE web_players SET rating = ?, deviation = ?, volatility = ?, "
                           "games = games + 1 WHERE id = ?",
                           (rating.rating, rating.deviation, rating.volatility, player.id))
            db.execute("UPDATE web_friend_games SET rated_done = 1 WHERE game_id = ?", (game_id,))
        return True

    def games_in_progress(self, player_id: str) -> int:
        """The friend games that are not over in which ``player_id`` holds a seat."""
        rows = self._query("SELECT COUNT(*) FROM web_friend_games f JOIN games g ON g.id = f.game_id "
                           "WHERE (f.player0 = ? OR f.player1 = ?) AND g.state = ?",
                           (player_id, player_id, _PLAYING))
        return int(rows[0][0])


def _player(row: tuple[Any, ...]) -> Player:
    """A player from its row, every field checked (raises :class:`StoreError` naming a damaged row: nothing
    read from the store is trusted).

    >>> _player(("p1", "Ann", 1500.0, 350.0, 0.06, 0)).name
    'Ann'
    >>> _player(("p1", "Ann", "abc", 350.0, 0.06, 0))
    Traceback (most recent call last):
    bummerl.store.StoreError: the player record 'p1' is damaged
    """
    player_id, name, rating, deviation, volatility, games = row
    numbers = (rating, deviation, volatility)
    if not (isinstance(player_id, str) and isinstance(name, str) and 0 < len(name) <= 200
            and all(isinstance(x, int | float) and math.isfinite(x) for x in numbers)
            and isinstance(games, int) and games >= 0):
        raise StoreError(f"the player record {quote(player_id)} is damaged")
    return Player(player_id, name, Rating(float(rating), float(deviation), float(volatility)), games)


def _friend(row: tuple[Any, ...]) -> FriendGame:
    return FriendGame(str(row[0]), str(row[1]), (row[2], row[3]), bool(row[4]), bool(row[5]), bool(row[6]),
                      row[7], str(row[8]), row[9] if row[9] in (0, 1) else None)
