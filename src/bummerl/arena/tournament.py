"""Tournaments: an arena round robin read as ratings with 95 % intervals and a cross-table.

The ratings are the arena's Bradley-Terry ratings (:func:`~bummerl.arena.stats.bradley_terry`: deals won,
draws half each way, or Bummerls won with ``--bummerls``; one virtual draw per pairing; Elo scale; the
anchor at 0). Their intervals come from a bootstrap over the arena's own units: within every pairing the
deck pairs (or twin Bummerls) are drawn again with replacement, the ratings fitted again, and the 2.5th
and 97.5th percentiles of each bot's rating (the anchor's stays 0) are its interval. Resampling deck
pairs, not single deals, keeps the luck of the cards paired as the arena plays it.

>>> from bummerl.rules import Rules
>>> from bummerl.arena import ArenaConfig, run_arena
>>> arena = run_arena(ArenaConfig(("random", "heuristic", "random"), Rules.preset("vu"), seed=1, deals=40))
>>> table = tournament(arena, resamples=50)
>>> [r.label for r in table.ratings][0], table.ratings[0].low > 0
('heuristic', True)
>>> cell = table.cross[0][1]
>>> cell.won + cell.lost + cell.drawn
40
"""

from __future__ import annotations

import csv
import io
import math
from dataclasses import dataclass
from random import Random
from typing import Any

from rich import box
from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text

from bummerl.arena.report import json_number, print_plain, rating_text, report_console
from bummerl.arena.report import to_json as arena_json
from bummerl.arena.results import ArenaResult, PairingRecord
from bummerl.arena.stats import best_rating_first, bradley_terry

__all__ = ["Cell", "Rating", "TournamentResult", "print_tournament", "to_csv", "to_json", "tournament"]

#: Bootstrap resamples by default.
RESAMPLES = 1000


@dataclass(frozen=True, slots=True)
class Rating:
    """One bot's rating with its 95 % bootstrap interval, and its score over all its games."""

    label: str
    spec: str
    rating: float
    low: float
    high: float
    games: int
    score: float

    @property
    def share(self) -> float:
        """Score per game (draws count half)."""
        return self.score / self.games if self.games else math.nan


@dataclass(frozen=True, slots=True)
class Cell:
    """The row bot against the column bot: games won, lost and drawn (deals, or Bummerls)."""

    won: int
    lost: int
    drawn: int

    @property
    def share(self) -> float:
        """The row bot's score per game (draws count half)."""
        games = self.won + self.lost + self.drawn
        return (self.won + self.drawn / 2) / games if games else math.nan


@dataclass(frozen=True, slots=True)
class TournamentResult:
    """Ratings (best first), the cross-table (``cross[i][j]``: bot i against bot j in the arena's label
    order, None on the diagonal), and the arena run they come from."""

    arena: ArenaResult
    ratings: tuple[Rating, ...]
    cross: tuple[tuple[Cell | None, ...], ...]
    resamples: int

    @property
    def unit(self) -> str:
        """What a game is here: ``deals`` or ``Bummerls``."""
        return "deals" if self.arena.mode == "deals" else "Bummerls"


def _units(rec: PairingRecord) -> list[tuple[float, float]]:
    """The bootstrap units of a pairing, each as (A's score, B's score): deck pairs (two deals) or twin
    Bummerls (two Bummerls)."""
    if rec.mode == "deals":
        scores = [(1.0, 0.0) if p > 0 else (0.0, 1.0) if p < 0 else (0.5, 0.5) for p in rec.points]
    else:
        scores = [(1.0, 0.0) if w == 0 else (0.0, 1.0) for w in rec.winners]
    return [(scores[k][0] + scores[k + 1][0], scores[k][1] + scores[k + 1][1])
            for k in range(0, len(scores) - 1, 2)]


def _cell(rec: PairingRecord, slot: int) -> Cell:
    if rec.mode == "deals":
        a = sum(1 for p in rec.points if p > 0)
        b = sum(1 for p in rec.points if p < 0)
        drawn = len(rec.points) - a - b
    else:
        a, b, drawn = rec.winners.count(0), rec.winners.count(1), 0
    return Cell(a, b, drawn) if slot == 0 else Cell(b, a, drawn)


