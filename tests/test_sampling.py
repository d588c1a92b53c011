"""Sampling hidden cards (belot.bots.sampling): every world fits everything the seat's view says.

A world is checked by the engine itself: the world's hands, with the cards each seat has played,
are dealt again and the deal's calls, declarations (the ones the world chose for the announced
kinds), belotes and cards are replayed through `Deal.apply`, which refuses a card a hand could not
legally play (shown voids, R5.2-R5.5), a declaration it does not hold (R7.2-R7.4) or a belote
without both cards (R7.7).
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable

import pytest

from belot.bots import make_bot
from belot.bots.heuristic import choose_card, contract_margins
from belot.bots.sampling import (
    Knowledge,
    _auction_checks,
    _calls_fit,
    _plays_plausible,
    bidding_hands,
    sample,
    sample_auction,
)
from belot.cards import FULL_DECK, cards_of, mask_of
from belot.contracts import DEFAULT_RULES, Rules
from belot.game import BELOTE_BASE, CALL_BASE, DECLARE_BASE, Deal, SeatView, deal_hands


def random_positions(n: int, seed: int, bot: str = "random", rules: Rules | None = None) -> list[tuple[Deal, int]]:
    """(deal, seat) pairs at random points of deals played by ``bot`` (declarations and belotes
    announced), under ``rules`` (default: the defaults)."""
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        dealer = rng.randrange(4)
        d = Deal(dealer, deal_hands(rng, dealer), rules)
        bots = [make_bot(bot, rng.randrange(1 << 30)) for _ in range(4)]
        stop = rng.randrange(0, 40)
        steps = 0
        while not d.is_over and steps < stop:
            d.apply(bots[d.to_move].act(d.view(d.to_move)))
            steps += 1
        if not d.is_over:
            out.append((d, rng.randrange(4)))
    return out


def replay_world(d: Deal, view: SeatView, hands: tuple[int, ...], decls: tuple[tuple[int, ...], ...],
                 before_card: Callable[[Deal, int, int], None] | None = None) -> Deal:
    """Deal the world's whole hands again and replay the view's public history through the engine
    (``before_card(deal, seat, card)`` is called before each card is played)."""
    played_by = [0, 0, 0, 0]
    order = []
    for leader, cards, _ in view.tricks:
        order += [((leader + k) & 3, c) for k, c in enumerate(cards)]
    order += list(view.trick)
    for s, c in order:
        played_by[s] |= 1 << c
    whole = [cards_of(hands[s] | played_by[s]) for s in range(4)]
    e = Deal(view.dealer, whole)
    for _, call in view.calls:
        e.apply(CALL_BASE + call)
    belotes = set(view.belotes)
    seen: set[int] = set()
    for s, c in order:
        if s not in seen:
            seen.add(s)
            ids = view.own_declarations if s == view.seat else decls[s]
            for i in ids:
                e.apply(DECLARE_BASE + i)
        if before_card is not None:
            before_card(e, s, c)
        e.apply(BELOTE_BASE + c if (s, c) in belotes else c)
    s = view.to_move
    if not view.tricks and s not in seen and s >= 0:  # announced in trick 1, card not played yet
        for i in view.own_declarations if s == view.seat else decls[s]:
            e.apply(DECLARE_BASE + i)
    return e


@pytest.mark.parametrize("seed", [1, 2])
def test_worlds_never_contradict_the_view(seed: int) -> None:
    rng = random.Random(seed)
    for d, seat in random_positions(150, seed):
        view = d.view(seat)
        k = Knowledge.from_view(view)
        for _ in range(4):
            w = sample(k, rng)
            hands = w.hands
            assert sum(h.bit_count() for h in hands) == (32 if view.phase == "auction" else 32 - view.played.bit_count())
            assert hands[0] | hands[1] | hands[2] | hands[3] == FULL_DECK & ~(0 if view.phase == "auction" else view.played)
            if view.phase == "auction":
                assert all(h.bit_count() == 8 for h in hands)
                assert mask_of(view.hand) & ~hands[seat] == 0
                continue
            for s in range(4):
                assert hands[s].bit_count() == d.hands[s].bit_count()  # hand sizes
            assert hands[seat] == mask_of(view.hand)  # own hand
            e = replay_world(d, view, hands, w.declarations)  # voids, declarations, belote: the engine checks
            assert e.view(seat).announced == view.announced
            assert e.hands == list(hands)


def test_shown_void_and_failure_to_overtrump_are_respected() -> None:
    """R5.2 (b): a seat that did not overtrump holds no higher trump; a void suit stays void."""
    from conftest import cards, deal_with

    # hearts; seat 1 leads CA, seat 2 trumps with HQ, seat 3 discards S7 (void in clubs, no trump over HQ)
    d = deal_with({1: "CA", 2: "HQ SA SK SQ SJ ST S9 S8", 3: "S7 DA DK DQ DJ DT D9 D8"},
                  "H pass pass pass", void={2: "C", 3: "CH"})
    for c in cards("CA HQ S7"):
        d.apply(c)
    view = d.view(0)
    k = Knowledge.from_view(view)
    rng = random.Random(0)
    clubs = 0xFF
    higher_hearts = mask_of(cards("HJ H9 HA HT HK"))
    for _ in range(200):
        w = sample(k, rng)
        assert w.hands[3] & clubs == 0 and w.hands[2] & clubs == 0
        assert w.hands[3] & higher_hearts == 0


@functools.cache
def _heuristic_auctions() -> tuple[tuple[SeatView, tuple[float, ...]], ...]:
    """Auction positions of `heuristic` games with calls made, each with the bidding-model margins
    of the real five cards behind every other seat's bid so far."""
    out = []
    for d, _ in random_positions(400, 41, bot="heuristic"):
        if d.phase == "auction" and d.view(d.to_move).calls:
            view = d.view(d.to_move)
            real = tuple(contract_margins(mask_of(d.dealt[s][:5]), DEFAULT_RULES)[call - 1] for s, call in view.calls
                         if s != view.seat and 1 <= call <= 6)
            out.append((view, real))
    return tuple(out)


