"""Outside bots: any program that speaks JSON lines on standard input and output can play.

Name one with the spec ``cmd:COMMAND`` wherever a bot name is taken (``bummerl arena random
"cmd:python examples/random_bot.py"``). The command line is split like a shell would split it (no shell
runs it); a leading ``python`` or ``python3`` means the interpreter bummerl runs on. The program's
standard error is kept, and its last lines are quoted when it fails.

Protocol (version 1). Every message is one JSON object on one line, in UTF-8; the program answers on its
standard output, one line per answer, and must flush after each line.

``hello`` (first message) -- answer with a JSON object, e.g. ``{"name": "my bot"}``::

    {"type": "hello", "protocol": 1, "seed": 12345, "timeout": 10.0}

``decide`` (whenever it is this bot's turn) -- answer with the action string, either bare
(``play QH``), as a JSON string (``"play QH"``) or as an object (``{"action": "play QH"}``)::

    {"type": "decide", "seat": 0, "dealer": 1, "to_move": 0, "rules": "standard",
     "hand": ["QH", "TC", "AS", "KS", "TD"], "trump": "H", "trump_card": "AH", "bottom_card": "AH",
     "talon_size": 10, "talon_open": true, "closed_by": null, "close_snapshot": null,
     "lead": null, "married": null, "tricks": [{"leader": 0, "lead": "AS", "follow": "QS", "winner": 0}],
     "marriages": [{"player": 1, "suit": "D"}], "exchanged": {"player": 0, "gave": "JH", "took": "AH"},
     "points": [14, 0], "tricks_won": [1, 0], "pending": [0, 0], "opponent_hand_size": 5,
     "score": [7, 7], "legal": ["close", "play AS", "play KS"]}

  ``rules`` is the contract's form (a preset name or an object of flags), ``trump_card`` the face-up card
  (null once closed or drawn), ``bottom_card`` the trump card under the talon face up or turned down by
  closing, ``score`` the game points each seat still needs in a Bummerl (null outside one), ``legal``
  sorted action strings. Cards and actions are the contract's strings (rules.md sections 1 and 3).

``deal_end`` (after each deal this bot played; no answer)::

    {"type": "deal_end", "seat": 0, "result": {"winner": 1, "game_points": 2, "reason": "claim"},
     "points": [40, 66], "tricks_won": [2, 4], "score": [7, 7], "fault": null}

  ``fault`` is null, or the reason a bot forfeited the deal (its own, or the other bot's).

``bye`` (the end; no answer): the program should exit. Its standard input is closed after it.

An answer that is not valid JSON (when it starts with ``{`` or ``"``), an object without an ``action``
string, a text that is no action, an action that is not legal, a line nobody asked for, no answer
within the timeout, or a program that exits: each raises :class:`ExternalBotError` with a one-line
reason (the arena records it as that bot's fault and goes on). After a timeout or a crash the program
is stopped, and started again (at most ``max_restarts`` times) when the next deal begins.

>>> import sys
>>> program = "import sys\\nfor line in sys.stdin: print('{}' if 'hello' in line else 'play AS', flush=True)"
>>> bot = ExternalBot([sys.executable, "-c", program])
>>> from bummerl import Deal, Rules, View
>>> deal = Deal.from_deck(Rules.preset("standard"),
...     "QH TC AS JD KD QS AH KS TD JH KH AD JC QC TH KC AC JS TS QD", dealer=1)
>>> str(bot.choose(View.of(deal, 0)))
'play AS'
>>> bot.close()
"""

from __future__ import annotations

import contextlib
import json
import os
import selectors
import shlex
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from typing import IO, Any

from bummerl.actions import Action, ActionParseError
from bummerl.engine import Outcome
from bummerl.view import View

__all__ = ["DEFAULT_TIMEOUT", "PROTOCOL_VERSION", "ExternalBot", "ExternalBotError", "view_to_json"]

PROTOCOL_VERSION = 1
#: Seconds a program may think about one decision.
DEFAULT_TIMEOUT = 10.0
#: Seconds a program may take to start and answer ``hello``.
STARTUP_TIMEOUT = 10.0
_MAX_LINE = 1 << 20


class ExternalBotError(RuntimeError):
    """An outside bot broke the protocol, timed out or died (the message says which)."""


def view_to_json(view: View) -> dict[str, Any]:
    """The ``decide`` message of the protocol for a view: ``type`` plus :meth:`View.to_json
    <bummerl.view.View.to_json>` (the one JSON form of a view, shared with the web server).

    >>> from bummerl import Deal, Rules
    >>> msg = view_to_json(View.of(Deal.random(Rules.preset("standard"), 7), 0))
    >>> msg["type"], msg["talon_size"], len(msg["hand"]), msg["legal"] == sorted(msg["legal"])
    ('decide', 10, 5, True)
    """
    return {"type": "decide", **view.to_json()}


