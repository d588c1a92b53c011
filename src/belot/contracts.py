"""Contract kinds, card orders and point tables (R4, R6), and the rule options in force.

Everything the play and scoring rules need to know about a contract is precomputed once into a
`ContractTable`: per card its points, its strength in its suit's order, the cards of its suit
that beat it, and which cards dominate the others (the trump suit in a suit contract).
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import NUM_CARDS, SUIT_MASKS

# Contracts, in bidding order (R3.1): C < D < H < S < NT < AT.
C, D, H, S, NT, AT = range(6)
CONTRACT_NAMES = ("C", "D", "H", "S", "NT", "AT")
NO_CONTRACT = -1

# Ranks are 7 8 9 T J Q K A = 0..7 (cards.py).  Strength = position in the order, 7 weakest.
TRUMP_STRENGTH = (0, 1, 6, 4, 7, 2, 3, 5)  # R4.1: J 9 A T K Q 8 7
PLAIN_STRENGTH = (0, 1, 2, 6, 3, 4, 5, 7)  # R4.1: A T K Q J 9 8 7
TRUMP_POINTS = (0, 0, 14, 10, 20, 3, 4, 11)  # R6.1
PLAIN_POINTS = (0, 0, 0, 10, 2, 3, 4, 11)  # R6.1
LAST_TRICK_BONUS = 10  # R6.2
VALAT_BONUS = 90  # R8


def is_suit_contract(contract: int) -> bool:
    return 0 <= contract <= S


@dataclass(frozen=True, slots=True)
class ContractTable:
    contract: int
    points: tuple[int, ...]  # R6.1 card points
    strength: tuple[int, ...]  # order within the card's suit (R4.2)
    above: tuple[int, ...]  # mask of the cards of the same suit that beat this one
    trump_suit: int  # -1 in NT and AT
    trump_mask: int  # cards that beat every card of another suit (R5.6); 0 in NT and AT
    total: int  # card points + last trick, doubled in NT (R6.4)
    multiplier: int  # 2 in NT (R6.3), else 1


def _table(contract: int) -> ContractTable:
    strength: list[int] = []
    points: list[int] = []
    for card in range(NUM_CARDS):
        suit, rank = card >> 3, card & 7
        trump = contract == AT or contract == suit
        strength.append((TRUMP_STRENGTH if trump else PLAIN_STRENGTH)[rank])
        points.append((TRUMP_POINTS if trump else PLAIN_POINTS)[rank])
    above = tuple(
        sum(1 << o for o in range(c & ~7, (c & ~7) + 8) if strength[o] > strength[c])
        for c in range(NUM_CARDS)
    )
    trump_suit = contract if is_suit_contract(contract) else -1
    mult = 2 if contract == NT else 1
    return ContractTable(
        contract=contract,
        points=tuple(points),
        strength=tuple(strength),
        above=above,
        trump_suit=trump_suit,
        trump_mask=SUIT_MASKS[trump_suit] if trump_suit >= 0 else 0,
        total=(sum(points) + LAST_TRICK_BONUS) * mult,
        multiplier=mult,
    )


TABLES: tuple[ContractTable, ...] = tuple(_table(c) for c in range(6))


# Rule options (docs/rules.md, `OPT-...`).  The engine plays the Bulgarian defaults; the named options
# are known so that a record using one gets a precise error instead of a wrong replay.
KNOWN_OPTIONS = frozenset(
    {
        "OPT-NO-SHUFFLE",
        "OPT-SURCONTRA",
        "OPT-EIGHT-SPLIT",
        "OPT-CARRE-FIRST",
        "OPT-LATE-DECLARE",
        "OPT-LENGTH-FIRST",
        "OPT-CARRE-RANK",
        "OPT-SINGLE-CONTEST",
        "OPT-NONZERO",
        "OPT-VALAT-NO-DOUBLE",
        "OPT-CAPOT-NI",
        "OPT-CAPOT-EN",
    }
)
SUPPORTED_OPTIONS: frozenset[str] = frozenset()


class UnsupportedOption(ValueError):
    pass


@dataclass(frozen=True, slots=True)
class Rules:
    """The rule set a game is played under: the defaults, plus named options (none yet)."""

    options: tuple[str, ...] = ()

    @classmethod
    def from_options(cls, options: list[str] | tuple[str, ...] | None) -> Rules:
        opts = tuple(options or ())
        for opt in opts:
            if not isinstance(opt, str):
                raise UnsupportedOption(f"rule option {opt!r} is not a name")
            if opt not in KNOWN_OPTIONS:
                raise UnsupportedOption(f"unknown rule option {opt!r}")
            if opt not in SUPPORTED_OPTIONS:
                raise UnsupportedOption(f"rule option {opt} is not supported by this engine yet")
        return cls(opts)
