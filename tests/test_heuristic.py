"""The ``heuristic`` bot: bidding, kontra, declarations and card play in positions built by hand,
and what it infers from the play (voids, R5.2 trump duties, belote)."""

from __future__ import annotations

import random

from conftest import card, cards, deal_with, make_hands

from belot.auction import BID_BASE, KONTRA, PASS, REKONTRA
from belot.bots import make_bot
from belot.bots.heuristic import HeuristicBot, Knowledge, contract_margins
from belot.cards import SUIT_MASKS, mask_of
from belot.contracts import AT, DEFAULT_RULES, NT, C, H, Rules, S
from belot.declarations import best_declarations
from belot.game import BELOTE_BASE, CALL_BASE, DECLARE_BASE, Deal, deal_hands

BOT = HeuristicBot()


def first_five(spec5: dict[int, str], dealer: int = 0) -> Deal:
    """A deal whose first five cards per seat are given (the bidding hand, R2.3)."""
    hands = make_hands({s: spec5.get(s, "") for s in range(4)})
    # make_hands puts the given cards first in each hand: they are the five cards seen in bidding.
    return Deal(dealer, hands)


def bot_card(deal: Deal, seat: int) -> int:
    """The bot's next card for ``seat`` (its declarations, if any, are applied first)."""
    a = BOT.act(deal.view(seat))
    while a >= DECLARE_BASE:
        deal.apply(a)
        a = BOT.act(deal.view(seat))
    return a


def play(deal: Deal, text: str) -> None:
    for c in text.split():
        deal.apply(card(c))


# -- bidding (R3) ----------------------------------------------------------------------------


def test_bids_a_suit_with_jack_nine_and_an_ace():
    d = first_five({1: "JH 9H 7H AS 8C"})  # seat 1 is the forehand
    assert BOT.act(d.view(1)) == CALL_BASE + BID_BASE + H


def test_passes_a_weak_hand():
    d = first_five({1: "7C 8D QH 9S 8S"})
    assert BOT.act(d.view(1)) == CALL_BASE + PASS


def test_bids_no_trumps_with_three_aces():
    d = first_five({1: "AC TC AD AS 7H"})
    margins = contract_margins(mask_of(cards("AC TC AD AS 7H")), DEFAULT_RULES)
    assert max(range(6), key=lambda c: margins[c]) == NT
    assert BOT.act(d.view(1)) == CALL_BASE + BID_BASE + NT


def test_bids_all_trumps_with_jacks_and_nines():
    d = first_five({1: "JC 9C JD 9D JS"})
    assert BOT.act(d.view(1)) == CALL_BASE + BID_BASE + AT


def test_kontra_an_opposing_suit_it_holds():
    # Seat 1 bids hearts; seat 2 holds the top trumps and two aces.
    d = first_five({2: "JH 9H 8H AS AC"})
    d.apply(CALL_BASE + BID_BASE + H)
    assert BOT.act(d.view(2)) == CALL_BASE + KONTRA


def test_no_kontra_without_defence():
    d = first_five({2: "7C 8C 9D QS 7S"})
    d.apply(CALL_BASE + BID_BASE + H)
    assert BOT.act(d.view(2)) == CALL_BASE + PASS


def test_does_not_outbid_its_partner_lightly():
    # Seat 1 bids clubs; its partner seat 3 has a fair diamond hand: it lets the partner play.
    d = first_five({3: "JD 7D 8D AS 7C"})
    d.apply(CALL_BASE + BID_BASE + C)
    d.apply(CALL_BASE + PASS)
    assert BOT.act(d.view(3)) == CALL_BASE + PASS


def test_rekontra_a_strong_own_contract():
    d = first_five({1: "JS 9S AS TS AH"})
    d.apply(CALL_BASE + BID_BASE + S)  # seat 1
    d.apply(CALL_BASE + KONTRA)  # seat 2
    d.apply(CALL_BASE + PASS)  # seat 3
    d.apply(CALL_BASE + PASS)  # seat 0
    assert CALL_BASE + REKONTRA in d.view(1).legal_actions
    assert BOT.act(d.view(1)) == CALL_BASE + REKONTRA


