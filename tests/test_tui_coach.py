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
        "bg": "Треньор: в ръка 3 игра 10♦; A♥ беше по-добре с около 6.6 точки."}),
    "call": (_decision(CALL, None, "AT", "kontra"), {
        "en": "Coach: in the auction you called All Trumps; Double was better by about 6.6 game points.",
        "tr": "Koç: artırmada Hepsi koz dediniz; Kontra yaklaşık 6.6 oyun puanı daha iyiydi.",
        "bg": "Треньор: в наддаването обяви Всичко коз; Контра беше по-добре с около 6.6 точки."}),
    "belote": (_decision(BELOTE, 4, "no belote", "belote"), {
        "en": "Coach: trick 4, you did not announce your belote; announcing it was better by about 6.6 game points.",
        "tr": "Koç: 4. elde belotunuzu söylemediniz; söylemek yaklaşık 6.6 oyun puanı daha iyiydi.",
        "bg": "Треньор: в ръка 4 не обяви белот; да го обявиш беше по-добре с около 6.6 точки."}),
    "declaration": (_decision(DECLARATION, 1, "none", "carre KC KD KH KS + tierce 7C 8C 9C"), {
        "en": "Coach: at your first card you declared: nothing; Carré (100) K, Tierce (20) 7♣–9♣ was better"
              " by about 6.6 game points.",
        "tr": "Koç: ilk kağıdınızda anonsunuz: hiçbiri; Kare (100) K, Terts (20) 7♣–9♣ yaklaşık 6.6 oyun"
              " puanı daha iyiydi.",
        "bg": "Треньор: при първата си карта обяви: нищо; Каре (100) K, Терца (20) 7♣–9♣ беше по-добре с"
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
