"""Search random deals for the tricky scoring cases frozen as golden records (run by hand, not by pytest).

    python tests/golden/find_golden.py            # print the first seed found for each case
    python tests/golden/find_golden.py --write    # write tests/golden/<case>.json for missing cases

The players choose random legal actions, but claim only when the claim is correct (except where a case
needs a false claim). Every record written here was then checked by hand against rules.md; the reasoning
is in its "note", which --write leaves as a TODO for a human to fill in.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from random import Random

from bummerl import Deal, Rules
from bummerl.actions import CLAIM, PASS

HERE = Path(__file__).parent


def play(rules: Rules, seed: int, false_claims: float = 0.0) -> Deal:
    rng = Random(seed)
    deal = Deal.random(rules, rng, dealer=rng.randrange(2))
    while deal.outcome is None:
        legal = deal.legal_actions()
        p = deal.to_move
        if CLAIM in legal and (deal.points[p] >= 66 or rng.random() < false_claims):
            deal.apply(CLAIM)
        elif PASS in legal:
            deal.apply(PASS)
        else:
            deal.apply(rng.choice([a for a in legal if a is not CLAIM]))
    return deal


def replay(deal: Deal, rules: Rules) -> Deal:
    other = Deal(rules, list(deal.deck), deal.dealer)
    for a in deal.history:
        other.apply(a)
    return other


def viennese(deal: Deal) -> bool:
    out = deal.outcome
    if out is None or out.reason != "claim" or out.winner != deal.closed_by:
        return False
    tournament = replay(deal, deal.rules.replace(closing_scoring="tournament")).outcome
    return tournament is not None and tournament.game_points != out.game_points


def mirror(deal: Deal) -> bool:
    out = deal.outcome
    if out is None or out.reason != "false_claim" or deal.closed_by >= 0:
        return False
    fixed = replay(deal, deal.rules.replace(false_claim="fixed")).outcome
    return fixed is not None and fixed.game_points != out.game_points


def closer_failed(deal: Deal) -> bool:
    return deal.outcome is not None and deal.outcome.reason == "closer_failed" and len(deal.trick_log) >= 7


def last_trick_ten(deal: Deal) -> bool:
    out = deal.outcome
    return (
        out is not None and out.reason == "claim" and out.winner is not None
        and deal.hands == [0, 0] and deal.card_points[out.winner] + deal.marriage_points[out.winner] < 66
    )


def draw(deal: Deal) -> bool:
    return deal.outcome is not None and deal.outcome.reason == "draw"


def soft_marriage(deal: Deal) -> bool:
    out = deal.outcome
    if out is None or out.reason != "claim" or not deal.history or deal.history[0].kind != "marry":
        return False
    declarer = 1 - deal.dealer
    first = deal.trick_log[0]
    return (
        out.winner == declarer and first.winner != declarer
        and deal.card_points[declarer] < 66 <= deal.points[declarer]
    )


CASES: dict[str, tuple[Rules, Callable[[Deal], bool], float]] = {
    "viennese_close": (Rules.preset("standard"), viennese, 0.0),
    "mirror_false_claim": (Rules.preset("standard").replace(false_claim="mirror"), mirror, 0.05),
    "closer_failed": (Rules.preset("standard"), closer_failed, 0.0),
    "sixty_six_last_trick_ten": (Rules.preset("sixty-six"), last_trick_ten, 0.0),
    "sixty_six_draw": (Rules.preset("sixty-six"), draw, 0.0),
    "soft_marriage_before_a_trick": (Rules.preset("soft"), soft_marriage, 0.0),
}


def record(deal: Deal) -> dict[str, object]:
    assert deal.outcome is not None
    return {
        "rules": deal.rules.to_json(),
        "dealer": deal.dealer,
        "deck": [str(c) for c in deal.deck],
        "actions": [str(a) for a in deal.history],
        "expected": {
            "result": deal.outcome.to_json(), "points": list(deal.points), "tricks": list(deal.tricks)
        },
        "note": "TODO: check by hand against rules.md and explain here",
    }


def dump(rec: dict[str, object]) -> str:
    """One key a line, each value compact: easy to read and to diff."""
    lines = [f"  {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}" for k, v in rec.items()]
    return "{\n" + ",\n".join(lines) + "\n}\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="write the records that do not exist yet")
    parser.add_argument("--limit", type=int, default=200_000, help="seeds to try per case")
    args = parser.parse_args(argv)
    for name, (rules, wanted, false_claims) in CASES.items():
        for seed in range(args.limit):
            deal = play(rules, seed, false_claims)
            if wanted(deal):
                print(f"{name}: seed {seed}, {deal.outcome}, points {deal.points}, tricks {deal.tricks}")
                target = HERE / f"{name}.json"
                if args.write and not target.exists():  # never overwrite a record checked by hand
                    target.write_text(dump(record(deal)))
                break
        else:
            print(f"{name}: nothing found in {args.limit} seeds", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
