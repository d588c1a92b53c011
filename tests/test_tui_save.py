"""The terminal game when its record cannot be written (the games directory removed, the disk full,
a read-only mount): one clear message naming the file and the reason, exit status 1, no traceback."""

from __future__ import annotations

import io
import shutil
from pathlib import Path

from rich.console import Console
from rich.text import Text

from belot.tui.session import Game, new_setup
from belot.tui.text import Words


def test_a_game_that_cannot_be_saved_stops_with_a_message_not_a_traceback(tmp_path: Path) -> None:
    games = tmp_path / "games"
    setup = new_setup(7, 151, ["me", "bot:random", "bot:random", "bot:random"], str(games))

    def read(prompt: Text) -> str:
        shutil.rmtree(games)  # someone cleans up the data directory while the game waits for the person
        return "1"

    out = io.StringIO()
    code = Game(setup, Words("en"), Console(file=out, width=100), 0, read).run()
    assert code == 1
    text = out.getvalue()
    assert f"belot play: cannot save the game in {setup.path}: No such file or directory" in text
    assert not games.exists()
