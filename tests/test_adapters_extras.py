"""The research adapters are an extra: the base install pulls none of their libraries, and importing bummerl
(or the adapters package) imports none of them."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

from bummerl.errors import install_hint

PYPROJECT = tomllib.loads((Path(__file__).resolve().parent.parent / "pyproject.toml").read_text("utf-8"))
HEAVY = ("numpy", "gymnasium", "pettingzoo", "open-spiel", "ray")


def names(requirements: list[str]) -> set[str]:
    return {r.split("[")[0].split(">")[0].split("=")[0].split("<")[0].strip().lower() for r in requirements}


def test_the_base_install_pulls_no_research_library_and_the_rl_extra_pulls_them_all() -> None:
    project = PYPROJECT["project"]
    assert not names(project["dependencies"]) & set(HEAVY)
    extras = project["optional-dependencies"]
    assert {"numpy", "gymnasium", "pettingzoo", "open-spiel"} <= names(extras["rl"])
    assert "bummerl[rl]" in extras["dev"]  # so CI runs the adapters' tests


def test_importing_bummerl_and_its_adapters_package_imports_none_of_them() -> None:
    code = (
        "import sys, bummerl, bummerl.adapters, bummerl.bots, bummerl.arena, bummerl.cli\n"
        "print(sorted(m for m in ('numpy', 'gymnasium', 'pettingzoo', 'pyspiel', 'open_spiel') "
        "if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          check=True)
    assert done.stdout.strip() == "[]"


def test_an_adapter_without_its_library_says_which_extra_to_install() -> None:
    # It was a bare ModuleNotFoundError traceback (session 13's packaging audit).
    for module, library in (("encoding", "numpy"), ("gymnasium", "gymnasium"), ("pettingzoo", "pettingzoo"),
                            ("openspiel", "pyspiel")):
        code = (f"import sys; sys.modules[{library!r}] = None\n"
                f"try:\n    import bummerl.adapters.{module}\nexcept ImportError as e:\n    print(e)")
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
        said = (f"{library} is not installed: the research adapters need the rl extra: "
                f"{install_hint('rl')}")  # in this checkout: pip install -e '.[rl]' in the checkout
        assert done.stdout.strip() == said, (module, done.stdout, done.stderr)
