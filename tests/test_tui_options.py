"""The terminal game under house rules (docs/rules.md section 6): ``belot play --option NAME``
names the rules at the start (translated, with the id) and keeps them on ``--resume``; a
surkontra (OPT-SURCONTRA, R3.3) is offered, read and shown as such, and the x8 on the table."""

from __future__ import annotations

import io
import json
import random
import sys
from pathlib import Path

import pytest
from conftest import cards, make_hands
from rich.console import Console
from rich.text import Text

from belot.auction import BID_BASE, KONTRA, REKONTRA, SURKONTRA
from belot.contracts import AT, Rules, S
from belot.declarations import declaration_for_cards
from belot.game import CALL_BASE, DECLARE_BASE, Match
from belot.i18n import LANGUAGES, t
from belot.tui.render import Seating, auction_text, contract_text, render_table
from belot.tui.session import Game, Setup, next_hands
from belot.tui.text import Words

SURCONTRA = Rules.from_options(["OPT-SURCONTRA"])


def _match(dealer: int) -> Match:
    rng = random.Random(1)
    cards = list(range(32))
    rng.shuffle(cards)
    m = Match(SURCONTRA, players=["me", "bot:random", "bot:random", "bot:random"])
    m.first_dealer = dealer
    m.deal([cards[0:8], cards[8:16], cards[16:24], cards[24:32]], dealer)
    return m


@pytest.mark.parametrize("typed", ["1", "surkontra", "Surcontra", "kontra", "sürkontra"])
def test_surkontra_is_offered_read_and_applied_through_the_kontra_slot(tmp_path: Path, typed: str) -> None:
    m = _match(0)  # seat 1 bids, seat 2 doubles, seat 3 redoubles: seat 0 (the person) may surkontra
    for call in (BID_BASE + S, KONTRA, REKONTRA):
        m.apply(CALL_BASE + call)
    view = m.view(0)
    out = io.StringIO()
    prompts: list[str] = []

    def read(prompt: Text) -> str:
        prompts.append(prompt.plain)
        return typed

    game = Game(Setup(m, str(tmp_path / "g.json"), human=0), Words("en"), Console(file=out, width=100), 0, read)
    calls = [a - CALL_BASE for a in view.legal_actions]
    if typed == "1":
        typed_index = calls.index(KONTRA) + 1
        game._read = lambda prompt: str(typed_index)
    action = game.ask_call(view)
    assert action == CALL_BASE + KONTRA
    assert "Surcontra (surkontra)" in out.getvalue()
    m.apply(action)
    after = m.view(0)
    assert after.calls[-1] == (0, SURKONTRA) and after.multiplier == 8
    seating = Seating(0, ("me", "bot:random", "bot:random", "bot:random"))
    assert "Surcontra" in auction_text(after, Words("en"), seating).plain
    assert "Surcontra ×8" in contract_text(after, Words("en"), seating).plain
    console = Console(file=io.StringIO(), width=100, record=True)
    console.print(render_table(after, Words("en"), seating, numbered=False))
    assert "Surcontra ×8" in console.export_text()


def test_a_bots_surkontra_is_shown_as_surkontra(tmp_path: Path) -> None:
    m = _match(3)  # seat 0 bids, seat 1 doubles, seat 2 redoubles, seat 3 (a bot) surkontras
    for call in (BID_BASE + S, KONTRA, REKONTRA, KONTRA):
        m.apply(CALL_BASE + call)
    out = io.StringIO()
    game = Game(Setup(m, str(tmp_path / "g.json"), human=0), Words("en"), Console(file=out, width=100), 0,
                lambda prompt: "")
    game.show_bot_action(3, CALL_BASE + KONTRA)
    assert "Surcontra" in out.getvalue()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_option_and_x8_have_a_name_in_every_language(lang: str) -> None:
    from belot.contracts import SUPPORTED_OPTIONS

    w = Words(lang)
    for o in SUPPORTED_OPTIONS:
        assert w.option(o).endswith(f" ({o})") and not w.option(o).startswith("tui.")
    assert "8" in w.t("tui.mult.8")


