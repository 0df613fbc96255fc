"""The web game: ``bummerl serve`` (Starlette on uvicorn, a WebSocket per seat, the computer thinking in
worker processes, every game in the game store). See :mod:`bummerl.server.app` and the README's "Web
protocol" section."""

from bummerl.server.app import create_app

__all__ = ["create_app"]
