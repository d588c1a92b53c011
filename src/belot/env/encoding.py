"""The fixed-size observation vector of one seat, and the action mask (docs/encoding.md).

`encode(view)` turns a `SeatView` (one seat's information set, nothing else) into a float32
vector of `SIZE` values; `action_mask(view)` gives the int8 mask over the `NUM_ACTIONS` (163)
actions of belot.game.  Because the input is a `SeatView`, the vector cannot hold a card the seat
may not see.  Seats are encoded relative to the observer: 0 = the observer, 1 = the next seat in
turn, 2 = the partner, 3 = the seat before.  `SECTIONS` lists the slices in order; `OFFSETS[name]`
is the ``slice`` of a section.  This is the reference implementation: the environment keeps the
same vector up to date incrementally (belot.env.belot_v0) and a test checks they agree.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..auction import BID_BASE, KONTRA, NUM_CALLS, PASS, REKONTRA, SURKONTRA
from ..cards import NUM_CARDS
from ..contracts import TABLES
from ..declarations import DECLARATIONS, KINDS
from ..game import AUCTION, BELOTE_BASE, CALL_BASE, DECLARE_BASE, NUM_ACTIONS, OVER, PLAY, Deal, SeatView
from ..scoring import trick_points

__all__ = [
    "DTYPE", "NUM_ACTIONS", "OFFSETS", "SECTIONS", "SIZE",
    "IncrementalEncoder", "action_mask", "describe", "encode",
]

DTYPE = np.float32

# Scales that keep the numeric features near [0, 1] (they may exceed 1: scores, pot).
POINT_SCALE = 100.0  # trick points won in this deal, per team
SCORE_SCALE = 151.0  # match scores, pot
DEAL_SCALE = 32.0  # deal index in the match

# (name, size, meaning).  The order is the order in the vector; docs/encoding.md mirrors it.
SECTIONS: tuple[tuple[str, int, str], ...] = (
    ("hand", 32, "own unplayed cards (the first five only during the auction, R2.3)"),
    ("phase", 3, "auction, play, over"),
    ("dealer", 4, "the dealer (relative seat)"),
    ("to_move", 4, "the seat to act (relative seat); zeros when nobody is"),
    ("bids", 24, "contract c (C D H S NT AT) x relative seat: that seat bid c"),
    ("kontras", 24, "contract c x relative seat: that seat doubled c (kontra, or surkontra)"),
    ("rekontras", 24, "contract c x relative seat: that seat redoubled c (rekontra)"),
    ("last_call", 36, "relative seat x call (pass C D H S NT AT kontra/surkontra rekontra): its latest call"),
    ("passes", 4, "consecutive passes since the last other call: 0, 1, 2, 3"),
    ("contract", 6, "the contract bid last (C D H S NT AT); zeros while none"),
    ("declarer", 4, "the seat that bid it (relative seat)"),
    ("multiplier", 3, "x1, x2 (kontra), x4 (rekontra); zeros at x8"),
    ("announced", 16, "relative seat x kind (tierce quarte quint carre): how many announced"),
    ("own_declared", 32, "cards of the observer's own announced declarations"),
    ("belotes", 16, "relative seat x suit: belote announced"),
    ("history", 1024, "trick k (0-7) x relative seat x card: the card that seat played in trick k"),
    ("leaders", 32, "trick k x relative seat: that seat led trick k"),
    ("winners", 32, "trick k x relative seat: that seat won trick k (closed tricks)"),
    ("trick", 128, "relative seat x card: the cards on the table in the current trick"),
    ("played", 128, "relative seat x card: every card that seat has played in this deal"),
    ("unseen", 32, "cards neither in the own hand shown above nor played"),
    ("trick_points", 2, "card points won in tricks so far, own team then the other, / 100"),
    ("score", 2, "match score, own team then the other, / 151"),
    ("target", 1, "the match target / 151"),
    ("pot", 1, "the hanging pot carried into this deal / 151"),
    ("deal_index", 1, "deals played before this one in the match / 32"),
    ("surkontra", 1, "x8 (surkontra, OPT-SURCONTRA): with `multiplier`, a one-hot of x1 x2 x4 x8"),
)
_MULT_INDEX = {1: 0, 2: 1, 4: 2}  # x8 is the `surkontra` entry


def _offsets() -> dict[str, slice]:
    out, pos = {}, 0
    for name, size, _ in SECTIONS:
        out[name] = slice(pos, pos + size)
        pos += size
    return out


OFFSETS: dict[str, slice] = _offsets()
SIZE: int = sum(size for _, size, _ in SECTIONS)
_O = {name: s.start for name, s in OFFSETS.items()}
_KIND_INDEX = {kind: i for i, kind in enumerate(KINDS)}
_PHASE_INDEX = {AUCTION: 0, PLAY: 1, OVER: 2}


def describe() -> list[tuple[str, int, int, str]]:
    """(name, start, stop, meaning) of every section, for docs and tools."""
    return [(name, OFFSETS[name].start, OFFSETS[name].stop, meaning) for name, _, meaning in SECTIONS]


def encode(view: SeatView) -> np.ndarray:
    """The observation vector (float32, shape ``(SIZE,)``) of ``view.seat`` from its view only."""
    x = np.zeros(SIZE, dtype=DTYPE)
    me = view.seat
    o = _O
    for c in view.hand:
        x[o["hand"] + c] = 1.0
    x[o["phase"] + _PHASE_INDEX[view.phase]] = 1.0
    x[o["dealer"] + ((view.dealer - me) & 3)] = 1.0
    if view.to_move >= 0:
        x[o["to_move"] + ((view.to_move - me) & 3)] = 1.0

    # The auction: bids only rise (R3.1), so each contract is bid, doubled and redoubled at most
    # once, and the three 6x4 grids hold every non-pass call in its order.
    contract = -1
    passes = 0
    for seat, call in view.calls:
        r = (seat - me) & 3
        if call == PASS:
            passes += 1
        else:
            passes = 0
            if call in (KONTRA, SURKONTRA):  # surkontra: the kontra slot's rows (OPT-SURCONTRA)
                x[o["kontras"] + 4 * contract + r] = 1.0
            elif call == REKONTRA:
                x[o["rekontras"] + 4 * contract + r] = 1.0
            else:
                contract = call - BID_BASE
                x[o["bids"] + 4 * contract + r] = 1.0
        base = o["last_call"] + NUM_CALLS * r
        x[base : base + NUM_CALLS] = 0.0
        x[base + (KONTRA if call == SURKONTRA else call)] = 1.0
    if view.calls:
        x[o["passes"] + min(passes, 3)] = 1.0
    if view.contract >= 0:
        x[o["contract"] + view.contract] = 1.0
        x[o["declarer"] + ((view.declarer - me) & 3)] = 1.0
        if view.multiplier == 8:
            x[o["surkontra"]] = 1.0
        else:
            x[o["multiplier"] + _MULT_INDEX[view.multiplier]] = 1.0

    for seat, kinds in enumerate(view.announced):
        r = (seat - me) & 3
        for kind in kinds:
            x[o["announced"] + 4 * r + _KIND_INDEX[kind]] += 1.0
    for i in view.own_declarations:
        for c in DECLARATIONS[i].cards:
            x[o["own_declared"] + c] = 1.0
    for seat, card in view.belotes:
        x[o["belotes"] + 4 * ((seat - me) & 3) + (card >> 3)] = 1.0

    table = TABLES[view.contract] if view.contract >= 0 else None
    won = [0, 0]
    seen = 0
    for c in view.hand:
        seen |= 1 << c
    for k, (leader, cards, winner) in enumerate(view.tricks):
        x[o["leaders"] + 4 * k + ((leader - me) & 3)] = 1.0
        x[o["winners"] + 4 * k + ((winner - me) & 3)] = 1.0
        for j, c in enumerate(cards):
            r = (leader + j - me) & 3
            x[o["history"] + 128 * k + 32 * r + c] = 1.0
            x[o["played"] + 32 * r + c] = 1.0
            seen |= 1 << c
        if table is not None:
            won[(winner - me) & 1] += trick_points(table, cards, last=k == 7)
    k = len(view.tricks)
    if view.trick:
        x[o["leaders"] + 4 * k + ((view.trick[0][0] - me) & 3)] = 1.0
    for seat, c in view.trick:
        r = (seat - me) & 3
        x[o["history"] + 128 * k + 32 * r + c] = 1.0
        x[o["trick"] + 32 * r + c] = 1.0
        x[o["played"] + 32 * r + c] = 1.0
        seen |= 1 << c
    for c in range(NUM_CARDS):
        if not seen >> c & 1:
            x[o["unseen"] + c] = 1.0
    x[o["trick_points"]] = won[0] / POINT_SCALE
    x[o["trick_points"] + 1] = won[1] / POINT_SCALE
    team = me & 1
    x[o["score"]] = view.score[team] / SCORE_SCALE
    x[o["score"] + 1] = view.score[team ^ 1] / SCORE_SCALE
    x[o["target"]] = view.target / SCORE_SCALE
    x[o["pot"]] = view.pot / SCORE_SCALE
    x[o["deal_index"]] = view.deal_index / DEAL_SCALE
    return x


def action_mask(view: SeatView) -> np.ndarray:
    """int8 mask over the NUM_ACTIONS actions: 1 for each of ``view.legal_actions`` (all zeros
    when the seat is not to act)."""
    mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
    if view.legal_actions:
        mask[list(view.legal_actions)] = 1
    return mask


# -- the incremental encoder ---------------------------------------------------------------------

_REL = tuple(tuple((s - o) & 3 for o in range(4)) for s in range(4))  # _REL[seat][observer]
_HAND, _PHASE, _DEALER, _TO_MOVE = _O["hand"], _O["phase"], _O["dealer"], _O["to_move"]
_BIDS, _KONTRAS, _REKONTRAS, _LAST_CALL = _O["bids"], _O["kontras"], _O["rekontras"], _O["last_call"]
_PASSES, _CONTRACT, _DECLARER, _MULT = _O["passes"], _O["contract"], _O["declarer"], _O["multiplier"]
_ANNOUNCED, _OWN, _BELOTES, _HISTORY = _O["announced"], _O["own_declared"], _O["belotes"], _O["history"]
_LEADERS, _WINNERS, _TRICK = _O["leaders"], _O["winners"], _O["trick"]
_PLAYED, _UNSEEN = _O["played"], _O["unseen"]
_TRICK_POINTS, _SCORE, _TARGET, _POT, _DEAL_INDEX = (
    _O["trick_points"], _O["score"], _O["target"], _O["pot"], _O["deal_index"]
)
_SURKONTRA = _O["surkontra"]
_DECL_KIND = tuple(_KIND_INDEX[d.kind] for d in DECLARATIONS)


def _flat(seat_offsets: list[tuple[int, int]]) -> np.ndarray:
    """Flat indices into the (4, SIZE) array of (observer, index-in-row) pairs."""
    return np.array([o * SIZE + i for o, i in seat_offsets], dtype=np.intp)


def _card_writes(seat: int, k: int, c: int, pos: int) -> tuple[np.ndarray, np.ndarray]:
    """(flat indices, values) of card ``c`` played by ``seat`` as card ``pos`` of trick ``k``: what
    every observer sees of it (history, played, trick set; unseen cleared), the card leaving the
    player's own hand, the leader of the trick for a lead, and the turn leaving the player, to the
    next seat within the trick (after the fourth card the winner's turn is set as the trick closes)."""
    ones: list[tuple[int, int]] = []
    zeros: list[tuple[int, int]] = [(seat, _HAND + c)]
    for o in range(4):
        r = (seat - o) & 3
        ones += [(o, _HISTORY + 128 * k + 32 * r + c), (o, _PLAYED + 32 * r + c), (o, _TRICK + 32 * r + c)]
        zeros.append((o, _UNSEEN + c))
        if pos == 0:
            ones.append((o, _LEADERS + 4 * k + r))
        zeros.append((o, _TO_MOVE + r))
        if pos < 3:
            ones.append((o, _TO_MOVE + ((seat + 1 - o) & 3)))
    return _flat(zeros + ones), np.array([0.0] * len(zeros) + [1.0] * len(ones), dtype=DTYPE)


def _packed(writes: list[tuple[np.ndarray, np.ndarray]]) -> tuple[tuple[np.ndarray, np.ndarray], ...]:
    """``writes`` with their indices as views of one contiguous buffer and equal values arrays
    shared.  A table read at random, an entry a card, stays in the cache more in less memory: 2-3%
    of an env step on a loaded 2-core machine (steps per CPU second, interleaved runs)."""
    buffer = np.concatenate([index for index, _ in writes])
    shared: dict[bytes, np.ndarray] = {}
    packed = []
    start = 0
    for index, values in writes:
        packed.append((buffer[start : start + len(index)], shared.setdefault(values.tobytes(), values)))
        start += len(index)
    return tuple(packed)


# _CARD_WRITES[n << 7 | seat << 5 | card]: the one fancy-indexed write of the n-th card of the deal
_CARD_WRITES = _packed([
    _card_writes(seat, n >> 2, c, n & 3) for n in range(NUM_CARDS) for seat in range(4) for c in range(NUM_CARDS)
])
_DECL_CARDS = tuple(tuple(d.cards) for d in DECLARATIONS)
_TO_MOVE_ONES = tuple(_flat([(o, _TO_MOVE + ((s - o) & 3)) for o in range(4)]) for s in range(4))
# The trick points of team 0 (seats 0 and 2) and of team 1, each observer's own team first
_TEAM0_POINTS = tuple(o * SIZE + _TRICK_POINTS + (o & 1) for o in range(4))
_TEAM1_POINTS = tuple(o * SIZE + _TRICK_POINTS + 1 - (o & 1) for o in range(4))
# _WINNER_ONES[k][winner]: trick k won by ``winner``, who is to lead next (none after the last)
_WINNER_ONES = tuple(
    tuple(
        _flat([(o, _WINNERS + 4 * k + ((w - o) & 3)) for o in range(4)]
              + ([(o, _TO_MOVE + ((w - o) & 3)) for o in range(4)] if k < 7 else []))
        for w in range(4)
    )
    for k in range(8)
)
# numpy writes an array of values faster than it broadcasts a Python float
_ONES = {n: np.ones(n, dtype=DTYPE) for n in (4, 8)}
_WINNER_WRITES = tuple(tuple((index, _ONES[len(index)]) for index in by_winner) for by_winner in _WINNER_ONES)


def _switch(base: int, width: int, relative: bool, positions: tuple[int, ...] = ()
            ) -> tuple[tuple[tuple[np.ndarray, np.ndarray], ...], ...]:
    """``[old + 1][new]``: (flat indices, values) moving a one-hot section of every observer's row
    from ``old`` (-1: nothing set yet) to ``new``; a seat is shown relative to each observer.
    ``positions``, when given, are the entries of the values (a one-hot that is not contiguous)."""
    def at(o: int, v: int) -> tuple[int, int]:
        if positions:
            return (o, positions[v])
        return (o, base + ((v - o) & 3 if relative else v))

    table = []
    for old in range(-1, width):
        row = []
        for new in range(width):
            # no entry written twice: numpy leaves the order of repeated fancy writes open
            zeros = [at(o, old) for o in range(4)] if 0 <= old != new else []
            ones = [at(o, new) for o in range(4)]
            row.append((_flat(zeros + ones), np.array([0.0] * len(zeros) + [1.0] * len(ones), dtype=DTYPE)))
        table.append(tuple(row))
    return tuple(table)


_TO_MOVE_SWITCH = _switch(_TO_MOVE, 4, relative=True)
_PHASE_SWITCH = _switch(_PHASE, 3, relative=False)
_PASSES_SWITCH = _switch(_PASSES, 4, relative=False)
_CONTRACT_SWITCH = _switch(_CONTRACT, 6, relative=False)
_DECLARER_SWITCH = _switch(_DECLARER, 4, relative=True)
# x1 x2 x4 in the multiplier section, x8 (OPT-SURCONTRA) in the entry appended after every other one
_MULT_SWITCH = _switch(_MULT, 4, relative=False, positions=(_MULT, _MULT + 1, _MULT + 2, _SURKONTRA))
# _LAST_CALL_SWITCH[seat][old + 1][new]: the latest call of ``seat``, in each observer's block for it
_LAST_CALL_SWITCH = tuple(
    tuple(
        tuple(
            (_flat([(o, _LAST_CALL + NUM_CALLS * ((seat - o) & 3) + old) for o in range(4)] * (0 <= old != new)
                   + [(o, _LAST_CALL + NUM_CALLS * ((seat - o) & 3) + new) for o in range(4)]),
             np.array([0.0] * (4 * (0 <= old != new)) + [1.0] * 4, dtype=DTYPE))
            for new in range(NUM_CALLS)
        )
        for old in range(-1, NUM_CALLS)
    )
    for seat in range(4)
)


# _SEAT_ONES[base][seat]: the entries ``base + relative seat`` of the four observers
_SEAT_ONES: dict[int, tuple[np.ndarray, ...]] = {}


def _seat_ones(base: int) -> tuple[np.ndarray, ...]:
    if base not in _SEAT_ONES:
        _SEAT_ONES[base] = tuple(_flat([(o, base + ((s - o) & 3)) for o in range(4)]) for s in range(4))
    return _SEAT_ONES[base]


def _join(parts: list[tuple[np.ndarray, np.ndarray]]) -> tuple[np.ndarray, np.ndarray]:
    """Several writes to disjoint entries as one (numpy leaves the order of repeated ones open)."""
    return np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])


