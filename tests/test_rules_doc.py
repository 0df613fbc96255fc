"""docs/rules.md, the project's own rules page: its flag table is the presets as the engine has them, its
example runs, and the README (and the package metadata) link to it, not outside the repository."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

from bummerl.rules import FLAG_NAMES, PRESETS

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "rules.md"


def _table_rows(text: str, first_header: str) -> list[list[str]]:
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"| {first_header} |"))
    rows = []
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        rows.append([cell.replace("*", "").replace("`", "").strip() for cell in line.strip("|").split("|")])
    return rows


def test_the_flag_table_is_every_preset_as_the_engine_has_it() -> None:
    text = PAGE.read_text(encoding="utf-8")
    header = next(line for line in text.splitlines() if line.startswith("| flag |"))
    names = [cell.strip() for cell in header.strip("|").split("|")][2:]
    assert names == list(PRESETS)
    flags = {row[0]: row[2:] for row in _table_rows(text, "flag")}
    assert set(flags) == set(FLAG_NAMES)
    for flag, cells in flags.items():
        for preset, cell in zip(names, cells, strict=True):
            value = getattr(PRESETS[preset], flag)
            expected = ("yes" if value else "no") if isinstance(value, bool) else str(value)
            assert cell == expected, (flag, preset)


def test_every_preset_is_described() -> None:
    described = [row[0].split()[0] for row in _table_rows(PAGE.read_text(encoding="utf-8"), "preset")]
    assert described == list(PRESETS)


def test_the_page_example_runs() -> None:
    parser = doctest.DocTestParser()
    test = parser.get_doctest(PAGE.read_text(encoding="utf-8"), {}, "rules.md", str(PAGE), 0)
    assert test.examples
    result = doctest.DocTestRunner().run(test)
    assert result.failed == 0


def test_the_readme_and_the_metadata_link_to_the_page_inside_the_repository() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    links = re.findall(r"\]\(([^)\s]*rules\.md[^)\s]*)\)", readme)
    assert links and all(link == "docs/rules.md" for link in links), links
    for name in ("README.md", "pyproject.toml"):
        assert "../shared" not in (ROOT / name).read_text(encoding="utf-8"), name
