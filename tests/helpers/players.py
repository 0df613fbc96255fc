"""Helpers for the player page and replay tests: register players, make and finish friend games and games
against the computer through the JSON API and the per-seat WebSockets (Starlette's test client)."""

from __future__ import annotations

import math
import random
from typing import Any

from starlette.testclient import TestClient

__all__ = ["KEY", "finish_computer_game", "flood_allowance", "friend_game", "invite", "join", "key",
           "next_of", "play_friends", "register", "socket"]

#: The header with the player key.
KEY = "X-Player-Key"


def flood_allowance(seconds: float, rate: float, burst: int) -> int:
    """How many messages of a flood a ``rate``-a-second, ``burst``-at-once bucket lets through in ``seconds``:
    the burst and what it refilled meanwhile (a loaded machine sends a flood slowly: a fixed bound failed).

    >>> flood_allowance(0.0, 20, 40), flood_allowance(0.31, 20, 40)
    (40, 47)
    """
    return burst + math.ceil(rate * seconds)


def register(client: TestClient, name: str) -> dict[str, Any]:
    """A new player: ``{"name", ..., "key"}``."""
    answer = client.post("/api/players", json={"name": name})
    assert answer.status_code == 201, answer.text
    result: dict[str, Any] = answer.json()
    return result


def key(player: dict[str, Any]) -> dict[str, str]:
    """The headers of a player's requests."""
    return {KEY: player["key"]}


def invite(client: TestClient, host: dict[str, Any], **body: Any) -> dict[str, Any]:
    """An invitation by ``host`` (``body``): ``{"invite", "id", "token", ...}``."""
    answer = client.post("/api/friends", json=body, headers=key(host))
    assert answer.status_code == 201, answer.text
    result: dict[str, Any] = answer.json()
    return result


def join(client: TestClient, made: dict[str, Any], player: dict[str, Any]) -> dict[str, Any]:
    """``player`` takes the free seat of the invitation ``made`` (a request without a body): the seat's
    answer."""
    answer = client.post(f"/api/friends/{made['invite']}/join", headers=key(player))
    assert answer.status_code == 200, answer.text
    result: dict[str, Any] = answer.json()
    return result


def socket(client: TestClient, seat: dict[str, Any]) -> Any:
    """The seat's game WebSocket (a context manager)."""
    return client.websocket_connect(f"/ws/games/{seat['id']}?token={seat['token']}")


def friend_game(client: TestClient, host: dict[str, Any], guest: dict[str, Any], *,
                join: dict[str, Any] | None = None, **body: Any) -> list[dict[str, Any]]:
    """An invitation by ``host`` (``body``) taken by ``guest`` (``join``: the join request's body): both
    seats' answers (``id``, ``token``, ...)."""
    made = invite(client, host, **body)
    joined = client.post(f"/api/friends/{made['invite']}/join", json=join or {}, headers=key(guest))
    assert joined.status_code == 200, joined.text
    return [made, joined.json()]


def next_of(ws: Any, kind: str, until: Any = None, *,
            log: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """The next message of ``kind`` (for which ``until(message)`` holds, if given); the events before it go
    to ``log``, if given."""
    while True:
        msg: dict[str, Any] = ws.receive_json()
        if msg["type"] == "events" and log is not None:
            log += msg["events"]
        if msg["type"] == kind and (until is None or until(msg)):
            return msg


def play_friends(client: TestClient, seats: list[dict[str, Any]], rng: random.Random, *,
                 deals: int | None = None, until_tricks: int | None = None, watch: Any = None,
                 check: Any = None) -> dict[str, Any]:
    """Both seats play random legal moves (``next`` between deals) until the Bummerl is over (or ``deals``
    deals are over and the next one has begun, or the deal has ``until_tricks`` tricks); ``check(frame)``
    sees the spectator's frame on ``watch`` (its events since the last one in ``"events"``) after every
    action. Answers seat 0's last view."""
    with socket(client, seats[0]) as a, socket(client, seats[1]) as b:
        sockets = [a, b]
        views = [next_of(s, "view") for s in sockets]
        while True:
            view = views[0]
            if view["phase"] == "game_over":
                return view
            if until_tricks is not None and len(view["deal"]["tricks"]) >= until_tricks:
                return view
            if view["phase"] == "deal_over":
                if deals is not None and len(view["sheet"]) >= deals:
                    sockets[0].send_json({"type": "act", "action": "next"})
                    return next_of(sockets[0], "view")
                actor, action = 0, "next"
            else:
                actor = view["waiting_for"]
                action = rng.choice(views[actor]["deal"]["legal"])
            sockets[actor].send_json({"type": "act", "action": action})
            views = [next_of(s, "view") for s in sockets]
            if watch is not None:
                log: list[dict[str, Any]] = []
                frame = next_of(watch, "watch", log=log)
                check({**frame, "events": log})


def finish_computer_game(client: TestClient, seat: dict[str, Any], *,
                         moves: int | None = None) -> dict[str, Any]:
    """Play the first legal action against the computer until the Bummerl is over (or ``moves`` actions were
    sent); answers the last view."""
    sent = 0
    with client.websocket_connect(f"/ws/games/{seat['id']}?token={seat['token']}") as ws:
        view = next_of(ws, "view")
        while view["phase"] != "game_over" and (moves is None or sent < moves):
            if view["phase"] == "deal_over":
                ws.send_json({"type": "act", "action": "next"})
            elif view["waiting_for"] == 0 and not view["thinking"]:
                ws.send_json({"type": "act", "action": view["deal"]["legal"][0]})
            else:
                view = next_of(ws, "view")
                continue
            sent += 1
            view = next_of(ws, "view")
        return view
