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

__all__ = ["BummerlError"]


class BummerlError(ValueError):
    """An error a user can cause; its message is one clear line."""
