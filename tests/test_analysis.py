"""belot.analysis and `belot analyze`: the two losses of a decision (issue 22).

Deals are played by an open-card perfect player (every card the solver's best in the real world,
best declarations, belote always), so every open-card loss is known to be 0; a planted card then
has a loss the deal's own scoring confirms.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from belot import declarations as decl
from belot import record
from belot.analysis import (
    BELOTE,
    BLUNDER,
    CALL,
    CARD,
    DECLARATION,
    THRESHOLDS,
    Analyst,
    analyze_deal,
    classify,
    coach,
    costliest,
    decisions_of,
    evaluate,
)
from belot.auction import BID_BASE, PASS
from belot.bots.sampling import World
from belot.cards import mask_of
from belot.cli import main
from belot.game import BELOTE_BASE, CALL_BASE, DECLARE_BASE, PLAY, Deal, Match, action_name, deal_hands

HEARTS = 2


@pytest.fixture(scope="module")
def analyst() -> Analyst:
    return Analyst(seed=3, play_worlds=3, call_worlds=3)


def _truth(d: Deal, seat: int) -> World:
    return World(tuple(d.hands), tuple(() if s == seat else tuple(x) for s, x in enumerate(d.declared)))  # type: ignore[arg-type]


def _card_scores(a: Analyst, d: Deal) -> dict[int, float]:
    view = d.view(d.to_move)
    return a.card_values(view, _truth(d, d.to_move))


def perfect_deal(a: Analyst, hands: list[list[int]], plant: tuple[int, int] | None = None,
                 found: list[tuple[float, int, int]] | None = None) -> tuple[Deal, int | None]:
    """Hearts bid by the forehand, then perfect open-card play; ``plant`` = (k, card): at card
    decision number k (counting decisions with a choice) that card instead.  Returns the deal and
    the action index of the planted card.  ``found`` collects, per decision, the card that is worst
    both ways, as (the smaller of its expected and open-card losses, k, card)."""
    d = Deal(0, hands)
    d.apply(CALL_BASE + BID_BASE + HEARTS)
    for _ in range(3):
        d.apply(CALL_BASE + PASS)
    n = 0
    at = None
    while not d.is_over:
        legal = d.legal_actions()
        best = decl.best_declarations(d.hands[d.to_move], d.rules)
        declare = [DECLARE_BASE + i for i in best if DECLARE_BASE + i in legal and i not in d.declared[d.to_move]]
        if declare:
            d.apply(declare[0])
            continue
        scores = _card_scores(a, d)
        card = max(scores, key=lambda c: (scores[c], -c))
        if len(scores) > 1:
            if found is not None:
                view = d.view(d.to_move)
                options = [(name, e, float(o or 0)) for name, e, o in
                           evaluate(a, view, CARD, card, _truth(d, d.to_move), a.rng(0, len(d.actions)))[4]]
                top_e, top_o = max(o[1] for o in options), max(o[2] for o in options)
                worst = max(options, key=lambda o: min(top_e - o[1], top_o - o[2]))
                found.append((min(top_e - worst[1], top_o - worst[2]), n,
                               next(c for c in scores if action_name(c) == worst[0])))
            if plant is not None and n == plant[0]:
                card, at = plant[1], len(d.actions)
            n += 1
        d.apply(BELOTE_BASE + card if BELOTE_BASE + card in legal else card)
    return d, at


def _margin(d: Deal, team: int) -> int:
    assert d.result is not None
    return d.result.points[team] - d.result.points[1 - team]


HANDS = deal_hands(random.Random(1), 0)  # a deal with a card that loses over 10 whatever the hidden cards


FOUND: list[tuple[float, int, int]] = []


@pytest.fixture(scope="module")
def perfect(analyst: Analyst) -> Deal:
    return perfect_deal(analyst, HANDS, found=FOUND)[0]


def test_perfect_play_has_no_open_card_loss(analyst: Analyst, perfect: Deal) -> None:
    """Every card the solver's best with open cards: every open-card loss of the play is 0."""
    result = analyze_deal(analyst, perfect, 0)
    play = [x for x in result.decisions if x.kind in (CARD, DECLARATION, BELOTE)]
    assert any(x.kind == CARD for x in play)
    assert all(x.open_loss == 0 for x in play), [(x.chosen, x.open_loss) for x in play if x.open_loss]
    assert all(x.expected_loss >= 0 for x in result.decisions)


