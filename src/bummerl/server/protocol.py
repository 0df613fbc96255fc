"""The web protocol's messages: what the server sends (``view``, ``events``, ``error``, ``analysis``,
``review``) and how a client message is read (``act``, ``analyse``, ``review``). JSON objects with a
``type``; the README's "Web protocol" section is the reference.

Everything a seat receives is built here from that seat's :class:`~bummerl.view.View` (its
:meth:`~bummerl.view.View.to_json`) and the table's public facts (events, the score sheet), so no
message can hold a card the seat may not see.

>>> parse_message('{"type": "act", "action": "play QH"}')
ClientMessage(type='act', action='play QH')
>>> parse_message('{"type": "dance"}')
Traceback (most recent call last):
...
bummerl.server.protocol.ProtocolError: unknown message type 'dance' (expected act, analyse, review or ping)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import orjson
from starlette.websockets import WebSocket, WebSocketState

from bummerl import jsonio
from bummerl.cards import CARDS, Card, cards_in
from bummerl.errors import BummerlError
from bummerl.rules import FLAG_NAMES
from bummerl.scoring import Reason, marriage_points
from bummerl.table import Event, Table, reason_text

__all__ = [
    "MAX_MESSAGE",
    "NEXT",
    "REFUSED",
    "UNAVAILABLE",
    "ClientMessage",
    "ProtocolError",
    "encode",
    "error_message",
    "event_json",
    "parse_message",
    "read_body",
    "refuse_unavailable",
    "view_message",
]

#: The longest client message read (characters); longer ones get an ``error``.
MAX_MESSAGE = 4096
#: The ``act`` action that deals the next deal once a deal is over (not an engine action).
NEXT = "next"
_TYPES = ("act", "analyse", "review", "ping")


class ProtocolError(BummerlError):
    """A client message that is not one the protocol knows (the ``error`` message says why)."""


@dataclass(frozen=True, slots=True)
class ClientMessage:
    """One message from a client: its type and, for ``act``, the action string."""

    type: str
    action: str = ""


def parse_message(text: str | bytes) -> ClientMessage:
    """Read one client message; raises :class:`ProtocolError` with the reason for anything else.

    >>> parse_message('{"type": "act", "action": 3}')
    Traceback (most recent call last):
    ...
    bummerl.server.protocol.ProtocolError: an act message needs an "action" string, e.g. "play QH"
    """
    if isinstance(text, bytes):
        if len(text) > MAX_MESSAGE:
            raise ProtocolError(f"message too large ({len(text)} bytes; at most {MAX_MESSAGE})")
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise ProtocolError("message is not UTF-8 text") from None
    if len(text) > MAX_MESSAGE:
        raise ProtocolError(f"message too large ({len(text)} characters; at most {MAX_MESSAGE})")
    try:
        value = jsonio.loads(text)  # the one hardened reader: no duplicate keys, huge numbers, deep nesting
    except jsonio.InputError as err:
        raise ProtocolError(f"message is not JSON: {_reason(err)}") from None
    if not isinstance(value, dict):
        raise ProtocolError("a message is a JSON object with a \"type\"")
    kind = value.get("type")
    if kind not in _TYPES:
        shown = repr(kind) if isinstance(kind, str | int | float | bool | None) else type(kind).__name__
        expected = f"{', '.join(_TYPES[:-1])} or {_TYPES[-1]}"  # the list written once, in _TYPES
        raise ProtocolError(f"unknown message type {shown} (expected {expected})")
    if kind == "act":
        action = value.get("action")
        if not isinstance(action, str):
            raise ProtocolError('an act message needs an "action" string, e.g. "play QH"')
        return ClientMessage("act", action.strip())
    return ClientMessage(kind)


def read_body(raw: bytes) -> Any:
    """An HTTP request's JSON body (empty: ``{}``), read by the one hardened reader; anything else raises
    :class:`~bummerl.errors.BummerlError` with one line (never a ``RecursionError`` or ``ValueError``).

    >>> read_body(b'{"name": "Ann"}'), read_body(b"")
    ({'name': 'Ann'}, {})
    >>> read_body(b"[" * 5000 + b"]" * 5000)
    Traceback (most recent call last):
    ...
    bummerl.errors.BummerlError: the body is not JSON: nested too deeply (more than 32 levels)
    """
    try:
        return jsonio.loads(raw or b"{}")
    except jsonio.InputError as err:
        raise BummerlError(f"the body is not JSON: {_reason(err)}") from None


def _reason(err: jsonio.InputError) -> str:
    """Why the text is not JSON, without the reader's "bad JSON" prefix."""
    return err.msg or str(err).removeprefix("bad JSON: ")


def encode(message: dict[str, Any]) -> str:
    """A server message as compact JSON text (characters beyond ASCII kept as they are); orjson, as a view
    is encoded for every listener after every action (~8x faster than the json module here).

    >>> encode({"type": "error", "reason": "you do not hold A♣"})
    '{"type":"error","reason":"you do not hold A♣"}'
    """
    return orjson.dumps(message).decode()


