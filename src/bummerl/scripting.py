"""What the measuring scripts and benchmarks (``scripts/``, ``benchmarks/``) share: counts checked when the
options are read, and one line instead of a traceback for a bad bot, preset or file.

>>> import argparse
>>> parser = argparse.ArgumentParser()
>>> _ = parser.add_argument("--deals", type=positive, default=10)
>>> parser.parse_args(["--deals", "3"]).deals
3
>>> positive("0")
Traceback (most recent call last):
...
argparse.ArgumentTypeError: '0' is not a whole number of at least 1
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import NoReturn

from bummerl.errors import BummerlError

__all__ = ["positive", "run"]


def positive(text: str) -> int:
    """An argparse ``type`` for counts (deals, pairs, repeats, workers): a whole number of at least 1."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of at least 1")
    return value


def run(main: Callable[[], int | None]) -> NoReturn:
    """Run a script's ``main`` and exit with its status; a :class:`~bummerl.errors.BummerlError` (an
    unknown bot or preset, a bot's bad option) or a file that cannot be read becomes one line on standard
    error and status 2, Ctrl-C status 130, as with ``bummerl`` itself."""
    try:
        status = main()
    except BummerlError as error:
        print(f"error: {error}", file=sys.stderr)
        sys.exit(2)
    except OSError as error:
        print(f"error: {error.filename or ''}{': ' if error.filename else ''}{error.strerror or error}",
              file=sys.stderr)
        sys.exit(2)
    except KeyboardInterrupt:
        print("stopped", file=sys.stderr)
        sys.exit(130)
    sys.exit(status or 0)
