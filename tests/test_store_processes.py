"""The game store with real processes: one player process per game (two ``bummerl play --resume`` on one game
do not both play it), a crashed owner's lease is taken over, and ``kill -9`` during saves loses no stored
game and duplicates none."""

from __future__ import annotations

import os
import pty
import random
import select
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from bummerl.rules import Rules
from bummerl.session import PlaySession
from bummerl.store import DB_NAME, GameDamaged, GameStore
from bummerl.table import FirstLegal

CLI = (sys.executable, "-c", "from bummerl.cli import main; main()")
pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX processes and signals")

HOLD = textwrap.dedent("""
    import sys
    from pathlib import Path
    from bummerl.store import GameStore
    store = GameStore.open(Path(sys.argv[1]))
    with store.lease(sys.argv[2], "terminal"):
        print("held", flush=True)
        sys.stdin.readline()
    print("released", flush=True)
""")

HAMMER = textwrap.dedent("""
    import sys
    from pathlib import Path
    from bummerl.rules import Rules
    from bummerl.session import PlaySession
    from bummerl.store import GameStore
    from bummerl.table import FirstLegal
    store = GameStore.open(Path(sys.argv[1]))
    seed = 0
    while True:
        seed += 1
        s = PlaySession.new(Rules.preset("standard"), level="easy", seed=seed, first_dealer=0, store=store,
                            bot=FirstLegal())
        print("created", s.id, flush=True)
        stored = 0
        while s.table.phase != "game_over":
            if s.table.phase == "deal_over":
                s.next_deal()
            elif s.table.human_to_move:
                s.act(s.view().legal_actions[-1])
            else:
                s.apply_bot(s.bot_choice())
            assert s.save_error is None, s.save_error
            stored += 1
            print("stored", s.id, sum(len(d.actions) for d in s.table.record().deals), flush=True)
""")


MID_SAVE = textwrap.dedent("""
    import sys, time
    from pathlib import Path
    from bummerl.rules import Rules
    from bummerl.session import PlaySession
    from bummerl.store import GameStore
    from bummerl.table import FirstLegal
    store = GameStore.open(Path(sys.argv[1]))
    s = PlaySession.new(Rules.preset("standard"), level="easy", seed=4, first_dealer=0, store=store,
                        bot=FirstLegal())
    held = store.lease(s.id, "terminal")
    held.__enter__()  # held by this process until it dies
    def step():
        seat = s.table.deal.to_move
        s.act_seat(seat, s.table.view(seat).legal_actions[0])
    for _ in range(3):
        step()
    print(s.id, flush=True)
    original = GameStore._append
    def stuck(self, db, game_id, record):
        original(self, db, game_id, record)  # the rows are written, not yet committed
        print("inside", flush=True)
        time.sleep(120)
    GameStore._append = stuck
    step()
""")


@pytest.fixture
def home(tmp_path: Path) -> Path:
    return tmp_path / "home"


def env(home: Path) -> dict[str, str]:
    return {**os.environ, "BUMMERL_HOME": str(home), "PYTHONUNBUFFERED": "1"}


def bummerl(home: Path, *args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CLI, *args], env=env(home), capture_output=True,
                          text=True, stdin=subprocess.DEVNULL, timeout=120, cwd=cwd)


def stored_game(home: Path) -> str:
    s = PlaySession.new(Rules.preset("standard"), level="easy", seed=3, first_dealer=0, home=home,
                        bot=FirstLegal())
    s.close()
    return s.id


def drain(master: int, proc: subprocess.Popen[bytes], seconds: float) -> bool:
    """Read the terminal until the process ends (True) or ``seconds`` pass (False)."""
    deadline = time.monotonic() + seconds
    while proc.poll() is None and time.monotonic() < deadline:
        ready, _, _ = select.select([master], [], [], 0.2)
        if ready:
            try:
                os.read(master, 65536)
            except OSError:
                break
    try:
        proc.wait(max(0.0, deadline - time.monotonic()))
    except subprocess.TimeoutExpired:
        return False
    return True


def lines(proc: subprocess.Popen[str]) -> Iterator[str]:
    """The whole lines a child printed; a last line cut off by its death (no newline) is not one."""
    assert proc.stdout is not None
    for line in proc.stdout:
        if line.endswith("\n"):
            yield line[:-1]


def test_the_cli_module_runs(home: Path) -> None:
    done = bummerl(home, "--version")
    assert done.returncode == 0 and done.stdout.startswith("bummerl ")


def busy(game: str) -> str:
    """What the terminal says of a game another terminal holds."""
    return f"error: game {game} is open in another window (bummerl play): close it there first\n"


