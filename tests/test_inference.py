"""What a seat infers about hidden cards (belot.inference): the play facts of R5.2-R5.5, the belote
partner of R7.7, the declarations that fit an announced kind (R7.4, R7.5), and that every fact is
true of the real deal and read from the view alone."""

from __future__ import annotations

import random

from conftest import card, cards, deal_with
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from belot import inference
from belot.auction import parse_call
from belot.cards import FULL_DECK, SUIT_MASKS, belote_partner, cards_of, mask_of, parse_card
from belot.contracts import DEFAULT_RULES, TABLES, H, S
from belot.declarations import DECLARATIONS, declaration_for_cards
from belot.errors import RuleError
from belot.game import BELOTE_BASE, CALL_BASE, PLAY, Deal, deal_hands
from belot.play import legal_cards

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def play(deal: Deal, text: str) -> None:
    for c in text.split():
        deal.apply(card(c))


def mask(text: str) -> int:
    return mask_of(cards(text))


# -- the play facts (R5) ----------------------------------------------------------------------------


def deal_of(hands: str, auction: str) -> Deal:
    """A deal (dealer 0: seat 1 calls and leads first) of four hands given as "seat0 | ... | seat3"."""
    d = Deal(0, [cards(h) for h in hands.split("|")])
    for call in auction.split():
        d.apply(CALL_BASE + parse_call(call))
    return d


def test_r5_2_a_discard_on_the_partners_trick_shows_only_a_void() -> None:
    d = deal_of("7D 8D 9D TD JD QD KD AD | AS KS QS 7H 8H 9H TH JH | 7S 8S 9S TS JS QH KH AH"
                "| 7C 8C 9C TC JC QC KC AC", "H pass pass pass")
    play(d, "AS 7S 7C")  # seat 3 discards on its partner's ace: no duty to trump
    assert inference.facts(d.view(0)).cannot[3] == SUIT_MASKS[S]


def test_r5_2_c_no_trump_on_an_opponents_plain_card_shows_no_trump() -> None:
    d = deal_of("7D 8D 9D TD JD QD KD AD | AS KS QS JS TS 9S 8S 7S | 7C 8C 9C TC JC QC KC AC"
                "| 7H 8H 9H TH JH QH KH AH", "H pass pass pass")
    play(d, "AS 7C")
    assert inference.facts(d.view(0)).cannot[2] == SUIT_MASKS[S] | SUIT_MASKS[H]


def test_r5_2_b_an_under_trump_shows_no_higher_trump() -> None:
    d = deal_of("JH 8D 9D TD JD QD KD AD | AS KS QS JS TS 9S 8S 7S | 9H 7C 8C 9C TC JC QC KC"
                "| 7H 8H TH QH KH AH AC 7D", "H pass pass pass")
    play(d, "AS 9H 7H")  # seat 3 may under-trump only without a trump above 9H
    f = inference.facts(d.view(0))
    assert f.cannot[2] == SUIT_MASKS[S]
    assert f.cannot[3] == SUIT_MASKS[S] | mask("JH")


def test_r5_3_a_trump_that_does_not_go_above_shows_no_higher_trump() -> None:
    d = deal_of("JH 7D 8D 9D TD JD QD KD | 9H AD 7S 8S 9S TS JS QS | AH KS AS 7C 8C 9C TC JC"
                "| 8H 7H TH QH KH QC KC AC", "H pass pass pass")
    play(d, "9H AH 8H")
    f = inference.facts(d.view(0))
    assert f.cannot[2] == mask("JH")  # the only trump above 9H (R4.1)
    assert f.cannot[3] == mask("JH")


def test_r5_5_all_trumps_a_card_below_the_highest_shows_none_above() -> None:
    d = deal_of("9S JS 7D 8D 9D TD JD QD | KS KD AD 7C 8C 9C TC JC | AS QC KC AC 7H 8H 9H TH"
                "| QS TS 8S 7S JH QH KH AH", "AT pass pass pass")
    play(d, "KS AS QS")  # RULES.md play example (5): SQ under SA means no S9, no SJ
    f = inference.facts(d.view(0))
    assert f.cannot[2] == 0
    assert f.cannot[3] == mask("9S JS")


def test_r5_4_no_trumps_a_discard_shows_only_a_void() -> None:
    d = deal_of("8D 9D TD JD QD KD AD 7C | 7D 8C 9C TC JC QC KC AC | AS KS QS JS TS 9S 8S 7S"
                "| 7H 8H 9H TH JH QH KH AH", "NT pass pass pass")
    play(d, "7D AS")
    assert inference.facts(d.view(0)).cannot[2] == SUIT_MASKS[1]


