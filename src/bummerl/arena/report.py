"""Arena output: Rich tables for people, JSON and CSV for programs.

>>> from bummerl.rules import Rules
>>> from bummerl.arena.runner import ArenaConfig, run_arena
>>> result = run_arena(ArenaConfig(("random", "random"), Rules.preset("vu"), seed=1, deals=10))
>>> data = to_json(result)
>>> data["deals"], [r["bot"] for r in data["pairings"][0]["results"]]
(10, ['random', 'random#2'])
>>> to_csv(result).splitlines()[0].split(",")[:4]
['pairing', 'bot', 'opponent', 'deals']
"""

from __future__ import annotations

import csv
import io
import math
from typing import Any

from rich import box
from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text

from bummerl.arena.match import FORFEIT_POINTS
from bummerl.arena.results import ArenaResult, BotLine, Interval, PairingSummary, Standing

__all__ = ["json_number", "print_plain", "print_report", "rating_text", "render", "report_console", "to_csv",
           "to_json"]


def json_number(x: float, digits: int = 3) -> float | None:
    """A number for JSON or CSV: rounded, or None (null, an empty cell) where there is none (NaN).

    >>> json_number(1.23456, 2), json_number(float("nan"))
    (1.23, None)
    """
    return None if math.isnan(x) else round(x, digits)


def _line_json(line: BotLine) -> dict[str, Any]:
    return {
        "bot": line.label, "deals": line.deals, "won": line.won, "lost": line.lost, "drawn": line.drawn,
        "won_share": line.won_share.to_json(), "game_points_per_deal": line.points_per_deal.to_json(),
        "net_game_points_per_deal": line.net_per_deal.to_json(), "bummerls_won": line.bummerls_won,
        "bummerls_lost": line.bummerls_lost, "bummerl_share": line.bummerl_share.to_json(),
        "faults": line.faults, "decisions": line.decisions,
        "decision_ms": {"median": json_number(line.median_ms, 4), "p95": json_number(line.p95_ms, 4)},
    }


def _standing_json(s: Standing) -> dict[str, Any]:
    return {
        "bot": s.label, "spec": s.spec, "rating": json_number(s.rating, 1), "deals": s.deals, "won": s.won,
        "won_share": s.won_share.to_json(), "game_points_per_deal": s.points_per_deal.to_json(),
        "bummerls_won": s.bummerls_won, "bummerls": s.bummerls, "faults": s.faults, "decisions": s.decisions,
        "decision_ms": {"median": json_number(s.median_ms, 4), "p95": json_number(s.p95_ms, 4)},
    }


def to_json(result: ArenaResult) -> dict[str, Any]:
    """The whole result as plain JSON data (NaN written as null)."""
    return {
        "bots": list(result.specs), "labels": list(result.labels), "rules": result.rules, "seed": result.seed,
        "mode": result.mode, "games_per_pairing": result.games, "workers": result.workers,
        "backend": result.backend, "complete": result.complete,
        "forfeit_game_points": FORFEIT_POINTS,
        "deals": result.deals, "seconds": round(result.seconds, 4),
        "deals_per_second": json_number(result.deals_per_second, 1),
        "pairings": [
            {
                "bots": [p.lines[0].label, p.lines[1].label], "results": [_line_json(x) for x in p.lines],
                "reasons": p.reasons,
                "unfinished_bummerl": None if p.unfinished is None else list(p.unfinished),
                "faults": [{"bot": p.lines[f.bot].label, "deal": f.deal, "reason": f.reason}
                           for f in p.faults],
            }
            for p in result.pairings
        ],
        "rating_anchor": result.anchor,
        "standings": [_standing_json(s) for s in result.standings],
        "sees_deal": list(result.sees_deal),
    }


