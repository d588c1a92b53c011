"""The open-card (double dummy) solver: exact values of a play position with all hands known.

`Position` is a position of the play phase (the four hands, the contract, the trick being played,
the tricks already closed); `Solver` searches it with the compiled kernels of `kernels.py`.
Values are from the side of a team: the points that team takes from the current trick (cards
already on it included) to the end of the deal, under perfect play by all four, each team
maximising its own points.  `Objective` says what counts: card points and the last-trick 10
(the `belot solve` objective), optionally doubled in NT, belote and the valat bonus (what a bot
needs to score a deal).

>>> from belot.game import Deal
>>> from belot.cards import parse_card
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..cards import FULL_DECK, NUM_CARDS, SUIT_MASKS
from ..contracts import AT, LAST_TRICK_BONUS, NT, TABLES, VALAT_BONUS
from ..game import BELOTE_POINTS, Deal
from . import kernels as K

_TABLE_BITS = 20


def _order(contract: int) -> np.ndarray:
    """Cards of each suit by strength, weakest first: order[8 * suit + k]."""
    t = TABLES[contract]
    out = np.empty(NUM_CARDS, dtype=np.int64)
    for s in range(4):
        cards = sorted(range(8 * s, 8 * s + 8), key=lambda c: t.strength[c])
        out[8 * s : 8 * s + 8] = cards
    return out


POINTS = np.array([TABLES[c].points for c in range(len(TABLES))], dtype=np.int64)
STRENGTH = np.array([TABLES[c].strength for c in range(len(TABLES))], dtype=np.int64)
ABOVE = np.array([TABLES[c].above for c in range(len(TABLES))], dtype=np.int64)
TRUMP_MASKS = np.array([TABLES[c].trump_mask for c in range(len(TABLES))], dtype=np.int64)
ORDERS = np.array([_order(c) for c in range(len(TABLES))], dtype=np.int64)


@dataclass(frozen=True, slots=True)
class Objective:
    """What the search counts.  The default is `belot solve`'s: card points and the last 10."""

    nt_double: bool = False  # R6.3: card points and the last 10 doubled in NT
    belote: bool = False  # R7.7: 20 to the team playing the first of K+Q when it counts
    valat: bool = False  # R8: 90 to a team taking all eight tricks


CARD_POINTS = Objective()
DEAL_POINTS = Objective(nt_double=True, belote=True, valat=True)


@dataclass(frozen=True, slots=True)
class Position:
    """A play position with all hands known."""

    contract: int
    hands: tuple[int, int, int, int]  # unplayed cards of each seat, as masks
    to_move: int
    trick: tuple[tuple[int, int], ...] = ()  # (seat, card) already on the current trick
    tricks_done: int = 0
    trick_winners: tuple[int, ...] = ()  # seats that won the closed tricks (for the valat state)

    @classmethod
    def from_deal(cls, d: Deal) -> Position:
        """The position of a deal in its play phase (engine state, all hands known)."""
        if d.phase != "play":
            raise ValueError("the deal is not in its play phase")
        return cls(
            contract=d.table.contract,
            hands=(d.hands[0], d.hands[1], d.hands[2], d.hands[3]),
            to_move=d.to_move,
            trick=tuple(zip(d.trick_seats, d.trick)),
            tricks_done=len(d.trick_winners),
            trick_winners=tuple(d.trick_winners),
        )

    def check(self) -> None:
        """Raise ValueError when the position is not a consistent play position."""
        sizes = [h.bit_count() for h in self.hands]
        n = len(self.trick)
        if not 0 <= n <= 3 or not 0 <= self.tricks_done <= 7:
            raise ValueError("not a position of the play phase")
        left = 8 - self.tricks_done
        for k in range(4):
            seat = (self.to_move + k) & 3
            want = left - 1 if k >= 4 - n else left
            if sizes[seat] != want:
                raise ValueError(f"seat {seat} holds {sizes[seat]} cards, expected {want}")
        used = 0
        for h in self.hands:
            if used & h:
                raise ValueError("a card is in two hands")
            used |= h
        for _, c in self.trick:
            if used >> c & 1:
                raise ValueError("a card on the trick is also in a hand")
            used |= 1 << c

    def valat_state(self) -> int:
        teams = {w & 1 for w in self.trick_winners}
        if not teams:
            return K.V_NONE
        if len(teams) == 2:
            return K.V_MIXED
        return K.V_TEAM0 if 0 in teams else K.V_TEAM1


