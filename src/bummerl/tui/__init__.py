"""The terminal front end: a full-screen Textual game of a whole Bummerl against the computer.

Import :class:`bummerl.tui.app.BummerlApp` (Textual is imported only then); the game logic it drives is
:class:`bummerl.session.PlaySession` over :class:`bummerl.table.Table`.
"""
