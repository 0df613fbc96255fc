"""Import a script or a benchmark file as a module, for the tests that run them."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"


def load(name: str, folder: Path = SCRIPTS) -> ModuleType:
    """Import ``folder/name.py`` (a script, or a benchmark) as module ``name``."""
    if str(SCRIPTS) not in sys.path:  # the scripts import their sibling selfplay_jobs
        sys.path.insert(0, str(SCRIPTS))
    spec = importlib.util.spec_from_file_location(name, folder / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module
