"""Load on the web server: many simulated players at once, each a bounded WebSocket client on localhost
playing random legal moves until its Bummerl ends, against the computer (issue 13) or, with ``--friends``,
two players per game against each other (issue 14).

The server runs as ``bummerl serve --no-limits`` in its own process (with its own data directory), the
players as asyncio clients in this one. ``--no-limits`` lifts the server's rate limits (POST requests per
client address, friend games per player, open invitations, message rates): every player here comes from
127.0.0.1, so the per-address limit would otherwise refuse most of them. Measured:

- **act→view**: from sending an ``act`` to receiving the server's ``view`` answering it (the first view
  showing the position after the action: sent once the action is stored, before the computer thinks, so
  the computer's thinking is not in it); exact p50/p95/max over every answered action of every player;
- **games/s**: finished Bummerls per second of wall time (and deals/s, actions/s);
- **lost actions**: after the run, each finished game's stored record (``GET /api/games/{id}/record``) is
  replayed and compared, seat by seat and deal by deal, with the actions its players sent: every action
  whose answer arrived must be in it, in order, and nothing else (an action in flight when the server was
  killed may be in it or not; its player sees which on reconnecting and plays on);
- **errors**: ``error`` messages, failed or dropped connections (other than by the restart), games not
  finished (the target is none);
- **CPU per action**: the server process's CPU time (its event loop's thread alone, and all its threads)
  and its thinking workers', per action, from ``/proc``: a share that other work on the machine does not
  inflate the way it inflates latencies;
- **memory**: resident memory (VmRSS) of the server process and of its thinking workers at the end.

``--restart kill`` (the default with ``--friends``) kills the server with SIGKILL once half the games are
over, as in a crash, and starts it again on the same port and data: every client reconnects to its seat
and plays on. ``--restart stop`` stops it as Ctrl-C would; ``--restart none`` keeps it up.

The targets (on a 2-core machine): 100 games against ``medium`` at once with p95 act→view under 50 ms and
no error (issue 13); 200 friend games at once (400 clients) with p95 act→view under 50 ms, no lost action
and no error, with a server restart in the middle (issue 14).

``--think S`` lets each player wait a random time (uniform, mean S seconds) before each action, like a
person; with 0 (the default) the players act the moment they may, which measures the server saturated:
then act→view is mostly the queue of the other players' actions. The machine's load average is printed,
since other work on it changes every number here.

Usage: python benchmarks/web_load.py [--players 100] [--level medium] [--rules standard] [--workers 2]
       [--think 0] [--seed 1] [--restart none|stop|kill] [--port P]
       python benchmarks/web_load.py --friends [--games 200] [--restart kill] [--think 0] ...
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import os
import random
import signal
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from functools import partial
from http.client import HTTPException
from pathlib import Path
from typing import Any, TypeVar

import orjson

from bummerl.actions import Action
from bummerl.records import GameRecord
from bummerl.scripting import positive
from bummerl.server.process import ServerProcess

#: The issues' target: p95 act→view in milliseconds (and no error, no lost action).
TARGET_P95_MS = 50.0
#: The ``bummerl serve`` options of the benchmark's server: every limit lifted (see the module docstring).
SERVE_OPTIONS = ("--no-limits",)
#: How long a client waits for a restarted server before it gives up (seconds).
RECONNECT_TIMEOUT = 120.0
#: How the server's ``events`` messages begin (compact JSON, ``type`` first): the players skip them unread.
EVENTS_PREFIX = '{"type":"events"'
#: How long a client waits for any message before it counts the game as stuck (seconds).
STALL_TIMEOUT = 120.0

T = TypeVar("T")


@dataclass
class Sent:
    """One action a client sent: the deal it was sent in, the action, and whether its answer came."""

    deal: int
    action: str
    acked: bool = False


@dataclass
class Seat:
    """What one client did at its seat of one game."""

    game: str
    seat: int
    sent: list[Sent] = field(default_factory=list)
    finished: bool = False


@dataclass
class Tally:
    """What the players measured."""

    latencies: list[float] = field(default_factory=list)  # seconds, act → view
    answered: list[float] = field(default_factory=list)  # when each answer came (perf_counter)
    games: int = 0
    deals: int = 0
    actions: int = 0
    errors: list[str] = field(default_factory=list)
    seats: list[Seat] = field(default_factory=list)
    reconnects: int = 0
    in_flight: int = 0  # actions sent but not answered when the server went down
    checked: int = 0  # finished games whose stored record was compared with what was sent
    lost: int = 0  # answered actions missing from the stored records
    phantom: int = 0  # stored actions nobody sent


@dataclass
class CpuUse:
    """CPU seconds of the server: its event loop's thread, the whole process, its thinking workers."""

    loop: float = 0.0
    server: float = 0.0
    workers: float = 0.0

    def add(self, other: CpuUse) -> None:
        self.loop += other.loop
        self.server += other.server
        self.workers += other.workers


