"""Saved games: where they live, how they round-trip, resume and the statistics per level."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bummerl.records import GameRecord
from bummerl.rules import Rules
from bummerl.storage import (
    SavedGame,
    StorageError,
    all_games,
    data_dir,
    games_dir,
    latest_unfinished,
    load,
    save,
    stats,
)
from bummerl.table import FirstLegal
from bummerl.tui.session import PlaySession


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("BUMMERL_HOME", str(tmp_path))
    return tmp_path


def test_bummerl_home_overrides_the_data_directory(home: Path) -> None:
    assert data_dir() == home and games_dir() == home / "games"


def test_without_bummerl_home_the_user_data_directory_is_used(monkeypatch: pytest.MonkeyPatch) -> None:
    import platformdirs

    monkeypatch.delenv("BUMMERL_HOME", raising=False)
    assert data_dir() == Path(platformdirs.user_data_dir("bummerl", appauthor=False))


def test_a_saved_game_round_trips_and_writes_no_stray_files(home: Path) -> None:
    record = {"rules": {"preset": "standard", "false_claim": "mirror"}, "first_dealer": 0,
              "deals": [{"dealer": 0, "deck": ["QH", "KH"], "actions": ["play QH"]}]}
    game = SavedGame.new(record=record, level="hard", seed=3, cards="german")
    path = save(game)
    assert path.parent == home / "games" and [p.name for p in path.parent.iterdir()] == [path.name]
    again = load(game.id)
    assert again == game
    assert json.loads(path.read_text())["format"] == "bummerl-game/1"


def test_loading_a_missing_or_broken_game_is_a_clear_error(home: Path) -> None:
    with pytest.raises(StorageError, match="no saved game"):
        load("nothing-here")
    with pytest.raises(StorageError, match="bad game id"):
        load("../etc/passwd")
    (home / "games").mkdir()
    (home / "games" / "broken.json").write_text("{not json")
    with pytest.raises(StorageError, match="cannot read"):
        load("broken")
    assert list(all_games()) == []  # unreadable files are skipped


def test_latest_unfinished_skips_finished_games(home: Path) -> None:
    assert latest_unfinished() is None
    old = SavedGame.new(record={}, level="easy", seed=1)
    done = SavedGame.new(record={}, level="easy", seed=2)
    done.finished, done.winner = True, 0
    save(old)
    save(done)
    found = latest_unfinished()
    assert found is not None and found.id == old.id


def test_every_action_of_a_session_is_saved_and_resume_continues_exactly(home: Path) -> None:
    session = PlaySession.new(Rules.preset("standard"), level="random", seed=21, first_dealer=1)
    for _ in range(7):
        if session.table.phase == "deal_over":
            session.next_deal()
        if session.table.human_to_move:
            session.act(session.view().legal_actions[-1])
        else:
            session.apply_bot(session.bot_choice())
        on_disk = load(session.saved.id)
        assert GameRecord.from_json(on_disk.record) == session.table.record()
    resumed = PlaySession.resume(load(session.saved.id))
    assert resumed.table.deal.history == session.table.deal.history
    assert resumed.table.deal.hands == session.table.deal.hands
    assert resumed.table.score == session.table.score
    assert resumed.saved.id == session.saved.id


def test_stats_count_deals_bummerls_and_game_points_per_level(home: Path) -> None:
    def played(level: str, seed: int, finish: bool) -> None:
        s = PlaySession.new(Rules.preset("standard"), level=level, seed=seed, first_dealer=0,
                            bot=FirstLegal())
        while s.table.phase != "game_over":
            if s.table.phase == "deal_over":
                if not finish:
                    return
                s.next_deal()
            elif s.table.human_to_move:
                s.act(s.view().legal_actions[0])
            else:
                s.apply_bot(s.bot_choice())

    played("easy", 1, True)
    played("easy", 2, False)
    played("expert", 3, True)
    totals = stats()
    assert set(totals) == {"easy", "expert"}
    for level, s in totals.items():
        games = [g for g in all_games() if g.level == level]
        results = [r for g in games for r in g.results]
        assert s.deals == len(results)
        assert s.deals_won == sum(r["winner"] == 0 for r in results)
        assert s.game_points_won == sum(r["game_points"] for r in results if r["winner"] == 0)
        assert s.game_points_lost == sum(r["game_points"] for r in results if r["winner"] == 1)
        assert s.bummerls == sum(g.finished for g in games)
        assert s.bummerls_won == sum(g.winner == 0 for g in games)
    assert totals["easy"].unfinished == 1 and totals["expert"].unfinished == 0
