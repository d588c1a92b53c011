"""Hostile input at the terminal game's prompts: whatever a person types or pastes (a superscript
digit from an AltGr key, a number of thousands of digits, control characters, escape sequences),
every prompt answers with a message and asks again, or takes a legal action; it never crashes."""

from __future__ import annotations

import io
import random
from pathlib import Path

from hypothesis import example, given, settings
from hypothesis import strategies as st
from rich.console import Console
from rich.text import Text
from test_tui import ScriptedGame  # bots that pass and play their first legal card

from belot.cards import parse_card
from belot.game import Match
from belot.tui.session import Setup
from belot.tui.text import Words

HUMAN_HAND = "KC KD QD JD TD 9D KH KS"  # carré of kings, quint 9-K of diamonds, belote in diamonds


def _setup(tmp: Path) -> Setup:
    mine = [parse_card(c) for c in HUMAN_HAND.split()]
    rest = [c for c in range(32) if c not in mine]
    random.Random(0).shuffle(rest)
    m = Match(players=["me", "bot:random", "bot:random", "bot:random"])
    m.first_dealer = 3
    m.deal([mine, rest[0:8], rest[8:16], rest[16:24]], 3)  # seat 0 calls first and leads
    return Setup(m, str(tmp / "game.json"), human=0)


def _game(tmp: Path, answers: list[str], out: io.StringIO) -> ScriptedGame:
    """A game whose person gives ``answers`` in turn, then ``quit`` at every prompt."""
    pending = list(answers)
    reads = [0]

    def read(prompt: Text) -> str:
        reads[0] += 1
        assert reads[0] < 20, "the prompt keeps asking"
        return pending.pop(0) if pending else "quit"

    return ScriptedGame(_setup(tmp), Words("en"), Console(file=out, width=80), 0, read)


HOSTILE = st.text(max_size=30) | st.sampled_from(["²", "¹0", "٣", "0" * 20 + "1", "9" * 5000, "\x1b[2J"])


@settings(max_examples=150, deadline=None)
@given(text=HOSTILE, where=st.sampled_from(["call", "declare", "card", "belote"]))
@example(text="²", where="call").via("AltGr+2 on a Turkish or Bulgarian keyboard")
@example(text="²", where="card").via("a superscript is a digit to str.isdigit, not to int")
@example(text="²", where="declare").via("the declaration prompt reads numbers too")
@example(text="9" * 5000, where="card").via("int() refuses more than 4,300 digits")
def test_any_text_at_any_prompt_is_answered_not_a_crash(tmp_path_factory, text: str, where: str) -> None:  # type: ignore[no-untyped-def]
    before = {"call": [], "declare": ["D"], "card": ["D", "0"], "belote": ["D", "0", "KD"]}[where]
    out = io.StringIO()
    game = _game(tmp_path_factory.mktemp("g"), [*before, text], out)
    assert game.run() == 0  # quit at a later prompt, or this text was a command, a call or a card


def test_quit_help_and_last_work_at_the_belote_prompt(tmp_path: Path) -> None:
    """``quit`` saves and stops at every prompt, the belote question included (docs/terminal.md)."""
    out = io.StringIO()
    game = _game(tmp_path, ["D", "0", "KD", "help", "last", "quit"], out)
    assert game.run() == 0
    text = out.getvalue()
    assert "Commands: last" in text and "No trick has been played yet." in text
    assert "Please answer y or n." not in text and "belot play --resume" in text


def test_an_error_quotes_at_most_40_characters_of_the_text_and_no_control_characters(tmp_path: Path) -> None:
    """A pasted escape sequence is not sent back to the terminal (``ESC[2J`` would clear it, ``ESC]52``
    write the clipboard), and a pasted page is quoted as one short line, as the record errors quote."""
    out = io.StringIO()
    pasted = "\x1b[2J\x1b]52;c;aGk=\x07" + "x" * 100_000
    game = _game(tmp_path, [pasted, "D", "0", "\x1b[31mred\x9b"], out)
    assert game.run() == 0
    text = out.getvalue()
    assert "\x1b" not in text and "\x07" not in text and "\x9b" not in text
    call_error = next(line for line in text.splitlines() if "is not a call" in line)
    assert call_error.startswith('"\\x1b[2J\\x1b]52;c;aGk=\\x07xxx') and len(call_error) < 120
    assert '"\\x1b[31mred\\x9b" is not a card' in text


def test_messages_wrap_between_words_in_a_narrow_terminal(tmp_path: Path) -> None:
    """At 40 columns a message is wrapped between words ("hearts" is not cut into "heart" / "s"); only
    a line holding the record's path or the command to copy is left to the terminal to fold, so that
    no newline is written into them."""
    out = io.StringIO()
    game = _game(tmp_path, ["help", "xyz"], out)
    game.console = Console(file=out, width=40)
    assert game.run() == 0
    for line in out.getvalue().splitlines():
        assert len(line) <= 40 or game.path in line, line
