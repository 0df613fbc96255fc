#!/usr/bin/env python3
"""OpenSpiel's ISMCTS bot plays bummerl's random bot in python_schnapsen (``pip install 'bummerl[rl]'``).

    python examples/openspiel_ismcts.py --deals 20 --simulations 100 --rules standard

Deals alternate the seats. Each deal's seed is split into independent ones for the chance outcomes (the
dealer and the shuffle), the rollouts, ISMCTS's choices, its resampling of the hidden cards and the
opponent: the opponent seeded with the deal's seed itself would draw its choices from the very numbers
that shuffled the deck (its k-th choice a function of a dealt card). So a run is repeatable: the same
``--seed`` gives the same deals and results. Prints ISMCTS's mean game points per deal and its share of
deals won.
"""

from __future__ import annotations

import argparse
import time

from bummerl.adapters import rl_missing

try:
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import ismcts, mcts
except ImportError as missing:  # the base install: say which extra, not a traceback
    raise SystemExit(str(rl_missing(missing))) from None

from bummerl.adapters.openspiel import GAME_NAME, play_deal
from bummerl.bots import make_bot


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--simulations", type=int, default=100, help="ISMCTS simulations per decision")
    parser.add_argument("--rules", default="standard", help="a preset")
    parser.add_argument("--opponent", default="random", help="the bummerl bot ISMCTS plays")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    game = pyspiel.load_game(f"{GAME_NAME}(rules={args.rules})")
    points: list[float] = []
    start = time.perf_counter()
    for deal in range(args.deals):
        chance, rollouts, choices, resampling, opponent = (
            int(s) for s in np.random.SeedSequence([args.seed, deal]).generate_state(5))
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(rollouts))
        searcher = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=args.simulations,
                                    random_state=np.random.RandomState(choices))
        # ISMCTS's own resampler draws from a sampler seeded by the machine at every call: not repeatable.
        sampler = pyspiel.UniformProbabilitySampler(resampling >> 1, 0.0, 1.0)  # (a C int)
        searcher.set_resampler(lambda state, player, sampler=sampler: state.resample_from_infostate(player,
                                                                                                     sampler))
        other = make_bot(args.opponent, seed=opponent)
        seat = deal % 2
        end = play_deal(game, (searcher, other) if seat == 0 else (other, searcher), chance)
        points.append(end.returns()[seat])
    seconds = time.perf_counter() - start
    mean = sum(points) / len(points)
    won = sum(p > 0 for p in points)
    print(f"ISMCTS ({args.simulations} simulations) vs {args.opponent}, {args.deals} deals, "
          f"rules {args.rules}: {mean:+.2f} game points per deal, won {won} of {args.deals} "
          f"({seconds:.1f} s)")


if __name__ == "__main__":
    main()
