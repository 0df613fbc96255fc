"""Run a command as a normal user would: root ignores file permissions, so under root the capabilities that
let it read and write anything are dropped (``setpriv``); the test is skipped where that cannot be done."""

from __future__ import annotations

import os
import shutil

import pytest

__all__ = ["unprivileged"]


def unprivileged(command: list[str]) -> list[str]:
    """``command``, prefixed so that read-only files and directories stay read-only for it."""
    if os.geteuid() != 0:
        return command
    if shutil.which("setpriv") is None:
        pytest.skip("running as root without setpriv: a read-only file cannot be made so")
    return ["setpriv", "--bounding-set", "-dac_override,-dac_read_search",
            "--inh-caps=-dac_override,-dac_read_search", *command]
