"""Declarations (R7): sequences and carrés, what a hand may announce, and the contest between teams.

Every possible declaration has a fixed id: 84 sequences (suit x length 3-8 x start) then 6 carrés
(9 T J Q K A).  A seat announces declarations one at a time at its first turn of trick 1; the
legal ones follow R7.4: a card serves in one declaration only, and a sequence is announced whole
(as long as the cards not used by an announced carré allow), so an 8-card run is one quint.
The rule options of R7 (`OPT-EIGHT-SPLIT`, `OPT-CARRE-FIRST`, `OPT-LENGTH-FIRST`, `OPT-CARRE-RANK`,
`OPT-SINGLE-CONTEST`) change `declarable`, `best_declarations` and `contest` here, and nowhere else.
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import ACE, CARD_NAMES, JACK, KING, NINE, NUM_CARDS, QUEEN, RANKS, SUITS, TEN
from .contracts import (
    CARRE_FIRST,
    CARRE_RANK,
    EIGHT_SPLIT,
    LENGTH_FIRST,
    SINGLE_CONTEST,
    TRUMP_STRENGTH,
    Rules,
)

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
            for start in range(0, 9 - length):
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
_VALUES = tuple(d.value for d in DECLARATIONS)
_FIRST_CARRE = min(_CARRE_IDS.values())  # carrés come after the 84 sequences
_CARRE_BY_BIT = {1 << rank: i for rank, i in _CARRE_IDS.items()}
# OPT-EIGHT-SPLIT (R7.2): an 8-card run's id -> the quint of its top five and the tierce of its bottom three
_EIGHT_SPLIT = {_SEQ_IDS[(suit, 0, 8)]: (_SEQ_IDS[(suit, 3, 5)], _SEQ_IDS[(suit, 0, 3)]) for suit in range(4)}


def declaration_for_cards(cards: list[int]) -> Declaration | None:
    """The declaration made of exactly these cards, or None when they form none."""
    mask = 0
    for c in cards:
        mask |= 1 << c
    if len(cards) != mask.bit_count():
        return None
    i = _BY_MASK.get(mask)
    return DECLARATIONS[i] if i is not None else None


def declarable(hand: int, announced: list[int], rules: Rules) -> list[int]:
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
    clubs, diamonds, hearts, spades = hand.to_bytes(4, "little")  # a suit's ranks, one byte each
    held = clubs & diamonds & hearts & spades & 0xFC  # 9 T J Q K A held in all suits
    ranks = held
    while ranks:
        low = ranks & -ranks
        i = _CARRE_BY_BIT[low]
        if not _MASKS[i] & used:
            out.append(i)
        ranks ^= low
    options = rules.options
    if options and CARRE_FIRST in options:
        # OPT-CARRE-FIRST (R7.4): no sequence uses a card of a scoring carré held, declared or not
        carre_cards |= held * 0x01010101
    split = bool(options) and EIGHT_SPLIT in options
    if carre_cards:
        clubs, diamonds, hearts, spades = (hand & ~carre_cards).to_bytes(4, "little")
    runs = _RUN_IDS
    for i in (*runs[0][clubs], *runs[1][diamonds], *runs[2][hearts], *runs[3][spades]):
        if split and i in _EIGHT_SPLIT:
            out.extend(j for j in _EIGHT_SPLIT[i] if not _MASKS[j] & used)
        elif not _MASKS[i] & used:
            out.append(i)
    return out


def best_declarations(hand: int, rules: Rules) -> list[int]:
    """The announcement worth most points (R7.4's default choice), carrés first.  ``rules`` has no
    default: the house rules change what may be announced (OPT-EIGHT-SPLIT, OPT-CARRE-FIRST), and
    callers that left them out offered the default rules' declarations under others."""
    carres = [i for i in _CARRE_IDS.values() if DECLARATIONS[i].mask & ~hand == 0]
    best: list[int] = []
    best_value = -1
    for pick in range(1 << len(carres)):
        chosen = [carres[k] for k in range(len(carres)) if pick >> k & 1]
        ids = list(chosen)
        while True:
            seqs = [i for i in declarable(hand, ids, rules) if DECLARATIONS[i].kind != CARRE]
            if not seqs:
                break
            ids.append(seqs[0])
        value = sum(DECLARATIONS[i].value for i in ids)
        if value > best_value:
            best, best_value = ids, value
    return best


def sequence_key(d: Declaration, rules: Rules) -> tuple[int, int]:
    """R7.6: quint > quarte > tierce, then the top card; a 6-8 card quint is just a quint.
    `OPT-LENGTH-FIRST`: the number of cards first (8 > 7 > ... > 3), then the top card."""
    if rules.options and LENGTH_FIRST in rules.options:
        return (d.length, d.rank)
    return (min(d.length, 5), d.rank)


# OPT-CARRE-RANK (R7.6): J > 9 > A > K > Q > T instead of the trump order J > 9 > A > T > K > Q
_CARRE_RANK_ORDER = {JACK: 6, NINE: 5, ACE: 4, KING: 3, QUEEN: 2, TEN: 1}


def carre_key(d: Declaration, rules: Rules) -> int:
    if rules.options and CARRE_RANK in rules.options:
        return _CARRE_RANK_ORDER[d.rank]
    return TRUMP_STRENGTH[d.rank]  # R7.6: J > 9 > A > T > K > Q


def _single_key(d: Declaration, rules: Rules) -> tuple[int, int, tuple[int, ...]]:
    """OPT-SINGLE-CONTEST: points first, then a carré over a sequence, then each kind's own order."""
    if d.kind == CARRE:
        return (d.value, 1, (carre_key(d, rules),))
    return (d.value, 0, sequence_key(d, rules))


def contest(by_team: tuple[list[int], list[int]], rules: Rules) -> list[int]:
    """Declaration points that count for each team (R7.6, R7.8).

    >>> q = _SEQ_IDS[(0, 0, 4)]                            # quarte 7C-TC
    >>> t, cq = _SEQ_IDS[(1, 0, 3)], _CARRE_IDS[QUEEN]     # tierce 7D-9D, carré of queens
    >>> from belot.contracts import DEFAULT_RULES
    >>> contest(([q], [t, cq]), DEFAULT_RULES)             # RULES section 4 (d)
    [50, 100]
    >>> contest(([q], [t, cq]), Rules(("OPT-SINGLE-CONTEST",)))
    [0, 120]
    """
    points = [0, 0]
    options = rules.options
    if options and SINGLE_CONTEST in options:
        # OPT-SINGLE-CONTEST (R7.6): the better single declaration takes all of its team's
        best1 = [max((_single_key(DECLARATIONS[i], rules) for i in ids), default=None) for ids in by_team]
        if best1[0] is not None and (best1[1] is None or best1[0] > best1[1]):
            points[0] = sum(_VALUES[i] for i in by_team[0])
        elif best1[1] is not None and (best1[0] is None or best1[1] > best1[0]):
            points[1] = sum(_VALUES[i] for i in by_team[1])
        return points  # an exact tie cancels all of both
    seq_keys, carre_keys = _KEYS[options] if options in _KEYS else _keys(rules)
    best: list[tuple[int, int] | None] = [None, None]  # best sequence key of each team
    cbest = [-1, -1]  # best carré key of each team
    seq_points = [0, 0]
    carre_points = [0, 0]
    for team in (0, 1):
        for i in by_team[team]:
            if i >= _FIRST_CARRE:
                carre_points[team] += _VALUES[i]
                cbest[team] = max(cbest[team], carre_keys[i - _FIRST_CARRE])
            else:
                seq_points[team] += _VALUES[i]
                key, b = seq_keys[i], best[team]
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


# Per declaration id, what the contest compares (R7.6) under a set of options: the sequences are
# ids 0-83, the carrés from _FIRST_CARRE on.  Built once per option set, from the key functions.
_KEYS: dict[tuple[str, ...], tuple[tuple[tuple[int, int], ...], tuple[int, ...]]] = {}


def _keys(rules: Rules) -> tuple[tuple[tuple[int, int], ...], tuple[int, ...]]:
    keys = (tuple(sequence_key(d, rules) for d in DECLARATIONS[:_FIRST_CARRE]),
            tuple(carre_key(d, rules) for d in DECLARATIONS[_FIRST_CARRE:]))
    _KEYS[rules.options] = keys
    return keys


def counted(declared: tuple[tuple[int, ...], ...] | list[list[int]], rules: Rules) -> list[list[bool]]:
    """For each seat's announced declarations (ids), whether it counted in the deal (R7.6): the
    verdict of `contest`, asked of sequences and carrés apart (or of all, under OPT-SINGLE-CONTEST);
    ``rules`` has no default, as for `best_declarations`.

    >>> q, t = _SEQ_IDS[(0, 0, 4)], _SEQ_IDS[(1, 0, 3)]     # quarte 7C-TC beats tierce 7D-9D
    >>> from belot.contracts import DEFAULT_RULES
    >>> counted(([q], [t], [], []), DEFAULT_RULES)
    [[True], [False], [], []]
    """
    by_team: tuple[list[int], list[int]] = ([], [])
    for seat, ids in enumerate(declared):
        by_team[seat & 1].extend(ids)
    if rules.options and SINGLE_CONTEST in rules.options:
        whole = contest(by_team, rules)
        return [[whole[seat & 1] > 0 for _ in ids] for seat, ids in enumerate(declared)]
    seqs = contest(([i for i in by_team[0] if not DECLARATIONS[i].is_carre], [i for i in by_team[1] if not DECLARATIONS[i].is_carre]), rules)
    carres = contest(([i for i in by_team[0] if DECLARATIONS[i].is_carre], [i for i in by_team[1] if DECLARATIONS[i].is_carre]), rules)
    return [[(carres if DECLARATIONS[i].is_carre else seqs)[seat & 1] > 0 for i in ids] for seat, ids in enumerate(declared)]


def card_list(decl_id: int) -> list[str]:
    return [CARD_NAMES[c] for c in DECLARATIONS[decl_id].cards]
