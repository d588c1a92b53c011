"""``belot play --coach``: the costliest decision is told in the player's words, as the rest of the
screen shows things: a card as ``10♦`` (not the record's ``TD``), a call by its name in the game's
language (``Hepsi koz``, not ``AT``), a withheld belote and a declaration choice in sentences of their
own (not "you played no belote")."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from rich.console import Console

import belot.analysis
from belot.analysis import BELOTE, CALL, CARD, DECLARATION, Decision
from belot.tui.session import Game, new_setup
from belot.tui.text import Words


def _decision(kind: str, trick: int | None, chosen: str, best: str) -> Decision:
    return Decision(0, 0, kind, None if trick else 3, trick and 5, trick, chosen, best, best, 6.6, 6.6, (), 8)


CASES = {
    "card": (_decision(CARD, 3, "TD", "AH"), {
        "en": "Coach: trick 3, you played 10♦; A♥ was better by about 6.6 game points.",
        "tr": "Koç: 3. elde 10♦ oynadınız; A♥ yaklaşık 6.6 oyun puanı daha iyiydi.",
        "bg": "Треньор: във взятка 3 изиграхте 10♦; A♥ беше по-добре с около 6.6 точки."}),
    "call": (_decision(CALL, None, "AT", "kontra"), {
        "en": "Coach: in the auction you called All Trumps; Double was better by about 6.6 game points.",
        "tr": "Koç: artırmada Hepsi koz dediniz; Kontra yaklaşık 6.6 oyun puanı daha iyiydi.",
        "bg": "Треньор: в наддаването обявихте Всичко коз; Контра беше по-добре с около 6.6 точки."}),
    "belote": (_decision(BELOTE, 4, "no belote", "belote"), {
        "en": "Coach: trick 4, you did not announce your belote; announcing it was better by about 6.6 game points.",
        "tr": "Koç: 4. elde belotunuzu söylemediniz; söylemek yaklaşık 6.6 oyun puanı daha iyiydi.",
        "bg": "Треньор: във взятка 4 не обявихте белот; да го обявите беше по-добре с около 6.6 точки."}),
    "declaration": (_decision(DECLARATION, 1, "none", "carre KC KD KH KS + tierce 7C 8C 9C"), {
        "en": "Coach: at your first card you declared: nothing; Carré (100) K, Tierce (20) 7♣–9♣ was better"
              " by about 6.6 game points.",
        "tr": "Koç: ilk kağıdınızda anonsunuz: hiçbiri; Kare (100) K, Terts (20) 7♣–9♣ yaklaşık 6.6 oyun"
              " puanı daha iyiydi.",
        "bg": "Треньор: при първата си карта обявихте: нищо; Каре (100) K, Терца (20) 7♣–9♣ беше по-добре с"
              " около 6.6 точки."}),
}


@pytest.mark.parametrize("lang", ["en", "tr", "bg"])
@pytest.mark.parametrize("case", list(CASES))
def test_the_coach_tells_the_decision_in_the_players_words(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, case: str, lang: str) -> None:
    decision, expected = CASES[case]
    monkeypatch.setattr(belot.analysis, "coach", lambda *args, **kwargs: decision)
    setup = new_setup(7, 151, ["me", "bot:random", "bot:random", "bot:random"], str(tmp_path))
    out = io.StringIO()
    game = Game(setup, Words(lang), Console(file=out, width=1000), 0, coach=True)
    game.show_coach()
    assert out.getvalue().strip() == expected[lang]


def test_the_coach_of_a_resumed_game_draws_the_worlds_of_the_same_game_uninterrupted(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The advice is reproducible: a game resumed from its file asks the analysis with the seed the
    uninterrupted game used, and another game (resumed too) with another seed, not 0 for all."""
    from belot.tui.session import resume_setup

    seeds: list[int] = []
    monkeypatch.setattr(belot.analysis, "coach", lambda *args, **kwargs: seeds.append(kwargs["seed"]))
    for seed in (7, 8):
        setup = new_setup(seed, 151, ["me", "bot:random", "bot:random", "bot:random"], str(tmp_path))
        for s in (setup, resume_setup(setup.path)):
            Game(s, Words("en"), Console(file=io.StringIO()), 0, coach=True).show_coach()
    assert seeds[0] == seeds[1] and seeds[2] == seeds[3] and seeds[0] != seeds[2], seeds


@pytest.mark.parametrize("lang, words", [("en", ("Pass", "Surcontra")), ("tr", ("Pas", "Sürkontra")),
                                         ("bg", ("Пас", "Сюрконтра"))])
@pytest.mark.parametrize("chosen_first", [True, False])
def test_the_coach_names_a_surkontra_as_the_auction_does_not_a_kontra(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lang: str, words: tuple[str, str],
        chosen_first: bool) -> None:
    """R3.3, OPT-SURCONTRA: over a rekontra the kontra slot is surkontra; the analysis names the slot
    ("kontra"), and the coach said "Double"/"Kontra" where the auction's line says "Surcontra"."""
    from belot.auction import CALL_NAMES, KONTRA
    from belot.contracts import Rules
    from belot.game import CALL_BASE, Match
    from belot.tui.session import Setup

    m = Match(Rules.from_options(["OPT-SURCONTRA"]), players=["me", "bot:random", "bot:random", "bot:random"])
    m.first_dealer = 3
    m.deal([list(range(i * 8, i * 8 + 8)) for i in range(4)], 3)  # seat 0 calls first
    for call in ["pass", "H", "kontra", "rekontra"]:  # seat 0 passes; 1 bids, 2 kontra, 3 rekontra
        m.apply(CALL_BASE + CALL_NAMES.index(call))
    assert m.view(0).multiplier == 4
    m.apply(CALL_BASE + CALL_NAMES.index("kontra"))  # seat 0: surkontra, through the kontra slot
    pas, sur = words
    chosen, best = ("kontra", "pass") if chosen_first else ("pass", "kontra")
    decision = Decision(0, 0, CALL, 4, None, None, chosen, best, best, 6.6, 6.6, (), 8)
    monkeypatch.setattr(belot.analysis, "coach", lambda *args, **kwargs: decision)
    out = io.StringIO()
    Game(Setup(m, str(tmp_path / "g.json"), human=0), Words(lang), Console(file=out, width=1000), 0,
         coach=True).show_coach()
    said = out.getvalue()
    first, second = (sur, pas) if chosen_first else (pas, sur)
    assert said.index(first) < said.index(second), said
    assert Words(lang).call(KONTRA) not in said.replace(sur, ""), said  # no plain kontra word
