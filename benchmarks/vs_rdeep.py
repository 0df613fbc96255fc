"""bummerl's expert against the course platform's ``RdeepBot`` (PyPI ``schnapsen`` 0.0.5), whole Bummerls.

The deals are played in *their* engine (``SchnapsenGamePlayEngine``), under their rules, which bummerl's
preset ``vu`` describes (no closing, marriage points wait for the next won trick, a marriage leads the
king, the deal ends at 66). Our bot joins their engine through a bridge: a mirror ``Deal`` of preset
``vu``, dealt from the same cards, follows every move both bots make, and our bot chooses from the
mirror's view (its own cards, the public history, and the Bummerl score) one of the moves their engine
offers. At the end of every deal the mirror's result must equal their engine's (winner and game points),
else the run stops: that checks the bridge and the preset on every deal.

Bummerls to 7 are chained here (their package plays single deals), the dealer alternating; they come in
twins on the same sequence of decks with the seats swapped, so the luck of the cards is paired. Reported:
the expert's share of Bummerls won with a 95% Wilson interval, its net game points per deal with a 95%
interval, and both bots' time per decision.

``schnapsen`` is only needed here: if it is not importable, the script makes a virtual environment in the
temporary directory (``bummerl-vs-rdeep-venv``, reusing this Python's packages, so bummerl too), installs
``schnapsen==0.0.5`` there with pip, and runs itself again in it.

Usage: python benchmarks/vs_rdeep.py [--bummerls 500] [--seed 1] [--bot expert] [--samples 16] [--depth 4]
       [--workers 2] [--self-check DEALS] [--diagnose DEALS]

``--bot cheater`` seats the open-card yardstick (it is handed the mirror's true deal): what seeing every card
would win against RdeepBot, the ceiling for a fair player.
``--samples``/``--depth`` are RdeepBot's (16 and 4, as the course's own ``rdeep_game`` example);
``--self-check N`` plays N deals of their ``RandBot`` against itself through the mirror (a quick test of
the bridge, no bummerl bot involved).

``--diagnose N`` plays N single deals of our bot against RdeepBot and measures, instead of a match, where
the game points go: at every decision with a choice, what the action chosen loses against the open-card
best (the solver on the mirror's true deal; a fair player loses some of it to the hidden cards), per player,
for leads and answers; and at every answer of RdeepBot, how often ``medium`` and ``hard`` (asked on
RdeepBot's view) choose RdeepBot's card: how well a model of a weaker player predicts it.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from multiprocessing import Pool
from pathlib import Path
from random import Random
from typing import Any

from bummerl import Deal, Rules, View
from bummerl.actions import Action
from bummerl.arena.match import chooser
from bummerl.arena.stats import mean_interval, wilson
from bummerl.bots import make_bot
from bummerl.cards import CARDS
from bummerl.scripting import positive, run

PACKAGE = "schnapsen==0.0.5"
VENV = Path(tempfile.gettempdir()) / "bummerl-vs-rdeep-venv"
RULES = Rules.preset("vu")
TARGET = 7


def ensure_schnapsen(argv: Sequence[str]) -> None:
    """Import ``schnapsen``, or install it into a private venv and run this script there instead."""
    try:
        import schnapsen.game  # noqa: F401
    except ImportError:
        if os.environ.get("BUMMERL_VS_RDEEP_VENV"):
            raise SystemExit(f"error: {PACKAGE} is not importable even in {VENV}") from None
        python = VENV / "bin" / "python"
        done = VENV / ".installed"  # written last: a venv without it is a failed install, made again
        if not done.exists():
            print(f"installing {PACKAGE} into {VENV} (once)", file=sys.stderr)
            shutil.rmtree(VENV, ignore_errors=True)
            try:
                subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(VENV)],
                               check=True)
                subprocess.run([str(python), "-m", "pip", "install", "-q", PACKAGE], check=True)
            except (OSError, subprocess.CalledProcessError) as err:
                shutil.rmtree(VENV, ignore_errors=True)
                raise SystemExit(f"error: cannot install {PACKAGE} into {VENV}: {err}") from None
            done.write_text(PACKAGE + "\n")
        env = {**os.environ, "BUMMERL_VS_RDEEP_VENV": "1"}
        os.execve(str(python), [str(python), os.path.abspath(__file__), *argv], env)


# --------------------------------------------------------------------------- the bridge

def their_card(code: str) -> Any:
    """Their ``Card`` for one of ours (``"TH"``: ten of hearts)."""
    from schnapsen.deck import Card, Rank, Suit

    rank = {"A": Rank.ACE, "T": Rank.TEN, "K": Rank.KING, "Q": Rank.QUEEN, "J": Rank.JACK}[code[0]]
    suit = {"C": Suit.CLUBS, "D": Suit.DIAMONDS, "H": Suit.HEARTS, "S": Suit.SPADES}[code[1]]
    return Card.get_card(rank, suit)


def our_code(card: Any) -> str:
    """Our card code for one of theirs."""
    from schnapsen.deck import Rank, Suit

    rank = {Rank.ACE: "A", Rank.TEN: "T", Rank.KING: "K", Rank.QUEEN: "Q", Rank.JACK: "J"}[card.rank]
    suit = {Suit.CLUBS: "C", Suit.DIAMONDS: "D", Suit.HEARTS: "H", Suit.SPADES: "S"}[card.suit]
    return rank + suit


def our_actions(move: Any) -> list[str]:
    """Their move as our actions: a marriage is ours ``marry S`` and then the card it leads."""
    if move.is_trump_exchange():
        return ["exchange"]
    if move.is_marriage():
        marriage = move.as_marriage()
        return [f"marry {our_code(marriage.king_card)[1]}",
                f"play {our_code(marriage.underlying_regular_move().card)}"]
    return [f"play {our_code(move.as_regular_move().card)}"]


class Mirror:
    """Our ``vu`` deal that follows every move made in their engine."""

    def __init__(self, deal: Deal) -> None:
        self.deal = deal

    def follow(self, move: Any) -> None:
        for text in our_actions(move):
            action = Action.parse(text)
            if not self.deal.is_legal(action):
                raise AssertionError(f"their move {move} is illegal in the mirror ({text}): a bridge bug")
            self.deal.apply(action)


@dataclass
class Seat:
    """One player at their table: ``choose(perspective, leader_move)`` gives their ``Move``; every move
    it makes is followed by the mirror, and its thinking time recorded (seconds per decision)."""

    mirror: Mirror
    choose: Any
    times: list[float] = field(default_factory=list)

    def bot(self) -> Any:
        from schnapsen.game import Bot

        seat = self

        class Bridged(Bot):
            def get_move(self, perspective: Any, leader_move: Any) -> Any:
                start = time.perf_counter()
                move = seat.choose(perspective, leader_move)
                seat.times.append(time.perf_counter() - start)
                seat.mirror.follow(move)
                return move

        return Bridged()


def ours(bot: Any, mirror: Mirror, seat: int, score: list[int]) -> Any:
    """A chooser for a bummerl bot: it decides on the mirror's view and answers with their equal move."""

    def choose(perspective: Any, leader_move: Any) -> Any:
        view = View.of(mirror.deal, seat, (score[0], score[1]))
        # As in the arena, the cheater (a yardstick, never a player) is handed the true deal: the mirror's.
        action = str(chooser(bot, mirror.deal)(view))
        for move in perspective.valid_moves():
            if our_actions(move)[0] == action:
                return move
        raise AssertionError(f"{action} has no move in their engine: the bridge is wrong")

    return choose


