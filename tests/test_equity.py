"""Match equity (`belot.bots.equity`) and `expert` playing for the match (issue 24): the chance of
winning from a score follows R12.1, and a deal's points are valued by what they do to it."""

from __future__ import annotations

import dataclasses
import json
import random
from importlib import resources

import numpy as np
import pytest
from test_sampling import random_positions

from belot.auction import BID_BASE, KONTRA
from belot.bots import equity
from belot.bots.expert import ExpertBot
from belot.bots.pimc import PimcBot
from belot.contracts import Rules
from belot.game import CALL_BASE, Deal, Match, deal_hands

T = 151


def test_the_deal_points_are_both_teams_alike_and_all_scored() -> None:
    doc = json.loads(resources.files("belot.bots").joinpath("deal_points.json").read_text())
    counts = {(a, b): n for a, b, n in doc["points"]}
    assert (0, 0) not in counts and doc["deals"] >= 50_000
    assert all(counts.get((b, a)) == n for (a, b), n in counts.items())
    # R10 / R11: a scored deal writes at least the smallest pot (suit game, 16) between the teams, bar
    # the declarers' half of a hanging deal (it goes to the pot)
    assert min(a + b for a, b in counts) >= 8


def test_chance_follows_r12() -> None:
    e = equity.table()
    assert e.shape == (T, T) and equity.HORIZON == T
    assert np.allclose(e + e.T, 1.0)  # the teams are alike
    assert np.allclose(np.diag(e), 0.5)
    assert (np.diff(e, axis=0) >= -1e-12).all() and (np.diff(e, axis=1) <= 1e-12).all()  # more is better
    assert equity.chance(151, 150, T) == 1.0 and equity.chance(150, 151, T) == 0.0  # R12.1
    assert equity.chance(160, 160, T) == 0.5  # equal at the target: play on (R12.1)
    assert equity.chance(0, 0, T) == pytest.approx(0.5)
    assert 0.9 < equity.chance(140, 100, T) < 1.0 and 0.0 < equity.chance(100, 145, T) < 0.1
    # only what each team still needs counts: 40 to 60 in a match to 61 is 140 to 160... to 161
    assert equity.chance(40, 20, 61) == equity.chance(140, 120, 161) == equity.chance(130, 110, T)
    # far from the end of a long match (a team needs more than 151 points) there is no model
    assert equity.chance(140, 100, 301) is None and equity.chance(160, 150, 301) is not None


def test_a_long_match_is_played_for_the_deal_score_until_its_last_151_points() -> None:
    """Matches may be played to 10,000 (the server's limit): no table that large is built; deals
    are worth their score until both teams are within 151 points of the target."""
    assert equity.value((0, 0), 10_000, 0, (20, 6)) == 14
    assert equity.value((9_900, 9_800), 10_000, 1, (20, 6)) == -14  # team 1 needs 200
    assert equity.value((9_900, 9_870), 10_000, 0, (20, 6)) == equity.value((51, 21), T, 0, (20, 6)) != 14


def test_value_is_the_deal_score_early_and_the_match_late() -> None:
    # at the start a deal's points are worth about their difference (the scale of `value`)
    assert equity.value((0, 0), T, 0, (0, 0)) == 0.0
    assert equity.value((0, 0), T, 0, (16, 0)) == pytest.approx(16.0, abs=0.5)
    assert equity.value((0, 0), T, 1, (16, 0)) == pytest.approx(-16.0, abs=0.5)
    assert equity.value((0, 0), T, 0, (10, 6)) == pytest.approx(4.0, abs=0.5)
    # near the end: 145 to 100, the leaders win with any 6 points; 30 more are worth no more than 6
    assert equity.value((145, 100), T, 0, (36, 0)) == equity.value((145, 100), T, 0, (6, 10))
    # ... and the others, behind, are best off taking everything (a kontra's whole pot)
    late = equity.value((145, 100), T, 1, (0, 52))
    assert late > 2 * equity.value((0, 0), T, 1, (0, 52))
    # both past the target: the one with more wins (R12.1)
    assert equity.value((140, 140), T, 0, (20, 12)) == pytest.approx((1 - 0.5) * equity.scale())


def test_pimc_values_deals_by_their_score_and_expert_by_the_match() -> None:
    d = Deal(0, deal_hands(random.Random(1), 0))
    view = dataclasses.replace(d.view(1), score=(100, 145))
    assert PimcBot(1).deal_value(view, (20, 6)) == -14
    assert ExpertBot(1, match_aware=False).deal_value(view, (20, 6)) == -14
    assert ExpertBot(1).deal_value(view, (20, 6)) == equity.value((100, 145), T, 1, (20, 6))
    assert ExpertBot(1).match_aware


