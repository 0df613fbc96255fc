"""Measure what PIMC overrates: branch PIMC self-play where closing, exchanging or declaring is legal.

At every such decision (talon open) of DEALS self-play deals of the standard preset, the best action of
each kind (play, close, exchange, marry) by PIMC's estimate is valued again by a second PIMC estimate
over other worlds (so the pick's own luck is not counted as bias), applied and the deal is played out
PLAYOUTS times by PIMC against PIMC. For each kind against playing on, the bias is the realized
difference of the results less the estimated one (negative: PIMC overrates the kind), with a 95%
interval; for close, exchange and marry the same with the one-step fusion repair's estimate
(``ExpertBot._own_next``). The expert's ``CLOSE_BIAS`` and ``FUSION_KINDS`` come from this.

    python scripts/measure_pimc_bias.py --deals 1800 --workers 2 --seed 70000
"""

from __future__ import annotations

import argparse
from collections import defaultdict

from selfplay_jobs import run_jobs

from bummerl.actions import Action
from bummerl.arena.stats import mean_interval
from bummerl.bots.expert import ExpertBot
from bummerl.bots.pimc import PimcBot
from bummerl.engine import Deal
from bummerl.rules import Rules
from bummerl.scripting import positive, run
from bummerl.view import View

KINDS = ("close", "exchange", "marry")
#: A decision's record: per kind, (PIMC's estimate, the fusion repair's estimate, mean realized result).
Record = dict[str, tuple[float, float, float]]
GAME_POINTS = (-3.0, -2.0, -1.0, 0.0, 1.0, 2.0, 3.0)
#: Added to the playing bot's seed for the scoring estimate's worlds.
SCORE_SEED = 7_777_777


def playout(deal: Deal, player: int, seed: int) -> int:
    """Play ``deal`` out, PIMC against PIMC; ``player``'s signed game points."""
    bots = [PimcBot(seed), PimcBot(seed + 1)]
    while deal.outcome is None:
        seat = deal.to_move
        deal.apply(bots[seat].choose(View.of(deal, seat)))
    assert deal.outcome is not None
    return deal.outcome.value_for(player)


def play(job: tuple[int, int]) -> list[Record]:
    """One self-play deal and the records of its branched decisions."""
    seed, playouts = job
    deal = Deal.random(Rules.preset("standard"), seed)
    bots = [PimcBot(2 * seed), PimcBot(2 * seed + 1)]
    records: list[Record] = []
    while deal.outcome is None:
        seat = deal.to_move
        view = View.of(deal, seat)
        legal = view.legal_actions
        kinds = {a.kind for a in legal}
        if view.talon_open and "play" in kinds and kinds & set(KINDS):
            # The best action of each kind is picked by the playing bot's estimate and scored by a second,
            # independent one (other worlds): scoring the pick with the estimate that picked it would add
            # the winner's curse to kinds with several actions (playing on) and not to a lone close.
            means = bots[seat].evaluate(view)
            score_seed = SCORE_SEED + bots[seat].seed
            scores = PimcBot(score_seed).evaluate(view)
            fusion = ExpertBot(score_seed, 60, 30, bummerl=False, infer=False)
            worlds, weights = fusion.sample(view)  # the same worlds as the scoring estimate's
            record: Record = {}
            for kind in kinds & {"play", *KINDS}:
                best: Action = max((a for a in legal if a.kind == kind), key=means.__getitem__)
                fused = scores[best]
                if kind != "play":
                    fused = fusion._own_next(worlds, weights, best, GAME_POINTS)
                results = []
                for r in range(playouts):
                    branch = deal.copy()
                    branch.apply(best)
                    results.append(playout(branch, seat, 1_000_003 * seed + 7919 * r + len(view.trick_log)))
                record[kind] = (scores[best], fused, sum(results) / playouts)
            records.append(record)
        deal.apply(bots[seat].choose(view))
    return records


def summary(values: list[float]) -> str:
    """Mean and half-width of its 95% interval (the arena's t interval)."""
    mean, lo, hi = mean_interval(values)
    return f"{mean:+.3f} ±{(hi - lo) / 2:.3f} (n={len(values)})"


def main(argv: list[str] | None = None) -> None:
    """Play, branch and print the biases."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=positive, default=600)
    parser.add_argument("--playouts", type=positive, default=3)
    parser.add_argument("--workers", type=positive, default=1)
    parser.add_argument("--seed", type=int, default=70000)
    args = parser.parse_args(argv)
    jobs = [(args.seed + k, args.playouts) for k in range(args.deals)]
    plain: dict[str, list[float]] = defaultdict(list)
    fused: dict[str, list[float]] = defaultdict(list)
    for records in run_jobs(play, jobs, args.workers, chunksize=2, every=20):
        for rec in records:
            est_play, _, real_play = rec["play"]
            for kind in KINDS:
                if kind in rec:
                    est, fusion_est, real = rec[kind]
                    plain[kind].append((real - real_play) - (est - est_play))
                    fused[kind].append((real - real_play) - (fusion_est - est_play))
    for kind in KINDS:
        if plain[kind]:
            print(f"{kind:9s} against playing on: PIMC {summary(plain[kind])}; fusion repair "
                  f"{summary(fused[kind])}")


if __name__ == "__main__":
    run(main)
