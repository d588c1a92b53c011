"""The terminal game's pieces without a terminal: input parsing, hand order, what the table shows
(and hides), declarations and belote at the prompt, Ctrl-C held back while saving, resuming."""

from __future__ import annotations

import io
import itertools
import json
import os
import random
import signal
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console
from rich.text import Text

from belot.auction import CALL_NAMES
from belot.bots import make_bot
from belot.cards import CARD_NAMES, parse_card
from belot.contracts import DEFAULT_RULES, NT, TABLES
from belot.game import BELOTE_BASE, CALL_BASE, Match
from belot.i18n import LANGUAGES, t
from belot.record import load
from belot.tui.render import Seating, card_text, hand_line, numbered_cards, render_table, sort_hand
from belot.tui.session import Game, Setup, first_deal, hold_interrupt, new_setup, next_hands, resume_setup
from belot.tui.text import RANK_LABELS, SUIT_SYMBOLS, Words, parse_card_text

# -- input --------------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_call_is_read_by_its_name_in_every_language_and_in_record_notation(lang: str) -> None:
    w = Words(lang)
    for call, name in enumerate(CALL_NAMES):
        assert w.parse_call(name) == call
        assert w.parse_call(name.upper()) == call
        for other in LANGUAGES:
            assert w.parse_call(t(f"call.{name}", other)) == call, (other, name)


def test_calls_are_read_without_case_accents_or_spaces() -> None:
    w = Words("tr")
    assert w.parse_call("hepsi koz") == w.parse_call("HEPSİKOZ") == 6
    assert w.parse_call("maca") == w.parse_call("Maça") == 4
    assert w.parse_call("kozsuz") == 5 and w.parse_call("no trumps") == 5
    assert Words("bg").parse_call("без коз") == 5
    assert w.parse_call("zzz") is None and w.parse_call("") is None


def test_a_suits_symbol_or_its_name_in_the_singular_bids_it() -> None:
    """The browser shows a bid as the suit's symbol and word; the terminal takes either as typed."""
    for lang in LANGUAGES:
        w = Words(lang)
        for suit, symbol in enumerate(SUIT_SYMBOLS):
            assert w.parse_call(symbol) == w.parse_call(f" {symbol} ") == 1 + suit
    w = Words("en")
    assert [w.parse_call(x) for x in ("club", "Diamond", "heart", "SPADE", "spades")] == [1, 2, 3, 4, 4]
    assert w.parse_call("karo") == 2 and w.parse_call("спатия") == 1


def test_cards_are_read_in_every_usual_spelling() -> None:
    jh = parse_card("JH")
    for text in ("JH", "jh", " Jh ", "J♥"):
        assert parse_card_text(text) == jh
    th = parse_card("TH")
    for text in ("TH", "10h", "10H", "th", "10♥"):
        assert parse_card_text(text) == th
    for text in ("ZZ", "1", "", "11H", "JX"):
        assert parse_card_text(text) is None


def test_commands_and_yes_no_in_each_language() -> None:
    assert Words("tr").command("çık") == "quit" and Words("tr").command("cik") == "quit"
    assert Words("bg").command("Последна") == "last" and Words("en").command("HELP") == "help"
    assert Words("en").command("JH") is None
    assert Words("tr").yes_no("evet", False) is True and Words("bg").yes_no("не", True) is False
    assert Words("en").yes_no("", True) is True and Words("en").yes_no("maybe", True) is None


# -- the hand and the table ---------------------------------------------------------------------


def test_hand_is_sorted_trumps_first_then_by_the_contracts_order() -> None:
    hand = [parse_card(c) for c in ["7H", "JH", "AH", "9H", "TS", "AS", "8C", "QD"]]
    hearts = [CARD_NAMES[c] for c in sort_hand(hand, 2)]
    assert hearts == ["JH", "9H", "AH", "7H", "AS", "TS", "QD", "8C"]  # R4.1 J 9 A .. 7; colours alternate
    plain = [CARD_NAMES[c] for c in sort_hand(hand, NT)]
    assert plain == ["AS", "TS", "AH", "JH", "9H", "7H", "8C", "QD"]  # R4.1 plain order A T K Q J 9


