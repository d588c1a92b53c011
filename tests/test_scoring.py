"""R9-R11: the 25 worked scoring examples of docs/rules.md section 4, and the rounding rules R10."""

import pytest

from belot.contracts import AT, DEFAULT_RULES, NT, C, D, H, S
from belot.scoring import HANGING, DealScore, round_points, rounding_step, score_deal, whole_pot

# (#, contract, multiplier, T(B), T(D), H, outcome, gp B, gp D, pot after)
EXAMPLES = [
    (1, H, 1, 96, 66, 0, "made", 9, 7, 0),
    (2, S, 1, 86, 76, 0, "made", 8, 8, 0),
    (3, D, 1, 156, 6, 0, "made", 15, 1, 0),
    (4, C, 1, 81, 81, 0, "hanging", 0, 8, 8),
    (5, D, 1, 100, 62, 8, "made", 18, 6, 0),
    (6, H, 1, 76, 86, 0, "inside", 0, 16, 0),
    (7, S, 1, 106, 106, 0, "hanging", 0, 10, 11),
    (8, D, 1, 112, 70, 0, "made", 11, 7, 0),
    (9, H, 1, 92, 90, 0, "made", 9, 9, 0),
    (10, AT, 1, 224, 34, 0, "made", 22, 4, 0),
    (11, AT, 1, 194, 164, 0, "made", 19, 17, 0),
    (12, AT, 1, 154, 154, 0, "hanging", 0, 15, 16),
    (13, AT, 1, 125, 133, 0, "inside", 0, 26, 0),
    (14, NT, 1, 168, 92, 0, "made", 17, 9, 0),
    (15, NT, 1, 128, 132, 0, "inside", 0, 26, 0),
    (16, NT, 1, 130, 130, 0, "hanging", 0, 13, 13),
    (17, H, 2, 110, 72, 0, "made", 36, 0, 0),
    (18, H, 2, 70, 92, 0, "inside", 0, 32, 0),
    (19, AT, 4, 140, 118, 0, "made", 104, 0, 0),
    (20, C, 2, 81, 81, 0, "hanging", 0, 0, 32),
    (21, S, 1, 252, 0, 0, "made", 25, 0, 0),
    (22, NT, 1, 350, 0, 0, "made", 35, 0, 0),
    (23, AT, 1, 0, 348, 0, "inside", 0, 35, 0),
    (24, S, 2, 252, 0, 0, "made", 50, 0, 0),
    (25, H, 2, 70, 92, 11, "inside", 0, 43, 0),
]


@pytest.mark.parametrize("team", [0, 1])
@pytest.mark.parametrize("row", EXAMPLES, ids=[f"example-{r[0]}" for r in EXAMPLES])
def test_r9_r10_r11_worked_example(row, team):
    """docs/rules.md section 4, every row, with the contract team on either side."""
    _, contract, mult, tb, td, pot, outcome, gb, gd, after = row
    totals = (tb, td) if team == 0 else (td, tb)
    s = score_deal(contract, team, totals, mult, pot, rules=DEFAULT_RULES)
    assert s.outcome == outcome
    assert s.points[team] == gb and s.points[1 - team] == gd
    assert s.pot == after
    # the check of section 4: gp B + gp D + new pot - H = P x m
    assert gb + gd + after - pot == whole_pot(tb + td) * mult


def test_r10_1_suit_rounding_pivot_six():
    assert round_points(96, H, more=True) == 9 and round_points(96, H, more=False) == 10
    assert round_points(95, H, more=False) == 9 and round_points(97, H, more=True) == 10


def test_r10_2_all_trumps_pivot_four():
    assert round_points(194, AT, more=True) == 19 and round_points(164, AT, more=False) == 17
    assert round_points(193, AT, more=False) == 19 and round_points(195, AT, more=True) == 20


def test_r10_3_no_trumps_even_totals():
    assert round_points(164, NT, more=True) == 16 and round_points(166, NT, more=True) == 17


def test_r10_4_hanging_split_defenders_down_pot_up():
    s = score_deal(S, 0, (106, 106), 1, 0, rules=DEFAULT_RULES)
    assert s.points == (0, 10) and s.pot == 11
    s = score_deal(AT, 1, (154, 154), 1, 0, rules=DEFAULT_RULES)
    assert s.points == (15, 0) and s.pot == 16