def error_message(reason: str, answers: str | None = None) -> dict[str, Any]:
    """``{"type": "error", "reason": ..., "answers": ...}``: ``answers`` is the type of the client's message
    it refuses (``act``, ``analyse``, ...), None when it answers none in particular (a message that could not
    be read, a flood, the computer failing).

    >>> error_message("it is not your turn", "act")
    {'type': 'error', 'reason': 'it is not your turn', 'answers': 'act'}
    """
    return {"type": "error", "reason": reason, "answers": answers}


#: Close code for a WebSocket refused before it opened (wrong game or token): the client gets nothing.
REFUSED = 4403
#: Close code after an ``error`` saying why a right token's game cannot be played now (busy, damaged).
UNAVAILABLE = 4409


async def refuse_unavailable(ws: WebSocket, err: Exception) -> None:
    """Say in one ``error`` why ``ws``'s game cannot be opened now (opening ``ws`` for it, if it is not
    yet), then close it (:data:`UNAVAILABLE`)."""
    if ws.application_state == WebSocketState.CONNECTING:
        await ws.accept()
    await ws.send_json(error_message(str(err)))
    await ws.close(code=UNAVAILABLE)


def _jsonable(key: str, value: Any) -> Any:
    if key == "card" and isinstance(value, int) and not isinstance(value, bool):
        return str(CARDS[value])
    return value


def event_json(event: Event) -> dict[str, Any]:
    """One table event as JSON: ``{"kind", "text", "seat", "deal", "data"}`` (cards as strings).

    >>> event_json(Event("play", "You play Q♥", 0, 1, {"card": 14}))
    {'kind': 'play', 'text': 'You play Q♥', 'seat': 0, 'deal': 1, 'data': {'card': 'QH'}}
    """
    data = {k: _jsonable(k, v) for k, v in event.data.items()}
    return {"kind": event.kind, "text": event.text, "seat": event.seat, "deal": event.deal_number,
            "data": data}


def view_message(table: Table, seat: int, *, thinking: bool = False,
                 players: list[dict[str, Any]] | None = None, game_id: str = "") -> dict[str, Any]:
    """The ``view`` message for ``seat``: its view of the deal plus the public state of the Bummerl.

    Running points are left out (null) while the deal is played when the rules' ``open_tricks`` is off.
    """
    view = table.view(seat)
    deal = view.to_json()
    if not table.rules.open_tricks and not view.is_over:
        deal["points"] = None
        deal["pending"] = None
        deal["close_snapshot"] = None
    deal["pass_words"] = table.pass_words(seat)  # what a pass would do, once it may pass (else null)
    # The trump card an exchange takes back (while one is legal: a card of the seat's own hand; named at other
    # times it would be a hidden card's name in the frame), and each legal marriage's points: the page words
    # its buttons without knowing the rules.
    exchange = any(a.kind == "exchange" for a in view.legal_actions)
    deal["exchange_card"] = str(Card.of(table.rules.exchange_rank, view.trump_suit)) if exchange else None
    deal["marriage_points"] = {a.suit.letter: marriage_points(a.suit, trump=view.trump_suit)
                               for a in view.legal_actions if a.kind == "marry" and a.suit is not None}
    game = table.game
    auto = table.rules.auto_claim
    sheet = [
        {"deal": i, "dealer": s.dealer, **s.outcome.to_json(), "score": list(s.score_after),
         "why": Reason(s.outcome.reason).label, "text": reason_text(s.outcome, auto)}
        for i, s in enumerate(game.finished, start=1)
    ]
    waiting = table.waiting_for
    return {
        "type": "view",
        "game": game_id,
        "seat": seat,
        "players": players or [{"name": table.name(s), "kind": "human" if table.seats[s].is_human
                                else "computer"} for s in (0, 1)],
        "rules": table.rules.to_json(),
        "rules_text": table.rules.describe(),
        "flags": {name: getattr(table.rules, name) for name in FLAG_NAMES},  # every flag, e.g. allow_close
        "sixty_six": table.rules.sixty_six,
        "exchange_rank": table.rules.exchange_rank.english,  # the trump an exchange takes back: jack, nine
        "open_tricks": table.rules.open_tricks,
        "cards": table.card_style,
        "phase": table.phase,
        "deal_number": table.deal_number,
        "waiting_for": waiting,
        "thinking": thinking,
        "result": None if view.outcome is None else {**view.outcome.to_json(),
                                                     "text": reason_text(view.outcome, auto)},
        "score": list(table.score),
        "target": game.target,
        "winner": game.winner,
        "sheet": sheet,
        "deal": deal,
        "opponent_shown": [str(c) for c in cards_in(view.opponent_known_mask)],
    }
