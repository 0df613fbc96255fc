"""Ctrl-C in a running arena: one real SIGINT stops a ``-j 2`` run within 2 seconds, prints the results so
far and exits 130, and leaves no worker and no outside bot behind (issue 11, section 5)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(not Path("/proc/self/task").exists(),
                                reason="needs Linux /proc to find the processes and their memory")

#: An outside bot that plays random legal actions and notes its pid at every start; from the fifth start
#: on it hangs (so the run is still going, with chunks finished, whenever the test sends Ctrl-C).
BOT = textwrap.dedent("""\
    import json, os, random, sys, time
    with open(sys.argv[1], "a") as log:
        log.write(f"{os.getpid()}\\n")
    with open(sys.argv[1]) as log:
        if len(log.read().split()) >= 5:
            time.sleep(600)
    rng = random.Random(1)
    for line in sys.stdin:
        msg = json.loads(line)
        if msg["type"] == "hello":
            print("{}", flush=True)
        elif msg["type"] == "decide":
            print(rng.choice(msg["legal"]), flush=True)
        elif msg["type"] == "bye":
            break
    """)


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def _children(pid: int) -> list[int]:
    out = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        with open(task / "children") as f:
            out += [int(x) for x in f.read().split()]
    return out


#: The arena as a user starts it from a terminal, where Ctrl-C stops a program. A process inherits an
#: ignored SIGINT: run in a shell's background job (``pytest ... &``, where the shell ignores SIGINT and
#: SIGQUIT), these tests would otherwise wait for a Ctrl-C that never comes.
_ARENA = ("import signal; signal.signal(signal.SIGINT, signal.default_int_handler); "
          "from bummerl.cli import main; main()")

def _wait_for(condition: object, within: float) -> None:
    deadline = time.monotonic() + within
    while not condition():  # type: ignore[operator]
        assert time.monotonic() < deadline, "the arena did not get going in time"
        time.sleep(0.05)


def _start_arena(tmp_path: Path) -> tuple[subprocess.Popen[str], Path]:
    """A two-worker arena against the hanging outside bot: (its process, the file of the bots' pids)."""
    program, pids = tmp_path / "bot.py", tmp_path / "pids"
    program.write_text(BOT)
    pids.touch()
    command = [sys.executable, "-c", _ARENA, "arena", "random",
               f"cmd:{sys.executable} {program} {pids}", "--deals", "800", "-j", "2", "--json",
               "--seed", "5"]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    return proc, pids


@pytest.mark.parametrize(("stop", "code", "said"), [
    (signal.SIGINT, 130, "interrupted"),
    # Session 12's audit: kill, timeout or a closed terminal left the outside programs (and, with -j 2,
    # the orphaned workers) playing on, and printed nothing.
    (signal.SIGTERM, 143, "stopped by SIGTERM"),
    (signal.SIGHUP, 129, "stopped by SIGHUP"),
])
def test_one_signal_stops_a_two_worker_run_within_two_seconds_with_the_results_so_far(
        tmp_path: Path, stop: signal.Signals, code: int, said: str) -> None:
    proc, pids = _start_arena(tmp_path)
    try:
        # a bot program starts with every chunk: with five started, three chunks are done, chunk 0 among
        # them (the workers take chunks in order), so there are results to print
        _wait_for(lambda: len(pids.read_text().split()) >= 5 or proc.poll() is not None, within=120)
        assert proc.poll() is None, proc.communicate()
        workers = _children(proc.pid)
        started = time.monotonic()
        os.kill(proc.pid, stop)
        out, err = proc.communicate(timeout=60)
        stopped = time.monotonic() - started
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)  # the arena and its workers, which would hold the pipes open
            proc.communicate(timeout=60)
    assert proc.returncode == code, err
    assert stopped < 2.0, f"the arena took {stopped:.2f} s to stop after {stop.name}"
    assert err.startswith(f"error: {said}: the results above are the ") and err.count("\n") == 1, err
    data = json.loads(out)
    assert data["complete"] is False and data["deals"] > 0 and data["deals"] % 100 == 0  # whole chunks
    a, b = data["pairings"][0]["results"]
    assert a["deals"] == data["deals"] and a["won"] + b["won"] + a["drawn"] == data["deals"]
    assert len(workers) == 2
    bots = [int(x) for x in pids.read_text().split()]
    deadline = time.monotonic() + 5
    while any(_alive(p) for p in workers + bots) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not [p for p in workers + bots if _alive(p)], "a worker or an outside bot outlived the arena"


def test_workers_whose_arena_was_killed_stop_with_their_bots(tmp_path: Path) -> None:
    # SIGKILL leaves the arena no chance to stop anything: its workers see it gone and stop themselves.
    proc, pids = _start_arena(tmp_path)
    workers: list[int] = []
    try:
        _wait_for(lambda: len(pids.read_text().split()) >= 5 or proc.poll() is not None, within=120)
        assert proc.poll() is None, proc.communicate()
        workers = _children(proc.pid)
        os.kill(proc.pid, signal.SIGKILL)
        proc.communicate(timeout=60)
        bots = [int(x) for x in pids.read_text().split()]
        deadline = time.monotonic() + 10
        while any(_alive(p) for p in workers + bots) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(workers) == 2
        assert not [p for p in workers + bots if _alive(p)], "a worker or an outside bot outlived the arena"
    finally:
        for pid in workers + [int(x) for x in pids.read_text().split()]:
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)


def test_a_huge_run_starts_at_once_and_its_memory_stays_flat() -> None:
    """10**12 deals are never planned: the run plays at once, in little memory, until Ctrl-C."""
    command = [sys.executable, "-c", _ARENA, "arena", "random", "random",
               "--deals", str(10**12), "-j", "2", "--json", "--seed", "1", "--rules", "vu"]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    try:
        _wait_for(lambda: len(_children(proc.pid)) >= 2 or proc.poll() is not None, within=120)  # running
        rss = []
        for _ in range(2):
            time.sleep(1.5)
            assert proc.poll() is None
            rss.append(_memory_kb(proc.pid))
        os.kill(proc.pid, signal.SIGINT)
        out, _ = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)  # the arena and its workers, which would hold the pipes open
            proc.communicate(timeout=60)
    assert proc.returncode == 130
    assert json.loads(out)["games_per_pairing"] == 10**12
    assert max(rss) < 200_000, f"the arena holds {max(rss)} kB"  # a plan of 10**10 chunks would not fit
    assert rss[1] - rss[0] < 20_000  # about 8 bytes per deal played, nothing per deal planned


def _memory_kb(pid: int) -> int:
    """The peak resident memory of a process, in kB (Linux)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    raise AssertionError("no VmHWM")
