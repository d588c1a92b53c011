"""Every registered bot returns one of the legal actions of the view it is shown (R3, R5, R7).

Positions come from real deals: the seats are driven by the bot under test and by `random` in
turn, so both the positions a bot steers into and odd ones it would never choose are covered.
Slow bots (anything but random and heuristic, e.g. pimc) get a small share of positions.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from belot.bots import REGISTRY, make_bot
from belot.game import Deal, Match, deal_hands

FAST = {"random", "heuristic"}


def positions_checked(name: str, deals: int, seed: int, limit: int | None = None, stride: int = 1) -> int:
    """Play ``deals`` deals; at every ``stride``-th decision ask ``name`` for its action and check
    it is legal (the other decisions are the driver's)."""
    rng = random.Random(seed)
    checked = 0
    for k in range(deals):
        deal = Deal(k & 3, deal_hands(rng, k & 3), pot=rng.choice((0, 0, 8, 16)))
        bot = make_bot(name, seed=rng.randrange(2**32))
        driver = make_bot("random", seed=rng.randrange(2**32))
        bot_seats = {rng.randrange(4), rng.randrange(4)}
        step = 0
        while not deal.is_over:
            seat = deal.current_player
            view = deal.view(seat)
            step += 1
            if step % stride:
                deal.apply(driver.act(view))
                continue
            action = bot.act(view)
            assert action in view.legal_actions, (name, view, action)
            assert action in deal.legal_actions()
            checked += 1
            if limit is not None and checked >= limit:
                return checked
            deal.apply(action if seat in bot_seats else driver.act(view))
    return checked


@pytest.mark.parametrize("name", sorted(REGISTRY))
def test_bot_never_returns_an_illegal_action(name: str) -> None:
    if name in FAST:
        checked = positions_checked(name, deals=150, seed=11)
        assert checked >= 3000
    else:
        # Spread over the auction and the play of a few deals.
        assert positions_checked(name, deals=3, seed=12, limit=25, stride=4) >= 20


@pytest.mark.parametrize("name", sorted(FAST & set(REGISTRY)))
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_fast_bot_plays_whole_matches_legally(name: str, seed: int) -> None:
    """A whole match (kontra, hanging pots, declarations, belote) with the bot at all four seats."""
    rng = random.Random(seed)
    bots = [make_bot(name, seed=rng.randrange(2**32)) for _ in range(4)]
    match = Match(rng=rng, target=60)
    while not match.is_over:
        seat = match.current_player
        view = match.view(seat)
        action = bots[seat].act(view)
        assert action in view.legal_actions
        match.apply(action)


def test_bots_are_reproducible_from_their_seed() -> None:
    for name in sorted(FAST & set(REGISTRY)):
        rng = random.Random(3)
        deal = Deal(0, deal_hands(rng, 0))
        a, b = make_bot(name, seed=99), make_bot(name, seed=99)
        while not deal.is_over:
            view = deal.view(deal.current_player)
            x = a.act(view)
            assert b.act(view) == x
            deal.apply(x)