_CSV_FIELDS = [
    "pairing", "bot", "opponent", "deals", "won", "lost", "drawn", "won_share", "won_share_low",
    "won_share_high", "game_points_per_deal", "game_points_low", "game_points_high", "net_per_deal",
    "net_low", "net_high", "bummerls_won", "bummerls_lost", "bummerl_share", "bummerl_share_low",
    "bummerl_share_high", "faults", "decisions", "median_ms", "p95_ms", "rating",
]


def to_csv(result: ArenaResult) -> str:
    """One row per bot and pairing (the rating is the bot's overall one)."""
    ratings = {s.label: s.rating for s in result.standings}
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(_CSV_FIELDS)

    def iv(x: Interval) -> list[float | None]:
        return [json_number(x.value, 6), json_number(x.low, 6), json_number(x.high, 6)]

    for p in result.pairings:
        for slot, line in enumerate(p.lines):
            writer.writerow([
                p.index, line.label, p.lines[1 - slot].label, line.deals, line.won, line.lost, line.drawn,
                *iv(line.won_share), *iv(line.points_per_deal), *iv(line.net_per_deal), line.bummerls_won,
                line.bummerls_lost, *iv(line.bummerl_share), line.faults, line.decisions,
                json_number(line.median_ms, 4), json_number(line.p95_ms, 4),
                json_number(ratings[line.label], 1),
            ])
    return out.getvalue()


def _share(x: Interval, compact: bool = False) -> str:
    """A share with its interval; ``compact``: in whole percent, for narrow terminals.

    >>> _share(Interval(0.727, 0.518, 0.868)), _share(Interval(0.727, 0.518, 0.868), compact=True)
    ('72.7% [51.8, 86.8]', '73% 52-87')
    """
    if math.isnan(x.value):
        return "-"
    if compact:
        return f"{100 * x.value:.0f}% {100 * x.low:.0f}-{100 * x.high:.0f}"
    return f"{100 * x.value:.1f}% [{100 * x.low:.1f}, {100 * x.high:.1f}]"


def _mean(x: Interval, signed: bool = False, compact: bool = False) -> str:
    """A mean with its half-width (the t interval is symmetric); ``compact``: no space before the ±."""
    if math.isnan(x.value):
        return "-"
    fmt = "+.2f" if signed else ".2f"
    if math.isnan(x.low):
        return format(x.value, fmt)
    return f"{x.value:{fmt}}{'' if compact else ' '}±{(x.high - x.low) / 2:.2f}"


def rating_text(x: float) -> str:
    """A rating as the tables show it: ``+268``, or ``-`` for a bot that played no game.

    >>> rating_text(267.6), rating_text(float("nan"))
    ('+268', '-')
    """
    return "-" if math.isnan(x) else f"{x:+.0f}"


def _duration(ms: float, compact: bool = False) -> str:
    """A time per decision with a unit that fits: 3.1µs, 0.42ms, 12ms, 1.5s (``compact``: 3µs, 0.4ms).

    >>> _duration(0.0172), _duration(0.0172, compact=True), _duration(4.567, compact=True)
    ('17.2µs', '17µs', '4.6ms')
    """
    if math.isnan(ms):
        return "-"
    if ms < 0.1:
        return f"{ms * 1000:.{0 if compact else 1}f}µs"
    if ms < 10:
        return f"{ms:.{1 if compact else 2}f}ms"
    if ms < 1000:
        return f"{ms:.0f}ms"
    return f"{ms / 1000:.1f}s"


def _times(median_ms: float, p95_ms: float, compact: bool = False) -> str:
    return f"{_duration(median_ms, compact)}{'/' if compact else ' / '}{_duration(p95_ms, compact)}"


def _table(title: str, compact: bool = False) -> Table:
    padding = (0, 1, 0, 0) if compact else (0, 1)  # compact: two spaces between columns, not three
    return Table(title=title, title_justify="left", box=box.SIMPLE_HEAD, padding=padding, pad_edge=False,
                 show_edge=not compact)


