"""Card play (R5): the legal cards of a hand in a trick, and who is winning the trick.

A trick in progress is described by its led suit (-1 before the lead), the card winning it so
far and whether that card is the partner's.  Legal cards are then a few mask operations on the
contract's precomputed table.
"""

from __future__ import annotations

from .cards import CARD_NAMES, SUIT_MASKS
from .contracts import AT, NT, ContractTable

SUIT_WORDS = ("club", "diamond", "heart", "spade")
SUIT_PLURALS = ("clubs", "diamonds", "hearts", "spades")


def legal_cards(hand: int, t: ContractTable, led: int, win_card: int, partner_winning: bool) -> int:
    """Mask of the cards of ``hand`` that may be played (R5.2-R5.5)."""
    if led < 0:
        return hand  # R5.1: any card may be led
    follow = hand & SUIT_MASKS[led]
    contract = t.contract
    if contract == NT:
        return follow or hand  # R5.4
    if contract == AT:
        if follow:
            return (follow & t.above[win_card]) or follow  # R5.5
        return hand
    if follow:
        if led == t.trump_suit:
            return (follow & t.above[win_card]) or follow  # R5.3
        return follow  # R5.2
    if partner_winning:
        return hand  # R5.2 (a)
    trumps = hand & t.trump_mask
    if not trumps:
        return hand  # R5.2 (d), R5.3 void in trumps
    if (t.trump_mask >> win_card) & 1:
        return (trumps & t.above[win_card]) or hand  # R5.2 (b): overtrump if able, else free
    return trumps  # R5.2 (c)


def beats(t: ContractTable, card: int, winning: int) -> bool:
    """Whether ``card`` takes the trick from ``winning`` (R5.6, the table's ``beaten_by``)."""
    return bool(t.beaten_by[winning] >> card & 1)


def explain_illegal(
    card: int, hand: int, t: ContractTable, led: int, win_card: int, partner_winning: bool
) -> tuple[str, str]:
    """Why ``card`` may not be played: (message, rule id).  Only called for refused cards."""
    name = CARD_NAMES[card]
    if not (hand >> card) & 1:
        return f"{name} is not in the player's hand", "R5.1"
    led_word = SUIT_PLURALS[led]
    follow = hand & SUIT_MASKS[led]
    if t.contract == NT:
        return f"{name} is not legal: must follow {led_word}", "R5.4"
    if t.contract == AT:
        if follow and (card >> 3) == led:
            return f"{name} is not legal: must beat {CARD_NAMES[win_card]} with a higher {SUIT_WORDS[led]}", "R5.5"
        return f"{name} is not legal: must follow {led_word}", "R5.5"
    trump = t.trump_suit
    if led == trump:
        if follow and (card >> 3) == led:
            return f"{name} is not legal: must play a higher {SUIT_WORDS[led]} than {CARD_NAMES[win_card]}", "R5.3"
        return f"{name} is not legal: must follow {led_word}", "R5.3"
    if follow:
        return f"{name} is not legal: must follow {led_word}", "R5.2"
    if (t.trump_mask >> win_card) & 1:
        return f"{name} is not legal: must overtrump with a higher {SUIT_WORDS[trump]}", "R5.2"
    return f"{name} is not legal: must trump with a {SUIT_WORDS[trump]}", "R5.2"