def parse_reply(line: str) -> Action:
    """The action in one answer line: ``play QH``, ``"play QH"`` or ``{"action": "play QH"}``.

    >>> parse_reply('{"action": "marry H"}'), parse_reply("claim")
    (Action.parse('marry H'), Action.parse('claim'))
    >>> parse_reply('{"move": 1}')
    Traceback (most recent call last):
    ...
    bummerl.bots.external.ExternalBotError: answer has no "action" string: '{"move": 1}'
    """
    text = line.strip()
    if text[:1] in ("{", '"'):
        try:
            value = json.loads(text)
        except json.JSONDecodeError as err:
            raise ExternalBotError(f"malformed JSON answer {_clip(text)!r}: {err.msg}") from None
        if isinstance(value, dict):
            value = value.get("action")
        if not isinstance(value, str):
            raise ExternalBotError(f'answer has no "action" string: {_clip(text)!r}')
        text = value
    try:
        return Action.parse(text)
    except ActionParseError as err:
        raise ExternalBotError(f"unknown action in answer: {err}") from None


def _clip(text: str, limit: int = 80) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


class ExternalBot:
    """A bot played by an outside program over JSON lines (the protocol is in this module's docstring).

    The program is started on first use. Call :meth:`close` (or use ``with``) when done.
    """

    def __init__(
        self,
        command: str | Sequence[str],
        seed: int | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        name: str | None = None,
        max_restarts: int = 3,
        startup_timeout: float = STARTUP_TIMEOUT,
    ) -> None:
        argv = shlex.split(command) if isinstance(command, str) else list(command)
        if not argv:
            raise ValueError("an outside bot needs a command line (cmd:COMMAND)")
        if argv[0] in ("python", "python3"):
            argv[0] = sys.executable
        if timeout <= 0:
            raise ValueError(f"the timeout must be positive, not {timeout}")
        self.argv = argv
        self.seed = seed
        self.timeout = timeout
        self.startup_timeout = startup_timeout
        self.max_restarts = max_restarts
        self.name = name or "cmd:" + (command if isinstance(command, str) else shlex.join(argv))
        self.hello: dict[str, Any] | None = None
        self.restarts = 0
        self._proc: subprocess.Popen[bytes] | None = None
        self._stderr: IO[bytes] | None = None
        self._buffer = b""
        self._dead: str | None = None  # why the program is gone, once it is

    # ------------------------------------------------------------------------------------------ process

    def _start(self) -> None:
        self._stderr = tempfile.TemporaryFile()  # noqa: SIM115 - lives as long as the program runs
        try:
            self._proc = subprocess.Popen(
                self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._stderr, bufsize=0
            )
        except OSError as err:
            self._dead = f"cannot start {shlex.join(self.argv)!r}: {err.strerror or err}"
            raise ExternalBotError(self._dead) from None
        self._buffer = b""
        self._dead = None
        self._send({"type": "hello", "protocol": PROTOCOL_VERSION, "seed": self.seed,
                    "timeout": self.timeout})
        line = self._read_line(self.startup_timeout, "hello")
        try:
            hello = json.loads(line)
        except json.JSONDecodeError:
            hello = None
        if not isinstance(hello, dict):
            self._stop(f"bad hello answer {_clip(line.strip())!r} (expected a JSON object)")
            raise ExternalBotError(self._dead or "bad hello answer")
        self.hello = hello

    def _ensure(self) -> None:
        if self._proc is None and self._dead is None:
            self._start()
        if self._dead is not None:
            raise ExternalBotError(self._dead)

    def _stop(self, why: str) -> None:
        """Stop the program (it is out of step or gone) and remember why."""
        proc = self._proc
        if proc is not None:
            if proc.poll() is None:
                proc.kill()
            proc.wait()
            for pipe in (proc.stdin, proc.stdout):
                if pipe is not None:
                    pipe.close()
        self._proc = None
        self._dead = why

    def _stderr_tail(self) -> str:
        if self._stderr is None:
            return ""
        try:
            self._stderr.seek(0, os.SEEK_END)
            size = self._stderr.tell()
            self._stderr.seek(max(0, size - 400))
            tail = self._stderr.read().decode("utf-8", "replace").strip().splitlines()
        except (OSError, ValueError):
            return ""
        return f"; its last error output: {tail[-1].strip()!r}" if tail else ""

    def _crashed(self, when: str) -> ExternalBotError:
        proc = self._proc
        code: int | str | None = None
        if proc is not None:
            try:
                code = proc.wait(timeout=1.0)
            except subprocess.TimeoutExpired:
                code = "none: it closed its output"
        self._stop(f"the bot program exited (code {code}) {when}{self._stderr_tail()}")
        return ExternalBotError(self._dead or "the bot program exited")

    def _send(self, message: dict[str, Any]) -> None:
        proc = self._proc
        assert proc is not None and proc.stdin is not None
        data = (json.dumps(message, separators=(",", ":")) + "\n").encode()
        try:
            proc.stdin.write(data)
        except (BrokenPipeError, OSError):
            raise self._crashed(f"before the {message['type']} message") from None

    def _read_line(self, timeout: float, what: str) -> str:
        proc = self._proc
        assert proc is not None and proc.stdout is not None
        fd = proc.stdout.fileno()
        deadline = time.monotonic() + timeout
        with selectors.DefaultSelector() as sel:
            sel.register(fd, selectors.EVENT_READ)
            while b"\n" not in self._buffer:
                left = deadline - time.monotonic()
                if left <= 0 or not sel.select(left):
                    self._stop(f"no answer to {what} within {timeout:g} s (timeout)")
                    raise ExternalBotError(self._dead or "timeout")
                chunk = os.read(fd, 65536)
                if not chunk:
                    raise self._crashed(f"instead of answering {what}")
                self._buffer += chunk
                if len(self._buffer) > _MAX_LINE:
                    self._stop(f"answer to {what} longer than {_MAX_LINE} bytes")
                    raise ExternalBotError(self._dead or "answer too long")
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line.decode("utf-8", "replace")

    def _drain(self) -> None:
        """Read whatever the program has written already (unasked output is an error)."""
        proc = self._proc
        assert proc is not None and proc.stdout is not None
        fd = proc.stdout.fileno()
        with selectors.DefaultSelector() as sel:
            sel.register(fd, selectors.EVENT_READ)
            while len(self._buffer) <= _MAX_LINE and sel.select(0):
                chunk = os.read(fd, 65536)
                if not chunk:
                    return  # end of output: the next read reports the exit
                self._buffer += chunk

    # ------------------------------------------------------------------------------------------ bot

    def new_deal(self, view: View) -> None:
        """A deal begins: restart a program that was stopped (timeout or crash), within ``max_restarts``."""
        if self._dead is not None and self._proc is None and self.restarts < self.max_restarts:
            self.restarts += 1
            self._dead = None

    def choose(self, view: View) -> Action:
        """Send the view, read back the action; raise :class:`ExternalBotError` on any failure."""
        self._ensure()
        self._drain()
        if self._buffer.strip():
            extra = self._buffer.partition(b"\n")[0].decode("utf-8", "replace").strip()
            self._buffer = b""
            raise ExternalBotError(f"unexpected output {_clip(extra)!r} before the decide message (answer "
                                   "each message with one line; print anything else to standard error)")
        self._send(view_to_json(view))
        line = self._read_line(self.timeout, "decide")
        action = parse_reply(line)
        if action not in view.legal_actions:
            legal = ", ".join(sorted(str(a) for a in view.legal_actions))
            raise ExternalBotError(f"illegal action {str(action)!r} (legal: {legal})")
        return action

    def end_deal(self, view: View, outcome: Outcome, fault: str | None = None) -> None:
        """Tell the program how the deal ended (no answer expected)."""
        if self._proc is None:
            return
        message = {
            "type": "deal_end", "seat": view.seat, "result": outcome.to_json(), "points": list(view.points),
            "tricks_won": list(view.tricks_won), "score": None if view.score is None else list(view.score),
            "fault": fault,
        }
        with contextlib.suppress(ExternalBotError):  # a program that died is reported at its next decision
            self._send(message)

    def close(self) -> None:
        """Say ``bye``, give the program a moment to exit, then stop it."""
        proc = self._proc
        if proc is not None:
            try:
                self._send({"type": "bye"})
                assert proc.stdin is not None
                proc.stdin.close()
                proc.wait(timeout=1.0)
            except (ExternalBotError, OSError, subprocess.TimeoutExpired):
                pass
            self._stop("closed")
        if self._stderr is not None:
            self._stderr.close()
            self._stderr = None
        self._dead = "closed"

    def __enter__(self) -> ExternalBot:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        proc = getattr(self, "_proc", None)
        if proc is not None and proc.poll() is None:
            proc.kill()
            proc.wait()
