"""Arena results: the raw record of each pairing, and the summary with 95 % intervals and ratings.

What the numbers mean (all per bot, within one pairing unless said otherwise):

- *deals won*: deals the bot won; the share is of all deals played (a Sixty-Six draw is won by nobody),
  with the Wilson interval.
- *game points per deal*: game points the bot scored, averaged over all deals; *net* subtracts the
  opponent's. In deal mode the interval is Student's t over deck pairs (each deck's two deals averaged,
  which cancels the luck of the cards); in Bummerl mode over single deals.
- *Bummerls*: deal mode chains the deals in play order (deck pair 0 with A at seat 0, then with B at
  seat 0, deck pair 1, ...) into games to 7 as :func:`~bummerl.arena.stats.chain_bummerls` says; an
  unfinished last Bummerl is left out. Bummerl mode counts the Bummerls actually played. Share of
  finished Bummerls, Wilson interval.
- *rating* (standings): Bradley-Terry on deals won (draws half each way) or, in Bummerl mode, on
  Bummerls won, with one virtual draw per pairing so that a clean sweep still has a finite rating; Elo
  scale (a 100-point gap means the stronger wins 64 % of the time), the anchor bot at 0.
- *time per decision*: median and 95th percentile of the time ``choose`` took, in milliseconds.

>>> rec = PairingRecord(0, ("a", "b"), ("random", "random"), "deals", points=[2, -1, 3, 0])
>>> line = summarize(rec).lines[0]
>>> line.won, line.lost, line.drawn, line.points_per_deal.value
(2, 1, 1, 1.25)
"""

from __future__ import annotations

import math
import os
import re
import shlex
from collections import Counter
from dataclasses import dataclass, field

from bummerl.arena.match import Fault, Mode
from bummerl.arena.stats import best_rating_first, bradley_terry, chain_bummerls, mean_interval, wilson
from bummerl.arena.timing import Histogram, merge, quantile

__all__ = [
    "ArenaResult", "BotLine", "Interval", "PairingRecord", "PairingSummary", "Standing", "labels_for",
    "standings", "summarize",
]


@dataclass(frozen=True, slots=True)
class Interval:
    """A value with its 95 % interval (NaN bounds when there is too little data)."""

    value: float
    low: float
    high: float

    def to_json(self) -> dict[str, float | None]:
        """``{"value", "low", "high"}`` with NaN written as null."""
        return {k: (None if math.isnan(v) else round(v, 6)) for k, v in
                (("value", self.value), ("low", self.low), ("high", self.high))}


@dataclass(slots=True)
class PairingRecord:
    """Everything played between bot A and bot B, in play order, seen from A (see ``ChunkResult``)."""

    index: int
    labels: tuple[str, str]
    specs: tuple[str, str]
    mode: Mode
    points: list[int] = field(default_factory=list)
    winners: list[int] = field(default_factory=list)
    lengths: list[int] = field(default_factory=list)
    reasons: Counter[str] = field(default_factory=Counter)
    faults: list[Fault] = field(default_factory=list)
    fault_counts: list[int] = field(default_factory=lambda: [0, 0])
    decisions: list[int] = field(default_factory=lambda: [0, 0])
    times: tuple[Histogram, Histogram] = field(default_factory=lambda: ({}, {}))
    seconds: float = 0.0


@dataclass(frozen=True, slots=True)
class BotLine:
    """One bot's results in one pairing."""

    label: str
    deals: int
    won: int
    lost: int
    drawn: int
    won_share: Interval
    points_per_deal: Interval
    net_per_deal: Interval
    bummerls_won: int
    bummerls_lost: int
    bummerl_share: Interval
    faults: int
    decisions: int
    median_ms: float
    p95_ms: float


@dataclass(frozen=True, slots=True)
class PairingSummary:
    """Both bots' lines of a pairing, how its deals ended, and the faults kept (with reasons)."""

    index: int
    mode: Mode
    lines: tuple[BotLine, BotLine]
    reasons: dict[str, int]
    faults: tuple[Fault, ...]
    unfinished: tuple[int, int] | None