def test_planted_blunder_is_flagged_with_its_loss(analyst: Analyst, perfect: Deal) -> None:
    """The worst card, then perfect play again: its open-card loss is what the deal's scoring says it
    cost (perfect deal's margin minus this one's) and it is classed a blunder."""
    # the card that costs most both ways (it throws the deal away whatever the hidden cards)
    worst, k, card = max(FOUND)
    assert worst >= THRESHOLDS[BLUNDER]
    d, at = perfect_deal(analyst, HANDS, plant=(k, card))
    assert at is not None
    seat = d.actors[at]
    team = seat & 1
    lost = _margin(perfect, team) - _margin(d, team)
    result = analyze_deal(analyst, d, 0)
    x = next(x for x in result.decisions if x.kind == CARD and x.seat == seat and x.play == at - 4)
    assert x.open_loss == lost
    assert x.chosen == action_name(card)
    assert classify(x.open_loss) == BLUNDER
    # judged from what the seat could know, the card is a blunder too
    assert x.klass == BLUNDER, (x.expected_loss, x.options)
    assert costliest(result, seat) == x
    assert coach(d, seat, analyst=analyst) == x  # the hook: only that seat's decisions, the same figures


def test_truth_as_the_only_world_gives_the_open_card_loss(analyst: Analyst) -> None:
    """With the real cards as the one world, expected loss = open-card loss, for every kind."""
    d, _ = perfect_deal(analyst, HANDS, plant=None)
    kinds = set()
    for s in decisions_of(d):
        if s.kind == BELOTE or s.truth is None:
            continue
        *_, loss, open_loss, _options, n = evaluate(analyst, s.view, s.kind, s.chosen, s.truth,
                                                   random.Random(0), worlds=[s.truth], declared=s.declared)
        assert n <= 1  # 0: settled without search
        assert loss == open_loss, (s.kind, s.index)
        kinds.add(s.kind)
    assert {CARD, CALL} <= kinds


def _swapped(hands: list[list[int]], seat: int, rng: random.Random) -> list[list[int]]:
    """The other seats' cards shuffled among them (same counts, same five-and-three split)."""
    others = [s for s in range(4) if s != seat]
    first = [c for s in others for c in hands[s][:5]]
    last = [c for s in others for c in hands[s][5:]]
    rng.shuffle(first)
    rng.shuffle(last)
    out = [list(h) for h in hands]
    for k, s in enumerate(others):
        out[s] = first[5 * k: 5 * k + 5] + last[3 * k: 3 * k + 3]
    return out


def test_expected_loss_does_not_depend_on_the_hidden_cards(analyst: Analyst) -> None:
    """The forehand's first call and first card, from two deals that differ only in the cards it
    cannot see: same expected figures for the same seed (the open-card ones may differ)."""
    forehand = 1
    other = _swapped(HANDS, forehand, random.Random(9))
    assert other != HANDS and other[forehand] == HANDS[forehand]
    figures = []
    for hands in (HANDS, other):
        d = Deal(0, hands)
        call_view = d.view(forehand)
        d.apply(CALL_BASE + BID_BASE + HEARTS)
        for _ in range(3):
            d.apply(CALL_BASE + PASS)
        while d.to_move == forehand and any(a >= DECLARE_BASE for a in d.legal_actions()):
            d.apply(next(a for a in d.legal_actions() if a >= DECLARE_BASE))
        card_view = d.view(forehand)
        card = d.legal_actions()[0]
        truth = World(tuple(mask_of(h) for h in hands), ((), (), (), ()))  # type: ignore[arg-type]
        call = evaluate(analyst, call_view, CALL, CALL_BASE + BID_BASE + HEARTS, truth, random.Random(4))
        play = evaluate(analyst, card_view, CARD, card, _truth(d, forehand), random.Random(4))
        figures.append([(c[0], c[2], [(o[0], o[1]) for o in c[4]]) for c in (call, play)])
    assert figures[0] == figures[1]


