"""A player's page and the replays: the games a player plays and played, and each finished game step by step.

Routes (JSON errors as ``{"error": "one line"}``):

- ``GET /api/players/{name}/games``: the player's rating and games, ``playing`` and ``finished`` (the
  newest first, at most :data:`MAX_LISTED` each): games with friends (both seats taken) and games against
  the computer the player started while choosing a name on this server. A game is ``{"id", "kind"
  ("friend"/"computer"), "opponent", "seat", "rules", "rules_text", "score" (game points the player and
  the opponent still need), "result" ("won"/"lost"/None), "date", "rated"}``; a friend game adds
  ``"link"`` (``/friend/{invite}``: the players' own seats, everyone else watches) and ``"spectators"``,
  and ``"ended"`` (the sentence) when it was won away from the table (claimed from an absent player or on
  time: finished, with no record to replay); a finished game adds ``"replay"`` and ``"record"``.
  ``levels``: the computer levels' fixed ratings (None until they are measured).
- ``GET /api/games/{id}/replay``: the replay frames (``server/replay.py``) of what may be shown with all
  cards (``server/spectators.py``): a finished game; the deals that are over of a friend game whose
  spectators are ``delayed``; else 409.
- ``POST /api/games/{id}/seat`` (header ``X-Player-Key``): the seat of the player's own game against the
  computer (``{"id", "seat", "token", "url"}``), to continue it from another page than the one that
  started it.
- ``GET /api/friends/{invite}``: an invitation as whoever opens it sees it before taking the seat: the
  host, the rules, rated or not, and what spectators will see (``spectators`` and ``spectators_text``).

>>> from starlette.testclient import TestClient
>>> import tempfile
>>> from pathlib import Path
>>> from bummerl.server import create_app
>>> with TestClient(create_app(home=Path(tempfile.mkdtemp()), workers=0)) as client:
...     ann = client.post("/api/players", json={"name": "Ann"}).json()
...     made = client.post("/api/games", json={"level": "easy"}, headers={"X-Player-Key": ann["key"]}).json()
...     page = client.get("/api/players/ann/games").json()
>>> page["name"], [(g["kind"], g["opponent"], g["id"] == made["id"]) for g in page["playing"]]
('Ann', [('computer', 'computer (easy)', True)])
"""

from __future__ import annotations

import asyncio
import importlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from bummerl.records import RecordError
from bummerl.server.players import FriendGame, Player
from bummerl.server.presence import counts_in_ratings
from bummerl.server.replay import replay_json
from bummerl.server.spectators import CHOICES, shown_record
from bummerl.store import GameDamaged, GameNotFound, StoredGame, StoreError
from bummerl.table import CardStyle

if TYPE_CHECKING:
    from bummerl.server.online import Online

__all__ = ["KEY_HEADER", "MAX_LISTED", "history_routes", "level_ratings"]

#: The request header that carries the player key (as in ``server/online.py``).
KEY_HEADER = "X-Player-Key"
#: The most games listed per group on a player's page.
MAX_LISTED = 50


def level_ratings() -> list[dict[str, Any]] | None:
    """The computer levels' fixed ratings (``bummerl.level_ratings``: ``[{"level", "rating", "low",
    "high", "deviation", "bummerls", "share"}]``), or None where they are not measured (no module or no
    data file)."""
    try:
        measured = importlib.import_module("bummerl.level_ratings")
        rows: list[dict[str, Any]] = [r.to_json() for r in measured.level_ratings()]
    except (ImportError, OSError, KeyError, ValueError):
        return None
    return rows


def _style(stored: StoredGame) -> CardStyle:
    return "german" if stored.cards == "german" else "french"


def _summary(stored: StoredGame, seat: int, opponent: str) -> dict[str, Any]:
    result = None
    if stored.finished and stored.winner is not None:
        result = "won" if stored.winner == seat else "lost"
    return {"id": stored.id, "seat": seat, "opponent": opponent, "rules": stored.rules.to_json(),
            "rules_text": stored.rules.describe(), "cards": stored.cards, "state": stored.state,
            "score": [stored.score[seat], stored.score[1 - seat]], "deals": len(stored.outcomes),
            "result": result, "date": stored.updated.isoformat(timespec="seconds")}