def _turn_writes(seat: int, call: int, passes: int, last: int, to_move: int) -> tuple[np.ndarray, np.ndarray]:
    """What every call by ``seat`` changes: the passes count (``passes`` before it, -1 before any
    call), the seat's latest call (``last`` before it, -1 when none) and the turn (to ``to_move``,
    -1 when nobody is to act)."""
    new_passes = passes + 1 if call == PASS and passes >= 0 else int(call == PASS)
    parts = [_PASSES_SWITCH[min(passes, 3) + 1][min(new_passes, 3)], _LAST_CALL_SWITCH[seat][last + 1][call]]
    if to_move >= 0 and to_move != seat:
        parts.append(_TO_MOVE_SWITCH[seat + 1][to_move])
    elif to_move < 0:
        parts.append((_TO_MOVE_ONES[seat], np.zeros(4, dtype=DTYPE)))
    return _join(parts)


def _bid_writes(
    seat: int, call: int, contract: int, declarer: int, mult: int, new_mult: int
) -> tuple[np.ndarray, np.ndarray]:
    """What a call other than a pass changes besides `_turn_writes`: the contract and declarer (a
    bid), the seat's entry in the bids, kontras or rekontras grid, and the multiplier shown (index
    ``mult`` before, ``new_mult`` after)."""
    parts = []
    if call == KONTRA:  # the kontra slot: surkontra when it left x8 (OPT-SURCONTRA)
        grid = _KONTRAS
    elif call == REKONTRA:
        grid = _REKONTRAS
    else:
        grid = _BIDS
        parts += [_CONTRACT_SWITCH[contract + 1][call - BID_BASE], _DECLARER_SWITCH[declarer + 1][seat]]
        contract = call - BID_BASE
    ones = _seat_ones(grid + 4 * contract)[seat]
    parts.append((ones, _ONES[len(ones)]))
    if new_mult != mult:
        parts.append(_MULT_SWITCH[mult + 1][new_mult])
    return _join(parts)