def _add_columns(table: Table, headings: tuple[str, ...], faults: bool) -> None:
    """The headings as columns, the bots' names left and the numbers right; the faults column only when
    ``faults`` (a compact table leaves it out while no bot has a fault)."""
    for name in headings:
        if name != "faults" or faults:
            table.add_column(name, justify="left" if name.startswith("bot") else "right")


def _pairing_table(p: PairingSummary, title: str, compact: bool) -> Table:
    table = _table(title, compact)
    names = (("bot", "won", "deal share", "pts/deal", "net/deal", "Bummerls", "faults", "med/p95") if compact
             else ("bot", "deals won", "share [95% CI]", "game pts/deal", "net/deal", "Bummerls", "faults",
                   "time med/p95"))
    faults = not compact or any(line.faults for line in p.lines)
    _add_columns(table, names, faults)
    for line in p.lines:
        shown = compact or math.isnan(line.bummerl_share.value)
        bshare = "" if shown else f" ({100 * line.bummerl_share.value:.0f}%)"
        table.add_row(
            line.label, str(line.won), _share(line.won_share, compact),
            _mean(line.points_per_deal, compact=compact), _mean(line.net_per_deal, True, compact),
            f"{line.bummerls_won}{bshare}", *([str(line.faults)] if faults else []),
            _times(line.median_ms, line.p95_ms, compact),
        )
    return table


def _round_robin_tables(result: ArenaResult, compact: bool) -> list[Table]:
    pairs = _table("pairings (seen from bot A)", compact)
    names = (("bot A", "bot B", "A's deal share", "A's net/deal", "Bummerls", "faults") if compact
             else ("bot A", "bot B", "A's deal share [95% CI]", "A's net/deal", "Bummerls A-B", "faults A/B"))
    _add_columns(pairs, names, faults=True)
    for p in result.pairings:
        a, b = p.lines
        pairs.add_row(a.label, b.label, _share(a.won_share, compact), _mean(a.net_per_deal, True, compact),
                      f"{a.bummerls_won}-{b.bummerls_won}", f"{a.faults}/{b.faults}")
    unit = "deals" if result.mode == "deals" else "Bummerls"
    title = (f"standings (Bradley-Terry on {unit} won, {result.anchor} = 0)" if compact
             else f"standings (Bradley-Terry rating on {unit} won, Elo scale, {result.anchor} = 0)")
    stand = _table(title, compact)
    headings = (("#", "bot", "rating", "deal share", "pts/deal", "Bummerls", "faults", "med/p95") if compact
                else ("#", "bot", "rating", "deal share [95% CI]", "game pts/deal", "Bummerls won", "faults",
                      "time med/p95"))
    faults = not compact or any(standing.faults for standing in result.standings)
    _add_columns(stand, headings, faults)
    for rank, s in enumerate(result.standings, 1):
        stand.add_row(str(rank), s.label, rating_text(s.rating), _share(s.won_share, compact),
                      _mean(s.points_per_deal, compact=compact), f"{s.bummerls_won}/{s.bummerls}",
                      *([str(s.faults)] if faults else []), _times(s.median_ms, s.p95_ms, compact))
    return [pairs, stand]


def _rate(deals_per_second: float) -> str:
    """A throughput as the report words it.

    >>> _rate(2286.4), _rate(1.2), _rate(0.04)
    ('2,286 deals/s', '1 deal/s', '0.04 deals/s')
    """
    if deals_per_second < 0.95:
        return f"{deals_per_second:.2f} deals/s"
    shown = f"{deals_per_second:,.0f}"
    return f"{shown} {'deal' if shown == '1' else 'deals'}/s"


def render(result: ArenaResult, width: int | None = None) -> RenderableType:
    """The report as a Rich renderable: tables, how deals ended, faults, throughput. Given a ``width``
    (a terminal's columns) the tables that would not fit it are set compact: shares in whole percent,
    shorter headings, no Bummerl shares, no faults column when there are none (a fault is also named below
    the tables)."""
    return _render(result, compact=width is not None and max(map(_widest, _tables(result, False))) > width)


