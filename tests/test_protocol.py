"""The ``view`` message (server/protocol.py) words what the page shows from the engine's own tables: why a
deal ended (the sentence and the score sheet's label) and what each legal marriage counts, so that the page
keeps no copy of the rules or of their words."""

from __future__ import annotations

import random

from bummerl.rules import Rules
from bummerl.scoring import Reason
from bummerl.server.protocol import view_message
from bummerl.table import Seat, Table, reason_text


def test_a_finished_deal_is_worded_from_the_scoring_tables_and_marriages_carry_their_points() -> None:
    rng = random.Random(5)
    seen_marriages = exchanges = 0
    for preset in ("standard", "sixty-six", "tompa"):
        table = Table(Rules.preset(preset), (Seat("Ann"), Seat("Bob")), seed=rng.randrange(10**6))
        for _ in range(6):  # a few deals each
            while table.phase == "playing":
                seat = table.waiting_for
                assert seat is not None
                message = view_message(table, seat)
                legal = message["deal"]["legal"]
                married = {a[6:] for a in legal if a.startswith("marry ")}
                trump = table.view(seat).trump_suit
                assert set(message["deal"]["marriage_points"]) == married
                low = "9" if preset == "sixty-six" else "J"  # the nine in Sixty-Six, else the jack
                exchange = message["deal"]["exchange_card"]
                assert exchange == (low + trump.letter if "exchange" in legal else None)
                assert message["exchange_rank"] == ("nine" if low == "9" else "jack")
                exchanges += exchange is not None
                for suit, points in message["deal"]["marriage_points"].items():
                    assert points == (40 if suit == trump.letter else 20)
                    seen_marriages += 1
                table.act(seat, rng.choice(legal))
            if table.phase == "game_over":
                break
            message = view_message(table, 0)
            outcome = table.view(0).outcome
            assert outcome is not None
            assert message["result"]["text"] == reason_text(outcome, table.rules.auto_claim)
            row = message["sheet"][-1]
            assert row["why"] == Reason(outcome.reason).label and row["text"] == message["result"]["text"]
            table.next_deal()
    assert seen_marriages > 0 and exchanges > 0