@dataclass
class Restart:
    """The restart in the middle of a run: clients whose connection drops wait for ``up`` and reconnect."""

    mode: str = "none"
    generation: int = 0  # restarts begun
    up: asyncio.Event = field(default_factory=asyncio.Event)
    when: str = "once half the games were over"
    killed_at: float | None = None
    downtime: float | None = None


def quantile(values: list[float], q: float) -> float:
    """The exact ``q`` quantile (linear between order statistics).

    >>> quantile([1.0, 2.0, 3.0, 4.0], 0.5), quantile([5.0], 0.95)
    (2.5, 5.0)
    """
    xs = sorted(values)
    if not xs:
        return float("nan")
    pos = q * (len(xs) - 1)
    lo = int(pos)
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (pos - lo)


# ---------------------------------------------------------------------------------------------- /proc


def rss_kib(pid: int) -> int:
    """Resident memory of a process in KiB (0 when unknown)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def children(pid: int) -> list[int]:
    """The thinking workers of the server ``pid``: its direct child processes (Linux /proc) but for
    multiprocessing's resource tracker."""
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, IndexError, ValueError):
                stat = (entry / "stat").read_text()
                if (int(stat.rsplit(")", 1)[1].split()[1]) == pid
                        and b"resource_tracker" not in (entry / "cmdline").read_bytes()):
                    out.append(int(entry.name))
    return out


def cpu_seconds(stat_path: str) -> float:
    """User + system CPU seconds from a /proc ``stat`` file (0 when unknown)."""
    try:
        fields = Path(stat_path).read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def settled(pid: int, timeout: float = 60) -> CpuUse:
    """The server's CPU use once it is idle (its workers done starting: less than 10 ms of CPU in 0.3 s)."""
    deadline = time.monotonic() + timeout
    last = cpu_use(pid)
    while time.monotonic() < deadline:
        time.sleep(0.3)
        now = cpu_use(pid)
        if now.server + now.workers - last.server - last.workers < 0.01:
            return now
        last = now
    return last


def cpu_use(pid: int) -> CpuUse:
    """The server's CPU seconds so far (its main thread runs the event loop)."""
    return CpuUse(loop=cpu_seconds(f"/proc/{pid}/task/{pid}/stat"), server=cpu_seconds(f"/proc/{pid}/stat"),
                  workers=sum(cpu_seconds(f"/proc/{c}/stat") for c in children(pid)))


# ---------------------------------------------------------------------------------------------- HTTP


def http(port: int, method: str, path: str, body: dict[str, Any] | None = None,
         key: str | None = None) -> Any:
    """One JSON request to the server; its JSON answer."""
    headers = {"Content-Type": "application/json"}
    if key is not None:
        headers["X-Player-Key"] = key
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data, headers, method=method)
    with urllib.request.urlopen(request, timeout=60) as answer:
        return json.loads(answer.read())


def ws_url(port: int, answer: dict[str, Any]) -> str:
    return f"ws://127.0.0.1:{port}/ws/games/{answer['id']}?token={answer['token']}"


