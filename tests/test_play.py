"""R4 card order, R5 legal cards and trick winners, R6 card points: docs/rules.md section 4 play examples."""

import random

import pytest
from conftest import card, cards, deal_with

from belot.cards import cards_of, mask_of, names
from belot.contracts import AT, NT, TABLES, H, S
from belot.errors import RuleError
from belot.play import beats, legal_cards


def N(*texts: str) -> set[str]:
    """Card names in record notation for cards written as in docs/rules.md ("H7")."""
    return set(names(card(t) for t in texts))


def legal(hand: str, contract: int, led: str | None, winning: str | None, partner: bool) -> set[str]:
    ledsuit = "CDHS".index(led) if led else -1
    win = card(winning) if winning else -1
    return set(names(cards_of(legal_cards(mask_of(cards(hand)), TABLES[contract], ledsuit, win, partner))))


def test_r4_1_orders():
    t = TABLES[S]
    trump_order = sorted(cards("JS 9S AS TS KS QS 8S 7S"), key=lambda c: -t.strength[c])
    assert names(trump_order) == ["JS", "9S", "AS", "TS", "KS", "QS", "8S", "7S"]
    plain = sorted(cards("AH TH KH QH JH 9H 8H 7H"), key=lambda c: -t.strength[c])
    assert names(plain) == ["AH", "TH", "KH", "QH", "JH", "9H", "8H", "7H"]


def test_r4_2_orders_per_contract_kind():
    jc, ac = card("JC"), card("AC")
    assert TABLES[AT].strength[jc] > TABLES[AT].strength[ac]  # AT: every suit in trump order
    assert TABLES[NT].strength[jc] < TABLES[NT].strength[ac]  # NT: plain order
    assert TABLES[H].strength[jc] < TABLES[H].strength[ac]  # suit contract: clubs are plain


def test_r5_example_1_must_trump_when_opponent_wins():
    assert legal("H7 SA", H, "C", "CA", partner=False) == N("H7")


def test_r5_example_2_partner_winning_any_card():
    assert legal("H7 SA", H, "C", "CA", partner=True) == N("H7", "SA")


def test_r5_example_3_no_forced_undertrump():
    assert legal("H7 SA", H, "C", "HQ", partner=False) == N("H7", "SA")


def test_r5_example_4_trump_led_must_overtrump_even_over_partner():
    assert legal("HJ H8", H, "H", "H9", partner=True) == N("HJ")


def test_r5_example_5_all_trumps_must_beat_whoever_wins():
    assert legal("SQ S9", AT, "S", "SA", partner=True) == N("S9")
    assert legal("SQ S9", AT, "S", "SA", partner=False) == N("S9")


def test_r5_4_example_6_no_trumps_only_follow():
    assert legal("DA D8", NT, "D", "D7", partner=False) == N("DA", "D8")


def test_r5_2_follow_suit_and_b_overtrump_if_able():
    assert legal("C7 CA HJ", H, "C", "CK", partner=False) == N("C7", "CA")
    assert legal("H7 HJ SA", H, "C", "H9", partner=False) == N("HJ")  # (b) higher trump
    assert legal("S7 SA", H, "C", "CA", partner=False) == N("S7", "SA")  # (d) no trumps


def test_r5_3_trump_led_unable_to_overtrump_any_trump_and_void_any_card():
    assert legal("H7 H8 SA", H, "H", "HJ", partner=False) == N("H7", "H8")
    assert legal("SA C7", H, "H", "HJ", partner=False) == N("SA", "C7")


def test_r5_5_unable_to_beat_any_card_of_suit():
    assert legal("S7 S8 HA", AT, "S", "SJ", partner=False) == N("S7", "S8")


def test_r5_1_forehand_leads_and_any_card_may_be_led():
    d = deal_with({}, "H pass pass pass", dealer=0)
    assert d.current_player == 1
    assert set(a for a in d.legal_actions() if a < 32) == set(cards_of(d.hands[1]))


def test_r5_6_winner_trump_beats_led_suit_and_led_suit_beats_others():
    t = TABLES[H]
    assert beats(t, card("H7"), card("CA"))
    assert not beats(t, card("SA"), card("C7"))
    assert beats(t, card("H9"), card("HA"))
    ta = TABLES[AT]
    assert not beats(ta, card("HJ"), card("C7"))  # AT: another suit never wins


