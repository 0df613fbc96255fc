"""No message ever holds a card its seat may not see: every frame of many random games against the deal.

Each ``view`` frame must be exactly the view of some moment of its deal (the deal is replayed from the
game's record to find it), and no card the seat could not see at that moment (worked out from the deal,
not from the view) appears anywhere in the frame; the events of a deal name only cards that were shown in
that deal.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from bummerl.cards import Card
from bummerl.records import GameRecord
from bummerl.rules import Rules
from bummerl.server import create_app
from helpers.web import cards_mentioned, hidden_from, matching_state

PRESETS = ("standard", "sharp", "sixty-six", "tompa", "vu", "soft")


def play_random_game(client: TestClient, preset: str, seed: int) -> tuple[str, list[dict[str, Any]],
                                                                         list[dict[str, Any]]]:
    """A Bummerl of random legal moves against ``easy``: (game id, every view frame, every event)."""
    rng = random.Random(seed)
    game = client.post("/api/games", json={"rules": preset, "level": "easy", "seed": seed}).json()
    frames: list[dict[str, Any]] = []
    events: list[dict[str, Any]] = []
    with client.websocket_connect(f"/ws/games/{game['id']}?token={game['token']}") as ws:
        while True:
            msg = ws.receive_json()
            assert msg["type"] in ("events", "view"), msg
            if msg["type"] == "events":
                events += msg["events"]
                continue
            frames.append(msg)
            if msg["phase"] == "game_over":
                break
            if msg["phase"] == "deal_over":
                ws.send_json({"type": "act", "action": "next"})
            elif msg["waiting_for"] == msg["seat"] and not msg["thinking"]:
                ws.send_json({"type": "act", "action": rng.choice(msg["deal"]["legal"])})
    return game["id"], frames, events


def public_cards(rules: Rules, dealer: int, deck: Any, actions: tuple[str, ...]) -> set[str]:
    """Every card shown in a deal: played, exchanged, declared in a marriage, or the trump card."""
    from bummerl import Deal

    deal = Deal(rules, tuple(int(c) for c in deck), dealer)
    for a in actions:
        deal.apply(a)
    shown = {str(Card.from_index(deal.trump_card))} if deal.trump_card >= 0 else set()
    shown |= {str(t.lead) for t in deal.trick_log} | {str(t.follow) for t in deal.trick_log}
    if deal.lead >= 0:
        shown.add(str(Card.from_index(deal.lead)))
    for _, suit in deal.marriages:
        shown |= {str(Card.from_index(suit * 6 + 2)), str(Card.from_index(suit * 6 + 3))}
    if deal.exchanged is not None:
        shown |= {str(deal.exchanged[1]), str(deal.exchanged[2])}
    return shown | {str(Card.from_index(int(deck[6])))}


@pytest.mark.parametrize("preset", PRESETS)
def test_every_frame_of_random_games_shows_only_what_the_seat_may_see(tmp_path: Path, preset: str) -> None:
    with TestClient(create_app(home=tmp_path, workers=0)) as client:
        for seed in range(3):
            game_id, frames, events = play_random_game(client, preset, seed + 100 * PRESETS.index(preset))
            record = GameRecord.from_json(client.get(f"/api/games/{game_id}/record").json())
            scores = [(record.target, record.target), *record.scores]
            assert frames, "no frame"
            for frame in frames:
                number = frame["deal_number"]
                deal_record = record.deals[number - 1]
                deal = matching_state(record.rules, deal_record.dealer, deal_record.deck,
                                      list(deal_record.actions), frame["seat"], frame["deal"],
                                      tuple(frame["deal"]["score"]))
                assert deal is not None, f"frame of deal {number} is no moment of the deal: {frame['deal']}"
                assert tuple(frame["deal"]["score"]) in scores
                revealed = bool(frame["deal"].get("revealed_hands")) and deal.outcome is not None
                leaked = cards_mentioned(frame) & hidden_from(deal, frame["seat"], revealed=revealed)
                assert not leaked, f"deal {number}: the frame shows hidden cards {sorted(leaked)}"
            for event in events:
                d = record.deals[event["deal"] - 1]
                allowed = public_cards(record.rules, d.dealer, d.deck, d.actions)
                named = cards_mentioned(event)
                assert named <= allowed, f"event {event['text']!r} names {sorted(named - allowed)}"