# ---------------------------------------------------------------------------------------------- playing


def position(view: dict[str, Any]) -> tuple[Any, ...]:
    """What every action changes in the acting seat's view (a card leaves the hand, the talon closes, a
    marriage is shown, the deal ends, a new deal starts): a view with another position answers an act."""
    deal = view["deal"]
    return (view["deal_number"], view["phase"], tuple(deal["hand"]), deal["closed_by"],
            len(deal["marriages"]))


async def play_seat(url: str, record: Seat, rng: random.Random, tally: Tally, restart: Restart, *,
                    think: float = 0.0, deals_next: bool = True) -> None:
    """One client at one seat: random legal moves until the Bummerl is over; ``deals_next`` says whether it
    is this seat that asks for the next deal (in a friend game one of the two does). Reconnects after the
    server's restart."""
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed, InvalidHandshake

    while True:
        generation = await steady(restart)
        pending: tuple[Sent, float, tuple[Any, ...]] | None = None  # the act sent and not yet answered
        try:
            # (no keepalive pings of its own: a loaded machine that stalls the client 20 s would close the
            # socket in the same server generation, an error; STALL_TIMEOUT watches for a silent server)
            async with connect(url, max_size=1 << 22, open_timeout=60, close_timeout=5,
                               ping_interval=None) as ws:
                last: dict[str, Any] | None = None
                while True:
                    try:
                        raw = await asyncio.wait_for(ws.recv(), STALL_TIMEOUT)
                    except TimeoutError:
                        tally.errors.append(f"game {record.game} seat {record.seat}: no message for "
                                            f"{STALL_TIMEOUT:.0f} s")
                        return
                    if isinstance(raw, str) and raw.startswith(EVENTS_PREFIX):
                        continue  # the events are not needed here: no need to read them
                    msg = orjson.loads(raw)
                    if msg["type"] == "error":
                        tally.errors.append(msg["reason"])
                        if len(tally.errors) > 10 * len(tally.seats) + 100:
                            return  # something is badly wrong: stop rather than spin
                        if pending is None or last is None:
                            continue
                        pending = None  # refused: choose again from the last view
                    elif msg["type"] != "view":
                        continue
                    else:
                        last = msg
                        if pending is not None:
                            if position(msg) == pending[2]:
                                continue  # not the answer (e.g. the other seat's view changed)
                            now = time.perf_counter()
                            tally.latencies.append(now - pending[1])
                            tally.answered.append(now)
                            pending[0].acked = True
                            pending = None
                    phase = last["phase"]
                    if phase == "game_over":
                        record.finished = True
                        if deals_next:
                            tally.games += 1
                            tally.deals += 1
                        return
                    if phase == "deal_over" and deals_next:
                        action = "next"
                    elif phase == "playing" and last["waiting_for"] == last["seat"] and not last["thinking"]:
                        action = rng.choice(last["deal"]["legal"])
                    else:
                        continue
                    if think > 0:
                        await asyncio.sleep(rng.uniform(0, 2 * think))
                    sent = Sent(last["deal_number"], action)
                    if action == "next":
                        tally.deals += 1
                    else:
                        record.sent.append(sent)
                    tally.actions += 1
                    pending = (sent, time.perf_counter(), position(last))
                    await ws.send(json.dumps({"type": "act", "action": action}))
        except (OSError, ConnectionClosed, InvalidHandshake, TimeoutError) as err:
            if restart.generation == generation and restart.mode == "none":
                tally.errors.append(f"{type(err).__name__}: {err}")
                return
            if restart.generation == generation:  # dropped before the restart was announced: wait for it
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(_next_generation(restart, generation), 30)
                if restart.generation == generation:
                    tally.errors.append(f"{type(err).__name__}: {err}")
                    return
            if pending is not None:
                tally.in_flight += 1
            try:
                await asyncio.wait_for(restart.up.wait(), RECONNECT_TIMEOUT)
            except TimeoutError:
                tally.errors.append("the restarted server did not come back")
                return
            tally.reconnects += 1
        except Exception as err:  # anything else counts as an error, the run goes on
            tally.errors.append(f"{type(err).__name__}: {err}")
            return


