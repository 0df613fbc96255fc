"""Logs without hidden cards: the web server writes no game state to its logs, and a filter on every log
record it may write (uvicorn's, asyncio's, Starlette's, bummerl's, the root logger's handlers) replaces any
card it names with ``??`` and any seat token with ``token=…``, in the message, its arguments and the
traceback. So an error whose message holds a deal, a hand or a view (``<Deal ... deck='QH KC ...'>``)
is logged without the cards: no log line names a card, whoever could read the log.

>>> redact("boom in <Deal standard dealer=0 deck='QH KC 10♥ Herz O'> ws?token=abc_DEF-123456")
"boom in <Deal standard dealer=0 deck='?? ?? ?? ??'> ws?token=…"
>>> redact("ASK THE AS-IS OK 9x")
'ASK THE ??-IS OK 9x'
"""

from __future__ import annotations

import logging
import re
from typing import Any

__all__ = ["LOGGERS", "Redact", "install", "redact"]

_CARD = re.compile(
    r"(?<![0-9A-Za-z])(?:[9JQKTA][CDHS]|(?:10|[9JQKA])[♣♦♥♠])(?![0-9A-Za-z])"  # QH, 10♥, Q♥
    r"|\b(?:Eichel|Schellen|Herz|Laub)[ -](?:9|10|U|O|K|Sau|A)\b"  # German faces: Herz O, Eichel Sau
)
_TOKEN = re.compile(r"(token=)[A-Za-z0-9_\-]+")
#: The loggers a web server's records come from (their own filters catch what they log themselves).
LOGGERS = ("", "uvicorn", "uvicorn.error", "uvicorn.access", "uvicorn.asgi", "asyncio", "starlette",
           "concurrent.futures", "websockets", "bummerl")


def redact(text: str) -> str:
    """``text`` with every card replaced by ``??`` and every ``token=...`` by ``token=…``."""
    return _TOKEN.sub(r"\1…", _CARD.sub("??", text))


def _plain(value: Any) -> Any:
    """A log argument with the cards taken out (numbers stay numbers for ``%d``)."""
    if value is None or isinstance(value, bool | int | float):
        return value
    return redact(value if isinstance(value, str) else str(value))


class Redact(logging.Filter):
    """Takes the cards and tokens out of a record (once), keeping it: the message, its arguments, the
    traceback (formatted now, so no handler renders the exception's values itself) and the stack."""

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "bummerl_redacted", False):
            return True
        record.bummerl_redacted = True
        if record.name == "uvicorn.access" and isinstance(record.args, tuple):  # its formatter reads args
            record.args = tuple(_plain(a) for a in record.args)
        else:
            try:
                message = record.getMessage()
            except (TypeError, ValueError):  # a broken format: keep its parts, without the cards
                message = f"{record.msg} {record.args}"
            record.msg, record.args = redact(message), ()
        if record.exc_info:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
            record.exc_info = None
        if record.exc_text:
            record.exc_text = redact(record.exc_text)
        if record.stack_info:
            record.stack_info = redact(record.stack_info)
        return True


def install() -> None:
    """Put a :class:`Redact` filter on the server's loggers, the handlers of the root and uvicorn loggers
    and Python's last-resort handler (again is harmless)."""
    targets: list[logging.Filterer] = []
    for name in LOGGERS:
        logger = logging.getLogger(name)
        targets.append(logger)
        targets += logger.handlers
    if logging.lastResort is not None:
        targets.append(logging.lastResort)
    for target in targets:
        if not any(isinstance(f, Redact) for f in target.filters):
            target.addFilter(Redact())
