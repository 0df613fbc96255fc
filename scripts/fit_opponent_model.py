"""Fit bummerl.bots.opponent_model's card-play model to self-play, and write its JSON data file.

Four steps, all reproducible from ``--seed``:

1. *Play*: self-play deals of the standard preset per bot of ``--bots`` (default 268 of ``expert-v1``,
   the opponent that matters, and 1000 of ``pimc``, ten times cheaper), every bot seeded from the seed
   and the deal's number. The deals (seed, bot, actions) are kept in ``--games`` (JSON) and reused.
2. *Extract*: each deal's card plays, from the view the other seat has at the end (the same extraction
   :class:`~bummerl.bots.opponent_model.ModelExpert` uses in play), with the player's true hand then.
3. *Fit*: the weights of the conditional logit ``P(card | hand, public) ∝ exp(w · f(card))`` by maximum
   likelihood (Newton's method, numpy, a small ridge), on the deals not held out; every fifth deal of
   each bot is held out and the held-out log-likelihood per decision is printed against uniform over the
   legal cards (today's inference says nothing about which legal card is played: for card play it *is*
   uniform over the legal cards).
4. *Belief check*: on the held-out deals of ``--belief``, how well the weighted worlds predict where the
   hidden cards are (:func:`beliefs`), with today's inference alone and times the model at two tempers.

    python scripts/fit_opponent_model.py --bots expert-v1:268,pimc:1000 --workers 2 --seed 16000 \\
        --games /tmp/h3_games.json --out src/bummerl/data/opponent_model.json
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import numpy as np
from selfplay_jobs import run_jobs

from bummerl.actions import Action
from bummerl.arena.match import play_deal
from bummerl.bots import make_bot
from bummerl.bots.inference import world_weight
from bummerl.bots.opponent_model import (
    FEATURES,
    OpponentModel,
    features,
    legal_cards,
    model_weight,
    opponent_plays,
)
from bummerl.cards import cards_in
from bummerl.engine import Deal
from bummerl.rules import Rules
from bummerl.scripting import positive, run
from bummerl.search.worlds import worlds
from bummerl.view import View

Game = tuple[int, str, list[int]]


def play(job: tuple[int, str]) -> Game:
    """One self-play deal: its seed, the bot, its actions' codes."""
    seed, bot = job
    deal = Deal.random(Rules.preset("standard"), seed)
    play_deal(deal, (make_bot(bot, 2 * seed), make_bot(bot, 2 * seed + 1)))
    return seed, bot, [a.code for a in deal.history]


def bots(spec: str) -> list[tuple[str, int]]:
    """``expert-v1:600,pimc:2000`` as [("expert-v1", 600), ("pimc", 2000)]."""
    out = []
    for item in spec.split(","):
        name, _, deals = item.partition(":")
        out.append((name.strip(), int(deals)))
    return out


def games(args: argparse.Namespace) -> list[Game]:
    """Every deal asked for, from ``--games`` where it has them, else played."""
    path: Path | None = args.games
    known: dict[str, list[int]] = json.loads(path.read_text()) if path and path.exists() else {}
    jobs = [(args.seed + k, bot) for bot, deals in bots(args.bots) for k in range(deals)]
    todo = [j for j in jobs if f"{j[1]}/{j[0]}" not in known]
    if todo:
        print(f"{len(todo)} deals to play", file=sys.stderr)
        try:
            for seed, bot, codes in run_jobs(play, todo, args.workers, chunksize=2, every=20):
                known[f"{bot}/{seed}"] = codes
        finally:
            if path:
                path.write_text(json.dumps(known))
    return [(seed, bot, known[f"{bot}/{seed}"]) for seed, bot in jobs]


#: One decision: the features of each legal card (the chosen one first), and the deal's bot and seed.
Decision = tuple[list[list[float]], str, int]


