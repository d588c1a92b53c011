"""Match equity: the chance that a team wins the match (R12) from a score, and a deal's game points
valued by what they do to that chance.

A search bot that maximises its deal score plays every deal as if the match went on for ever; a match
to 151 is won by the team that gets there first.  With 140 to 100 a team needs 11 more points and a safe
small contract is worth nearly as much as a big risky one; with 100 to 145 against it, the other team
wins with almost any points it takes, so doubling its contract costs nothing (it wins anyway if the
contract is made) and may win the match.  `value` gives a deal's points as the change in the chance of
winning the match, scaled to game points at the start of a match, so bots that compare deal scores can
use it unchanged (passing out, which scores nothing, is still worth 0).

The chance comes from a model of the match: before each deal the two teams' game points from it are
drawn from the distribution counted in ``deal_points.json`` (`bench/deal_points.py`: self-play of the
``heuristic`` bot, all-pass deals left out, both teams alike); after the deal R12.1 decides (a team at
the target or more with more points wins; equal scores at the target or more play on, counted as an
even chance).  A match that goes on with a team at the target (R12.2: no match ends on a valat; or
equal scores) is decided by the next deal that is played, whoever then has more (`deciding`).  The pot
carried by a hanging deal, and R12.2 for the deals to come, are left out of the model.  The chance
depends only on what each team still needs, so one table (0.4 s to compute, once per process) serves
every target; in a match to more than 151, while a team needs more than 151 points, deals are valued
by their score.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources

import numpy as np

SCALE_SPAN = 16  # game points: the value scale is the equity slope over this swing at 0 to 0 of a 151 match
HORIZON = 151  # the chance is modelled while both teams need at most this many points (a 151 match: always)


@cache
def _points() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    doc = json.loads(resources.files("belot.bots").joinpath("deal_points.json").read_text())
    pts = np.array(doc["points"], dtype=np.int64)
    return pts[:, 0], pts[:, 1], pts[:, 2] / pts[:, 2].sum()


@cache
def table() -> np.ndarray:
    """``E[i, j]``: the chance that a team that needs ``HORIZON - i`` more game points wins the match
    against one that needs ``HORIZON - j``, before a deal, for ``0 <= i, j < HORIZON``.  The chance
    depends only on what each team still needs, so one table serves every target: ``E[x, y]`` is the
    chance from ``x`` to ``y`` in a match to ``HORIZON``."""
    a, b, p = _points()
    n = HORIZON
    top = int(max(a.max(), b.max()))
    size = n + top + 1
    x, y = np.meshgrid(np.arange(size), np.arange(size), indexing="ij")
    over = np.maximum(x, y) >= n
    # after a deal: R12.1 where a team reached the target (a tie there plays on), else the table
    ext = np.where(over, np.where(x > y, 1.0, np.where(x < y, 0.0, 0.5)), 0.0)
    e = np.full((n, n), 0.5)
    for _ in range(4 * n):  # every deal adds points, so the values settle after a few dozen rounds
        ext[:n, :n] = e
        new = np.zeros_like(e)
        for ai, bi, pi in zip(a, b, p):
            new += pi * ext[ai:ai + n, bi:bi + n]
        if np.array_equal(new, e):
            break
        e = new
    return e


def chance(us: int, them: int, target: int) -> float | None:
    """The chance of winning the match from ``us`` to ``them`` game points before a deal (R12.1 applied
    to the score as it stands: at the target or more, the one with more has won); None while a team
    needs more than ``HORIZON`` points (a long match, far from its end)."""
    if max(us, them) >= target:
        return 1.0 if us > them else 0.0 if us < them else 0.5
    i, j = HORIZON - (target - us), HORIZON - (target - them)
    if i < 0 or j < 0:
        return None
    return float(table()[i, j])


@cache
def deciding(lead: int) -> float:
    """The chance of winning the match for a team ``lead`` game points ahead (behind if negative) when a
    team is at the target and the match goes on (R12.2 after a valat, or a tie): the next deal played
    decides it by R12.1 (a tie again: an even chance).  Without this, a team past the target would count
    the match as won already, every deal as worth nothing to either team, and all four seats could pass
    for ever."""
    a, b, p = _points()
    after = lead + a - b
    return float(p[after > 0].sum() + 0.5 * p[after == 0].sum())


@cache
def scale() -> float:
    """Game points per unit of winning chance at the start of a match to 151 (over a swing of
    ``SCALE_SPAN`` points each way), so that early in such a match `value` is close to the deal score."""
    e = table()
    return 2 * SCALE_SPAN / float(e[SCALE_SPAN, 0] - e[0, SCALE_SPAN])


def value(score: tuple[int, int], target: int, team: int, points: tuple[int, int]) -> float:
    """What game points ``points`` (team 0's, team 1's) in this deal are worth to ``team`` with the
    match at ``score`` before it: the change in its chance of winning the match, in game points of the
    start of a match to 151 (`scale`).  0 when the deal scores nothing.  While a team needs more than
    ``HORIZON`` points (matches to more than 151), the deal score: own points less the other's.  With a
    team at the target already, the match went on (R12.2 or a tie) and the chance before the deal is
    `deciding`'s; where no deal can change the winner any more, the deal score again."""
    us, them = score[team], score[1 - team]
    if max(us, them) >= target:
        before: float | None = deciding(us - them)
        if before in (0.0, 1.0):  # no deal can change the winner: play it for its points (passing for
            return points[team] - points[1 - team]  # ever, as good as any deal here, would never end it)
    else:
        before = chance(us, them, target)
    if before is None:
        return points[team] - points[1 - team]
    after = chance(us + points[team], them + points[1 - team], target)
    assert after is not None  # scores only grow
    return (after - before) * scale()
