"""Reading the table from the earlier deals of a match (`belot.bots.reading`, issue 24): what a
seat remembers (`SeatView.past`), and how `expert` uses it."""

from __future__ import annotations

import dataclasses
import pickle
import random

from belot.bots import reading
from belot.bots.expert import MODEL_DECLARER_PENALTY, ExpertBot
from belot.bots.heuristic import HeuristicBot
from belot.bots.pimc import PimcBot
from belot.bots.random_bot import RandomBot
from belot.bots.reading import MIN_PLAYS, deal_fit, plays_as_model, table_fit
from belot.game import OVER, Match


def _play(seed: int, team_bots: tuple[type, type], deals: int) -> Match:
    """A match (or its first ``deals`` deals) with team 0 played by one bot class, team 1 by the other;
    it stops at the start of deal ``deals`` (counted from 0)."""
    m = Match(rng=random.Random(seed), target=1001)  # long enough for every test here
    bots = [team_bots[s & 1](seed * 4 + s) for s in range(4)]
    while not m.is_over:
        if len(m.deals) > deals and m.current is not None and not m.current.actions:
            break
        m.apply(bots[m.current_player].act(m.view(m.current_player)))
    return m


def test_past_holds_each_earlier_deal_as_the_seat_saw_it_at_its_end() -> None:
    """Each past view is the seat's view as the deal closed, the match's score, target, index and
    history included: they were a lone deal's (0-0, to 151, deal 0), so a past view encoded for a
    learner said the wrong score and target."""
    m = _play(5, (RandomBot, HeuristicBot), 6)
    assert len(m.deals) == 7
    twin = Match(target=1001)  # the same deals dealt by hand: between deals it shows the last one's end
    ends: list[list[object]] = [[], [], [], []]
    for d in m.deals[:-1]:
        twin.deal(d.dealt, d.dealer)
        for a in d.actions:
            twin.apply(a)
        for seat in range(4):
            ends[seat].append(twin.view(seat))
    for seat in range(4):
        past = m.view(seat).past
        assert len(past) == 6
        for k, (d, p) in enumerate(zip(m.deals, past)):
            assert p == dataclasses.replace(ends[seat][k], past=()) and p.phase == OVER and p.past == ()
            assert p.deal_index == k and p.target == 1001 and p.history == tuple(m.results[: k + 1])
            if d.result is not None and d.result.outcome != "redeal":
                assert p.hand == () and sum(len(c) for _, c, _ in p.tricks) == 32  # all public now
            else:
                assert set(p.hand) == set(d.dealt[seat][:5])  # R2.3: only its own first five
    assert m.view(0).past[2] is m.view(0).past[2]  # made once and kept


def test_a_heuristic_team_fits_the_model_in_every_judged_play_and_a_random_one_does_not() -> None:
    m = _play(11, (RandomBot, HeuristicBot), 8)
    fit, judged = table_fit(m.view(0))  # seat 0 reads team 1: heuristic
    assert judged >= MIN_PLAYS and fit == judged
    assert plays_as_model(m.view(2))
    fit, judged = table_fit(m.view(1))  # seat 1 reads team 0: random
    assert judged >= MIN_PLAYS and fit < 0.8 * judged
    assert not plays_as_model(m.view(3))
    # each past deal is judged on its own: the sum over the deals
    per_deal = [deal_fit(p) for p in m.view(0).past]
    assert table_fit(m.view(0)) == (sum(f for f, _ in per_deal), sum(j for _, j in per_deal))
    # an equal copy (a view pickled to the server's bot pool) is read from the cache, not again
    copy = pickle.loads(pickle.dumps(m.view(0)))
    assert copy == m.view(0) and copy.past[0] is not m.view(0).past[0]
    misses = reading._deal_fit.cache_info().misses
    assert table_fit(copy) == table_fit(m.view(0))
    assert reading._deal_fit.cache_info().misses == misses


def test_nothing_is_read_before_a_deal_is_played_out() -> None:
    m = Match(rng=random.Random(3))
    view = m.view(m.current_player)
    assert view.past == ()
    assert table_fit(view) == (0, 0) and not plays_as_model(view)


def test_expert_counts_a_model_declarers_contract_made_only_by_a_wider_margin() -> None:
    """expert's bidding reads the other team's contracts as pimc does (`bid_penalty`) unless that team
    has played as the `heuristic` model in the earlier deals; then it asks for a margin of
    ``MODEL_DECLARER_PENALTY``.  pimc never reads the table."""
    m = _play(11, (RandomBot, HeuristicBot), 8)
    for seat, model_team in ((0, 1), (1, -1)):  # team 1 plays as the model, team 0 at random
        m2 = m.clone()
        while m2.current_player != seat or m2.view(seat).phase != "auction":
            m2.apply(RandomBot(seat).act(m2.view(m2.current_player)))
        view = m2.view(seat)
        bot = ExpertBot(1, play_nodes=30_000, min_worlds=2, max_worlds=4, bid_nodes=200_000, bid_worlds=2,
                        min_bid_worlds=2)
        assert bot.act(view) in view.legal_actions
        other = 1 - (seat & 1)
        assert bot.declarer_penalty(other) == (MODEL_DECLARER_PENALTY if model_team == other else bot.bid_penalty)
        assert bot.declarer_penalty(seat & 1) == bot.bid_penalty
        pimc = PimcBot(1)
        assert pimc.declarer_penalty(other) == pimc.declarer_penalty(seat & 1) == pimc.bid_penalty
