"""The engine against an independent, naive reading of the rulebook (tests/reference_rules.py).

Inputs come from the whole input space: random matches under random option sets where, in every
reachable state, the engine's legal actions must be the reference's (and, in some deals, each of the
163 actions is applied: accepted exactly when legal, refused with RuleError and no change otherwise);
every deal's result and the match's score, target and winner must be the reference's; and the
functions where the engine is clever (bit masks, precomputed tables) are compared on random inputs
beyond what play reaches: R5 legal cards on random tricks, R7.2-R7.4 declarable on random hands,
R7.6 contests, R9-R11 scoring on random totals (hanging ones included), R12 on random deal sequences.
"""

from __future__ import annotations

import random

import pytest
import reference_rules as ref
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from belot import declarations as decl
from belot import inference
from belot.cards import mask_of
from belot.contracts import SUPPORTED_OPTIONS, TABLES, Rules
from belot.errors import RuleError
from belot.game import NUM_ACTIONS, Deal, Match, deal_pack, gathered_pack
from belot.play import legal_cards
from belot.scoring import REDEAL, DealResult, deal_result

OPTIONS = sorted(SUPPORTED_OPTIONS)
OPTION_SETS = st.sets(st.sampled_from(OPTIONS)).filter(lambda s: not {"OPT-CAPOT-NI", "OPT-CAPOT-EN"} <= s)
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)


def random_options(rng: random.Random) -> frozenset[str]:
    while True:
        opts = frozenset(o for o in OPTIONS if rng.random() < 0.3)
        if not {"OPT-CAPOT-NI", "OPT-CAPOT-EN"} <= opts:
            return opts


def test_the_declaration_ids_are_the_documented_ones():
    """The reference numbers declarations as belot.declarations documents (its own construction)."""
    assert len(ref.ALL_DECLS) == decl.NUM_DECLARATIONS == 90
    for i, d in enumerate(ref.ALL_DECLS):
        e = decl.DECLARATIONS[i]
        assert {ref.name(c) for c in e.cards} == set(d.cards)
        assert (e.kind, e.value, e.length) == (d.kind, d.value, d.length)


# -- whole matches, state by state -----------------------------------------------------------------

def _snapshot(d: Deal) -> tuple[object, ...]:
    return (d.phase, d.to_move, tuple(d.hands), tuple(d.actions), tuple(d.belotes),
            tuple(map(tuple, d.declared)), tuple(d.trick), d.result, d.auction.multiplier)


def _check_every_action(d: Deal, legal: set[int]) -> None:
    """Each of the 163 actions: accepted exactly when the reference says legal, else RuleError and
    the state unchanged."""
    before = _snapshot(d)
    for action in range(NUM_ACTIONS):
        trial = d.clone()
        try:
            trial.apply(action)
        except RuleError:
            assert action not in legal, f"legal action {action} refused"
            assert _snapshot(trial) == before, f"refused action {action} changed the state"
        else:
            assert action in legal, f"action {action} accepted but not legal by the rulebook"
    assert _snapshot(d) == before


def _check_facts_hold(d: Deal, me: int) -> None:
    """What a seat infers from its view (belot.inference, R5.2-R5.5, R7.4, R7.7) is true of the real
    deal, under the options in force."""
    f = inference.facts(d.view(me))
    for s in range(4):
        if s == me:
            continue
        assert d.hands[s] & f.cannot[s] == 0, "R5: a seat holds a card its play ruled out"
        assert f.must[s] & ~d.hands[s] == 0, "R7.7: a belote partner is not held"
        assert d.hands[s].bit_count() == f.sizes[s]
        if d.declared[s]:
            kinds = [decl.DECLARATIONS[i].kind for i in d.declared[s]]
            assert inference.announceable(mask_of(d.dealt[s]), kinds, d.rules) is not None


def _check_result(r: DealResult, o: ref.DealOutcome) -> None:
    assert list(r.card_points) == o.card_points
    assert list(r.declarations) == o.declarations
    assert list(r.belote) == o.belote
    assert r.valat == o.valat
    assert list(r.totals) == o.totals
    assert r.outcome == o.outcome
    assert list(r.points) == o.points
    assert r.pot == o.pot
    assert list(r.tricks) == o.tricks


