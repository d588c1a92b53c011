"""R3: the auction, with the examples of docs/rules.md section 4; R1.3 calling order; R2.1 redeal."""

import pytest
from conftest import make_hands

from belot.auction import CALL_NAMES, parse_call
from belot.contracts import CONTRACT_NAMES
from belot.errors import RuleError
from belot.game import CALL_BASE, OVER, PLAY, Deal


def run(calls: str, dealer: int = 0) -> Deal:
    d = Deal(dealer, make_hands({}))
    for c in calls.split():
        d.apply(CALL_BASE + parse_call(c))
    return d


def legal_calls(d: Deal) -> set[str]:
    return {CALL_NAMES[a - CALL_BASE] for a in d.legal_actions()}


def test_r3_examples_clubs_undoubled():
    d = run("C pass pass pass")
    assert d.phase == PLAY and CONTRACT_NAMES[d.contract] == "C"
    assert d.auction.declarer == 1 and d.auction.multiplier == 1  # F = dealer + 1


def test_r3_examples_kontra_and_rekontra():
    d = run("pass H kontra pass pass pass")
    assert (CONTRACT_NAMES[d.contract], d.auction.declarer, d.auction.multiplier) == ("H", 2, 2)
    d = run("pass H kontra rekontra pass pass pass")
    assert d.auction.multiplier == 4


def test_r3_4_escape_removes_the_doubling():
    d = run("H kontra S pass pass pass")
    assert (CONTRACT_NAMES[d.contract], d.auction.declarer, d.auction.multiplier) == ("S", 3, 1)


def test_r3_6_four_passes_redeal_and_nothing_scored():
    d = run("pass pass pass pass")
    assert d.phase == OVER and d.result.outcome == "redeal" and d.result.points == (0, 0)


def test_r3_3_kontra_of_own_team_is_illegal():
    d = run("C pass")
    with pytest.raises(RuleError, match=r"own team.*\(R3\.3\)"):
        d.apply(CALL_BASE + parse_call("kontra"))


def test_r1_3_r3_1_calls_go_round_from_the_forehand():
    d = Deal(2, make_hands({}))
    seen = []
    for _ in range(3):
        seen.append(d.current_player)
        d.apply(CALL_BASE + parse_call("pass"))
    assert seen == [3, 0, 1]


def test_r3_1_bids_must_be_higher_and_passed_players_may_bid_again():
    d = run("pass H")
    assert legal_calls(d) == {"pass", "S", "NT", "AT", "kontra"}
    with pytest.raises(RuleError, match=r"higher than H \(R3\.1\)"):
        d.apply(CALL_BASE + parse_call("D"))
    d = run("pass C pass pass")
    assert "D" in legal_calls(d)  # the forehand passed earlier and may bid now


def test_r3_2_partner_may_overbid_and_r3_5_contract_team_follows_last_bid():
    d = run("C pass NT pass pass pass")
    assert (d.contract, d.auction.declarer) == (4, 3)


def test_r3_3_rekontra_only_by_contract_team_over_kontra():
    d = run("H kontra")
    assert "rekontra" in legal_calls(d)  # seat 3: partner of the bidder (seat 1)
    d = run("H kontra pass")
    assert "rekontra" not in legal_calls(d)  # seat 0: a defender
    assert "kontra" not in legal_calls(d)  # already doubled
    d = run("AT kontra rekontra")
    assert legal_calls(d) == {"pass"}  # no third level (OPT-SURCONTRA)


def test_r3_6_three_passes_after_rekontra_end_the_auction():
    d = run("AT kontra rekontra pass pass")
    assert d.phase != PLAY
    d.apply(CALL_BASE + parse_call("pass"))
    assert d.phase == PLAY and d.auction.multiplier == 4


def test_calls_after_the_auction_are_refused():
    d = run("C pass pass pass")
    with pytest.raises(RuleError, match="auction is over"):
        d.apply(CALL_BASE)