def test_a_lead_says_nothing_and_sizes_count_the_cards_left() -> None:
    d = deal_with({1: "AS"}, "H pass pass pass")
    play(d, "AS")
    f = inference.facts(d.view(0))
    assert f.cannot == (0, 0, 0, 0)
    assert f.sizes == (0, 7, 8, 8)
    assert f.unseen == FULL_DECK & ~d.hands[0] & ~mask("AS")
    assert f.unseen.bit_count() == 23


def test_the_auction_counts_the_three_cards_still_to_come() -> None:
    """R2.3: while bidding a seat has seen five cards; every seat, itself included, gets more."""
    d = Deal(0, deal_hands(random.Random(3), 0))
    f = inference.facts(d.view(1))
    assert f.sizes == (8, 3, 8, 8)
    assert f.unseen.bit_count() == 27 and f.cannot == (0, 0, 0, 0) and f.must == (0, 0, 0, 0)


# -- belote (R7.7) ----------------------------------------------------------------------------------


def test_r7_7_belote_partner_is_the_other_of_queen_and_king() -> None:
    for suit in "CDHS":
        q, k = parse_card("Q" + suit), parse_card("K" + suit)
        assert belote_partner(q) == k and belote_partner(k) == q


def test_r7_7_the_announcer_must_hold_the_other_belote_card_until_it_plays_it() -> None:
    d = deal_with({1: "KS QS 7C 8C 9C 7D 8D 9D"}, "S pass pass pass")
    d.apply(BELOTE_BASE + card("KS"))
    f = inference.facts(d.view(2))
    assert f.must[1] == mask("QS")
    assert not f.may_hold(0) & mask("QS") and not f.may_hold(3) & mask("QS")
    assert f.may_hold(1) & mask("QS")


# -- declarations (R7.4, R7.5) ----------------------------------------------------------------------


def test_r7_4_a_sequence_is_announced_whole() -> None:
    tierce = declaration_for_cards(cards("7C 8C 9C"))
    assert tierce is not None
    unseen = FULL_DECK
    assert inference.declaration_fits(tierce, 0, unseen, 0, 0, 0, [], rules=DEFAULT_RULES)
    # Holding (here: having played) TC would have made it a quarte.
    assert not inference.declaration_fits(tierce, mask("TC"), unseen, 0, 0, 0, [], rules=DEFAULT_RULES)
    # ...unless TC is in a carré of tens announced before it.
    carre = declaration_for_cards(cards("TC TD TH TS"))
    assert carre is not None
    assert inference.declaration_fits(tierce, mask("TC"), unseen, 0, mask("TD TH TS"), 0, [carre], rules=DEFAULT_RULES)
    # A card serves in one declaration only; a card seen elsewhere cannot be in it.
    other = declaration_for_cards(cards("9C TC JC"))
    assert other is not None
    assert not inference.declaration_fits(tierce, 0, unseen, 0, 0, 0, [other], rules=DEFAULT_RULES)
    assert not inference.declaration_fits(tierce, 0, unseen & ~mask("8C"), 0, 0, 0, [], rules=DEFAULT_RULES)


def test_candidates_are_the_declarations_of_each_kind() -> None:
    assert sum(len(v) for v in inference.CANDIDATES.values()) == len(DECLARATIONS)
    assert all(d.length >= 5 for d in inference.CANDIDATES["quint"])


def test_feasible_is_halls_condition() -> None:
    # Three cards, seat 0 takes two: it must be able to take two of them.
    assert inference.feasible(0b111, [2, 1, 0, 0], [0b100, 0, 0, 0])
    assert not inference.feasible(0b111, [2, 1, 0, 0], [0b110, 0, 0, 0])
    assert not inference.feasible(0b111, [1, 1, 0, 0], [0, 0, 0, 0])  # counts differ
    # Two seats that can only take the same single card.
    assert not inference.feasible(0b11, [1, 1, 0, 0], [0b10, 0b10, 0, 0])


@given(st.integers(0, 5), st.integers(-1, 3), st.integers(0, 31), st.booleans(), st.integers(0, (1 << 32) - 1),
       st.integers(0, 31))
