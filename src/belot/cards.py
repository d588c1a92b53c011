"""Cards and card sets (R1.1).

A card is an int ``suit * 8 + rank`` with suits C D H S = 0..3 and ranks 7 8 9 T J Q K A = 0..7
(the natural sequence order of R7.2, so a run of a suit is a run of adjacent bits). A set of cards
is a 32-bit mask, bit ``card`` set when the card is in the set, as python-chess does with squares.

>>> parse_card("JH"), card_name(20)
(20, 'JH')
>>> cards_of(mask_of([20, 0, 31]))
[0, 20, 31]
"""

from __future__ import annotations

from collections.abc import Iterable

from .errors import shown

SUITS = "CDHS"
RANKS = "789TJQKA"
CLUBS, DIAMONDS, HEARTS, SPADES = range(4)
SEVEN, EIGHT, NINE, TEN, JACK, QUEEN, KING, ACE = range(8)

NUM_CARDS = 32
FULL_DECK = (1 << NUM_CARDS) - 1
SUIT_MASKS: tuple[int, ...] = tuple(0xFF << (8 * s) for s in range(4))
# The bit of each card, as python-chess's BB_SQUARES: a look-up costs less than ``1 << card``
CARD_BITS: tuple[int, ...] = tuple(1 << c for c in range(NUM_CARDS))

CARD_NAMES: tuple[str, ...] = tuple(RANKS[c % 8] + SUITS[c // 8] for c in range(NUM_CARDS))
_BY_NAME: dict[str, int] = {name: c for c, name in enumerate(CARD_NAMES)}

# For every byte, the ranks whose bits are set, low to high: iterating a mask is then a few
# table look-ups instead of a bit loop.
_BYTE_BITS: tuple[tuple[int, ...], ...] = tuple(
    tuple(r for r in range(8) if b >> r & 1) for b in range(256)
)
_SUIT_CARDS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(8 * s + r for r in _BYTE_BITS[b]) for b in range(256)) for s in range(4)
)
POPCOUNT8: tuple[int, ...] = tuple(len(bits) for bits in _BYTE_BITS)
# The cards of each 11-bit slice of a mask (bits 0-10, 11-21, 22-31): a mask to its cards in
# three look-ups, for the legal cards listed at every turn.
_SLICE_CARDS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(base + b for b in range(11) if v >> b & 1) for v in range(1 << min(11, NUM_CARDS - base)))
    for base in (0, 11, 22)
)

# The queen and king of a suit are ranks 5 and 6 (0b101, 0b110): flipping the two low bits of
# either gives the other, the pair of a belote (R7.7).  A plain int so the solver's compiled
# kernels can read it too.
BELOTE_PAIR_XOR = 3


def suit_of(card: int) -> int:
    return card >> 3


def rank_of(card: int) -> int:
    return card & 7


def belote_partner(card: int) -> int:
    """The other card of a belote pair (R7.7): the king for a queen, the queen for a king.

    >>> card_name(belote_partner(parse_card("QH"))), card_name(belote_partner(parse_card("KS")))
    ('KH', 'QS')
    """
    return card ^ BELOTE_PAIR_XOR


def card_name(card: int) -> str:
    return CARD_NAMES[card]


def parse_card(text: str, *, lenient: bool = False) -> int:
    """The card named by ``text`` ("JH", exactly: a record or a protocol message names it so); with
    ``lenient`` also " jh ", "10h", "10H" (what a person types).

    Raises ValueError naming the text when it is not a card.
    """
    key = text
    if lenient:
        key = key.strip().upper()
        if key.startswith("10"):
            key = "T" + key[2:]
    try:
        return _BY_NAME[key]
    except KeyError:
        raise ValueError(f"{shown(text)} is not a card (rank 7 8 9 T J Q K A, then suit C D H S)") from None


def mask_of(cards: Iterable[int]) -> int:
    mask = 0
    for c in cards:
        mask |= 1 << c
    return mask


def cards_of(mask: int) -> list[int]:
    """The cards of a mask, ascending (clubs first, each suit 7 to A)."""
    sc = _SLICE_CARDS
    return [*sc[0][mask & 0x7FF], *sc[1][mask >> 11 & 0x7FF], *sc[2][mask >> 22 & 0x3FF]]


def count(mask: int) -> int:
    return mask.bit_count()


def names(cards: Iterable[int]) -> list[str]:
    return [CARD_NAMES[c] for c in cards]