def test_auction_worlds_are_whole_deals_that_fit_the_calls() -> None:
    """`sample_auction`: eight cards a seat, the seat's own five kept, and the five cards each other
    seat bid on fit its calls under the bidding model whenever the real players bid by that model
    (here the `heuristic` bot, whose real hands always fit)."""
    rng = random.Random(7)
    views = [view for view, _ in _heuristic_auctions()]
    assert len(views) >= 40
    fits = total = 0
    for view in views:
        checks = _auction_checks(view)
        for _ in range(3):
            first5 = bidding_hands(view, rng)
            assert first5[view.seat] == mask_of(view.hand)
            assert all(h.bit_count() == 5 for h in first5)
            assert sum(h.bit_count() for h in first5) == 20  # disjoint
            for s in range(4):
                if s != view.seat:
                    total += 1
                    fits += _calls_fit(first5[s], checks[s], 1.0, DEFAULT_RULES)
            w = sample_auction(view, rng)
            assert all(h.bit_count() == 8 for h in w.hands)
            assert w.hands[0] | w.hands[1] | w.hands[2] | w.hands[3] == FULL_DECK
            assert w.hands[view.seat] & mask_of(view.hand) == mask_of(view.hand)
    assert fits / total > 0.97, (fits, total)


def test_exact_auction_fit_draws_bidders_as_strong_as_the_real_ones() -> None:
    """With no slack (what pimc uses for an opponent's bid) the five cards drawn for each bidder fit
    the bidding model exactly, and the bidders drawn are as strong as the real `heuristic` bidders;
    the lenient default (slack 1) draws them weaker (pimc then doubled contracts that were made)."""
    views = [view for view, _ in _heuristic_auctions()]
    real = [m for _, margins in _heuristic_auctions() for m in margins]
    assert len(real) >= 30 and min(real) >= 0
    mean_real = sum(real) / len(real)
    for slack in (0.0, 1.0):
        rng = random.Random(7)
        fits = total = 0
        drawn = []
        for view in views:
            checks = _auction_checks(view)
            for _ in range(3):
                first5 = bidding_hands(view, rng, slack=slack)
                fits += sum(_calls_fit(first5[s], checks[s], 0.0, DEFAULT_RULES) for s in range(4) if s != view.seat)
                total += 3
                drawn += [contract_margins(first5[s], DEFAULT_RULES)[call - 1] for s, call in view.calls
                          if s != view.seat and 1 <= call <= 6]
        mean_drawn = sum(drawn) / len(drawn)
        if slack == 0.0:
            assert fits / total > 0.97 and abs(mean_drawn - mean_real) < 0.3, (fits, total, mean_drawn, mean_real)
        else:
            assert mean_drawn < mean_real - 0.5, (mean_drawn, mean_real)


