"""Bots: the :class:`Bot` protocol and the registry of every bot by name.

Importing this package is cheap: built-in bots are imported only when :func:`make_bot` makes one.

>>> from bummerl.bots import make_bot, bot_names
>>> make_bot("random", seed=1).name in bot_names()
True
"""

from bummerl.bots.base import Bot
from bummerl.bots.registry import (
    CMD_PREFIX,
    BotFactory,
    UnknownBotError,
    bot_names,
    describe_bots,
    make_bot,
    register,
    unregister,
)

__all__ = ["CMD_PREFIX", "Bot", "BotFactory", "UnknownBotError", "bot_names", "describe_bots", "make_bot",
           "register", "unregister"]
