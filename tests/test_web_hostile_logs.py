"""Logs of errors without hidden cards (issue 14, server hygiene; server/logs.py).

The rule, stricter than "no card hidden at the time": no line the web server logs names a card at all (nor
a seat token). A real server (``bummerl serve`` in a subprocess) with bugs planted whose messages carry the
deal, both hands and the views (tests/helpers/crashing_server.py) is driven through bad messages, illegal
actions, over-large frames, floods, an action that crashes the socket, an analysis that crashes in its
task and a computer that crashes on every move; its stderr must show that the errors were logged, and no
card and no token in any line."""

from __future__ import annotations

import contextlib
import json
import logging
import os
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from bummerl.server.logs import Redact, install, redact
from helpers.crashing_server import CRASH, MARKER
from helpers.web import free_port

TESTS = Path(__file__).resolve().parent
KEY = "X-Player-Key"


def post(url: str, body: dict[str, Any], key: str = "") -> dict[str, Any]:
    headers = {"Content-Type": "application/json", **({KEY: key} if key else {})}
    request = urllib.request.Request(url, json.dumps(body).encode(), headers)
    with urllib.request.urlopen(request, timeout=60) as answer:
        result: dict[str, Any] = json.loads(answer.read())
        return result


def replies(ws: Any, until: str, timeout: float = 60) -> list[dict[str, Any]]:
    """Messages up to and including the first of type ``until``."""
    got: list[dict[str, Any]] = []
    while not got or got[-1]["type"] != until:
        got.append(json.loads(ws.recv(timeout=timeout)))
    return got


def test_the_filter_takes_cards_and_tokens_out_of_messages_arguments_and_tracebacks() -> None:
    install()
    install()  # twice is once
    for name in ("uvicorn.error", "asyncio", "bummerl"):
        assert sum(isinstance(f, Redact) for f in logging.getLogger(name).filters) == 1
    deal = "<Deal standard dealer=0 deck='JH KH QH JC QC KC AH AS TH JD QD TC AC KD TD AD JS QS KS TS'>"
    try:
        raise RuntimeError(f"bad state {deal} hands ['Q♥ K♥', 'Herz O', 'Eichel Sau']")
    except RuntimeError:
        record = logging.getLogger("uvicorn.error").makeRecord(
            "uvicorn.error", logging.ERROR, __file__, 1, "Exception in %s at %s",
            ("ASGI application", "/ws/games/x?token=SECRETtoken_12345"), sys.exc_info())
    assert Redact().filter(record) and Redact().filter(record)  # keeps the record; a second pass is a no-op
    text = logging.Formatter("%(levelname)s %(message)s").format(record)
    assert text.startswith("ERROR Exception in ASGI application at /ws/games/x?token=…\nTraceback")
    assert "RuntimeError: bad state <Deal standard dealer=0 deck='?? ??" in text and record.exc_info is None
    assert redact(text) == text and "SECRET" not in text and "QH" not in text and "Q♥" not in text
    assert "Herz O" not in text and "Eichel Sau" not in text
    access = logging.LogRecord("uvicorn.access", logging.INFO, "", 1, '%s - "%s %s HTTP/%s" %d',
                               ("127.0.0.1:5", "GET", "/ws/games/x?token=abcdef123", "1.1", 101), None)
    Redact().filter(access)  # uvicorn's access formatter reads the arguments: they stay five
    assert access.args == ("127.0.0.1:5", "GET", "/ws/games/x?token=…", "1.1", 101)


def test_a_server_with_planted_bugs_logs_its_errors_without_a_card(tmp_path: Path) -> None:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    env = dict(os.environ, BUMMERL_HOME=str(tmp_path),
               PYTHONPATH=os.pathsep.join([str(TESTS), os.environ.get("PYTHONPATH", "")]))
    proc = subprocess.Popen([sys.executable, "-m", "helpers.crashing_server", "serve", "--port", str(port),
                             "--workers", "1"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    tokens: list[str] = []
    try:
        deadline = time.monotonic() + 60
        while True:
            assert proc.poll() is None, "the server exited"
            with contextlib.suppress(OSError):
                urllib.request.urlopen(url + "/api/stats", timeout=5).read()
                break
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.1)
        ann, bob = (post(url + "/api/players", {"name": n}) for n in ("Ann", "Bob"))
        made = post(url + "/api/friends", {}, ann["key"])
        bobs = post(f"{url}/api/friends/{made['invite']}/join", {}, bob["key"])
        tokens += [made["token"], bobs["token"], ann["key"], bob["key"]]
        ws_url = f"ws://127.0.0.1:{port}/ws/games/{made['id']}?token="
        with connect(ws_url + made["token"]) as a, connect(ws_url + bobs["token"]) as b:
            views = [replies(a, "view")[-1], replies(b, "view")[-1]]
            view = views[views[0]["waiting_for"]]  # the mover's
            other = [b, a][view["waiting_for"]]
            for bad in ("not json", json.dumps({"type": "act", "action": "play AS" + "x" * 5000}),
                        json.dumps({"type": "act", "action": "play 7X"}), json.dumps({"type": "dance"})):
                other.send(bad)
                assert replies(other, "error")[-1]["type"] == "error"
            other.send(json.dumps({"type": "act", "action": view["deal"]["legal"][0]}))  # not its turn
            assert "turn" in replies(other, "error")[-1]["reason"]
            for _ in range(300):  # a flood
                other.send(json.dumps({"type": "act", "action": "dance"}))
            while "too many" not in replies(other, "error")[-1]["reason"]:
                pass
            mover = [a, b][view["waiting_for"]]
            mover.send(json.dumps({"type": "analyse"}))  # crashes in its task
            mover.send(json.dumps({"type": "act", "action": CRASH}))  # crashes out of the socket
            with pytest.raises(ConnectionClosed):
                while True:
                    mover.recv(timeout=60)
        game = post(url + "/api/games", {"rules": "standard", "level": "easy", "seed": 5, "dealer": 0})
        # seat 0 dealt: the computer leads, and crashes
        tokens.append(game["token"])
        with connect(f"ws://127.0.0.1:{port}/ws/games/{game['id']}?token={game['token']}") as ws:
            failed = replies(ws, "error")[-1]["reason"]
            assert "the computer failed to move" in failed and redact(failed) == failed
    finally:
        proc.terminate()
        try:
            _, err = proc.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
            _, err = proc.communicate()
    log = err.decode("utf-8", "replace")
    assert "Exception in ASGI application" in log and f"RuntimeError: {MARKER} in act: <Deal" in log, log
    assert f"WARNING:bummerl.server.games:{MARKER}" in log or f"{MARKER}: about to fail" in log, log
    assert "the computer (easy) failed to move" in log and f"{MARKER} in the computer" in log, log
    leaks = [line for line in log.splitlines() if redact(line) != line]
    assert leaks == [], leaks
    assert not [t for t in tokens if t in log]
