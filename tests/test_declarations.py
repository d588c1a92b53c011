"""R7: declarations (what may be announced, the contest between teams) and belote (R7.7)."""

import pytest
from conftest import card, cards, deal_with

from belot.cards import mask_of
from belot.contracts import DEFAULT_RULES
from belot.declarations import (
    DECLARATIONS,
    NUM_DECLARATIONS,
    best_declarations,
    contest,
    declarable,
    declaration_for_cards,
)
from belot.errors import RuleError
from belot.game import BELOTE_BASE, DECLARE_BASE


def decl(text: str) -> int:
    d = declaration_for_cards(cards(text))
    assert d is not None, text
    return d.id


def test_r7_2_r7_3_the_declaration_table():
    assert NUM_DECLARATIONS == 90
    assert DECLARATIONS[decl("7C 8C 9C")].value == 20
    assert DECLARATIONS[decl("7C 8C 9C TC")].value == 50
    assert DECLARATIONS[decl("7C 8C 9C TC JC")].value == 100
    assert DECLARATIONS[decl("7C 8C 9C TC JC QC KC AC")].value == 100  # one quint (R7.2)
    assert DECLARATIONS[decl("JC JD JH JS")].value == 200
    assert DECLARATIONS[decl("9C 9D 9H 9S")].value == 150
    for r in "ATKQ":
        assert DECLARATIONS[decl(f"{r}C {r}D {r}H {r}S")].value == 100
    assert declaration_for_cards(cards("8C 8D 8H 8S")) is None  # R7.3: 8s and 7s nothing
    assert declaration_for_cards(cards("7C 8C TC")) is None


def test_r7_6_contest_a_higher_tierce_wins():
    assert contest(([decl("JS QS KS")], [decl("TH JH QH")]), rules=DEFAULT_RULES) == [20, 0]


def test_r7_6_contest_b_top_card_beats_length():
    six_to_q = decl("7C 8C 9C TC JC QC")
    five_to_k = decl("9D TD JD QD KD")
    assert contest(([six_to_q], [five_to_k]), rules=DEFAULT_RULES) == [0, 100]


def test_r7_6_contest_c_equal_best_cancels_every_sequence():
    assert contest(([decl("9S TS JS"), decl("7D 8D 9D")], [decl("9H TH JH")]), rules=DEFAULT_RULES) == [0, 0]


def test_r7_6_contest_d_sequences_and_carres_judged_separately():
    got = contest(([decl("7S 8S 9S TS")], [decl("7C 8C 9C"), decl("QC QD QH QS")]), rules=DEFAULT_RULES)
    assert got == [50, 100]


def test_r7_6_contest_e_and_f_carre_ranks():
    assert contest(([decl("TC TD TH TS")], [decl("KC KD KH KS")]), rules=DEFAULT_RULES) == [100, 0]
    assert contest(([decl("9C 9D 9H 9S")], [decl("AC AD AH AS")]), rules=DEFAULT_RULES) == [150, 0]


def test_r7_6_the_better_team_scores_all_its_declarations():
    assert contest(([decl("9S TS JS QS"), decl("7D 8D 9D")], [decl("9H TH JH")]), rules=DEFAULT_RULES) == [70, 0]


def test_r7_4_carre_and_run_share_no_card_and_shorter_run_remains():
    hand = mask_of(cards("KC KD QD JD TD 9D KH KS"))
    assert set(declarable(hand, [], DEFAULT_RULES)) == {decl("KC KD KH KS"), decl("9D TD JD QD KD")}
    after_carre = declarable(hand, [decl("KC KD KH KS")], DEFAULT_RULES)
    assert after_carre == [decl("9D TD JD QD")]
    assert declarable(hand, [decl("9D TD JD QD KD")], DEFAULT_RULES) == []
    assert sorted(best_declarations(hand, DEFAULT_RULES)) == sorted([decl("KC KD KH KS"), decl("9D TD JD QD")])


def test_r7_2_an_eight_card_run_is_one_quint_not_split():
    hand = mask_of(cards("7H 8H 9H TH JH QH KH AH"))
    assert declarable(hand, [], DEFAULT_RULES) == [decl("7H 8H 9H TH JH QH KH AH")]


def test_r7_1_no_declarations_or_belote_in_no_trumps():
    d = deal_with({1: "7C 8C 9C KH QH"}, "NT pass pass pass")
    assert all(a < BELOTE_BASE for a in d.legal_actions())
    with pytest.raises(RuleError, match=r"R7\.1"):
        d.apply(DECLARE_BASE + decl("7C 8C 9C"))


