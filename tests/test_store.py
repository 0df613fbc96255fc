"""The SQLite game store: where it lives, schema and migrations, every action stored, resume, damaged rows
reported by name, nothing from storage executed, leases, stats per level and per rules preset."""

from __future__ import annotations

import os
import random
import socket
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

import bummerl.store as store_module
from bummerl.engine import full_pack
from bummerl.records import GameRecord
from bummerl.rules import Rules
from bummerl.session import PlaySession
from bummerl.store import (
    DB_NAME,
    MIGRATIONS,
    GameBusy,
    GameDamaged,
    GameNotFound,
    GameStore,
    StoreError,
    data_dir,
)
from bummerl.table import FirstLegal
from helpers.store import first_schema, legacy
from helpers.unprivileged import on_read_only_store


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("BUMMERL_HOME", str(tmp_path))
    return tmp_path


def play_some(session: PlaySession, steps: int, *, finish: bool = False) -> None:
    """Play ``steps`` actions (or the whole Bummerl with ``finish``), the human taking the last legal one."""
    done = 0
    while session.table.phase != "game_over" and (finish or done < steps):
        if session.table.phase == "deal_over":
            session.next_deal()
        elif session.table.human_to_move:
            session.act(session.view().legal_actions[-1])
        else:
            session.apply_bot(session.bot_choice())
        done += 1


def new_session(home: Path, level: str = "easy", seed: int = 1, rules: str = "standard") -> PlaySession:
    return PlaySession.new(Rules.preset(rules), level=level, seed=seed, first_dealer=0, home=home,
                           bot=FirstLegal())


def raw(home: Path) -> sqlite3.Connection:
    return sqlite3.connect(home / DB_NAME, isolation_level=None)


# ------------------------------------------------------------------------------------ where and how


def test_bummerl_home_overrides_the_data_directory(home: Path) -> None:
    assert data_dir() == home
    with GameStore.open() as store:
        assert store.path == home / DB_NAME


def test_without_bummerl_home_the_user_data_directory_is_used(monkeypatch: pytest.MonkeyPatch) -> None:
    import platformdirs

    monkeypatch.delenv("BUMMERL_HOME", raising=False)
    assert data_dir() == Path(platformdirs.user_data_dir("bummerl", appauthor=False))


def test_the_database_is_wal_with_full_sync_and_the_latest_schema(home: Path) -> None:
    with GameStore.open() as store:
        assert store.schema_version == len(MIGRATIONS) >= 1
        assert store._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert store._db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    with GameStore.open() as again:  # opening twice migrates nothing twice
        assert again.schema_version == len(MIGRATIONS)


def test_a_database_from_a_newer_bummerl_is_refused_in_one_line(home: Path) -> None:
    GameStore.open().close()
    raw(home).execute(f"PRAGMA user_version = {len(MIGRATIONS) + 5}")
    with pytest.raises(StoreError, match="newer than this bummerl knows"):
        GameStore.open()


