"""pytest: the doctests of an adapter module are collected only when its libraries (the ``rl`` extra) are
installed, so a base install's test run skips them instead of failing to import them."""

from __future__ import annotations

import importlib.util

#: The libraries each module imports.
_NEEDS: dict[str, tuple[str, ...]] = {
    "encoding.py": ("numpy",),
    "gymnasium.py": ("numpy", "gymnasium"),
    "pettingzoo.py": ("numpy", "gymnasium", "pettingzoo"),
    "openspiel.py": ("numpy", "pyspiel"),
}

collect_ignore = [
    module for module, needs in _NEEDS.items() if any(importlib.util.find_spec(n) is None for n in needs)
]
