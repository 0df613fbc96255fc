"""``bummerl play`` around the full-screen app: no terminal, remembered options, --resume (which options it
keeps, damaged or dangerous stored games), a failed save, an unwritable data directory; ``bummerl --version``
and ``bummerl stats``. The app is replaced by a stand-in here (tests/test_tui*.py drive the real one)."""

from __future__ import annotations

import re
import sqlite3
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

import pytest
from typer.testing import CliRunner, Result

import bummerl
from bummerl.cli import app
from bummerl.records import GameRecord
from bummerl.rules import Rules
from bummerl.session import PlaySession
from bummerl.store import DB_NAME, GameStore
from bummerl.table import FirstLegal

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[1]


class FakeApp:
    """Stands in for BummerlApp: records how it was made, then runs ``script`` on the session."""

    made: ClassVar[list[FakeApp]] = []
    script: ClassVar[Callable[[FakeApp], None]] = staticmethod(lambda app: None)

    def __init__(self, session: PlaySession, **options: Any) -> None:
        self.session = session
        self.options = options
        FakeApp.made.append(self)

    def run(self) -> None:
        FakeApp.script(self)


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("BUMMERL_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


@pytest.fixture
def terminal(monkeypatch: pytest.MonkeyPatch) -> type[FakeApp]:
    """As if in a terminal, with the stand-in app."""
    monkeypatch.setattr("bummerl.cli.play._has_terminal", lambda: True)
    monkeypatch.setattr("bummerl.tui.app.BummerlApp", FakeApp)
    FakeApp.made = []
    FakeApp.script = staticmethod(lambda app: None)
    return FakeApp


def play(*args: str) -> Result:
    return runner.invoke(app, ["play", *args])


def one_error_line(result: Result, code: int = 2) -> str:
    assert result.exit_code == code, (result.output, result.stderr)
    assert result.stderr.startswith("error: ") and result.stderr.count("\n") == 1, result.stderr
    assert "Traceback" not in result.output
    return result.stderr


def move(session: PlaySession) -> None:
    """One action of whoever is to move (the computer's chosen by its bot)."""
    if session.table.human_to_move:
        session.act(session.view().legal_actions[0])
    else:
        session.apply_bot(session.bot_choice())


def games(home: Path) -> list[Any]:
    with GameStore.open(home) as store:
        return list(store.games())


def test_without_a_terminal_play_refuses_in_one_line_and_stores_nothing(home: Path) -> None:
    assert "needs a terminal" in one_error_line(play("--level", "easy"))
    assert games(home) == []


def test_bad_options_are_one_line_before_anything_else(home: Path, terminal: type[FakeApp]) -> None:
    for args, message in ((["--level", "grandmaster"], "unknown level 'grandmaster'"),
                          (["--cards", "tarot"], "unknown card faces 'tarot'"),
                          (["--rule", "nonsense"], "FLAG=VALUE"),
                          (["--rules", "poker"], "unknown rules preset 'poker'"),
                          (["--delay", "-1"], "--delay must be from 0 to 60 seconds"),
                          (["--delay", "inf"], "--delay must be from 0 to 60 seconds"),
                          (["--delay", "nan"], "--delay must be from 0 to 60 seconds"),
                          (["--seed", str(2**63)], "--seed must be from 0 to 2**63 - 1")):
        assert message in one_error_line(play(*args))
    assert terminal.made == [] and games(home) == []


def test_a_game_is_played_stored_and_its_options_remembered(home: Path, terminal: type[FakeApp]) -> None:
    def one_move(fake: FakeApp) -> None:
        move(fake.session)

    terminal.script = staticmethod(one_move)
    result = play("--level", "hard", "--rules", "tompa", "--cards", "german", "--no-confirm", "--seed", "5",
                  "--dealer", "computer", "--delay", "0")
    assert result.exit_code == 0, result.output
    first = terminal.made[-1]
    assert first.options["confirm"] is False and first.options["delay"] == 0
    assert result.stdout == f"Game saved ({first.session.id}). Continue it with: bummerl play --resume\n"
    stored = GameStore.open(home).load(first.session.id)
    assert (stored.level, stored.rules.base, stored.cards, stored.seed) == ("hard", "tompa", "german", 5)
    assert len(stored.record.deals[0].actions) == 1

    assert play().exit_code == 0  # no options: the last ones
    again = terminal.made[-1]
    assert again.session.id != first.session.id
    assert (again.session.level, again.session.table.rules.base, again.session.table.card_style) == (
        "hard", "tompa", "german")
    assert again.options["confirm"] is False
    # (a play-test: a --no-confirm tried once then closed the talon unasked in every later game, unsaid)
    assert again.session.note.endswith(  # (after "you have 1 unfinished game: ...")
        "; claims and closes are not asked first (--no-confirm is remembered; --confirm asks again)")
    assert "not asked" not in first.session.note  # given this time: nothing to remind of

    assert play("--level", "easy", "--rule", "false_claim=mirror", "--confirm").exit_code == 0
    third = terminal.made[-1]
    assert third.session.level == "easy" and third.options["confirm"] is True
    assert third.session.table.rules == Rules.preset("tompa").replace(false_claim="mirror")
    assert play().exit_code == 0
    assert terminal.made[-1].session.table.rules == third.session.table.rules  # overrides remembered too
    assert "not asked" not in terminal.made[-1].session.note  # asking again: nothing to remind of


def test_a_remembered_setting_is_checked_and_never_run(home: Path, terminal: type[FakeApp], tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    with GameStore.open(home) as store:
        store.remember({"level": "cmd:touch X", "rules": {"preset": "poker"}, "cards": "french"})
    result = play()
    assert result.exit_code == 0
    assert "the remembered level, rules" in result.stderr and "not valid" in result.stderr
    assert terminal.made[-1].session.level == "medium" and not (tmp_path / "X").exists()


def test_resume_continues_the_latest_or_the_named_game(home: Path, terminal: type[FakeApp]) -> None:
    older = PlaySession.new(Rules.preset("standard"), level="easy", seed=1, home=home, bot=FirstLegal())
    newer = PlaySession.new(Rules.preset("vu"), level="hard", seed=2, home=home, bot=FirstLegal())
    assert play("--resume").exit_code == 0
    assert terminal.made[-1].session.id == newer.id
    assert play("--resume", older.id[:5]).exit_code == 0
    assert terminal.made[-1].session.id == older.id
    assert play(older.id).exit_code == 0  # an id alone means --resume
    assert terminal.made[-1].session.table.deal.deck == older.table.deal.deck
    assert "no saved game 'nothing'" in one_error_line(play("--resume", "nothing"))


def test_resume_with_other_options_says_which_it_keeps(home: Path, terminal: type[FakeApp]) -> None:
    game = PlaySession.new(Rules.preset("vu"), level="hard", seed=2, home=home, bot=FirstLegal())
    result = play("--resume", "--level", "easy", "--rules", "tompa", "--seed", "0", "--no-confirm")
    assert result.exit_code == 0
    note = (f"note: --resume keeps game {game.id}'s own level (hard), rules (vu), cards (french) and seed; "
            "ignored: --level, --rules, --seed\n")
    assert result.stderr == note
    session = terminal.made[-1].session
    assert session.level == "hard" and session.note in note
    assert terminal.made[-1].options["confirm"] is False  # front-end settings do apply


def test_resume_refuses_a_finished_game_and_when_there_is_none(home: Path, terminal: type[FakeApp]) -> None:
    assert "no unfinished game to resume" in one_error_line(play("--resume"))
    s = PlaySession.new(Rules.preset("standard"), level="easy", seed=1, home=home, bot=FirstLegal())
    while s.table.phase != "game_over":
        if s.table.phase == "deal_over":
            s.next_deal()
        elif s.table.human_to_move:
            s.act(s.view().legal_actions[0])
        else:
            s.apply_bot(s.bot_choice())
    assert f"game {s.id} is finished" in one_error_line(play("--resume", s.id))


def test_a_stored_cmd_level_is_refused_and_nothing_runs(home: Path, terminal: type[FakeApp], tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    s = PlaySession.new(Rules.preset("standard"), level="easy", seed=1, home=home, bot=FirstLegal())
    sqlite3.connect(home / DB_NAME, isolation_level=None).execute("UPDATE games SET level = 'cmd:touch X'")
    for args in (["--resume"], ["--resume", s.id]):
        message = one_error_line(play(*args))
        assert f"game {s.id} is damaged: unknown level 'cmd:touch X'" in message
    assert terminal.made == [] and not (tmp_path / "X").exists()


def test_a_failed_save_is_not_called_saved(home: Path, terminal: type[FakeApp]) -> None:
    def break_the_disk(fake: FakeApp) -> None:
        fake.session.store._db.execute("PRAGMA query_only = ON")
        move(fake.session)
        assert fake.session.table.events[-1].kind == "save_failed"  # what the app shows in its log

    terminal.script = staticmethod(break_the_disk)
    result = play("--level", "easy")
    message = one_error_line(result, 1)
    assert "could not be saved" in message and "Game saved" not in result.output


def test_play_again_starts_and_holds_a_new_game_with_the_same_settings(home: Path,
                                                                         terminal: type[FakeApp]) -> None:
    def twice(fake: FakeApp) -> None:
        fresh = fake.options["new_game"]()
        assert fresh.id != fake.session.id and fresh.level == "hard"
        assert fresh.store.holder(fresh.id) is not None

    terminal.script = staticmethod(twice)
    result = play("--level", "hard")
    assert result.exit_code == 0
    assert len(games(home)) == 2


def test_an_unwritable_data_directory_is_one_line_before_the_game(tmp_path: Path, terminal: type[FakeApp],
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "file").write_text("")
    monkeypatch.setenv("BUMMERL_HOME", str(tmp_path / "file" / "home"))
    for args in (["play"], ["play", "--resume"], ["stats"], ["games"], ["games", "export", "x"]):
        result = runner.invoke(app, args)
        assert "cannot write the data directory" in one_error_line(result), args
    assert terminal.made == []


def test_a_damaged_database_is_one_line(home: Path, terminal: type[FakeApp]) -> None:
    home.mkdir()
    (home / DB_NAME).write_bytes(b"garbage " * 1000)
    for args in (["play"], ["stats"], ["games"]):
        assert "is damaged: file is not a database" in one_error_line(runner.invoke(app, args)), args


def test_version_is_the_package_version_from_pyproject() -> None:
    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0 and result.stdout == f"bummerl {version} (compiled search core)\n"
    assert bummerl.__version__ == version


def test_stats_per_level_and_per_rules_preset(home: Path) -> None:
    assert "No games saved yet" in runner.invoke(app, ["stats"]).stdout
    PlaySession.new(Rules.preset("tompa"), level="hard", seed=1, home=home, bot=FirstLegal())
    PlaySession.new(Rules.preset("vu"), level="easy", seed=2, home=home, bot=FirstLegal())
    out = runner.invoke(app, ["stats"], env={"COLUMNS": "150"}).stdout
    assert "per level" in out and "per rules preset" in out
    for word in ("hard", "easy", "tompa", "vu"):
        assert word in out
    narrow = runner.invoke(app, ["stats"], env={"COLUMNS": "80"}).stdout  # headers were cut: "unfinish…"
    assert not re.search(r"\w…", narrow) and "playing" in narrow and "abandoned" in narrow
    assert max(len(line) for line in narrow.splitlines()) <= 80


def test_a_new_game_that_cannot_be_stored_is_said_on_the_status_line(home: Path) -> None:
    """The real app: "play again" whose factory fails (the store cannot be written) keeps the old game."""
    import asyncio

    from bummerl.store import StoreError
    from bummerl.tui.app import BummerlApp

    s = PlaySession.new(Rules.preset("standard"), level="easy", seed=1, home=home, bot=FirstLegal())
    while s.table.phase != "game_over":
        if s.table.phase == "deal_over":
            s.next_deal()
        else:
            move(s)

    def broken() -> PlaySession:
        raise StoreError("cannot write the data directory /nowhere: read-only")

    app = BummerlApp(s, delay=0, review_samples=1, new_game=broken)
    said: list[str] = []

    async def main() -> None:
        async with app.run_test(size=(110, 32)) as pilot:
            await pilot.pause()
            app.status = lambda message, *, error=False: said.append(str(message))  # type: ignore[method-assign]
            app.action_play_again()
            await pilot.pause()
            app.exit()

    asyncio.run(main())
    assert app.session is s
    assert said == ["Cannot start a new game: cannot write the data directory /nowhere: read-only"]


def test_resume_leaves_games_between_two_people_to_the_browser(home: Path, terminal: type[FakeApp]) -> None:
    from bummerl.game import Bummerl

    computer = PlaySession.new(Rules.preset("standard"), level="easy", seed=1, home=home, bot=FirstLegal())
    game = Bummerl(Rules.preset("standard"), seed=2, first_dealer=0)
    with GameStore.open(home) as store:
        people = store.create(rules=game.rules, level="human", seed=2, cards="french", first_dealer=0,
                              record=GameRecord.from_game(game))  # played last
        latest = store.latest_playing()
        assert latest is not None and latest.id == people.id
    assert play("--resume").exit_code == 0
    assert terminal.made[-1].session.id == computer.id
    assert "played by two people" in one_error_line(play("--resume", people.id))


def test_a_search_core_left_uncompiled_is_told_once_per_thinking_command(
        monkeypatch: pytest.MonkeyPatch, home: Path) -> None:
    # pip hides setup.py's warning (it shows a build's output only with -v): the expert took 14 s a move
    # in such an install and nothing said why.
    import bummerl.search

    monkeypatch.delenv("BUMMERL_PURE_PYTHON", raising=False)
    monkeypatch.setattr(bummerl.search, "BACKEND", "python")
    slow = runner.invoke(app, ["solve", "--help"])
    assert slow.stderr.startswith("note: the compiled search core is not installed"), slow.stderr
    assert runner.invoke(app, ["games"]).stderr == ""  # nothing thinks there
    assert runner.invoke(app, ["--version"]).stdout.endswith("(python search core)\n")
    monkeypatch.setenv("BUMMERL_PURE_PYTHON", "1")  # asked for: no note
    assert "note:" not in runner.invoke(app, ["solve", "--help"]).stderr


def test_python_dash_m_bummerl_is_the_command() -> None:
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "bummerl", "--version"], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0 and done.stdout.startswith(f"bummerl {bummerl.__version__} ("), done.stderr