def test_no_shuffle_deals_the_gathered_pack_cut() -> None:
    """OPT-NO-SHUFFLE (R2.2) in the terminal game: the next deal is the last deal's cards gathered
    and cut, so the hands hold the same cards."""
    m = Match(Rules.from_options(["OPT-NO-SHUFFLE"]), players=["me", "bot:random", "bot:random", "bot:random"])
    m.first_dealer = 0
    rng = random.Random(2)
    cards = list(range(32))
    rng.shuffle(cards)
    m.deal([cards[0:8], cards[8:16], cards[16:24], cards[24:32]], 0)
    for _ in range(4):
        m.apply(CALL_BASE)  # all pass: the hands are gathered from the forehand on
    hands = next_hands(m)
    from belot.game import cut_pack, deal_pack, gathered_pack
    from belot.tui.session import _deal_key

    cut = random.Random(f"belot-play:{_deal_key(m)}:{len(m.deals)}")  # next_hands' own source
    assert hands == deal_pack(cut_pack(gathered_pack(m.deals[-1]), cut), 1)
    assert sorted(c for h in hands for c in h) == list(range(32))



@pytest.mark.parametrize("option,hand,offered,best", [
    # R7.2 OPT-EIGHT-SPLIT: an 8-card run is the quint of its top five and the tierce of its bottom three
    ("OPT-EIGHT-SPLIT", "7C 8C 9C TC JC QC KC AC", ["TC JC QC KC AC", "7C 8C 9C"], ["TC JC QC KC AC", "7C 8C 9C"]),
    # R7.4 OPT-CARRE-FIRST: no sequence through a held carré, so the quint 8C-QC is no choice
    ("OPT-CARRE-FIRST", "TC TD TH TS 8C 9C JC QC", ["TC TD TH TS"], ["TC TD TH TS"]),
])
def test_the_declarations_offered_and_proposed_are_those_of_the_house_rules(
        tmp_path: Path, option: str, hand: str, offered: list[str], best: list[str]) -> None:
    """R7.4, R7.5 under the options of R7.2 and R7.4: the terminal offers the declarations the rules
    in force allow, and Enter (the proposed best set) announces legal ones, not the defaults' choice
    (an 8-card quint, a quint through a carré), which the engine refused and the game stopped on."""
    m = Match(Rules.from_options([option]), players=["me", "bot:random", "bot:random", "bot:random"])
    m.first_dealer = 3
    m.deal(make_hands({0: hand}), 3)
    for call in (CALL_BASE + BID_BASE + AT, CALL_BASE, CALL_BASE, CALL_BASE):
        m.apply(call)
    view = m.view(0)
    ids = [declaration_for_cards(cards(x)).id for x in offered]  # type: ignore[union-attr]
    assert sorted(a - DECLARE_BASE for a in view.legal_actions if a >= DECLARE_BASE) == sorted(ids)
    out = io.StringIO()
    game = Game(Setup(m, str(tmp_path / "g.json"), human=0), Words("en"), Console(file=out, width=100), 0,
                lambda prompt: "")
    chosen = game.ask_declarations(view)
    assert chosen == [declaration_for_cards(cards(x)).id for x in best]  # type: ignore[union-attr]
    for i in chosen:
        m.apply(DECLARE_BASE + i)



