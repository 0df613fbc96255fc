"""The group commit's fast path: :meth:`GameStore.append_many` stores what several games added since their
last save in one transaction, exactly as :meth:`GameStore.sync` would, or nothing."""

from __future__ import annotations

import os
import random
import socket
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bummerl.game import Bummerl
from bummerl.records import GameRecord
from bummerl.rules import Rules
from bummerl.store import Appended, GameBusy, GameNotFound, GameStore, StoreError


def _new(store: GameStore, seed: int, rules: str = "standard") -> tuple[str, Bummerl]:
    game = Bummerl(Rules.preset(rules), seed=seed, first_dealer=1)
    stored = store.create(rules=game.rules, level="easy", seed=seed, cards="french", first_dealer=1,
                          record=GameRecord.from_game(game))
    return stored.id, game


def _step(game: Bummerl, rng: random.Random) -> bool:
    if game.is_over:
        return False
    if game.deal.is_over:
        game.next_deal()
    else:
        game.apply(rng.choice(game.deal.legal_actions()))
    return True


def _stored(record: GameRecord) -> tuple[int, int]:
    return len(record.deals), len(record.deals[-1].actions)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000), rules=st.sampled_from(["standard", "sixty-six", "tompa"]),
       saves=st.lists(st.integers(1, 12), min_size=1, max_size=25))
def test_appending_stores_every_game_as_sync_would(tmp_path_factory: pytest.TempPathFactory, seed: int,
                                                   rules: str, saves: list[int]) -> None:
    rng = random.Random(seed)
    with GameStore.open(tmp_path_factory.mktemp("store")) as store:
        games = [_new(store, seed + i, rules) for i in range(3)]
        known = {game_id: _stored(GameRecord.from_game(game)) for game_id, game in games}
        for steps in saves:  # each save: every game moves a few steps (new deals too), then one append
            for _ in range(steps):
                for _, game in games:
                    _step(game, rng)
            parts = [Appended.of(game_id, GameRecord.from_game(game), known[game_id])
                     for game_id, game in games]
            store.append_many(parts)
            known = {p.game_id: p.stored for p in parts}
        for game_id, game in games:
            loaded = store.load(game_id)
            assert loaded.record == GameRecord.from_game(game)
            assert loaded.finished == game.is_over and loaded.score == game.score


def test_a_batch_is_stored_whole_or_not_at_all(tmp_path: Path) -> None:
    rng = random.Random(1)
    with GameStore.open(tmp_path) as store:
        (a, game_a), (b, game_b) = _new(store, 1), _new(store, 2)
        before = {a: _stored(GameRecord.from_game(game_a)), b: _stored(GameRecord.from_game(game_b))}
        for game in (game_a, game_b):
            _step(game, rng)
        # b's part claims less is stored than is: its action would land where one is already
        store.sync(b, GameRecord.from_game(game_b))
        parts = [Appended.of(a, GameRecord.from_game(game_a), before[a]),
                 Appended.of(b, GameRecord.from_game(game_b), before[b])]
        with pytest.raises(StoreError):
            store.append_many(parts)
        assert store.load(a).record != GameRecord.from_game(game_a)  # a's action is not stored either
        store.append_many(parts[:1])
        assert store.load(a).record == GameRecord.from_game(game_a)
        with pytest.raises(GameNotFound):
            store.append_many([Appended("no-such-game", (), (), (7, 7), (1, 0))])


def test_a_game_another_live_process_holds_is_not_appended_to(tmp_path: Path) -> None:
    rng = random.Random(2)
    with GameStore.open(tmp_path) as store:
        game_id, game = _new(store, 3)
        known = _stored(GameRecord.from_game(game))
        _step(game, rng)
        parent = os.getppid()  # alive, not us
        store._db.execute("INSERT INTO leases VALUES (?, 'terminal', ?, ?, '', '')",
                          (game_id, parent, socket.gethostname()))
        with pytest.raises(GameBusy):
            store.append_many([Appended.of(game_id, GameRecord.from_game(game), known)])


def test_a_record_shorter_than_the_stored_part_is_refused() -> None:
    game = Bummerl(Rules.preset("standard"), seed=4, first_dealer=1)
    with pytest.raises(StoreError, match="shorter than the stored one"):
        Appended.of("g", GameRecord.from_game(game), (1, 3))
    with pytest.raises(StoreError, match="shorter than the stored one"):
        Appended.of("g", GameRecord.from_game(game), (2, 0))
