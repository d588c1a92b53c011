"""Scoring a deal (R6, R8-R11): the one place a deal's facts become its result.

`trick_points` is a trick's card points (R6), `deal_result` turns the public facts of a finished
deal (card points, tricks, declarations, belotes, contract, multiplier, pot) into its `DealResult`;
`Deal`, the bots' search and the observation encoder all score through them.

>>> from belot.contracts import DEFAULT_RULES
>>> score_deal(2, 0, (96, 66), 1, 0, DEFAULT_RULES).points   # docs/rules.md example 1: hearts, 96-66, made
(9, 7)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields

from . import declarations as decl
from .contracts import (
    AT,
    CONTRACT_NAMES,
    LAST_TRICK_BONUS,
    NO_CONTRACT,
    NONZERO,
    NT,
    TABLES,
    VALAT_BONUS,
    VALAT_NO_DOUBLE,
    ContractTable,
    Rules,
)

MADE, HANGING, INSIDE, REDEAL = "made", "hanging", "inside", "redeal"
BELOTE_POINTS = 20  # R7.7


def trick_points(t: ContractTable, cards: Sequence[int], last: bool) -> int:
    """Raw card points of a trick (R6.1), with the last trick's 10 (R6.2); not doubled in NT.

    >>> trick_points(TABLES[NT], [7, 15, 23, 31], last=True)   # the four aces, last trick
    54
    """
    pts = t.points
    if len(cards) == 4:  # a whole trick, the common case, without building an iterator
        a, b, c, d = cards
        total = pts[a] + pts[b] + pts[c] + pts[d]
    else:
        total = sum(map(pts.__getitem__, cards))
    return total + LAST_TRICK_BONUS if last else total


_TEAM_SEATS = (frozenset((0, 2)), frozenset((1, 3)))  # the seats of each team
_NONE_DECLARED: tuple[tuple[int, ...], ...] = ((), (), (), ())


def valat_team(trick_winners: Sequence[int]) -> int | None:
    """R8: the team (0 or 1) that took all eight tricks, else None.

    >>> valat_team([0, 2, 2, 0, 0, 2, 0, 0]), valat_team([0, 1, 2, 0, 0, 2, 0, 0])
    (0, None)
    """
    if len(trick_winners) != 8:
        return None
    seats = set(trick_winners)
    return 0 if seats <= _TEAM_SEATS[0] else 1 if seats <= _TEAM_SEATS[1] else None


@dataclass(frozen=True, slots=True)
class DealResult:
    """What a finished deal gave (docs/record-format.md results); teams are 0 (seats 0, 2) and 1."""

    contract: int  # -1 when all four passed
    declarer: int
    multiplier: int
    tricks: tuple[int, ...]  # seat that won each trick
    card_points: tuple[int, int]
    declarations: tuple[int, int]
    belote: tuple[int, int]
    valat: int | None
    totals: tuple[int, int]
    outcome: str
    points: tuple[int, int]
    pot: int
    declared: tuple[tuple[int, ...], ...] = ()  # declaration ids announced, by seat (shown after the deal)
    stake: int = 1  # the multiplier the deal was scored with (1 for a valat under OPT-VALAT-NO-DOUBLE)

    def rounding(self) -> int | tuple[int, int]:
        """The R10 rounding step this deal was scored with (see `rounding_step`)."""
        return rounding_step(self.contract, self.declarer & 1, self.totals, self.stake)

    def to_json(self) -> dict[str, object]:
        if self.outcome == REDEAL:
            return {"contract": None, "outcome": REDEAL, "points": [0, 0], "pot": self.pot}
        return {
            "contract": CONTRACT_NAMES[self.contract] if self.contract >= 0 else None,
            "declarer": self.declarer if self.contract >= 0 else None,
            "multiplier": self.multiplier,
            "tricks": list(self.tricks),
            "card_points": list(self.card_points),
            "declarations": list(self.declarations),
            "belote": list(self.belote),
            "valat": self.valat,
            "totals": list(self.totals),
            "outcome": self.outcome,
            "points": list(self.points),
            "pot": self.pot,
        }


def redeal_result(pot: int) -> DealResult:
    """R3.6: all four passed; nothing is scored and the pot stays."""
    return DealResult(
        contract=NO_CONTRACT, declarer=-1, multiplier=1, tricks=(), card_points=(0, 0),
        declarations=(0, 0), belote=(0, 0), valat=None, totals=(0, 0), outcome=REDEAL,
        points=(0, 0), pot=pot,
    )


def deal_result(
    contract: int,
    declarer: int,
    multiplier: int,
    pot: int,
    card_points: tuple[int, int],
    declared: Sequence[Sequence[int]],
    belotes: Sequence[int],
    tricks: Sequence[int] = (),
    valat: int | None = None,
    *,
    rules: Rules,
) -> DealResult:
    """The result of a played deal from its public facts (R9.1, then `score_deal`).

    ``card_points`` are each team's raw card points with the last trick's 10 (R6.1-R6.2), doubled
    here in NT (R6.3); ``declared`` the declaration ids announced by each seat, contested here
    (R7.6; none count in NT, R7.1); ``belotes`` the seat of each belote announced (R7.7);
    ``tricks`` the seat that won each trick, which decides the valat (R8) when all eight are
    given; a search that knows only that one team takes every trick left passes ``valat``.
    ``rules`` are the options in force (R7.6's contest options, `OPT-NONZERO`, `OPT-VALAT-NO-DOUBLE`).

    >>> from belot.contracts import DEFAULT_RULES
    >>> r = deal_result(2, 0, 1, 0, (86, 76), [[], [], [], []], [0], tricks=[0, 1] * 4, rules=DEFAULT_RULES)
    >>> r.totals, r.outcome, r.points   # hearts: 86 + belote 20 against 76
    ((106, 76), 'made', (10, 8))
    """
    mult = TABLES[contract].multiplier
    cards = (card_points[0] * mult, card_points[1] * mult)  # R6.3
    announced = any(declared)
    if contract == NT or not announced:  # R7.1; many deals have no declaration to contest
        decls = (0, 0)
    else:
        c0, c1 = decl.contest((
            [*declared[0], *declared[2]], [*declared[1], *declared[3]]), rules)  # R7.6
        decls = (c0, c1)
    belote = [0, 0]
    for seat in belotes:
        belote[seat & 1] += BELOTE_POINTS
    if valat is None:
        valat = valat_team(tricks)
    totals = [cards[0] + decls[0] + belote[0], cards[1] + decls[1] + belote[1]]
    if valat is not None:
        totals[valat] += VALAT_BONUS  # R8, not doubled in NT
    stake = multiplier
    if valat is not None and rules.has(VALAT_NO_DOUBLE):
        stake = 1  # OPT-VALAT-NO-DOUBLE (R11.4): a valat deal is scored x1 even if doubled
    outcome, points, new_pot = _score_deal(contract, declarer & 1, (totals[0], totals[1]), stake, pot, rules)
    return _result(
        contract, declarer, multiplier, tuple(tricks), cards, decls, (belote[0], belote[1]), valat,
        (totals[0], totals[1]), outcome, points, new_pot,
        _NONE_DECLARED if not announced and len(declared) == 4 else tuple(map(tuple, declared)), stake,
    )


# The slots' own setters, in field order: a frozen dataclass's __init__ sets each field through
# object.__setattr__, which costs a third more, and deal_result runs once a deal
_RESULT_SETTERS = tuple(getattr(DealResult, f.name).__set__ for f in fields(DealResult))


def _result(*values: object) -> DealResult:
    """``DealResult(*values)``, all fields given in order (no defaults, no checks)."""
    r = object.__new__(DealResult)
    for set_field, value in zip(_RESULT_SETTERS, values, strict=True):
        set_field(r, value)
    return r


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


def score_deal(contract: int, team: int, totals: tuple[int, int], multiplier: int, pot: int,
               rules: Rules) -> DealScore:
    """Game points for a finished deal (R9.2, R10, R11).

    ``team`` is the contract team, ``totals`` the raw totals of R9.1 per team, ``pot`` the hanging
    pot carried in (H).

    >>> from belot.contracts import DEFAULT_RULES
    >>> score_deal(1, 0, (158, 4), 1, 0, DEFAULT_RULES).points, score_deal(1, 0, (158, 4), 1, 0, Rules(("OPT-NONZERO",))).points
    ((16, 0), (15, 1))
    """
    return DealScore(*_score_deal(contract, team, totals, multiplier, pot, rules))


def _score_deal(contract: int, team: int, totals: tuple[int, int], multiplier: int, pot: int,
                rules: Rules) -> tuple[str, tuple[int, int], int]:
    """`score_deal` as (outcome, points, pot), without building its DealScore."""
    b, d = totals[team], totals[1 - team]
    r = rounding_step(contract, team, totals, multiplier)
    points = [0, 0]
    if isinstance(r, int):
        if multiplier > 1:  # R11.4: kontra x2, rekontra x4; round first, then multiply
            stake = r * multiplier
            if b == d:
                return HANGING, (0, 0), pot + stake
            winner = team if b > d else 1 - team
            points[winner] = stake + pot
            return MADE if b > d else INSIDE, (points[0], points[1]), 0
        points[1 - team] = r + pot  # R11.2: everything goes to the defenders
        return INSIDE, (points[0], points[1]), 0
    if b > d:  # R11.1
        rb, rd = r[team], r[1 - team]
        if rules.options and NONZERO in rules.options and d > 0 and rd == 0:
            rb, rd = rb - 1, 1  # OPT-NONZERO (R10, R11.1): raw points never round to nothing
        points[team] = rb + pot
        points[1 - team] = rd
        return MADE, (points[0], points[1]), 0
    # R11.3 with R10.4: the defenders' half is written, the contract team's half joins the pot
    points[1 - team] = r[1 - team]
    return HANGING, (points[0], points[1]), pot + r[team]
