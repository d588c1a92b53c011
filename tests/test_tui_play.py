"""Acceptance tests of ``belot play``: the real program driven in a pseudo-terminal with pexpect.

The scripted player always takes the first legal option (the first call listed, the first card
numbered, the default declarations and belote), with ``--pause 0`` and the fast ``random`` bots.
"""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

pexpect = pytest.importorskip("pexpect")

from belot.i18n import t
from belot.record import load

PROMPTS = (
    "tui.prompt.call", "tui.prompt.card", "tui.prompt.declare", "tui.prompt.declare_more",
    "tui.prompt.belote", "tui.prompt.continue", "tui.prompt.again",
)
FIRST_OPTION = {
    "tui.prompt.call": "1", "tui.prompt.card": "1", "tui.prompt.declare": "",
    "tui.prompt.declare_more": "", "tui.prompt.belote": "", "tui.prompt.continue": "",
    "tui.prompt.again": "n",
}


def _prompt_pattern(key: str, lang: str) -> str:
    raw = t(key, lang)  # unformatted: fields such as {best} stay as they are
    return re.sub(r"\\\{\w+\\\}", ".*?", re.escape(raw)) + " > "


class Player:
    """The program in a pseudo-terminal, and a transcript of everything it printed."""

    def __init__(self, tmp: Path, *args: str, lang: str = "en", locale: str | None = None) -> None:
        env = dict(os.environ, BELOT_DATA_DIR=str(tmp), TERM="dumb", NO_COLOR="1", COLUMNS="100")
        self.lang = lang
        self.out = io.StringIO()
        bots = [] if "--resume" in args else ["--partner", "random", "--opponents", "random"]
        language = ["--lang", lang]
        if locale is not None:  # no --lang: the language comes from the locale
            env.update(LANGUAGE="", LC_ALL="", LC_MESSAGES="", LANG=locale)
            language = []
        argv = ["-m", "belot", "play", "--pause", "0", *language, *bots, *args]
        self.child = pexpect.spawn(sys.executable, argv, env=env, encoding="utf-8",
                                   dimensions=(60, 100), timeout=30)
        self.child.logfile_read = self.out
        self.keys = list(PROMPTS)
        self.patterns = [_prompt_pattern(k, lang) for k in self.keys] + [pexpect.EOF]

    def next_prompt(self) -> str | None:
        """Wait for the next prompt; its key, or None at the end of the program."""
        i = self.child.expect(self.patterns)
        return None if i == len(self.keys) else self.keys[i]

    def play(self, stop: str | None = None, count: int = 1, limit: int = 5000) -> list[str]:
        """Answer every prompt with the first option until ``stop`` is seen ``count`` times (or the end)."""
        seen: list[str] = []
        for _ in range(limit):
            key = self.next_prompt()
            if key is None:
                return seen
            seen.append(key)
            if key == stop and seen.count(stop) == count:
                return seen
            self.child.sendline(FIRST_OPTION[key])
        raise AssertionError("the game did not end")

    def finish(self) -> int:
        self.child.expect(pexpect.EOF)
        self.child.close()
        return self.child.exitstatus if self.child.exitstatus is not None else -self.child.signalstatus

    @property
    def text(self) -> str:
        return self.out.getvalue()

    def saved_path(self) -> Path:
        raw = t("tui.saved_at", self.lang)
        head = raw.split("{path}")[0]
        m = re.search(re.escape(head) + r"(\S+\.json)", self.text)
        assert m, self.text[-2000:]
        return Path(m.group(1))