def decisions(seed: int, bot: str, codes: list[int]) -> list[Decision]:
    """The card plays of a deal with more than one legal card, as the model sees them: extracted from
    the other seat's view at the end (:func:`opponent_plays`), with the player's true hand then."""
    deal = Deal.random(Rules.preset("standard"), seed)
    hands: dict[tuple[int, int], int] = {}  # (player, trick) -> its hand before its play
    for code in codes:
        action = Action.from_code(code)
        if action.kind == "play":
            hands[(deal.to_move, len(deal.trick_log))] = deal.hands[deal.to_move]
        deal.apply(action)
    out: list[Decision] = []
    for player in (0, 1):
        ops = opponent_plays(View.of(deal, 1 - player))
        for play in ops.plays:
            hand = hands[(player, play.trick)]
            legal = legal_cards(ops, play, hand)
            if play.marriage or legal.bit_count() < 2:
                continue
            if not legal >> play.card & 1:
                raise AssertionError(f"deal {seed}: {play} not legal from {hand:b}")
            rows = [features(play.card, hand, play, ops.trump)]
            rows += [features(int(c), hand, play, ops.trump) for c in cards_in(legal) if c != play.card]
            out.append((rows, bot, seed))
    return out


def arrays(ds: list[Decision]) -> tuple[np.ndarray, np.ndarray]:
    """The decisions as a (decisions, most legal cards, features) array (zero-padded) and its mask."""
    most = max(len(rows) for rows, _, _ in ds)
    x = np.zeros((len(ds), most, len(FEATURES)))
    mask = np.zeros((len(ds), most), dtype=bool)
    for i, (rows, _, _) in enumerate(ds):
        x[i, : len(rows)] = rows
        mask[i, : len(rows)] = True
    return x, mask