@pytest.mark.parametrize("option,counts,cancelled", [
    (None, "10♣", "K♣"),  # R7.6: carrés rank J > 9 > A > T > K > Q
    ("OPT-CARRE-RANK", "K♣", "10♣"),  # J > 9 > A > K > Q > T
])
def test_the_summary_says_which_declarations_counted_under_the_house_rules(
        tmp_path: Path, option: str | None, counts: str, cancelled: str) -> None:
    """R7.6 under its options: the deal's summary marks a declaration "counts" or "cancelled" as the
    rules in force scored it (the carré of kings over the carré of tens under OPT-CARRE-RANK), not
    as the defaults would have."""
    m = Match(Rules.from_options([option] if option else []), players=["me", "bot:random", "bot:random", "bot:random"])
    m.first_dealer = 3
    d = m.deal(make_hands({0: "TC TD TH TS", 1: "KC KD KH KS"}), 3)
    for call in (CALL_BASE + BID_BASE + AT, CALL_BASE, CALL_BASE, CALL_BASE):
        m.apply(call)
    while not d.is_over:
        legal = m.legal_actions()
        m.apply(next((a for a in legal if a >= DECLARE_BASE), legal[0]))
    assert d.result is not None and d.result.declarations == ((0, 100) if option else (100, 0))
    out = io.StringIO()
    game = Game(Setup(m, str(tmp_path / "g.json"), human=0), Words("en"), Console(file=out, width=120), 0,
                lambda prompt: "")
    game.show_summary()
    lines = out.getvalue().splitlines()
    assert "counts" in next(line for line in lines if counts in line and "(100)" in line)
    assert "cancelled" in next(line for line in lines if cancelled in line and "(100)" in line)


# -- the real program -----------------------------------------------------------------------------

pexpect = pytest.importorskip("pexpect")


def test_play_names_the_option_and_resume_keeps_it(tmp_path: Path) -> None:
    import os

    env = dict(os.environ, BELOT_DATA_DIR=str(tmp_path), TERM="dumb", NO_COLOR="1", COLUMNS="100")
    argv = ["-m", "belot", "play", "--pause", "0", "--lang", "en", "--partner", "random", "--opponents", "random",
            "--seed", "5", "--option", "OPT-CARRE-FIRST"]
    child = pexpect.spawn(sys.executable, argv, env=env, encoding="utf-8", dimensions=(60, 100), timeout=30)
    out = io.StringIO()
    child.logfile_read = out
    named = t("tui.options", "en").format(options=t("tui.option.OPT-CARRE-FIRST", "en") + " (OPT-CARRE-FIRST)")
    child.expect_exact(named)
    child.expect_exact(t("tui.prompt.call", "en") + " > ")
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    saved = next(tmp_path.rglob("*.json"))
    assert json.loads(saved.read_text(encoding="utf-8"))["options"] == ["OPT-CARRE-FIRST"]
    child = pexpect.spawn(sys.executable, ["-m", "belot", "play", "--pause", "0", "--lang", "en", "--resume", str(saved)],
                          env=env, encoding="utf-8", dimensions=(60, 100), timeout=30)
    child.expect_exact(named)
    child.expect_exact(t("tui.prompt.call", "en") + " > ")
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert json.loads(saved.read_text(encoding="utf-8"))["options"] == ["OPT-CARRE-FIRST"]


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("rules", [Rules(), SURCONTRA], ids=["defaults", "surcontra"])
def test_help_names_surkontra_only_under_its_house_rule(tmp_path: Path, lang: str, rules: Rules) -> None:
    """``help`` lists the calls in the language's words, surkontra only where OPT-SURCONTRA is on (R3.3):
    it listed Surcontra/Sürkontra/Сюрконтра in every game."""
    m = _match(0)
    if rules is not SURCONTRA:
        m = Match(rules, players=["me", "bot:random", "bot:random", "bot:random"])
        m.deal([list(range(i, 32, 4)) for i in range(4)], 3)
    out = io.StringIO()
    game = Game(Setup(m, str(tmp_path / "g.json"), human=0), Words(lang), Console(file=out, width=400), 0,
                lambda prompt: "")
    assert game.handle_command("help", m.view(0))
    said = out.getvalue()
    assert t("call.NT", lang) in said and t("call.rekontra", lang) in said
    assert (t("call.surkontra", lang) in said) == (rules is SURCONTRA), said