def _replay_json(path: Path) -> dict:
    out = subprocess.run([sys.executable, "-m", "belot", "replay", "--json", str(path)],
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def test_whole_match_to_151_is_played_to_the_winner_and_replays(tmp_path: Path) -> None:
    p = Player(tmp_path, "--seed", "11")
    seen = p.play()
    assert p.finish() == 0
    text = p.text
    assert seen[-1] == "tui.prompt.again"
    m = re.search(r"(You win the match|They win the match), (\d+) to (\d+)", text)
    assert m, text[-3000:]
    winner_score, loser_score = int(m.group(2)), int(m.group(3))
    assert winner_score >= 151 and winner_score > loser_score
    # The record written as the game went replays to the same scores (R12).
    path = p.saved_path()
    doc = _replay_json(path)
    assert doc["winner"] is not None
    us = doc["score"][0]
    them = doc["score"][1]
    if m.group(1).startswith("You"):
        assert (us, them) == (winner_score, loser_score) and doc["winner"] == 0
    else:
        assert (them, us) == (winner_score, loser_score) and doc["winner"] == 1
    record = json.loads(path.read_text(encoding="utf-8"))
    assert record["players"][1:] == ["bot:random"] * 3 and record["target"] == 151
    # Every finished deal's summary was shown, with the score sheet.
    assert text.count("End of deal") == len(doc["deals"]) == seen.count("tui.prompt.continue") + 1
    assert "Score sheet (to 151)" in text and "Card points" in text


def test_wrong_input_gets_a_message_and_the_prompt_again(tmp_path: Path) -> None:
    p = Player(tmp_path, "--seed", "5", "--target", "31")
    assert p.next_prompt() in {"tui.prompt.call"}
    for bad, message in [("xyz", '"xyz" is not a call'), ("99", "Choose a number from 1 to")]:
        p.child.sendline(bad)
        p.child.expect_exact(message)
        assert p.next_prompt() == "tui.prompt.call"
    p.child.sendline("help")
    p.child.expect_exact("Commands: last")
    assert p.next_prompt() == "tui.prompt.call"
    p.child.sendline("1")
    key = p.play(stop="tui.prompt.card")[-1]
    assert key == "tui.prompt.card"
    for bad, message in [("ZZ", '"ZZ" is not a card'), ("42", "Choose a number from 1 to")]:
        p.child.sendline(bad)
        p.child.expect_exact(message)
        assert p.next_prompt() == "tui.prompt.card"
    p.child.sendline("last")
    assert p.next_prompt() == "tui.prompt.card"
    p.child.sendline("quit")
    assert p.finish() == 0
    assert "belot play --resume" in p.text


def test_turkish_screens_use_the_game_words(tmp_path: Path) -> None:
    p = Player(tmp_path, "--seed", "3", "--target", "31", lang="tr")
    p.play()
    assert p.finish() == 0
    text = p.text
    for word in ("Dağıtan", "Pas", "Kozsuz", "Hepsi koz", "Artırma", "Oyun", "Skor", "Kağıt puanı",
                 "Oyun puanı", "Sözünüz", "Oynayacağınız kağıt", "Maçı"):
        assert word in text, word
    assert any(w in text for w in ("Çıkarılmış", "İçeride", "Asılı", "Yeniden dağıtım"))


def test_bulgarian_screens_use_the_game_words(tmp_path: Path) -> None:
    p = Player(tmp_path, "--seed", "4", lang="bg")
    p.play(stop="tui.prompt.continue")
    p.child.sendline("изход")
    assert p.finish() == 0
    text = p.text
    for word in ("Раздава", "Пас", "Без коз", "Всичко коз", "Наддаване", "Вашата обява",
                 "Точки от карти", "Резултати", "Край на раздаване"):
        assert word in text, word


def test_the_language_comes_from_the_locale(tmp_path: Path) -> None:
    p = Player(tmp_path, "--seed", "4", lang="tr", locale="tr_TR.UTF-8")
    assert p.next_prompt() == "tui.prompt.call"  # the Turkish prompt
    p.child.sendline("çık")
    assert p.finish() == 0
    assert "Artırma" in p.text and "Oyun kaydedildi" in p.text


def _actions(deal: dict) -> list:
    return [*deal["auction"], *deal.get("play", [])]


def test_ctrl_c_mid_deal_then_resume_continues_the_same_game(tmp_path: Path) -> None:
    """Interrupting and resuming gives exactly the record of the uninterrupted game."""
    straight = Player(tmp_path / "a", "--seed", "21", "--target", "41")
    straight.play()
    assert straight.finish() == 0
    expected = json.loads(straight.saved_path().read_text(encoding="utf-8"))

    p = Player(tmp_path / "b", "--seed", "21", "--target", "41")
    p.play(stop="tui.prompt.card", count=3)  # the third card of the first deal: mid-deal
    p.child.sendintr()
    assert p.finish() == 130
    assert "Interrupted" in p.text
    path = p.saved_path()
    before = json.loads(path.read_text(encoding="utf-8"))
    assert len(before["deals"]) == 1 and 0 < len(before["deals"][0]["play"]) < 32
    load(str(path))  # a valid record of the game so far

    q = Player(tmp_path / "b", "--resume", str(path))
    # the third card prompt is shown again and answered like every prompt, once it shows: a line
    # typed ahead would answer it too, and each later answer would then go to the prompt after the
    # one it was chosen for
    assert q.play(stop="tui.prompt.card") == ["tui.prompt.card"]
    q.child.sendline(FIRST_OPTION["tui.prompt.card"])
    q.play()
    assert q.finish() == 0
    after = json.loads(path.read_text(encoding="utf-8"))
    first_before, first_after = before["deals"][0], after["deals"][0]
    assert first_after["hands"] == first_before["hands"]
    assert _actions(first_after)[: len(_actions(first_before))] == _actions(first_before)
    assert after == expected


def test_a_game_stopped_at_the_next_deal_prompt_shows_that_deals_summary_again(tmp_path: Path) -> None:
    """Stopped at "Press Enter for the next deal", a resumed game went straight to the next deal: the
    summary of the deal just played (and the coach's word on it) was never seen."""
    p = Player(tmp_path, "--seed", "21", "--target", "41")
    p.play(stop="tui.prompt.continue")
    p.child.sendintr()
    assert p.finish() == 130
    path = p.saved_path()
    q = Player(tmp_path, "--resume", str(path))
    assert q.next_prompt() == "tui.prompt.continue"
    assert "End of deal 1" in q.text and "Score sheet (to 41)" in q.text
    q.child.sendline("")
    q.play()
    assert q.finish() == 0
    assert load(str(path)).is_over


def test_a_bad_resume_file_gives_the_record_error_and_exit_2(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "belot-record/1", "deals": [{"dealer": 7, "hands": []}]}', encoding="utf-8")
    out = subprocess.run([sys.executable, "-m", "belot", "play", "--resume", str(bad)],
                         capture_output=True, text=True, env=dict(os.environ, BELOT_DATA_DIR=str(tmp_path)))
    assert out.returncode == 2
    assert out.stderr.strip() == f"belot play: {bad}: deal 0: dealer must be a seat 0-3, not 7"
    assert bad.read_text(encoding="utf-8").startswith('{"format"')  # left intact


@pytest.mark.parametrize("when", ["first game", "play again"])
def test_a_game_file_that_cannot_be_saved_is_exit_2_before_the_first_game_and_after_play_again(
        tmp_path: Path, when: str) -> None:
    """One failure, one status: the games directory unusable (here a file stands where it should be)
    stops ``belot play`` with 'cannot save the game in DIR' and exit 2, as every command stops for a
    file it cannot use, whether it happens before the first game or at 'play again'."""
    games = tmp_path / "games"
    if when == "first game":
        games.write_text("not a directory")
        p = Player(tmp_path, "--seed", "11")
    else:
        p = Player(tmp_path, "--seed", "11", "--target", "1")
        assert p.play(stop="tui.prompt.again")[-1] == "tui.prompt.again"
        for f in games.iterdir():
            f.unlink()
        games.rmdir()
        games.write_text("not a directory")
        p.child.sendline("y")
    assert p.finish() == 2
    assert f"belot play: cannot save the game in {games}: File exists" in p.text


def test_play_again_asks_again_on_other_answers_and_ctrl_c_there_is_130(tmp_path: Path) -> None:
    """Junk or "help" at "Play again? [y/N]" ended the program as a no; Ctrl-C there exited 0 and left
    the shell's prompt on the line of "^C"."""
    p = Player(tmp_path, "--seed", "5", "--target", "1")
    p.play(stop="tui.prompt.again")
    for answer in ("yy", "help", "7"):
        p.child.sendline(answer)
        assert p.next_prompt() == "tui.prompt.again", answer
    assert p.text.count(t("tui.err.yes_no", "en")) == 3
    p.child.sendintr()
    assert p.finish() == 130
    assert p.text.endswith("> ^C\r\n")  # the shell's prompt goes on a line of its own


def test_keys_typed_before_a_prompt_do_not_answer_it(tmp_path: Path) -> None:
    """"1", Enter, "1", Enter typed at once played card 1, then card 1 of the next trick before the
    player had seen it: what is typed before a prompt appears is dropped."""
    p = Player(tmp_path, "--seed", "5", "--target", "31")
    p.play(stop="tui.prompt.card")
    p.child.send("1\r1\r")  # the second answer is typed before the next prompt is shown
    assert p.next_prompt() in {"tui.prompt.card", "tui.prompt.belote", "tui.prompt.declare"}
    p.child.sendline("quit")
    assert p.finish() == 0
    match = load(str(p.saved_path()))
    assert len(match.view(0).hand) == 7  # one card played, not two


@pytest.mark.parametrize("stop", ["tui.prompt.call", "tui.prompt.card", "tui.prompt.continue"])
def test_ctrl_d_mid_game_says_it_is_saved_and_exits_1_not_as_a_finished_game(tmp_path: Path, stop: str) -> None:
    """Ctrl-D (the end of input) at a prompt ended the program with status 0, as if the match were
    over: it stops as Ctrl-C does, saying every action is saved and how to go on, with status 1 (a
    script that feeds the game its moves sees that they ran out before the match did)."""
    p = Player(tmp_path, "--seed", "21", "--target", "41")
    p.play(stop=stop, count=2 if stop == "tui.prompt.card" else 1)
    p.child.sendeof()
    assert p.finish() == 1
    after = p.text.rpartition(" > ")[2]
    assert t("tui.input_ended", "en") in after and "Every action so far is saved." in after
    assert f"belot play --resume {p.saved_path()} --lang en" in after
    q = Player(tmp_path, "--resume", str(p.saved_path()))
    assert q.next_prompt() == stop  # the same prompt, asked again
    q.child.sendline("quit")
    assert q.finish() == 0  # quit is the player's choice: status 0


def test_ctrl_d_at_play_again_after_the_match_is_a_no(tmp_path: Path) -> None:
    """The match is over and saved: the end of input there is "no", status 0."""
    p = Player(tmp_path, "--seed", "5", "--target", "1")
    p.play(stop="tui.prompt.again")
    p.child.sendeof()
    assert p.finish() == 0
    assert t("tui.input_ended", "en") not in p.text


def test_the_help_lists_the_exit_statuses() -> None:
    out = subprocess.run([sys.executable, "-m", "belot", "play", "--help"], capture_output=True, text=True,
                         env=dict(os.environ, COLUMNS="400"), check=True)
    assert "exit status: 0 when the match ended or you typed quit; 130 on Ctrl-C; 1 when the input ended (Ctrl-D)" in out.stdout


@pytest.mark.parametrize("lang", ["en", "tr"])
def test_a_number_not_in_the_digits_0_9_is_named_as_such_and_nothing_is_played(tmp_path: Path, lang: str) -> None:
    """``١`` (an Arabic-Indic 1), ``+1``, ``1_0``, ``²`` are numbers to int() or str.isdigit but not choices:
    they were answered '"١" is not a call' and '"+1" is not a card', as if no number had been typed;
    the message now says to type the number in the digits 0-9, and the prompt comes again."""
    p = Player(tmp_path, "--seed", "5", "--target", "31", lang=lang)
    said = t("tui.err.digits", lang).split("{text}")[1].split("{n}")[0]
    for stop in ("tui.prompt.call", "tui.prompt.card"):
        assert p.play(stop=stop)[-1] == stop
        before = p.text
        for bad in ("١", "+1", "1_0", "²"):
            p.child.sendline(bad)
            assert p.next_prompt() == stop, bad
        answers = p.text[len(before):]
        assert answers.count(said) == 4, answers
        p.child.sendline("1" if stop == "tui.prompt.call" else "quit")
    assert p.finish() == 0
    assert len(load(str(p.saved_path())).view(0).hand) == 8  # no card played
