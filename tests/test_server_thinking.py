"""The computer thinks in worker processes, off the event loop: while one game's expert thinks, every other
game answers (the expert here waits at a gate the test opens, so nothing races the clock)."""

from __future__ import annotations

import contextlib
import random
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from bummerl.server import create_app
from bummerl.server.thinker import Thinker
from helpers.web import GATE_ENV, gated_decide, gated_question


def test_while_one_games_expert_thinks_every_other_game_answers(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    gate = tmp_path / "gate"
    monkeypatch.setenv(GATE_ENV, str(gate))
    thinker = Thinker(2, decide_fn=gated_decide)
    try:
        with TestClient(create_app(home=tmp_path / "home", thinker=thinker)) as client:
            hub = client.app.state.hub  # type: ignore[attr-defined]
            # the human deals, so the expert leads first and starts thinking at once
            a = client.post("/api/games", json={"rules": "standard", "level": "expert", "dealer": 0,
                                                "seed": 3}).json()
            b = client.post("/api/games", json={"rules": "standard", "level": "easy", "seed": 2}).json()
            with client.websocket_connect(f"/ws/games/{a['id']}?token={a['token']}") as wa:
                first = wa.receive_json(), wa.receive_json()
                assert first[1]["waiting_for"] == 1
                rng = random.Random(1)
                with client.websocket_connect(f"/ws/games/{b['id']}?token={b['token']}") as wb:
                    moves = 0
                    while True:  # a whole deal of game B while A's expert is thinking
                        msg = wb.receive_json()
                        if msg["type"] != "view":
                            assert msg["type"] == "events"
                            continue
                        if msg["phase"] != "playing":
                            break
                        if msg["waiting_for"] == 0 and not msg["thinking"]:
                            wb.send_json({"type": "act", "action": rng.choice(msg["deal"]["legal"])})
                            moves += 1
                    assert moves >= 3
                assert hub.live[a["id"]].thinking and not gate.exists()
                gate.touch()
                while True:  # now the expert moves (an exchange or a close first, maybe), then leads
                    msg = wa.receive_json()
                    if msg["type"] == "view" and msg["waiting_for"] == 0:
                        break
                assert msg["deal"]["lead"] is not None
    finally:
        thinker.close()


def test_the_pool_answers_like_the_level_in_process() -> None:
    import asyncio

    from bummerl import Deal, Rules, View
    from bummerl.server.thinker import decide

    view = View.of(Deal.random(Rules.preset("standard"), 8), 0)
    thinker = Thinker(1)
    try:
        action = asyncio.run(thinker.decide("hard", 5, view))
    finally:
        thinker.close()
    assert str(action) == decide("hard", 5, view)


def test_a_quick_levels_move_waits_behind_no_other_games_thinking(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # One queue for everything: an easy game's answer waited behind every expert decision, analysis and
    # review queued before it (session 13's soak: p95 1.2 s beside three expert games).
    import asyncio

    from bummerl import Deal, Rules, View
    from bummerl.server.thinker import analyse_view

    gate = tmp_path / "gate"
    monkeypatch.setenv(GATE_ENV, str(gate))
    view = View.of(Deal.random(Rules.preset("standard"), 8), 0)
    thinker = Thinker(1, decide_fn=gated_decide)
    done: list[str] = []

    async def job(name: str, level: str | None) -> None:
        if level is None:
            await thinker.run(analyse_view, view, 2)
        else:
            await thinker.decide(level, 1, view)
        done.append(name)

    async def main() -> None:
        first = asyncio.create_task(job("expert 1", "expert"))  # holds the only worker at the gate
        await asyncio.sleep(0.5)
        queued = [asyncio.create_task(job(name, level)) for name, level in
                  (("expert 2", "expert"), ("analysis", None), ("easy", "easy"), ("hard", "hard"))]
        await asyncio.sleep(0.5)
        gate.touch()
        await asyncio.gather(first, *queued)

    try:
        asyncio.run(main())
    finally:
        thinker.close()
    assert done == ["easy", "expert 1", "hard", "expert 2", "analysis"]  # easy: no worker at all


def test_a_review_waits_behind_quick_moves_for_3_seconds_not_for_ever() -> None:
    # Strict priority starved it: with one worker and two players making hard moves back to back, a review
    # waited as long as the moves kept coming (review of ced146d: over 6 s for 0.05 s of work). The clock
    # here is the test's: each hard move served moves it 0.25 s, so nothing races real time.
    import asyncio

    from bummerl import Deal, Rules, View
    from bummerl.server.thinker import PRIORITY, analyse_view

    view = View.of(Deal.random(Rules.preset("standard"), 8), 0)
    thinker = Thinker(1)
    now = [0.0]
    thinker.clock = lambda: now[0]
    done: list[str] = []

    async def player() -> None:
        for _ in range(15):
            await thinker.decide("hard", 1, view)
            done.append("hard")
            now[0] += 0.25

    async def review() -> None:
        await thinker.run(analyse_view, view, 2, priority=PRIORITY["review"])
        done.append("review")

    async def main() -> None:
        # created in one go: the first player's move takes the only worker, the second's and the review wait
        await asyncio.gather(player(), player(), review())

    try:
        asyncio.run(main())
    finally:
        thinker.close()
    assert len(done) == 31
    # it waits for the moves that came in the 3 s after it (12 of them, and the one being made), then goes
    moves_before = done.index("review")
    assert 12 <= moves_before <= 14, done


def test_questions_wait_for_their_turn_behind_moves_and_beyond_a_few_are_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Audit of the web server: one client kept an analysis going in each of 20 games; every one that had
    # waited 2 s went ahead of each new decision (aging), and a hard move took p50 32 s with one worker.
    # The first fix refused every question beyond the workers' share, so one client asking twice a second
    # had every other player's refused (with 2 workers, a review of the fix): questions now wait for their
    # turn among themselves, a few per worker, and only beyond those are refused.
    import asyncio

    from bummerl import Deal, Rules, View
    from bummerl.server.thinker import BUSY

    gate = tmp_path / "gate"
    monkeypatch.setenv(GATE_ENV, str(gate))
    view = View.of(Deal.random(Rules.preset("standard"), 8), 0)
    thinker = Thinker(1)
    now = [0.0]
    thinker.clock = lambda: now[0]
    done: list[str] = []

    async def question(asker: str) -> None:
        done.append(await thinker.ask(gated_question, asker=asker))

    async def move() -> None:
        await thinker.decide("hard", 1, view)
        done.append("move")

    async def main() -> list[str]:
        first = asyncio.create_task(question("192.0.2.1"))  # holds the only worker at the gate
        await asyncio.sleep(0.3)
        waiting = [asyncio.create_task(question(f"192.0.2.{n}")) for n in range(2, 22)]
        await asyncio.sleep(0.3)
        refusals = [str(t.exception()) for t in waiting if t.done()]
        now[0] += 60.0  # however long the questions had waited, the move goes first
        moving = asyncio.create_task(move())
        await asyncio.sleep(0.3)
        gate.touch()
        await asyncio.gather(first, moving, *(t for t in waiting if not t.done()))
        return refusals

    try:
        refusals = asyncio.run(main())
    finally:
        thinker.close()
    asked = thinker.most_asked  # 4 for one worker: the first and 3 waiting
    assert refusals == [BUSY] * (21 - asked)
    assert done == ["answered", "move"] + ["answered"] * (asked - 1)


def test_a_question_counts_until_its_worker_is_done_with_it_even_when_its_asker_leaves(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Else a client that asks and hangs up, again and again, would pile up work behind the counter's back.
    import asyncio

    from bummerl.server.limits import PerAddress
    from bummerl.server.thinker import ThinkerBusy, too_many_from

    gate = tmp_path / "gate"
    monkeypatch.setenv(GATE_ENV, str(gate))
    thinker = Thinker(1)
    thinker.askers = PerAddress(1)

    async def main() -> tuple[int, str, int]:
        asking = asyncio.create_task(thinker.ask(gated_question, asker="192.0.2.7"))
        await asyncio.sleep(0.3)
        asking.cancel()  # the asker leaves; the worker still works it out
        with contextlib.suppress(asyncio.CancelledError):
            await asking
        counted = thinker.questions
        try:
            await thinker.ask(gated_question, asker="192.0.2.7")
            refused = ""
        except ThinkerBusy as err:
            refused = str(err)
        gate.touch()
        for _ in range(500):  # until the worker is done (at most 10 s)
            if thinker.questions == 0:
                break
            await asyncio.sleep(0.02)
        return counted, refused, thinker.questions

    try:
        counted, refused, left = asyncio.run(main())
    finally:
        thinker.close()
    assert (counted, refused, left) == (1, too_many_from(1), 0)
    assert thinker.askers.now.get("192.0.2.7", 0) == 0
