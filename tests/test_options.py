"""House rules: every named option of docs/rules.md ("Options, precisely" and section 4), each under
its option and, unchanged, under the defaults; and random games under random option sets."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from typing import Any

import pytest
from conftest import cards, make_hands
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_legality import assert_apply_matches_legal

from belot import declarations as decl
from belot.auction import KONTRA, PASS, REKONTRA, SURKONTRA, Auction
from belot.cards import mask_of
from belot.contracts import (
    AT,
    CAPOT_EN,
    CAPOT_NI,
    CARRE_FIRST,
    CARRE_RANK,
    DEFAULT_RULES,
    EIGHT_SPLIT,
    LENGTH_FIRST,
    NO_SHUFFLE,
    NONZERO,
    SINGLE_CONTEST,
    SUPPORTED_OPTIONS,
    SURCONTRA,
    TABLES,
    VALAT_NO_DOUBLE,
    Rules,
)
from belot.errors import RecordError, RuleError
from belot.game import CALL_BASE, DECLARE_BASE, PLAY, Deal, Match, cut_pack, deal_pack, gathered_pack
from belot.record import replay, to_json
from belot.scoring import deal_result, score_deal

NONE: list[list[int]] = [[], [], [], []]


def rules(*options: str) -> Rules:
    return Rules.from_options(list(options))


def seq(suit: int, start: int, length: int) -> int:
    return decl._SEQ_IDS[(suit, start, length)]


def carre(rank: int) -> int:
    return decl._CARRE_IDS[rank]


# -- a rule set, however it is made --------------------------------------------------------------

@pytest.mark.parametrize("options, error", [
    (("OPT-BAD",), "unknown rule option 'OPT-BAD'"),
    ((CAPOT_NI, CAPOT_EN), "exclude each other"),
    (NONZERO, "rule options are a list of names, not 'OPT-NONZERO'"),
    ((7,), "rule option 7 is not a name"),
    (None, "rule options are a list of names, not None"),
])
def test_rules_made_directly_are_checked_as_from_options(options: Any, error: str) -> None:
    """``Rules(...)`` took any options before: an unknown name, two that exclude each other (R12), or
    a string, whose ``has`` then answered for every part of the name."""
    from belot.contracts import UnsupportedOption
    with pytest.raises(UnsupportedOption, match=error):
        Rules(options)
    if isinstance(options, tuple):
        with pytest.raises(UnsupportedOption, match=error):
            Rules.from_options(list(options))


def test_rules_keep_each_option_once_and_compare_as_sets_made_alike() -> None:
    assert Rules([NONZERO, SURCONTRA, NONZERO]) == Rules((NONZERO, SURCONTRA)) == rules(NONZERO, SURCONTRA)
    assert hash(Rules([NONZERO])) == hash(rules(NONZERO))


@pytest.mark.parametrize("bad", [(NONZERO,), NONZERO, 5])
def test_a_deal_or_match_takes_a_rules_object(bad: Any) -> None:
    """A tuple or name given where a `Rules` goes failed at the first card (AttributeError)."""
    with pytest.raises(ValueError, match=r"rules are a belot\.Rules"):
        Deal.shuffled(random.Random(1), 0, rules=bad)
    with pytest.raises(ValueError, match=r"rules are a belot\.Rules"):
        Match(rules=bad, rng=random.Random(1))


# -- R11.4 and OPT-SURCONTRA ------------------------------------------------------------------

def _auction(calls: list[int], surcontra: bool) -> Auction:
    a = Auction(0, surcontra=surcontra)
    for c in calls:
        a.apply(c)
    return a


def test_surcontra_doubles_a_rekontra_to_x8():
    """OPT-SURCONTRA (R3.3, R11.4): ♥ by B, kontra, rekontra, surkontra, T(B) 92, T(D) 70: B 16x8 = 128."""
    a = _auction([1 + 2, KONTRA, REKONTRA, KONTRA], surcontra=True)
    assert a.multiplier == 8 and a.calls[-1] == SURKONTRA
    assert not a.legal_mask() >> KONTRA & 1 and not a.legal_mask() >> REKONTRA & 1  # no fourth level
    assert score_deal(2, 0, (92, 70), 8, 0, rules=DEFAULT_RULES).points == (128, 0)
    a.apply(1 + 3)  # R3.4: a higher bid removes every level
    assert a.multiplier == 1


def test_surcontra_only_by_the_doubling_team_and_not_by_default():
    with pytest.raises(RuleError, match=r"no third level .*\(R3\.3\)"):
        _auction([1 + 2, KONTRA, REKONTRA, KONTRA], surcontra=False)
    # seat 0 bid, seat 1 doubled, seat 2 redoubled, seat 3 passes: seat 0 (the bidders) may not surkontra
    with pytest.raises(RuleError, match=r"only the team that doubled .*\(R3\.3\)"):
        _auction([1 + 2, KONTRA, REKONTRA, PASS, KONTRA], surcontra=True)
    a = _auction([1 + 2, KONTRA, REKONTRA, PASS, PASS, KONTRA], surcontra=True)  # seat 1, who doubled
    assert a.multiplier == 8


# -- R7 options ---------------------------------------------------------------------------------

def test_eight_card_run_splits_into_quint_and_tierce():
    """OPT-EIGHT-SPLIT (R7.2): an 8-card run of clubs, nothing declared against it: 100, or 120."""
    hand = mask_of(cards("7C 8C 9C TC JC QC KC AC"))
    assert decl.declarable(hand, [], DEFAULT_RULES) == [seq(0, 0, 8)]
    assert decl.contest(([seq(0, 0, 8)], []), rules=DEFAULT_RULES) == [100, 0]
    split = rules(EIGHT_SPLIT)
    assert sorted(decl.declarable(hand, [], split)) == sorted([seq(0, 3, 5), seq(0, 0, 3)])
    assert decl.declarable(hand, [seq(0, 3, 5)], split) == [seq(0, 0, 3)]
    assert decl.contest(([seq(0, 3, 5), seq(0, 0, 3)], []), split) == [120, 0]
    # and in a deal: both announced and accepted, the whole run refused (R7.4)
    d = _deal_in_play(2, make_hands({0: "7C 8C 9C TC JC QC KC AC"}), split)
    with pytest.raises(RuleError):
        d.apply(DECLARE_BASE + seq(0, 0, 8))
    d.apply(DECLARE_BASE + seq(0, 3, 5))
    d.apply(DECLARE_BASE + seq(0, 0, 3))
    assert d.declared[0] == [seq(0, 3, 5), seq(0, 0, 3)]


def test_carre_first_refuses_a_sequence_through_a_held_carre():
    """OPT-CARRE-FIRST (R7.4): holding KC KD KH KS and QD JD TD 9D, the quint 9D-KD is refused."""
    hand = mask_of(cards("KC KD KH KS QD JD TD 9D"))
    quint, quarte = seq(1, 2, 5), seq(1, 2, 4)
    assert quint in decl.declarable(hand, [], DEFAULT_RULES)  # by default: the quint and no carré ...
    assert quarte in decl.declarable(hand, [carre(6)], DEFAULT_RULES)  # ... or the carré and the quarte
    first = rules(CARRE_FIRST)
    assert sorted(decl.declarable(hand, [], first)) == sorted([carre(6), quarte])
    assert decl.best_declarations(hand, first) == [carre(6), quarte]
    d = _deal_in_play(2, make_hands({0: "KC KD KH KS QD JD TD 9D"}), first)
    with pytest.raises(RuleError) as e:
        d.apply(DECLARE_BASE + quint)
    assert e.value.rule == "R7.4"


def test_length_first():
    """R7.6 (b): 6-card quint to Q vs 5-card quint to K: the second team; OPT-LENGTH-FIRST: the first."""
    six_to_q, five_to_k = seq(0, 0, 6), seq(1, 2, 5)
    assert decl.contest(([six_to_q], [five_to_k]), rules=DEFAULT_RULES) == [0, 100]
    assert decl.contest(([six_to_q], [five_to_k]), rules(LENGTH_FIRST)) == [100, 0]


def test_single_contest():
    """R7.6 (d): quarte vs tierce + carré of Q: 50 and 100; OPT-SINGLE-CONTEST: 0 and 120."""
    by_team = ([seq(0, 0, 4)], [seq(1, 0, 3), carre(5)])
    assert decl.contest(by_team, rules=DEFAULT_RULES) == [50, 100]
    assert decl.contest(by_team, rules(SINGLE_CONTEST)) == [0, 120]
    # an exact tie cancels all of both: quarte to T vs quarte to T
    assert decl.contest(([seq(0, 0, 4)], [seq(1, 0, 4)]), rules(SINGLE_CONTEST)) == [0, 0]
    # equal points: a carré (100) beats a quint (100)
    assert decl.contest(([seq(0, 0, 5)], [carre(5)]), rules(SINGLE_CONTEST)) == [0, 100]


def test_carre_rank():
    """R7.6 (e): carré T vs carré K: the tens; OPT-CARRE-RANK: the kings. (f) 9s beat aces either way."""
    assert decl.contest(([carre(3)], [carre(6)]), rules=DEFAULT_RULES) == [100, 0]
    assert decl.contest(([carre(3)], [carre(6)]), rules(CARRE_RANK)) == [0, 100]
    for r in (Rules(), rules(CARRE_RANK)):
        assert decl.contest(([carre(2)], [carre(7)]), r) == [150, 0]


# -- R10, R11 options ---------------------------------------------------------------------------

def test_nonzero():
    """OPT-NONZERO (R10, R11.1): ♦ made 158-4: B 16, D 0; with the option B 15, D 1."""
    assert score_deal(1, 0, (158, 4), 1, 0, rules=DEFAULT_RULES).points == (16, 0)
    assert score_deal(1, 0, (158, 4), 1, 0, rules(NONZERO)).points == (15, 1)
    assert score_deal(1, 0, (158, 4), 1, 7, rules(NONZERO)).points == (22, 1)  # the pot is unchanged
    assert score_deal(1, 0, (162, 0), 1, 0, rules(NONZERO)).points == (16, 0)  # no raw points, no point


def test_valat_no_double():
    """Section 4 row 24: ♠, kontra, 252 (valat) to 0: B 50; OPT-VALAT-NO-DOUBLE: 25."""
    r = deal_result(3, 0, 2, 0, (162, 0), NONE, [], valat=0, rules=DEFAULT_RULES)
    assert r.totals == (252, 0) and r.points == (50, 0) and r.rounding() == 25
    r = deal_result(3, 0, 2, 0, (162, 0), NONE, [], valat=0, rules=rules(VALAT_NO_DOUBLE))
    assert r.points == (25, 0) and r.multiplier == 2 and r.stake == 1 and r.rounding() == (25, 0)
    # a doubled deal without a valat is still doubled
    r = deal_result(3, 0, 2, 0, (100, 62), NONE, [], tricks=[0, 1] * 4, rules=rules(VALAT_NO_DOUBLE))
    assert r.points == (32, 0)


# -- R12 options --------------------------------------------------------------------------------

class _Scored:
    """A finished deal as `Match` sees it: its result."""

    def __init__(self, result: Any) -> None:
        self.result = result


def _match_after_valat(r: Rules) -> Match:
    """140-100, team 1 (seats 0, 2) makes a valat in ♠: +25, 165-100."""
    m = Match(r)
    m.score = [140, 100]
    m._close_deal(_Scored(deal_result(3, 0, 1, 0, (162, 0), NONE, [], valat=0, rules=DEFAULT_RULES)))  # type: ignore[arg-type]
    assert m.score == [165, 100]
    return m


def test_capot_rules():
    """R12.2 and OPT-CAPOT-NI: no win on a valat; next deal team 1 goes inside, team 2 takes 16:
    165-116, team 1 wins, but with OPT-CAPOT-NI (team 1 scored 0 in that deal) play goes on."""
    inside = deal_result(2, 0, 1, 0, (66, 96), NONE, [], tricks=[0, 1] * 4, rules=DEFAULT_RULES)  # ♥ by team 1, 76-86
    assert inside.points == (0, 16)
    for r, winner in ((Rules(), 0), (rules(CAPOT_NI), None)):
        m = _match_after_valat(r)
        assert m.winner is None
        m._close_deal(_Scored(inside))  # type: ignore[arg-type]
        assert m.score == [165, 116] and m.winner == winner


def test_capot_en_raises_the_target():
    """OPT-CAPOT-EN (R12.2): after the valat the target becomes 166; next deal team 1 +7, team 2 +9:
    172-109, team 1 wins."""
    m = _match_after_valat(rules(CAPOT_EN))
    assert m.winner is None and m.target == 166 and m.start_target == 151
    made = deal_result(2, 1, 1, 0, (66, 96), NONE, [], tricks=[0, 1] * 4, rules=DEFAULT_RULES)  # ♥ by team 2, made 96-66
    assert made.points == (7, 9)
    m._close_deal(_Scored(made))  # type: ignore[arg-type]
    assert m.score == [172, 109] and m.winner == 0
    assert to_json(m)["target"] == 151  # the record keeps the target the match began with


# -- R2.2 and OPT-NO-SHUFFLE ---------------------------------------------------------------------

def test_no_shuffle_deals_the_gathered_and_cut_pack():
    """OPT-NO-SHUFFLE (R2.2): after the first deal every pack is the last deal's cards gathered, then
    cut (the top c cards under the pack, 2 <= c <= 30); the records hold the hands, so replay is
    unchanged."""
    from belot.commands.random_match import random_match

    m = random_match(4, rules(NO_SHUFFLE))
    assert len(m.deals) >= 3
    for prev, d in zip(m.deals, m.deals[1:]):
        pack = gathered_pack(prev)
        assert sorted(pack) == list(range(32))
        cuts = [c for c in range(2, 31) if deal_pack(pack[c:] + pack[:c], d.dealer) == [list(h) for h in d.dealt]]
        assert len(cuts) == 1, "the next deal is not the gathered pack, cut once"
    assert cut_pack(list(range(32)), random.Random(1))[-2:] != [30, 31]  # a cut moves the top under
    assert to_json(replay(to_json(m))) == to_json(m)


def test_no_shuffle_refuses_to_gather_a_deal_recorded_with_five_cards_a_hand():
    """OPT-NO-SHUFFLE (R2.2) after an all-pass deal that a record lists with the first five cards of
    each hand (R2.3, docs/record-format.md): the order of the twelve cards never dealt is not in the
    record, so the next pack cannot be gathered; going on is refused naming the rule, not an
    IndexError (`belot play --resume` of such a record stopped with a traceback)."""
    doc = {"format": "belot-record/1", "options": [NO_SHUFFLE], "deals": [
        {"dealer": 0, "hands": [["7C", "8C", "9C", "TC", "JC"], ["QC", "KC", "AC", "7D", "8D"],
                                ["9D", "TD", "JD", "QD", "KD"], ["AD", "7H", "8H", "9H", "TH"]],
         "auction": ["pass"] * 4}]}
    m = replay(doc)
    assert m.results[-1].outcome == "redeal" and m.current is None
    with pytest.raises(RuleError) as e:
        m.next_hands(random.Random(1))
    assert "(R2.2)" in str(e.value)
    assert len(replay(dict(doc, options=[])).next_hands(random.Random(1))[0]) == 8  # shuffled afresh


# -- whole games under random option sets --------------------------------------------------------

OPTION_SETS = st.sets(st.sampled_from(sorted(SUPPORTED_OPTIONS))).filter(lambda s: not {CAPOT_NI, CAPOT_EN} <= s)


def _deal_in_play(contract: int, hands: list[list[int]], r: Rules) -> Deal:
    d = Deal(3, hands, r)  # seat 0 is the forehand and bids
    d.apply(CALL_BASE + 1 + contract)
    for _ in range(3):
        d.apply(CALL_BASE)
    assert d.phase == PLAY and d.to_move == 0
    return d


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0, max_value=2**32 - 1), OPTION_SETS)
def test_random_matches_under_random_options(seed, options):
    """Every match ends, the card points of each deal add up to the contract's total, `apply` accepts
    exactly the legal actions, and the record round-trips with its options."""
    r = rules(*sorted(options))
    m = Match(r, rng=random.Random(seed), target=101)
    rng = random.Random(~seed)
    steps = 0
    while not m.is_over:
        d = m.current
        assert d is not None
        if steps % 7 == 0:
            assert_apply_matches_legal(d)
        legal = m.legal_actions()
        m.apply(CALL_BASE if legal[0] == CALL_BASE and rng.random() < 0.6 else rng.choice(legal))
        steps += 1
        assert steps < 50_000
    for res in m.results:
        if res.contract >= 0:
            assert sum(res.card_points) == TABLES[res.contract].total
    doc = json.loads(json.dumps(to_json(m)))
    assert doc["options"] == list(r.options)
    again = replay(doc)
    assert to_json(again) == doc and again.results == m.results and again.winner == m.winner


def _first_match_with(option: str, found: Any) -> dict[str, Any]:
    from belot.commands.random_match import random_match

    for seed in range(400):
        doc = to_json(random_match(seed, rules(option)))
        if found(doc):
            return doc
    raise AssertionError(f"no random match of 400 used {option}")


@pytest.mark.parametrize("option,found,rule", [
    (SURCONTRA, lambda doc: any("surkontra" in d["auction"] for d in doc["deals"]), "R3.3"),
    (EIGHT_SPLIT, lambda doc: False, "R7.4"),
])
def test_records_that_use_an_option_are_refused_under_the_defaults(option, found, rule, tmp_path):
    """A record whose moves need an option replays under it, and under the defaults is refused
    naming the rule (`belot replay` exits 2)."""
    if option == EIGHT_SPLIT:  # a random deal with an 8-card run is rare: play one
        m = Match(rules(EIGHT_SPLIT), first_dealer=3)
        d = m.deal(make_hands({0: "7C 8C 9C TC JC QC KC AC"}))
        for c in (CALL_BASE + 1 + AT, CALL_BASE, CALL_BASE, CALL_BASE):
            m.apply(c)
        m.apply(DECLARE_BASE + seq(0, 3, 5))
        m.apply(DECLARE_BASE + seq(0, 0, 3))
        while not d.is_over:
            m.apply(m.legal_actions()[0])
        doc = to_json(m)
    else:
        doc = _first_match_with(option, found)
    replay(doc)
    plain = dict(doc, options=[])
    with pytest.raises(RecordError) as e:
        replay(plain)
    assert f"({rule})" in str(e.value)
    path = tmp_path / "plain.json"
    path.write_text(json.dumps(plain), encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "belot", "replay", str(path)], capture_output=True, text=True,
                          check=False)
    assert proc.returncode == 2 and f"({rule})" in proc.stderr


def test_random_match_cli_takes_options(tmp_path):
    out = tmp_path / "m.json"
    proc = subprocess.run([sys.executable, "-m", "belot", "random-match", "--seed", "5", "--option", SURCONTRA,
                           "--option", NONZERO, "--out", str(out)], capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(out.read_text())["options"] == [SURCONTRA, NONZERO]
    proc = subprocess.run([sys.executable, "-m", "belot", "random-match", "--seed", "5", "--option", "OPT-CAPOT-NI",
                           "--option", "OPT-CAPOT-EN"], capture_output=True, text=True, check=False)
    assert proc.returncode == 2 and "exclude each other" in proc.stderr
