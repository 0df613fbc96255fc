#!/usr/bin/env python3
"""A random policy and a bummerl bot play through the PettingZoo environments (``pip install 'bummerl[rl]'``).

    python examples/pettingzoo_random_vs_bot.py --bot heuristic --deals 200 --bummerls 20 --rules standard

``player_0`` samples uniformly from its action mask (what an untrained RL policy does); ``player_1`` is a
bummerl bot, handed its seat's View by ``env.view(agent)``. Seats are fixed, so the dealer alternates with the
seed. Prints the game points each side won per deal, and Bummerls won.
"""

from __future__ import annotations

import argparse
from typing import Any

from bummerl.adapters import rl_missing

try:
    import numpy as np
except ImportError as missing:  # the base install: say which extra, not a traceback
    raise SystemExit(str(rl_missing(missing))) from None

from bummerl.adapters.encoding import action_index
from bummerl.adapters.pettingzoo import DealEnv, bummerl_env, deal_env
from bummerl.bots import make_bot


def play(env: DealEnv, seed: int, bot: Any, rng: np.random.Generator) -> dict[str, float]:
    """One episode; return each agent's summed reward."""
    env.reset(seed=seed)
    totals = {"player_0": 0.0, "player_1": 0.0}
    for agent in env.agent_iter():
        observation, reward, termination, truncation, _ = env.last()
        totals[agent] += reward
        if termination or truncation:
            action = None
        elif agent == "player_0":  # the random policy: any index its mask allows
            action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        else:  # the bummerl bot sees its View, never the deal
            action = action_index(bot.choose(env.view(agent)))
        env.step(action)
    return totals


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bot", default="heuristic", help="the bummerl bot for player_1")
    parser.add_argument("--rules", default="standard", help="a preset")
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--bummerls", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    # The bot's seed is drawn apart from the episodes' (seeded with an episode's seed, e.g. --seed 0's first,
    # its random numbers would be the very ones that dealt that episode's cards).
    bot = make_bot(args.bot, seed=int(np.random.SeedSequence([args.seed, 1]).generate_state(1, np.uint64)[0]))
    for label, env, episodes in (("deal", deal_env(args.rules), args.deals),
                                 ("Bummerl", bummerl_env(args.rules), args.bummerls)):
        won = {"player_0": 0.0, "player_1": 0.0}
        wins = 0
        for episode in range(episodes):
            totals = play(env, args.seed * 100_003 + episode, bot, rng)
            for agent, total in totals.items():
                won[agent] += total
            game = env.episode.game
            wins += game is not None and game.winner == 1
        per = {agent: total / max(episodes, 1) for agent, total in won.items()}
        line = (f"{episodes} {label}s, rules {args.rules}: random policy {per['player_0']:+.2f}, "
                f"{args.bot} {per['player_1']:+.2f} game points per {label}")
        if label == "Bummerl":
            line += f"; {args.bot} won {wins} of {episodes} Bummerls"
        print(line)


if __name__ == "__main__":
    main()