def _random_views(seed: int, count: int) -> list:
    """Views of seat 0 at random moments of a random match."""
    rng = random.Random(seed)
    m = Match(rng=rng)
    bots = [make_bot("random", seed + s) for s in range(4)]
    views = []
    while not m.is_over and len(views) < count:
        seat = m.current_player
        if seat == 0 and rng.random() < 0.5:
            views.append((m.view(0), [list(m.deals[-1].dealt[s]) for s in range(4)], m.deals[-1].hands[:]))
        m.apply(bots[seat].act(m.view(seat)))
    return views


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10**6))
def test_numbered_cards_are_exactly_the_engines_legal_cards_in_hand_order(seed: int) -> None:
    for view, _, _ in _random_views(seed, 6):
        if view.phase != "play":
            continue
        numbered = numbered_cards(view)
        assert sorted(numbered) == sorted({a & 31 for a in view.legal_actions if a < CALL_BASE})
        order = sort_hand(view.hand, view.contract)
        assert sorted(order) == sorted(view.hand)
        assert numbered == [c for c in order if c in numbered]
        table = TABLES[view.contract]
        for a, b in itertools.pairwise(order):
            if a >> 3 == b >> 3:
                assert table.strength[a] > table.strength[b]


def _label(card: int) -> str:
    return RANK_LABELS[card & 7] + SUIT_SYMBOLS[card >> 3]


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 10**6))
def test_the_table_shows_no_card_another_player_still_holds(seed: int) -> None:
    seating = Seating(0, ("me", "bot:random", "bot:random", "bot:random"))
    for view, _, masks in _random_views(seed, 4):
        console = Console(file=io.StringIO(), width=100, record=True)
        console.print(render_table(view, Words("en"), seating, numbered=view.phase == "play"))
        shown = console.export_text()
        for seat in (1, 2, 3):
            for c in range(32):
                if masks[seat] >> c & 1:
                    assert _label(c) not in shown, (CARD_NAMES[c], shown)
        for c in view.hand:
            assert _label(c) in shown


def test_red_suits_are_red_and_legal_cards_numbered() -> None:
    assert card_text(parse_card("JH")).style.split()[-1] == "red"
    assert card_text(parse_card("JD")).style.split()[-1] == "red"
    assert "red" not in str(card_text(parse_card("JS")).style)
    view = next(v for v, _, _ in _random_views(3, 40) if v.phase == "play" and len(v.legal_actions) >= 2)
    line = hand_line(view, Words("en"), numbered=True).plain
    for k, c in enumerate(numbered_cards(view), 1):
        assert f"{k}:{_label(c)}" in line


# -- a scripted game without a terminal -----------------------------------------------------------


class PassingBot:
    """Passes in the auction, plays the first legal card."""

    name = "passing"

    def act(self, view):  # type: ignore[no-untyped-def]
        legal = view.legal_actions
        return CALL_BASE if legal[0] >= CALL_BASE else min(a for a in legal if a < BELOTE_BASE)


class ScriptedGame(Game):
    def bot(self, seat: int):  # type: ignore[no-untyped-def]
        return PassingBot()


def _script(answers: list[tuple[str, str]], lang: str = "en"):  # type: ignore[no-untyped-def]
    """A read function that checks each prompt's key and gives the scripted answer."""
    pending = list(answers)

    def read(prompt: Text) -> str:
        key, answer = pending.pop(0)
        head = t(key, lang).split("{")[0]
        assert prompt.plain.startswith(head), (key, prompt.plain)
        return answer

    return read, pending


HUMAN_HAND = "KC KD QD JD TD 9D KH KS"


def _declaring_setup(tmp_path: Path) -> Setup:
    mine = [parse_card(c) for c in HUMAN_HAND.split()]
    rest = [c for c in range(32) if c not in mine]
    random.Random(0).shuffle(rest)
    hands = [mine, rest[0:8], rest[8:16], rest[16:24]]
    m = Match(players=["me", "bot:random", "bot:random", "bot:random"])
    m.first_dealer = 3
    m.deal(hands, 3)  # seat 0 is the forehand: it calls first and leads (R2.3, R5.1)
    return Setup(m, str(tmp_path / "game.json"), human=0)