@dataclass(frozen=True, slots=True)
class Standing:
    """One bot over all its pairings, with its rating."""

    label: str
    spec: str
    deals: int
    won: int
    won_share: Interval
    points_per_deal: Interval
    bummerls_won: int
    bummerls: int
    rating: float
    faults: int
    decisions: int
    median_ms: float
    p95_ms: float


@dataclass(frozen=True, slots=True)
class ArenaResult:
    """A whole arena run: settings, pairing summaries, standings and speed. ``complete`` is False for a
    run stopped by Ctrl-C (the numbers are then those of the deals finished); ``backend`` says where the
    chunks ran (``local`` or ``ray``)."""

    specs: tuple[str, ...]
    labels: tuple[str, ...]
    rules: str
    seed: int
    mode: Mode
    games: int
    workers: int
    anchor: str
    pairings: tuple[PairingSummary, ...]
    standings: tuple[Standing, ...]
    deals: int
    seconds: float
    complete: bool = True
    backend: str = "local"
    #: the labels of the bots handed the true deal (the cheater yardsticks: not fair players)
    sees_deal: tuple[str, ...] = ()
    #: every pairing's deals (and Bummerls) in play order, for what needs more than the summaries
    records: tuple[PairingRecord, ...] = field(default=(), repr=False, compare=False)

    @property
    def deals_per_second(self) -> float:
        """Deals played per second of wall time."""
        return self.deals / self.seconds if self.seconds > 0 else math.nan


def labels_for(specs: list[str] | tuple[str, ...]) -> tuple[str, ...]:
    """Display names: the bot name, or ``cmd:`` and the file name of an outside program (the first
    argument that is a file, as ``python mybot.py --level 3`` runs ``mybot.py``, else the program's own),
    with ``#2``, ``#3`` ... for repeats.

    >>> labels_for(["random", "random", "cmd:./bot.sh --level 3", "cmd:python3 -c 'print(1)'"])
    ('random', 'random#2', 'cmd:bot.sh', 'cmd:python3')
    """
    seen: Counter[str] = Counter()
    out = []
    for spec in specs:
        name = spec.strip()
        if name.lower().startswith("cmd:"):
            name = "cmd:" + _program_name(name[4:])
        seen[name] += 1
        out.append(name if seen[name] == 1 else f"{name}#{seen[name]}")
    return tuple(out)


def _program_name(command: str) -> str:
    try:
        words = shlex.split(command)
    except ValueError:  # an unclosed quote: the command will not start either
        words = command.split()
    if not words:
        return ""
    files = []
    after_code = False
    for word in words[1:]:  # the script an interpreter runs: a file, or a word that looks like one
        if not after_code and not word.startswith("-") and (
                os.path.isfile(word) or "/" in word or re.search(r"\.\w+$", word)):
            files.append(word)
        after_code = word in ("-c", "-e")  # python -c CODE, node -e CODE: the code is no file
    return os.path.basename((files[0] if files else words[0]).rstrip("/\\"))


def _units(rec: PairingRecord, values: list[float]) -> list[float]:
    """The values the t interval is taken over: deck-pair means in deal mode, single deals otherwise."""
    if rec.mode == "deals":
        return [(values[i] + values[i + 1]) / 2 for i in range(0, len(values) - 1, 2)]
    return values


def _ms(hist: Histogram, q: float) -> float:
    return quantile(hist, q) / 1e6


