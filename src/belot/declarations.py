"""Declarations (R7): sequences and carrés, what a hand may announce, and the contest between teams.

Every possible declaration has a fixed id: 84 sequences (suit x length 3-8 x start) then 6 carrés
(9 T J Q K A).  A seat announces declarations one at a time at its first turn of trick 1; the
legal ones follow R7.4: a card serves in one declaration only, and a sequence is announced whole
(as long as the cards not used by an announced carré allow), so an 8-card run is one quint.
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import CARD_NAMES, NINE, NUM_CARDS, RANKS, SUITS
from .contracts import TRUMP_STRENGTH

TIERCE, QUARTE, QUINT, CARRE = "tierce", "quarte", "quint", "carre"
KINDS = (TIERCE, QUARTE, QUINT, CARRE)


@dataclass(frozen=True, slots=True)
class Declaration:
    id: int
    mask: int
    kind: str
    value: int
    suit: int  # -1 for a carré
    rank: int  # top rank of a sequence, rank of a carré
    length: int

    @property
    def is_carre(self) -> bool:
        return self.kind == CARRE

    @property
    def cards(self) -> list[int]:
        return [c for c in range(NUM_CARDS) if self.mask >> c & 1]

    def describe(self) -> str:
        """``quarte to K in spades``, ``carre of J``: the details shown after the deal (R7.5)."""
        if self.is_carre:
            return f"carre of {RANKS[self.rank]}"
        return f"{self.kind} to {RANKS[self.rank]} in {SUITS[self.suit]}"


def _sequence_value(length: int) -> int:
    return 20 if length == 3 else 50 if length == 4 else 100  # R7.2


_CARRE_VALUES = {2: 150, 3: 100, 4: 200, 5: 100, 6: 100, 7: 100}  # R7.3: 9 T J Q K A


def _build() -> tuple[list[Declaration], dict[tuple[int, int, int], int], dict[int, int]]:
    decls: list[Declaration] = []
    seq_ids: dict[tuple[int, int, int], int] = {}
    for suit in range(4):
        for length in range(3, 9):
            for start in range(9 - length):
                mask = ((1 << length) - 1) << (8 * suit + start)
                kind = (TIERCE, QUARTE)[length - 3] if length < 5 else QUINT
                seq_ids[(suit, start, length)] = len(decls)
                decls.append(
                    Declaration(len(decls), mask, kind, _sequence_value(length), suit, start + length - 1, length)
                )
    carre_ids: dict[int, int] = {}
    for rank in range(NINE, 8):
        mask = sum(1 << (8 * s + rank) for s in range(4))
        carre_ids[rank] = len(decls)
        decls.append(Declaration(len(decls), mask, CARRE, _CARRE_VALUES[rank], -1, rank, 4))
    return decls, seq_ids, carre_ids


DECLARATIONS, _SEQ_IDS, _CARRE_IDS = _build()
NUM_DECLARATIONS = len(DECLARATIONS)  # 90
_BY_MASK = {d.mask: d.id for d in DECLARATIONS}


def _runs(byte: int) -> tuple[tuple[int, int], ...]:
    runs, start = [], None
    for r in range(9):
        if r < 8 and byte >> r & 1:
            start = r if start is None else start
        elif start is not None:
            if r - start >= 3:
                runs.append((start, r - start))
            start = None
    return tuple(runs)


_RUNS: tuple[tuple[tuple[int, int], ...], ...] = tuple(_runs(b) for b in range(256))
# _RUN_IDS[suit][byte]: ids of the whole runs (3 cards or more) of that suit's byte of a hand
_RUN_IDS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(_SEQ_IDS[(suit, start, length)] for start, length in _RUNS[b]) for b in range(256)) for suit in range(4)
)
_MASKS = tuple(d.mask for d in DECLARATIONS)
_FIRST_CARRE = min(_CARRE_IDS.values())  # carrés come after the 84 sequences
_CARRE_BY_BIT = {1 << rank: i for rank, i in _CARRE_IDS.items()}


def declaration_for_cards(cards: list[int]) -> Declaration | None:
    """The declaration made of exactly these cards, or None when they form none."""
    mask = 0
    for c in cards:
        mask |= 1 << c
    if len(cards) != mask.bit_count():
        return None
    i = _BY_MASK.get(mask)
    return DECLARATIONS[i] if i is not None else None


def declarable(hand: int, announced: list[int]) -> list[int]:
    """Ids of the declarations the holder of ``hand`` may announce next (R7.2-R7.4).

    ``announced`` are the ids this seat has announced already in this deal.  Carrés come first
    (by rank), then each suit's runs from the 7 up.
    """
    used = 0
    carre_cards = 0
    for i in announced:
        m = _MASKS[i]
        used |= m
        if i >= _FIRST_CARRE:
            carre_cards |= m
    out = []
    ranks = hand & (hand >> 8) & (hand >> 16) & (hand >> 24) & 0xFC  # 9 T J Q K A held in all suits
    while ranks:
        low = ranks & -ranks
        i = _CARRE_BY_BIT[low]
        if not _MASKS[i] & used:
            out.append(i)
        ranks ^= low
    free = hand & ~carre_cards
    runs = _RUN_IDS
    for i in (*runs[0][free & 0xFF], *runs[1][free >> 8 & 0xFF], *runs[2][free >> 16 & 0xFF], *runs[3][free >> 24]):
        if not _MASKS[i] & used:
            out.append(i)
    return out


def best_declarations(hand: int) -> list[int]:
    """The announcement worth most points (R7.4's default choice), carrés first."""
    carres = [i for i in _CARRE_IDS.values() if DECLARATIONS[i].mask & ~hand == 0]
    best: list[int] = []
    best_value = -1
    for pick in range(1 << len(carres)):
        chosen = [carres[k] for k in range(len(carres)) if pick >> k & 1]
        ids = list(chosen)
        while True:
            seqs = [i for i in declarable(hand, ids) if DECLARATIONS[i].kind != CARRE]
            if not seqs:
                break
            ids.append(seqs[0])
        value = sum(DECLARATIONS[i].value for i in ids)
        if value > best_value:
            best, best_value = ids, value
    return best


def sequence_key(d: Declaration) -> tuple[int, int]:
    """R7.6: quint > quarte > tierce, then the top card; a 6-8 card quint is just a quint."""
    return (min(d.length, 5), d.rank)


def carre_key(d: Declaration) -> int:
    return TRUMP_STRENGTH[d.rank]  # R7.6: J > 9 > A > T > K > Q


def contest(by_team: tuple[list[int], list[int]]) -> list[int]:
    """Declaration points that count for each team (R7.6, R7.8)."""
    points = [0, 0]
    best: list[tuple[int, int] | None] = [None, None]  # best sequence key of each team
    cbest = [-1, -1]  # best carré key of each team
    seq_points = [0, 0]
    carre_points = [0, 0]
    for team in (0, 1):
        for i in by_team[team]:
            if i >= _FIRST_CARRE:
                carre_points[team] += _VALUES[i]
                cbest[team] = max(cbest[team], _CARRE_KEY[i - _FIRST_CARRE])
            else:
                seq_points[team] += _VALUES[i]
                key, b = _SEQUENCE_KEY[i], best[team]
                if b is None or key > b:
                    best[team] = key
    b0, b1 = best
    if b0 is not None or b1 is not None:
        if b1 is None or (b0 is not None and b0 > b1):
            points[0] += seq_points[0]
        elif b0 is None or b1 > b0:
            points[1] += seq_points[1]
        # equal best sequences: no sequence of either team scores
    if cbest[0] > cbest[1]:
        points[0] += carre_points[0]
    elif cbest[1] > cbest[0]:
        points[1] += carre_points[1]
    return points


# Per declaration id, what the contest compares (R7.6) and what it is worth (R7.2-R7.3); the
# sequences are ids 0-83, the carrés from _FIRST_CARRE on.
_SEQUENCE_KEY = tuple(sequence_key(d) for d in DECLARATIONS[:_FIRST_CARRE])
_CARRE_KEY = tuple(carre_key(d) for d in DECLARATIONS[_FIRST_CARRE:])
_VALUES = tuple(d.value for d in DECLARATIONS)


def card_list(decl_id: int) -> list[str]:
    return [CARD_NAMES[c] for c in DECLARATIONS[decl_id].cards]
