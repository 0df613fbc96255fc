"""Helpers for the game store's tests: old JSON saves as bummerl 0.1 wrote them."""

from __future__ import annotations

import json
from pathlib import Path

from bummerl.records import GameRecord
from bummerl.rules import Rules

__all__ = ["legacy"]


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
