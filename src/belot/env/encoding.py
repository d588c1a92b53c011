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

import numpy as np

from ..cards import NUM_CARDS
from ..contracts import LAST_TRICK_BONUS, TABLES
from ..declarations import DECLARATIONS, KINDS
from ..game import AUCTION, NUM_ACTIONS, OVER, PLAY, SeatView
from ..auction import NUM_CALLS, KONTRA, REKONTRA, BID_BASE, PASS

__all__ = ["SECTIONS", "OFFSETS", "SIZE", "NUM_ACTIONS", "DTYPE", "encode", "action_mask", "describe"]

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
    ("kontras", 24, "contract c x relative seat: that seat doubled c (kontra)"),
    ("rekontras", 24, "contract c x relative seat: that seat redoubled c (rekontra)"),
    ("last_call", 36, "relative seat x call (pass C D H S NT AT kontra rekontra): its latest call"),
    ("passes", 4, "consecutive passes since the last other call: 0, 1, 2, 3"),
    ("contract", 6, "the contract bid last (C D H S NT AT); zeros while none"),
    ("declarer", 4, "the seat that bid it (relative seat)"),
    ("multiplier", 3, "x1, x2 (kontra), x4 (rekontra)"),
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
)


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
            if call == KONTRA:
                x[o["kontras"] + 4 * contract + r] = 1.0
            elif call == REKONTRA:
                x[o["rekontras"] + 4 * contract + r] = 1.0
            else:
                contract = call - BID_BASE
                x[o["bids"] + 4 * contract + r] = 1.0
        base = o["last_call"] + NUM_CALLS * r
        x[base : base + NUM_CALLS] = 0.0
        x[base + call] = 1.0
    if view.calls:
        x[o["passes"] + min(passes, 3)] = 1.0
    if view.contract >= 0:
        x[o["contract"] + view.contract] = 1.0
        x[o["declarer"] + ((view.declarer - me) & 3)] = 1.0
        x[o["multiplier"] + {1: 0, 2: 1, 4: 2}[view.multiplier]] = 1.0

    for seat, kinds in enumerate(view.announced):
        r = (seat - me) & 3
        for kind in kinds:
            x[o["announced"] + 4 * r + _KIND_INDEX[kind]] += 1.0
    for i in view.own_declarations:
        for c in DECLARATIONS[i].cards:
            x[o["own_declared"] + c] = 1.0
    for seat, card in view.belotes:
        x[o["belotes"] + 4 * ((seat - me) & 3) + (card >> 3)] = 1.0

    points = TABLES[view.contract].points if view.contract >= 0 else None
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
            if points is not None:
                won[(winner - me) & 1] += points[c]
        if k == 7:
            won[(winner - me) & 1] += LAST_TRICK_BONUS
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