def test_auction_inference_shows_in_the_worlds() -> None:
    """A seat that bid spades is dealt the spade jack far more often than the seats that passed."""
    from conftest import deal_with

    # seat 0 (forehand) passes, seat 1 bids spades; seat 2 holds five low cards, no spade
    d = deal_with({2: "C7 C8 D7 D8 H7"}, "pass S", dealer=3)
    view = d.view(2)
    rng = random.Random(1)
    jack = 1 << (8 * 3 + 4)
    held = [0, 0, 0, 0]
    for _ in range(300):
        first5 = bidding_hands(view, rng)
        for s in range(4):
            held[s] += bool(first5[s] & jack)
    assert held[1] > 2 * max(held[0], held[3]) and held[1] > 120, held


def test_announced_run_is_never_drawn_next_to_the_belote_partner() -> None:
    """R7.4 with R7.7: seat 1 announced a tierce and played the queen of trumps with belote, so it
    holds the king; a world must not give it a run ending at the queen (the king would lengthen it:
    the engine refuses a declaration that is not a whole sequence of the hand)."""
    from conftest import cards, deal_with

    from belot import declarations as decl

    hand = "HQ HK HA S7 S8 D7 D9 CJ"
    d = deal_with({1: hand}, "H pass pass pass")
    (tierce,) = decl.best_declarations(mask_of(cards(hand)), DEFAULT_RULES)
    d.apply(DECLARE_BASE + tierce)
    d.apply(BELOTE_BASE + cards("HQ")[0])
    view = d.view(0)
    k = Knowledge.from_view(view)
    rng = random.Random(3)
    for _ in range(300):
        w = sample(k, rng)
        assert cards("HK")[0] in cards_of(w.hands[1])
        replay_world(d, view, w.hands, w.declarations)  # the engine accepts the run as announced


def test_play_worlds_fit_the_auction_while_the_budget_lasts() -> None:
    """In play the worlds still reflect the calls: the seat that bid spades holds the spade jack
    far more often than in worlds drawn with no budget for rejection (``fit_budget`` 0), where it
    falls to each of the three other seats about evenly."""
    from conftest import deal_with

    # seat 1 bids spades; seat 0 (no spade jack) leads; seat 2 looks at the worlds
    d = deal_with({0: "CA CK DA DK HA HK SA SK", 2: "C7 C8 D7 D8 H7 H8 C9 D9"}, "pass S pass pass", dealer=3)
    d.apply(min(a for a in d.view(0).legal_actions if a < DECLARE_BASE))
    view = d.view(2)
    jack = 1 << (8 * 3 + 4)
    rng = random.Random(5)
    for budget, lo, hi in ((10_000, 0.5, 1.0), (0, 0.22, 0.44)):
        k = Knowledge.from_view(view)
        k.fit_budget = budget
        held = sum(bool(sample(k, rng).hands[1] & jack) for _ in range(300)) / 300
        assert lo <= held <= hi, (budget, held)


