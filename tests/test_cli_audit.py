"""What session 7's audit of the commands and the game store found, each now one clear line or handled:
a worker count or an outside bot's timeout too large to be meant, a bot option that hid the arena's hook,
a seed the store cannot hold, a computer delay of "inf", and damaged side data (an old save with an
impossible time or a named pipe in its place, lease rows and times that do not read, a negative schema
version, settings nested too deeply)."""

from __future__ import annotations

import os
import socket
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from bummerl.arena.runner import ArenaConfig, ArenaError, run_arena
from bummerl.bots.external import ExternalBot
from bummerl.bots.registry import bot_names, make_bot
from bummerl.cli import app
from bummerl.rules import Rules
from bummerl.session import PlaySession
from bummerl.store import DB_NAME, GameBusy, GameDamaged, GameStore, StoreError
from bummerl.table import FirstLegal
from helpers.store import legacy


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("BUMMERL_HOME", str(tmp_path))
    return tmp_path


def raw(home: Path) -> sqlite3.Connection:
    return sqlite3.connect(home / DB_NAME, isolation_level=None)


def one_line(*args: str) -> str:
    result = CliRunner().invoke(app, list(args))
    assert result.exit_code == 2, result.output
    lines = [x for x in result.output.splitlines() if x.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), result.output
    return lines[0]


@pytest.mark.parametrize("args", [["arena", "random", "random", "--deals", "2", "--workers", "100000"],
                                  ["tournament", "random", "heuristic", "--bummerls", "2", "-j", "100000"],
                                  ["serve", "--workers", "100000"]])
def test_a_worker_count_no_machine_has_is_refused_before_any_process_starts(args: list[str]) -> None:
    assert "--workers must be at least 1 and at most 256" in one_line(*args)


def test_a_timeout_longer_than_a_day_is_refused_not_turned_into_forfeits() -> None:
    # A wait of 1e7 s overflows the operating system's select(): every deal used to be forfeited.
    assert "(at most 86400)" in one_line("arena", "random", "random", "--deals", "2", "--timeout", "1e7")
    with pytest.raises(ValueError, match="at most 86400"):
        ExternalBot("python -c pass", timeout=1e7)


@pytest.mark.parametrize("value", ["nan", "-1", "inf"])
def test_a_rate_limit_that_is_not_a_number_is_refused(value: str) -> None:
    assert f"--posts-per-minute must be a number, 0 (no limit) or more, not {value}" in one_line(
        "serve", "--posts-per-minute", value)


def test_no_bot_hides_the_arenas_close_hook_with_an_option() -> None:
    # expert-alphamu kept its "close" option as .close, and the arena then called a bool.
    for name in bot_names():
        hook = getattr(make_bot(name, seed=1), "close", None)
        assert hook is None or callable(hook), name
    result = run_arena(ArenaConfig(("random", "expert-alphamu"), Rules.preset("standard"), seed=1, deals=2))
    assert sum(result.pairings[0].reasons.values()) == 2 and not result.pairings[0].faults


def test_a_seed_the_store_cannot_hold_is_one_line(home: Path) -> None:
    assert "--seed must be from 0 to 2**63 - 1" in one_line("play", "--seed", str(2**63))


def test_an_old_save_with_an_impossible_time_is_reported_not_a_crash(home: Path) -> None:
    legacy(home, "ancient", created="0001-01-01T00:00:00+05:00")
    legacy(home, "fine")
    with GameStore.open() as store:
        assert [g.id for g in store.games()] == ["fine"]  # type: ignore[union-attr]
        assert any("games/ancient.json is damaged" in n for n in store.notes)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes")
def test_a_named_pipe_among_the_old_saves_is_skipped_not_waited_on(home: Path) -> None:
    (home / "games").mkdir()
    os.mkfifo(home / "games" / "pipe.json")
    done = subprocess.run([sys.executable, "-c", "from bummerl.cli import main; main()", "games"],
                          capture_output=True, text=True,
                          timeout=60, env={**os.environ, "BUMMERL_HOME": str(home)})
    assert "games/pipe.json is damaged: not a regular file" in done.stderr


def game(home: Path) -> str:
    session = PlaySession.new(Rules.preset("standard"), level="easy", seed=1, first_dealer=0, home=home,
                              bot=FirstLegal())
    session.close()
    return session.id