def test_same_seed_same_figures_and_jobs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`belot analyze --json`: the documented shape; --jobs 2 gives the figures of --jobs 1."""
    m = Match(rng=random.Random(2), target=30)
    from belot.bots.random_bot import RandomBot

    bot = RandomBot(1)
    while not m.is_over and len(m.deals) < 2:
        m.apply(bot.act(m.view(m.current_player)))
    path = tmp_path / "m.json"
    record.write(m, str(path))
    docs = []
    for jobs in ("1", "2"):
        assert main(["analyze", str(path), "--json", "--jobs", jobs, "--seed", "5"]) == 0
        docs.append(json.loads(capsys.readouterr().out))
    assert docs[0] == docs[1]
    doc = docs[0]
    assert doc["format"] == "belot-analysis/1"
    deal = doc["deals"][0]
    assert {"deal", "dealer", "contract", "declarer", "multiplier", "points", "decisions", "summary"} <= set(deal)
    x = deal["decisions"][0]
    assert {"seat", "kind", "auction", "play", "trick", "chosen", "best", "best_open", "expected_loss",
            "open_loss", "class", "worlds", "options"} <= set(x)
    assert len(doc["summary"]) == 4


@pytest.mark.parametrize("argv, message", [
    (["--deal", "7"], "out of range"),
])
def test_bad_input_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    d = Deal(0, HANDS)
    for _ in range(4):
        d.apply(CALL_BASE + PASS)
    m = Match(target=151)
    m.deal(HANDS, 0)
    for a in d.actions:
        m.apply(a)
    path = tmp_path / "m.json"
    record.write(m, str(path))
    assert main(["analyze", str(path), *argv]) == 2
    assert message in capsys.readouterr().err
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "belot-record/1", "deals": [{"dealer": 9}]}')
    assert main(["analyze", str(bad)]) == 2
    assert "belot analyze:" in capsys.readouterr().err


def test_play_phase_view_is_what_the_decision_saw(perfect: Deal) -> None:
    steps = decisions_of(perfect)
    assert all(s.view.seat == s.seat and (s.kind == CALL) == (s.view.phase != PLAY) for s in steps)


def test_five_card_record_has_no_open_card_figures(analyst: Analyst) -> None:
    """R2.3: an all-pass deal recorded with five cards a hand: calls get expected figures only."""
    m = Match(target=151)
    m.deal([h[:5] for h in HANDS], 0)
    for _ in range(4):
        m.apply(CALL_BASE + PASS)
    result = analyze_deal(analyst, m.deals[0], 0)
    assert result.contract == -1 and result.decisions
    assert all(x.kind == CALL and x.open_loss is None and x.expected_loss >= 0 for x in result.decisions)
    assert result.to_json()["decisions"][0]["open_loss"] is None


def test_terminal_coach_line(tmp_path: Path) -> None:
    """`belot play --coach`: after a deal, the person's costliest decision in one line (or none)."""
    from rich.console import Console

    from belot.bots.random_bot import RandomBot
    from belot.tui.session import Game, Setup
    from belot.tui.text import Words

    m = Match(target=151, players=["me", "bot:random", "bot:random", "bot:random"])
    m.deal(deal_hands(random.Random(4), 0), 0)  # as the terminal deals: the next deal waits for its cards
    bot = RandomBot(2)
    while not m.deals[0].is_over:
        m.apply(bot.act(m.view(m.current_player)))
    console = Console(record=True, width=200)
    game = Game(Setup(m, str(tmp_path / "g.json"), 0, 1), Words("en"), console, 0, coach=True)
    game.show_coach()
    out = console.export_text()
    assert out.startswith("Coach: ")
    x = coach(m.deals[0], 0, seed=game.coach_seed(), index=0)  # the game's seed for the coach (docs/terminal.md)
    assert (x is None) == ("none of your decisions" in out)
    if x is not None:
        # in the player's words (10♣, not TC: tests/test_tui_coach.py pins the wording)
        shown = [game._coach_option(x.kind, name, x.auction) for name in (x.chosen, x.best)]
        assert x.chosen not in out and all(s in out for s in shown) and f"{x.expected_loss:.1f}" in out



SCORING_OPTIONS = ["OPT-NONZERO", "OPT-VALAT-NO-DOUBLE", "OPT-SINGLE-CONTEST", "OPT-LENGTH-FIRST",
                   "OPT-CARRE-RANK", "OPT-EIGHT-SPLIT"]