def test_enter_alone_at_a_call_or_card_prompt_asks_again_without_an_error(tmp_path: Path) -> None:
    """An empty line was answered '"" is not a call': Enter alone shows the choices again."""
    setup = _declaring_setup(tmp_path)
    read, pending = _script([
        ("tui.prompt.call", ""), ("tui.prompt.call", "  "), ("tui.prompt.call", "♦"), ("tui.prompt.declare", "0"),
        ("tui.prompt.card", ""), ("tui.prompt.card", "quit"),
    ])
    out = io.StringIO()
    game = ScriptedGame(setup, Words("en"), Console(file=out, width=100), 0, read)
    assert game.run() == 0 and not pending
    assert "is not" not in out.getvalue()
    assert json.loads(Path(setup.path).read_text(encoding="utf-8"))["deals"][0]["auction"][0] == "D"


def test_enter_declares_the_best_announcement_and_belote_is_offered(tmp_path: Path) -> None:
    """R7.4: carré of kings + quarte 9-Q of diamonds (150) beats the quint 9-K (100); R7.7 belote."""
    setup = _declaring_setup(tmp_path)
    read, pending = _script([
        ("tui.prompt.call", "karo"), ("tui.prompt.declare", ""), ("tui.prompt.card", "KD"),
        ("tui.prompt.belote", ""), ("tui.prompt.card", "quit"),
    ])
    game = ScriptedGame(setup, Words("en"), Console(file=io.StringIO(), width=100), 0, read)
    assert game.run() == 0 and not pending
    first = json.loads(Path(setup.path).read_text(encoding="utf-8"))["deals"][0]["play"][0]
    assert first == {"card": "KD", "declare": [["KC", "KD", "KH", "KS"], ["9D", "TD", "JD", "QD"]], "belote": True}


def test_declarations_can_be_refused_or_picked_one_by_one(tmp_path: Path) -> None:
    setup = _declaring_setup(tmp_path)
    read, pending = _script([
        ("tui.prompt.call", "D"), ("tui.prompt.declare", "0"), ("tui.prompt.card", "KD"),
        ("tui.prompt.belote", "n"), ("tui.prompt.card", "quit"),
    ])
    assert ScriptedGame(setup, Words("en"), Console(file=io.StringIO()), 0, read).run() == 0 and not pending
    assert json.loads(Path(setup.path).read_text(encoding="utf-8"))["deals"][0]["play"][0] == "KD"

    setup = _declaring_setup(tmp_path)
    # options listed: 1 carré of kings, 2 quint 9-K of diamonds; the quint alone, then no more.
    read, pending = _script([
        ("tui.prompt.call", "D"), ("tui.prompt.declare", "2"), ("tui.prompt.card", "9d"),
        ("tui.prompt.card", "quit"),
    ])
    assert ScriptedGame(setup, Words("en"), Console(file=io.StringIO()), 0, read).run() == 0 and not pending
    first = json.loads(Path(setup.path).read_text(encoding="utf-8"))["deals"][0]["play"][0]
    assert first == {"card": "9D", "declare": [["9D", "TD", "JD", "QD", "KD"]]}


def test_an_illegal_card_is_refused_and_nothing_is_applied(tmp_path: Path) -> None:
    setup = _declaring_setup(tmp_path)
    out = io.StringIO()
    read, pending = _script([
        ("tui.prompt.call", "D"), ("tui.prompt.declare", "0"), ("tui.prompt.card", "AS"),
        ("tui.prompt.card", "99"), ("tui.prompt.card", "quit"),
    ])
    assert ScriptedGame(setup, Words("en"), Console(file=out, width=100), 0, read).run() == 0 and not pending
    assert "A♠ is not in your hand." in out.getvalue()  # the card as the screen shows it, not "AS"
    assert "Choose a number from 1 to 8." in out.getvalue()
    assert "--resume" in out.getvalue() and "--lang en" in out.getvalue()
    deal = json.loads(Path(setup.path).read_text(encoding="utf-8"))["deals"][0]
    assert deal["auction"] == ["D", "pass", "pass", "pass"] and deal["play"] == []


