"""Run a command as a normal user would: root ignores file permissions, so under root the capabilities that
let it read and write anything are dropped (``setpriv``); the test is skipped where that cannot be done.
And ``bummerl`` commands so on a store made read-only."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bummerl.store import DB_NAME

__all__ = ["on_read_only_store", "unprivileged"]

#: The ``bummerl`` command of this Python.
CLI = (sys.executable, "-c", "from bummerl.cli import main; main()")


def unprivileged(command: list[str]) -> list[str]:
    """``command``, prefixed so that read-only files and directories stay read-only for it."""
    if os.geteuid() != 0:
        return command
    if shutil.which("setpriv") is None:
        pytest.skip("running as root without setpriv: a read-only file cannot be made so")
    return ["setpriv", "--bounding-set", "-dac_override,-dac_read_search",
            "--inh-caps=-dac_override,-dac_read_search", *command]


def on_read_only_store(home: Path, *commands: list[str]) -> list[subprocess.CompletedProcess[str]]:
    """Run ``bummerl`` commands as a normal user on the store in ``home`` made read-only (file and
    directory), as a backup or a disk mounted read-only is; the permissions are given back after."""
    os.chmod(home / DB_NAME, 0o444)
    os.chmod(home, 0o555)
    env = {**os.environ, "BUMMERL_HOME": str(home)}
    try:
        return [subprocess.run(unprivileged([*CLI, *args]), capture_output=True, text=True, env=env,
                               timeout=120) for args in commands]
    finally:
        os.chmod(home, 0o755)
        os.chmod(home / DB_NAME, 0o644)
