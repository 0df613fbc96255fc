"""Load on the web server: N simulated players at once, each a bounded WebSocket client on localhost playing
random legal moves against the computer (``medium`` by default) until its Bummerl ends.

The server runs as ``bummerl serve`` in its own process (with its own data directory), the players as
asyncio clients in this one. Measured:

- **act→view**: from sending an ``act`` to receiving the server's ``view`` answering it (the view of the
  position after the player's own action: sent once the action is stored, before the computer thinks, so
  the computer's thinking is not in it); exact p50/p95/max over every action of every player;
- **games/s**: finished Bummerls per second of wall time (and deals/s, actions/s);
- **errors**: ``error`` messages and failed connections (the target is none);
- **memory**: resident memory (VmRSS) of the server process and of its thinking workers at the end.

The target (issue 13, on a 2-core machine): 100 games at once with p95 act→view under 50 ms and no error.

``--think S`` lets each player wait a random time (uniform, mean S seconds) before each action, like a
person; with 0 (the default) the players act the moment they may, which measures the server saturated:
then act→view is mostly the queue of the other players' actions. The machine's load average is printed,
since other work on it changes every number here.

Usage: python benchmarks/web_load.py [--players 100] [--level medium] [--rules standard] [--workers 2]
       [--think 0] [--seed 1] [--port P]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bummerl.server.process import ServerProcess

#: The issue's target: p95 act→view in milliseconds, and no error.
TARGET_P95_MS = 50.0


@dataclass
class Tally:
    """What the players measured."""

    latencies: list[float] = field(default_factory=list)  # seconds, act → view
    games: int = 0
    deals: int = 0
    actions: int = 0
    errors: list[str] = field(default_factory=list)


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
    """The direct child processes of ``pid`` (Linux /proc)."""
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, IndexError, ValueError):
                stat = (entry / "stat").read_text()
                if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                    out.append(int(entry.name))
    return out


def new_game(port: int, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(f"http://127.0.0.1:{port}/api/games", json.dumps(body).encode(),
                                     {"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as answer:
        result: dict[str, Any] = json.loads(answer.read())
        return result


async def player(port: int, rules: str, level: str, seed: int, tally: Tally, think: float = 0.0) -> None:
    """One player: a game, a WebSocket, random legal moves until the Bummerl is over."""
    from websockets.asyncio.client import connect

    rng = random.Random(seed)
    try:
        game = await asyncio.to_thread(new_game, port, {"rules": rules, "level": level, "seed": seed})
        url = f"ws://127.0.0.1:{port}/ws/games/{game['id']}?token={game['token']}"
        async with connect(url, max_size=1 << 22, open_timeout=60) as ws:
            sent_at: float | None = None
            async for raw in ws:
                msg = json.loads(raw)
                if msg["type"] == "error":
                    tally.errors.append(msg["reason"])
                    continue
                if msg["type"] != "view":
                    continue
                if sent_at is not None:  # the first view after an act answers it
                    tally.latencies.append(time.perf_counter() - sent_at)
                    sent_at = None
                phase = msg["phase"]
                if phase == "game_over":
                    tally.games += 1
                    tally.deals += 1
                    return
                if phase == "deal_over":
                    tally.deals += 1
                    action = "next"
                elif msg["waiting_for"] == msg["seat"] and not msg["thinking"]:
                    action = rng.choice(msg["deal"]["legal"])
                else:
                    continue
                if think > 0:
                    await asyncio.sleep(rng.uniform(0, 2 * think))
                tally.actions += 1
                sent_at = time.perf_counter()
                await ws.send(json.dumps({"type": "act", "action": action}))
    except Exception as err:  # a failed connection counts as an error, the run goes on
        tally.errors.append(f"{type(err).__name__}: {err}")


async def run_players(port: int, players: int, rules: str, level: str, seed: int,
                      think: float = 0.0) -> Tally:
    """Every player at once; what they measured."""
    tally = Tally()
    await asyncio.gather(*(player(port, rules, level, seed * 100_003 + i, tally, think)
                           for i in range(players)))
    return tally


def report(tally: Tally, seconds: float, players: int, server_kib: int, workers_kib: list[int]) -> list[str]:
    """The result lines, ending with the verdict against the target."""
    ms = [x * 1000 for x in tally.latencies]
    p50, p95 = quantile(ms, 0.5), quantile(ms, 0.95)
    lines = [
        f"players at once      {players}  (load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)",
        f"wall time            {seconds:.1f} s",
        f"Bummerls finished    {tally.games}  ({tally.games / seconds:.2f} games/s)",
        f"deals, actions       {tally.deals} deals ({tally.deals / seconds:.1f}/s), "
        f"{tally.actions} actions ({tally.actions / seconds:.0f}/s)",
        f"act→view             p50 {p50:.1f} ms   p95 {p95:.1f} ms   "
        f"max {max(ms, default=float('nan')):.1f} ms   ({len(ms)} actions)",
        f"errors               {len(tally.errors)}"
        + (f"  (first: {tally.errors[0]})" if tally.errors else ""),
        f"memory (VmRSS)       server {server_kib / 1024:.0f} MiB; {len(workers_kib)} thinking workers "
        f"{sum(workers_kib) / 1024:.0f} MiB in all",
    ]
    met = p95 < TARGET_P95_MS and not tally.errors and tally.games == players
    lines.append(f"target: {players} games at once, p95 act→view < {TARGET_P95_MS:.0f} ms, no error: "
                 + ("met" if met else "MISSED"))
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=100)
    parser.add_argument("--level", default="medium")
    parser.add_argument("--rules", default="standard")
    parser.add_argument("--workers", type=int, default=2, help="the server's thinking processes")
    parser.add_argument("--think", type=float, default=0.0, help="mean seconds a player waits before acting")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--port", type=int, default=None,
                        help="use a server already listening on this localhost port (e.g. under a profiler)")
    args = parser.parse_args(argv)
    if args.port is not None:
        start = time.perf_counter()
        tally = asyncio.run(run_players(args.port, args.players, args.rules, args.level, args.seed,
                                        args.think))
        for line in report(tally, time.perf_counter() - start, args.players, 0, []):
            print(line)
        return 0
    with tempfile.TemporaryDirectory(prefix="bummerl-web-load-") as home:
        server = ServerProcess(Path(home), workers=args.workers)
        server.start()
        try:
            start = time.perf_counter()
            tally = asyncio.run(run_players(server.port, args.players, args.rules, args.level, args.seed,
                                            args.think))
            seconds = time.perf_counter() - start
            server_kib = rss_kib(server.pid)
            workers_kib = [rss_kib(c) for c in children(server.pid)]
        finally:
            server.stop()
    for line in report(tally, seconds, args.players, server_kib, workers_kib):
        print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