def test_turkish_card_names_are_cards_and_messages_show_symbols(tmp_path: Path) -> None:
    """Issue 21 (7, 9): "sinek 8", "kupa papaz" are cards; errors and the declaration prompt show
    suit symbols, not record codes; the printed resume command keeps the game's language."""
    setup = _declaring_setup(tmp_path)
    out = io.StringIO()
    read, pending = _script([
        ("tui.prompt.call", "Karo"), ("tui.prompt.declare", "0"), ("tui.prompt.card", "maça as"),
        ("tui.prompt.card", "karo dokuz"), ("tui.prompt.card", "çık"),
    ], lang="tr")
    assert ScriptedGame(setup, Words("tr"), Console(file=out, width=200), 0, read).run() == 0 and not pending
    text = out.getvalue()
    assert "A♠ kartlarınızda yok." in text and "AS" not in text
    assert "belot play --resume" in text and "--lang tr" in text
    first = json.loads(Path(setup.path).read_text(encoding="utf-8"))["deals"][0]["play"][0]
    assert first == "9D"
    words = Words("tr")
    assert [words.parse_card_words(x) for x in ("sinek 8", "8 sinek", "kupa papaz", "Maça Kız", "karo bacak", "kupa")] == [
        1, 1, 22, 29, 12, None]
    assert Words("bg").parse_card_words("пика дама") == 29 and Words("en").parse_card_words("jack of hearts") == 20
    # A card as the browser names it (game.json card.name): "Maça Kızı", "Karo Onlusu", "Sinek Valesi".
    assert [words.parse_card_words(x) for x in ("Maça Kızı", "karo onlusu", "sinek valesi", "kupa ası")] == [
        29, 11, 4, 23]
    assert Words("en").parse_card_words("queen of spades") == 29


# -- saving and resuming --------------------------------------------------------------------------


def test_ctrl_c_is_held_back_until_the_action_is_saved() -> None:
    done = []
    with pytest.raises(KeyboardInterrupt), hold_interrupt():
        os.kill(os.getpid(), signal.SIGINT)
        done.append("saved")
    assert done == ["saved"]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_deals_come_from_the_seed_and_the_record_alone(tmp_path: Path) -> None:
    """A resumed record deals the same next hands as the live game (no hidden RNG state)."""
    assert first_deal(5) == first_deal(5) and first_deal(5) != first_deal(6)
    setup = new_setup(5, 151, ["me", "bot:random", "bot:random", "bot:random"], str(tmp_path))
    m = setup.match
    bots = [make_bot("random", s) for s in range(4)]
    while m.current is not None:
        seat = m.current_player
        m.apply(CALL_BASE if m.deals[-1].phase == "auction" else bots[seat].act(m.view(seat)))
    expected = next_hands(m)
    from belot.record import write

    write(m, setup.path)
    resumed = resume_setup(setup.path)
    assert resumed.human == 0 and next_hands(resumed.match) == expected
    assert next_hands(load(setup.path)) == expected


def test_the_default_bot_is_the_strongest_fast_one(monkeypatch: pytest.MonkeyPatch) -> None:
    from belot import bots
    from belot.tui.session import default_bot

    monkeypatch.setattr(bots, "REGISTRY", {"random": "x:Y"})
    monkeypatch.setattr("belot.tui.session.REGISTRY", bots.REGISTRY)
    assert default_bot() == "random"
    bots.REGISTRY["heuristic"] = "x:Y"
    assert default_bot() == "heuristic"
    bots.REGISTRY["pimc"] = "x:Y"
    assert default_bot() == "pimc"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_end_of_deal_sheet_fits_40_columns_and_cuts_no_word(lang: str) -> None:
    """At 40 columns the score sheet cut its words ("Cont…", "Сюрк…", "Han… pot"), losing a contract's
    x8 (R3.3) or x4; now every word of every line is there whole, and no line is wider than 40."""
    from belot.commands.random_match import random_match
    from belot.contracts import Rules
    from belot.tui.render import render_summary

    doubled = random_match(1, Rules(("OPT-SURCONTRA",)))  # its deal 1: All Trumps, surkontra
    hanging = next(m for m in map(random_match, range(1, 60)) if any(r.pot for r in m.results[:5]))
    for m in (doubled, hanging):
        seating = Seating(0, tuple(m.players or ()))
        history = m.results[:5]
        out = io.StringIO()
        Console(file=out, width=40, color_system=None).print(render_summary(Words(lang), seating, history[-1], [], 0, history, 151, DEFAULT_RULES))
        text = out.getvalue()
        assert "…" not in text and max(len(line) for line in text.splitlines()) <= 40, text
        for r in history:
            if r.multiplier > 1:
                assert Words(lang).t(f"tui.mult.{r.multiplier}").split()[0] in text.split(), text
        if m is hanging:
            assert Words(lang).t("term.pot").split()[0] in text, text
