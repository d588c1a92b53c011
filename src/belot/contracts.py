"""Contract kinds, card orders and point tables (R4, R6), and the rule options in force.

Everything the play and scoring rules need to know about a contract is precomputed once into a
`ContractTable`: per card its points, its strength in its suit's order, the cards of its suit
that beat it, and which cards dominate the others (the trump suit in a suit contract).
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import NUM_CARDS, SUIT_MASKS
from .errors import shown

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
    beaten_by: tuple[int, ...]  # R5.6: mask of the cards that take the trick from this one
    total: int  # card points + last trick, doubled in NT (R6.4)
    multiplier: int  # 2 in NT (R6.3), else 1


def _table(contract: int) -> ContractTable:
    strength: list[int] = []
    points: list[int] = []
    for card in range(NUM_CARDS):
        suit, rank = card >> 3, card & 7
        trump = contract in (AT, suit)
        strength.append((TRUMP_STRENGTH if trump else PLAIN_STRENGTH)[rank])
        points.append((TRUMP_POINTS if trump else PLAIN_POINTS)[rank])
    above = tuple(
        sum(1 << o for o in range(c & ~7, (c & ~7) + 8) if strength[o] > strength[c])
        for c in range(NUM_CARDS)
    )
    trump_suit = contract if is_suit_contract(contract) else -1
    trump_mask = SUIT_MASKS[trump_suit] if trump_suit >= 0 else 0
    # R5.6: a higher card of its suit, or (a card that is not a trump) any trump
    beaten_by = tuple(above[c] | (0 if trump_mask >> c & 1 else trump_mask) for c in range(NUM_CARDS))
    mult = 2 if contract == NT else 1
    return ContractTable(
        contract=contract,
        points=tuple(points),
        strength=tuple(strength),
        above=above,
        trump_suit=trump_suit,
        trump_mask=trump_mask,
        beaten_by=beaten_by,
        total=(sum(points) + LAST_TRICK_BONUS) * mult,
        multiplier=mult,
    )


TABLES: tuple[ContractTable, ...] = tuple(_table(c) for c in range(6))


# Rule options (docs/rules.md, "Options, precisely").  The engine plays the Bulgarian defaults; a game
# may name options, each implemented where its rule is (the option name and rule id are cited there).
NO_SHUFFLE = "OPT-NO-SHUFFLE"  # R2.2
SURCONTRA = "OPT-SURCONTRA"  # R3.3, R11.4
EIGHT_SPLIT = "OPT-EIGHT-SPLIT"  # R7.2
CARRE_FIRST = "OPT-CARRE-FIRST"  # R7.4
LATE_DECLARE = "OPT-LATE-DECLARE"  # R7.5 (refused)
LENGTH_FIRST = "OPT-LENGTH-FIRST"  # R7.6
CARRE_RANK = "OPT-CARRE-RANK"  # R7.6
SINGLE_CONTEST = "OPT-SINGLE-CONTEST"  # R7.6
NONZERO = "OPT-NONZERO"  # R10, R11.1
VALAT_NO_DOUBLE = "OPT-VALAT-NO-DOUBLE"  # R11.4
CAPOT_NI = "OPT-CAPOT-NI"  # R12.1
CAPOT_EN = "OPT-CAPOT-EN"  # R12.2

KNOWN_OPTIONS = frozenset({
    NO_SHUFFLE, SURCONTRA, EIGHT_SPLIT, CARRE_FIRST, LATE_DECLARE, LENGTH_FIRST, CARRE_RANK,
    SINGLE_CONTEST, NONZERO, VALAT_NO_DOUBLE, CAPOT_NI, CAPOT_EN,
})
SUPPORTED_OPTIONS: frozenset[str] = KNOWN_OPTIONS - {LATE_DECLARE}
# Options that exclude each other (docs/rules.md: "OPT-CAPOT-NI and OPT-CAPOT-EN exclude each other").
EXCLUSIVE: tuple[frozenset[str], ...] = (frozenset({CAPOT_NI, CAPOT_EN}),)


class UnsupportedOption(ValueError):
    """A rule option that is unknown, not supported, or contradicts another one in force."""


@dataclass(frozen=True, slots=True)
class Rules:
    """The rule set a game is played under: the Bulgarian defaults plus named options.

    >>> Rules.from_options(["OPT-NONZERO"]).has("OPT-NONZERO"), Rules().options
    (True, ())
    >>> Rules.from_options(["OPT-CAPOT-NI", "OPT-CAPOT-EN"])
    Traceback (most recent call last):
    ...
    belot.contracts.UnsupportedOption: rule options OPT-CAPOT-EN and OPT-CAPOT-NI exclude each other (R12)
    """

    options: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        """Every way of making a rule set checks its options: known, supported, none twice, none
        excluding another (R12); ``Rules(("BAD",))`` was taken before, and ``Rules("OPT-NONZERO")``
        answered ``has`` for every part of the name."""
        if isinstance(self.options, (str, bytes)) or not isinstance(self.options, (tuple, list)):
            raise UnsupportedOption(f"rule options are a list of names, not {shown(self.options)}")
        opts: list[str] = []
        for opt in self.options:
            if not isinstance(opt, str):
                raise UnsupportedOption(f"rule option {shown(opt)} is not a name")
            if opt not in KNOWN_OPTIONS:
                raise UnsupportedOption(f"unknown rule option {shown(opt)}")
            if opt == LATE_DECLARE:
                raise UnsupportedOption(
                    f"rule option {opt} is not supported: it needs declarations announced out of turn "
                    "(after one's own card, until trick 1 closes), and play here is turn by turn (R7.5)")
            if opt not in opts:
                opts.append(opt)
        for group in EXCLUSIVE:
            both = sorted(group & set(opts))
            if len(both) > 1:
                raise UnsupportedOption(f"rule options {' and '.join(both)} exclude each other (R12)")
        object.__setattr__(self, "options", tuple(opts))

    @classmethod
    def from_options(cls, options: list[str] | tuple[str, ...] | None) -> Rules:
        # __post_init__ makes a list a tuple and refuses anything else (a name alone, say)
        return cls(() if options is None else options)  # type: ignore[arg-type]

    def has(self, option: str) -> bool:
        return option in self.options


DEFAULT_RULES = Rules()