def play_against_reference(seed: int, options: frozenset[str], target: int, pass_bias: float,
                           every_action: float) -> Match:
    rng = random.Random(seed)
    m = Match(Rules.from_options(sorted(options)), target=target, rng=random.Random(seed + 1))
    rm = ref.RefMatch(target=target, options=options)
    pot = 0
    steps = 0
    r: ref.RefDeal | None = None
    while not m.is_over:
        d = m.current
        assert d is not None
        last, r = r, ref.RefDeal(d.dealer, [list(h) for h in d.dealt], options, pot)
        assert d.to_move == r.to_move
        if "OPT-NO-SHUFFLE" in options and last is not None:
            pack = ref.gathered_pack(last)
            assert gathered_pack(m.deals[-2]) == pack and sorted(pack) == list(range(32))
            assert any(ref.deal_from_pack(pack[c:] + pack[:c], d.dealer) == [list(h) for h in d.dealt]
                       for c in range(2, 31)), "R2.2 OPT-NO-SHUFFLE: not the gathered pack cut"
        else:
            assert ref.deal_from_pack(list(range(32)), d.dealer) == deal_pack(list(range(32)), d.dealer)
        while not d.is_over:
            legal = r.legal_actions()
            assert set(d.legal_actions()) == legal, (d.phase, r.trick, r.hands[r.to_move])
            assert len(d.legal_actions()) == len(legal)
            if rng.random() < every_action:
                _check_every_action(d, legal)
            if d.phase == "play" and rng.random() < 0.2:
                _check_facts_hold(d, rng.randrange(4))
            bidding = ref.CALL_ACTIONS in legal
            action = ref.CALL_ACTIONS if bidding and rng.random() < pass_bias else rng.choice(sorted(legal))
            m.apply(action)
            r.apply(action)
            assert d.to_move == r.to_move or d.is_over
            steps += 1
            assert steps < 20_000
        res = d.result
        assert res is not None
        if r.result is None:
            assert res.outcome == REDEAL and res.pot == pot
        else:
            _check_result(res, r.result)
            pot = r.result.pot
        rm.after_deal(r.result.points if r.result else None, bool(r.result and r.result.valat is not None))
        assert m.score == rm.score and m.winner == rm.winner and m.target == rm.target and m.pot == pot
    assert rm.winner is not None
    return m


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(SEEDS, OPTION_SETS, st.sampled_from([151, 61]), st.sampled_from([0.0, 0.6, 0.85]))
def test_random_matches_follow_the_reference_in_every_state(seed, options, target, pass_bias):
    """R1-R12 and the options: legal actions in every state, every deal's result, the match's end."""
    play_against_reference(seed, frozenset(options), target, pass_bias, every_action=0.0)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(SEEDS, OPTION_SETS, st.sampled_from([0.0, 0.7]))
def test_every_action_in_every_state_is_accepted_exactly_when_the_rulebook_allows(seed, options, pass_bias):
    """All 163 actions in every state of a short match: accepted iff legal by the reference."""
    play_against_reference(seed, frozenset(options), 21, pass_bias, every_action=1.0)


# -- the clever parts on inputs play rarely reaches ---------------------------------------------------

def test_r5_legal_cards_on_random_tricks():
    """R5.2-R5.5: `play.legal_cards` (masks) against the reference on 20,000 random tricks and hands."""
    rng = random.Random(11)
    for _ in range(20_000):
        deck = list(range(32))
        rng.shuffle(deck)
        contract = rng.randrange(6)
        cname = ref.CONTRACTS[contract]
        n = rng.randrange(4)
        leader = rng.randrange(4)
        trick = [((leader + k) % 4, deck[k]) for k in range(n)]
        seat = (leader + n) % 4
        hand = deck[4:4 + rng.randrange(1, 9)]
        rtrick = [(s, ref.name(c)) for s, c in trick]
        expected = ref.legal_cards([ref.name(c) for c in hand], rtrick, seat, cname)
        if trick:
            winner = ref.trick_winner(rtrick, cname)
            win_card = next(c for s, c in trick if s == winner)
            got = legal_cards(mask_of(hand), TABLES[contract], trick[0][1] >> 3, win_card, winner == (seat + 2) % 4)
        else:
            got = legal_cards(mask_of(hand), TABLES[contract], -1, -1, False)
        assert {ref.name(c) for c in range(32) if got >> c & 1} == expected, (cname, rtrick, hand)


