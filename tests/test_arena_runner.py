"""Running arenas: the same results whatever the number of workers, round-robins, settings errors."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bummerl import Rules
from bummerl.arena import FORFEIT_POINTS, ArenaBroken, ArenaConfig, ArenaError, run_arena, to_json
from bummerl.arena.runner import chunks
from helpers.arena_bots import register_test_bots

VU = Rules.preset("vu")


@pytest.fixture
def seen(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    return register_test_bots(monkeypatch)


def results_only(data: dict[str, Any]) -> dict[str, Any]:
    """The JSON without what depends on the clock or the number of workers."""
    data = dict(data)
    for key in ("seconds", "deals_per_second", "workers"):
        data.pop(key)
    for p in data["pairings"]:
        for line in p["results"]:
            line.pop("decision_ms")
    for s in data["standings"]:
        s.pop("decision_ms")
    return data


def test_one_worker_and_two_workers_give_the_same_results() -> None:
    config = ArenaConfig(("random", "random", "random"), Rules.preset("standard"), seed=5, deals=24)
    one = to_json(run_arena(config))
    two = to_json(run_arena(ArenaConfig(**{**_fields(config), "workers": 2})))
    assert results_only(one) == results_only(two)


def test_bummerl_mode_is_reproducible_across_workers_too() -> None:
    config = ArenaConfig(("random", "random"), VU, seed=2, bummerls=6)
    one = to_json(run_arena(config))
    two = to_json(run_arena(ArenaConfig(**{**_fields(config), "workers": 2})))
    assert results_only(one) == results_only(two)


def _fields(config: ArenaConfig) -> dict[str, Any]:
    return {name: getattr(config, name) for name in config.__dataclass_fields__}


def test_the_seed_decides_the_games() -> None:
    a = to_json(run_arena(ArenaConfig(("random", "random"), VU, seed=1, deals=40)))
    b = to_json(run_arena(ArenaConfig(("random", "random"), VU, seed=1, deals=40)))
    c = to_json(run_arena(ArenaConfig(("random", "random"), VU, seed=2, deals=40)))
    assert results_only(a) == results_only(b) != results_only(c)


def test_a_round_robin_plays_every_pair_the_same_number_of_deals() -> None:
    result = run_arena(ArenaConfig(("random", "random", "random"), VU, seed=1, deals=10))
    assert [(p.lines[0].label, p.lines[1].label) for p in result.pairings] == [
        ("random", "random#2"), ("random", "random#3"), ("random#2", "random#3")]
    assert all(line.deals == 10 for p in result.pairings for line in p.lines)
    assert result.deals == 30 and all(s.deals == 20 for s in result.standings)


def test_progress_counts_every_deal_or_bummerl() -> None:
    counts: list[int] = []
    run_arena(ArenaConfig(("random", "random", "random"), VU, seed=1, deals=12), progress=counts.append)
    assert sum(counts) == 36
    counts.clear()
    run_arena(ArenaConfig(("random", "random"), VU, seed=1, bummerls=4), progress=counts.append)
    assert sum(counts) == 4


def test_the_anchor_is_rated_zero_and_the_stronger_bot_above_it(seen: list[Any]) -> None:
    result = run_arena(ArenaConfig(("random", "raiser", "first"), VU, seed=1, deals=20))
    ratings = {s.label: s.rating for s in result.standings}
    assert ratings["random"] == 0 and ratings["raiser"] < -300
    again = run_arena(ArenaConfig(("random", "raiser", "first"), VU, seed=1, deals=20, anchor="first"))
    assert {s.label: s.rating for s in again.standings}["first"] == 0


def test_forfeits_are_scored_and_reported_with_their_deal(seen: list[Any]) -> None:
    result = run_arena(ArenaConfig(("flaky", "random"), VU, seed=3, deals=60, workers=2))
    pairing = result.pairings[0]
    flaky, other = pairing.lines
    assert flaky.faults > 0 and other.faults == 0
    assert pairing.reasons["forfeit"] == flaky.faults
    assert all(f.bot == 0 and "flaked" in f.reason for f in pairing.faults)
    assert [f.deal for f in pairing.faults] == sorted({f.deal for f in pairing.faults})
    assert flaky.won + other.won == 60


def test_a_bot_that_always_fails_gives_three_game_points_every_deal(seen: list[Any]) -> None:
    result = run_arena(ArenaConfig(("first", "raiser"), VU, seed=3, deals=20))
    first, raiser = result.pairings[0].lines
    assert (first.won, raiser.won, raiser.faults) == (20, 0, 20)
    assert first.points_per_deal.value == first.net_per_deal.value == FORFEIT_POINTS
    assert first.points_per_deal.low == first.points_per_deal.high == FORFEIT_POINTS
    # 3 + 3 + 3 >= 7: a Bummerl every three deals, the last two deals unfinished
    assert (first.bummerls_won, raiser.bummerls_won) == (6, 0)
    assert result.pairings[0].unfinished == (7 - 2 * FORFEIT_POINTS, 7)


@pytest.mark.parametrize("workers", [1, 2])
def test_a_bot_that_calls_sys_exit_forfeits_and_a_failing_goodbye_changes_nothing(
        seen: list[Any], workers: int) -> None:
    # Session 12's audit: sys.exit in a bot ended the whole run silently with the bot's status, and a
    # close() that raised crashed it with a traceback, every result lost.
    result = run_arena(ArenaConfig(("exiter", "badclose", "first"), VU, seed=3, deals=8, workers=workers))
    exiter, badclose = result.pairings[0].lines
    assert (exiter.faults, badclose.won) == (8, 8)
    assert all("raised SystemExit: 3" in f.reason for f in result.pairings[0].faults)
    assert result.complete and result.pairings[2].lines[0].faults == 0


def test_a_factory_that_returns_no_bot_is_refused_in_one_line(seen: list[Any]) -> None:
    with pytest.raises(ArenaError, match="its factory returned NoneType, not a bot"):
        run_arena(ArenaConfig(("nothing", "first"), VU, seed=3, deals=2))


def test_the_anchor_may_be_named_as_the_bot_was_given(tmp_path: Path) -> None:
    program = tmp_path / "bot.py"
    program.write_text("")
    spec = f"cmd:python3 {program} --level 3"
    config = ArenaConfig(("random", spec), VU, seed=3, deals=2, anchor=spec)
    from bummerl.arena.runner import _result

    assert _result(config, ("random", "cmd:bot.py"), (), 3, [], 0.0, complete=True).anchor == "cmd:bot.py"


def test_chunks_cover_every_deck_pair_once() -> None:
    config = ArenaConfig(("a", "b"), VU, deals=2 * 77)
    tasks = list(chunks(config, root=1))
    covered = [j for t in tasks for j in range(t.first, t.first + t.count)]
    assert covered == list(range(77))
    assert [t.chunk for t in tasks] == list(range(len(tasks)))


def test_a_huge_number_of_deals_is_cut_into_chunks_lazily() -> None:
    tasks = chunks(ArenaConfig(("a", "b"), VU, deals=10**30), root=1)
    first = [next(tasks) for _ in range(3)]
    assert [(t.first, t.count) for t in first] == [(0, 50), (50, 50), (100, 50)]


def test_without_a_seed_every_run_draws_a_fresh_secret_root_and_reports_it() -> None:
    one = run_arena(ArenaConfig(("random", "random"), VU, deals=20))
    two = run_arena(ArenaConfig(("random", "random"), VU, deals=20))
    assert one.seed != two.seed and one.seed.bit_length() > 64
    again = run_arena(ArenaConfig(("random", "random"), VU, seed=one.seed, deals=20))
    assert results_only(to_json(again)) == results_only(to_json(one))


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"bots": ("random",)}, "at least two bots"),
        ({"deals": 7}, "--deals must be an even number"),
        ({"deals": 0}, "--deals must be an even number"),
        ({"bummerls": 3}, "--bummerls must be an even number"),
        ({"workers": 0}, "--workers must be at least 1"),
        ({"timeout": -1.0}, "--timeout must be a finite positive number"),
        ({"timeout": 0.0}, "--timeout must be a finite positive number"),
        ({"timeout": float("nan")}, "--timeout must be a finite positive number of seconds, not nan"),
        ({"timeout": float("inf")}, "--timeout must be a finite positive number of seconds, not inf"),
        ({"seed": -3}, "--seed must not be negative"),
        ({"anchor": "nobody"}, "anchor 'nobody' is not one of the bots"),
        ({"bots": ("random", "nobody")}, "unknown bot 'nobody'"),
        ({"bots": ("random", "cmd:no-such-program-here --x")}, "cannot find the program 'no-such-program"),
        # A program of this folder named as on the PATH passed the check and forfeited every deal (session
        # 11's audit; a file that is not executable too: see below).
        ({"bots": ("random", "cmd:README.md")}, r"\(a program in this folder is written \./README\.md\)$"),
    ],
)
def test_settings_that_cannot_work_are_refused_in_one_line(changes: dict[str, Any], message: str) -> None:
    fields = {"bots": ("random", "random"), "rules": VU, "deals": 10, **changes}
    with pytest.raises(ArenaError, match=message) as err:
        run_arena(ArenaConfig(**fields))
    assert "\n" not in str(err.value)


def test_a_file_that_is_not_executable_is_refused_as_a_bots_program(tmp_path: Path) -> None:
    program = tmp_path / "bot.py"
    program.write_text("print('hello')\n")
    program.chmod(0o644)
    with pytest.raises(ArenaError, match=r"bot\.py' of bot .* \(it is not executable\)$"):
        run_arena(ArenaConfig(bots=("random", f"cmd:{program}"), rules=VU, deals=2))


def test_a_worker_killed_by_its_bot_stops_the_run_with_the_results_so_far(seen: list[Any]) -> None:
    # an audit's bot called os._exit: BrokenProcessPool and a traceback, every result lost
    with pytest.raises(ArenaBroken, match=r"^a worker process died \(a bot may have ended it") as stopped:
        run_arena(ArenaConfig(("killer", "first"), VU, seed=3, deals=400, workers=2))
    partial = stopped.value.result
    assert not partial.complete and partial.deals == sum(len(p.points) for p in partial.records)


def test_a_factory_that_fails_in_a_later_chunk_stops_the_run_in_one_line_keeping_the_rest(
        seen: list[Any]) -> None:
    with pytest.raises(ArenaBroken, match=r"^cannot make bot 'tired' for chunk 1 of pairing 0: RuntimeError: "
                                          r"out of licences \(at arena_bots\.py:\d+ in tired\)$") as stopped:
        run_arena(ArenaConfig(("tired", "first"), VU, seed=3, deals=400))
    partial = stopped.value.result
    assert not partial.complete and partial.deals > 0  # the first chunk's deals


def test_under_ray_a_broken_run_says_the_chunks_own_error_in_one_line() -> None:
    from bummerl.arena.runner import WORKER_DIED, _broken
    from bummerl.errors import BummerlError

    # Ray's wrappers (ray.exceptions), without starting Ray: its str() is a whole remote traceback
    wrapped = type("RayTaskError(BummerlError)", (BummerlError,), {"__module__": "ray.exceptions"})(
        "Traceback (most recent call last):\n  ...\nlong remote text")
    wrapped.cause = BummerlError("cannot make bot 'x' for chunk 3 of pairing 0: RuntimeError: gone")
    assert _broken(wrapped) == "cannot make bot 'x' for chunk 3 of pairing 0: RuntimeError: gone"
    crashed = type("WorkerCrashedError", (RuntimeError,), {"__module__": "ray.exceptions"})("died")
    assert _broken(crashed) == WORKER_DIED