async def steady(restart: Restart) -> int:
    """The server's generation once it is up: a connection or request begun under it and cut off is the
    restart's doing exactly when the generation has changed since."""
    await restart.up.wait()
    return restart.generation


async def across_restart(restart: Restart, set_up: Callable[[], Awaitable[T]]) -> T:
    """``set_up()`` (the HTTP requests that make a game), made again from the start if a restart cut it off:
    a player starting a game while the server restarts tries again, as a person would."""
    while True:
        generation = await steady(restart)
        try:
            return await set_up()
        except urllib.error.HTTPError:  # an answer, not a cut-off
            raise
        except (OSError, HTTPException):  # (reset, refused, a timeout; an answer cut short)
            if restart.generation == generation:
                raise


async def _next_generation(restart: Restart, generation: int) -> None:
    while restart.generation == generation:
        await asyncio.sleep(0.05)


async def computer_player(port: int, rules: str, level: str, seed: int, tally: Tally, restart: Restart,
                          think: float = 0.0) -> None:
    """One player against the computer: a game, a WebSocket, random legal moves until the Bummerl is over."""
    try:
        game = await across_restart(restart, partial(asyncio.to_thread, http, port, "POST", "/api/games",
                                                     {"rules": rules, "level": level, "seed": seed}))
    except Exception as err:
        tally.errors.append(f"{type(err).__name__}: {err}")
        return
    seat = Seat(game["id"], 0)
    tally.seats.append(seat)
    await play_seat(ws_url(port, game), seat, random.Random(seed), tally, restart, think=think)


async def friend_game(port: int, rules: str, number: int, seed: int, tally: Tally, restart: Restart,
                      think: float = 0.0) -> None:
    """Two players: each registers (``POST /api/players``), the first invites (``POST /api/friends``), the
    second joins; then a client per seat plays random legal moves (the host asks for the next deals)."""
    tries = itertools.count(1)

    async def set_up() -> tuple[dict[str, Any], dict[str, Any]]:
        tried = next(tries)  # (the names taken by a try cut off stay taken)
        again = f" {tried}" if tried > 1 else ""
        names = [{"name": f"{who} {number}{again}"} for who in ("Host", "Guest")]
        host, guest = [await asyncio.to_thread(http, port, "POST", "/api/players", name) for name in names]
        made = await asyncio.to_thread(http, port, "POST", "/api/friends", {"rules": rules, "rated": True},
                                       host["key"])
        joined = await asyncio.to_thread(http, port, "POST", f"/api/friends/{made['invite']}/join", None,
                                         guest["key"])
        return made, joined

    try:
        made, joined = await across_restart(restart, set_up)
    except Exception as err:
        tally.errors.append(f"{type(err).__name__}: {err}")
        return
    seats = [Seat(made["id"], made["seat"]), Seat(joined["id"], joined["seat"])]
    tally.seats.extend(seats)
    await asyncio.gather(
        play_seat(ws_url(port, made), seats[0], random.Random(seed), tally, restart, think=think),
        play_seat(ws_url(port, joined), seats[1], random.Random(seed + 1), tally, restart, think=think,
                  deals_next=False))


# ---------------------------------------------------------------------------------------------- checking


