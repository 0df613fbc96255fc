"""Golden deal records (rules.md section 9 format) for tricky scoring cases, each checked by hand (see its
"note"): replaying one through the engine must give exactly the recorded result, points and tricks."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bummerl import Deal, Rules

GOLDEN = Path(__file__).parent / "golden"
RECORDS = sorted(GOLDEN.glob("*.json"))


def load(path: Path) -> dict[str, Any]:
    record: dict[str, Any] = json.loads(path.read_text())
    return record


def replay(record: dict[str, Any], steps: int | None = None) -> Deal:
    deal = Deal.from_deck(Rules.from_json(record["rules"]), record["deck"], record["dealer"])
    for action in record["actions"][:steps]:
        assert deal.outcome is None, "a record goes on after the deal ended"
        deal.apply(action)  # raises IllegalActionError on a step the rules do not allow
    return deal


def test_there_are_golden_records_for_every_tricky_case() -> None:
    names = {p.stem for p in RECORDS}
    assert {
        "viennese_close", "viennese_close_tournament", "mirror_false_claim", "closer_failed",
        "sixty_six_last_trick_ten", "sixty_six_draw", "soft_marriage_before_a_trick",
    } <= names


@pytest.mark.parametrize("path", RECORDS, ids=[p.stem for p in RECORDS])
def test_replaying_a_golden_record_gives_its_recorded_outcome(path: Path) -> None:
    record = load(path)
    assert {"rules", "dealer", "deck", "actions"} <= set(record)
    assert "TODO" not in record["note"], "a golden record must be checked by hand"
    deal = replay(record)
    expected = record["expected"]
    assert deal.outcome is not None
    assert deal.outcome.to_json() == expected["result"]
    assert list(deal.points) == expected["points"]
    assert list(deal.tricks) == expected["tricks"]


@pytest.mark.parametrize("path", RECORDS, ids=[p.stem for p in RECORDS])
def test_a_golden_record_cut_short_is_an_unfinished_deal(path: Path) -> None:
    record = load(path)
    deal = replay(record, len(record["actions"]) - 1)
    assert deal.outcome is None
    assert record["actions"][-1] in {str(a) for a in deal.legal_actions()}


def test_the_viennese_record_differs_only_in_its_rules_from_the_tournament_one() -> None:
    viennese = load(GOLDEN / "viennese_close.json")
    tournament = load(GOLDEN / "viennese_close_tournament.json")
    assert (viennese["deck"], viennese["actions"]) == (tournament["deck"], tournament["actions"])
    deal = replay(viennese, viennese["actions"].index("close") + 1)
    assert deal.close_snapshot == (0, 0)  # player 0 had no trick when player 1 closed
