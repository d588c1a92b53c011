"""Property-based tests (Hypothesis) over random legal play: R6.4, R8, R9, R10.5, R12 invariants,
record round trips and the information boundary of `view(seat)`."""

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from belot.cli import main
from belot.commands.random_match import random_match
from belot.contracts import TABLES
from belot.game import CALL_BASE, Match
from belot.record import replay, results, to_json
from belot.scoring import whole_pot

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


PASS_BIAS = st.sampled_from([0.0, 0.6, 0.85])


def play_match(seed: int, check_views: bool = False, pass_bias: float = 0.0) -> Match:
    """Uniformly random legal play; with ``pass_bias`` a call is a pass that often (longer
    matches with more ordinary, undoubled deals)."""
    m = Match(rng=random.Random(seed))
    rng = random.Random(~seed)
    steps = 0
    while not m.is_over:
        legal = m.legal_actions()
        assert legal, "legal_actions() is empty before the end"
        if check_views:
            assert_views_private(m)
        if pass_bias and legal[0] == CALL_BASE and rng.random() < pass_bias:
            m.apply(CALL_BASE)
        else:
            m.apply(rng.choice(legal))
        steps += 1
        assert steps < 50_000, "the match does not end"
    return m


def assert_views_private(m: Match) -> None:
    d = m.current
    unplayed = [d.hands[s] for s in range(4)]
    for seat in range(4):
        v = m.view(seat)
        others = 0
        for s in range(4):
            if s != seat:
                others |= unplayed[s]
        seen = set(v.hand)
        for _, cards, _ in v.tricks:
            seen.update(cards)
        seen.update(c for _, c in v.trick)
        seen.update(c for _, c in v.belotes)
        seen.update(a & 31 for a in v.legal_actions if a < 64)
        for c in seen:
            assert not others >> c & 1, f"seat {seat} sees another seat's unplayed card {c}"
        assert set(v.hand) <= set(d.dealt[seat])
        assert all(isinstance(k, str) for kinds in v.announced for k in kinds)  # kinds only (R7.5)
        if seat != d.to_move:
            assert v.legal_actions == ()
        # what the seat remembers of the earlier deals: its own view at their end (all of a played-out
        # deal's cards are public then; of a deal all passed, its own first five only, R2.3)
        assert len(v.past) == len(m.deals) - 1
        for old, p in zip(m.deals, v.past):
            assert p.phase == "over" and p.seat == seat and p.past == () and p.legal_actions == ()
            assert set(p.hand) <= set(old.dealt[seat][:5]) and (not p.hand or not p.tricks)


@SETTINGS
@given(SEEDS, PASS_BIAS)
def test_every_match_ends_and_deal_points_add_up(seed, bias):
    m = play_match(seed, pass_bias=bias)
    assert m.winner in (0, 1)
    pot = 0
    score = [0, 0]
    for r in m.results:
        if r.outcome == "redeal":
            assert r.points == (0, 0) and r.pot == pot  # R3.6, R11.5
            continue
        total = TABLES[r.contract].total
        assert sum(r.card_points) == total  # R6.4: 162 / 258 / 260
        bonus = 90 if r.valat is not None else 0  # R8
        assert sum(r.totals) == total + bonus + sum(r.declarations) + sum(r.belote)  # R9.1
        # R10.5 / R11: everything written plus the pot change is the whole pot times the multiplier
        assert sum(r.points) + r.pot - pot == whole_pot(sum(r.totals)) * r.multiplier
        pot = r.pot
        score[0] += r.points[0]
        score[1] += r.points[1]
    assert score == m.score
    assert max(score) >= m.target and score[m.winner] > score[1 - m.winner]  # R12.1
    assert m.results[-1].valat is None and m.results[-1].outcome != "redeal"  # R12.2


@SETTINGS
@given(SEEDS, PASS_BIAS)
def test_record_round_trip_reproduces_every_result(seed, bias):
    m = play_match(seed, pass_bias=bias)
    doc = to_json(m)
    again = replay(json.loads(json.dumps(doc)))
    assert results(again) == results(m)
    assert to_json(again) == doc


@settings(max_examples=8, deadline=None)
@given(SEEDS, PASS_BIAS)
def test_a_view_never_holds_another_seats_unplayed_card(seed, bias):
    play_match(seed, check_views=True, pass_bias=bias)


@settings(max_examples=10, deadline=None)
@given(seed=SEEDS)
def test_belot_replay_accepts_every_random_match_record(seed, tmp_path_factory):
    from belot.record import write

    path = tmp_path_factory.mktemp("rm") / f"{seed}.json"
    write(random_match(seed), str(path))
    assert main(["replay", str(path), "--json"]) == 0
