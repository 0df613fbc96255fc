"""The app's style sheet (Textual CSS), kept in Python so it ships with the package."""

from __future__ import annotations

__all__ = ["APP_CSS"]

APP_CSS = """
Screen {
    layout: vertical;
    background: $background;
}
#main {
    height: 1fr;
}
#too-small {
    dock: top;
    height: auto;
    padding: 0 1;
    background: $warning;
    color: $background;
    text-style: bold;
}
#table {
    width: 64;
    min-width: 62;
    height: 100%;
    padding: 0 1;
    background: #0b3d1e;
}
#side {
    width: 1fr;
    min-width: 24;
    height: 100%;
    padding: 0 1;
    border-left: tall $primary 40%;
}
.-narrow #table {
    width: 56;
    min-width: 56;
}
.-narrow #trick-box {
    padding-left: 1;
}
.-narrow #talon-box {
    width: 21;
}
.-narrow #side {
    min-width: 20;
}
.caption {
    color: $text-muted;
    text-style: bold;
    height: 1;
    width: 100%;
}
#opponent-row {
    height: 3;
    margin-bottom: 1;
}
.mini-back {
    width: 4;
    height: 3;
    border: round $primary;
    background: $surface;
    margin-right: 1;
}
#opponent {
    width: 1fr;
    height: 3;
    padding: 0 1;
    content-align: left middle;
}
#middle {
    height: 7;
}
#talon-box {
    width: 22;
}
#talon-row {
    height: 5;
}
#trick-box {
    width: 1fr;
    padding-left: 4;
}
.seat-column {
    width: 11;
    height: 6;
}
.seat-label {
    height: 1;
    width: 9;
    content-align: center middle;
    color: $text-muted;
}
#hand {
    height: 5;
}
#hand-caption {
    margin-top: 1;
}
#hand CardWidget {
    margin-right: 1;
}
/* Six cards (Sixty-Six) are packed where a gap would not fit: no gap on a narrow screen, nor for German
   faces, a column wider ("Schellen"); on a narrow screen six German cards are a column narrower as well
   ("Schell."), so that each one keeps its whole frame. Five cards always keep their gaps. */
.-narrow #hand.six CardWidget, #hand.german.six CardWidget {
    margin-right: 0;
}
.-narrow #hand.german.six CardWidget {
    width: 9;
}
#talon {
    margin-right: 1;
}
#status {
    height: 3;
    margin-top: 1;
    color: $text;
}
#status.error {
    color: $error;
    text-style: bold;
}
#score {
    height: auto;
    margin-bottom: 1;
}
#points {
    height: auto;
    margin-bottom: 1;
}
#log {
    height: 1fr;
    border: round $primary 40%;
    border-title-color: $text-muted;
    scrollbar-size-vertical: 1;
}
ModalScreen {
    align: center middle;
    background: $background 60%;
}
.dialog {
    width: 90;
    max-width: 100%;
    height: auto;
    max-height: 100%;
    border: thick $primary;
    background: $surface;
    padding: 1 2;
}
.dialog .title {
    text-style: bold;
    width: 100%;
    content-align: center middle;
    margin-bottom: 1;
}
.dialog .hint {
    color: $text-muted;
    margin-top: 1;
}
.dialog ProgressBar {
    margin: 1 0;
}
.dialog LoadingIndicator {
    height: 3;
}
.dialog VerticalScroll {
    height: auto;
    max-height: 65vh;
}
.dialog .caption {
    margin-top: 1;
}
/* A dialog in three parts (a deal's summary, the end of the Bummerl): the head and the foot keep their
   places and the body between them scrolls, so a small window never pushes the foot (the score sheet with
   the score now, the review) out of sight. */
.dialog .head {
    dock: top;
    height: auto;
}
.dialog .foot {
    dock: bottom;
    height: auto;
}
.dialog VerticalScroll.body {
    max-height: 100%;
}
/* Rows, not vh: with a height in vh the foot was as tall as the whole sheet, over the body (a review). */
.dialog .foot VerticalScroll {
    height: auto;
    max-height: 7;
}
.-tall .dialog .foot VerticalScroll {
    max-height: 14;
}
#confirm {
    width: 64;
}
.dialog DataTable {
    height: auto;
    max-height: 16;
}
"""
