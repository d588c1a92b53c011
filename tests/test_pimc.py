"""The ``pimc`` bot: always legal, reproducible from its seed, blind to hidden cards."""

from __future__ import annotations

import random

from test_sampling import random_positions, replay_world

from belot.bots import make_bot
from belot.bots.pimc import PimcBot
from belot.bots.sampling import Knowledge, sample
from belot.game import CALL_BASE, DECLARE_BASE


def small(seed: int) -> PimcBot:
    """A pimc bot with small search budgets (same code paths, test-sized)."""
    return PimcBot(seed, play_nodes=30_000, min_worlds=2, max_worlds=4, bid_nodes=200_000, bid_worlds=2,
                    min_bid_worlds=2)


def test_registered_and_legal_over_many_positions() -> None:
    assert isinstance(make_bot("bot:pimc", 1), PimcBot)
    bot = small(3)
    kinds = {"call": 0, "card": 0}
    for d, _ in random_positions(160, 11):
        seat = d.to_move
        view = d.view(seat)
        action = bot.act(view)
        assert action in view.legal_actions
        kinds["call" if CALL_BASE <= action < DECLARE_BASE else "card"] += 1
        d.apply(action)  # the engine accepts it
    assert kinds["call"] > 10 and kinds["card"] > 50


def test_same_view_different_hidden_cards_same_decision() -> None:
    """Two deals that differ only in cards the seat cannot see give the same view and decision."""
    rng = random.Random(5)
    checked = 0
    for d, _ in random_positions(40, 21):
        seat = d.to_move
        view = d.view(seat)
        if view.phase != "play":
            continue
        other = None
        for _ in range(20):  # another world consistent with the view, with different hidden cards
            w = sample(Knowledge.from_view(view), rng)
            if list(w.hands) != d.hands:
                other = replay_world(d, view, w.hands, w.declarations)
                break
        if other is None:
            continue
        assert other.hands != d.hands
        view2 = other.view(seat)
        # the announced declaration ids of others stay hidden, so the views are equal
        assert view2 == view
        assert small(9).act(view) == small(9).act(view2)
        checked += 1
    assert checked >= 10


def test_reproducible_from_seed() -> None:
    for d, _ in random_positions(12, 31):
        view = d.view(d.to_move)
        assert small(4).act(view) == small(4).act(view)
