"""The errors of the web server's own requests that answer with an HTTP status of their own: a route chooses
the status by the error's type, never by its words.

>>> from bummerl.errors import BummerlError
>>> issubclass(NotFound, BummerlError) and issubclass(Forbidden, BummerlError)
True
"""

from __future__ import annotations

from bummerl.errors import BummerlError

__all__ = ["Forbidden", "NotFound"]


class NotFound(BummerlError):
    """There is no such thing (an invitation, a game): HTTP 404."""


class Forbidden(BummerlError):
    """It exists, but this player may not do that to it (another player's invitation): HTTP 403."""
