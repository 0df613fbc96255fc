"""The real ``bummerl play`` program in a real terminal (tmux): start, play a card, quit, resume, stats."""

from __future__ import annotations

import os
import secrets
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from bummerl.store import GameStore

pytestmark = pytest.mark.skipif(
    shutil.which("tmux") is None, reason="tmux is not installed (apt-get install tmux): this test needs it"
)

BUMMERL = f"{sys.executable} -c 'from bummerl.cli import main; main()'"


class Terminal:
    """A tmux server of our own (its own socket), one window per program."""

    def __init__(self, home: Path) -> None:
        # A socket of this terminal's own: the server of the test before may still be exiting after its
        # kill-server, and a new session on its socket then failed ("server exited unexpectedly"), leaving
        # an empty screen (CI failed so once).
        self.socket = f"bummerl-test-{os.getpid()}-{secrets.token_hex(4)}"
        self.home = home

    def tmux(self, *args: str) -> str:
        # COLUMNS/LINES (pytest sets them) would pin the program's size instead of the window's.
        env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
        out = subprocess.run(["tmux", "-L", self.socket, *args], capture_output=True, text=True, timeout=20,
                             env=env)
        return out.stdout

    def start(self, name: str, command: str, size: tuple[int, int] = (110, 32)) -> None:
        # The shell lingers after the program so its last words stay readable (tmux may drop the final
        # output of a pane whose process has already exited); kill-server ends it.
        for _ in range(3):  # (a session that could not be made is said, not waited for in vain)
            self.tmux("new-session", "-d", "-s", name, "-x", str(size[0]), "-y", str(size[1]),
                      "-e", f"BUMMERL_HOME={self.home}", "-e", "TERM=xterm-256color", f"{command}; sleep 60")
            if name in self.tmux("list-sessions", "-F", "#{session_name}").split():
                return
            time.sleep(0.5)
        raise AssertionError(f"tmux could not start the session {name!r}")

    def screen(self, name: str) -> str:
        return self.tmux("capture-pane", "-t", name, "-p")

    def wait_for(self, name: str, *texts: str, timeout: float = 90.0) -> str:
        """The screen once every text is on it (the program may redraw a few times first)."""
        deadline = time.monotonic() + timeout
        screen = ""
        while time.monotonic() < deadline:
            screen = self.screen(name)
            if all(text in screen for text in texts):
                return screen
            time.sleep(0.2)
        raise AssertionError(f"{texts!r} never all appeared on the screen:\n{screen}")

    def keys(self, name: str, *keys: str) -> None:
        self.tmux("send-keys", "-t", name, *keys)

    def close(self) -> None:
        self.tmux("kill-server")


@pytest.fixture
def terminal(tmp_path: Path) -> Iterator[Terminal]:
    term = Terminal(tmp_path)
    try:
        yield term
    finally:
        term.close()


def test_play_a_card_quit_and_resume_in_a_real_terminal(terminal: Terminal, tmp_path: Path) -> None:
    terminal.start("game", f"{BUMMERL} play --seed 3 --dealer computer --delay 0 --level easy")
    # The table, the score, the log and the keys are on screen.
    terminal.wait_for("game", "Your lead", "Your hand", "Talon 10", "Bummerl: still needed",
                      "Deal 1: Computer deals.", "1-5 play", "s scores", "q quit")

    terminal.keys("game", "1")
    terminal.wait_for("game", "You play")
    terminal.keys("game", "q")
    terminal.wait_for("game", "Game saved", "bummerl play --resume")
    with GameStore.open(tmp_path) as store:
        assert len(list(store.games())) == 1

    terminal.start("again", f"{BUMMERL} play --resume --delay 0")
    terminal.wait_for("again", "You play", "Deal 1: Computer deals.")  # the log is rebuilt from the save
    terminal.keys("again", "q")
    terminal.wait_for("again", "Game saved")

    # A plain `bummerl play` starts a new game and says where the unfinished one is (a newcomer's audit:
    # six 7:7 games piled up, nothing on start-up mentioned them).
    terminal.start("new", f"{BUMMERL} play --delay 0 --level easy")  # (a line of its log)
    terminal.wait_for("new", "you have 1 unfinished game: bummerl play", "--resume continues the last one")
    terminal.keys("new", "q")
    terminal.wait_for("new", "Game saved")

    stats = subprocess.run([sys.executable, "-c", "from bummerl.cli import main; main()", "stats"],
                           capture_output=True, text=True, timeout=60,
                           env={**os.environ, "BUMMERL_HOME": str(tmp_path), "COLUMNS": "120"})
    assert stats.returncode == 0 and "easy" in stats.stdout and "0 / 0" in stats.stdout


def test_bad_options_fail_with_one_line_and_no_terminal_ui(tmp_path: Path) -> None:
    env = {**os.environ, "BUMMERL_HOME": str(tmp_path)}
    for args, message in (
        (["--level", "grandmaster"], "unknown level 'grandmaster'"),
        (["--rules", "poker"], "unknown rules preset 'poker'"),
        (["--rule", "false_claim=sometimes"], "false_claim cannot be 'sometimes'"),
        (["--rule", "nonsense"], "FLAG=VALUE"),
        (["--dealer", "nobody"], "--dealer must be me, computer or random"),
        (["--resume"], "no unfinished game to resume"),
    ):
        out = subprocess.run([sys.executable, "-c", "from bummerl.cli import main; main()", "play", *args],
                             capture_output=True, text=True, timeout=60, env=env, stdin=subprocess.DEVNULL)
        assert out.returncode == 2, (args, out.stderr)
        assert message in out.stderr and "Traceback" not in out.stderr
        assert len(out.stderr.strip().splitlines()) == 1


