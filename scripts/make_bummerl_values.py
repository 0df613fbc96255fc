"""Measure deal-result distributions by self-play and write src/bummerl/data/bummerl_values.json.

For each rules preset, a bot plays DEALS single deals against itself (seats seeded apart, the forehand
being player 0); the distribution of the forehand's result (-3..3 game points) feeds the Markov model of
:mod:`bummerl.match_equity`, which turns it into the chance to win the Bummerl from every score.

    python scripts/make_bummerl_values.py --bot pimc --deals 1000 --workers 2 --seed 1 [--presets standard]

Presets left out of ``--presets`` keep what the file said of them.

BOT is a registered bot name (``bummerl bots``) or ``package.module:factory``.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from bummerl.bots.base import Bot
from bummerl.engine import Deal
from bummerl.match_equity import OUTCOMES, markov_win_chance
from bummerl.rules import PRESETS, Rules
from bummerl.scripting import positive, run
from bummerl.view import View

OUT = Path(__file__).resolve().parent.parent / "src" / "bummerl" / "data" / "bummerl_values.json"


def make(bot: str, seed: int) -> Bot:
    """A bot by registry name or ``module:factory`` path."""
    if ":" in bot:
        module, _, attr = bot.partition(":")
        factory = getattr(importlib.import_module(module), attr)
        made: Bot = factory(seed)
        return made
    from bummerl.bots import make_bot

    return make_bot(bot, seed)


def play_deal(job: tuple[str, str, int]) -> int:
    """One self-play deal; the forehand's signed game points (0 for a draw)."""
    bot, preset, seed = job
    rules = Rules.preset(preset)
    deal = Deal.random(rules, seed, dealer=1)
    bots = [make(bot, 2 * seed), make(bot, 2 * seed + 1)]
    while not deal.is_over:
        p = deal.to_move
        deal.apply(bots[p].choose(View.of(deal, p)))
    assert deal.outcome is not None
    return deal.outcome.value_for(0)


def main(argv: list[str] | None = None) -> None:
    """Run the self-play and write the JSON file."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bot", default="pimc")
    parser.add_argument("--deals", type=positive, default=1000)
    parser.add_argument("--workers", type=positive, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--presets", nargs="*", default=list(PRESETS))
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    command = " ".join(["python scripts/make_bummerl_values.py", *(sys.argv[1:] if argv is None else argv)])
    data: dict[str, Any] = {
        "about": "Deal-result distributions for the forehand (non-dealer), measured by self-play; "
        "bummerl.match_equity turns them into the chance to win the Bummerl. 'table' is that chance "
        "for the player needing a (row) against b (column), dealing the next deal or not. Each preset "
        "names the bot and the command that measured it.",
        "presets": {},
    }
    # Presets not measured in this run keep their earlier entries.
    presets: dict[str, Any] = {}
    if args.out.exists():
        presets = json.loads(args.out.read_text(encoding="utf-8"))["presets"]
    for i, preset in enumerate(args.presets):
        start = time.perf_counter()
        jobs = [(args.bot, preset, args.seed * 1_000_003 + i * 100_000 + k) for k in range(args.deals)]
        if args.workers > 1:
            with ProcessPoolExecutor(args.workers) as pool:
                results = list(pool.map(play_deal, jobs, chunksize=8))
        else:
            results = [play_deal(j) for j in jobs]
        counts = Counter(results)
        probs = tuple(counts.get(k, 0) / len(results) for k in OUTCOMES)
        table = {
            side: [[round(markov_win_chance(probs, a, b, side == "deals"), 4) for b in range(1, 8)]
                   for a in range(1, 8)]
            for side in ("deals", "does_not_deal")
        }
        presets[preset] = {
            "bot": args.bot,
            "command": command,
            "deals": len(results),
            "forehand_outcomes": {str(k): counts.get(k, 0) / len(results) for k in OUTCOMES},
            "mean_forehand_points": sum(results) / len(results),
            "table": table,
        }
        print(f"{preset}: {len(results)} deals in {time.perf_counter() - start:.0f}s, "
              f"forehand {dict(sorted(counts.items()))}", flush=True)
    data["presets"] = {p: presets[p] for p in PRESETS if p in presets}
    args.out.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    run(main)
