"""Helpers for the web server tests: the cards a frame mentions, the cards a seat may not see, a computer
that waits at a gate, a server in a subprocess, and a headless Chromium."""

from __future__ import annotations

import contextlib
import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from bummerl import Deal
from bummerl.cards import CARDS, Card, cards_in
from bummerl.view import View

#: Launch options for Debian's chromium (no sandbox in containers, nothing fetched from the internet).
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]

_CODE = re.compile(r"^(?:play )?([9JQKTA][CDHS])$")
_FRENCH = re.compile(r"(10|[9JQKA])([♣♦♥♠])")
_SYMBOLS = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}


def cards_mentioned(value: Any) -> set[str]:
    """Every card a JSON value names: card codes (``"QH"``, ``"play QH"``) and French card names in texts
    (``"Q♥"``, ``"10♠"``)."""
    out: set[str] = set()
    if isinstance(value, dict):
        for v in value.values():
            out |= cards_mentioned(v)
    elif isinstance(value, list):
        for v in value:
            out |= cards_mentioned(v)
    elif isinstance(value, str):
        m = _CODE.match(value)
        if m:
            out.add(m.group(1))
        for rank, suit in _FRENCH.findall(value):
            out.add(("T" if rank == "10" else rank) + _SYMBOLS[suit])
    return out


def hidden_from(deal: Deal, seat: int, *, revealed: bool = False) -> set[str]:
    """The cards ``seat`` may not see in ``deal`` (worked out from the deal itself, not from a View): the
    face-down talon, and the opponent's cards that were never shown (a marriage partner, the trump card
    taken by an exchange, the trump card drawn last) unless ``revealed`` (the hands shown at a deal's end)."""
    opp = 1 - seat
    shown = {deal.trump_card} if deal.trump_card >= 0 else set()
    for player, suit in deal.marriages:
        if player == opp:
            shown |= {suit * 6 + 2, suit * 6 + 3}
    if deal.exchanged is not None:
        shown |= {int(deal.exchanged[1]), int(deal.exchanged[2])}
    hidden = set() if revealed else {c for c in cards_in(deal.hands[opp]) if int(c) not in shown}
    if deal.closed_by >= 0 or deal.talon_size > 0:
        hidden |= {CARDS[int(c)] for c in deal.stock[deal.drawn:]}
    return {str(Card.from_index(int(c))) for c in hidden}


def matching_state(rules: Any, dealer: int, deck: Any, actions: list[str], seat: int,
                   frame_deal: dict[str, Any], score: Any) -> Deal | None:
    """The deal after the prefix of ``actions`` whose view for ``seat`` is exactly ``frame_deal``."""
    deal = Deal(rules, tuple(int(c) for c in deck), dealer)
    for i in range(len(actions) + 1):
        if View.of(deal, seat, score).to_json() | _masked(frame_deal) == frame_deal:
            return deal
        if i < len(actions):
            deal.apply(actions[i])
    return None


def _masked(frame_deal: dict[str, Any]) -> dict[str, Any]:
    """The fields the server may null out (running points under ``open_tricks`` off)."""
    return {k: None for k in ("points", "pending", "close_snapshot") if frame_deal.get(k) is None}


# ----------------------------------------------------------------------------- a computer at a gate

GATE_ENV = "BUMMERL_TEST_GATE"


def gated_decide(level: str, seed: int, view: View) -> str:
    """:func:`bummerl.server.thinker.decide`, but the ``expert`` waits until the file named by
    ``$BUMMERL_TEST_GATE`` exists (at most a minute): a computer that thinks as long as a test wants."""
    from bummerl.server.thinker import decide

    if level == "expert":
        gate = Path(os.environ[GATE_ENV])
        deadline = time.monotonic() + 60
        while not gate.exists() and time.monotonic() < deadline:
            time.sleep(0.02)
    return decide(level, seed, view)


# ----------------------------------------------------------------------------- a real server

def free_port() -> int:
    """A TCP port nobody listens on now."""
    with contextlib.closing(socket.socket()) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ServerProcess:
    """``bummerl serve`` in a subprocess on a fixed port and data directory (so it can be restarted)."""

    def __init__(self, home: Path, port: int | None = None) -> None:
        self.home = home
        self.port = port or free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 60) -> None:
        env = dict(os.environ, BUMMERL_HOME=str(self.home))
        code = "from bummerl.cli import main; main()"
        self.proc = subprocess.Popen([sys.executable, "-c", code, "serve", "--port", str(self.port),
                                      "--workers", "1"], env=env, stdout=subprocess.DEVNULL)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited with {self.proc.returncode}")
            with contextlib.suppress(OSError):
                urllib.request.urlopen(self.url + "/api/stats", timeout=5).read()
                return
            time.sleep(0.1)
        raise RuntimeError("the server did not start")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None

    def post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        import json

        request = urllib.request.Request(self.url + path, json.dumps(body).encode(),
                                         {"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=30) as answer:
            result: dict[str, Any] = json.loads(answer.read())
            return result


@contextlib.contextmanager
def running_server(home: Path) -> Iterator[ServerProcess]:
    """A started server, stopped at the end."""
    server = ServerProcess(home)
    server.start()
    try:
        yield server
    finally:
        server.stop()