def theirs(bot: Any) -> Any:
    """A chooser for one of their bots."""
    return lambda perspective, leader_move: bot.get_move(perspective, leader_move)


def play_deal(deal: Deal, mirror: Mirror, seats: tuple[Seat, Seat]) -> tuple[int, int]:
    """Play ``deal`` (the mirror's, not yet begun) in their engine, seat 0 and 1 as in ours; (winner seat,
    game points), checked against the mirror's result."""
    from schnapsen.game import BotState, GameState, Hand, SchnapsenGamePlayEngine, Talon

    leader = 1 - deal.dealer
    bots = [seats[p].bot() for p in (0, 1)]
    talon = Talon([their_card(str(c)) for c in deal.talon] + [their_card(str(CARDS[deal.trump_card]))])
    hands = [Hand([their_card(str(c)) for c in deal.hand(p)], max_size=5) for p in (0, 1)]
    state = GameState(leader=BotState(implementation=bots[leader], hand=hands[leader]),
                      follower=BotState(implementation=bots[1 - leader], hand=hands[1 - leader]),
                      talon=talon, previous=None)
    winner_bot, points, _ = SchnapsenGamePlayEngine().play_game_from_state(state, leader_move=None)
    winner = bots.index(winner_bot)
    outcome = mirror.deal.outcome
    if outcome is None or (outcome.winner, outcome.game_points) != (winner, points):
        raise AssertionError(f"their engine: seat {winner} wins {points}; the mirror: {outcome}")
    return winner, points


# --------------------------------------------------------------------------- Bummerls

@dataclass
class BummerlResult:
    expert_won: bool
    deal_points: list[int]  # the expert's signed game points per deal
    expert_times: list[float]
    rdeep_times: list[float]


def deck_for(seed: int, twin: int, k: int) -> list[str]:
    """The k-th deck of a twin pair of Bummerls."""
    codes = sorted(str(c) for c in Deal.random(RULES, 0).deck)
    Random(f"{seed}/vs-rdeep/{twin}/{k}").shuffle(codes)
    return codes