def test_a_second_process_cannot_play_a_game_another_holds(home: Path) -> None:
    game = stored_game(home)
    holder = subprocess.Popen([sys.executable, "-c", HOLD, str(home), game], env=env(home), text=True,
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    try:
        assert next(lines(holder)) == "held"
        for args in (("play", "--resume"), ("play", "--resume", game[:5]), ("games", "delete", game)):
            second = bummerl(home, *args)
            assert second.returncode == 2, args
            assert second.stderr == busy(game), args
        assert holder.stdin is not None
        holder.stdin.write("\n")
        holder.stdin.flush()
        assert next(lines(holder)) == "released"
    finally:
        holder.kill()
        holder.wait(30)
    after = bummerl(home, "play", "--resume")  # free again: it now only lacks a terminal
    assert after.returncode == 2 and "needs a terminal" in after.stderr


def test_the_lease_of_a_killed_process_is_taken_over(home: Path) -> None:
    game = stored_game(home)
    holder = subprocess.Popen([sys.executable, "-c", HOLD, str(home), game], env=env(home), text=True,
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert next(lines(holder)) == "held"
    assert "open in another window" in bummerl(home, "play", "--resume").stderr
    holder.send_signal(signal.SIGKILL)
    holder.wait(30)
    with GameStore.open(home) as store:
        assert store.holder(game) is None
        with store.lease(game, "terminal"):
            assert store.holder(game) == os.getpid()


def test_two_real_terminal_games_on_one_game(home: Path) -> None:
    """``bummerl play --resume`` in a terminal holds the game; a second one is refused; quitting frees it."""
    game = stored_game(home)
    master, slave = pty.openpty()
    first = subprocess.Popen([*CLI, "play", "--resume", "--delay", "0"],
                             env={**env(home), "TERM": "xterm-256color", "COLUMNS": "110", "LINES": "32"},
                             stdin=slave, stdout=slave, stderr=slave, start_new_session=True)
    os.close(slave)
    try:
        deadline = time.monotonic() + 90
        db = sqlite3.connect(home / DB_NAME)
        while not db.execute("SELECT 1 FROM leases WHERE pid = ?", (first.pid,)).fetchone():
            assert first.poll() is None, "the first game ended early"
            assert time.monotonic() < deadline, "the first game never took its lease"
            time.sleep(0.1)
        second = bummerl(home, "play", "--resume", game)
        assert second.returncode == 2
        assert second.stderr == busy(game)
        os.write(master, b"q")
        quit_by_key = drain(master, first, 30)
        if quit_by_key:  # q quit it: it released its lease and said where the game is
            assert first.returncode == 0
            assert db.execute("SELECT COUNT(*) FROM leases").fetchone()[0] == 0
        else:  # q asked something first (a confirmation): end it as a closed terminal would
            first.send_signal(signal.SIGHUP)
            first.wait(30)
        db.close()
        with GameStore.open(home) as store, store.lease(game, "terminal"):  # free again either way
            assert store.holder(game) == os.getpid()
    finally:
        if first.poll() is None:
            first.kill()
            first.wait(30)
        os.close(master)


def test_kill_9_inside_a_save_keeps_the_game_as_it_was_before_that_save(home: Path) -> None:
    child = subprocess.Popen([sys.executable, "-c", MID_SAVE, str(home)], env=env(home), text=True,
                             stdout=subprocess.PIPE)
    out = lines(child)
    game_id = next(out)
    assert next(out) == "inside"
    with GameStore.open(home) as store:
        assert store.holder(game_id) == child.pid
    child.send_signal(signal.SIGKILL)
    child.wait(30)
    db = sqlite3.connect(home / DB_NAME)
    assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    db.close()
    with GameStore.open(home) as store:
        game = store.load(game_id)  # the three committed actions, none of the fourth save's rows
        assert len(game.record.deals[0].actions) == 3 and game.state == "playing"
        resumed = PlaySession.resume(game, store, bot=FirstLegal())
        with store.lease(game_id, "terminal"):  # the killed process's lease is taken over, and it plays on
            seat = resumed.table.deal.to_move
            resumed.act_seat(seat, resumed.table.view(seat).legal_actions[0])
        assert resumed.save_error is None and len(store.load(game_id).record.deals[0].actions) == 4


@pytest.mark.parametrize("round_", range(3))
def test_kill_9_during_saves_loses_no_game_and_duplicates_none(home: Path, round_: int) -> None:
    rng = random.Random(round_)
    hammer = subprocess.Popen([sys.executable, "-c", HAMMER, str(home)], env=env(home), text=True,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    created: list[str] = []
    committed: dict[str, int] = {}
    stop_after = rng.randrange(50, 400)
    reports = lines(hammer)
    for n, line in enumerate(reports):
        if n == stop_after:
            time.sleep(rng.random() * 0.05)  # somewhere inside a later save
            hammer.send_signal(signal.SIGKILL)
        word, game_id, *rest = line.split()
        if word == "created":
            created.append(game_id)
        else:
            committed[game_id] = int(rest[0])
        # after the kill, the loop goes on reading what the hammer reported before it died (the pipe
        # still holds it), so every game it announced is counted
    hammer.wait(30)
    assert hammer.returncode == -signal.SIGKILL, hammer.stderr.read() if hammer.stderr else ""
    assert created, "the hammer never created a game"
    db = sqlite3.connect(home / DB_NAME)
    assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    db.close()
    with GameStore.open(home) as store:
        games = list(store.games())
        assert not [g for g in games if isinstance(g, GameDamaged)]
        ids = [g.id for g in games if not isinstance(g, GameDamaged)]
        assert len(ids) == len(set(ids))  # none duplicated
        assert set(created) <= set(ids) and len(ids) <= len(created) + 1  # none lost, at most one unreported
        for game_id, actions in committed.items():  # every committed action is there
            record = store.load(game_id).record
            assert sum(len(d.actions) for d in record.deals) >= actions
