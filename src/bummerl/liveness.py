"""Is the process that took a lease still running? The game store's leases name a process (pid, host and
its start time, so that a reused pid is told apart); this module answers for it (Linux ``/proc``).

>>> import os, socket
>>> me = os.getpid()
>>> alive(me, socket.gethostname(), process_start(me), "")
True
>>> alive(0, socket.gethostname(), "", ""), alive(me, "another-host", "", "not a time")
(False, False)
"""

from __future__ import annotations

import contextlib
import os
import socket
from datetime import UTC, datetime
from pathlib import Path

__all__ = ["FOREIGN_LEASE_HOURS", "alive", "process_start"]

#: How long a lease taken on another host counts as held (it cannot be checked from here).
FOREIGN_LEASE_HOURS = 12


def process_start(pid: int) -> str:
    """The start time of a process (Linux ``/proc``), to tell a reused pid apart; "" when unknown."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return ""
    fields = text.rsplit(")", 1)[-1].split()
    return fields[19] if len(fields) > 19 else ""


def alive(pid: int, host: str, started: str, since: str) -> bool:
    """Whether the process that took a lease still runs. A lease taken on another host (a database shared
    between machines, a container with a new name) cannot be checked: it counts as live for
    :data:`FOREIGN_LEASE_HOURS` after it was taken."""
    if host != socket.gethostname():
        try:
            taken = datetime.fromisoformat(since)
            return (datetime.now(UTC) - taken).total_seconds() < FOREIGN_LEASE_HOURS * 3600
        except (TypeError, ValueError, OverflowError):  # a damaged row (no zone, not a time): stale
            return False
    if not isinstance(pid, int) or not 0 < pid < 1 << 22:  # 0, -1: a process group; not a process id
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass
    except OSError:
        return False
    with contextlib.suppress(OSError):
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[-1].split()
        if fields and fields[0] in ("Z", "X"):  # a zombie: it has ended
            return False
    return not started or process_start(pid) in ("", started)