def play_bummerl(job: tuple[int, int, int, str, int, int]) -> BummerlResult:
    """One Bummerl: twin pair ``twin``, the expert in seat ``expert_seat`` (0 or 1)."""
    from schnapsen.bots import RdeepBot

    seed, twin, expert_seat, bot_name, samples, depth = job
    expert = make_bot(bot_name, Random(f"{seed}/expert/{twin}/{expert_seat}").getrandbits(62))
    rdeep = RdeepBot(num_samples=samples, depth=depth, rand=Random(f"{seed}/rdeep/{twin}/{expert_seat}"))
    needed = [TARGET, TARGET]
    points: list[int] = []
    times: tuple[list[float], list[float]] = ([], [])
    k = 0
    while min(needed) > 0:
        deal = Deal.from_deck(RULES, deck_for(seed, twin, k), dealer=(twin + k) % 2)
        mirror = Mirror(deal)
        mine, other = Seat(mirror, ours(expert, mirror, expert_seat, needed)), Seat(mirror, theirs(rdeep))
        winner, gp = play_deal(deal, mirror, (mine, other) if expert_seat == 0 else (other, mine))
        needed[winner] -= gp
        points.append(gp if winner == expert_seat else -gp)
        times[0].extend(mine.times)
        times[1].extend(other.times)
        k += 1
    return BummerlResult(needed[expert_seat] <= 0, points, times[0], times[1])


def self_check(deals: int, seed: int) -> None:
    """RandBot against RandBot through the mirror: every deal's result must agree."""
    from schnapsen.bots import RandBot

    rng = Random(seed)
    for i in range(deals):
        deal = Deal.from_deck(RULES, deck_for(seed, -1, i), dealer=i % 2)
        mirror = Mirror(deal)
        bots = (RandBot(Random(rng.getrandbits(32))), RandBot(Random(rng.getrandbits(32))))
        seats = (Seat(mirror, theirs(bots[0])), Seat(mirror, theirs(bots[1])))
        play_deal(deal, mirror, seats)
    print(f"self-check: {deals} deals of RandBot against RandBot, their engine and the vu mirror agree on "
          f"every move and every result")


#: The players of :func:`diagnose` and their kinds of decision.
_KINDS = ("lead", "answer")


def diagnose(deals: int, seed: int, bot_name: str, samples: int, depth: int) -> None:
    """Single deals of ``bot_name`` against RdeepBot: open-card losses per player and kind of decision, and
    how often ``medium`` and ``hard`` predict RdeepBot's answers."""
    from schnapsen.bots import RdeepBot

    from bummerl.search import solve_actions

    losses: dict[tuple[str, str], list[int]] = {(who, k): [] for who in ("ours", "rdeep") for k in _KINDS}
    models = {name: make_bot(name, seed) for name in ("medium", "hard")}
    predicted = dict.fromkeys(models, 0)
    points: list[int] = []
    for i in range(deals):
        deal = Deal.from_deck(RULES, deck_for(seed, -3, i), dealer=i % 2)
        mirror = Mirror(deal)
        theirs_seat = i % 2
        rdeep = RdeepBot(num_samples=samples, depth=depth, rand=Random(f"{seed}/diagnose/{i}"))

        def record(who: str, text: str, mirror: Mirror = mirror) -> None:
            now = mirror.deal
            if len(now.legal_actions()) < 2:
                return
            values = solve_actions(now)
            action = Action.parse(text)
            losses[who, _KINDS[now.lead_card is not None]].append(max(values.values()) - values[action])
            if who == "rdeep" and now.lead_card is not None:
                view = View.of(now, now.to_move)
                for name, model in models.items():
                    predicted[name] += model.choose(view) == action

        def rdeep_move(perspective: Any, leader_move: Any, rdeep: Any = rdeep) -> Any:
            move = rdeep.get_move(perspective, leader_move)
            record("rdeep", our_actions(move)[0])
            return move

        inner = ours(make_bot(bot_name, Random(f"{seed}/diagnose-ours/{i}").getrandbits(62)), mirror,
                     1 - theirs_seat, [TARGET, TARGET])

        def our_move(perspective: Any, leader_move: Any, inner: Any = inner) -> Any:
            move = inner(perspective, leader_move)
            record("ours", our_actions(move)[0])
            return move

        seats = [Seat(mirror, our_move), Seat(mirror, our_move)]
        seats[theirs_seat] = Seat(mirror, rdeep_move)
        winner, gp = play_deal(deal, mirror, (seats[0], seats[1]))
        points.append(-gp if winner == theirs_seat else gp)
    mean, lo, hi = mean_interval(points)
    print(f"{deals} single deals of {bot_name} against RdeepBot(num_samples={samples}, depth={depth}), "
          f"rules vu, seed {seed}: {bot_name} nets {mean:+.3f} [{lo:+.3f}, {hi:+.3f}] game points per deal")
    print("what the action chosen loses against the open-card best, in game points per deal "
          "(decisions with a choice; those that lose anything):")
    for (who, kind), lost in losses.items():
        name = bot_name if who == "ours" else "RdeepBot"
        print(f"  {name:>10} {kind:6}: {sum(lost) / deals:.3f} ({len(lost)} decisions, "
              f"{sum(x > 0 for x in lost)} lose)")
    answers = len(losses["rdeep", "answer"])
    for name, hits in predicted.items():
        print(f"  RdeepBot's answer is {name}'s choice on its view: {hits}/{answers} = {hits / answers:.1%}")
    best = sum(x == 0 for x in losses["rdeep", "answer"])
    print(f"  RdeepBot's answer is an open-card best one (ties count): {best}/{answers} "
          f"= {best / answers:.1%}")