def test_r10_5_game_points_add_up_to_the_whole_pot():
    for contract in range(6):
        total = (162, 162, 162, 162, 260, 258)[contract]
        for b in range(0, total + 1, 2 if contract == NT else 1):
            d = total - b
            s = score_deal(contract, 0, (b, d), 1, 0, rules=DEFAULT_RULES)
            assert s.points[0] + s.points[1] + s.pot == whole_pot(total), (contract, b)


def test_r11_1_made_each_team_its_own_rounded_points():
    assert score_deal(H, 0, (96, 66), 1, 0, rules=DEFAULT_RULES).points == (9, 7)


def test_r11_2_inside_everything_to_the_defenders():
    assert score_deal(H, 1, (86, 76), 1, 0, rules=DEFAULT_RULES).points == (16, 0)  # team 1 bid, team 0 gets P


def test_r11_3_hanging_defenders_score_and_the_bidders_points_hang():
    s = score_deal(C, 0, (81, 81), 1, 5, rules=DEFAULT_RULES)
    assert s.outcome == "hanging" and s.points == (0, 8) and s.pot == 13


def test_r11_5_pot_goes_to_the_team_that_gains_the_next_scored_deal():
    assert score_deal(H, 0, (100, 62), 1, 8, rules=DEFAULT_RULES).points == (18, 6)  # made: to B
    assert score_deal(H, 0, (62, 100), 1, 8, rules=DEFAULT_RULES).points == (0, 24)  # inside: to D
    assert score_deal(H, 0, (62, 100), 2, 8, rules=DEFAULT_RULES).points == (0, 40)  # doubled: to the team with more
    assert score_deal(C, 0, (81, 81), 1, 8, rules=DEFAULT_RULES).pot == 16  # accumulates over successive hangs


def test_r11_4_kontra_multiplies_everything():
    assert score_deal(H, 0, (110, 72), 2, 0, rules=DEFAULT_RULES).points == (36, 0)
    assert score_deal(AT, 1, (118, 140), 4, 0, rules=DEFAULT_RULES).points == (0, 104)


def test_rounding_step_is_the_r10_step_of_score_deal() -> None:
    """R10: each team rounds on its own when the contract is made or hangs (the hanging half of the
    contract team as "fewer", R10.4); inside or doubled deals are scored whole (R10.5)."""
    assert rounding_step(H, 0, (96, 66), 1) == (9, 7)  # docs/rules.md example 1, hearts made
    assert score_deal(H, 0, (96, 66), 1, 0, rules=DEFAULT_RULES).points == (9, 7)
    assert rounding_step(H, 0, (66, 96), 1) == 16  # inside: the whole pot to the defenders
    assert score_deal(H, 0, (66, 96), 1, 0, rules=DEFAULT_RULES).points == (0, 16)
    assert rounding_step(H, 1, (66, 96), 2) == 16  # kontra: whole, before the multiplier
    assert score_deal(H, 1, (66, 96), 2, 0, rules=DEFAULT_RULES).points == (0, 32)
    assert rounding_step(H, 0, (86, 86), 1) == (9, 8)  # hanging at u = 6: defenders down, pot half up
    assert score_deal(H, 0, (86, 86), 1, 0, rules=DEFAULT_RULES) == DealScore(HANGING, (0, 8), 9)


def test_deal_result_builds_the_same_result_as_the_dataclass() -> None:
    """deal_result fills DealResult's slots directly (scoring._result): equal to the dataclass's
    own constructor, field for field, and as frozen."""
    import dataclasses

    from belot.scoring import DealResult, _result

    values = (2, 1, 2, (1, 3, 3, 1, 0, 1, 3, 1), (90, 72), (20, 0), (0, 20), None, (110, 92), "made",
              (22, 0), 0, ((), (5,), (), ()), 2)
    built = _result(*values)
    assert built == DealResult(*values)
    assert dataclasses.astuple(built) == values
    with pytest.raises(dataclasses.FrozenInstanceError):
        built.pot = 3  # type: ignore[misc]