def _fit(n: int, results: list[tuple[int, int, float, float]], anchor: int) -> list[float]:
    ratings = bradley_terry(n, results, tolerance=1e-9)
    return [r - ratings[anchor] for r in ratings]


def tournament(arena: ArenaResult, resamples: int = RESAMPLES) -> TournamentResult:
    """Ratings with bootstrap intervals and the cross-table of an arena run (its ``records`` are used).

    The resampling is seeded from the run's seed, so the same run gives the same intervals.
    """
    if not arena.records:
        raise ValueError("the arena result carries no records (was it made by run_arena?)")
    labels = arena.labels
    index = {label: k for k, label in enumerate(labels)}
    anchor = index[arena.anchor]
    pairs = [(index[rec.labels[0]], index[rec.labels[1]], _units(rec)) for rec in arena.records]
    observed = [(i, j, math.fsum(u[0] for u in units), math.fsum(u[1] for u in units))
                for i, j, units in pairs]
    point = _fit(len(labels), observed, anchor)
    rng = Random(f"bummerl tournament bootstrap/{arena.seed}")
    draws: list[list[float]] = [[] for _ in labels]
    for _ in range(resamples):
        results = []
        for i, j, units in pairs:
            picked = rng.choices(units, k=len(units)) if units else []
            results.append((i, j, math.fsum(u[0] for u in picked), math.fsum(u[1] for u in picked)))
        for k, r in enumerate(_fit(len(labels), results, anchor)):
            draws[k].append(r)
    games = [0] * len(labels)
    score = [0.0] * len(labels)
    for i, j, wi, wj in observed:
        n = round(wi + wj)
        games[i] += n
        games[j] += n
        score[i] += wi
        score[j] += wj
    ratings = [
        Rating(labels[k], arena.specs[k], point[k], *_percentiles(draws[k], point[k]), games[k], score[k])
        for k in range(len(labels))
    ]
    cross: list[list[Cell | None]] = [[None] * len(labels) for _ in labels]
    for rec in arena.records:
        i, j = index[rec.labels[0]], index[rec.labels[1]]
        cross[i][j] = _cell(rec, 0)
        cross[j][i] = _cell(rec, 1)
    ranked = sorted(ratings, key=lambda r: best_rating_first(r.rating))
    return TournamentResult(arena, tuple(ranked),
                            tuple(tuple(row) for row in cross), resamples)


def _percentiles(values: list[float], point: float) -> tuple[float, float]:
    """The 2.5th and 97.5th percentiles (the point itself when there are no resamples).

    >>> _percentiles([float(x) for x in range(101)], 50.0)
    (2.5, 97.5)
    """
    if not values or math.isnan(point):  # no resamples, or a bot that played no game: no interval
        return (point, point)
    ordered = sorted(v for v in values if not math.isnan(v))

    def at(q: float) -> float:
        pos = q * (len(ordered) - 1)
        lo = math.floor(pos)
        hi = min(lo + 1, len(ordered) - 1)
        return ordered[lo] + (ordered[hi] - ordered[lo]) * (pos - lo)

    return (at(0.025), at(0.975))


def _share(x: float) -> str:
    return "-" if math.isnan(x) else f"{100 * x:.1f}%"