SMALL = (80, 24)
SIXTY_SIX_DECK = "AS TS KS 9D JD QD AC AH TH KH 9H JH QH 9C JC QC KC TC 9S JS QS TD KD AD"
SCRIPTED_DECK = "JH KH QH JC QC KC AH AS TS TC AC JD QD KD TD AD TH JS QS KS"


def table_part(screen: str) -> str:
    """The table: each screen line left of the side panel's border."""
    return "\n".join(line.split("▊")[0] for line in screen.splitlines())


def log_words(screen: str) -> str:
    """The event log panel's text, its wrapped lines joined (words only)."""
    rows = []
    for line in screen.splitlines():
        side = line.split("▊", 1)[1] if "▊" in line else ""
        if side.count("│") >= 2:
            rows.append(side[side.index("│") + 1:side.rindex("│")])
    return " ".join(" ".join(rows).split())


def test_german_sixty_six_at_80x24_key_0_the_trump_line_the_log_and_the_score_sheet(
    terminal: Terminal,
) -> None:
    terminal.start("small", f"{BUMMERL} play --dealer computer --delay 0 --level easy --rules sixty-six "
                            f"--cards german --deck '{SIXTY_SIX_DECK}'", size=SMALL)
    screen = terminal.wait_for("small", "1-5,0 play", "Talon 12", "Trump Eichel", "q quit")
    assert "g claim" not in screen  # Sixty-Six claims by itself: the footer does not offer it
    table = table_part(screen)
    assert "╮╭─ 0 ───╮" in table  # the sixth card, whole, inside the table, beside a whole fifth one
    assert "Sau" in table and "Herz" in table and "Laub" in table
    assert "Deal 1: Computer deals. Trump is Eichel (Eichel Sau face up)." in log_words(screen)
    terminal.keys("small", "0")  # the sixth card: Herz Sau
    deadline = time.monotonic() + 90
    while "You play Herz Sau" not in log_words(terminal.screen("small")):
        assert time.monotonic() < deadline, terminal.screen("small")
        time.sleep(0.2)
    terminal.keys("small", "s")
    terminal.wait_for("small", "Score sheet", "No deal is finished yet.")
    terminal.keys("small", "q")  # q from the score sheet quits the game
    terminal.wait_for("small", "Game saved")


def test_sharp_rules_at_80x24_the_log_forgets_a_trick_and_a_close_asks_first(terminal: Terminal) -> None:
    terminal.start("sharp", f"{BUMMERL} play --dealer computer --delay 0 --level easy --rules sharp "
                            f"--cards french --deck '{SCRIPTED_DECK}'", size=SMALL)
    terminal.wait_for("sharp", "Your lead", "Trump ♥")
    terminal.keys("sharp", "5")  # A♠: the computer has no spade and no heart
    screen = terminal.wait_for("sharp", "Last trick → You")
    assert "You play A♠" in log_words(screen) and "You take the trick" in log_words(screen)
    terminal.keys("sharp", "c")
    terminal.wait_for("sharp", "Close the talon?", "y or Enter: yes")
    terminal.keys("sharp", "n")
    terminal.wait_for("sharp", "No close: your move")
    terminal.keys("sharp", "4")  # 10♠ begins the next trick: the cards of the first are gone from the log
    deadline = time.monotonic() + 90
    while "You play 10♠" not in log_words(screen := terminal.screen("sharp")):
        assert time.monotonic() < deadline, screen
        time.sleep(0.2)
    assert "A♠" not in log_words(screen) and "You take the trick" in log_words(screen)
    terminal.keys("sharp", "q")
    terminal.wait_for("sharp", "Game saved")


def test_ctrl_c_saves_and_quits_like_q_and_a_resumes_note_shows_in_the_game(terminal: Terminal) -> None:
    # Ctrl+C showed Textual's "Do you want to quit? Press ctrl+q to quit the app"; the note that --resume
    # ignores --level went to standard error, where the full-screen game covered it at once.
    terminal.start("game", f"{BUMMERL} play --seed 3 --dealer computer --delay 0 --level easy", size=SMALL)
    terminal.wait_for("game", "Your lead", "q quit")
    terminal.keys("game", "7")
    terminal.wait_for("game", "7 plays no card: your cards are keys 1-5")
    terminal.keys("game", "C-c")
    screen = terminal.wait_for("game", "Game saved", "bummerl play --resume")
    assert "ctrl+q" not in screen

    terminal.start("again", f"{BUMMERL} play --resume --level hard --delay 0", size=SMALL)
    screen = terminal.wait_for("again", "Resumed game", "Your lead")  # a notification, for a few seconds
    toast = " ".join(line.split("▌", 1)[1].strip(" │╯") for line in screen.splitlines() if "▌" in line)
    assert "ignored: --level" in " ".join(toast.split()) and "level (easy)" in toast, screen
    terminal.keys("again", "C-c")
    screen = terminal.wait_for("again", "Game saved")
    assert "note: --resume keeps game" in screen  # standard error has it too