@pytest.mark.parametrize("seed", range(4))
def test_r7_declarable_on_random_hands_under_random_options(seed):
    """R7.2-R7.4 with OPT-CARRE-FIRST and OPT-EIGHT-SPLIT: `declarations.declarable` against the
    reference on random hands (rich in runs and carrés) and random earlier announcements."""
    rng = random.Random(seed)
    for _ in range(3_000):
        options = random_options(rng)
        rules = Rules.from_options(sorted(options))
        cards = set(rng.sample(range(32), 8))
        if rng.random() < 0.4:  # a carré
            r = rng.choice(range(2, 8))
            cards |= {8 * s + r for s in range(4)}
        if rng.random() < 0.4:  # a long run
            s, start = rng.randrange(4), rng.randrange(4)
            cards |= {8 * s + k for k in range(start, rng.randrange(start + 3, 9))}
        hand = [ref.name(c) for c in sorted(cards)]
        announced: list[int] = []
        while True:
            got = decl.declarable(mask_of(cards), announced, rules)
            expected = ref.declarable(hand, [ref.ALL_DECLS[i] for i in announced], options)
            assert {ref.ALL_DECLS[i] for i in got} == expected, (hand, announced, options)
            assert len(got) == len(expected)
            if not got:
                break
            announced.append(rng.choice(got))


def test_r7_6_contest_on_random_announcements_under_random_options():
    """R7.6 with OPT-LENGTH-FIRST, OPT-CARRE-RANK and OPT-SINGLE-CONTEST on 30,000 random pairs of
    announcements (equal bests, carrés of every rank, long quints)."""
    rng = random.Random(12)
    for _ in range(30_000):
        options = random_options(rng)
        rules = Rules.from_options(sorted(options))
        pick = [rng.randrange(84, 90) if rng.random() < 0.3 else rng.randrange(84) for _ in range(6)]
        by_team = ([pick[k] for k in range(rng.choice([0, 1, 1, 2, 3]))],
                   [pick[3 + k] for k in range(rng.choice([0, 1, 1, 2, 3]))])
        expected = ref.contest(([ref.ALL_DECLS[i] for i in by_team[0]], [ref.ALL_DECLS[i] for i in by_team[1]]),
                               options)
        assert decl.contest(by_team, rules) == expected, (by_team, options)


def test_r9_r10_r11_deal_scoring_on_random_totals_under_random_options():
    """R9.1-R11.5 and OPT-NONZERO, OPT-VALAT-NO-DOUBLE: `scoring.deal_result` against the reference
    on 30,000 random deals' facts (a third built to hang), every multiplier, a carried pot."""
    rng = random.Random(13)
    raw_total = {0: 162, 1: 162, 2: 162, 3: 162, 4: 130, 5: 258}
    for _ in range(30_000):
        options = random_options(rng)
        rules = Rules.from_options(sorted(options))
        contract = rng.randrange(6)
        cname = ref.CONTRACTS[contract]
        declarer = rng.randrange(4)
        mult = rng.choice([1, 1, 2, 4, 8])
        pot = rng.choice([0, 0, rng.randrange(60)])
        declared = [[rng.randrange(90) for _ in range(rng.choice([0, 0, 0, 1, 2]))] for _ in range(4)]
        belotes = [rng.randrange(4) for _ in range(rng.choice([0, 0, 1, 2] if contract != 4 else [0]))]
        total = raw_total[contract]
        valat = rng.choice([None, None, None, 0, 1])
        if valat is not None:
            cp = [0, 0]
            cp[valat] = total
        else:
            c0 = rng.randrange(total + 1)
            cp = [c0, total - c0]
        mult_nt = 2 if contract == 4 else 1
        rdecl = [ref.ALL_DECLS[i] for i in declared[0] + declared[2]], [ref.ALL_DECLS[i] for i in declared[1] + declared[3]]
        dpts = [0, 0] if contract == 4 else ref.contest(rdecl, options)
        extra = [dpts[t] + 20 * sum(1 for s in belotes if s % 2 == t) + (90 if valat == t else 0) for t in (0, 1)]
        if valat is None and rng.random() < 0.33:  # make the totals equal when the card points allow
            diff = extra[1] - extra[0]
            if (total * mult_nt + diff) % (2 * mult_nt) == 0:
                c0 = (total * mult_nt + diff) // (2 * mult_nt)
                if 0 <= c0 <= total:
                    cp = [c0, total - c0]
        r = deal_result(contract, declarer, mult, pot, (cp[0], cp[1]), declared, belotes, valat=valat, rules=rules)
        totals = [cp[t] * mult_nt + extra[t] for t in (0, 1)]
        b = declarer % 2
        s = ref.score(cname, totals[b], totals[1 - b], mult, pot, valat is not None, options)
        gp = [0, 0]
        gp[b], gp[1 - b] = s.gp_b, s.gp_d
        got = (list(r.totals), r.outcome, list(r.points), r.pot)
        assert got == (totals, s.outcome, gp, s.pot), (cname, declarer, mult, pot, cp, declared, belotes, valat, options)


