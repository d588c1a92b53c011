"""The open-card solver (belot.solver): its rule kernels equal the engine's, its values equal
plain exhaustive minimax over the engine's own Deal (R5, R6.2, R7.7, R8)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from belot.auction import BID_BASE, PASS
from belot.contracts import NT, TABLES
from belot.game import BELOTE_BASE, CALL_BASE, Deal, deal_hands
from belot.play import beats, legal_cards
from belot.solver import ABOVE, CARD_POINTS, DEAL_POINTS, STRENGTH, TRUMP_MASKS, Objective, Position, Solver
from belot.solver import kernels as K


def test_kernels_equal_engine_rules_on_a_million_positions() -> None:
    """legal_nb == play.legal_cards and beats_nb == play.beats (R5.2-R5.6), 1,048,576 positions."""
    n = 1 << 20
    rng = np.random.default_rng(7)
    contracts = rng.integers(0, 6, n)
    leds = rng.integers(-1, 4, n)
    # the winning card: a card of the led suit, or (half the time in suit contracts) a trump
    trump_suit = np.where(contracts < 4, contracts, leds)
    win_suit = np.where((rng.random(n) < 0.5) & (contracts < 4), trump_suit, leds)
    wins = np.where(leds >= 0, win_suit * 8 + rng.integers(0, 8, n), 0)
    # hands of 1-8 cards without the winning card, biased towards holding the led suit
    hands = np.zeros(n, dtype=np.int64)
    for _ in range(8):
        pick = rng.integers(0, 32, n)
        keep = rng.random(n) < 0.8
        hands |= np.where(keep, np.int64(1) << pick, 0)
    hands &= ~(np.int64(1) << wins)
    hands = np.where(hands == 0, np.int64(1) << ((wins + 1) % 32), hands)
    partners = rng.integers(0, 2, n)
    cards = rng.integers(0, 32, n)
    out_legal = np.zeros(n, dtype=np.int64)
    out_beats = np.zeros(n, dtype=np.int64)
    K.check_rules_bulk(hands, contracts, leds, wins, partners, cards, ABOVE, STRENGTH, TRUMP_MASKS,
                       out_legal, out_beats)
    tables = TABLES
    bad = 0
    for h, c, led, w, pw, card, lg, bt in zip(
            hands.tolist(), contracts.tolist(), leds.tolist(), wins.tolist(), partners.tolist(),
            cards.tolist(), out_legal.tolist(), out_beats.tolist()):
        t = tables[c]
        if legal_cards(h, t, led, w, bool(pw)) != lg or beats(t, card, w) != bool(bt):
            bad += 1
    assert bad == 0


def _position(rng: random.Random, contract: int, tricks: int, extra: int) -> Deal:
    """A deal in ``contract`` after random legal play of ``tricks`` tricks and ``extra`` cards."""
    dealer = rng.randrange(4)
    d = Deal(dealer, deal_hands(rng, dealer))
    d.apply(CALL_BASE + BID_BASE + contract)
    for _ in range(3):
        d.apply(CALL_BASE + PASS)
    while len(d.trick_winners) < tricks or len(d.trick) < extra:
        d.apply(rng.choice([a for a in d.legal_actions() if a < BELOTE_BASE]))
    return d


def _score(d: Deal, obj: Objective) -> tuple[int, int]:
    """Points per team so far in the objective's terms, from the engine's own state."""
    mult = d.table.multiplier if obj.nt_double else 1
    if d.is_over:
        r = d.result
        assert r is not None
        pts = [r.card_points[k] // d.table.multiplier * mult for k in (0, 1)]
        if obj.valat and r.valat is not None:
            pts[r.valat] += 90
    else:
        pts = [d.team_points[k] * mult for k in (0, 1)]
    if obj.belote:
        for seat, _ in d.belotes:
            pts[seat & 1] += 20
    return pts[0], pts[1]


def _minimax(d: Deal, obj: Objective) -> int:
    """Team 0 minus team 1 points from here, exhaustive, through Deal.apply (belote always announced)."""
    s0 = _score(d, obj)
    best = None
    for a in d.legal_actions():
        if a >= 64 or (a < BELOTE_BASE and obj.belote and BELOTE_BASE + a in d.legal_actions()):
            continue
        if a >= BELOTE_BASE and not obj.belote:
            continue
        e = d.clone()
        e.apply(a)
        s1 = _score(e, obj)
        v = (s1[0] - s0[0]) - (s1[1] - s0[1]) + (0 if e.is_over else _minimax(e, obj))
        if best is None or (v > best if d.to_move & 1 == 0 else v < best):
            best = v
    assert best is not None
    return best


@pytest.mark.parametrize("contract", range(6))
def test_solver_equals_minimax_in_the_last_three_tricks(contract: int) -> None:
    """Positions of the last three tricks, mid-trick ones too, in every contract kind."""
    rng = random.Random(100 + contract)
    solver = Solver(table_bits=16)
    for k in range(40):
        d = _position(rng, contract, 5, k % 4)
        obj = CARD_POINTS if k % 2 == 0 else DEAL_POINTS
        pos = Position.from_deal(d)
        pos.check()
        expected = _minimax(d, obj)
        assert solver.diff(pos, obj) == expected
        for x in (expected - 7, expected, expected + 1, expected + 30):  # null windows (pimc bidding)
            v = solver.window(pos, obj, x - 1, x)
            assert (v >= x) == (expected >= x)
        diffs = solver.card_diffs(pos, obj)
        assert sorted(diffs) == sorted(a for a in d.legal_actions() if a < BELOTE_BASE)
        best = max(diffs.values()) if d.to_move & 1 == 0 else min(diffs.values())
        assert best == expected
        # each card's own value: play it in the engine and search the rest exhaustively
        for card, v in diffs.items():
            e = d.clone()
            e.apply(BELOTE_BASE + card if obj.belote and BELOTE_BASE + card in d.legal_actions() else card)
            s0, s1 = _score(d, obj), _score(e, obj)
            after = 0 if e.is_over else _minimax(e, obj)
            assert v == (s1[0] - s0[0]) - (s1[1] - s0[1]) + after


def test_card_values_are_the_movers_card_points() -> None:
    """card_values = the mover's team's card points from here (R6.2 last 10 included, not doubled in NT)."""
    rng = random.Random(3)
    solver = Solver(table_bits=16)
    for k in range(12):
        d = _position(rng, NT if k % 3 == 0 else k % 6, 6, k % 4)
        pos = Position.from_deal(d)
        values = solver.card_values(pos)
        team = d.to_move & 1
        for card, v in values.items():
            e = d.clone()
            e.apply(card)
            # the rest by minimax on card points: mover's team points = (remaining + sign*diff) / 2
            diff_rest = 0 if e.is_over else _minimax(e, CARD_POINTS)
            rem = solver.remaining_points(pos)
            gained0 = e.team_points[0] - d.team_points[0]
            gained1 = e.team_points[1] - d.team_points[1]
            total_diff = gained0 - gained1 + diff_rest
            assert v == (rem + (total_diff if team == 0 else -total_diff)) // 2


def test_full_deal_is_solved_and_sums_to_the_deal_total() -> None:
    """A whole deal from the first lead: both teams' values add up to the contract total (R6.4)."""
    rng = random.Random(11)
    solver = Solver()
    for contract in (0, NT, 5):
        d = _position(rng, contract, 0, 0)
        pos = Position.from_deal(d)
        v = solver.value(pos)
        total = TABLES[contract].total // TABLES[contract].multiplier
        assert 0 <= v <= total
        assert max(solver.card_values(pos).values()) == v


