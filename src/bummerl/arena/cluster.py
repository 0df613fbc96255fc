"""The arena on Ray: every chunk a Ray task (``pip install 'bummerl[cluster]'``; ``bummerl arena --ray``).

A chunk is the same work unit as in a worker process (:func:`~bummerl.arena.match.play_chunk`: its deck
pairs, its bots made from the bot stream), so a run gives the same numbers on Ray as here, for the same
seed. Only a few chunks per CPU of the cluster are in flight; Ctrl-C cancels them (each task stops its
outside bots) and, for a Ray started here, shuts Ray down. Every node needs the same bummerl (and the
programs of outside bots, run on the node that plays the chunk).

``address`` is ``"local"`` (start a Ray here with ``workers`` CPUs) or the address of a running cluster,
as ``ray.init`` takes it (``"auto"`` on a node of the cluster, ``"HOST:6379"``, ``"ray://HOST:10001"``).
"""

from __future__ import annotations

import importlib.util
import logging
import os
from collections.abc import Generator, Iterator
from typing import Any

from bummerl.arena.match import ChunkResult, Task, play_chunk
from bummerl.errors import BummerlError, install_hint

__all__ = ["ClusterError", "ray_available", "ray_results"]

#: Chunks in flight per CPU of the cluster.
IN_FLIGHT_PER_CPU = 2


class ClusterError(BummerlError):
    """Ray is missing or its cluster cannot be reached (the message says which)."""


def ray_available() -> bool:
    """Whether Ray can be imported (the ``cluster`` extra is installed).

    >>> isinstance(ray_available(), bool)
    True
    """
    return importlib.util.find_spec("ray") is not None


def _connect(address: str, workers: int) -> tuple[Any, bool]:
    """The ``ray`` module, connected; and whether Ray was started here (and so is to be shut down)."""
    if not ray_available():
        raise ClusterError(f"--ray needs Ray: {install_hint('cluster')}")
    import ray

    if ray.is_initialized():
        return ray, False
    if address not in ("local", "auto"):
        _check_reachable(address)
    try:
        if address == "local":
            ray.init(address="local", num_cpus=workers, include_dashboard=False, log_to_driver=False,
                     logging_level=logging.ERROR)  # "local": a new Ray, even if one runs here already
        else:
            ray.init(address=address, log_to_driver=False, logging_level=logging.ERROR)
    except (ConnectionError, RuntimeError, ValueError) as err:
        first = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
        hint = _auth_hint(address)
        raise ClusterError(f"cannot start or reach Ray at {address!r}: {first}{hint}") from None
    return ray, True


def _auth_hint(address: str) -> str:
    """What to try when a cluster answered but refused us: Ray 2.59 and later start a cluster with token
    authentication, which a driver joining by address uses only when told (``RAY_AUTH_MODE=token``).

    >>> _auth_hint("local")
    ''
    """
    if address in ("local", "auto") or os.environ.get("RAY_AUTH_MODE", "") == "token":
        return ""  # (auto finds this machine's cluster, whose token Ray reads itself)
    return (" (a cluster with token authentication, the default of `ray start` since Ray 2.59, also needs "
            "RAY_AUTH_MODE=token here and its token: `ray get-auth-token` on the head)")


#: Seconds to wait for a cluster's port to answer (Ray itself retries a wrong address for minutes).
REACH_SECONDS = 5.0


def _check_reachable(address: str) -> None:
    """Refuse, in one line, a cluster address whose port does not answer, before Ray is asked (it would
    retry for minutes, writing raw log lines). ``HOST[:PORT]`` is Ray's head (default port 6379),
    ``ray://HOST[:PORT]`` its client server (10001).

    >>> _check_reachable("nowhere.invalid:1")
    Traceback (most recent call last):
    ...
    bummerl.arena.cluster.ClusterError: cannot reach the Ray cluster at 'nowhere.invalid:1': no such host
    """
    import socket

    rest = address.removeprefix("ray://")
    default = 10001 if rest != address else 6379
    host, colon, port = rest.rpartition(":")
    if not colon or not port.isdigit() or "]" in port:
        host, port = rest, str(default)
    host = host.strip("[]")
    try:
        with socket.create_connection((host, int(port)), timeout=REACH_SECONDS) as connection:
            speaks = _speaks_grpc(connection)
    except socket.gaierror:
        raise ClusterError(f"cannot reach the Ray cluster at {address!r}: no such host") from None
    except (OSError, ValueError, OverflowError) as err:
        why = getattr(err, "strerror", None) or str(err) or type(err).__name__
        raise ClusterError(f"cannot reach the Ray cluster at {address!r}: {why}") from None
    if not speaks:
        raise ClusterError(f"the port at {address!r} answers, but not as Ray: give the head's address "
                           "(HOST:6379) or its client server's (ray://HOST:10001)")


#: HTTP/2's client preface and an empty SETTINGS frame: a gRPC server (Ray's head and client server
#: speak gRPC) answers with a SETTINGS frame of its own.
_HTTP2_HELLO = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + bytes([0, 0, 0, 4, 0, 0, 0, 0, 0])


def _speaks_grpc(connection: Any) -> bool:
    """Whether what answers on ``connection`` speaks HTTP/2, as every Ray port an address may name does
    (an HTTP/1 server, a database, a port that accepts and says nothing do not). With Ray's TLS on
    (``RAY_USE_TLS``) nothing is asked: the answer would be TLS's."""
    if os.environ.get("RAY_USE_TLS", "0").lower() in ("1", "true"):
        return True
    try:
        connection.sendall(_HTTP2_HELLO)
        head = b""
        while len(head) < 9:
            part = connection.recv(9 - len(head))
            if not part:
                return False
            head += part
    except OSError:  # a timeout too
        return False
    return head[3] == 4  # the frame's type: SETTINGS


def ray_results(tasks: Iterator[Task], address: str, workers: int) -> Generator[tuple[Task, ChunkResult]]:
    """Play the tasks as Ray tasks, yielding each as it finishes."""
    ray, started_here = _connect(address, workers)
    remote = ray.remote(num_cpus=1)(play_chunk)
    cpus = int(ray.cluster_resources().get("CPU", workers)) or 1
    limit = IN_FLIGHT_PER_CPU * cpus
    pending: dict[Any, Task] = {}
    finished = False
    try:
        for task in tasks:
            pending[remote.remote(task)] = task
            while len(pending) >= limit:
                yield from _collect(ray, pending)
        while pending:
            yield from _collect(ray, pending)
        finished = True
    finally:
        if not finished:
            for ref in pending:  # a running task gets a KeyboardInterrupt: it kills its bots and stops
                ray.cancel(ref)
        if started_here:
            ray.shutdown()


def _collect(ray: Any, pending: dict[Any, Task]) -> Iterator[tuple[Task, ChunkResult]]:
    """Wait (in short steps, so that Ctrl-C is seen at once) for at least one task and yield it."""
    while True:
        ready, _ = ray.wait(list(pending), num_returns=1, timeout=0.2)
        if ready:
            break
    for ref in ready:
        result: ChunkResult = ray.get(ref)
        yield pending.pop(ref), result