class _Finished:
    """What `Match._close_deal` reads of a finished deal."""

    def __init__(self, result: DealResult) -> None:
        self.result = result


def _synthetic(points: tuple[int, int], valat: int | None, redeal: bool) -> DealResult:
    if redeal:
        return DealResult(-1, -1, 1, (), (0, 0), (0, 0), (0, 0), None, (0, 0), REDEAL, (0, 0), 0)
    return DealResult(2, 0, 1, (), (0, 0), (0, 0), (0, 0), valat, (0, 0), "made", points, 0)


@pytest.mark.parametrize("option", [None, "OPT-CAPOT-NI", "OPT-CAPOT-EN"])
def test_r12_match_end_on_random_deal_sequences(option):
    """R12.1-R12.2, OPT-CAPOT-NI, OPT-CAPOT-EN: the score, target and winner after every deal of
    5,000 random sequences rich in valats, zero scores, ties and all-pass deals near the target."""
    options = frozenset([option] if option else [])
    rng = random.Random(14)
    for _ in range(5_000):
        target = rng.choice([151, 30, 5])
        m = Match(Rules.from_options(sorted(options)), target=target)
        rm = ref.RefMatch(target=target, options=options)
        while rm.winner is None and len(rm.score) and max(rm.score) < 2 * target + 200:
            redeal = rng.random() < 0.1
            valat = None if redeal or rng.random() < 0.6 else rng.randrange(2)
            points = (rng.choice([0, 0, rng.randrange(30)]), rng.choice([0, 0, rng.randrange(30)]))
            if rng.random() < 0.2:
                points = (points[0], points[0])
            m._close_deal(_Finished(_synthetic(points, valat, redeal)))  # type: ignore[arg-type]
            rm.after_deal(None if redeal else list(points), valat is not None)
            assert (m.score, m.winner, m.target) == (rm.score, rm.winner, rm.target)


# -- the reference itself reproduces the rulebook's worked examples (section 4, the options) ----------

