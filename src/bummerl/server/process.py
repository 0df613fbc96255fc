"""``bummerl serve`` in a subprocess on a fixed port and data directory: for the browser tests, the load
benchmark and the screenshot script (a server that can be stopped and started again, like a restart)."""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

__all__ = ["ServerProcess", "free_port", "running_server"]


def free_port() -> int:
    """A localhost TCP port nobody listens on now."""
    with contextlib.closing(socket.socket()) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ServerProcess:
    """A ``bummerl serve`` subprocess with ``home`` as its data directory (``BUMMERL_HOME``)."""

    def __init__(self, home: Path, port: int | None = None, workers: int = 1,
                 options: Sequence[str] = ()) -> None:
        self.home = home
        self.port = port or free_port()
        self.workers = workers
        #: More ``bummerl serve`` options (e.g. ``--no-limits``).
        self.options = tuple(options)
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        """The server's address, without a trailing slash."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def pid(self) -> int:
        """The server's process id (it must be running)."""
        assert self.proc is not None
        return self.proc.pid

    def start(self, timeout: float = 60) -> None:
        """Start the server and wait until it answers."""
        env = dict(os.environ, BUMMERL_HOME=str(self.home))
        code = "from bummerl.cli import main; main()"
        command = [sys.executable, "-c", code, "serve", "--port", str(self.port), "--workers",
                   str(self.workers), *self.options]
        self.proc = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited with status {self.proc.returncode}")
            with contextlib.suppress(OSError):
                urllib.request.urlopen(self.url + "/api/stats", timeout=5).read()
                return
            time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"the server did not answer within {timeout:.0f} s")

    def kill(self) -> None:
        """Kill the server at once (SIGKILL: no clean shutdown, as in a crash or a power cut), waiting for
        it to be gone; its worker processes end when they find their socket closed."""
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()
        self.proc = None

    def stop(self) -> None:
        """Stop the server (as Ctrl-C would), waiting for it to exit."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None

    def post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        """POST a JSON body; the JSON answer."""
        request = urllib.request.Request(self.url + path, json.dumps(body).encode(),
                                         {"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=60) as answer:
            result: dict[str, Any] = json.loads(answer.read())
            return result


@contextlib.contextmanager
def running_server(home: Path, workers: int = 1) -> Iterator[ServerProcess]:
    """A started server, stopped at the end of the block."""
    server = ServerProcess(home, workers=workers)
    server.start()
    try:
        yield server
    finally:
        server.stop()