class Solver:
    """Alpha-beta search with a transposition table kept between calls (cleared by generation)."""

    def __init__(self, table_bits: int = _TABLE_BITS) -> None:
        size = 1 << table_bits
        self.bits = table_bits
        self.tk = np.zeros(size, dtype=np.int64)
        self.tlo = np.zeros(size, dtype=np.int16)
        self.thi = np.zeros(size, dtype=np.int16)
        self.tmv = np.zeros(size, dtype=np.int8)
        self.tgen = np.zeros(size, dtype=np.int32)
        self.gen = 0
        self.mv = np.zeros((K.MAX_DEPTH, 8), dtype=np.int64)
        self.sc = np.zeros((K.MAX_DEPTH, 8), dtype=np.int64)
        self.fr = np.zeros((K.MAX_DEPTH + 4, K.N_FIELDS), dtype=np.int64)
        self.stats = np.zeros(4, dtype=np.int64)
        self._h = np.zeros(4, dtype=np.int64)

    def _args(self, pos: Position, obj: Objective) -> tuple:  # type: ignore[type-arg]
        c = pos.contract
        dbl = 2 if (obj.nt_double and c == NT) else 1
        pts = POINTS[c] * dbl if dbl != 1 else POINTS[c]
        belb = BELOTE_POINTS if (obj.belote and c != NT) else 0
        valb = VALAT_BONUS if obj.valat else 0
        self.gen += 1
        if self.gen >= 2**31 - 1:
            self.gen = 1
            self.tgen[:] = 0
        h = self._h
        for s in range(4):
            h[s] = pos.hands[s]
        n = len(pos.trick)
        led = wc = ws = -1
        tpts = table = 0
        t = TABLES[c]
        for seat, card in pos.trick:
            table |= 1 << card
            tpts += int(pts[card])
            if led < 0:
                led, wc, ws = card >> 3, card, seat
            elif K.beats_nb(STRENGTH[c], t.trump_mask, card, wc):
                wc, ws = card, seat
        return (h, pos.to_move, n, led, wc, ws, tpts, table, pos.tricks_done, pos.valat_state(), c, pts,
                STRENGTH[c], ABOVE[c], t.trump_mask, ORDERS[c], LAST_TRICK_BONUS * dbl, valb, belb)

    def limit(self, nodes: int | None) -> None:
        """Give up any search after ``nodes`` more nodes (None: no limit); see `aborted`."""
        self.stats[1] = 0 if nodes is None else int(self.stats[0]) + max(1, nodes)
        self.stats[2] = 0

    @property
    def aborted(self) -> bool:
        """Whether the last search hit the node limit (its result is then meaningless)."""
        return bool(self.stats[2])

    def _tt(self) -> tuple:  # type: ignore[type-arg]
        return (self.tk, self.tlo, self.thi, self.tmv, self.tgen, self.gen, self.bits, self.mv, self.sc,
                self.fr, self.stats)

    def diff(self, pos: Position, obj: Objective = CARD_POINTS, guess: int = 0, tol: int = 0) -> int:
        """Team 0 minus team 1 points from here to the end under perfect play.

        ``guess`` (any value; a close one saves time) starts the MTD(f) iterations; with ``tol`` > 0
        the answer is only known to be within ``tol`` of the exact value (much cheaper).
        """
        return self._value(pos, obj, -K.INF, K.INF, guess, tol)

    def window(self, pos: Position, obj: Objective, alpha: int, beta: int) -> int:
        """`diff` searched in the window (alpha, beta) only: a fail-low result is an upper bound
        (<= alpha), a fail-high one a lower bound (>= beta).  With beta = alpha + 1 it answers
        "is the value at least beta?" at a fraction of the cost of the exact value."""
        return self._value(pos, obj, alpha, beta, 0, 0)

    def _value(self, pos: Position, obj: Objective, alpha: int, beta: int, guess: int, tol: int) -> int:
        a = self._args(pos, obj)
        (h, seat, n, led, wc, ws, tpts, table, done, vst, c, pts, st, ab, tm, order, lastb, valb, belb) = a
        return int(K.solve_value(h, seat, n, led, wc, ws, tpts, table, done, vst, alpha, beta, guess, tol, c, pts,
                                 st, ab, tm, order, lastb, valb, belb, *self._tt()))

    def card_diffs(self, pos: Position, obj: Objective = CARD_POINTS) -> dict[int, int]:
        """For each legal card of the seat to move: team 0 minus team 1 points from here.

        Empty when the node limit (`limit`) was hit.
        """
        a = self._args(pos, obj)
        out_cards = np.zeros(8, dtype=np.int64)
        out_vals = np.zeros(8, dtype=np.int64)
        cnt = K.solve_cards(*a, *self._tt(), out_cards, out_vals)  # type: ignore[call-arg]  # numba dispatcher stubs
        if cnt < 0:
            return {}
        return {int(out_cards[i]): int(out_vals[i]) for i in range(cnt)}

    def remaining_points(self, pos: Position, obj: Objective = CARD_POINTS) -> int:
        """Card points still to be won (the current trick's included) plus the last 10."""
        unplayed = pos.hands[0] | pos.hands[1] | pos.hands[2] | pos.hands[3]
        for _, c in pos.trick:
            unplayed |= 1 << c
        t = TABLES[pos.contract]
        total = sum(t.points[c] for c in range(NUM_CARDS) if unplayed >> c & 1) + LAST_TRICK_BONUS
        return total * (2 if obj.nt_double and pos.contract == NT else 1)

    def card_values(self, pos: Position) -> dict[int, int]:
        """`belot solve`'s values: card points (last 10 included) the mover's team takes from here."""
        diffs = self.card_diffs(pos, CARD_POINTS)
        rem = self.remaining_points(pos, CARD_POINTS)
        sign = 1 if pos.to_move & 1 == 0 else -1
        return {c: (rem + sign * v) // 2 for c, v in diffs.items()}

    def value(self, pos: Position) -> int:
        """Card points the mover's team takes from here under perfect play."""
        v = self.diff(pos, CARD_POINTS)
        sign = 1 if pos.to_move & 1 == 0 else -1
        return (self.remaining_points(pos) + sign * v) // 2


__all__ = ["AT", "CARD_POINTS", "DEAL_POINTS", "FULL_DECK", "SUIT_MASKS", "Objective", "Position", "Solver"]