# (#, contract, multiplier, T(B), T(D), H, valat, outcome, gp B, gp D, pot after, options)
SCORING_ROWS = [
    (1, "H", 1, 96, 66, 0, False, "made", 9, 7, 0, ()),
    (2, "S", 1, 86, 76, 0, False, "made", 8, 8, 0, ()),
    (3, "D", 1, 156, 6, 0, False, "made", 15, 1, 0, ()),
    (4, "C", 1, 81, 81, 0, False, "hanging", 0, 8, 8, ()),
    (5, "D", 1, 100, 62, 8, False, "made", 18, 6, 0, ()),
    (6, "H", 1, 76, 86, 0, False, "inside", 0, 16, 0, ()),
    (7, "S", 1, 106, 106, 0, False, "hanging", 0, 10, 11, ()),
    (8, "D", 1, 112, 70, 0, False, "made", 11, 7, 0, ()),
    (9, "H", 1, 92, 90, 0, False, "made", 9, 9, 0, ()),
    (10, "AT", 1, 224, 34, 0, False, "made", 22, 4, 0, ()),
    (11, "AT", 1, 194, 164, 0, False, "made", 19, 17, 0, ()),
    (12, "AT", 1, 154, 154, 0, False, "hanging", 0, 15, 16, ()),
    (13, "AT", 1, 125, 133, 0, False, "inside", 0, 26, 0, ()),
    (14, "NT", 1, 168, 92, 0, False, "made", 17, 9, 0, ()),
    (15, "NT", 1, 128, 132, 0, False, "inside", 0, 26, 0, ()),
    (16, "NT", 1, 130, 130, 0, False, "hanging", 0, 13, 13, ()),
    (17, "H", 2, 110, 72, 0, False, "made", 36, 0, 0, ()),
    (18, "H", 2, 70, 92, 0, False, "inside", 0, 32, 0, ()),
    (19, "AT", 4, 140, 118, 0, False, "made", 104, 0, 0, ()),
    (20, "C", 2, 81, 81, 0, False, "hanging", 0, 0, 32, ()),
    (21, "S", 1, 252, 0, 0, True, "made", 25, 0, 0, ()),
    (22, "NT", 1, 350, 0, 0, True, "made", 35, 0, 0, ()),
    (23, "AT", 1, 0, 348, 0, True, "inside", 0, 35, 0, ()),
    (24, "S", 2, 252, 0, 0, True, "made", 50, 0, 0, ()),
    (24, "S", 2, 252, 0, 0, True, "made", 25, 0, 0, ("OPT-VALAT-NO-DOUBLE",)),
    (25, "H", 2, 70, 92, 11, False, "inside", 0, 43, 0, ()),
    ("NONZERO", "D", 1, 158, 4, 0, False, "made", 16, 0, 0, ()),
    ("NONZERO", "D", 1, 158, 4, 0, False, "made", 15, 1, 0, ("OPT-NONZERO",)),
    ("SURCONTRA", "H", 8, 92, 70, 0, False, "made", 128, 0, 0, ("OPT-SURCONTRA",)),
]


@pytest.mark.parametrize("row", SCORING_ROWS, ids=[f"{r[0]}-{'-'.join(r[-1])}" for r in SCORING_ROWS])
def test_reference_scores_the_worked_examples(row):
    _, contract, mult, tb, td, pot, valat, outcome, gb, gd, after, options = row
    assert ref.score(contract, tb, td, mult, pot, valat, frozenset(options)) == ref.Score(outcome, gb, gd, after)


