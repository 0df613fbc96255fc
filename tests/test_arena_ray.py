"""The arena on Ray: the same numbers as the local run for the same seed (issue 15, section 4).

One small test on a local Ray of 2 CPUs (Ray takes seconds to start); skipped when Ray is not installed
(``pip install 'bummerl[cluster]'``, which the ``dev`` extra pulls in).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

import pytest

from bummerl import Rules
from bummerl.arena import ArenaConfig, ArenaError, cluster, run_arena, to_json
from bummerl.arena.tournament import tournament
from bummerl.errors import install_hint

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "random_bot.py"


def results_only(data: dict[str, Any]) -> dict[str, Any]:
    """The JSON without what depends on the clock or on where the chunks ran."""
    data = dict(data)
    for key in ("seconds", "deals_per_second", "workers", "backend"):
        data.pop(key)
    for p in data["pairings"]:
        for line in p["results"]:
            line.pop("decision_ms")
    for s in data["standings"]:
        s.pop("decision_ms")
    return data


@pytest.mark.skipif(not cluster.ray_available(),
                    reason="Ray is not installed (pip install 'bummerl[cluster]')")
def test_a_run_on_a_local_ray_gives_the_same_tables_as_the_local_run() -> None:
    bots = ("random", "heuristic", f"cmd:{sys.executable} {EXAMPLE}")
    config = ArenaConfig(bots, Rules.preset("standard"), seed=2**90 + 1, deals=16, timeout=30)
    counts: list[int] = []
    on_ray = run_arena(ArenaConfig(**{**_fields(config), "ray": "local", "workers": 2}),
                       progress=counts.append)
    here = run_arena(config)
    assert on_ray.backend == "ray" and sum(counts) == 3 * 16
    assert results_only(to_json(on_ray)) == results_only(to_json(here))
    assert all(line.faults == 0 for p in on_ray.pairings for line in p.lines)  # no outside-bot fault
    assert tournament(on_ray, resamples=20).ratings == tournament(here, resamples=20).ratings


def _fields(config: ArenaConfig) -> dict[str, Any]:
    return {name: getattr(config, name) for name in config.__dataclass_fields__}


def test_without_ray_the_arena_says_how_to_get_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cluster, "ray_available", lambda: False)
    with pytest.raises(ArenaError, match=re.escape(f"--ray needs Ray: {install_hint('cluster')}")):
        run_arena(ArenaConfig(("random", "random"), Rules.preset("standard"), deals=2, ray="local"))


@pytest.mark.skipif(not cluster.ray_available(),
                    reason="Ray is not installed (pip install 'bummerl[cluster]')")
@pytest.mark.parametrize(("address", "why"), [("127.0.0.1:1", "Connection refused"),
                                              ("ray://127.0.0.1:1", "Connection refused"),
                                              ("nowhere.invalid:6379", "no such host")])
def test_a_cluster_that_cannot_be_reached_is_one_line_at_once(address: str, why: str) -> None:
    # Ray retries a wrong address for minutes, writing raw log lines (session 15's audit).
    config = ArenaConfig(("random", "random"), Rules.preset("standard"), deals=2, ray=address)
    with pytest.raises(ArenaError, match=f"^cannot reach the Ray cluster at '{address}': {why}$"):
        run_arena(config)


def test_the_benchmark_times_the_same_run_locally(capsys: pytest.CaptureFixture[str]) -> None:
    from helpers.scripts import load

    bench = load("arena_ray", folder=Path(__file__).resolve().parent.parent / "benchmarks")
    assert bench.main(["--bummerls", "4", "--repeats", "2", "--no-ray", "--rules", "vu"]) == 0
    out = capsys.readouterr().out
    assert "local, 1 process" in out and "local, 2 worker processes" in out and "Bummerls/s" in out


def _serve_once(answer: bytes | None) -> tuple[str, Any]:
    """A one-connection server on a free port that sends ``answer`` to whatever comes (None: it reads and
    says nothing); its address and thread."""
    import socket
    import threading

    server = socket.create_server(("127.0.0.1", 0))

    def serve() -> None:
        with server, server.accept()[0] as connection:
            try:
                connection.recv(100)
                if answer is not None:
                    connection.sendall(answer)
                connection.recv(100)  # until the prober hangs up
            except OSError:  # it hung up first
                pass

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    return f"127.0.0.1:{server.getsockname()[1]}", thread


@pytest.mark.parametrize("answer", [b"HTTP/1.0 400 Bad request\r\n\r\n", None, b""])
def test_a_port_that_answers_but_not_as_ray_is_one_line_at_once(answer: bytes | None,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    # An HTTP server, a silent port, one that hangs up: Ray would retry each for minutes (session 16's audit)
    monkeypatch.setattr(cluster, "REACH_SECONDS", 0.5)
    address, thread = _serve_once(answer)
    with pytest.raises(cluster.ClusterError, match=f"^the port at '{address}' answers, but not as Ray"):
        cluster._check_reachable(address)
    thread.join(5)


def test_a_port_that_speaks_http2_as_ray_does_passes_the_check() -> None:
    settings = bytes([0, 0, 0, 4, 0, 0, 0, 0, 0])  # an empty SETTINGS frame, as a gRPC server sends first
    address, thread = _serve_once(settings)
    cluster._check_reachable(address)
    thread.join(5)
