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

__all__ = ["BummerlError", "quote"]

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
