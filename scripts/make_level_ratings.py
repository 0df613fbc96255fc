"""Write src/bummerl/data/level_ratings.json from a tournament's ``--json`` output (issue 14's fixed ratings).

    bummerl tournament easy medium hard expert expert-v1 pimc heuristic random --bummerls 16 --seed 1616 \\
        -j 2 --anchor medium --json > benchmarks/results/levels_tournament.json
    python scripts/make_level_ratings.py benchmarks/results/levels_tournament.json --commit a55679f

The tournament must rate Bummerls (``--bummerls``) with ``medium`` as the anchor and include every public
computer level. Each bot's rating becomes ``1500 + its Elo points over medium``; its 95% interval is shifted
alike; its deviation is the interval's half-width / 1.96, at least ``MIN_DEVIATION``
(:mod:`bummerl.level_ratings` explains the scale).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from bummerl.level_ratings import ANCHOR, ANCHOR_RATING, MIN_DEVIATION
from bummerl.scripting import run
from bummerl.store import COMPUTER_LEVELS

OUT = Path(__file__).resolve().parent.parent / "src" / "bummerl" / "data" / "level_ratings.json"
Z95 = 1.959963984540054


def build(result: dict[str, Any], commit: str) -> dict[str, Any]:
    """The level-ratings file for one tournament result (``bummerl tournament --json``)."""
    arena = result["arena"]
    if result["unit"] != "bummerls":
        raise SystemExit("error: the tournament must play whole Bummerls (--bummerls)")
    if result["rating_anchor"] != ANCHOR:
        raise SystemExit(f"error: the tournament must be anchored at {ANCHOR} (--anchor {ANCHOR})")
    rated = {r["bot"]: r for r in result["ratings"]}
    missing = [level for level in COMPUTER_LEVELS if level not in rated]
    if missing:
        raise SystemExit(f"error: the tournament lacks the levels {', '.join(missing)}")
    bots = {}
    for r in result["ratings"]:  # best first
        half = (r["high"] - r["low"]) / 2
        bots[r["bot"]] = {
            "rating": round(ANCHOR_RATING + r["rating"], 1),
            "low": round(ANCHOR_RATING + r["low"], 1),
            "high": round(ANCHOR_RATING + r["high"], 1),
            "deviation": round(max(half / Z95, MIN_DEVIATION), 1),
            "bummerls": r["games"],
            "share": r["share"],
        }
    command = (f"bummerl tournament {' '.join(arena['labels'])} --bummerls {arena['games_per_pairing']} "
               f"--seed {arena['seed']} -j {arena['workers']} --anchor {ANCHOR} --json")
    return {
        "scale": f"Glicko-2 as players see it: {ANCHOR} = {ANCHOR_RATING:g}, the others {ANCHOR}'s plus "
                 "their Bradley-Terry difference on Bummerls won in Elo points; low/high: the 95% interval",
        "tournament": {
            "command": command,
            "commit": commit,
            "rules": arena["rules"],
            "seed": arena["seed"],
            "bummerls_per_pair": arena["games_per_pairing"],
            "deals": arena["deals"],
            "seconds": arena["seconds"],
            "resamples": result["resamples"],
        },
        "levels": list(COMPUTER_LEVELS),
        "bots": bots,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("tournament", type=Path, help="the tournament's --json output")
    parser.add_argument("--commit", required=True, help="the commit the tournament ran at")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    data = build(json.loads(args.tournament.read_text(encoding="utf-8")), args.commit)
    args.out.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {args.out}: " + ", ".join(f"{b} {e['rating']:.0f}" for b, e in data["bots"].items()),
          file=sys.stderr)


if __name__ == "__main__":
    run(main)