def test_r7_5_declare_before_the_card_in_trick_one_only():
    d = deal_with({1: "7C 8C 9C JD"}, "S pass pass pass")
    d.apply(DECLARE_BASE + decl("7C 8C 9C"))
    assert DECLARE_BASE + decl("7C 8C 9C") not in d.legal_actions()  # announced once
    while not d.trick_winners:
        d.apply(next(a for a in d.legal_actions() if a < 32))
    assert all(a < 64 for a in d.legal_actions())
    with pytest.raises(RuleError, match=r"trick 1 only \(R7\.5\)"):
        d.apply(DECLARE_BASE + decl("7C 8C 9C"))
    r = _play_out(d)
    assert r.declared[1] == (decl("7C 8C 9C"),)


def test_r7_5_false_declaration_refused():
    d = deal_with({1: "7C 8C JD"}, "S pass pass pass")
    with pytest.raises(RuleError, match="does not hold it"):
        d.apply(DECLARE_BASE + decl("7C 8C 9C"))


def _play_out(d):
    while not d.is_over:
        d.apply(next(a for a in d.legal_actions() if a < 32))
    return d.result


def test_r7_8_declarations_of_a_team_without_tricks_still_count():
    # Team 1 (seats 1, 3) holds every trump and ace: team 0 takes no trick but keeps its carré.
    d = deal_with(
        {1: "JS 9S AS TS KS QS 8S 7S", 3: "AC AD AH TC TD TH KC KD", 0: "JC JD JH QC QD QH 7C 8C"},
        "S pass pass pass",
    )
    d.apply(DECLARE_BASE + decl("7S 8S 9S TS JS QS KS AS"))
    r = _play_out(d)
    assert r.valat == 1
    assert r.declarations == (0, 100)  # only team 1's quint: team 0 announced nothing


def test_r7_8_tierce_counts_for_a_team_without_tricks():
    # Seat 1 holds every trump, seat 3 the other aces and tens: team 0 takes no trick.
    hands_spec = {1: "JS 9S AS TS KS QS 8S 7S", 3: "AC AD AH TC TD TH KC KD",
                  2: "7C 8C 9C JC JD JH 7D 8D", 0: "QC QD QH KH 9D 9H 8H 7H"}
    d = deal_with(hands_spec, "S pass pass pass")
    d.apply(card("JS"))
    d.apply(DECLARE_BASE + decl("7C 8C 9C"))
    d.apply(card("7C"))
    r = _play_out(d)
    assert r.valat == 1 and r.declarations == (20, 0)
    assert r.totals == (20, 162 + 90)  # R8: valat +90 beside the last 10


def test_r7_7_example_7_trumping_with_the_queen_gives_belote():
    d = deal_with({1: "AC", 2: "QH KH"}, "H pass pass pass", void={2: "C"})
    d.apply(card("AC"))
    assert BELOTE_BASE + card("QH") in d.legal_actions()
    d.apply(BELOTE_BASE + card("QH"))
    r = _play_out(d)
    assert r.belote == (20, 0)


def test_r7_7_example_8_all_trumps_discard_gives_no_belote_and_none_later():
    d = deal_with({1: "AC", 2: "QH KH 7S"}, "AT pass pass pass", void={2: "C"})
    d.apply(card("AC"))
    assert BELOTE_BASE + card("KH") not in d.legal_actions()
    with pytest.raises(RuleError, match=r"discarded on another suit \(R7\.7\)"):
        d.apply(BELOTE_BASE + card("KH"))
    d.apply(card("KH"))
    assert not any(a >= BELOTE_BASE and a < 64 and (a - 32) == card("QH") for a in d.legal_actions())


def test_r7_7_belote_only_in_trumps_for_a_suit_contract_and_needs_both_cards():
    d = deal_with({1: "QS KS QH"}, "H pass pass pass")
    legal = d.legal_actions()
    assert BELOTE_BASE + card("QS") not in legal
    with pytest.raises(RuleError, match=r"king and queen of trumps \(R7\.7\)"):
        d.apply(BELOTE_BASE + card("QS"))
    with pytest.raises(RuleError, match=r"does not hold both"):
        d.apply(BELOTE_BASE + card("QH"))


def test_r7_7_belote_inside_a_declared_sequence_still_counts():
    d = deal_with({1: "JH QH KH"}, "H pass pass pass")
    d.apply(DECLARE_BASE + decl("JH QH KH"))
    d.apply(BELOTE_BASE + card("KH"))
    r = _play_out(d)
    assert r.belote[1] == 20 and r.declarations[1] in (0, 20)


def test_counted_says_which_declarations_scored_by_seat_under_each_rule() -> None:
    """R7.6 (RULES section 4 (d)): quarte against tierce + carré: apart, the quarte and the carré
    count; under OPT-SINGLE-CONTEST the carré's team takes all of its own, the quarte nothing."""
    from belot.contracts import Rules
    from belot.declarations import _CARRE_IDS, _SEQ_IDS, counted

    q, t, cq = _SEQ_IDS[(0, 0, 4)], _SEQ_IDS[(1, 0, 3)], _CARRE_IDS[5]
    declared = ([q], [t], [], [cq])
    assert counted(declared, DEFAULT_RULES) == [[True], [False], [], [True]]
    assert counted(declared, Rules(("OPT-SINGLE-CONTEST",))) == [[False], [True], [], [True]]