def compare(record: dict[str, Any], sent: dict[int, list[Sent]]) -> tuple[int, int]:
    """(answered actions missing from a stored game record, stored actions nobody sent): the record is
    replayed to learn which seat made each action, then each seat's actions in each deal are aligned with
    what that seat's client sent (an action sent but never answered may be missing).

    >>> deck = "JH KH QH JC QC KC AH AS TH JD QD TC AC KD TD AD JS QS KS TS".split()
    >>> rec = {"rules": "standard", "first_dealer": 1,
    ...        "deals": [{"dealer": 1, "deck": deck, "actions": ["exchange", "play AS"]}]}
    >>> compare(rec, {0: [Sent(1, "exchange", True), Sent(1, "play AS", True)]})
    (0, 0)
    >>> compare(rec, {0: [Sent(1, "exchange", True), Sent(1, "play QH", False), Sent(1, "play AS", True)]})
    (0, 0)
    >>> compare(rec, {0: [Sent(1, "exchange", True), Sent(1, "play AS", True), Sent(1, "play KH", True)]})
    (1, 0)
    >>> compare(rec, {0: [Sent(1, "play AS", True)]})
    (0, 1)
    """
    game = GameRecord.from_json(record)
    stored: dict[int, dict[int, list[str]]] = {0: {}, 1: {}}
    for number, deal in enumerate(game.deals, start=1):
        for step, _ in deal.walk():
            stored[step.to_move].setdefault(number, []).append(step.action)
    lost = phantom = 0
    for seat, actions in sent.items():
        numbers = set(stored[seat]) | {s.deal for s in actions}
        for number in sorted(numbers):
            mine = [s for s in actions if s.deal == number]
            theirs = stored[seat].get(number, [])
            miss, extra = _align([(str(Action.parse(s.action)), s.acked) for s in mine], theirs)
            lost += miss
            phantom += extra
    return lost, phantom


def _align(sent: list[tuple[str, bool]], stored: list[str]) -> tuple[int, int]:
    """The alignment of what was sent with what was stored with the fewest failures: (answered actions
    not stored, stored actions not sent)."""
    best: dict[tuple[int, int], tuple[int, int]] = {}
    for i in range(len(sent), -1, -1):
        for j in range(len(stored), -1, -1):
            if i == len(sent):
                best[i, j] = (0, len(stored) - j)
                continue
            options = [(best[i + 1, j][0] + sent[i][1], best[i + 1, j][1])]  # the sent action is not stored
            if j < len(stored):
                options.append((best[i, j + 1][0], best[i, j + 1][1] + 1))  # a stored action nobody sent
                if sent[i][0] == stored[j]:
                    options.append(best[i + 1, j + 1])
            best[i, j] = min(options, key=sum)
    return best[0, 0]


def check_records(port: int, tally: Tally) -> None:
    """Compare every finished game's stored record with what its clients sent (:func:`compare`)."""
    by_game: dict[str, dict[int, list[Sent]]] = {}
    finished: dict[str, bool] = {}
    for seat in tally.seats:
        by_game.setdefault(seat.game, {})[seat.seat] = seat.sent
        finished[seat.game] = finished.get(seat.game, True) and seat.finished
    for game_id, sent in by_game.items():
        if not finished[game_id]:
            continue
        try:
            record = http(port, "GET", f"/api/games/{game_id}/record")
        except Exception as err:
            tally.errors.append(f"the record of game {game_id}: {type(err).__name__}: {err}")
            continue
        lost, phantom = compare(record, sent)
        tally.checked += 1
        tally.lost += lost
        tally.phantom += phantom


# ---------------------------------------------------------------------------------------------- running