def test_reference_plays_the_worked_examples():
    """Section 4: card play (1)-(6), belote (7)-(8), declaration contests (a)-(f)."""
    assert ref.legal_cards(["7H", "AS"], [(1, "AC")], 2, "H") == {"7H"}  # (1)
    assert ref.legal_cards(["7H", "AS"], [(0, "AC"), (1, "7C")], 2, "H") == {"7H", "AS"}  # (2)
    assert ref.legal_cards(["7H", "AS"], [(0, "TC"), (1, "QH")], 2, "H") == {"7H", "AS"}  # (3)
    assert ref.legal_cards(["JH", "8H"], [(0, "9H"), (1, "7H")], 2, "H") == {"JH"}  # (4)
    assert ref.legal_cards(["QS", "9S"], [(0, "KS"), (1, "AS")], 2, "AT") == {"9S"}  # (5)
    assert ref.legal_cards(["AD", "8D"], [(0, "7D")], 1, "NT") == {"AD", "8D"}  # (6)
    assert ref.belote_allowed("QH", ["QH", "KH", "7S"], [(1, "AC")], "H")  # (7)
    assert not ref.belote_allowed("KH", ["QH", "KH", "7S"], [(1, "AC")], "AT")  # (8)
    assert not ref.belote_allowed("QH", ["QH", "7S"], [], "AT")  # (8), the queen led later
    assert not ref.belote_allowed("AH", ["AH", "KH", "QH"], [], "H")  # never with the ace

    def seq(text: str) -> ref.Decl:
        cards = text.split()
        return ref.sequence(cards[0][1], ref.RANKS.index(cards[0][0]), len(cards))

    none: frozenset[str] = frozenset()
    assert ref.contest(([seq("JS QS KS")], [seq("TH JH QH")]), none) == [20, 0]  # (a)
    six_q, five_k = seq("7C 8C 9C TC JC QC"), seq("9D TD JD QD KD")
    assert ref.contest(([six_q], [five_k]), none) == [0, 100]  # (b)
    assert ref.contest(([six_q], [five_k]), frozenset({"OPT-LENGTH-FIRST"})) == [100, 0]
    assert ref.contest(([seq("9S TS JS"), seq("7D 8D 9D")], [seq("9H TH JH")]), none) == [0, 0]  # (c)
    d = ([seq("7S 8S 9S TS")], [seq("7C 8C 9C"), ref.carre("Q")])
    assert ref.contest(d, none) == [50, 100]  # (d)
    assert ref.contest(d, frozenset({"OPT-SINGLE-CONTEST"})) == [0, 120]
    assert ref.contest(([ref.carre("T")], [ref.carre("K")]), none) == [100, 0]  # (e)
    assert ref.contest(([ref.carre("T")], [ref.carre("K")]), frozenset({"OPT-CARRE-RANK"})) == [0, 100]
    assert ref.contest(([ref.carre("9")], [ref.carre("A")]), none) == [150, 0]  # (f)
    eight = [ref.name(c) for c in range(8)]  # all the clubs
    assert ref.declarable(eight, [], none) == {seq(" ".join(eight))}
    assert ref.declarable(eight, [], frozenset({"OPT-EIGHT-SPLIT"})) == {seq("TC JC QC KC AC"), seq("7C 8C 9C")}
    kings = ["KC", "KD", "KH", "KS", "QD", "JD", "TD", "9D"]  # R7.4 and OPT-CARRE-FIRST
    assert ref.declarable(kings, [], none) == {ref.carre("K"), seq("9D TD JD QD KD")}
    assert ref.declarable(kings, [ref.carre("K")], none) == {seq("9D TD JD QD")}
    assert ref.declarable(kings, [], frozenset({"OPT-CARRE-FIRST"})) == {ref.carre("K"), seq("9D TD JD QD")}


@pytest.mark.parametrize(("calls", "contract", "level", "over"), [
    ("C pass pass pass", "C", 1, True),
    ("pass H kontra pass pass pass", "H", 2, True),
    ("pass H kontra rekontra pass pass pass", "H", 4, True),
    ("H kontra S pass pass pass", "S", 1, True),
    ("pass pass pass pass", None, 1, True),
    ("pass pass pass C", "C", 1, False),
])
def test_reference_runs_the_worked_auctions(calls, contract, level, over):
    r = ref.RefDeal(3, [list(range(8 * s, 8 * s + 8)) for s in range(4)])
    for call in calls.split():
        r.apply(ref.CALL_ACTIONS + ref.CALLS.index(call))
    assert (r.contract, r.level, r.phase != "auction") == (contract, level, over)


def test_reference_forbids_kontra_of_ones_own_team_and_ends_the_worked_match():
    r = ref.RefDeal(3, [list(range(8 * s, 8 * s + 8)) for s in range(4)])
    r.apply(ref.CALL_ACTIONS + ref.CALLS.index("C"))
    r.apply(ref.CALL_ACTIONS)
    assert "kontra" not in r.legal_calls()  # `♣ P K`: F+2 is in the bidding team
    m = ref.RefMatch(score=[140, 100])
    m.after_deal([25, 0], valat=True)
    assert m.score == [165, 100] and m.winner is None  # R12.2
    m.after_deal([7, 9], valat=False)
    assert m.score == [172, 109] and m.winner == 0
    ni = ref.RefMatch(score=[140, 100], options=frozenset({"OPT-CAPOT-NI"}))
    ni.after_deal([25, 0], valat=True)
    ni.after_deal([0, 16], valat=False)
    assert ni.score == [165, 116] and ni.winner is None
    en = ref.RefMatch(score=[140, 100], options=frozenset({"OPT-CAPOT-EN"}))
    en.after_deal([25, 0], valat=True)
    assert en.target == 166 and en.winner is None
    en.after_deal([7, 9], valat=False)
    assert en.winner == 0