def _widest(renderable: RenderableType) -> int:
    """How many columns a renderable takes at most (measured on a wide console)."""
    from rich.measure import Measurement

    console = Console(width=1000)
    return Measurement.get(console, console.options, renderable).maximum


def _head(result: ArenaResult) -> str:
    unit = "deals" if result.mode == "deals" else "Bummerls"
    return (f"{' vs '.join(result.labels)}: {result.games} {unit} per pairing, rules {result.rules}, "
            f"seed {result.seed}")


def _tables(result: ArenaResult, compact: bool) -> list[Table]:
    """The report's tables: one for two bots (titled with the run), else the pairings and the standings."""
    if len(result.pairings) == 1:
        return [_pairing_table(result.pairings[0], _head(result), compact)]
    return _round_robin_tables(result, compact)


def _render(result: ArenaResult, compact: bool) -> RenderableType:
    head = _head(result)
    parts: list[RenderableType] = [] if len(result.pairings) == 1 else [Text(head, style="bold")]
    parts += _tables(result, compact)
    notes = Text()
    for p in result.pairings:
        who = f"{p.lines[0].label} vs {p.lines[1].label}: " if len(result.pairings) > 1 else ""
        ends = ", ".join(f"{k} {v}" for k, v in p.reasons.items())
        notes.append(f"{who}deals ended by {ends}\n")
        if p.unfinished is not None:
            notes.append(f"{who}last Bummerl unfinished (still needed {p.unfinished[0]}-{p.unfinished[1]}), "
                         "not counted\n")
        for f in p.faults:
            notes.append(f"{who}fault: {p.lines[f.bot].label} forfeited deal {f.deal} "
                         f"({FORFEIT_POINTS} game points to the other side): {f.reason}\n", style="red")
        shown = len(p.faults)
        total = p.lines[0].faults + p.lines[1].faults
        if total > shown:
            notes.append(f"{who}... and {total - shown} more faults\n", style="red")
    for label in result.sees_deal:
        notes.append(f"{label} is handed the true deal (it sees every card): a yardstick, not a fair "
                     "player\n", style="yellow")
    if not result.complete:
        notes.append(f"interrupted: these are the first {result.deals} deals played (each pairing's in play "
                     "order)\n", style="yellow")
    rate = result.deals_per_second
    notes.append(f"{result.deals} deals in {result.seconds:.2f} s: {_rate(rate)} "
                 f"({result.workers} worker{'s' if result.workers > 1 else ''}"
                 f"{' on Ray' if result.backend == 'ray' else ''})")
    parts.append(notes)
    return Group(*parts)


def report_console() -> Console:
    """The console reports print to: standard output, at least 120 columns wide when it is no terminal,
    and no Rich markup or emoji codes read in the text (a bot's label is its author's: ``cmd:fire`` is not
    an emoji, ``[bold]`` not a style).

    >>> report_console().render_str("cmd:fire [bold]x[/bold]").plain
    'cmd:fire [bold]x[/bold]'
    """
    console = Console(markup=False, emoji=False, highlight=False)
    if not console.is_terminal:
        console = Console(width=max(120, console.width), markup=False, emoji=False, highlight=False)
    return console


def print_report(result: ArenaResult, console: Console | None = None) -> None:
    """Print the Rich report (to :func:`report_console` unless a console is given), compact where the
    terminal is too narrow for the full tables."""
    console = console or report_console()
    print_plain(console, render(result, console.width))


def print_plain(console: Console, renderable: RenderableType) -> None:
    """Print to a terminal as Rich does; to a file or pipe without the spaces Rich pads lines with."""
    if console.is_terminal:
        console.print(renderable)
        return
    with console.capture() as captured:
        console.print(renderable)
    console.out("\n".join(line.rstrip() for line in captured.get().splitlines()), highlight=False)
