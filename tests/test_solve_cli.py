"""``bummerl solve`` and ``bummerl analyse``: records, notation and puzzles in; values, lines, tables out."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bummerl import Deal, Rules, View
from bummerl.cli import app
from bummerl.notation import Position
from bummerl.records import DealRecord
from bummerl.search import solve, solve_actions
from bummerl.search.worlds import count_worlds

PUZZLES = Path(__file__).parent / "puzzles"
runner = CliRunner()


def late_deal(seed: int, actions: int = 9, preset: str = "tompa") -> Deal:
    """A deal stopped after some random actions (not over), from a deck so it has a record."""
    rng = random.Random(seed)
    while True:
        deal = Deal.random(Rules.preset(preset), rng.randrange(10**9))
        for _ in range(actions):
            if deal.is_over:
                break
            deal.apply(rng.choice([a for a in deal.legal_actions() if a.kind != "claim"]))
        if not deal.is_over:
            return deal


def invoke(*args: str, stdin: str | None = None) -> tuple[int, str]:
    result = runner.invoke(app, list(args), input=stdin)
    return result.exit_code, result.output


def test_solve_a_record_cut_part_way_gives_value_line_and_actions() -> None:
    deal = late_deal(1)
    code, out = invoke("solve", "-", "--json", "--all", stdin=DealRecord.from_deal(deal).dumps())
    assert code == 0, out
    got = json.loads(out)
    assert list(got) == ["to_move", "value", "pv", "actions"]
    assert got["to_move"] == deal.to_move and got["value"] == solve(deal.copy())
    assert got["actions"] == {str(a): v for a, v in solve_actions(deal.copy()).items()}
    assert max(got["actions"].values()) == got["value"]
    line = deal.copy()
    for action in got["pv"]:  # the best line is legal from the position and plays the deal out
        line.apply(action)
    assert got["pv"] and got["pv"][0] in got["actions"]
    outcome = line.outcome
    assert outcome is not None
    won = outcome.value_for(deal.to_move)
    assert won == got["value"]


def test_solve_reads_json_lines_and_notation_lines_in_order() -> None:
    deals = [late_deal(2), late_deal(3, preset="standard")]
    text = "\n".join(
        [DealRecord.from_deal(deals[0]).dumps(), "# a comment", "", str(Position.from_deal(deals[1]))]
    )
    code, out = invoke("solve", "-", "--json", stdin=text + "\n")
    assert code == 0, out
    lines = [json.loads(x) for x in out.splitlines()]
    assert [x["value"] for x in lines] == [solve(d.copy()) for d in deals]
    assert all("actions" not in x for x in lines)


def test_solve_takes_a_puzzle_only_when_it_hides_nothing() -> None:
    code, out = invoke("solve", str(PUZZLES / "tompa-2-exhausted.json"), "--json")
    assert code == 0, out
    assert json.loads(out)["value"] == 1
    code, out = invoke("solve", str(PUZZLES / "tompa-1-open-talon.json"))
    assert code == 2
    assert out.strip() == (
        "error: a puzzle hides cards (6 possible placements): solve needs a full-information position; "
        "use bummerl analyse"
    )


def test_solve_shows_a_readable_answer_without_json() -> None:
    code, out = invoke("solve", str(PUZZLES / "tompa-2-exhausted.json"), "--all")
    assert code == 0, out
    assert "player 0 to move wins 1 game point with best play (+1)" in out
    assert "Best line: play KH" in out or "Best line: play TH" in out
    assert "play JD" in out and "-2" in out


def test_analyse_a_puzzle_file_matches_the_recorded_answers() -> None:
    answers = json.loads((PUZZLES / "answers.json").read_text())
    code, out = invoke("analyse", str(PUZZLES / "tompa-1-open-talon.json"), "--json")
    assert code == 0, out
    assert json.loads(out) == answers["tompa-1-open-talon.json"]
    code, out = invoke("analyse", str(PUZZLES / "tompa-1-open-talon.json"))
    assert code == 0 and "me to move — exact over all 6 placements of the unseen cards" in out
    assert out.index("close") < out.index("play TC") < out.index("play AD")


def test_analyse_a_record_from_the_view_of_the_player_to_move() -> None:
    deal = late_deal(4, actions=5)
    assert count_worlds(View.of(deal, deal.to_move)) > 30
    text = DealRecord.from_deal(deal).dumps()
    code, out = invoke("analyse", "-", "--json", "--samples", "30", "--seed", "2", stdin=text)
    assert code == 0, out
    got = json.loads(out)
    assert (got["exact"], got["worlds"], got["seed"]) == (False, 30, 2)
    assert got["total_worlds"] == count_worlds(View.of(deal, deal.to_move))
    assert {a["action"] for a in got["actions"]} == {str(a) for a in deal.legal_actions()}
    assert all(len(a["ci95"]) == 2 for a in got["actions"])
    again = invoke("analyse", "-", "--json", "--samples", "30", "--seed", "2", stdin=text)
    assert again == (0, out)
    code, table = invoke("analyse", "-", "--samples", "30", "--seed", "2", stdin=text)
    assert code == 0 and "95% interval" in table and f"player {deal.to_move} to move" in table


def test_analyse_reads_puzzle_notation() -> None:
    code, out = invoke("analyse", "-", "--json", stdin="tompa CQ.DJ.HTK.SJ/?CAK.HJ.STK 0 H 0 32/36 2/3\n")
    assert code == 0, out
    assert json.loads(out)["worlds"] == 1


def test_analyse_a_full_position_from_what_the_player_to_move_sees() -> None:
    text = "tompa CTK.DAK.HQ/CQJ.DTQ.HT JD QS 0 28/27 2/2"  # Tompa's first puzzle with the cards shown
    code, out = invoke("analyse", "-", "--json", stdin=text)
    assert code == 0, out
    assert json.loads(out) == json.loads((PUZZLES / "answers.json").read_text())["tompa-1-open-talon.json"]


@pytest.mark.parametrize(
    ("command", "stdin", "message"),
    [
        ("solve", "", "error: no position in -"),
        ("solve", '{"rules": "standard"}\n', 'error: line 1: not a deal record (no "deck") nor a puzzle'),
        ("solve", '\n{"deck": \n', "error: line 2: not valid JSON"),
        (
            "analyse",
            "tompa CTK.DAK.HQ/?CQJ.DTQJ.HT 3 QS 0 28/27 2/2",
            "error: line 1: bad position 'tompa CTK.DAK.HQ/?CQJ.DTQJ.HT 3 QS 0 28/27 2/2': with the talon",
        ),
        (
            "analyse",
            "tompa CTK.DAK.HQ/?CQJ.DTQJ.HT 1 QS 1 28/27 2/2",
            "error: line 1: the opponent is to move in this puzzle",
        ),
        ("analyse", '{"deals": []}', "error: line 1: a game record holds many deals"),
    ],
)
def test_bad_input_is_one_line_on_stderr_and_exit_2(command: str, stdin: str, message: str) -> None:
    code, out = invoke(command, "-", stdin=stdin)
    assert code == 2
    assert out.startswith(message), out
    assert out.count("\n") == 1 and "Traceback" not in out


def test_a_finished_deal_or_a_missing_file_is_refused() -> None:
    deal = Deal.random(Rules.preset("standard"), 5)
    deal.apply(deal.legal_actions()[0])
    deal.apply(deal.legal_actions()[0])
    deal.apply("claim")
    for command in ("solve", "analyse"):
        code, out = invoke(command, "-", stdin=DealRecord.from_deal(deal).dumps())
        assert code == 2 and "the deal is over" in out
        code, out = invoke(command, "no-such-file.json")
        assert code == 2 and out.startswith("error: cannot read no-such-file.json")


def test_analyse_refuses_a_negative_seed_as_play_and_arena_do() -> None:
    code, out = invoke("analyse", "-", "--seed", "-1", stdin="tompa CTK.DAK.HQ/CQJ.DTQ.HT JD QS 0 28/27 2/2")
    assert code == 2 and "--seed must be from 0 to 2**63 - 1, not -1" in out


def test_ctrl_c_during_a_long_analysis_is_one_line_and_exit_130(tmp_path: Path) -> None:
    import signal
    import subprocess
    import sys
    import time

    deck = [f"{rank}{suit}" for suit in "CDHS" for rank in "JQKTA"]
    record = {"rules": "standard", "dealer": 0, "actions": ["play JC"], "deck": deck}
    (tmp_path / "open.json").write_text(json.dumps(record))
    proc = subprocess.Popen([sys.executable, "-c", "from bummerl.cli import main; main()", "analyse",
                             str(tmp_path / "open.json"), "--samples", "100000"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(3)  # well into the 100,000 worlds
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert (proc.returncode, err, out) == (130, "error: interrupted\n", "")
