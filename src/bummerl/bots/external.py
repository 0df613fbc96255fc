"""Outside bots: any program that speaks JSON lines on standard input and output can play.

Name one with the spec ``cmd:COMMAND`` wherever a bot name is taken (``bummerl arena random
"cmd:python examples/random_bot.py"``). The command line is split like a shell would split it (no shell
runs it); a leading ``python`` or ``python3`` means the interpreter bummerl runs on. The program runs in
a process group of its own, killed as a whole when it is stopped (so nothing it started outlives it).
The last 64 KB of its standard error are kept, and its last line is quoted when it fails.

Protocol (version 1). Every message is one JSON object on one line, in UTF-8; the program answers on its
standard output, one line per answer, and must flush after each line.

``hello`` (first message) -- answer with a JSON object, e.g. ``{"name": "my bot"}``::

    {"type": "hello", "protocol": 1, "seed": 12345, "timeout": 10.0}

``decide`` (whenever it is this bot's turn) -- answer with the action string, either bare
(``play QH``), as a JSON string (``"play QH"``) or as an object (``{"action": "play QH"}``); an object
may echo the message's ``id`` (``{"action": "play QH", "id": 7}``), and then an answer to any other
decide message is refused::

    {"type": "decide", "id": 7, "seat": 0, "dealer": 1, "to_move": 0, "rules": "standard",
     "hand": ["QH", "TC", "AS", "KS", "TD"], "trump": "H", "trump_card": "AH", "bottom_card": "AH",
     "talon_size": 10, "talon_open": true, "closed_by": null, "close_snapshot": null,
     "lead": null, "married": null, "tricks": [{"leader": 0, "lead": "AS", "follow": "QS", "winner": 0}],
     "marriages": [{"player": 1, "suit": "D"}], "exchanged": {"player": 0, "gave": "JH", "took": "AH"},
     "points": [14, 0], "tricks_won": [1, 0], "pending": [0, 0], "opponent_hand_size": 5,
     "score": [7, 7], "legal": ["close", "play AS", "play KS"]}

  ``rules`` is the contract's form (a preset name or an object of flags), ``trump_card`` the face-up card
  (null once closed or drawn), ``bottom_card`` the trump card under the talon face up or turned down by
  closing, ``score`` the game points each seat still needs in a Bummerl (null outside one), ``legal``
  sorted action strings, ``id`` counts the decide messages this program was sent (from 1). Cards and
  actions are the contract's strings (rules.md sections 1 and 3).

``deal_end`` (after each deal this bot played; no answer)::

    {"type": "deal_end", "seat": 0, "result": {"winner": 1, "game_points": 2, "reason": "claim"},
     "points": [40, 66], "tricks_won": [2, 4], "score": [7, 7], "fault": null}

  ``fault`` is null, or the reason a bot forfeited the deal (its own, or the other bot's).

``bye`` (the end; no answer): the program should exit. Its standard input is closed after it.

An answer that is not valid JSON (when it starts with ``{`` or ``"``), an object without an ``action``
string, a text that is no action, an action that is not legal, an echoed ``id`` that is not this
message's, a line nobody asked for (output before a decide message, or a second line with an answer), no
answer within the timeout, or a program that exits: each raises :class:`ExternalBotError` with a
one-line reason (the arena records it as that bot's fault and goes on). After a timeout, a crash or
output out of step the program is stopped, and started again (at most ``max_restarts`` times) when the
next deal begins, if it ever answered ``hello`` (one that never did would only fail so again, costing the
startup timeout each deal); an extra line is never read as an answer. An answer that is no action with
another line right behind it (within :data:`STRAY_GRACE`: a debug print before the real answer) is out of
step too; a lone bad answer costs its deal and the program plays on.

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
import math
import os
import re
import selectors
import shlex
import signal
import subprocess
import sys
import time
from collections.abc import Sequence
from typing import Any

from bummerl import jsonio
from bummerl.actions import Action, ActionParseError
from bummerl.engine import Outcome
from bummerl.view import View

__all__ = [
    "DEFAULT_TIMEOUT", "PROTOCOL_VERSION", "STDERR_TAIL", "ExternalBot", "ExternalBotError", "parse_answer",
    "parse_reply", "view_to_json",
]

PROTOCOL_VERSION = 1
#: Seconds a program may think about one decision.
DEFAULT_TIMEOUT = 10.0
#: Seconds to wait, after an answer that is no action, for the line it may have been printed before (a
#: debug print, then the real answer): if one comes the program is out of step and is started afresh.
STRAY_GRACE = 0.25

#: Seconds a program may take at least to start and answer ``hello`` (longer when its ``timeout`` is).
STARTUP_TIMEOUT = 10.0
#: The longest timeout taken (a day): the operating system's wait cannot be much longer than 24 days.
MOST_TIMEOUT = 86_400.0
#: Bytes of a program's standard error kept (the last ones).
STDERR_TAIL = 64 * 1024
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
    return parse_answer(line)[0]


def parse_answer(line: str) -> tuple[Action, int | None]:
    """The action in one answer line and the ``id`` it echoes (None when it echoes none).

    >>> parse_answer('{"action": "claim", "id": 4}'), parse_answer('play QH')
    ((Action.parse('claim'), 4), (Action.parse('play QH'), None))
    >>> parse_answer('{"action": "claim", "id": "4"}')
    Traceback (most recent call last):
    ...
    bummerl.bots.external.ExternalBotError: answer's "id" is not a whole number: '{"action": "claim", ...
    """
    text = line.strip()
    echoed: int | None = None
    if text[:1] in ("{", '"'):
        try:
            value = jsonio.loads(text)
        except jsonio.InputError as err:
            raise ExternalBotError(f"malformed JSON answer {_clip(text)!r}: {err.msg or err}") from None
        if isinstance(value, dict):
            if value.get("id") is not None:
                echoed = value["id"]
                if type(echoed) is not int:
                    raise ExternalBotError(f'answer\'s "id" is not a whole number: {_clip(text)!r}')
            value = value.get("action")
        if not isinstance(value, str):
            raise ExternalBotError(f'answer has no "action" string: {_clip(text)!r}')
        text = value
    try:
        return Action.parse(text), echoed
    except ActionParseError as err:
        raise ExternalBotError(f"unknown action in answer: {err}") from None


#: Lines a runtime prints after the error itself (Node.js ends a crash with its version).
_BANNER = re.compile(r"^Node\.js v\d")


def telling_line(stderr: str) -> str:
    """The line of a program's error output that says what went wrong: the last line that is not indented
    (a stack frame) and not a runtime's closing banner, else the last line. Python ends a traceback with
    the error, Java and Node.js put the error above indented frames, and Node.js adds its version.

    >>> telling_line("x.js:12\\n  a.b\\nTypeError: no b\\n    at f (x.js:12:5)\\n\\nNode.js v20.20.2\\n")
    'TypeError: no b'
    >>> telling_line("Error rate: 0\\nTraceback (most recent call last):\\n  File 'b.py'\\nStopIteration\\n")
    'StopIteration'
    >>> telling_line("just a note\\n"), telling_line("    only frames\\n"), telling_line("")
    ('just a note', 'only frames', '')
    """
    lines = [line.rstrip() for line in stderr.splitlines() if line.strip()]
    for line in reversed(lines):
        if not line[0].isspace() and not _BANNER.match(line):
            return line
    return lines[-1].strip() if lines else ""


def _clip(text: str, limit: int = 80) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


class ExternalBot:
    """A bot played by an outside program over JSON lines (the protocol is in this module's docstring).

    The program is started on first use, in a process group of its own: whatever it starts goes with it
    when it is stopped (at :meth:`close`, on a timeout, a protocol fault, or :meth:`kill`). Its standard
    error is kept to the last :data:`STDERR_TAIL` bytes. Call :meth:`close` (or use ``with``) when done.
    """

    def __init__(
        self,
        command: str | Sequence[str],
        seed: int | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        name: str | None = None,
        max_restarts: int = 3,
        startup_timeout: float | None = None,
    ) -> None:
        argv = shlex.split(command) if isinstance(command, str) else list(command)
        if not argv:
            raise ValueError("an outside bot needs a command line (cmd:COMMAND)")
        if argv[0] in ("python", "python3"):
            argv[0] = sys.executable
        if startup_timeout is None:  # a bot given longer to think may take as long to start
            startup_timeout = max(STARTUP_TIMEOUT, timeout) if math.isfinite(timeout) else STARTUP_TIMEOUT
        for what, value in (("timeout", timeout), ("startup timeout", startup_timeout)):
            if not (math.isfinite(value) and 0 < value <= MOST_TIMEOUT):
                raise ValueError(f"the {what} must be a finite positive number of seconds, not {value} "
                                 f"(at most {MOST_TIMEOUT:g})")
        self.argv = argv
        self.seed = seed
        self.timeout = timeout
        self.startup_timeout = startup_timeout
        self.max_restarts = max_restarts
        self.name = name or "cmd:" + (command if isinstance(command, str) else shlex.join(argv))
        self.hello: dict[str, Any] | None = None
        self.restarts = 0
        self._proc: subprocess.Popen[bytes] | None = None
        self._buffer = b""
        self._stderr = bytearray()  # the last STDERR_TAIL bytes the program wrote there
        self._stderr_open = False
        self._asked = 0  # decide messages sent to this program (their "id")
        self._dead: str | None = None  # why the program is gone, once it is

    # ------------------------------------------------------------------------------------------ process

    def _start(self) -> None:
        try:
            self._proc = subprocess.Popen(
                self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, bufsize=0,
                start_new_session=True,
            )
        except OSError as err:
            self._dead = f"cannot start {shlex.join(self.argv)!r}: {err.strerror or err}"
            raise ExternalBotError(self._dead) from None
        self._buffer = b""
        self._stderr.clear()
        self._stderr_open = True
        self._asked = 0
        self._dead = None
        self._send({"type": "hello", "protocol": PROTOCOL_VERSION, "seed": self.seed,
                    "timeout": self.timeout})
        line = self._read_line(self.startup_timeout, "hello")
        try:
            hello = jsonio.loads(line)
        except jsonio.InputError:
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

    def _stop(self, why: str, grace: float = 0.0) -> None:
        """Stop the program and everything it started (it is out of step, gone, or done) and remember why.

        With a ``grace`` the program may first exit by itself (its standard input is closed); then its
        whole process group is killed, before the program is reaped so that the group id is still its own.
        """
        proc = self._proc
        try:
            if proc is not None and grace > 0 and hasattr(os, "waitid"):
                _wait_exit(proc.pid, grace)
            elif proc is not None and grace > 0:  # no waitid (macOS before Python 3.13): reap first; the
                with contextlib.suppress(subprocess.TimeoutExpired):  # group id stays in use while the
                    proc.wait(grace)  # group has members
        finally:  # also when the wait is interrupted (Ctrl-C in a worker): nothing it started outlives it
            if proc is not None:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
                self._read_stderr(block=False)
                for pipe in (proc.stdin, proc.stdout, proc.stderr):
                    if pipe is not None:
                        with contextlib.suppress(OSError):
                            pipe.close()
                self._stderr_open = False
            self._proc = None
            self._dead = why

    def _read_stderr(self, block: bool) -> None:
        """Move what the program wrote to standard error into the bounded tail (``block``: until it closes
        its end, for at most a second)."""
        proc = self._proc
        if proc is None or proc.stderr is None or not self._stderr_open:
            return
        fd = proc.stderr.fileno()
        deadline = time.monotonic() + (1.0 if block else 0.0)
        with selectors.DefaultSelector() as sel:
            sel.register(fd, selectors.EVENT_READ)
            while sel.select(max(0.0, deadline - time.monotonic())):
                chunk = os.read(fd, 65536)
                if not chunk:
                    self._stderr_open = False
                    return
                self._keep_stderr(chunk)

    def _keep_stderr(self, chunk: bytes) -> None:
        self._stderr += chunk
        if len(self._stderr) > STDERR_TAIL:
            del self._stderr[:-STDERR_TAIL]

    @property
    def stderr_tail(self) -> str:
        """The last :data:`STDERR_TAIL` bytes the program wrote to standard error (decoded leniently)."""
        return self._stderr.decode("utf-8", "replace")

    def _stderr_note(self) -> str:
        line = telling_line(self.stderr_tail)
        return f"; its last error output: {_clip(line, 200)!r}" if line else ""

    def _crashed(self, when: str) -> ExternalBotError:
        proc = self._proc
        code: int | str | None = None
        if proc is not None:
            try:
                code = proc.wait(timeout=1.0)
            except subprocess.TimeoutExpired:
                code = "none: it closed its output"
            self._read_stderr(block=True)
        note = self._stderr_note()
        self._stop(f"the bot program exited (code {code}) {when}{note}")
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
        """The next line of standard output (standard error is kept meanwhile); stop the program on a
        timeout, an endless line or its exit."""
        proc = self._proc
        assert proc is not None and proc.stdout is not None and proc.stderr is not None
        out, err = proc.stdout.fileno(), proc.stderr.fileno()
        deadline = time.monotonic() + timeout
        with selectors.DefaultSelector() as sel:
            sel.register(out, selectors.EVENT_READ)
            if self._stderr_open:
                sel.register(err, selectors.EVENT_READ)
            while b"\n" not in self._buffer:
                left = deadline - time.monotonic()
                ready = sel.select(left) if left > 0 else []
                if not ready:
                    hint = (" (did the program flush its output after the line? print(..., flush=True))"
                            if what == "hello" and not self._buffer else "")
                    self._stop(f"no answer to {what} within {timeout:g} s (timeout){hint}"
                               f"{self._stderr_note()}")
                    raise ExternalBotError(self._dead or "timeout")
                for key, _ in ready:
                    chunk = os.read(key.fd, 65536)
                    if key.fd == err:
                        if chunk:
                            self._keep_stderr(chunk)
                        else:
                            self._stderr_open = False
                            sel.unregister(err)
                        continue
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
        self._read_stderr(block=False)
        fd = proc.stdout.fileno()
        with selectors.DefaultSelector() as sel:
            sel.register(fd, selectors.EVENT_READ)
            while len(self._buffer) <= _MAX_LINE and sel.select(0):
                chunk = os.read(fd, 65536)
                if not chunk:
                    return  # end of output: the next read reports the exit
                self._buffer += chunk

    def _more_within(self, seconds: float) -> bool:
        """Whether the program writes more to standard output within ``seconds`` (read into the buffer)."""
        proc = self._proc
        assert proc is not None and proc.stdout is not None
        if not self._buffer.strip():
            with selectors.DefaultSelector() as sel:
                sel.register(proc.stdout.fileno(), selectors.EVENT_READ)
                sel.select(seconds)
            self._drain()
        return bool(self._buffer.strip())

    def _unasked(self, when: str) -> None:
        """Refuse output that nobody asked for: the program is out of step, so it is stopped."""
        if self._buffer.strip():
            extra = self._buffer.partition(b"\n")[0].decode("utf-8", "replace").strip()
            self._stop(f"unexpected output {_clip(extra)!r} {when} (answer each message with one line; print "
                       "anything else to standard error)")
            raise ExternalBotError(self._dead or "unexpected output")
        self._buffer = b""

    # ------------------------------------------------------------------------------------------ bot

    def new_deal(self, view: View) -> None:
        """A deal begins: restart a program that was stopped (timeout or crash) and had answered ``hello``,
        within ``max_restarts``, and start it here, so its start and ``hello`` are not timed as its first
        decision."""
        if (self._dead is not None and self._proc is None and self.hello is not None
                and self.restarts < self.max_restarts):
            self.restarts += 1
            self._dead = None
        if self._proc is None and self._dead is None:
            with contextlib.suppress(ExternalBotError):  # a failed start is the first decision's fault
                self._start()

    def choose(self, view: View) -> Action:
        """Send the view, read back the action; raise :class:`ExternalBotError` on any failure.

        Output the program wrote before this ``decide`` message, or more than one line at once as its
        answer, is refused (and the program stopped): an extra line is never read as the next answer.
        """
        self._ensure()
        self._drain()
        self._unasked("before the decide message")
        self._asked += 1
        self._send({**view_to_json(view), "id": self._asked})
        line = self._read_line(self.timeout, "decide")
        try:
            action, echoed = parse_answer(line)
        except ExternalBotError as err:
            if self._more_within(STRAY_GRACE):  # a stray line, its real answer right behind it: out of step,
                self._stop(str(err))  # started afresh at the next deal (the answer is never read as the next)
            raise
        if echoed is not None and echoed != self._asked:
            self._stop(f"answer {_clip(line.strip())!r} is for decide {echoed}, not for decide {self._asked}")
            raise ExternalBotError(self._dead or "answer out of step")
        self._drain()
        self._unasked("after the answer")
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
        """Say ``bye`` and close the program's input, give it a second to exit, then stop its process
        group (anything it left running)."""
        proc = self._proc
        if proc is not None:
            try:
                self._send({"type": "bye"})
                assert proc.stdin is not None
                proc.stdin.close()
            except (ExternalBotError, OSError):
                pass
            if self._proc is not None:
                self._stop("closed", grace=1.0)
        self._dead = "closed"

    def kill(self) -> None:
        """Stop the program and its process group at once, without a ``bye`` (the arena is stopping)."""
        if self._proc is not None:
            self._stop("killed")
        self._dead = "killed"

    def __enter__(self) -> ExternalBot:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        proc = getattr(self, "_proc", None)
        if proc is not None and proc.returncode is None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def _wait_exit(pid: int, timeout: float) -> None:
    """Wait up to ``timeout`` seconds for a child to exit, without reaping it (its pid, and so its
    process group id, stay reserved until it is reaped)."""
    deadline = time.monotonic() + timeout
    delay = 0.001
    while True:
        try:
            if os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None:
                return
        except ChildProcessError:
            return
        left = deadline - time.monotonic()
        if left <= 0:
            return
        time.sleep(min(delay, left))
        delay = min(delay * 2, 0.05)