def render(result: TournamentResult) -> RenderableType:
    """The ratings table, the cross-table and a line on the run."""
    arena = result.arena
    unit = result.unit
    head = Text(f"tournament of {len(arena.labels)} bots: {arena.games} {unit} per pairing, "
                f"rules {arena.rules}, seed {arena.seed}", style="bold")
    how = (f"95% bootstrap interval over {result.resamples} resamples" if result.resamples
           else "no interval (--resamples 0)")
    ratings_title = Text(f"\nratings: Bradley-Terry on {unit} won, Elo scale, {arena.anchor} = 0; {how}")
    ratings = Table(box=box.SIMPLE_HEAD, padding=(0, 1), pad_edge=False)
    for name in ("#", "bot", "rating", "95% interval", unit, "score"):
        ratings.add_column(name, justify="left" if name == "bot" else "right")
    for rank, r in enumerate(result.ratings, 1):
        interval = "-" if math.isnan(r.low) or not result.resamples else f"[{r.low:+.0f}, {r.high:+.0f}]"
        ratings.add_row(str(rank), r.label, rating_text(r.rating), interval,
                        str(r.games), _share(r.share))
    cross_title = Text(f"cross-table: the row bot's score against the column bot, {unit} won-lost"
                       f"{'-drawn' if unit == 'deals' else ''}")
    cross = Table(box=box.SIMPLE_HEAD, padding=(0, 1), pad_edge=False)
    cross.add_column("bot")
    for label in arena.labels:
        cross.add_column(label, justify="right")
    for i, label in enumerate(arena.labels):
        cells = []
        for cell in result.cross[i]:
            if cell is None:
                cells.append("")
            else:
                tally = f"{cell.won}-{cell.lost}" + (f"-{cell.drawn}" if unit == "deals" else "")
                cells.append(f"{_share(cell.share)} {tally}")
        cross.add_row(label, *cells)
    notes = Text()
    faults = [(s.label, s.faults) for s in arena.standings if s.faults]
    if faults:
        listed = ", ".join(f"{k} {n}" for k, n in faults)
        notes.append(f"faults (forfeited deals): {listed}\n", style="red")
        first: dict[str, str] = {}  # each bot's first reason: what its author needs to know
        for pairing in arena.pairings:
            for f in pairing.faults:
                first.setdefault(pairing.lines[f.bot].label, f.reason)
        for label, reason in first.items():
            notes.append(f"{label}'s first fault: {reason}\n", style="red")
    if not arena.complete:
        notes.append(f"interrupted: these are the first {arena.deals} deals played\n", style="yellow")
    where = " on Ray" if arena.backend == "ray" else ""
    notes.append(f"{arena.deals} deals in {arena.seconds:.2f} s ({arena.workers} worker"
                 f"{'s' if arena.workers > 1 else ''}{where})")
    return Group(head, ratings_title, ratings, cross_title, cross, notes)


def print_tournament(result: TournamentResult, console: Console | None = None) -> None:
    """Print the tables (to :func:`~bummerl.arena.report.report_console` unless a console is given)."""
    print_plain(console or report_console(), render(result))


def to_json(result: TournamentResult) -> dict[str, Any]:
    """Ratings, cross-table and the whole arena result as plain JSON data."""
    labels = result.arena.labels
    return {
        "unit": result.unit.lower(), "resamples": result.resamples, "rating_anchor": result.arena.anchor,
        "ratings": [
            {"bot": r.label, "spec": r.spec, "rating": json_number(r.rating, 1), "low": json_number(r.low, 1),
             "high": json_number(r.high, 1), "games": r.games, "score": r.score,
             "share": None if math.isnan(r.share) else round(r.share, 6)}
            for r in result.ratings
        ],
        "cross_table": [
            {"bot": labels[i], "opponent": labels[j], "won": cell.won, "lost": cell.lost, "drawn": cell.drawn,
             "share": None if math.isnan(cell.share) else round(cell.share, 6)}
            for i, row in enumerate(result.cross) for j, cell in enumerate(row) if cell is not None
        ],
        "arena": arena_json(result.arena),
    }


def to_csv(result: TournamentResult) -> str:
    """One row per bot, best first: rating, interval, score, then its share against each bot.

    >>> from bummerl.rules import Rules
    >>> from bummerl.arena import ArenaConfig, run_arena
    >>> arena = run_arena(ArenaConfig(("random", "random", "random"), Rules.preset("vu"), seed=1, deals=8))
    >>> to_csv(tournament(arena, resamples=10)).splitlines()[0]
    'rank,bot,spec,rating,low,high,games,score,share,vs random,vs random#2,vs random#3'
    """
    labels = result.arena.labels
    index = {label: k for k, label in enumerate(labels)}
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["rank", "bot", "spec", "rating", "low", "high", "games", "score", "share",
                     *(f"vs {label}" for label in labels)])
    for rank, r in enumerate(result.ratings, 1):
        row = result.cross[index[r.label]]
        writer.writerow([rank, r.label, r.spec, json_number(r.rating, 1), json_number(r.low, 1),
                         json_number(r.high, 1), r.games, r.score, round(r.share, 6),
                         *("" if cell is None else round(cell.share, 6) for cell in row)])
    return out.getvalue()
