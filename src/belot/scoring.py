"""Scoring a deal (R9-R11): outcome, rounding to game points, kontra and the hanging pot.

>>> score_deal(2, 0, (96, 66), 1, 0).points   # docs/rules.md example 1: hearts, 96-66, made
(9, 7)
"""

from __future__ import annotations

from dataclasses import dataclass

from .contracts import AT, NT

MADE, HANGING, INSIDE, REDEAL = "made", "hanging", "inside", "redeal"


def round_points(x: int, contract: int, more: bool) -> int:
    """Raw points to game points (R10.1-R10.3); ``more`` = this team has the larger total."""
    f, u = divmod(x, 10)
    if contract == NT:
        return f if u <= 4 else f + 1  # R10.3 (raw totals are even)
    pivot = 4 if contract == AT else 6  # R10.2 / R10.1
    if u < pivot:
        return f
    if u > pivot:
        return f + 1
    return f if more else f + 1


def whole_pot(total: int) -> int:
    """R10.5: the deal's whole pot, round-half-up of the sum of both totals over 10."""
    return (total + 5) // 10


def rounding_step(contract: int, team: int, totals: tuple[int, int], multiplier: int) -> int | tuple[int, int]:
    """The rounding of R10 as `score_deal` applies it to raw ``totals`` (``team`` holds the contract).

    An int: the deal is scored whole (kontra or rekontra, R11.4; inside, R11.2), this is its whole
    pot P (R10.5) before the multiplier.  A pair: each team's raw total rounded on its own (R10.1-
    R10.3), the team with more rounding as "more"; when the totals are equal (hanging, R10.4) the
    defenders round as "more" and the contract team's half, which goes to the pot, as "fewer".
    """
    b, d = totals[team], totals[1 - team]
    if multiplier > 1 or b < d:
        return whole_pot(b + d)
    out = [0, 0]
    out[team] = round_points(b, contract, b > d)
    out[1 - team] = round_points(d, contract, b == d)
    return out[0], out[1]


@dataclass(frozen=True, slots=True)
class DealScore:
    outcome: str
    points: tuple[int, int]  # game points written to each team (pot included)
    pot: int  # hanging pot after the deal


def score_deal(contract: int, team: int, totals: tuple[int, int], multiplier: int, pot: int) -> DealScore:
    """Game points for a finished deal (R9.2, R10, R11).

    ``team`` is the contract team, ``totals`` the raw totals of R9.1 per team, ``pot`` the hanging
    pot carried in (H).
    """
    b, d = totals[team], totals[1 - team]
    r = rounding_step(contract, team, totals, multiplier)
    points = [0, 0]
    if isinstance(r, int):
        if multiplier > 1:  # R11.4: kontra x2, rekontra x4; round first, then multiply
            stake = r * multiplier
            if b == d:
                return DealScore(HANGING, (0, 0), pot + stake)
            winner = team if b > d else 1 - team
            points[winner] = stake + pot
            return DealScore(MADE if b > d else INSIDE, (points[0], points[1]), 0)
        points[1 - team] = r + pot  # R11.2: everything goes to the defenders
        return DealScore(INSIDE, (points[0], points[1]), 0)
    if b > d:  # R11.1
        points[team] = r[team] + pot
        points[1 - team] = r[1 - team]
        return DealScore(MADE, (points[0], points[1]), 0)
    # R11.3 with R10.4: the defenders' half is written, the contract team's half joins the pot
    points[1 - team] = r[1 - team]
    return DealScore(HANGING, (points[0], points[1]), pot + r[team])