def log_likelihoods(w: np.ndarray, x: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Each decision's log-probability of the card played (index 0) under weights ``w``."""
    s = np.where(mask, x @ w, -np.inf)
    top = s.max(axis=1, keepdims=True)
    return s[:, 0] - (top[:, 0] + np.log(np.exp(s - top).sum(axis=1)))


def fit(x: np.ndarray, mask: np.ndarray, ridge: float) -> np.ndarray:
    """The maximum-likelihood weights (a ridge of ``ridge`` times the squared weights), Newton's method."""
    w = np.zeros(x.shape[2])
    for _ in range(50):
        s = np.where(mask, x @ w, -np.inf)
        p = np.exp(s - s.max(axis=1, keepdims=True))
        p /= p.sum(axis=1, keepdims=True)
        mean = np.einsum("dk,dkf->df", p, x)
        grad = (x[:, 0] - mean).sum(axis=0) - 2 * ridge * w
        centred = x - mean[:, None, :]
        hess = -np.einsum("dk,dkf,dkg->fg", p, centred, centred) - 2 * ridge * np.eye(len(w))
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    return w


#: Worlds per decision for the belief check, and the tempers compared there.
BELIEF_WORLDS = 100
TEMPERS = (0.5, 1.0)


def beliefs(job: tuple[int, str, list[int], OpponentModel]) -> list[list[float]]:
    """For each decision of a deal with hidden cards: the mean log-loss, over the cards the decider does
    not see, of its belief that the opponent holds each (the weighted share of worlds where it does),
    with the worlds weighted: not at all, by today's inference, and by today's inference times the
    model at each of :data:`TEMPERS`."""
    seed, _, codes, model = job
    deal = Deal.random(Rules.preset("standard"), seed)
    out = []
    for k, code in enumerate(codes):
        view = View.of(deal, deal.to_move)
        if len(view.legal_actions) > 1 and (view.talon_open or view.closed_by >= 0):
            opp = 1 - deal.to_move
            opp_hand = deal.hands[opp]
            ws = worlds(view, samples=BELIEF_WORLDS, seed=seed * 100 + k)
            hard = world_weight(view)
            base = [hard(d) for d in ws.deals]
            rows = [[1.0] * len(base), base]
            for t in TEMPERS:
                weigh = model_weight(view, model, seed=k, temper=t)
                rows.append([b * weigh(d) if b else 0.0 for b, d in zip(base, ws.deals, strict=True)])
            unseen = [c for c in cards_in(view.unseen_mask)]
            losses = []
            for weights in rows:
                mass = sum(weights)
                if not mass:
                    weights, mass = rows[1], sum(rows[1])
                loss = 0.0
                for c in unseen:
                    p = sum(w for w, d in zip(weights, ws.deals, strict=True) if d.hands[opp] >> c & 1)
                    p = min(max(p / mass, 0.01), 0.99)
                    loss -= math.log(p if opp_hand >> c & 1 else 1 - p)
                losses.append(loss / len(unseen))
            out.append(losses)
        deal.apply(Action.from_code(code))
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bots", default="expert-v1:268,pimc:1000", help="bot:deals,... of self-play")
    parser.add_argument("--workers", type=positive, default=1)
    parser.add_argument("--seed", type=int, default=16000)
    parser.add_argument("--games", type=Path, help="a JSON file keeping the played deals")
    parser.add_argument("--ridge", type=float, default=1.0, help="the ridge on the squared weights")
    parser.add_argument("--belief", default="expert-v1",
                        help="the bot whose held-out deals the belief check uses ('' skips it)")
    parser.add_argument("--out", type=Path, help="write the fitted model here")
    args = parser.parse_args(argv)
    played = games(args)
    train: list[Decision] = []
    held: list[Decision] = []
    for seed, bot, codes in played:
        (held if (seed - args.seed) % 5 == 0 else train).extend(decisions(seed, bot, codes))
    x, mask = arrays(train)
    w = fit(x, mask, args.ridge)
    report: dict[str, Any] = {"seed": args.seed, "bots": args.bots, "ridge": args.ridge,
                              "train_decisions": len(train)}
    print(f"{len(played)} deals; {len(train)} decisions to fit, {len(held)} held out (every fifth deal)")
    for bot, _ in bots(args.bots):
        part = [d for d in held if d[1] == bot]
        if not part:
            continue
        hx, hmask = arrays(part)
        model = float(log_likelihoods(w, hx, hmask).mean())
        uniform = float(-np.log(hmask.sum(axis=1)).mean())
        print(f"held out, {bot:10s} {len(part):6d} decisions: log-likelihood per decision {model:+.4f} "
              f"(uniform over the legal cards {uniform:+.4f}; gain {model - uniform:+.4f} nats)")
        report[f"held_out_{bot}"] = {"decisions": len(part), "model": round(model, 4),
                                     "uniform": round(uniform, 4)}
    for name, value in zip(FEATURES, w, strict=True):
        print(f"  {name:20s} {value:+.3f}")
    fitted = OpponentModel(tuple(round(float(v), 4) for v in w), report)
    if args.belief:
        jobs = [(seed, bot, codes, fitted) for seed, bot, codes in played
                if (seed - args.seed) % 5 == 0 and bot == args.belief]
        rows = [r for res in run_jobs(beliefs, jobs, args.workers, chunksize=2, every=20) for r in res]
        names = ["uniform worlds", "today's inference"] + [f"inference x model^{t:g}" for t in TEMPERS]
        print(f"belief check, held-out {args.belief} deals, {len(rows)} decisions: mean log-loss per unseen "
              "card of 'the opponent holds it' (lower is better)")
        for j, name in enumerate(names):
            print(f"  {name:26s} {sum(r[j] for r in rows) / len(rows):.4f}")
        report["belief_" + args.belief] = {n: round(sum(r[j] for r in rows) / len(rows), 4)
                                          for j, n in enumerate(names)} | {"decisions": len(rows)}
    if args.out:
        args.out.write_text(json.dumps(fitted.to_json(), indent=1) + "\n")
        print(f"wrote {args.out}")


if __name__ == "__main__":
    run(main)
