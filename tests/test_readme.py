"""The README's Python examples run as written."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

README = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")


def test_every_python_example_in_the_readme_runs() -> None:
    blocks = re.findall(r"```python\n(.*?)```", README, flags=re.S)
    assert blocks, "the README has Python examples"
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for i, block in enumerate(blocks):
        runner.run(parser.get_doctest(block, {}, f"README block {i}", "README.md", 0))
    assert runner.summarize(verbose=False).failed == 0


def test_the_readme_opens_with_the_install_and_test_commands() -> None:
    first_block = README.split("```", 2)[1].strip().splitlines()
    assert first_block[0].startswith("pip install") and "bummerl play" in first_block[0]
    ci = (Path(__file__).resolve().parent.parent / ".ci" / "run").read_text(encoding="utf-8")
    assert first_block[1] in ci.splitlines()