def test_an_older_schema_is_migrated_step_by_step(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    GameStore.open().close()
    step = ("CREATE TABLE later_feature (x INTEGER)",)
    monkeypatch.setattr("bummerl.store.MIGRATIONS", [*MIGRATIONS, step])
    with GameStore.open() as store:
        assert store.schema_version == len(MIGRATIONS) + 1
        assert store._db.execute("SELECT COUNT(*) FROM later_feature").fetchone()[0] == 0


def test_an_unwritable_data_directory_is_one_clear_error(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    with pytest.raises(StoreError, match=r"^cannot write the data directory .*a-file/sub"):
        GameStore.open(blocker / "sub")


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs Linux /proc (no file can be made there)")
def test_a_directory_where_no_database_can_be_made_is_one_clear_error() -> None:
    with pytest.raises(StoreError, match=r"^cannot write the data directory /proc: cannot open games.db"):
        GameStore.open(Path("/proc"))


def test_a_file_that_is_not_a_database_is_reported_as_damaged(home: Path) -> None:
    (home / DB_NAME).write_bytes(b"this is not SQLite at all, just some text " * 100)
    with pytest.raises(StoreError, match=r"game database .* is damaged: file is not a database") as err:
        GameStore.open()
    assert "\n" not in str(err.value)


@pytest.mark.parametrize("version", [0, 1, 2, 99])
def test_another_programs_database_is_refused_and_left_as_it_is(home: Path, version: int) -> None:
    # Session 12's audit: a listing added bummerl's tables to it and switched it to WAL for good; session
    # 15's: the same when that program had set a schema version (user_version) of its own.
    with sqlite3.connect(home / DB_NAME) as db:
        db.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)")
        db.execute("INSERT INTO notes (text) VALUES ('mine')")
        db.execute(f"PRAGMA user_version = {version}")
    db.close()
    before = (home / DB_NAME).read_bytes()
    with pytest.raises(StoreError, match="is not a bummerl game database"):
        GameStore.open()
    assert (home / DB_NAME).read_bytes() == before
    if version:
        (listed,) = on_read_only_store(home, ["games"])
        assert listed.returncode == 2 and listed.stderr.strip() == (
            f"error: {home / DB_NAME} is not a bummerl game database (it holds another program's tables)")
        assert (home / DB_NAME).read_bytes() == before


def test_a_delete_that_waits_in_vain_for_the_lock_says_delete(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # It said "cannot save game ...", though nothing was being saved (session 15's audit).
    session = new_session(home, seed=5)
    session.close()
    monkeypatch.setattr(store_module, "_BUSY_MS", 50)
    holder = raw(home)
    holder.execute("BEGIN IMMEDIATE")  # another program holds the write lock
    try:
        with GameStore.open(home) as store, pytest.raises(StoreError) as info:
            store.delete(session.id)
        assert str(info.value).startswith(f"cannot delete game {session.id} in ")
        assert "locked" in str(info.value)
    finally:
        holder.execute("ROLLBACK")
        holder.close()


# A process that plays games into the store, keeps its write-ahead log (no checkpoint) and dies as a crash
# would: the log holds the pages written since the store was last closed.
CRASH = """
import os, random, sys
from pathlib import Path
from bummerl.rules import Rules
from bummerl.session import PlaySession
from bummerl.store import GameStore
store = GameStore.open(Path(sys.argv[1]))
if sys.argv[3] == "crash":
    store._db.execute("PRAGMA wal_autocheckpoint = 0")
for seed in range(int(sys.argv[2]), int(sys.argv[2]) + 3):
    rng = random.Random(seed)
    s = PlaySession.new(Rules.preset("standard"), level="easy", seed=seed, first_dealer=0, store=store)
    for _ in range(150):
        t = s.table
        if t.game.is_over:
            break
        if t.deal.is_over:
            s.next_deal()
            continue
        s.act_seat(t.deal.to_move, rng.choice(t.view(t.deal.to_move).legal_actions))
if sys.argv[3] == "crash":
    os._exit(0)
store.close()
"""


def play_games(home: Path, first_seed: int, end: str) -> None:
    subprocess.run([sys.executable, "-c", CRASH, str(home), str(first_seed), end], check=True, timeout=300)


def test_a_log_left_by_a_crash_is_kept(tmp_path: Path) -> None:
    play_games(tmp_path, 1, "crash")
    assert (tmp_path / (DB_NAME + "-wal")).stat().st_size > 0
    with GameStore.open(tmp_path) as store:
        assert len(list(store.games())) == 3


def test_a_backup_copied_over_next_to_a_crashs_log_is_refused_and_left_as_it_is(tmp_path: Path) -> None:
    # Session 12's audit: the user restores a backup by copying games.db while a crash has left a log;
    # opening merged the log into the older file and wrote the damaged mix back on closing.
    play_games(tmp_path, 1, "close")
    backup = (tmp_path / DB_NAME).read_bytes()
    play_games(tmp_path, 10, "close")
    play_games(tmp_path, 20, "crash")
    (tmp_path / DB_NAME).write_bytes(backup)  # the restore
    with pytest.raises(StoreError, match=r"damaged together with its log games\.db-wal") as err:
        GameStore.open(tmp_path)
    assert "move games.db-wal and games.db-shm away" in str(err.value) and "\n" not in str(err.value)
    assert (tmp_path / DB_NAME).read_bytes() == backup  # not written
    for name in ("-wal", "-shm"):
        (tmp_path / (DB_NAME + name)).unlink()
    with GameStore.open(tmp_path) as store:  # as the README says: the backup opens as it was
        assert len(list(store.games())) == 3


def test_unreadable_bytes_in_the_schema_are_one_line_not_a_traceback(home: Path) -> None:
    import random

    with GameStore.open() as store:  # closed: every page in games.db itself
        for seed in range(12):
            PlaySession.new(Rules.preset("standard"), level="easy", seed=seed, first_dealer=0, store=store,
                            bot=FirstLegal())
    data = bytearray((home / DB_NAME).read_bytes())
    rng = random.Random(42)  # the audit's bytes: SQLite's message then quotes some that are not UTF-8
    data[2000:2064] = bytes(rng.randrange(256) for _ in range(64))
    (home / DB_NAME).write_bytes(bytes(data))
    with pytest.raises(StoreError, match="is damaged") as err, GameStore.open() as store:
        list(store.games())
    assert "\n" not in str(err.value)


# ------------------------------------------------------------------------------------ games


def test_every_action_is_stored_and_resume_continues_exactly(home: Path) -> None:
    session = new_session(home, seed=21)
    with GameStore.open() as reader:
        for _ in range(30):
            play_some(session, 1)
            stored = reader.load(session.id)
            assert stored.record == session.table.record()
            assert stored.score == session.table.score and stored.state == "playing"
        resumed = PlaySession.resume(session.id, reader)
    assert resumed.table.deal.history == session.table.deal.history
    assert resumed.table.deal.hands == session.table.deal.hands
    assert resumed.table.score == session.table.score and resumed.id == session.id
    play_some(resumed, 3)  # and it plays on from there
    session.close()


def test_decks_given_for_later_deals_are_dealt_by_the_game_brought_back(home: Path) -> None:
    # (they were lost when the game was put away: its second deal came from the seed)
    rules = Rules.preset("standard")
    pack = [int(c) for c in full_pack(False)]
    decks = [random.Random(n).sample(pack, 20) for n in range(3)]
    session = PlaySession.new(rules, level="easy", seed=8, first_dealer=0, home=home, bot=FirstLegal(),
                              decks=decks)
    session.close()
    with GameStore.open() as store:
        stored = store.load(session.id)
        assert stored.given_decks == tuple(tuple(d) for d in decks)
        resumed = PlaySession.resume(session.id, store)
        for number in (2, 3):
            while resumed.table.phase == "playing":
                play_some(resumed, 1)
            resumed.next_deal()
            assert list(resumed.table.record().deals[-1].deck) == decks[number - 1]
            resumed.close()
            resumed = PlaySession.resume(session.id, store)  # put away and brought back again
        assert resumed.table.deal_number == 3
    # A game without given decks has none, and its fourth deal comes from the seed as before.
    plain = new_session(home, seed=8)
    with GameStore.open() as store:
        assert store.load(plain.id).given_decks == ()
    plain.close()


def test_damaged_given_decks_make_that_game_damaged(home: Path) -> None:
    session = PlaySession.new(Rules.preset("standard"), seed=8, first_dealer=0, home=home, bot=FirstLegal(),
                              decks=[[int(c) for c in full_pack(False)]])
    session.close()
    raw(home).execute("UPDATE given_decks SET decks = ?", ('["AS AS"]',))
    with GameStore.open() as store, pytest.raises(GameDamaged, match="given deck 1"):
        store.load(session.id)


def test_a_game_stored_before_given_decks_were_kept_loads_after_the_upgrade(home: Path) -> None:
    GameStore.open().close()
    session = new_session(home, seed=3)
    session.close()
    first_schema(home)  # as an older bummerl left it
    with GameStore.open() as store:
        assert store.schema_version == len(MIGRATIONS) == 2
        assert store.load(session.id).given_decks == ()


def test_a_read_only_store_of_the_previous_schema_is_listed_exported_and_counted_unchanged(
    home: Path,
) -> None:
    session = new_session(home, seed=3)
    play_some(session, 30)  # deals finished, and one in play
    session.close()
    first_schema(home)  # a backup made by the previous release: no given decks, not to be upgraded
    before = (home / DB_NAME).read_bytes()
    listed, exported, counted = on_read_only_store(home, ["games"], ["games", "export", session.id[:6]],
                                                   ["stats"])
    assert listed.returncode == 0 and listed.stdout.splitlines()[1].split()[0] == session.id, listed.stderr
    assert exported.returncode == 0, exported.stderr  # the finished deals (the one in play is left out)
    assert GameRecord.loads(exported.stdout).deals == session.table.record().deals[:-1] != ()
    assert counted.returncode == 0 and "easy" in counted.stdout, counted.stderr
    assert (home / DB_NAME).read_bytes() == before  # not migrated, nothing written
    assert sorted(p.name for p in home.iterdir()) == [DB_NAME]


def test_an_older_store_read_as_it_is_sees_given_decks_once_another_bummerl_upgrades_it(home: Path) -> None:
    old = new_session(home, seed=3)
    old.close()
    first_schema(home)
    with GameStore._open_read_only(home / DB_NAME) as store:  # as GameStore.open(reading=True) on a backup
        assert store.schema_version == 1 and store.load(old.id).given_decks == ()
        deck = tuple(int(c) for c in full_pack(False))
        given = PlaySession.new(Rules.preset("standard"), seed=8, first_dealer=0, home=home, bot=FirstLegal(),
                                decks=[deck])  # upgrades the store, then stores a game with a given deck
        given.close()
        assert store.load(given.id).given_decks == (deck,)
        assert store.load(old.id).given_decks == ()


def test_a_read_only_store_of_a_newer_schema_is_refused_in_one_line(home: Path) -> None:
    new_session(home, seed=3).close()
    raw(home).execute(f"PRAGMA user_version = {len(MIGRATIONS) + 1}")
    before = (home / DB_NAME).read_bytes()
    (listed,) = on_read_only_store(home, ["games"])
    assert listed.returncode == 2, listed.stdout
    assert listed.stderr.strip() == (f"error: the game database {home / DB_NAME} has schema version "
                                     f"{len(MIGRATIONS) + 1}, newer than this bummerl knows "
                                     f"({len(MIGRATIONS)}): upgrade bummerl")
    assert (home / DB_NAME).read_bytes() == before


def test_a_finished_game_is_stored_finished_with_its_record_replayable(home: Path) -> None:
    session = new_session(home, seed=4)
    play_some(session, 0, finish=True)
    with GameStore.open() as store:
        stored = store.load(session.id)
        assert stored.finished and stored.winner == session.table.game.winner
        assert store.latest_playing() is None
    again = GameRecord.loads(stored.record.dumps()).replay()
    assert again.winner == stored.winner and again.score == stored.score
    assert list(stored.outcomes) == [s.outcome for s in session.table.game.finished]


def test_games_are_listed_newest_first_and_found_by_a_unique_prefix(home: Path) -> None:
    first, second = new_session(home, seed=1), new_session(home, seed=2)
    play_some(first, 2)  # played last: listed first
    with GameStore.open() as store:
        assert [g.id for g in store.games()] == [first.id, second.id]  # type: ignore[union-attr]
        assert store.resolve(first.id[:6]) == first.id
        with pytest.raises(GameNotFound):
            store.resolve("zzzz")
        with pytest.raises(GameNotFound):
            store.resolve("../etc/passwd")
        latest = store.latest_playing()
        assert latest is not None and latest.id == first.id
        store.delete(second.id)
        assert [g.id for g in store.games()] == [first.id]  # type: ignore[union-attr]
        with pytest.raises(GameNotFound):
            store.delete(second.id)


def test_a_record_played_differently_elsewhere_is_refused(home: Path) -> None:
    a = new_session(home, seed=3)
    play_some(a, 2)
    with GameStore.open() as store:
        b = PlaySession.resume(a.id, store, bot=FirstLegal())
        for session, pick in ((a, 0), (b, -1)):
            seat = session.table.deal.to_move
            session.table.act(seat, session.table.view(seat).legal_actions[pick])
        assert a.table.record() != b.table.record()
        store.sync(a.id, a.table.record())
        with pytest.raises(StoreError, match="played differently elsewhere"):
            store.sync(b.id, b.table.record())
        assert store.load(a.id).record == a.table.record()


# ------------------------------------------------------------------------------------ damage


def test_a_damaged_row_is_reported_by_name_and_the_other_games_are_fine(home: Path) -> None:
    good, bad = new_session(home, seed=5), new_session(home, seed=6)
    play_some(good, 4)
    play_some(bad, 4)
    raw(home).execute("UPDATE actions SET action = 'play XX' WHERE game_id = ? AND seq = 1", (bad.id,))
    with GameStore.open() as store:
        with pytest.raises(GameDamaged, match=rf"^game {bad.id} is damaged: .*; the other games are fine$"):
            store.load(bad.id)
        listed = list(store.games())
        assert {type(g).__name__ for g in listed} == {"StoredGame", "GameDamaged"}
        assert [g.game_id for g in listed if isinstance(g, GameDamaged)] == [bad.id]
        assert store.load(good.id).record == good.table.record()
        assert [e.game_id for e in store.stats().damaged] == [bad.id]


@pytest.mark.parametrize(("column", "value", "why"), [
    ("level", "cmd:touch X", "unknown level 'cmd:touch X'"),
    ("cards", "klingon", "unknown card faces"),
    ("state", "won-by-magic", "unknown state"),
    ("rules", '"no-such-preset"', "bad rules"),
    ("score0", 3, "stored score"),
    ("state", "finished", "stored as finished but the Bummerl is not over"),
])
def test_every_stored_field_is_checked(home: Path, column: str, value: object, why: str) -> None:
    s = new_session(home)
    raw(home).execute(f"UPDATE games SET {column} = ?", (value,))
    with GameStore.open() as store, pytest.raises(GameDamaged, match=why):
        store.load(s.id)


def test_a_stored_id_that_is_no_game_id_is_damaged_and_never_printed_as_it_is(home: Path) -> None:
    # Session 12's audit: an id holding terminal escapes set the window title and cleared the screen.
    from typer.testing import CliRunner

    from bummerl.cli import app

    s = new_session(home)
    hostile = "esc\x1b]0;PWNED\x07\x1b[2J"
    db = raw(home)
    for table, column in (("games", "id"), ("deals", "game_id"), ("actions", "game_id")):
        db.execute(f"UPDATE {table} SET {column} = ? WHERE {column} = ?", (hostile, s.id))
    with GameStore.open() as store:
        [damaged] = store.games()
        assert isinstance(damaged, GameDamaged) and "its id is not a game id" in str(damaged)
        assert "\x1b" not in damaged.game_id and damaged.game_id.startswith("'esc\\x1b")
    result = CliRunner().invoke(app, ["games"])
    assert "\x1b" not in result.output and "damaged" in result.output


def test_a_stored_cmd_level_is_never_run(home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    s = new_session(home)
    raw(home).execute("UPDATE games SET level = 'cmd:touch X'")
    with GameStore.open() as store:
        with pytest.raises(GameDamaged, match="unknown level 'cmd:touch X'"):
            PlaySession.resume(s.id, store)
        with pytest.raises(GameDamaged):
            store.latest_playing()
    assert not (tmp_path / "X").exists()


# ------------------------------------------------------------------------------------ saving fails


def test_a_failed_save_is_told_and_the_next_save_catches_up(home: Path) -> None:
    s = new_session(home, seed=8)
    play_some(s, 2)
    db = s.store._db
    db.execute("PRAGMA query_only = ON")  # every write now fails, as on a read-only or failing disk
    play_some(s, 1)
    assert s.save_error is not None and "readonly" in s.save_error
    failed = [e for e in s.table.events if e.kind == "save_failed"]
    assert len(failed) == 1 and failed[0].text.startswith("The game could not be saved")
    play_some(s, 1)
    assert len([e for e in s.table.events if e.kind == "save_failed"]) == 1  # told once, not every move
    db.execute("PRAGMA query_only = OFF")
    play_some(s, 1)
    assert s.save_error is None
    assert [e.kind for e in s.table.events if e.kind in ("save_failed", "saved")] == ["save_failed", "saved"]
    with GameStore.open() as reader:
        assert reader.load(s.id).record == s.table.record()  # nothing missed


# ------------------------------------------------------------------------------------ leases


def test_a_lease_keeps_a_second_owner_out_until_it_is_released(home: Path) -> None:
    s = new_session(home)
    with GameStore.open() as store:
        with store.lease(s.id, "window-1"):
            busy = f"^game {s.id} is open in another window: close it there first$"  # no holder named
            with pytest.raises(GameBusy, match=busy):
                store.lease(s.id, "window-2").__enter__()
            with store.lease(s.id, "window-1"):  # the same owner again is fine
                pass
        with store.lease(s.id, "window-2"):
            pass


def test_a_lease_of_an_ended_process_is_taken_over(home: Path) -> None:
    s = new_session(home)
    raw(home).execute("INSERT INTO leases VALUES (?, 'terminal', 999999999, ?, '', '')",
                      (s.id, socket.gethostname()))
    with GameStore.open() as store, store.lease(s.id, "terminal"):
        assert store.holder(s.id) == os.getpid()


# ------------------------------------------------------------------------------------ stats and settings


def test_stats_count_per_level_and_per_rules_preset(home: Path) -> None:
    finished = new_session(home, "easy", 1)
    play_some(finished, 0, finish=True)
    new_session(home, "easy", 2, "tompa")
    other = new_session(home, "expert", 3, "tompa")
    play_some(other, 0, finish=True)
    with GameStore.open() as store:
        totals = store.stats()
        games = [g for g in store.games() if not isinstance(g, GameDamaged)]
    assert set(totals.by_level) == {"easy", "expert"} and set(totals.by_rules) == {"standard", "tompa"}
    for key, tally in [*totals.by_level.items(), *totals.by_rules.items()]:
        group = [g for g in games if key in (g.level, g.rules.describe())]
        outcomes = [o for g in group for o in g.outcomes]
        assert tally.deals == len(outcomes)
        assert tally.deals_won == sum(o.winner == 0 for o in outcomes)
        assert tally.game_points_won == sum(o.game_points for o in outcomes if o.winner == 0)
        assert tally.game_points_lost == sum(o.game_points for o in outcomes if o.winner == 1)
        assert tally.bummerls == sum(g.finished for g in group)
        assert tally.bummerls_won == sum(g.winner == 0 for g in group)
        assert tally.playing == sum(g.state == "playing" for g in group)
    assert totals.by_level["easy"].playing == 1 and totals.by_rules["tompa"].playing == 1


def test_settings_are_remembered(home: Path) -> None:
    with GameStore.open() as store:
        assert store.settings() == {}
        store.remember({"level": "hard", "rules": {"preset": "standard", "false_claim": "mirror"},
                        "confirm": False})
    with GameStore.open() as store:
        assert store.settings() == {"level": "hard", "rules": {"preset": "standard", "false_claim": "mirror"},
                                    "confirm": False}


# ------------------------------------------------------------------------------------ old JSON saves


def test_old_json_saves_are_imported_once_and_the_files_kept(home: Path) -> None:
    path = legacy(home, "20250102-030405-abcdef")
    with GameStore.open() as store:
        game = store.load("20250102-030405-abcdef")
        assert (game.level, game.cards, game.seed, game.state) == ("hard", "german", 9, "playing")
        assert len(game.record.deals[0].actions) == 5 and game.created.year == 2025
        assert store.notes == []
        store.delete(game.id)
    assert path.exists()
    with GameStore.open() as store:  # deleted stays deleted: the file is not imported again
        assert list(store.games()) == []


def test_a_damaged_or_dangerous_old_save_is_reported_and_not_imported(
        home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    legacy(home, "evil", level="cmd:touch X")
    legacy(home, "broken")
    (home / "games" / "broken.json").write_text("{not json")
    legacy(home, "fine")
    with GameStore.open() as store:
        assert [g.id for g in store.games()] == ["fine"]  # type: ignore[union-attr]
        assert len(store.notes) == 2
        assert any("games/evil.json is damaged: unknown level 'cmd:touch X'" in n for n in store.notes)
        assert any("games/broken.json is damaged" in n for n in store.notes)
    with GameStore.open() as store:  # reported once at import, and listed every time after
        assert store.notes == [] and len(store.import_problems()) == 2
        (home / "games" / "broken.json").unlink()  # until the file is gone
        assert len(store.import_problems()) == 1
    assert not (tmp_path / "X").exists()


@pytest.mark.parametrize("file", [b"\xff", b"broken.json", "../games.db"])
def test_a_damaged_row_of_the_imported_saves_is_noted_and_the_games_are_still_listed(
        home: Path, file: object) -> None:
    # A file name that is not text made `bummerl games` fail with a TypeError (session 11's audit).
    legacy(home, "broken")
    (home / "games" / "broken.json").write_text("{not json")
    new_session(home, seed=1).close()
    with sqlite3.connect(home / DB_NAME) as db:
        db.execute("INSERT INTO legacy_imports VALUES (?, NULL, 'bad', 'x')", (file,))
    with GameStore.open() as store:
        problems = store.import_problems()
        assert len(list(store.games())) == 1
    assert len(problems) == 2 and problems[-1] == "the list of imported old saves has damaged rows (left out)"
    assert "games/broken.json is damaged" in problems[0]


def test_sync_many_stores_several_games_in_one_transaction_or_none(home: Path) -> None:
    a, b = new_session(home, seed=1), new_session(home, seed=2)
    for s in (a, b):
        seat = s.table.deal.to_move
        s.table.act(seat, s.table.view(seat).legal_actions[0])  # played, not stored yet
    with GameStore.open() as store:
        with pytest.raises(GameNotFound):
            store.sync_many([(a.id, a.table.record()), ("no-such-game", b.table.record())])
        assert store.load(a.id).record != a.table.record()  # none stored
        store.sync_many([(a.id, a.table.record()), (b.id, b.table.record())])
        assert store.load(a.id).record == a.table.record() and store.load(b.id).record == b.table.record()


def test_a_game_can_be_abandoned_and_is_counted_so(home: Path) -> None:
    given_up, won = new_session(home, seed=1), new_session(home, seed=2)
    play_some(given_up, 3)
    play_some(won, 0, finish=True)
    with GameStore.open() as store:
        store.finish(given_up.id, "abandoned")
        assert store.load(given_up.id).state == "abandoned" and store.latest_playing() is None
        assert store.stats().by_level["easy"].abandoned == 1
        with pytest.raises(StoreError, match="is over: it cannot be marked abandoned"):
            store.finish(won.id, "abandoned")
        with pytest.raises(StoreError, match="is not over: it cannot be marked finished"):
            store.finish(given_up.id, "finished")
    play_some(given_up, 1)  # playing on makes it a game being played again
    with GameStore.open() as store:
        assert store.load(given_up.id).state == "playing"


def test_a_lease_from_another_host_holds_for_a_while_then_is_taken_over(home: Path) -> None:
    from datetime import UTC, datetime, timedelta

    from bummerl.store import FOREIGN_LEASE_HOURS

    s = new_session(home)
    fresh = datetime.now(UTC) - timedelta(hours=FOREIGN_LEASE_HOURS - 1)
    raw(home).execute("INSERT INTO leases VALUES (?, 'web', 1, 'another-host', '', ?)",
                      (s.id, fresh.isoformat()))
    with GameStore.open() as store:
        with pytest.raises(GameBusy):
            store.lease(s.id, "terminal").__enter__()
        stale = fresh - timedelta(hours=2)
        raw(home).execute("UPDATE leases SET since = ?", (stale.isoformat(),))
        with store.lease(s.id, "terminal"):
            assert store.holder(s.id) == os.getpid()


def test_stats_keep_a_preset_with_overrides_apart_from_the_plain_preset(home: Path) -> None:
    # A game of standard with false_claim=mirror was counted as plain standard.
    new_session(home, "easy", 1)
    mirror = Rules.preset("standard").replace(false_claim="mirror")
    PlaySession.new(mirror, level="easy", seed=2, first_dealer=0, home=home, bot=FirstLegal())
    with GameStore.open() as store:
        totals = store.stats()
    assert set(totals.by_rules) == {"standard", "standard (false_claim=mirror)"}


def test_a_new_game_whose_lease_cannot_be_written_is_not_stored(home: Path) -> None:
    # A damaged leases page: `bummerl play` stored a new game, then failed on its lease, and each try left
    # another empty game behind. The game and its lease are now written in one transaction.
    with GameStore.open() as store:
        store.close()
    db = raw(home)
    db.execute("CREATE TRIGGER broken BEFORE INSERT ON leases BEGIN SELECT RAISE(ABORT, 'malformed'); END")
    db.close()
    with pytest.raises(StoreError, match="malformed"):
        PlaySession.new(Rules.preset("standard"), level="easy", seed=1, first_dealer=0, home=home,
                        bot=FirstLegal(), lease="terminal")
    with GameStore.open() as store:
        assert list(store.games()) == []
    db = raw(home)
    db.execute("DROP TRIGGER broken")
    db.close()
    session = PlaySession.new(Rules.preset("standard"), level="easy", seed=1, first_dealer=0, home=home,
                              bot=FirstLegal(), lease="terminal")
    assert session.store.holder(session.id) == os.getpid()  # held from the start, by this process
    session.close()


@pytest.mark.parametrize("message", ["disk I/O error", "database or disk is full"])
def test_a_failing_disk_is_never_called_a_damaged_database(home: Path, monkeypatch: pytest.MonkeyPatch,
                                                            message: str) -> None:
    # A newcomer's full disk: every command said "is damaged ... move it away", which would have thrown a
    # healthy store away (measured on a full 2 MB tmpfs: after freeing space the same file listed its game).
    store = store_module.GameStore.open(home)
    err = sqlite3.OperationalError(message)
    usage = type("Usage", (), {"free": 0})
    monkeypatch.setattr(store_module.shutil, "disk_usage", lambda path: usage)
    full = str(store.store_error(err))
    assert "is full" in full and "not damaged" in full and "move it away" not in full
    usage.free = 10 << 30
    failing = str(store.store_error(err))
    assert "the disk may be full or failing" in failing and "move it away" not in failing
    assert "is damaged" in str(store.store_error(sqlite3.DatabaseError("database disk image is malformed")))
    store.close()