# -- declarations and belote (R7) ------------------------------------------------------------


def test_announces_its_best_declarations_then_plays():
    d = deal_with({1: "7C 8C 9C TC KS QS JD 8H"}, "S pass pass pass")
    view = d.view(1)
    action = BOT.act(view)
    assert action == DECLARE_BASE + best_declarations(d.hands[1], d.rules)[0]
    d.apply(action)
    assert BOT.act(d.view(1)) < DECLARE_BASE  # the declaration is made once, then a card


def test_always_announces_belote_when_it_may():
    """R7.7: whenever a card it plays could carry belote, the bot announces it."""
    rng = random.Random(8)
    announced = 0
    for k in range(150):
        d = Deal(k & 3, deal_hands(rng, k & 3))
        while not d.is_over:
            view = d.view(d.current_player)
            a = BOT.act(view)
            if a < BELOTE_BASE and BELOTE_BASE + a in view.legal_actions:
                raise AssertionError(f"played {a} without the belote it could announce")
            announced += BELOTE_BASE <= a < CALL_BASE
            d.apply(a)
    assert announced >= 10


# -- card play (R5) --------------------------------------------------------------------------


def test_does_not_overtake_a_partner_trick_it_can_see_is_safe():
    # NT: seat 1 leads TC; seat 3 (partner) holds AC, so the ten is the master: play low.
    d = deal_with({1: "TC", 2: "7C", 3: "AC 8C"}, "NT pass pass pass")
    play(d, "TC 7C")
    assert BOT.act(d.view(3)) == card("8C")


def test_keeps_a_ten_that_became_master_under_the_partners_ace():
    # NT, forehand seat 0 leads AC: seat 2's TC is now the master club, so it keeps it for a
    # trick of its own and plays the 8.
    d = deal_with({0: "AC", 1: "7C", 2: "TC 8C"}, "NT pass pass pass", dealer=3)
    play(d, "AC 7C")
    assert BOT.act(d.view(2)) == card("8C")


def test_gives_points_to_a_trick_the_partner_wins():
    # NT, seat 0 leads the master AC; seat 2 is void in clubs and throws the ten of diamonds,
    # which the unseen AD would take anyway.
    d = deal_with({0: "AC", 1: "7C", 2: "TD 7S"}, "NT pass pass pass", dealer=3, void={2: "C"})
    play(d, "AC 7C")
    assert BOT.act(d.view(2)) == card("TD")


def test_takes_a_trick_with_the_cheapest_trump():
    # Hearts; seat 0, last to play, void in spades with 7H and JH: trumps with the 7.
    d = deal_with({0: "7H JH", 1: "8S", 2: "7S", 3: "9S"}, "H pass pass pass", void={0: "S"})
    play(d, "8S 7S 9S")
    assert set(d.view(0).legal_actions) >= {card("7H"), card("JH")}
    assert bot_card(d, 0) == card("7H")


def test_leads_the_master_trump_as_declarer():
    d = deal_with({1: "JH 9H 7H AS 8C 8D 9D TD"}, "H pass pass pass")
    view = d.view(1)
    a = BOT.act(view)
    while a >= DECLARE_BASE:
        d.apply(a)
        a = BOT.act(d.view(1))
    assert a & 31 == card("JH")


def test_cashes_an_ace_in_no_trumps():
    d = deal_with({1: "AS KS 7D 8D 7H 8H 9C 8C"}, "NT pass pass pass")
    assert BOT.act(d.view(1)) == card("AS")


# -- what the seat knows ---------------------------------------------------------------------


def test_knowledge_records_voids_and_trump_duties():
    # Hearts.  Seat 1 leads 8S; seat 2 shows out (void in spades) with a club while the opponent
    # (seat 1) wins with a spade: by R5.2 (c) seat 2 holds no trump either.
    d = deal_with(
        {0: "QS KS AS 7S JH QH KH AH", 1: "8S 9S TS JS 7H 8H 9H TH", 2: "7C"}, "H pass pass pass", void={2: "SH"}
    )
    play(d, "8S 7C")
    k = Knowledge(d.view(3))
    assert k.cannot[2] & SUIT_MASKS[3] == SUIT_MASKS[3]
    assert k.cannot[2] & SUIT_MASKS[H] == SUIT_MASKS[H]
    assert not k.may_hold(2) & (SUIT_MASKS[3] | SUIT_MASKS[H])
    # Seat 3's own cards and the played ones are never "unseen".
    assert not k.unseen & d.hands[3]
    assert not k.unseen & (1 << card("8S") | 1 << card("7C"))