def test_a_call_budget_keeps_the_worlds_fitting_the_calls_after_the_play_budget() -> None:
    """With the play reading's budget spent, ``call_budget`` (expert's) goes on rejecting worlds that
    misfit the calls: the spade bidder holds the spade jack as often as while the first budget lasted,
    and each rejected draw costs the second budget, not the first."""
    from conftest import deal_with

    d = deal_with({0: "CA CK DA DK HA HK SA SK", 2: "C7 C8 D7 D8 H7 H8 C9 D9"}, "pass S pass pass", dealer=3)
    d.apply(min(a for a in d.view(0).legal_actions if a < DECLARE_BASE))
    view = d.view(2)
    jack = 1 << (8 * 3 + 4)
    rng = random.Random(5)
    k = Knowledge.from_view(view)
    k.fit_budget, k.call_budget = 0, 10_000
    held = sum(bool(sample(k, rng).hands[1] & jack) for _ in range(300)) / 300
    assert 0.5 <= held <= 1.0, held
    assert k.fit_budget == 0 and k.call_budget < 10_000


def test_calls_that_fit_no_world_only_use_up_the_budget() -> None:
    """Seat 1 bid all trumps, but seats 0 and 2 hold all four jacks: no world fits the bid, each
    rejected draw costs budget, and once it is spent worlds come freely (still fitting the play)."""
    from conftest import deal_with

    d = deal_with({0: "JS 7S 8S 7C 8C 7D 8D 7H", 2: "JC JD JH 9C 9D 9H 9S AS"}, "pass AT pass pass", dealer=3)
    d.apply(min(a for a in d.view(0).legal_actions if a < DECLARE_BASE))
    view = d.view(2)
    k = Knowledge.from_view(view)
    k.fit_budget = 60
    rng = random.Random(2)
    for _ in range(30):
        w = sample(k, rng)
        replay_world(d, view, w.hands, w.declarations)
    assert k.fit_budget == 0


def test_real_hands_fit_the_heuristic_play_model() -> None:
    """In deals the heuristic plays, the real hands explain every card the other team played: the
    model rebuilds each opponent's view at each of its plays exactly (its hand then, the tricks,
    the belotes announced so far), so the real world is never rejected however strict the model."""
    rng = random.Random(3)
    checked = 0
    for d, seat in random_positions(120, 4, bot="heuristic"):
        view = d.view(seat)
        if view.phase != "play":
            continue
        k = Knowledge.from_view(view)
        k.play_eps = 0.0
        assert all((p.seat ^ seat) & 1 for p in k.plays)  # only the other team's plays are judged
        checked += len(k.plays)
        assert _plays_plausible(k, list(d.hands), rng)
    assert checked > 300


def test_strict_play_model_draws_worlds_where_the_heuristic_plays_each_card() -> None:
    """With ``play_eps`` 0 and budget to spare, every world is one in which the heuristic, holding the
    world's cards, would have played each card the other team played; checked against the engine:
    the world is replayed through `Deal` and the heuristic asked for its card in the engine's own
    view at each of those plays.  Worlds drawn without the model often fail that."""
    strict = loose = 0
    rng = random.Random(8)
    misfits: list[int] = []
    seat = 0

    def check(e: Deal, s: int, c: int) -> None:
        if (s ^ seat) & 1:
            v = e.view(s)
            cards = [a for a in v.legal_actions if a < BELOTE_BASE]
            if len(cards) > 1 and choose_card(v, cards) != c:
                misfits.append(c)

    for d, seat in random_positions(80, 9, bot="heuristic"):
        view = d.view(seat)
        if view.phase != "play" or len(view.tricks) < 2:
            continue
        for eps in (0.0, 1.0):
            k = Knowledge.from_view(view)
            k.play_eps = eps
            k.fit_budget = 100_000
            w = sample(k, rng, tries=20_000)  # enough draws never to fall back on a misfit
            misfits.clear()
            replay_world(d, view, w.hands, w.declarations, check)
            if eps == 0.0:
                assert not misfits
                strict += 1
            else:
                loose += bool(misfits)
    assert strict > 20 and loose > strict // 4
