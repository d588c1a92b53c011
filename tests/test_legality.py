"""`apply` accepts exactly the legal actions (R3, R5, R7): one legal set, computed by the state.

The inputs come from the whole action space (all 163 actions, the ints around it and values of
other types) at positions of every phase, not from the shape of one rule: belote announced with an
ace of trumps was accepted once because a hand-written check let it through.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest
from conftest import make_hands
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from belot.cards import ACE, KING, QUEEN, parse_card
from belot.contracts import AT, NT
from belot.errors import RecordError, RuleError
from belot.game import BELOTE_BASE, CALL_BASE, NUM_ACTIONS, PLAY, Deal, Match, deal_hands
from belot.record import replay, to_json

ODD_VALUES: tuple[object, ...] = (-1, -2**70, NUM_ACTIONS, 2**70, True, False, 1.0, "JH", None, (0,))


def _snapshot(d: Deal) -> tuple[object, ...]:
    return (d.phase, d.to_move, tuple(d.hands), tuple(d.actions), tuple(d.belotes),
            tuple(map(tuple, d.declared)), tuple(d.trick), d.result)


def assert_apply_matches_legal(d: Deal) -> None:
    legal = set(d.legal_actions())
    before = _snapshot(d)
    for action in (*range(NUM_ACTIONS), *ODD_VALUES):
        trial = d.clone()
        try:
            trial.apply(action)  # type: ignore[arg-type]
        except RuleError as e:
            assert action not in legal or type(action) is not int, f"legal {action!r} refused: {e}"
            assert e.rule.startswith("R"), e
            assert _snapshot(trial) == before, f"refused {action!r} changed the state"
        else:
            assert type(action) is int and action in legal, f"{action!r} accepted but not legal"
        assert d.is_legal(action) == (type(action) is int and action in legal)
    assert _snapshot(d) == before


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0, max_value=2**32 - 1), st.sampled_from([0.0, 0.7]))
def test_apply_accepts_exactly_the_legal_actions(seed, pass_bias):
    """Every position of a random deal (auction, trick 1 with declarations and belote, later tricks,
    the end): each of the 163 actions is accepted by `apply` exactly when `legal_actions()` holds it."""
    rng = random.Random(seed)
    dealer = rng.randrange(4)
    d = Deal(dealer, deal_hands(rng, dealer))
    while True:
        assert_apply_matches_legal(d)
        if d.is_over:
            break
        legal = d.legal_actions()
        if legal[0] == CALL_BASE and rng.random() < pass_bias:
            d.apply(CALL_BASE)
        else:
            d.apply(rng.choice(legal))


def test_match_apply_accepts_exactly_the_legal_actions():
    """The same at the match level, including between deals and after the end (R2.1, R12.1)."""
    m = Match(rng=random.Random(5), target=40)
    rng = random.Random(6)
    while not m.is_over:
        legal = set(m.legal_actions())
        for action in (*range(NUM_ACTIONS), *ODD_VALUES):
            trial = m.clone()
            try:
                trial.apply(action)  # type: ignore[arg-type]
            except RuleError:
                assert action not in legal or type(action) is not int
            else:
                assert type(action) is int and action in legal
        m.apply(rng.choice(sorted(legal)))
    for action in range(NUM_ACTIONS):
        with pytest.raises(RuleError, match=r"R12\.1"):
            m.apply(action)


def test_five_card_record_cannot_end_in_a_contract():
    """R2.3: a deal known by its first five cards only can end only with four passes, so no bid is
    offered or accepted. It once refused only the pass that would close a contract, and a walk
    through the legal actions could then reach an auction with none (AT kontra rekontra pass pass)."""
    rng = random.Random(3)
    hands = [h[:5] for h in deal_hands(rng, 0)]
    d = Deal(0, hands)
    for call in range(1, 7):  # the six bids; kontra and rekontra have no contract to double (R3.3)
        with pytest.raises(RuleError, match=r"only be passed by all four \(R2\.3\)"):
            d.apply(CALL_BASE + call)
    for _ in range(4):
        assert d.legal_actions() == [CALL_BASE]
        assert_apply_matches_legal(d)
        d.apply(CALL_BASE)
    assert d.is_over and d.result is not None


@pytest.mark.parametrize(("auction", "where"), [
    (["AT", "kontra", "rekontra", "pass", "pass"], "auction[0]"),
    (["pass", "C"], "auction[1]"),
    (["pass", "pass"], "hands"),
    ([], "hands"),
])
def test_a_five_card_record_must_be_a_finished_all_pass_deal(auction, where, tmp_path):
    """R2.3, docs/record-format.md: only a deal that all four passed may give five cards a hand. A
    record with a bid in such a deal, or with such a deal unfinished, is a record error naming the
    place: it was replayed as a deal in progress, which could reach a state with no legal action
    (AT kontra rekontra pass pass), and `belot play --resume` of it crashed in the bot."""
    doc = to_json(Match(rng=random.Random(3)))
    doc["deals"][0]["hands"] = [h[:5] for h in doc["deals"][0]["hands"]]
    doc["deals"][0]["auction"] = auction
    with pytest.raises(RecordError, match=r"five cards each, which only a deal that all four passed.*\(R2\.3\)") as e:
        replay(doc)
    assert str(e.value).startswith(f"deal 0, {where}: ")
    path = tmp_path / "five.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    for command in (["replay", str(path)], ["play", "--resume", str(path)]):
        proc = subprocess.run([sys.executable, "-m", "belot", *command], capture_output=True, text=True,
                              stdin=subprocess.DEVNULL, timeout=60)
        assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
        assert f"deal 0, {where}" in proc.stderr
    doc["deals"][0]["auction"] = ["pass"] * 4  # the passed-out deal the format allows
    assert replay(doc).results[0].outcome == "redeal"


def _deal_in_play(contract: int, hands: list[list[int]]) -> Deal:
    d = Deal(3, hands)  # seat 0 is the forehand and bids
    d.apply(CALL_BASE + 1 + contract)
    for _ in range(3):
        d.apply(CALL_BASE)
    assert d.phase == PLAY and d.to_move == 0
    return d


@pytest.mark.parametrize("contract", [0, 2, AT])
def test_belote_with_the_ace_is_refused(contract):
    """R7.7: belote is announced with the first of K+Q of trumps, never with the ace, even by a seat
    holding A, K and Q of trumps (the bug found by fuzzing the server); the state is unchanged."""
    suit = 0 if contract == AT else contract
    ace, king, queen = (8 * suit + r for r in (ACE, KING, QUEEN))
    s = "CDHS"[suit]
    d = _deal_in_play(contract, make_hands({0: f"A{s} K{s} Q{s}"}))
    assert {ace, king, queen} <= set(d.legal_actions())
    assert BELOTE_BASE + ace not in d.legal_actions()
    assert {BELOTE_BASE + king, BELOTE_BASE + queen} <= set(d.legal_actions())
    before = _snapshot(d)
    with pytest.raises(RuleError) as e:
        d.apply(BELOTE_BASE + ace)
    assert e.value.rule == "R7.7"
    assert _snapshot(d) == before
    d.apply(BELOTE_BASE + king)  # the king is fine, and then the queen no longer carries belote
    assert d.belotes == [(0, king)]


def test_no_belote_in_no_trumps():
    d = _deal_in_play(NT, make_hands({0: "AS KS QS"}))
    with pytest.raises(RuleError, match=r"no trumps \(R7\.7\)"):
        d.apply(BELOTE_BASE + parse_card("KS"))


def _record_with_belote_on(card_name: str) -> dict:
    """A record whose deal 0 has seat 0 (the forehand) bid hearts and lead ``card_name`` with belote."""
    hands = make_hands({0: f"AH KH QH {card_name}" if card_name[1] != "H" else "AH KH QH 9H JH"})
    m = Match(first_dealer=3)
    d = m.deal(hands)
    m.apply(CALL_BASE + 1 + 2)
    for _ in range(3):
        m.apply(CALL_BASE)
    m.apply(parse_card(card_name))
    doc = to_json(m)
    doc["deals"][0]["play"][0] = {"card": card_name, "belote": True}
    assert d.hands  # the deal really was played from these hands
    return doc


@pytest.mark.parametrize("card_name", ["AH", "7C", "JH", "9H"])
def test_record_with_belote_on_another_card_is_refused(card_name, tmp_path):
    """R7.7: a record announcing belote with any card but the first of K+Q of trumps is refused,
    naming the deal, the play index and the rule; `belot replay` exits 2."""
    doc = _record_with_belote_on(card_name)
    with pytest.raises(RecordError) as e:
        replay(doc)
    assert str(e.value).startswith("deal 0, play[0]: no belote with ") and str(e.value).endswith("(R7.7)")
    path = tmp_path / "ace-belote.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "belot", "replay", str(path)], capture_output=True, text=True)
    assert proc.returncode == 2
    assert "deal 0, play[0]" in proc.stderr and "R7.7" in proc.stderr