# The writes of the calls met so far, by the arguments of `_turn_writes` and `_bid_writes`: each
# built once, at its first use (a few hundred of each can be reached)
_TURN_WRITES: dict[tuple[int, ...], tuple[np.ndarray, np.ndarray]] = {}
_BID_WRITES: dict[tuple[int, ...], tuple[np.ndarray, np.ndarray]] = {}


def _first_rows(dealer: int) -> np.ndarray:
    """The four rows of a deal just dealt by ``dealer``, before the hands are shown, in deal mode
    (match score 0-0, target 151, no pot, the first deal): copied by `IncrementalEncoder.start`."""
    x = np.zeros((4, SIZE), dtype=DTYPE)
    for o, row in enumerate(x):
        row[_UNSEEN : _UNSEEN + NUM_CARDS] = 1.0
        row[_PHASE + _PHASE_INDEX[AUCTION]] = 1.0
        row[_DEALER + _REL[dealer][o]] = 1.0
        row[_TO_MOVE + _REL[(dealer + 1) & 3][o]] = 1.0  # R3.1: the forehand calls first
        row[_TARGET] = 151 / SCORE_SCALE
    return x


_FIRST_ROWS = tuple(_first_rows(dealer) for dealer in range(4))


class IncrementalEncoder:
    """`encode` for all four seats at once, kept up to date one action at a time.

    ``x[seat]`` equals ``encode(view(seat))`` after every action (tests/test_env.py checks it
    along random games, and tests every observation of the env against it); an action costs one
    or a few fancy-indexed writes of precomputed (indices, values) into all four rows, from tables
    built at import, instead of a full rebuild from the view.  Call `start` when a deal is dealt,
    `update` after each action applied to it, and `set_match` when a match ends.  It reads only
    public facts and each seat's own cards into that seat's row.
    """

    __slots__ = (
        "contract", "declarer", "flat", "last_calls", "mult", "mv", "n_cards", "passes", "phase", "rows",
        "to_move", "trick", "won", "x",
    )

    def __init__(self) -> None:
        self.x = np.zeros((4, SIZE), dtype=DTYPE)
        self._views()
        self.passes = -1  # consecutive passes since the last other call; -1 before any call
        self.contract = -1
        self.declarer = -1
        self.mult = -1  # index of the multiplier shown, -1 before any bid
        self.last_calls = [-1, -1, -1, -1]  # by absolute seat
        self.won = [0, 0]  # by absolute team
        self.n_cards = 0
        self.to_move = -1
        self.phase = 0  # index of the phase shown (_PHASE_INDEX)

    def _views(self) -> None:
        """The views of ``x`` that the writes go through."""
        self.flat = self.x.reshape(-1)  # a view: writes go to x
        self.rows = [self.x[o] for o in range(4)]
        self.trick = self.x[:, _TRICK : _TRICK + 128]  # a view, cleared when a trick closes
        self.mv: Any = self.flat.data  # a memoryview of the same memory, for single entries

    # A copy (copy.deepcopy, pickle: lookahead search copies the environment) holds ``x`` and the
    # counters, and makes its own views of its own ``x`` (a memoryview cannot be pickled).
    _VIEWS = ("flat", "rows", "trick", "mv")

    def __getstate__(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.__slots__ if name not in self._VIEWS}

    def __setstate__(self, state: dict[str, Any]) -> None:
        for name, value in state.items():
            setattr(self, name, value)
        self._views()

    def start(
        self, deal: Deal, score: tuple[int, int] = (0, 0), target: int = 151, deal_index: int = 0
    ) -> None:
        """A new deal was dealt (nothing applied to it yet)."""
        np.copyto(self.x, _FIRST_ROWS[deal.dealer])
        self.passes = -1
        self.contract = -1
        self.declarer = -1
        self.mult = -1
        self.last_calls = [-1, -1, -1, -1]
        self.won = [0, 0]
        self.n_cards = 0
        self.to_move = (deal.dealer + 1) & 3
        self.phase = 0
        self._show(deal.dealt, 0, 5)  # R2.3: five cards each until the auction ends
        if target != 151 or deal.pot or deal_index:
            for row in self.rows:
                row[_TARGET] = target / SCORE_SCALE
                row[_POT] = deal.pot / SCORE_SCALE
                row[_DEAL_INDEX] = deal_index / DEAL_SCALE
        if score[0] or score[1]:
            self.set_match(score)
        self._set_to_move(deal.to_move)  # the forehand's, as in the rows copied

    def _show(self, dealt: tuple[tuple[int, ...], ...], first: int, stop: int) -> None:
        """Cards ``first:stop`` of each seat's dealt cards join its hand and leave its unseen cards
        (a few scattered entries: written through a memoryview, which costs less than numpy's
        item assignment)."""
        mv = self.mv
        for o in range(4):
            hand, unseen = o * SIZE + _HAND, o * SIZE + _UNSEEN
            for c in dealt[o][first:stop]:
                mv[hand + c] = 1.0
                mv[unseen + c] = 0.0

    def set_match(self, score: tuple[int, int] | list[int]) -> None:
        """The match score changed (the last deal of a match was scored)."""
        for o, row in enumerate(self.rows):
            row[_SCORE] = score[o & 1] / SCORE_SCALE
            row[_SCORE + 1] = score[(o & 1) ^ 1] / SCORE_SCALE

    def update(self, deal: Deal, seat: int, action: int) -> None:
        """``seat`` just applied ``action`` to ``deal``."""
        if action < CALL_BASE:
            card = action if action < BELOTE_BASE else action - BELOTE_BASE
            n = self.n_cards
            self.n_cards = n + 1
            # n << 7 | seat << 5 | card, in the arithmetic CPython specializes (not its bitwise operators)
            index, values = _CARD_WRITES[n * 128 + seat * 32 + card]
            flat = self.flat
            flat[index] = values
            if action >= BELOTE_BASE:
                rel = _REL[seat]
                for o in range(4):
                    self.rows[o][_BELOTES + 4 * rel[o] + (card >> 3)] = 1.0
            if deal.trick:  # the trick goes on
                self.to_move = deal.to_move  # written above
                return
            k = n >> 2
            winner = deal.trick_winners[-1]
            won = self.won = deal.team_points  # the core's count of the trick (R6), read not redone
            self.trick.fill(0.0)
            index, values = _WINNER_WRITES[k][winner]  # the winner, and the winner to lead (R5.1)
            flat[index] = values
            mv, p0, p1 = self.mv, won[0] / POINT_SCALE, won[1] / POINT_SCALE
            for i in _TEAM0_POINTS:
                mv[i] = p0
            for i in _TEAM1_POINTS:
                mv[i] = p1
            if k == 7:
                self._phase(2)
                self.to_move = -1
            else:
                self.to_move = winner
            return
        elif action < DECLARE_BASE:
            self._call(deal, seat, action - CALL_BASE)
        else:
            i = action - DECLARE_BASE
            kind = _DECL_KIND[i]
            rows, rel = self.rows, _REL[seat]
            for o in range(4):
                rows[o][_ANNOUNCED + 4 * rel[o] + kind] += 1.0
            own = rows[seat]
            for c in _DECL_CARDS[i]:
                own[_OWN + c] = 1.0
        if deal.to_move != self.to_move:
            self._set_to_move(deal.to_move)

    def _set_to_move(self, to_move: int) -> None:
        if to_move == self.to_move:
            return
        if to_move >= 0:
            index, values = _TO_MOVE_SWITCH[self.to_move + 1][to_move]
            self.flat[index] = values
        else:
            self.flat[_TO_MOVE_ONES[self.to_move]] = 0.0
        self.to_move = to_move

    def _phase(self, index: int) -> None:
        if index != self.phase:
            i, values = _PHASE_SWITCH[self.phase + 1][index]
            self.flat[i] = values
            self.phase = index

    def _call(self, deal: Deal, seat: int, call: int) -> None:
        flat = self.flat
        to_move = deal.to_move
        key = (seat, call, self.passes, self.last_calls[seat], to_move)
        write = _TURN_WRITES.get(key)
        if write is None:
            write = _TURN_WRITES[key] = _turn_writes(*key)
        flat[write[0]] = write[1]
        self.passes = self.passes + 1 if call == PASS and self.passes >= 0 else int(call == PASS)
        self.last_calls[seat] = call
        self.to_move = to_move
        if call != PASS:
            if call == KONTRA:  # the kontra slot: surkontra when it left x8 (OPT-SURCONTRA)
                mult = 1 if deal.auction.multiplier == 2 else 3
            elif call == REKONTRA:
                mult = 2
            else:
                mult = 0
            bid = (seat, call, self.contract, self.declarer, self.mult, mult)
            write = _BID_WRITES.get(bid)
            if write is None:
                write = _BID_WRITES[bid] = _bid_writes(*bid)
            flat[write[0]] = write[1]
            self.mult = mult
            if KONTRA != call != REKONTRA:
                self.contract, self.declarer = call - BID_BASE, seat
        if deal.phase != AUCTION:
            # The auction is over: the last three cards are dealt (R2.3) when there is a contract;
            # when all passed they never are, and the view keeps the first five.
            if deal.phase == PLAY:
                self._show(deal.dealt, 5, 8)
                self._phase(1)
            else:
                self._phase(2)