def _declarable_reference(hand: int, announced: list[int], options: tuple[str, ...] = ()) -> list[int]:
    """R7.2-R7.4 read literally (the implementation before the table-driven one): carrés of the
    hand by rank not sharing a card with an announced one, then every whole run of each suit of
    the cards not in an announced carré, from the 7 up.  OPT-CARRE-FIRST: the cards of every held
    carré are kept from the runs; OPT-EIGHT-SPLIT: a run of 8 is its top quint and bottom tierce."""
    from belot.declarations import _CARRE_IDS, _RUNS, _SEQ_IDS, CARRE, DECLARATIONS

    used = carre_cards = 0
    if "OPT-CARRE-FIRST" in options:
        for i in _CARRE_IDS.values():
            if DECLARATIONS[i].mask & ~hand == 0:
                carre_cards |= DECLARATIONS[i].mask
    for i in announced:
        used |= DECLARATIONS[i].mask
        if DECLARATIONS[i].kind == CARRE:
            carre_cards |= DECLARATIONS[i].mask
    out = [i for _, i in sorted(_CARRE_IDS.items())
           if DECLARATIONS[i].mask & ~hand == 0 and not DECLARATIONS[i].mask & used]
    free = hand & ~carre_cards
    for suit in range(4):
        for start, length in _RUNS[free >> (8 * suit) & 0xFF]:
            parts = [_SEQ_IDS[(suit, start, length)]]
            if length == 8 and "OPT-EIGHT-SPLIT" in options:
                parts = [_SEQ_IDS[(suit, 3, 5)], _SEQ_IDS[(suit, 0, 3)]]
            out.extend(i for i in parts if not DECLARATIONS[i].mask & used)
    return out


@pytest.mark.parametrize("options", [(), ("OPT-CARRE-FIRST",), ("OPT-EIGHT-SPLIT",), ("OPT-CARRE-FIRST", "OPT-EIGHT-SPLIT")])
def test_r7_declarable_equals_the_literal_reading_on_random_hands(options):
    """`declarable` (bit tricks and per-byte tables) lists the same ids in the same order as the
    literal reading, on random hands of 8-16 cards (a tenth with a whole suit) and random
    announcements (R7.2-R7.4), under the defaults (100,000 hands) and the R7 options (20,000 each)."""
    import random

    from belot.contracts import Rules
    from belot.declarations import declarable

    rules = Rules.from_options(list(options))
    rng = random.Random(7)
    for _ in range(20_000 if options else 100_000):
        hand = sum(1 << c for c in rng.sample(range(32), rng.choice([8, 8, 8, 12, 16])))
        if rng.random() < 0.1:
            hand |= 0xFF << (8 * rng.randrange(4))
        announced: list[int] = []
        while True:
            found = declarable(hand, announced, rules)
            assert found == _declarable_reference(hand, announced, options), (hand, announced)
            if not found or rng.random() < 0.3:
                break
            announced.append(rng.choice(found))


def _contest_reference(by_team: tuple[list[int], list[int]]) -> list[int]:
    """R7.6 and R7.8 read literally (the implementation before the per-id tables)."""
    from belot.declarations import CARRE, carre_key, sequence_key

    points = [0, 0]
    seqs = [[DECLARATIONS[i] for i in ids if DECLARATIONS[i].kind != CARRE] for ids in by_team]
    carres = [[DECLARATIONS[i] for i in ids if DECLARATIONS[i].kind == CARRE] for ids in by_team]
    best = [max((sequence_key(d, rules=DEFAULT_RULES) for d in s), default=None) for s in seqs]
    if best[0] is not None or best[1] is not None:
        if best[1] is None or (best[0] is not None and best[0] > best[1]):
            points[0] += sum(d.value for d in seqs[0])
        elif best[0] is None or best[1] > best[0]:
            points[1] += sum(d.value for d in seqs[1])
    cbest = [max((carre_key(d, rules=DEFAULT_RULES) for d in c), default=-1) for c in carres]
    if cbest[0] > cbest[1]:
        points[0] += sum(d.value for d in carres[0])
    elif cbest[1] > cbest[0]:
        points[1] += sum(d.value for d in carres[1])
    return points


def test_r7_6_contest_equals_the_literal_reading_on_random_announcements():
    """`contest` (per-id keys and values) scores like the literal reading of R7.6/R7.8 on 100,000
    random pairs of announcements, ties and carrés included."""
    import random

    rng = random.Random(8)
    for _ in range(100_000):
        by_team = ([rng.randrange(NUM_DECLARATIONS) for _ in range(rng.choice([0, 0, 1, 1, 2, 3]))],
                   [rng.randrange(NUM_DECLARATIONS) for _ in range(rng.choice([0, 0, 1, 1, 2, 3]))])
        assert contest(by_team, rules=DEFAULT_RULES) == _contest_reference(by_team), by_team