def history_routes(online: Callable[[], Online]) -> list[BaseRoute]:
    """The routes of player pages and replays; ``online()`` gives the running server's ``Online``. They
    only read, in a worker thread each (the store's connection is locked), so the event loop and the
    hub's commit thread never wait for them."""

    def load(game_id: str) -> StoredGame:
        return online().hub.store.load(game_id)

    def names(stored: StoredGame, friend: FriendGame | None) -> tuple[str, str]:
        if friend is not None:
            return online().names_of(friend)
        owner = online().players.owner_of(stored.id)
        player = online().players.by_id(owner) if owner is not None else None
        return (player.name if player is not None else "Player"), f"computer ({stored.level})"

    def games_of(player: Player, base: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[str]]:
        """The player's games in progress and finished (rows, the newest :data:`MAX_LISTED` of each), and
        the ids of those among them that are damaged (one damaged game must not hide the others)."""
        damaged: list[str] = []
        playing = game_rows(player, over=False, base=base, damaged=damaged)
        finished = game_rows(player, over=True, base=base, damaged=damaged)
        for stored, row in finished:
            if stored.finished:
                row.update(replay=f"{base}/replay/{stored.id}", record=f"{base}/api/games/{stored.id}/record")
        return [row for _, row in playing], [row for _, row in finished], damaged

    def game_rows(player: Player, *, over: bool, base: str,
                  damaged: list[str]) -> list[tuple[StoredGame, dict[str, Any]]]:
        """The player's newest games that are ``over`` or not, the most recently played first, read and
        summed up (the ids of those that cannot be read go to ``damaged``)."""
        players = online().players
        rows = []
        for game_id in players.listed_games(player, over=over, most=MAX_LISTED):
            try:
                stored = load(game_id)
            except GameDamaged:
                damaged.append(game_id)
                continue
            friend = players.friend_game(game_id=game_id)
            rows.append((stored, friend_row(stored, friend, player, base) if friend is not None
                         else computer_row(stored)))
        return rows

    def friend_row(stored: StoredGame, friend: FriendGame, player: Player, base: str) -> dict[str, Any]:
        """A game with a friend as the player's page lists it."""
        seat = friend.seat_of(player.id)
        assert seat is not None
        names = online().names_of(friend)
        row = _summary(stored, seat, names[1 - seat])
        end = online().times.end(friend.game_id)  # won away from the table (server/presence.py)
        row.update(kind="friend", rated=counts_in_ratings(friend.rated, stored, end),
                   spectators=friend.spectators, link=f"{base}/friend/{friend.invite}")
        if end is not None:
            row.update(state="over", result="won" if end.winner == seat else "lost", ended=end.text(names))
        return row

    def computer_row(stored: StoredGame) -> dict[str, Any]:
        """A game against the computer as its player's page lists it."""
        row = _summary(stored, 0, f"computer ({stored.level})")
        row.update(kind="computer", rated=False)
        return row

    async def player_games(request: Request) -> Response:
        player = online().players.by_name(request.path_params["name"])
        if player is None:
            return JSONResponse({"error": "no such player"}, status_code=404)
        base = str(request.base_url).rstrip("/")
        try:
            playing, finished, damaged = await asyncio.to_thread(games_of, player, base)
        except StoreError as err:
            return JSONResponse({"error": str(err)}, status_code=409)
        return JSONResponse({**player.to_json(), "playing": playing, "finished": finished,
                             "damaged": damaged, "levels": level_ratings()})

    def replay_of(game_id: str) -> dict[str, Any]:
        stored = load(game_id)
        friend = online().players.friend_game(game_id=game_id)
        shown = shown_record(stored.record, friend.spectators if friend is not None else "public",
                             finished=stored.finished)
        if shown is None:
            raise StoreError("the game is not over yet: its cards are shown once it is")
        answer = replay_json(shown, names(stored, friend), cards=_style(stored))
        return {"game": game_id, "complete": stored.finished, **answer}

    async def replay(request: Request) -> Response:
        try:
            answer = await asyncio.to_thread(replay_of, request.path_params["game_id"])
        except (GameNotFound, GameDamaged) as err:
            return JSONResponse({"error": str(err)}, status_code=404)
        except (StoreError, RecordError) as err:
            return JSONResponse({"error": str(err)}, status_code=409)
        return JSONResponse(answer)

    async def own_seat(request: Request) -> Response:
        player = online().players.by_key(request.headers.get(KEY_HEADER, ""))
        if player is None:
            return JSONResponse({"error": "unknown player key"}, status_code=401)
        game_id = request.path_params["game_id"]
        if online().players.owner_of(game_id) != player.id:
            return JSONResponse({"error": "not your game against the computer"}, status_code=403)
        token = await online().seat_token(game_id, 0)  # (a new one if its own was lost)
        url = f"{str(request.base_url).rstrip('/')}/play/{game_id}#token={token}"
        return JSONResponse({"id": game_id, "seat": 0, "token": token, "url": url})

    async def invitation(request: Request) -> Response:
        players = online().players
        friend = players.friend_game(invite=request.path_params["invite"])
        if friend is None:
            return JSONResponse({"error": "no such invitation"}, status_code=404)
        host = players.by_id(friend.players[0] or "")
        try:
            stored = await asyncio.to_thread(load, friend.game_id)
        except StoreError as err:
            return JSONResponse({"error": str(err)}, status_code=409)
        withdrawn = players.withdrawn(friend.game_id)
        return JSONResponse({
            "id": friend.game_id, "host": None if host is None else host.to_json(),
            "players": list(online().names_of(friend)), "withdrawn": withdrawn,
            "seat_free": friend.players[1] is None and not withdrawn,
            "rules": stored.rules.to_json(), "rules_text": stored.rules.describe(), "cards": stored.cards,
            "rated": friend.rated, "state": stored.state, "spectators": friend.spectators,
            "spectators_text": CHOICES.get(friend.spectators, "")})

    return [
        Route("/api/players/{name}/games", player_games),
        Route("/api/games/{game_id}/replay", replay),
        Route("/api/games/{game_id}/seat", own_seat, methods=["POST"]),
        Route("/api/friends/{invite}", invitation),
    ]