@settings(max_examples=400, deadline=None)
def test_legality_is_decided_card_by_card(contract: int, led: int, win: int, pw: bool, hand: int, c: int) -> None:
    """`ruled_out` rests on this: a card is illegal in a hand exactly when another card of the hand,
    held beside it, would make it illegal (R5.2-R5.5)."""
    hand |= 1 << c
    legal = legal_cards(hand, TABLES[contract], led, win, pw) >> c & 1
    assert bool(legal) == (not hand & inference.ruled_out(contract, led, win, pw, c))


# -- properties over random deals -------------------------------------------------------------------


def random_deal(seed: int) -> tuple[Deal, int]:
    """A deal played at random (declarations and belotes announced when possible) to a random point
    of its play, and a seat."""
    rng = random.Random(seed)
    while True:
        dealer = rng.randrange(4)
        d = Deal(dealer, deal_hands(rng, dealer))
        while d.phase == "auction":
            legal = d.legal_actions()
            d.apply(legal[1] if len(legal) > 1 and rng.random() < 0.15 else rng.choice(legal))
        if d.phase != PLAY:
            continue
        for _ in range(rng.randrange(0, 40)):
            if d.is_over:
                break
            legal = d.legal_actions()
            announce = [a for a in legal if a >= BELOTE_BASE]  # belotes and declarations
            d.apply(rng.choice(announce) if announce and rng.random() < 0.8 else rng.choice(legal))
        if not d.is_over:
            return d, rng.randrange(4)


@SETTINGS
@given(st.integers(0, 10**9))
def test_the_real_hands_satisfy_every_fact(seed: int) -> None:
    d, me = random_deal(seed)
    f = inference.facts(d.view(me))
    hands = d.hands
    # `facts` unrolls `plays`: the two agree.
    cannot = [0, 0, 0, 0]
    for p in inference.plays(d.view(me)):
        cannot[p.seat] |= inference.ruled_out(d.contract, p.led, p.win, p.partner_winning, p.card)
    assert tuple(cannot) == f.cannot
    for s in range(4):
        if s == me:
            assert hands[s] == f.own
            continue
        assert hands[s] & ~f.unseen == 0
        assert hands[s].bit_count() == f.sizes[s]
        assert hands[s] & f.cannot[s] == 0, "R5: a seat holds a card its play ruled out"
        assert f.must[s] & ~hands[s] == 0, "R7.7: the belote partner is held"
        assert hands[s] & ~f.may_hold(s) == 0
        # Its real declarations fit, one after the other, as announced (R7.4, R7.5).
        chosen = []
        must, cannot = f.must[s], f.cannot[s]
        for i in d.declared[s]:
            dec = DECLARATIONS[i]
            assert inference.declaration_fits(dec, f.played_by[s], f.unseen, cannot, must, 0, chosen, rules=DEFAULT_RULES)
            chosen.append(dec)
            must |= dec.mask & ~f.played_by[s]
            cannot |= inference.run_neighbours(dec, rules=DEFAULT_RULES) & f.unseen & ~must
        assert hands[s] & cannot == 0 and must & ~hands[s] == 0
    rest = f.unseen & ~(f.must[0] | f.must[1] | f.must[2] | f.must[3])
    need = [f.sizes[s] - f.must[s].bit_count() if s != me else 0 for s in range(4)]
    assert inference.feasible(rest, need, f.cannot)


@SETTINGS
@given(st.integers(0, 10**9), st.integers(0, 10**9))
def test_facts_only_use_what_the_view_shows(seed: int, swap_seed: int) -> None:
    """Swapping unplayed cards between two other seats, where the history stays legal, changes no
    fact (the facts of a view are those of every deal the seat cannot tell from it)."""
    d, me = random_deal(seed)
    rng = random.Random(swap_seed)
    a, b = rng.sample([s for s in range(4) if s != me], 2)
    assume(d.hands[a] and d.hands[b])
    x, y = rng.choice(cards_of(d.hands[a])), rng.choice(cards_of(d.hands[b]))
    dealt = [list(h) for h in d.dealt]
    ia, ib = dealt[a].index(x), dealt[b].index(y)
    dealt[a][ia], dealt[b][ib] = y, x
    other = Deal(d.dealer, dealt)
    try:
        for action in d.actions:
            other.apply(action)
    except RuleError:
        assume(False)
    assert other.view(me) == d.view(me)  # the seat cannot tell the two deals apart
    assert inference.facts(other.view(me)) == inference.facts(d.view(me))
    assert other.hands[a] != d.hands[a]
