"""A game record turned into the frames of the replay viewer (``/replay/{id}``), every card shown.

The engine replays the record (through a :class:`~bummerl.table.Table`, so the texts are the ones the
players read); after the deal is dealt and after each action one frame holds what happened (the event
texts) and the whole position: both hands, the talon in its order, the face-up trump card, the card led,
the tricks, the points. Only records of what may be shown in full are given to this module: a finished
game, or the deals that are over of a game whose spectators may see them (``server/spectators.py``).

>>> from bummerl.records import GameRecord
>>> from bummerl.rules import Rules
>>> from bummerl.game import Bummerl
>>> game = Bummerl(Rules.preset("standard"), seed=3, first_dealer=1)
>>> while not game.is_over:
...     _ = game.next_deal() if game.deal.is_over else game.apply(game.deal.legal_actions()[0])
>>> record = GameRecord.from_game(game)
>>> replay = replay_json(record, ("Ann", "Bob"))
>>> first = replay["deals"][0]["frames"][0]
>>> first["action"], [len(h) for h in first["hands"]], len(first["talon"]), first["texts"][0][:7]
(None, [5, 5], 9, 'Deal 1:')
>>> plays = [f["action"] for d in replay["deals"] for f in d["frames"] if f["action"]]
>>> plays == [a for d in record.deals for a in d.actions]
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bummerl.records import GameRecord
from bummerl.table import CardStyle, Event, Seat, Table

__all__ = ["replay_json"]


def replay_json(record: GameRecord, names: Sequence[str], *, cards: CardStyle = "french") -> dict[str, Any]:
    """The replay of every deal of ``record``: ``{"players", "rules", "rules_text", "cards", "deals":
    [{"number", "dealer", "result", "score", "frames": [...]}], "winner"}``; each frame is ``{"action",
    "seat", "texts", "hands", "talon", "trump", "trump_card", "lead", "trick", "tricks", "points",
    "tricks_won", "closed_by", "marriages", "score"}`` (``action`` None for the frame of the deal as dealt;
    ``trick`` the last trick taken, shown until the next card is led)."""
    table = Table(record.rules, (Seat(names[0]), Seat(names[1])), first_dealer=record.first_dealer,
                  decks=[[int(c) for c in d.deck] for d in record.deals], card_style=cards)
    deals: list[dict[str, Any]] = []
    for number, rec in enumerate(record.deals, 1):
        events = table.events[-1:] if number == 1 else table.next_deal()
        frames = [_frame(table, None, None, events)]
        for action in rec.actions:
            seat = table.deal.to_move
            frames.append(_frame(table, action, seat, table.act(seat, action)))
        outcome = table.deal.outcome
        deals.append({"number": number, "dealer": table.deal.dealer,
                      "result": outcome.to_json() if outcome is not None else None,
                      "score": list(table.score), "frames": frames})
    return {"players": list(names), "rules": record.rules.to_json(), "rules_text": record.rules.describe(),
            "cards": cards, "deals": deals, "winner": table.game.winner}


def _frame(table: Table, action: str | None, seat: int | None, events: Sequence[Event]) -> dict[str, Any]:
    deal = table.deal
    view = table.view(0).to_json()  # the public parts of the position (the hands come from the deal)
    last = deal.trick_log[-1] if deal.trick_log and deal.lead < 0 else None
    return {
        "action": action, "seat": seat, "texts": [e.text for e in events],
        "hands": [[str(c) for c in deal.hand(s)] for s in (0, 1)],
        "talon": [str(c) for c in deal.talon],
        "trump": view["trump"], "trump_card": view["trump_card"], "bottom_card": view["bottom_card"],
        "lead": view["lead"],
        "trick": None if last is None else {"leader": last.leader, "lead": str(last.lead),
                                            "follow": str(last.follow), "winner": last.winner},
        "tricks": view["tricks"], "points": list(deal.points), "tricks_won": list(deal.tricks),
        "closed_by": view["closed_by"], "marriages": view["marriages"], "to_move": None if deal.is_over
        else deal.to_move, "score": list(table.score),
    }
