"""The terminal game against its surroundings: a record that cannot be written (the games directory
removed, the disk full), an output without the suit symbols, a dumb terminal: one clear message or a
plain rendering, never a traceback."""

from __future__ import annotations

import io
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from rich.text import Text

from belot.tui.session import Game, new_setup, resume_setup
from belot.tui.text import Words


def test_a_game_that_cannot_be_saved_stops_with_a_message_not_a_traceback(tmp_path: Path) -> None:
    games = tmp_path / "games"
    setup = new_setup(7, 151, ["me", "bot:random", "bot:random", "bot:random"], str(games))

    def read(prompt: Text) -> str:
        shutil.rmtree(games)  # someone cleans up the data directory while the game waits for the person
        return "1"

    out = io.StringIO()
    code = Game(setup, Words("en"), Console(file=out, width=100), 0, read).run()
    assert code == 2  # as for the file of a new game: every command's status for a file it cannot use
    text = out.getvalue()
    assert f"belot play: cannot save the game in {setup.path}: No such file or directory" in text
    assert not games.exists()


def _play(tmp: Path, stdin: str, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    environ = dict(os.environ, BELOT_DATA_DIR=str(tmp), COLUMNS="80", **env)
    bots = [] if "--resume" in args else ["--partner", "random", "--opponents", "random"]
    argv = [sys.executable, "-m", "belot", "play", "--pause", "0", *bots, *args]
    return subprocess.run(argv, input=stdin.encode(), capture_output=True, env=environ, timeout=60, check=False)  # type: ignore[return-value]


@pytest.mark.parametrize("encoding", ["ascii", "latin-1", "cp1252"])
def test_a_terminal_without_the_suit_symbols_shows_cards_as_they_are_typed(tmp_path: Path, encoding: str) -> None:
    """An output that cannot encode ♣♦♥♠ (LC_ALL=C without UTF-8 coercion, output redirected to a
    file on Windows): cards are shown as their record letters (``QH``, the way they are typed), the
    rest of the text degrades to plain letters, and the game is playable, not a UnicodeEncodeError."""
    out = _play(tmp_path, "1\nquit\n", "--seed", "7", "--lang", "en", PYTHONIOENCODING=encoding)
    assert out.returncode == 0, out.stderr.decode(errors="replace")[-2000:]
    assert b"Traceback" not in out.stderr
    screen = out.stdout.decode(encoding)
    hand = next(line for line in screen.splitlines() if line.startswith("Your hand:"))
    assert re.fullmatch(r"Your hand:( +(\d:)?(10|[789JQKA])[CDHS])+ *", hand), hand
    assert "belot play --resume" in screen


def _spawn_play(tmp: Path, dimensions: tuple[int, int], **env: str) -> tuple[Any, io.StringIO]:
    """`belot play` (seed 7, English, random bots) in a pseudo-terminal of ``dimensions`` (rows,
    columns), measured as a real one is (no COLUMNS or LINES), with ``env`` added; and what it shows."""
    import pexpect

    full = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    full.update(BELOT_DATA_DIR=str(tmp), **env)
    argv = ["-m", "belot", "play", "--pause", "0", "--seed", "7", "--lang", "en",
            "--partner", "random", "--opponents", "random"]
    child = pexpect.spawn(sys.executable, argv, env=full, encoding="utf-8", dimensions=dimensions, timeout=30)
    out = io.StringIO()
    child.logfile_read = out
    return child, out


def test_a_dumb_terminal_of_40_columns_gets_a_table_40_columns_wide(tmp_path: Path) -> None:
    """TERM=dumb (Emacs' M-x shell, some IDE consoles) is measured like any terminal: Rich alone takes
    it to be 80 columns wide, and an 80-column table in a 40-column window wraps into garbage."""
    pexpect = pytest.importorskip("pexpect")
    child, out = _spawn_play(tmp_path, (30, 40), TERM="dumb")
    child.expect_exact("Your call > ")
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    table = [line for line in out.getvalue().splitlines() if line[:1] in ("╭", "│", "╰")]
    assert len(table) >= 8 and all(len(line) == 40 for line in table), table


@pytest.mark.parametrize("content, reason", [
    (b"", "the record is not valid JSON"),
    (b'{"format": "belot-record/1", "deals": [', "the record is not valid JSON"),
    (b"\xff\xfe{}", "the record is not UTF-8 text"),
    ('{"format": "belot-record/1"}'.encode("utf-16-le"), "the record is not UTF-8 text (it holds NUL bytes: UTF-16?)"),
    (b"[]", "the record must be a JSON object"),
    (None, "not a regular file"),
])
def test_a_bad_resume_file_is_named_once_in_a_one_line_error(tmp_path: Path, content: bytes | None, reason: str) -> None:
    path = tmp_path / "game.json"
    if content is None:
        path.mkdir()
    else:
        path.write_bytes(content)
    out = _play(tmp_path, "", "--resume", str(path))
    err = out.stderr.decode()
    assert out.returncode == 2 and out.stdout == b""
    assert err.count("\n") == 1 and err.count(str(path)) == 1 and reason in err, err
    assert content is None or path.read_bytes() == content


def _long_auction_view_of_the_fourth_hand():  # type: ignore[no-untyped-def]
    """Seat 3's turn to play the last card of trick 1, after an auction of eleven calls."""
    import random

    from belot.auction import CALL_NAMES
    from belot.game import BELOTE_BASE, CALL_BASE, Match

    m = Match(players=["bot:random", "bot:random", "bot:random", "me"])
    m.first_dealer = 3
    cards = list(range(32))
    random.Random(1).shuffle(cards)
    m.deal([cards[i * 8 : i * 8 + 8] for i in range(4)], 3)
    for call in ["C", "D", "H", "S", "NT", "AT", "kontra", "rekontra", "pass", "pass", "pass"]:
        m.apply(CALL_BASE + CALL_NAMES.index(call))
    for _ in range(3):
        m.apply(min(a for a in m.view(m.current_player).legal_actions if a < BELOTE_BASE))
    return m


@pytest.mark.parametrize("lang", ["en", "tr", "bg"])
def test_the_table_fits_a_40_by_20_terminal_in_the_play(tmp_path: Path, lang: str) -> None:
    """At 40 columns and 20 rows the table, the contract, the score and the hand fit above the prompt,
    so the partner's card at the top of the table stays on screen: the auction's line (the contract line
    keeps the contract, its bidder and the kontra) is left out when it would push the table off."""
    from belot.game import PLAY
    from belot.tui.session import Quit, Setup

    m = _long_auction_view_of_the_fourth_hand()
    view = m.view(3)
    assert view.phase == PLAY and len(view.trick) == 3
    words = Words(lang)
    for height, auction_shown in ((20, False), (60, True)):
        out = io.StringIO()
        game = Game(Setup(m, str(tmp_path / "g.json"), human=3), words, Console(file=out, width=40, height=height),
                    0, lambda prompt: "quit")
        with pytest.raises(Quit):
            game.human_turn(view)
        lines = out.getvalue().splitlines()
        assert (words.t("term.auction") + ":" in out.getvalue()) == auction_shown
        assert len(lines) <= height - 1 or auction_shown, lines  # the prompt takes the last row
        assert lines[0].startswith("╭") and lines[0].endswith("╮")


@pytest.mark.parametrize("args", [["--resume", "no\nbelot play: forged"], ["--partner", "x\ny"],
                                  ["--option", "OPT\n"], ["--resume", "g.json", "x\ny"]])
def test_a_newline_in_an_argument_is_quoted_escaped_in_a_one_line_error(tmp_path: Path, args: list[str]) -> None:
    """A value with a newline cannot break the error in two, nor forge a second line of its own."""
    out = _play(tmp_path, "", *args)
    err = out.stderr.decode()
    assert out.returncode == 2 and "\\n" in err and "Traceback" not in err
    last = err.rstrip("\n").rpartition("\n")[2]  # argparse's usage comes before its one error line
    assert last.startswith(("belot play: ", "belot: error: ")) and "forged" not in err.replace(last, ""), err


@pytest.mark.parametrize("args, message", [
    (["--resume", ""], "belot play: --resume: the file name is empty"),
    (["--partner", ""], "belot play: --partner: unknown bot ''"),
    (["--opponents", ""], "belot play: --opponents: unknown bot ''"),
])
def test_an_empty_value_is_refused_not_taken_for_the_default(tmp_path: Path, args: list[str], message: str) -> None:
    """``--resume ''`` started a new game (and saved it), ``--partner ''`` played the default bot."""
    out = _play(tmp_path, "quit\n", *args)
    err = out.stderr.decode()
    assert out.returncode == 2 and err.startswith(message) and err.count("\n") == 1, err
    assert list(tmp_path.iterdir()) == []


def test_a_seed_of_any_size_gets_a_game_file(tmp_path: Path) -> None:
    """The seed takes any whole number; one of 300 digits made a file name too long to save."""
    out = _play(tmp_path, "quit\n", "--seed", "9" * 300)
    assert out.returncode == 0, out.stderr.decode()[-500:]
    (saved,) = (tmp_path / "games").iterdir()
    assert saved.name.endswith("-seed" + "9" * 24 + ".json")


def test_a_game_resumed_twice_never_overwrites_the_others_moves(tmp_path: Path) -> None:
    """Two `belot play --resume FILE` of one game: each save replaced the file with its own game, so
    the second player's first card threw away three tricks of the first's. A save now refuses a file
    changed since this game last read or wrote it; that game stops (exit 2), the file keeps the moves."""
    games = tmp_path / "games"
    path = new_setup(7, 151, ["me", "bot:random", "bot:random", "bot:random"], str(games)).path
    first, second = resume_setup(path), resume_setup(path)
    a = Game(first, Words("en"), Console(file=io.StringIO(), width=100), 0, lambda prompt: "quit")
    a.apply([first.match.legal_actions()[0]])  # the first one plays on and saves
    saved = Path(path).read_bytes()
    out = io.StringIO()
    b = Game(second, Words("en"), Console(file=out, width=100), 0, lambda prompt: "1")
    assert b.run() == 2
    assert "was changed by another program" in out.getvalue() and "Traceback" not in out.getvalue()
    assert Path(path).read_bytes() == saved  # the first game's move is there, the second's is not
    a.apply([a.match.legal_actions()[0]])  # the first game goes on saving: the file is as it left it
    assert len(resume_setup(path).match.deals[0].actions) == 2


def test_games_started_at_once_get_a_file_each(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Six `belot play --seed 42` started in one second: two got one file (checked, then written)."""
    from concurrent.futures import ThreadPoolExecutor

    monkeypatch.setattr("time.strftime", lambda fmt: "20261207-061740")
    with ThreadPoolExecutor(8) as pool:
        paths = list(pool.map(lambda _: new_setup(42, 151, ["me"] + ["bot:random"] * 3, str(tmp_path)).path,
                              range(16)))
    assert len(set(paths)) == 16 and len(list(tmp_path.iterdir())) == 16


@pytest.mark.parametrize("source", ["-", "fifo"])
def test_a_game_is_resumed_only_from_a_regular_file(tmp_path: Path, source: str) -> None:
    """`--resume -` read the game from stdin, then saved it to a file named "-" and told to resume that;
    a FIFO made `--resume` wait forever."""
    if source == "fifo":
        source = str(tmp_path / "fifo.json")
        os.mkfifo(source)
    out = _play(tmp_path, "", "--resume", source)
    err = out.stderr.decode()
    assert out.returncode == 2 and ("standard input" in err or "not a regular file" in err), err
    assert not (Path.cwd() / "-").exists()


def test_a_path_with_control_characters_is_printed_escaped(tmp_path: Path) -> None:
    """The data directory's name reached the terminal raw: an escape sequence in it coloured the rest."""
    weird = tmp_path / "we\x1b[31mird"
    out = _play(weird, "quit\n")
    assert out.returncode == 0, out.stderr.decode()
    text = out.stdout.decode()
    assert "\x1b[31m" not in text and "we\\x1b[31mird" in text


def test_the_help_offers_only_the_house_rules_it_takes() -> None:
    out = subprocess.run([sys.executable, "-m", "belot", "play", "--help"], capture_output=True, text=True,
                         env=dict(os.environ, COLUMNS="400"), check=True)
    assert "OPT-SURCONTRA" in out.stdout and "OPT-LATE-DECLARE" not in out.stdout


@pytest.mark.parametrize("lang", ["en", "tr", "bg"])
def test_the_declarations_offered_leave_the_table_on_a_40_by_20_screen(tmp_path: Path, lang: str) -> None:
    """R7.5: at trick 1 the declarations offered (a line each) and their prompt come below the table; the
    height check counted only the table, so they pushed the partner's row off the screen. 40x24 holds
    it all once the auction's lines are left out (40x20 does not: docs/terminal.md says so)."""
    from belot.auction import CALL_NAMES
    from belot.cards import parse_card
    from belot.game import CALL_BASE, Match
    from belot.tui.session import Quit, Setup

    mine = [parse_card(c) for c in ["KC", "KD", "QD", "JD", "TD", "9D", "KH", "KS"]]  # a carré of kings, a quint 9-K
    rest = [c for c in range(32) if c not in mine]
    m = Match(players=["me", "bot:random", "bot:random", "bot:random"])
    m.first_dealer = 3
    m.deal([mine, rest[0:8], rest[8:16], rest[16:24]], 3)  # seat 0 calls first and leads (R2.3, R5.1)
    for call in ["C", "D", "H", "S", "NT", "AT", "kontra", "rekontra", "pass", "pass", "pass"]:
        m.apply(CALL_BASE + CALL_NAMES.index(call))
    words = Words(lang)
    out = io.StringIO()
    console = Console(file=out, width=40, height=24)
    prompts: list[int] = []

    def read(prompt: Text) -> str:
        prompts.append(len(console.render_lines(prompt, pad=False)))
        return "quit"

    game = Game(Setup(m, str(tmp_path / "g.json"), human=0), words, console, 0, read)
    with pytest.raises(Quit):
        game.human_turn(m.view(0))
    lines = out.getvalue().splitlines()
    assert words.t("tui.declare_offer") in out.getvalue() and words.t("term.auction") + ":" not in out.getvalue()
    assert len(lines) + prompts[0] <= 24, lines  # the prompt takes the last rows
    assert lines[0].startswith("╭") and lines[0].endswith("╮")


@pytest.mark.parametrize("term", ["xterm", "dumb"])
def test_a_terminal_under_40_columns_is_told_so_and_the_table_waits_for_a_wider_one(tmp_path: Path, term: str) -> None:
    """The table's box, the summary and the score sheet are laid out for 40 columns and more; at 30
    they wrapped into broken borders and cut names ("bot:rand…", "Sou…"). The game says how wide the
    terminal is and what it needs, and draws the table only once the window is widened (Enter measures
    again; quit saves and stops)."""
    pexpect = pytest.importorskip("pexpect")
    child, out = _spawn_play(tmp_path, (30, 30), TERM=term, NO_COLOR="1")
    child.expect_exact("Widen")
    child.expect_exact(" > ")
    child.sendline("")  # still 30 columns: told again
    child.expect_exact("Widen")
    child.expect_exact(" > ")
    narrow = re.sub(r"\x1b\[[0-9;]*m", "", out.getvalue())
    told = "The terminal is 30 columns wide; belot play needs at least 40."
    assert " ".join(narrow.split()).count(told) == 2, narrow
    assert "╭" not in narrow and "│" not in narrow, narrow  # no table drawn at 30 columns
    assert all(len(line) <= 30 for line in narrow.splitlines() if str(tmp_path) not in line), narrow
    child.setwinsize(30, 60)
    child.sendline("")
    child.expect_exact("Your call > ")
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    wide = re.sub(r"\x1b\[[0-9;]*m", "", out.getvalue())[len(narrow):]
    table = [line for line in wide.splitlines() if line[:1] in ("╭", "│", "╰")]
    assert len(table) >= 8 and all(len(line) == 60 for line in table), table


def test_the_summary_too_waits_for_a_terminal_of_40_columns(tmp_path: Path) -> None:
    """A game resumed at "next deal" shows the deal's summary (a box and the score sheet) first: in a
    30-column terminal it is told so and waits, as the table does, then drawn at the new width."""
    import random

    from belot.game import CHANCE, Match
    from belot.tui.session import Setup

    m = Match(players=["me", "bot:random", "bot:random", "bot:random"])
    rng = random.Random(3)
    cards = list(range(32))
    rng.shuffle(cards)
    m.first_dealer = 3
    m.deal([cards[i * 8: i * 8 + 8] for i in range(4)], 3)
    while not m.deals[-1].is_over:
        m.apply(rng.choice(m.view(m.current_player).legal_actions))
    assert not m.is_over and m.current_player == CHANCE
    out = io.StringIO()
    console = Console(file=out, width=30, force_terminal=True, color_system=None)
    prompts: list[str] = []

    def read(prompt: Text) -> str:
        prompts.append(prompt.plain)
        if len(prompts) == 2:
            console.width = 60  # the window widened while the second question waits
        return "quit" if len(prompts) == 3 else ""

    assert Game(Setup(m, str(tmp_path / "g.json"), human=0), Words("en"), console, 0, read).run() == 0
    assert [p.split(",")[0] for p in prompts] == ["Widen it", "Widen it", "Press Enter for the next deal > "]
    text = out.getvalue()
    narrow, _, wide = text.partition("╭")
    assert " ".join(narrow.split()).count("The terminal is 30 columns wide; belot play needs at least 40.") == 2
    box = [line for line in ("╭" + wide).splitlines() if line[:1] in ("╭", "│", "╰")]
    assert len(box) >= 10 and all(len(line) == 60 for line in box), box
