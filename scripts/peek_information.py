"""How much of the opponent's hand ``k`` known cards tell, in the units of the opponent-model belief check.

At every decision of seeded self-play deals (standard rules) where cards are hidden and there is a choice,
the decider's uncertainty about which unseen cards the opponent holds is scored as in
``fit_opponent_model.py``'s belief check: the mean log-loss, over the unseen cards, of the belief that the
opponent holds each (clipped to [0.01, 0.99]). Here the beliefs are exact: with ``n`` unseen cards of which
``h`` are in the opponent's hand, uniform worlds believe ``h / n`` of each; told ``k`` of them
(:class:`bummerl.bots.cheater.PeekingBot`), the decider is sure of those and believes ``(h - k) / (n - k)``
of the rest. Printed: the mean log-loss per unseen card for each ``k`` and the share of the uniform
worlds' loss that ``k`` known cards remove, next to what reading the opponent's play removes (session 9:
today's inference 2.2%, the learned model 3.4%).

    python scripts/peek_information.py --deals 400 --bot pimc --seed 16000
"""

from __future__ import annotations

import argparse
import math

from bummerl import Deal, Rules, View
from bummerl.bots import make_bot
from bummerl.scripting import positive, run


def loss(p: float, held: bool) -> float:
    """The log-loss of believing ``p`` that the opponent holds a card, clipped as the belief check does."""
    p = min(max(p, 0.01), 0.99)
    return -math.log(p if held else 1 - p)


def per_card_loss(n: int, h: int, k: int) -> float:
    """Mean log-loss per unseen card: ``n`` unseen, ``h`` of them held by the opponent, ``k`` of those told.

    >>> round(per_card_loss(14, 5, 0), 4)  # the first lead of a standard deal, nothing told
    0.6518
    >>> per_card_loss(14, 5, 1) < per_card_loss(14, 5, 0)
    True
    """
    k = min(k, h)
    rest = n - k
    p = (h - k) / rest if rest else 0.0
    total = k * loss(1.0, True) + (h - k) * loss(p, True) + (n - h) * loss(p, False)
    return total / n


def decisions(bot: str, deals: int, seed: int) -> list[tuple[int, int]]:
    """``(n, h)`` at every decision with hidden cards and a choice, in ``deals`` self-play deals."""
    rows = []
    for s in range(seed, seed + deals):
        deal = Deal.random(Rules.preset("standard"), s)
        bots = [make_bot(bot, 2 * s), make_bot(bot, 2 * s + 1)]
        while deal.outcome is None:
            view = View.of(deal, deal.to_move)
            unseen = view.unseen_mask
            if len(view.legal_actions) > 1 and unseen and (view.talon_open or view.closed_by >= 0):
                rows.append((unseen.bit_count(), (deal.hands[1 - view.seat] & unseen).bit_count()))
            deal.apply(bots[deal.to_move].choose(view))
    return rows


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=positive, default=400)
    parser.add_argument("--bot", default="pimc", help="the bot whose self-play gives the decisions")
    parser.add_argument("--seed", type=int, default=16000)
    parser.add_argument("--cards", type=int, nargs="+", default=[0, 1, 2, 3, 5])
    args = parser.parse_args(argv)
    rows = decisions(args.bot, args.deals, args.seed)
    print(f"{len(rows)} decisions with hidden cards and a choice in {args.deals} {args.bot} self-play deals")
    base = sum(per_card_loss(n, h, 0) for n, h in rows) / len(rows)
    for k in args.cards:
        mean = sum(per_card_loss(n, h, k) for n, h in rows) / len(rows)
        removed = 1 - mean / base
        print(f"  {k} cards told: {mean:.4f} nats per unseen card, {removed:6.1%} of the uniform loss gone")
    print("  (reading the opponent's play, session 9: today's inference 2.2%, the learned model 3.4%)")


if __name__ == "__main__":
    run(main)
