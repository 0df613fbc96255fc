"""The omniscient-opponent error, measured exactly where it can be: the last card lead before the talon ends.

When the talon holds two cards (the face-down one and the trump card) and I lead a card, the trick's winner
draws the face-down card, the loser the trump card, and from then on every card is known: the rest is a
perfect-information game whose value the open-card solver gives exactly. Before the trick I cannot tell
apart the few worlds that place the unseen cards differently (six in standard Schnapsen). So the value of
each card lead against a given opponent is exact: in each of my worlds, the opponent's own answer, then
the solver. PIMC, and ``expert-v1``'s lookahead, value a lead as if the opponent answered in each world
with its open-card best, seeing my hand; ``expert-v1`` does not see it.

At each such decision of seeded ``expert-v1`` self-play deals (standard rules; the leader's card leads only,
decisions where it closed, married or exchanged are counted and left out), every card lead is valued
against ``expert-v1``'s real answer in each world (mean game points over my worlds, all equally likely:
the inference is left out). Printed, per decision and per deal: how much the lead that is best against
those answers gains over the lead ``expert-v1`` played, and how often the two differ. It bounds what any
repair of the omniscient-opponent assumption can gain at this decision against ``expert-v1`` (it is told
how ``expert-v1`` answers, which a fair player can only model). ``--answerer BOT`` values the same
decisions against another bot's answers instead (a weaker one errs more often).

    python scripts/last_lead_regret.py --deals 600 --workers 2 --seed 26000 [--answerer hard]
"""

from __future__ import annotations

import argparse

from selfplay_jobs import run_jobs

from bummerl import Deal, Rules, View
from bummerl.actions import Action
from bummerl.arena.stats import mean_interval
from bummerl.bots import make_bot
from bummerl.bots.base import Bot
from bummerl.scripting import positive, run
from bummerl.search import solve
from bummerl.search.worlds import iter_worlds

BOT = "expert-v1"
#: Per decision: the mean value (game points, over my worlds) of the lead played and of the best lead
#: against the opponent's real answers, and whether the lead played is the omniscient-opponent best.
Row = tuple[float, float, bool]


def value_for(deal: Deal, player: int) -> float:
    """``player``'s exact game points from here (the deal's result if it is over)."""
    if deal.outcome is not None:
        return float(deal.outcome.value_for(player))
    v = solve(deal)
    return float(v if deal.to_move == player else -v)


def last_lead(view: View, answerer: Bot) -> dict[Action, tuple[float, float]]:
    """Each card lead's mean value over my worlds: against ``answerer``'s answers, and against the
    opponent's open-card best (the omniscient opponent)."""
    me = view.seat
    leads = [a for a in view.legal_actions if a.kind == "play"]
    worlds = list(iter_worlds(view))
    real = dict.fromkeys(leads, 0.0)
    omniscient = dict.fromkeys(leads, 0.0)
    for world in worlds:
        for a in leads:
            after = world.copy()
            after.apply(a)
            value = value_for(after, me)  # the opponent answers with its open-card best (or it is over)
            omniscient[a] += value
            if after.outcome is None:
                after.apply(answerer.choose(View.of(after, after.to_move)))
                value = value_for(after, me)
            real[a] += value
    n = len(worlds)
    return {a: (real[a] / n, omniscient[a] / n) for a in leads}


def play(job: tuple[int, str]) -> tuple[list[Row], int]:
    """One self-play deal: the rows of its last card leads (valued against ``answerer``'s answers), and
    how many such leads were no card."""
    seed, answerer = job
    deal = Deal.random(Rules.preset("standard"), seed)
    bots = [make_bot(BOT, 2 * seed), make_bot(BOT, 2 * seed + 1)]
    rows: list[Row] = []
    other = 0
    while deal.outcome is None:
        seat = deal.to_move
        view = View.of(deal, seat)
        choice = bots[seat].choose(view)
        last = view.talon_open and view.talon_size == 2 and view.lead_card is None
        if last and len(view.legal_actions) > 1:
            if choice.kind != "play":
                other += 1
            else:
                values = last_lead(view, make_bot(answerer, 2 * seed + 1 - seat))
                best = max(v[0] for v in values.values())
                omni = max(v[1] for v in values.values())
                rows.append((values[choice][0], best, values[choice][1] >= omni - 1e-9))
        deal.apply(choice)
    return rows, other


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=positive, default=600)
    parser.add_argument("--workers", type=positive, default=2)
    parser.add_argument("--seed", type=int, default=26000)
    parser.add_argument("--answerer", default=BOT, help="the bot whose answers the leads are valued against")
    args = parser.parse_args(argv)
    rows: list[Row] = []
    other = 0
    jobs = [(seed, args.answerer) for seed in range(args.seed, args.seed + args.deals)]
    for r, o in run_jobs(play, jobs, args.workers, chunksize=2, every=20):
        rows.extend(r)
        other += o
    gains = [best - played for played, best, _ in rows]
    mean, lo, hi = mean_interval(gains)
    print(f"{args.deals} {BOT} self-play deals: {len(rows)} last card leads before the talon ran out "
          f"({other} more such decisions closed, married or exchanged)")
    print(f"  the lead played is the omniscient-opponent best in {sum(r[2] for r in rows)}/{len(rows)}")
    differ = sum(g > 1e-9 for g in gains)
    print(f"  the best lead against {args.answerer}'s real answers differs in {differ}/{len(rows)}")
    print(f"  its gain over the lead played: {mean:+.4f} [{lo:+.4f}, {hi:+.4f}] game points per decision, "
          f"{sum(gains) / args.deals:+.4f} per deal")


if __name__ == "__main__":
    run(main)