def summarize(rec: PairingRecord) -> PairingSummary:
    """The summary of one pairing (see the module docstring for the meaning of each number)."""
    n = len(rec.points)
    a_pts = [float(max(p, 0)) for p in rec.points]
    b_pts = [float(max(-p, 0)) for p in rec.points]
    net = [float(p) for p in rec.points]
    won_a = sum(1 for p in rec.points if p > 0)
    won_b = sum(1 for p in rec.points if p < 0)
    drawn = n - won_a - won_b
    if rec.mode == "deals":
        chain = chain_bummerls(rec.points)
        bummerls = chain.wins
        unfinished = chain.unfinished
    else:
        bummerls = (rec.winners.count(0), rec.winners.count(1))
        unfinished = None
    finished = bummerls[0] + bummerls[1]
    lines = []
    for slot, (own, won, lost, sign) in enumerate(((a_pts, won_a, won_b, 1.0), (b_pts, won_b, won_a, -1.0))):
        mean_pts = mean_interval(_units(rec, own))
        mean_net = mean_interval(_units(rec, [sign * x for x in net]))
        share = won / n if n else math.nan
        bshare = bummerls[slot] / finished if finished else math.nan
        lines.append(BotLine(
            label=rec.labels[slot], deals=n, won=won, lost=lost, drawn=drawn,
            won_share=Interval(share, *wilson(won, n)),
            points_per_deal=Interval(*mean_pts), net_per_deal=Interval(*mean_net),
            bummerls_won=bummerls[slot], bummerls_lost=bummerls[1 - slot],
            bummerl_share=Interval(bshare, *wilson(bummerls[slot], finished)),
            faults=rec.fault_counts[slot], decisions=rec.decisions[slot],
            median_ms=_ms(rec.times[slot], 0.5), p95_ms=_ms(rec.times[slot], 0.95),
        ))
    return PairingSummary(rec.index, rec.mode, (lines[0], lines[1]), dict(sorted(rec.reasons.items())),
                          tuple(rec.faults), unfinished)


def standings(
    labels: tuple[str, ...], specs: tuple[str, ...], records: list[PairingRecord], anchor: str
) -> tuple[Standing, ...]:
    """Each bot over all its pairings, best rating first; ratings put ``anchor`` at 0."""
    index = {label: i for i, label in enumerate(labels)}
    results = []
    deals = [0] * len(labels)
    won = [0] * len(labels)
    units: list[list[float]] = [[] for _ in labels]
    bwon = [0] * len(labels)
    bplayed = [0] * len(labels)
    faults = [0] * len(labels)
    decisions = [0] * len(labels)
    times: list[Histogram] = [{} for _ in labels]
    for rec in records:
        summary = summarize(rec)
        i, j = index[rec.labels[0]], index[rec.labels[1]]
        la, lb = summary.lines
        if rec.mode == "deals":
            results.append((i, j, la.won + la.drawn / 2, lb.won + lb.drawn / 2))
        else:
            results.append((i, j, float(la.bummerls_won), float(lb.bummerls_won)))
        for k, line, sign in ((i, la, 1), (j, lb, -1)):
            deals[k] += line.deals
            won[k] += line.won
            units[k] += _units(rec, [float(max(sign * p, 0)) for p in rec.points])
            bwon[k] += line.bummerls_won
            bplayed[k] += line.bummerls_won + line.bummerls_lost
            faults[k] += line.faults
            decisions[k] += line.decisions
        merge(times[i], rec.times[0])
        merge(times[j], rec.times[1])
    ratings = bradley_terry(len(labels), results)
    zero = ratings[index[anchor]]
    out = [
        Standing(
            label=labels[k], spec=specs[k], deals=deals[k], won=won[k],
            won_share=Interval(won[k] / deals[k] if deals[k] else math.nan, *wilson(won[k], deals[k])),
            points_per_deal=Interval(*mean_interval(units[k])),
            bummerls_won=bwon[k], bummerls=bplayed[k], rating=ratings[k] - zero, faults=faults[k],
            decisions=decisions[k], median_ms=_ms(times[k], 0.5), p95_ms=_ms(times[k], 0.95),
        )
        for k in range(len(labels))
    ]
    return tuple(sorted(out, key=lambda s: best_rating_first(s.rating)))