def test_r5_1_r5_6_winner_leads_next_trick_through_the_deal():
    d = deal_with({1: "CA", 2: "C7", 3: "H7", 0: "C8"}, "H pass pass pass", void={3: "C"})
    for c in ("CA", "C7", "H7", "C8"):
        d.apply(card(c))
    assert d.trick_winners == [3] and d.current_player == 3


def test_r6_1_r6_4_card_point_totals():
    assert sum(TABLES[S].points) == 152
    assert sum(TABLES[AT].points) == 248
    assert sum(TABLES[NT].points) == 120
    assert [TABLES[S].total, TABLES[AT].total, TABLES[NT].total] == [162, 258, 260]
    t = TABLES[H]
    assert [t.points[card(c)] for c in ("JH", "9H", "AH", "TH", "KH", "QH", "8H", "7H")] == [
        20, 14, 11, 10, 4, 3, 0, 0]
    assert [t.points[card(c)] for c in ("AS", "TS", "KS", "QS", "JS", "9S", "8S", "7S")] == [
        11, 10, 4, 3, 2, 0, 0, 0]


def test_r5_illegal_card_names_the_rule():
    d = deal_with({1: "CA", 2: "C7 SA"}, "H pass pass pass")
    d.apply(card("CA"))
    with pytest.raises(RuleError, match=r"AS is not legal: must follow clubs \(R5\.2\)"):
        d.apply(card("SA"))
    with pytest.raises(RuleError, match=r"not in the player's hand"):
        d.apply(card("CA"))


def _reference_legal(hand: list[int], contract: int, trick: list[tuple[int, int]], seat: int) -> set[int]:
    """R5 written out literally from docs/rules.md, to cross-check the mask implementation."""
    t = TABLES[contract]
    if not trick:
        return set(hand)
    led = trick[0][1] >> 3
    win_seat, win = trick[0]
    for s, c in trick[1:]:
        if beats(t, c, win):
            win_seat, win = s, c
    follow = [c for c in hand if c >> 3 == led]
    trump = t.trump_suit
    if contract == NT:
        return set(follow or hand)
    if contract == AT:
        if follow:
            higher = [c for c in follow if t.strength[c] > t.strength[win]]
            return set(higher or follow)
        return set(hand)
    if led == trump:
        if follow:
            top = max((c for _, c in trick if c >> 3 == trump), key=lambda c: t.strength[c])
            higher = [c for c in follow if t.strength[c] > t.strength[top]]
            return set(higher or follow)
        return set(hand)
    if follow:
        return set(follow)
    if (win_seat - seat) % 2 == 0:
        return set(hand)
    trumps = [c for c in hand if c >> 3 == trump]
    if win >> 3 == trump:
        higher = [c for c in trumps if t.strength[c] > t.strength[win]]
        return set(higher or hand)
    return set(trumps or hand)


def test_r5_legal_cards_match_a_literal_reading_on_random_positions():
    rng = random.Random(5)
    for _ in range(20000):
        deck = list(range(32))
        rng.shuffle(deck)
        contract = rng.randrange(6)
        n = rng.randrange(4)
        trick = [((k + 1) % 4, deck[k]) for k in range(n)]
        seat = (n + 1) % 4
        hand = deck[4 : 4 + rng.randrange(1, 9)]
        t = TABLES[contract]
        led = trick[0][1] >> 3 if trick else -1
        win_seat, win = (trick[0] if trick else (-1, -1))
        for s, c in trick[1:]:
            if beats(t, c, win):
                win_seat, win = s, c
        partner = win_seat >= 0 and (win_seat - seat) % 2 == 0
        got = set(cards_of(legal_cards(mask_of(hand), t, led, win, partner)))
        assert got == _reference_legal(hand, contract, trick, seat), (contract, trick, hand)
        assert got  # never empty while the hand has cards
        assert got <= set(hand)


def test_r5_6_beaten_by_is_the_rule_read_literally():
    """R5.6: a card takes the trick from the winning one when it is a stronger card of the same suit,
    or a trump on a card of another suit; `ContractTable.beaten_by` (which the engine and
    `play.beats` use) says exactly that, for every contract and pair of cards."""
    from belot.contracts import TABLES
    from belot.play import beats

    for t in TABLES:
        for w in range(32):
            for c in range(32):
                if c == w:
                    continue
                literal = t.strength[c] > t.strength[w] if (c ^ w) < 8 else bool(t.trump_mask >> c & 1)
                assert beats(t, c, w) == literal, (t.contract, c, w)
