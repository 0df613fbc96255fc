"""The README's "Write a bot" and "Research adapters" sections: every Python block runs as written, the bot
is at most 15 lines, and the deal shares quoted are what the run gives (within their intervals)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from bummerl.bots import unregister

README = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")


def section(title: str) -> str:
    start = README.index(f"\n## {title}\n")
    end = README.index("\n## ", start + 1)
    return README[start:end]


def python_blocks(title: str) -> list[str]:
    blocks = re.findall(r"```python\n(.*?)```", section(title), flags=re.S)
    assert blocks, f"the README's {title!r} section has Python examples"
    return blocks


def test_the_bot_in_the_readme_is_at_most_15_lines_and_scores_as_the_readme_says() -> None:
    bot_block, arena_block = python_blocks("Write a bot")
    assert len([line for line in bot_block.splitlines() if line.strip()]) <= 15
    namespace: dict[str, Any] = {}
    exec(bot_block, namespace)
    try:
        exec(arena_block, namespace)
    finally:
        unregister("greedy")
    result = namespace["result"]
    by_pair = {tuple(line.label for line in p.lines): p.lines[0] for p in result.pairings}
    text = section("Write a bot").replace("\n", " ")
    quoted = re.search(r"win ([\d.]+) % \[([\d.]+), ([\d.]+)\] of 1000 deals against `random` and "
                       r"([\d.]+) % \[([\d.]+), ([\d.]+)\] against `heuristic`", text)
    assert quoted, "the README quotes the greedy bot's deal shares"
    numbers = [float(x) for x in quoted.groups()]
    for opponent, (value, low, high) in zip(("random", "heuristic"), (numbers[:3], numbers[3:]), strict=True):
        share = 100 * by_pair[("greedy", opponent)].won_share.value
        # the run matches the README within the interval it quotes (the arena's seeding may move it a little)
        assert low <= share <= high and low <= value <= high, (opponent, share, value)
    ratings = {s.label: s.rating for s in result.standings}
    assert ratings["heuristic"] > ratings["greedy"] > ratings["random"] == 0


def test_the_research_adapters_examples_run() -> None:
    pytest.importorskip("pettingzoo", reason="PettingZoo is in the rl extra: pip install 'bummerl[rl]'")
    pytest.importorskip("pyspiel", reason="OpenSpiel is in the rl extra: pip install 'bummerl[rl]'")
    for block in python_blocks("Research adapters"):
        namespace: dict[str, Any] = {}
        exec(block, namespace)
    assert namespace["game"].get_type().short_name == "python_schnapsen"