@pytest.mark.parametrize(("pid", "host", "since"), [
    ("abc", "here", ""), (2**63 - 1, "here", ""), (0, "here", ""), (-1, "here", ""),
    (1, "another-host", "2026-01-01T00:00:00"), (1, "another-host", "not a time"),
], ids=["pid text", "pid huge", "pid 0", "pid -1", "time without zone", "not a time"])
def test_a_damaged_lease_row_is_stale_not_a_crash_or_a_lock_for_ever(
        home: Path, pid: object, host: str, since: object) -> None:
    game_id = game(home)
    raw(home).execute("INSERT INTO leases VALUES (?, 'terminal', ?, ?, '', ?)",
                      (game_id, pid, socket.gethostname() if host == "here" else host, since))
    with GameStore.open() as store:
        try:
            with store.lease(game_id, "terminal"):
                assert store.holder(game_id) == os.getpid()
        except GameBusy:
            pytest.fail("a damaged lease row kept the game locked")


def test_a_stored_time_that_cannot_be_shown_marks_the_game_damaged(home: Path) -> None:
    game_id = game(home)
    raw(home).execute("UPDATE games SET updated = '0001-01-01T00:00:00+05:00'")
    with GameStore.open() as store, pytest.raises(GameDamaged, match="bad times"):
        store.load(game_id)
    result = CliRunner().invoke(app, ["games"])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    assert "damaged" in result.output


def test_a_negative_schema_version_is_a_damaged_database(home: Path) -> None:
    game(home)
    raw(home).execute("PRAGMA user_version = -5")
    with pytest.raises(StoreError, match="is damaged"):
        GameStore.open()


def test_settings_nested_too_deeply_are_left_out(home: Path) -> None:
    with GameStore.open() as store:
        store.remember({"level": "hard"})
    raw(home).execute("INSERT OR REPLACE INTO settings VALUES ('rules', ?)", ("[" * 100_000 + "]" * 100_000,))
    with GameStore.open() as store:
        assert store.settings() == {"level": "hard"}


def test_a_config_error_names_the_limit() -> None:
    with pytest.raises(ArenaError, match="at most 256"):
        run_arena(ArenaConfig(("random", "random"), Rules.preset("standard"), deals=2, workers=257))


@pytest.mark.parametrize("command", ["replay", "solve", "analyse"])
def test_an_endless_input_is_one_line_not_all_the_memory(command: str) -> None:
    # /dev/zero: NUL characters without a newline, for ever; each read is bounded now.
    line = one_line(command, "/dev/zero")
    assert "/dev/zero: " in line and "longer than 1048576 characters" in line


class _CommitBetweenReads:
    """A connection that lets another writer commit right after a game's first row is read."""

    def __init__(self, db: sqlite3.Connection, commit: Any) -> None:
        self.db, self.commit = db, commit

    def __getattr__(self, name: str) -> Any:
        return getattr(self.db, name)

    def execute(self, sql: str, *args: Any) -> Any:
        result = self.db.execute(sql, *args)
        if sql.startswith("SELECT * FROM games WHERE id"):
            self.commit()
        return result


def test_a_game_read_while_another_process_saves_it_is_one_snapshot(home: Path) -> None:
    # A browser test once saw "the stored score differs from the replay's": the game's row and its
    # actions were read in two snapshots, around another process's commit.
    session = PlaySession.new(Rules.preset("standard"), level="easy", seed=1, first_dealer=0, home=home,
                              bot=FirstLegal())
    game_id = session.id
    with GameStore.open() as reader:
        def commit() -> None:
            while session.table.phase == "playing":  # the deal to its end: the score changes
                if session.table.human_to_move:  # stored through the session's own connection
                    session.act(session.view().legal_actions[-1])
                else:
                    session.apply_bot(session.bot_choice())
        reader._db = _CommitBetweenReads(reader._db, commit)  # type: ignore[assignment]
        for _ in range(6):
            reader.load(game_id)  # no GameDamaged: the rows are read in one snapshot
    session.close()


def test_help_texts_are_paragraphs_not_the_docstrings_lines() -> None:
    # A docstring's line breaks cut sentences in the help ("Bummerls won with 95%" / "intervals"), and
    # ``code`` showed its backticks (session 15's audit).
    wide = {**os.environ, "COLUMNS": "200"}
    top = CliRunner().invoke(app, ["--help"], env=wide).stdout
    assert "Bummerls won with 95% intervals, ratings" in top
    assert "print each bot's Bradley-Terry rating" in top
    games = CliRunner().invoke(app, ["games", "--help"], env=wide).stdout
    assert "``" not in games and "bummerl games export ID | bummerl replay -" in games