def quantiles(times: list[float]) -> str:
    if not times:
        return "-"
    ordered = sorted(times)
    p95 = statistics.quantiles(ordered, n=20, method="inclusive")[-1] if len(ordered) > 1 else ordered[0]
    return f"median {statistics.median(ordered) * 1e3:.0f} ms, p95 {p95 * 1e3:.0f} ms"


def main(argv: list[str] | None = None) -> None:
    args_list = sys.argv[1:] if argv is None else argv
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bummerls", type=positive, default=500, help="Bummerls (even: twin pairs)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bot", default="expert", help="our bot (a registered name)")
    parser.add_argument("--samples", type=positive, default=16, help="RdeepBot's samples per move")
    parser.add_argument("--depth", type=positive, default=4, help="RdeepBot's rollout depth in tricks")
    parser.add_argument("--workers", "-j", type=positive, default=1)
    parser.add_argument("--self-check", type=positive, metavar="DEALS",
                        help="only test the bridge on DEALS deals")
    parser.add_argument("--diagnose", type=positive, metavar="DEALS",
                        help="instead of a match: where the game points go in DEALS single deals")
    args = parser.parse_args(args_list)
    if args.bummerls < 2 or args.bummerls % 2:
        parser.error("--bummerls must be even and at least 2")
    for name in ("self_check", "diagnose"):
        value = getattr(args, name)
        if value is not None and value < 1:
            parser.error(f"--{name.replace('_', '-')} must be at least 1 deal")
    if args.workers < 1:
        parser.error("--workers must be at least 1")
    ensure_schnapsen(args_list)
    from importlib import metadata

    if args.self_check is not None:
        self_check(args.self_check, args.seed)
        return
    if args.diagnose is not None:
        diagnose(args.diagnose, args.seed, args.bot, args.samples, args.depth)
        return
    print(f"{args.bot} against RdeepBot(num_samples={args.samples}, depth={args.depth}) of schnapsen "
          f"{metadata.version('schnapsen')}, their engine, rules vu; {args.bummerls} Bummerls to 7 "
          f"(twins on the same decks, seats swapped), seed {args.seed}, {args.workers} worker(s)")
    jobs = [(args.seed, twin, seat, args.bot, args.samples, args.depth)
            for twin in range(args.bummerls // 2) for seat in (0, 1)]
    start = time.perf_counter()
    results: list[BummerlResult] = []
    with Pool(args.workers) as pool:
        for i, result in enumerate(pool.imap(play_bummerl, jobs), 1):
            results.append(result)
            if i % 20 == 0 or i == len(jobs):
                won = sum(r.expert_won for r in results)
                print(f"  {i} Bummerls: {args.bot} won {won} ({100 * won / i:.1f}%), "
                      f"{time.perf_counter() - start:.0f} s", file=sys.stderr, flush=True)
    won = sum(r.expert_won for r in results)
    lo, hi = wilson(won, len(results))
    deals = [p for r in results for p in r.deal_points]
    mean, plo, phi = mean_interval(deals)
    print(f"Bummerls won by {args.bot}: {won}/{len(results)} = {100 * won / len(results):.1f}% "
          f"[{100 * lo:.1f}, {100 * hi:.1f}] (95% Wilson)")
    print(f"deals: {len(deals)}, won by {args.bot} {sum(p > 0 for p in deals)} "
          f"({100 * sum(p > 0 for p in deals) / len(deals):.1f}%); net game points per deal "
          f"{mean:+.2f} [{plo:+.2f}, {phi:+.2f}]")
    print(f"time per decision: {args.bot} {quantiles([t for r in results for t in r.expert_times])}; "
          f"RdeepBot {quantiles([t for r in results for t in r.rdeep_times])}")
    print(f"{time.perf_counter() - start:.0f} s wall")


if __name__ == "__main__":
    run(main)
