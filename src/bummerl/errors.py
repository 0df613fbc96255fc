"""The one base of every error a user can cause (a bad card, record, rule, position, file or option).

Front ends catch exactly :class:`BummerlError` and show its message on one line; anything else is a bug
and keeps its traceback. It is a :class:`ValueError`, so older ``except ValueError`` code still works.

>>> from bummerl import Card
>>> try:
...     Card.parse("XH")
... except BummerlError as err:
...     print(type(err).__name__, isinstance(err, ValueError))
CardParseError True
"""

from __future__ import annotations

__all__ = ["BummerlError", "install_hint", "quote", "require_at_least"]

#: The most characters of a bad value an error message quotes.
QUOTE_LIMIT = 80


class BummerlError(ValueError):
    """An error a user can cause; its message is one clear line."""


def quote(value: object, limit: int = QUOTE_LIMIT) -> str:
    """The ``repr`` of a bad value for an error message, cut to at most ``limit`` characters.

    >>> print(quote("QX"), quote("x" * 200)[-6:], len(quote(list(range(1000)))))
    'QX' xx...' 80
    """
    try:
        text = repr(value)
    except ValueError:  # an integer of more than 4,300 digits has no repr
        return "an integer far too large"
    if len(text) <= limit:
        return text
    end = text[0] if text[0] in "'\"" and isinstance(value, str) else ""
    return text[: limit - 3 - len(end)] + "..." + end


def require_at_least(name: str, value: float, low: float) -> None:
    """Refuse a bot's (or any) numeric option below ``low``, in one line.

    >>> require_at_least("samples", 0, 1)
    Traceback (most recent call last):
    ...
    bummerl.errors.BummerlError: samples must be at least 1, not 0
    """
    if not value >= low:
        raise BummerlError(f"{name} must be at least {low:g}, not {value:g}")


def install_hint(extra: str) -> str:
    """How to install an extra, as this bummerl was installed: from a checkout (``pip install -e .``) the
    package index's ``bummerl[extra]`` would be another copy, so the checkout's command comes first.

    >>> install_hint("rl") in ("pip install 'bummerl[rl]'", "pip install -e '.[rl]' in the checkout")
    True
    """
    from pathlib import Path

    checkout = Path(__file__).resolve().parents[2]
    if (checkout / "pyproject.toml").is_file() and (checkout / "src" / "bummerl").is_dir():
        return f"pip install -e '.[{extra}]' in the checkout"
    return f"pip install 'bummerl[{extra}]'"