async def run_players(port: int, games: int, rules: str, level: str, seed: int, think: float = 0.0, *,
                      friends: bool = False, server: ServerProcess | None = None, restart_mode: str = "none",
                      restart_after: int = 0, cpu: CpuUse | None = None) -> tuple[Tally, Restart]:
    """Every game at once (a restart of ``server`` once half of them are over, or once ``restart_after``
    actions were answered); what the players measured."""
    tally = Tally()
    restart = Restart(restart_mode)
    if restart_after:
        restart.when = f"once {restart_after} actions were answered"
    restart.up.set()
    if friends:
        players = [friend_game(port, rules, i, seed * 100_003 + 2 * i, tally, restart, think)
                   for i in range(games)]
    else:
        players = [computer_player(port, rules, level, seed * 100_003 + i, tally, restart, think)
                   for i in range(games)]
    everyone = asyncio.gather(*players)
    if server is not None and restart_mode != "none":
        while not everyone.done() and (len(tally.latencies) < restart_after if restart_after
                                       else tally.games < games // 2):
            await asyncio.sleep(0.01)
        if not everyone.done():
            await _restart(server, restart, cpu)
    await everyone
    return tally, restart


async def _restart(server: ServerProcess, restart: Restart, cpu: CpuUse | None) -> None:
    restart.up.clear()
    restart.generation += 1
    if cpu is not None:
        cpu.add(cpu_use(server.pid))
    restart.killed_at = time.perf_counter()
    await asyncio.to_thread(server.kill if restart.mode == "kill" else server.stop)
    await asyncio.to_thread(server.start)
    restart.downtime = time.perf_counter() - restart.killed_at
    if cpu is not None:  # the new server's start-up is not the players' load
        started = cpu_use(server.pid)  # (not settled: the players are back at once)
        cpu.add(CpuUse(-started.loop, -started.server, -started.workers))
    restart.up.set()


def report(tally: Tally, seconds: float, games: int, server_kib: int, workers_kib: list[int], *,
           friends: bool = False, cpu: CpuUse | None = None, client_cpu: float = 0.0,
           restart: Restart | None = None) -> list[str]:
    """The result lines, ending with the verdict against the target."""
    ms = [x * 1000 for x in tally.latencies]
    p50, p95 = quantile(ms, 0.5), quantile(ms, 0.95)
    clients = 2 * games if friends else games
    what = "friend games (2 clients each)" if friends else "games against the computer"
    lines = [
        f"games at once        {games} {what}  (load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} "
        "cores)",
        f"limits               lifted (bummerl serve {' '.join(SERVE_OPTIONS)}: {clients} clients from "
        "one address)",
        f"wall time            {seconds:.1f} s",
        f"Bummerls finished    {tally.games}  ({tally.games / seconds:.2f} games/s)",
        f"deals, actions       {tally.deals} deals ({tally.deals / seconds:.1f}/s), "
        f"{tally.actions} actions ({tally.actions / seconds:.0f}/s)",
        f"act→view             p50 {p50:.1f} ms   p95 {p95:.1f} ms   "
        f"max {max(ms, default=float('nan')):.1f} ms   ({len(ms)} actions answered)",
    ]
    if cpu is not None and tally.actions:
        per = 1000 / tally.actions
        lines.append(f"CPU per action       server {cpu.server * per:.2f} ms (its event loop's thread "
                     f"{cpu.loop * per:.2f} ms), thinking workers {cpu.workers * per:.2f} ms, "
                     f"clients {client_cpu * per:.2f} ms")
    if restart is not None and restart.mode != "none" and restart.generation:
        down = ("never came back" if restart.downtime is None
                else f"answering again {restart.downtime:.1f} s later")
        signal = "SIGKILL" if restart.mode == "kill" else "SIGTERM"
        lines.append(f"restart              {signal} {restart.when}, {down}; "
                     f"{tally.reconnects} reconnects, {tally.in_flight} actions in flight")
        if restart.killed_at is not None and len(tally.answered) == len(ms):
            before = [x for x, t in zip(ms, tally.answered, strict=True) if t < restart.killed_at]
            after = [x for x, t in zip(ms, tally.answered, strict=True) if t >= restart.killed_at]
            lines.append(f"  act→view answered before the kill: p50 {quantile(before, 0.5):.1f} ms "
                         f"p95 {quantile(before, 0.95):.1f} ms ({len(before)}); after it: p50 "
                         f"{quantile(after, 0.5):.1f} ms p95 {quantile(after, 0.95):.1f} ms ({len(after)})")
    elif restart is not None and restart.mode != "none":
        lines.append("restart              none: every game was over first")
    lines += [
        f"stored records       {tally.checked} finished games compared: {tally.lost} answered actions lost, "
        f"{tally.phantom} stored actions nobody sent",
        f"errors               {len(tally.errors)}"
        + (f"  (first: {tally.errors[0]})" if tally.errors else ""),
        *[f"  {n} x {error}" for error, n in Counter(tally.errors).most_common(5) if len(tally.errors) > 1],
        f"memory (VmRSS)       server {server_kib / 1024:.0f} MiB; {len(workers_kib)} thinking workers "
        f"{sum(workers_kib) / 1024:.0f} MiB in all",
    ]
    met = (p95 < TARGET_P95_MS and not tally.errors and tally.games == games and tally.checked == games
           and tally.lost == 0 and tally.phantom == 0)
    lines.append(f"target: {games} {'friend ' if friends else ''}games at once, p95 act→view < "
                 f"{TARGET_P95_MS:.0f} ms, 0 lost, 0 errors: " + ("met" if met else "MISSED"))
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--friends", action="store_true", help="games between two clients (issue 14)")
    parser.add_argument("--players", type=positive, default=100, help="games against the computer at once")
    parser.add_argument("--games", type=positive, default=200, help="friend games at once (--friends)")
    parser.add_argument("--level", default="medium")
    parser.add_argument("--rules", default="standard")
    parser.add_argument("--workers", type=positive, default=2, help="the server's thinking processes")
    parser.add_argument("--think", type=float, default=0.0, help="mean seconds a player waits before acting")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--restart", choices=("none", "stop", "kill"), default=None,
                        help="restart the server once half the games are over (default: kill with "
                             "--friends, none without)")
    parser.add_argument("--restart-after", type=int, default=0, metavar="N",
                        help="restart once N actions were answered (default: once half the games are over)")
    parser.add_argument("--port", type=int, default=None,
                        help="use a server already listening on this localhost port (e.g. under a profiler; "
                             "no restart, no CPU figures)")
    args = parser.parse_args(argv)
    games = args.games if args.friends else args.players
    restart_mode = args.restart or ("kill" if args.friends else "none")
    play = {"rules": args.rules, "level": args.level, "seed": args.seed, "think": args.think,
            "friends": args.friends}
    if args.port is not None:
        start = time.perf_counter()
        tally, _ = asyncio.run(run_players(args.port, games, **play))
        seconds = time.perf_counter() - start
        check_records(args.port, tally)
        lines = report(tally, seconds, games, 0, [], friends=args.friends)
        print("\n".join(lines))
        return verdict(lines)
    with tempfile.TemporaryDirectory(prefix="bummerl-web-load-") as home:
        server = ServerProcess(Path(home), workers=args.workers, options=SERVE_OPTIONS)
        server.start()
        try:
            cpu = CpuUse()
            before = settled(server.pid)
            cpu.add(CpuUse(-before.loop, -before.server, -before.workers))
            client_start = time.process_time()
            start = time.perf_counter()
            tally, restart = asyncio.run(run_players(server.port, games, **play, server=server,
                                                     restart_mode=restart_mode,
                                                     restart_after=args.restart_after, cpu=cpu))
            seconds = time.perf_counter() - start
            client_cpu = time.process_time() - client_start
            cpu.add(cpu_use(server.pid))
            server_kib = rss_kib(server.pid)
            workers_kib = [rss_kib(c) for c in children(server.pid)]
            check_records(server.port, tally)
        finally:
            server.stop()
    lines = report(tally, seconds, games, server_kib, workers_kib, friends=args.friends, cpu=cpu,
                   client_cpu=client_cpu, restart=restart)
    print("\n".join(lines))
    return verdict(lines)


def verdict(lines: list[str]) -> int:
    """The exit status of a report: 0 when its last line says the target was met, 1 when MISSED."""
    return 0 if lines[-1].endswith(": met") else 1


def _stop(signum: int, frame: object) -> None:
    raise KeyboardInterrupt  # the server it started, its workers and its data directory are cleaned up


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, _stop)  # kill, timeout: as Ctrl-C
    try:
        raise SystemExit(main())
    except KeyboardInterrupt:
        print("error: interrupted: the server it started is stopped; no report", file=sys.stderr)
        raise SystemExit(130) from None