def test_knowledge_places_the_other_belote_card():
    d = deal_with({1: "KS QS 7C 8C 9C 7D 8D 9D"}, "S pass pass pass")
    d.apply(BELOTE_BASE + card("KS"))
    k = Knowledge(d.view(2))
    assert not k.may_hold(0) >> card("QS") & 1
    assert not k.may_hold(3) >> card("QS") & 1
    assert k.may_hold(1) >> card("QS") & 1


def test_keeps_a_master_trump_for_the_last_trick():
    """Found in real deals: with two cards left, leading, a master trump and a loser: the loser
    goes first so the trump takes the last trick and its 10 (R6.2)."""
    found = 0
    rng = random.Random(5)
    bots = [HeuristicBot() for _ in range(4)]
    for k in range(400):
        d = Deal(k & 3, deal_hands(rng, k & 3))
        while not d.is_over:
            seat = d.current_player
            view = d.view(seat)
            if (
                view.phase == "play" and 0 <= view.contract <= S and not view.trick and len(view.hand) == 2
            ):
                kn = Knowledge(view)
                tm = kn.t.trump_mask
                masters = [c for c in view.hand if tm >> c & 1 and kn.is_master(c)]
                others = [c for c in view.hand if c not in masters]
                opp_trumps = any(kn.may_hold(o) & tm for o in ((seat + 1) & 3, (seat + 3) & 3))
                if masters and others and opp_trumps:
                    assert bots[seat].act(view) & 31 == others[0]
                    found += 1
            d.apply(bots[seat].act(view))
        if found >= 5:
            break
    assert found >= 1


def test_knowledge_inferences_are_sound_on_real_deals():
    """What the bot infers a seat cannot hold (voids, R5.2/R5.3/R5.5 duties, belote) is never
    contradicted by the real hidden hands, and the unseen cards are exactly the others' cards."""
    rng = random.Random(21)
    bots = [HeuristicBot(), make_bot("random", seed=1), HeuristicBot(), make_bot("random", seed=2)]
    checked = 0
    for k in range(120):
        d = Deal(k & 3, deal_hands(rng, k & 3))
        while not d.is_over:
            seat = d.current_player
            view = d.view(seat)
            if view.phase == "play":
                kn = Knowledge(view)
                others = 0
                for s in range(4):
                    if s != seat:
                        assert not d.hands[s] & kn.cannot[s], (k, s)
                        others |= d.hands[s]
                assert kn.unseen == others
                checked += 1
            d.apply(bots[(seat + k) & 3].act(view))
    assert checked > 2000


def test_contract_margins_are_cached_and_cannot_be_changed():
    # The samplers ask for the same cards again and again; the cached margins must be the uncached
    # ones for each rule set (R7.2's eight-card split changes this hand's declarations), and a
    # tuple, so no caller can alter what the next one reads.
    hand = mask_of(cards("7C 8C 9C TC JC QC KC AC"))
    split = Rules.from_options(["OPT-EIGHT-SPLIT"])
    fresh, fresh_split = contract_margins.__wrapped__(hand, DEFAULT_RULES), contract_margins.__wrapped__(hand, split)
    assert fresh != fresh_split
    assert contract_margins(hand, DEFAULT_RULES) == fresh and contract_margins(hand, split) == fresh_split
    assert contract_margins(hand, Rules.from_options(["OPT-EIGHT-SPLIT"])) is contract_margins(hand, split)
    assert isinstance(contract_margins(hand, DEFAULT_RULES), tuple) and contract_margins(hand, DEFAULT_RULES) is contract_margins(hand, DEFAULT_RULES)