def test_a_lead_weight_counts_the_deal_score_beside_the_match() -> None:
    """``lead_weight`` w: (match equity + w * deal score) / (1 + w); 0 (the default) is the match alone."""
    d = Deal(0, deal_hands(random.Random(1), 0))
    view = dataclasses.replace(d.view(1), score=(100, 145))
    eq = equity.value((100, 145), T, 1, (20, 6))
    assert ExpertBot(1).lead_weight == 0 and ExpertBot(1).deal_value(view, (20, 6)) == eq
    assert ExpertBot(1, lead_weight=1).deal_value(view, (20, 6)) == pytest.approx((eq - 14) / 2)
    assert ExpertBot(1, lead_weight=3).deal_value(view, (20, 6)) == pytest.approx((eq - 3 * 14) / 4)
    # a deal that scores nothing is still worth nothing
    assert ExpertBot(1, lead_weight=3).deal_value(view, (0, 0)) == 0


def test_expert_doubles_a_contract_that_wins_the_others_the_match() -> None:
    """With the bidders at 145 and expert's team at 90, the bidders win the match with their contract
    made or hanging, doubled or not; only a failed kontra saves expert's team.  Expert doubles there
    where expert playing for the deal score passes."""
    doubled = 0
    seen = 0
    for d, _ in random_positions(400, 77, bot="heuristic"):
        if d.phase != "auction":
            continue
        view = d.view(d.to_move)
        kontra = CALL_BASE + KONTRA
        if kontra not in view.legal_actions or view.declarer & 1 == view.seat & 1:
            continue
        if not any(BID_BASE <= c < KONTRA for _, c in view.calls):
            continue
        them = (145, 90) if view.seat & 1 else (90, 145)
        late = dataclasses.replace(view, score=them)
        params = dict(bid_nodes=400_000, bid_worlds=8, min_bid_worlds=8)
        aware = ExpertBot(3, **params).act(late)
        plain = ExpertBot(3, match_aware=False, **params).act(late)
        seen += 1
        doubled += aware == kontra and plain != kontra
        if seen >= 6:
            break
    assert seen >= 3 and doubled >= 1


def test_a_match_past_the_target_is_decided_by_the_next_deal() -> None:
    """R12.2: after a valat a match goes on with a team at the target; the next deal played decides it
    (R12.1).  The team ahead gains by playing any deal, the team behind only by overtaking."""
    assert equity.deciding(57) + equity.deciding(-57) == pytest.approx(1.0)
    assert 0.99 < equity.deciding(57) < 1.0 and equity.deciding(0) == pytest.approx(0.5)
    assert equity.value((197, 140), T, 0, (16, 0)) > 0 and equity.value((197, 140), T, 0, (0, 26)) > 0
    assert equity.value((197, 140), T, 1, (0, 26)) < 0 < equity.value((197, 140), T, 1, (0, 80))
    # no deal can make up 123 points: the winner is settled, so the deal is played for its points
    assert equity.deciding(123) == 1.0 and equity.deciding(-123) == 0.0
    assert equity.value((95, 218), T, 0, (16, 0)) == 16 and equity.value((95, 218), T, 1, (16, 0)) == -16


@pytest.mark.parametrize("score", [(197, 140), (95, 218)])
def test_four_experts_end_a_match_that_goes_on_past_the_target(score: tuple[int, int]) -> None:
    """At 197 to 140 or 95 to 218 after a valat (R12.2), expert once counted the match as decided, every
    deal worth nothing to both teams, and all four passed deal after deal: the match never ended."""
    m = Match(Rules.from_options(()), target=T, rng=random.Random(5), players=["bot:expert"] * 4)
    m.score = list(score)
    params = dict(bid_nodes=200_000, bid_worlds=6, min_bid_worlds=6, play_nodes=20_000, max_worlds=6, min_worlds=4)
    for _ in range(2000):
        if m.is_over or len(m.deals) > 4:
            break
        bots = [ExpertBot(len(m.deals) * 4 + s, **params) for s in range(4)]
        m.apply(bots[m.current_player].act(m.view(m.current_player)))
    assert m.is_over and m.winner == (0 if score[0] > score[1] else 1), [r.outcome for r in m.results]
