"""``bummerl games [--json]``, ``games export ID`` (piped into ``bummerl replay -``), ``games delete ID``."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bummerl.cli import app
from bummerl.records import GameRecord
from bummerl.rules import Rules
from bummerl.session import PlaySession
from bummerl.store import DB_NAME, GameStore
from bummerl.table import FirstLegal
from helpers.unprivileged import on_read_only_store

runner = CliRunner()
CLI = (sys.executable, "-c", "from bummerl.cli import main; main()")


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("BUMMERL_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


def played(home: Path, rules: str, level: str, seed: int, actions: int) -> PlaySession:
    s = PlaySession.new(Rules.preset(rules), level=level, seed=seed, first_dealer=0, home=home,
                        bot=FirstLegal())
    for _ in range(actions):
        if s.table.phase == "game_over":
            break
        if s.table.phase == "deal_over":
            s.next_deal()
        elif s.table.human_to_move:
            s.act(s.view().legal_actions[-1])
        else:
            s.apply_bot(s.bot_choice())
    return s


def listed_rows(stdout: str) -> list[str]:
    """The games of a ``bummerl games`` listing, after its header."""
    header, *rows = stdout.splitlines()
    assert header.split() == ["id", "last", "played", "rules", "level", "to", "go", "state"]
    return rows


def test_no_games_yet(home: Path) -> None:
    result = runner.invoke(app, ["games"])
    assert result.exit_code == 0 and "No games saved yet" in result.stdout
    assert runner.invoke(app, ["games", "--json"]).stdout == ""
    for args in (["stats"], ["games", "export", "abc"]):
        runner.invoke(app, args)
    assert not home.exists()  # reading creates neither the data directory nor the database


@pytest.mark.parametrize(("make", "words"), [
    (lambda home: home.touch(), "the data directory {home} is a file, not a directory"),
    (lambda home: (home / DB_NAME).mkdir(parents=True), "the game database {db} is a directory, not a file"),
], ids=["home-is-a-file", "database-is-a-directory"])
def test_a_data_directory_of_the_wrong_kind_is_named_for_what_it_is(
    home: Path, make: Callable[[Path], object], words: str
) -> None:
    make(home)
    for args in (["games"], ["games", "delete", "abc"]):
        result = runner.invoke(app, args)
        assert result.exit_code == 2
        assert result.stderr.startswith("error: " + words.format(home=home, db=home / DB_NAME))


def test_games_are_listed_newest_first_with_date_rules_level_score_state(home: Path) -> None:
    old = played(home, "standard", "easy", 1, 500)
    new = played(home, "tompa", "hard", 2, 3)
    result = runner.invoke(app, ["games"])
    assert result.exit_code == 0
    rows = listed_rows(result.stdout)
    assert [r.split()[0] for r in rows] == [new.id, old.id]
    assert rows[0].split()[3:] == ["tompa", "hard", "7:7", "playing"]
    score = ":".join(str(max(n, 0)) for n in old.table.score)  # as the game shows it: past 7 needs 0
    won = "you won" if old.table.game.winner == 0 else "the computer won"
    assert rows[1].split()[3:] == ["standard", "easy", score, "finished,", *won.split()]

    lines = runner.invoke(app, ["games", "--json"]).stdout.splitlines()
    objects = [json.loads(line) for line in lines]
    assert [(o["id"], o["state"]) for o in objects] == [(new.id, "playing"), (old.id, "finished")]
    assert objects[0]["level"] == "hard" and objects[0]["rules"] == "tompa" and objects[0]["score"] == [7, 7]


def test_export_prints_the_game_record_that_replay_reads(home: Path) -> None:
    s = played(home, "standard", "easy", 3, 500)
    result = runner.invoke(app, ["games", "export", s.id[:4]])
    assert result.exit_code == 0
    record = GameRecord.loads(result.stdout)
    assert record == s.table.record()
    assert record.replay().winner == s.table.game.winner
    env = {**os.environ, "BUMMERL_HOME": str(home)}
    export = subprocess.run([*CLI, "games", "export", s.id], capture_output=True, text=True, env=env,
                            timeout=120)
    replay = subprocess.run([*CLI, "replay", "-", "--json"], input=export.stdout, capture_output=True,
                            text=True, env=env, timeout=120)
    assert replay.returncode == 0, replay.stderr
    assert json.loads(replay.stdout)["winner"] == s.table.game.winner


def test_export_leaves_out_the_deal_in_play_which_would_show_the_computers_hand(home: Path) -> None:
    s = played(home, "standard", "easy", 3, 4)  # the first deal, four actions in
    refused = runner.invoke(app, ["games", "export", s.id])
    assert refused.exit_code == 2 and refused.stdout == ""
    assert refused.stderr.startswith(f"error: game {s.id} has no finished deal yet")
    assert "--unfinished" in refused.stderr
    whole = runner.invoke(app, ["games", "export", s.id, "--unfinished"])
    assert whole.exit_code == 0 and GameRecord.loads(whole.stdout) == s.table.record()

    while not s.table.game.finished:  # into the second deal
        s.act(s.view().legal_actions[-1]) if s.table.human_to_move else s.apply_bot(s.bot_choice())
    s.next_deal()
    s.act(s.view().legal_actions[-1]) if s.table.human_to_move else s.apply_bot(s.bot_choice())
    result = runner.invoke(app, ["games", "export", s.id])
    assert result.exit_code == 0 and "the deal in play is left out" in result.stderr
    record = GameRecord.loads(result.stdout)
    assert len(record.deals) == 1 and record.deals[0] == s.table.record().deals[0]
    assert record.replay().score == s.table.game.score


def test_delete_removes_one_game(home: Path) -> None:
    keep, gone = played(home, "standard", "easy", 1, 2), played(home, "standard", "easy", 2, 2)
    result = runner.invoke(app, ["games", "delete", gone.id])
    assert result.exit_code == 0 and result.stdout == f"Deleted game {gone.id}.\n"
    with GameStore.open(home) as store:
        assert [g.id for g in store.games()] == [keep.id]  # type: ignore[union-attr]
    again = runner.invoke(app, ["games", "delete", gone.id])
    assert again.exit_code == 2 and again.stderr.startswith(f"error: no saved game '{gone.id}'")


def test_a_damaged_game_is_listed_by_name_and_the_others_still_are(home: Path) -> None:
    good, bad = played(home, "standard", "easy", 1, 4), played(home, "standard", "easy", 2, 4)
    sqlite3.connect(home / DB_NAME, isolation_level=None).execute(
        "UPDATE deals SET deck = 'QH QH' WHERE game_id = ?", (bad.id,))
    result = runner.invoke(app, ["games"])
    assert result.exit_code == 0
    assert f"warning: game {bad.id} is damaged: " in result.stderr
    assert result.stderr.rstrip().endswith("the other games are fine")
    assert {line.split()[0]: line.split()[-1] for line in listed_rows(result.stdout)} == {
        good.id: "playing", bad.id: "damaged"}
    objects = [json.loads(line) for line in runner.invoke(app, ["games", "--json"]).stdout.splitlines()]
    assert {o["id"]: o["state"] for o in objects} == {good.id: "playing", bad.id: "damaged"}
    export = runner.invoke(app, ["games", "export", bad.id])
    assert export.exit_code == 2 and export.stderr.startswith(f"error: game {bad.id} is damaged")
    assert "Traceback" not in export.output


@pytest.mark.parametrize("seed", range(6))
def test_a_corrupted_database_file_never_gives_a_traceback(home: Path, seed: int) -> None:
    """Garbage over some bytes of the file: every command answers in lines (error, warning), exit 0 or 2."""
    import random

    sessions = [played(home, "standard", "easy", n, 30) for n in range(6)]
    ids = [s.id for s in sessions]
    for s in sessions:
        s.close()
    path = home / DB_NAME
    assert not (home / f"{DB_NAME}-wal").exists()  # all in the main file once closed
    data = bytearray(path.read_bytes())
    rng = random.Random(seed)
    start = rng.randrange(100 if seed == 0 else 4096, len(data) - 64)  # seed 0 hits the file header
    size = min(rng.choice((16, 200, 2000)), len(data) - start)
    data[start:start + size] = rng.randbytes(size)
    path.write_bytes(bytes(data))
    commands = (["games"], ["games", "--json"], ["stats"], ["play", "--resume"], ["play", "--resume", ids[0]],
                ["games", "export", ids[1]], ["games", "delete", ids[2]], ["play"])
    for args in commands:
        result = runner.invoke(app, args)
        assert result.exception is None or isinstance(result.exception, SystemExit), (args, result.exception)
        assert result.exit_code in (0, 2), (args, result.output)
        for line in result.stderr.splitlines():
            assert line.startswith(("error: ", "warning: ", "note: ")), (args, line)
        if args == ["games"] and result.exit_code == 0:  # no game skipped silently: listed, or named damaged
            listed = {line.split()[0]: line.split()[-1] for line in listed_rows(result.stdout)}
            assert set(listed) == set(ids), result.output
            for game_id, state in listed.items():
                assert state != "damaged" or f"game {game_id} is damaged" in result.stderr


def test_an_old_save_that_cannot_be_imported_is_named_by_games(home: Path) -> None:
    (home / "games").mkdir(parents=True)
    (home / "games" / "20240101-000000-abcdef.json").write_text('{"format": "bummerl-game/1", "id": 3}')
    for _ in range(2):  # when it is found, and every time after while the file is there
        result = runner.invoke(app, ["games"])
        assert result.exit_code == 0
        assert result.stderr.startswith("warning: the old save games/20240101-000000-abcdef.json is damaged")
        assert "(the file is kept)" in result.stderr


@pytest.mark.parametrize("files", ["closed", "log", "log without its index"])
def test_a_read_only_store_can_still_be_listed_exported_and_counted(home: Path, files: str) -> None:
    # A backup, a disk mounted read-only: every command refused with "cannot write the data directory".
    game = played(home, "standard", "easy", 1, 500)
    if files == "closed":
        game.close()  # its log is written into games.db and removed
    elif files == "log without its index":
        game.close()
        holder = sqlite3.connect(home / DB_NAME)  # open while the writer closes: no checkpoint
        holder.execute("SELECT count(*) FROM games").fetchone()
        writer = sqlite3.connect(home / DB_NAME)  # a save still in the log, whose index a crash lost
        writer.execute("UPDATE games SET level = 'hard'")
        writer.commit()
        writer.close()
        (home / (DB_NAME + "-shm")).unlink()
    try:
        runs = dict(zip(("list", "export", "stats", "delete"), on_read_only_store(
            home, ["games"], ["games", "export", game.id[:6]], ["stats"], ["games", "delete", game.id]),
            strict=True))
    finally:
        if files == "log":
            game.close()
        elif files == "log without its index":
            holder.close()
    refused = runs["delete"]  # writing is still refused, in one line
    assert refused.returncode == 2 and refused.stderr.startswith("error: cannot "), refused.stderr
    assert len(refused.stderr.strip().splitlines()) == 1
    if files == "log without its index":  # read as immutable, the log's saves would be missing: refused
        for run in (runs["list"], runs["export"], runs["stats"]):
            assert run.returncode == 2 and run.stderr.startswith("error: cannot read the game database "
                                                                 f"{home / DB_NAME} where it is"), run.stderr
    else:
        listed = runs["list"]
        assert listed.returncode == 0 and listed_rows(listed.stdout)[0].split()[0] == game.id, listed.stderr
        assert GameRecord.loads(runs["export"].stdout).deals, runs["export"].stderr
        assert runs["stats"].returncode == 0 and "easy" in runs["stats"].stdout, runs["stats"].stderr
    with GameStore.open(home) as store:
        assert store.load(game.id).id == game.id  # nothing was changed or lost
