"""Helpers for the game store's tests: old JSON saves as bummerl 0.1 wrote them, a store as the release
before the given decks left it."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from bummerl.records import GameRecord
from bummerl.rules import Rules
from bummerl.store import DB_NAME

__all__ = ["first_schema", "legacy"]


def legacy(home: Path, name: str, **fields: object) -> Path:
    """Write an old ``bummerl-game/1`` save (a short real game unless ``record`` is given)."""
    from bummerl.game import Bummerl

    game = Bummerl(Rules.preset("standard"), seed=9, first_dealer=1)
    for _ in range(5):
        game.apply(game.deal.legal_actions()[0])
    body: dict[str, object] = {
        "format": "bummerl-game/1", "id": name, "level": "hard", "seed": 9,
        "record": GameRecord.from_game(game).to_json(),
        "human_seat": 0, "cards": "german", "created": "2025-01-02T03:04:05+00:00",
        "updated": "2025-01-02T03:05:00+00:00", "results": [], "score": [7, 7], "finished": False,
        "winner": None,
    }
    body.update(fields)
    path = home / "games" / f"{name}.json"
    path.parent.mkdir(exist_ok=True)
    path.write_text(json.dumps(body))
    return path


def first_schema(home: Path) -> None:
    """Take the store in ``home`` (no game open) back to schema version 1, as the release before the given
    decks left it: no table ``given_decks``, and no log beside ``games.db``."""
    db = sqlite3.connect(home / DB_NAME, isolation_level=None)
    db.execute("DROP TABLE given_decks")
    db.execute("PRAGMA user_version = 1")
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()  # the last connection: the log is written into games.db and removed