@pytest.mark.parametrize("option", SCORING_OPTIONS)
def test_call_values_score_by_the_house_rules_as_the_bots_do(option: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """`Analyst.call_values` in one whole deal equals pimc's own value of each call there
    (`PimcBot.call_scores` with that deal as its only sample) under each option that changes
    declarations or scoring (docs/rules.md options; R7.6, R10): the analysis judges calls by the
    rules of the game played, not the defaults."""
    from belot.bots import pimc
    from belot.bots.heuristic import HeuristicBot
    from belot.contracts import Rules

    rules = Rules((option,))
    analyst = Analyst()
    bot = pimc.PimcBot(0, node_cap=1 << 62, bid_penalty=0.0, bid_worlds=1, min_bid_worlds=1)
    rng = random.Random(option)
    compared = 0

    def contested(hands: list[int], r: Rules) -> list[int]:
        own = [decl.best_declarations(h, r) for h in hands]
        return decl.contest((own[0] + own[2], own[1] + own[3]), r)

    for _ in range(5000):
        dealer = rng.randrange(4)
        d = Deal(dealer, deal_hands(rng, dealer), rules)
        hands = [mask_of(h) for h in d.dealt]
        if option == "OPT-SINGLE-CONTEST" and contested(hands, rules) == contested(hands, Rules(())):
            continue  # under this option, only deals whose declarations it changes (about 2%)
        for _ in range(rng.randrange(0, 4)):  # a few heuristic calls first
            if d.phase == PLAY or d.is_over:
                break
            d.apply(HeuristicBot(0).act(d.view(d.to_move)))
        if d.phase == PLAY or d.is_over:
            continue
        view = d.view(d.to_move)
        truth = World(tuple(mask_of(h) for h in d.dealt), ((), (), (), ()))  # type: ignore[arg-type]
        monkeypatch.setattr(pimc, "sample_auction", lambda *a, w=truth, **k: w)
        scores = bot.call_scores(view)
        if not scores:
            continue
        values = analyst.call_values(view, list(scores), truth)
        assert values == {a: float(v[0]) for a, v in scores.items()}, (option, view.hand, view.calls)
        compared += 1
        if compared >= 12:
            break
    assert compared >= 12


def test_call_values_change_with_the_house_rules_where_the_rules_change_the_deal() -> None:
    """The test above compares the analysis with pimc, which now share `PimcBot.deal_call_scores`;
    this one says that the rules reach it: in deals whose contested declarations OPT-SINGLE-CONTEST
    changes (R7.6), some call is valued differently under the option than under the defaults."""
    from dataclasses import replace

    from belot.contracts import NT, Rules

    rules = Rules(("OPT-SINGLE-CONTEST",))
    analyst = Analyst()
    rng = random.Random(7)

    def contested(hands: list[int], r: Rules) -> list[int]:
        own = [decl.best_declarations(h, r) for h in hands]
        return decl.contest((own[0] + own[2], own[1] + own[3]), r)

    differ = compared = 0
    for _ in range(20000):
        dealer = rng.randrange(4)
        d = Deal(dealer, deal_hands(rng, dealer), rules)
        hands = [mask_of(h) for h in d.dealt]
        if contested(hands, rules) == contested(hands, Rules(())):
            continue
        view = d.view(d.to_move)  # the first call: every contract can be bid
        calls = [a for a in view.legal_actions if a != CALL_BASE + BID_BASE + NT]  # all but NT (R7.1: none there)
        truth = World(tuple(hands), ((), (), (), ()))  # type: ignore[arg-type]
        own = analyst.call_values(view, calls, truth)
        default = analyst.call_values(replace(view, options=()), calls, truth)
        differ += own != default
        compared += 1
        if compared >= 6:
            break
    assert compared >= 6 and differ >= 1, (compared, differ)


def _played_by(d: Deal, upto: int) -> list[list[int]]:
    """The cards each seat played in the deal's first ``upto`` actions (a belote card as its card)."""
    out: list[list[int]] = [[], [], [], []]
    for a, s in zip(d.actions[:upto], d.actors[:upto]):
        if a < BELOTE_BASE:
            out[s].append(a)
        elif a < CALL_BASE:
            out[s].append(a - BELOTE_BASE)
    return out


def _same_view_other_cards(d: Deal, upto: int, seat: int, rng: random.Random, auction: bool) -> Deal | None:
    """The deal ``d`` after its first ``upto`` actions with the cards ``seat`` cannot see dealt anew
    among the others (in the auction: also its own last three): each seat keeps what it has played,
    the deal replays the same actions and ``seat``'s view is the same.  None when the draw cannot
    have been (a card played while holding one that had to be played: a void, an overtrump)."""
    played = _played_by(d, upto)
    keep = [list(h[:5]) if auction and s == seat else list(h) if s == seat else played[s]
            for s, h in enumerate(d.dealt)]
    pool = [c for h in d.dealt for c in h if not any(c in k for k in keep)]
    rng.shuffle(pool)
    hands = []
    for s in range(4):
        want = 8 - len(keep[s])
        hands.append(keep[s] + pool[:want])
        pool = pool[want:]
    other = _replayed(d, hands, upto)
    return other if other is not None and [list(h) for h in hands] != [list(h) for h in d.dealt] else None


def _replayed(d: Deal, hands: list[list[int]], upto: int) -> Deal | None:
    """A deal of ``hands`` (the first five of each are its auction cards) after ``d``'s first
    ``upto`` actions; None when one of them is illegal there."""
    other = Deal(d.dealer, hands)
    try:
        for a in d.actions[:upto]:
            other.apply(a)
    except Exception:
        return None
    return other


def test_expected_loss_mid_deal_sees_only_the_view(analyst: Analyst) -> None:
    """Later decisions than the test above: a call after others called and a card in trick 3, after
    the others' play, declarations and belotes.  Hidden cards dealt anew consistently with the seat's
    view (the same actions replay; in the auction the seat's own last three move too): the seat's view
    is the same, so its expected figures are, while the open-card ones follow the real cards."""
    from belot.bots import make_bot

    d = Deal(2, deal_hands(random.Random(11), 2))
    bots = [make_bot("heuristic", s) for s in range(4)]
    while not d.is_over:
        d.apply(bots[d.to_move].act(d.view(d.to_move)))
    steps = decisions_of(d)
    call = next(s for s in steps if s.kind == CALL and s.auction is not None and s.auction >= 2)
    card = next(s for s in steps if s.kind == CARD and s.trick == 3)
    rng = random.Random(0)
    for step, auction in ((call, True), (card, False)):
        others = []
        while len(others) < 2:
            o = _same_view_other_cards(d, step.index, step.seat, rng, auction)
            if o is not None:
                others.append(o)
        figures, opens = [], []
        for deal in (_replayed(d, [list(h) for h in d.dealt], step.index), *others):
            assert deal is not None
            view = deal.view(step.seat)
            assert view == step.view
            if auction:
                truth = World(tuple(mask_of(h) for h in deal.dealt), ((), (), (), ()))  # type: ignore[arg-type]
            else:
                truth = _truth(deal, step.seat)
            got = evaluate(analyst, view, step.kind, step.chosen, truth, analyst.rng(0, step.index))
            figures.append((got[0], got[2], [(o[0], o[1]) for o in got[4]]))
            opens.append([o[2] for o in got[4]])
        assert figures[0] == figures[1] == figures[2], step.kind
        assert opens[0] != opens[1] or opens[0] != opens[2], step.kind  # the real cards did change


@pytest.mark.parametrize("option,hand,declared", [
    ("OPT-EIGHT-SPLIT", "7C 8C 9C TC JC QC KC AC", ["TC JC QC KC AC", "7C 8C 9C"]),  # R7.2
    ("OPT-CARRE-FIRST", "TC TD TH TS 8C 9C JC QC", ["TC TD TH TS"]),  # R7.4: no quint 8C-QC
])
def test_the_best_declarations_judged_are_those_of_the_house_rules(option: str, hand: str, declared: list[str]) -> None:
    """R7.4 (the best set) under the options of R7.2 and R7.4: a seat that announced the best set the
    rules in force allow has lost nothing, and no set those rules refuse (an 8-card quint, a quint
    through a carré) is put beside it as the better choice."""
    from conftest import cards, make_hands

    from belot.contracts import AT, Rules

    d = Deal(3, make_hands({0: hand}), Rules((option,)))
    for call in (CALL_BASE + BID_BASE + AT, CALL_BASE, CALL_BASE, CALL_BASE):
        d.apply(call)
    ids = tuple(decl.declaration_for_cards(cards(x)).id for x in declared)  # type: ignore[union-attr]
    assert {DECLARE_BASE + i for i in ids} <= set(d.legal_actions())
    view = d.view(0)
    world = World(tuple(mask_of(h) for h in d.dealt), ((), (), (), ()))  # type: ignore[arg-type]
    best, best_open, loss, open_loss, options, worlds = evaluate(
        Analyst(), view, DECLARATION, 0, world, random.Random(0), [world], ids)
    assert (loss, open_loss, options, worlds) == (0.0, 0.0, (), 0)
    assert best == best_open
