"""Games saved in the user's data directory: one JSON file per game, rewritten after every action.

The directory is ``$BUMMERL_HOME`` when set (tests use a temporary one), else the platform's user data
directory for ``bummerl`` (via platformdirs), with a ``games/`` folder inside. A saved game holds its
settings (level, seed, card faces) and the game record (:class:`bummerl.records.GameRecord` JSON: rules,
first dealer, every deal's deck and actions, scores), so it can be replayed exactly and resumed.

>>> import tempfile
>>> home = Path(tempfile.mkdtemp())
>>> game = SavedGame.new(record={"rules": "standard", "first_dealer": 1, "deals": []}, level="medium", seed=5)
>>> path = save(game, home)
>>> load(game.id, home).record["first_dealer"], latest_unfinished(home).id == game.id
(1, True)
"""

from __future__ import annotations

import json
import os
import secrets
import tempfile
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bummerl.errors import BummerlError

__all__ = [
    "FORMAT",
    "LevelStats",
    "SavedGame",
    "StorageError",
    "all_games",
    "data_dir",
    "games_dir",
    "latest_unfinished",
    "load",
    "save",
    "stats",
]

#: The format tag written into every saved game.
FORMAT = "bummerl-game/1"


class StorageError(BummerlError):
    """A saved game that cannot be found or read."""


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


def games_dir(home: Path | None = None) -> Path:
    """The folder of saved games under ``home`` (default :func:`data_dir`), created on first save."""
    return (data_dir() if home is None else home) / "games"


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


@dataclass
class SavedGame:
    """One Bummerl against the computer as it is stored.

    ``record`` is the game record (JSON of :class:`bummerl.records.GameRecord`);
    ``results`` the outcome of each finished deal (``{"winner", "game_points", "reason"}``);
    ``score`` the game points each seat still needs; the human plays ``human_seat``.
    """

    id: str
    level: str
    seed: int
    record: dict[str, Any]
    human_seat: int = 0
    cards: str = "french"
    created: str = field(default_factory=_now)
    updated: str = field(default_factory=_now)
    results: list[dict[str, Any]] = field(default_factory=list)
    score: list[int] = field(default_factory=lambda: [7, 7])
    finished: bool = False
    winner: int | None = None

    @staticmethod
    def new(*, record: dict[str, Any], level: str, seed: int, human_seat: int = 0,
            cards: str = "french") -> SavedGame:
        """A fresh game with a new id (time-ordered, so ids sort by start)."""
        stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
        game_id = f"{stamp}-{secrets.token_hex(3)}"
        return SavedGame(game_id, level, seed, record, human_seat, cards)

    def to_json(self) -> dict[str, Any]:
        """The stored JSON object."""
        return {"format": FORMAT, **asdict(self)}

    @staticmethod
    def from_json(data: Any) -> SavedGame:
        """Read a stored JSON object; raises :class:`StorageError` when it is not a saved game."""
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise StorageError("not a saved bummerl game")
        body = {k: v for k, v in data.items() if k != "format"}
        try:
            return SavedGame(**body)
        except TypeError as err:
            raise StorageError(f"a saved game with unexpected fields: {err}") from None

    @property
    def human_won(self) -> bool | None:
        """Whether the human won the Bummerl (None while it is unfinished)."""
        return None if not self.finished else self.winner == self.human_seat


def _path(game_id: str, home: Path | None) -> Path:
    if not game_id or "/" in game_id or "\\" in game_id or game_id.startswith("."):
        raise StorageError(f"bad game id {game_id!r}")
    return games_dir(home) / f"{game_id}.json"


def save(game: SavedGame, home: Path | None = None) -> Path:
    """Write a game (atomically: a crash never leaves half a file) and return its path."""
    game.updated = _now()
    path = _path(game.id, home)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".json")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(game.to_json(), fh, ensure_ascii=False, separators=(",", ":"))
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


def load(game_id: str, home: Path | None = None) -> SavedGame:
    """The saved game with this id; raises :class:`StorageError` if there is none or it is unreadable."""
    path = _path(game_id, home)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise StorageError(f"no saved game {game_id!r} in {games_dir(home)}") from None
    except (OSError, json.JSONDecodeError) as err:
        raise StorageError(f"cannot read saved game {path}: {err}") from None
    return SavedGame.from_json(data)


def all_games(home: Path | None = None) -> Iterator[SavedGame]:
    """Every readable saved game, oldest first (unreadable files are skipped)."""
    folder = games_dir(home)
    if not folder.is_dir():
        return
    for path in sorted(folder.glob("*.json")):
        try:
            yield SavedGame.from_json(json.loads(path.read_text(encoding="utf-8")))
        except (OSError, json.JSONDecodeError, StorageError):
            continue


def latest_unfinished(home: Path | None = None) -> SavedGame | None:
    """The most recently updated game that is not finished, if any."""
    games = [g for g in all_games(home) if not g.finished]
    return max(games, key=lambda g: (g.updated, g.id)) if games else None


@dataclass
class LevelStats:
    """What the human won against one computer level."""

    level: str
    deals: int = 0
    deals_won: int = 0
    bummerls: int = 0
    bummerls_won: int = 0
    unfinished: int = 0
    game_points_won: int = 0
    game_points_lost: int = 0


def stats(home: Path | None = None) -> dict[str, LevelStats]:
    """Totals per level over every saved game: deals, Bummerls and game points.

    >>> home = Path(tempfile.mkdtemp())
    >>> g = SavedGame.new(record={}, level="easy", seed=1)
    >>> g.results = [{"winner": 0, "game_points": 3, "reason": "claim"}]
    >>> _ = save(g, home)
    >>> s = stats(home)["easy"]; (s.deals, s.deals_won, s.game_points_won, s.unfinished)
    (1, 1, 3, 1)
    """
    out: dict[str, LevelStats] = {}
    for game in all_games(home):
        s = out.setdefault(game.level, LevelStats(game.level))
        for result in game.results:
            s.deals += 1
            if result.get("winner") == game.human_seat:
                s.deals_won += 1
                s.game_points_won += int(result.get("game_points", 0))
            elif result.get("winner") is not None:
                s.game_points_lost += int(result.get("game_points", 0))
        if game.finished:
            s.bummerls += 1
            s.bummerls_won += game.winner == game.human_seat
        else:
            s.unfinished += 1
    return out
