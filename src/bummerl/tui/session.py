"""The play session moved to :mod:`bummerl.session` (front-end neutral: the web server uses it too); this
module re-exports it for the terminal game."""

from bummerl.session import COMPUTER, HUMAN, LEVELS, PlaySession, computer_bot

__all__ = ["COMPUTER", "HUMAN", "LEVELS", "PlaySession", "computer_bot"]