def test_node_limit_aborts_and_leaves_the_solver_usable() -> None:
    rng = random.Random(12)
    solver = Solver(table_bits=16)
    pos = Position.from_deal(_position(rng, 2, 0, 0))
    solver.limit(1000)
    assert solver.card_diffs(pos, DEAL_POINTS) == {} and solver.aborted
    solver.limit(None)
    full = solver.card_diffs(pos, DEAL_POINTS)
    assert not solver.aborted and len(full) == 8
    assert Solver(table_bits=16).card_diffs(pos, DEAL_POINTS) == full


OPTION_SETS = (
    ("OPT-SURCONTRA", "OPT-VALAT-NO-DOUBLE", "OPT-NONZERO"),
    ("OPT-EIGHT-SPLIT", "OPT-CARRE-FIRST", "OPT-SINGLE-CONTEST"),
    ("OPT-LENGTH-FIRST", "OPT-CARRE-RANK", "OPT-NO-SHUFFLE", "OPT-CAPOT-EN"),
)


@pytest.mark.parametrize("options", OPTION_SETS, ids=["+".join(o) for o in OPTION_SETS])
def test_solver_equals_minimax_under_options(options: tuple[str, ...]) -> None:
    """docs/rules.md section 6: no option changes the solver's objective (card points, belote,
    valat): late positions of deals played under the options, every contract kind, doubled up to
    surkontra where the options allow, declarations announced as the options make them."""
    from belot.auction import KONTRA, REKONTRA
    from belot.bots.random_bot import announce_first
    from belot.contracts import SURCONTRA, Rules

    rules = Rules.from_options(list(options))
    rng = random.Random(7)
    solver = Solver(table_bits=16)
    for k in range(36):
        contract = k % 6
        dealer = rng.randrange(4)
        d = Deal(dealer, deal_hands(rng, dealer), rules)
        calls = [BID_BASE + contract, KONTRA, REKONTRA][: k % 3 + 1]
        if rules.has(SURCONTRA) and k % 3 == 2:
            calls.append(KONTRA)  # surkontra, x8
        for call in [*calls, PASS, PASS, PASS]:
            d.apply(CALL_BASE + call)
        while len(d.trick_winners) < 5 or len(d.trick) < k % 4:
            a = announce_first(d.view(d.to_move))
            d.apply(a if a is not None else rng.choice([a for a in d.legal_actions() if a < 64]))
        assert d.rules == rules and d.auction.multiplier == (1, 2, 4, 8)[len(calls) - 1]
        obj = CARD_POINTS if k % 2 == 0 else DEAL_POINTS
        pos = Position.from_deal(d)
        assert solver.diff(pos, obj) == _minimax(d, obj)
