"""What one seat can infer about the hidden cards from its view (`belot.game.SeatView`).

This module owns the hard facts every bot and search derives from a view: the cards the seat has
not seen, how many of them each seat holds, what each other seat cannot hold because of how it
played (a card it played would have been illegal had it held them: shown voids, failures to
trump, overtrump or beat, R5.2-R5.5), which cards it must hold (the other card of an announced
belote, R7.7), and which concrete declarations fit a kind a seat announced (R7.4, R7.5: only the
kind is said; under the rule options of R7.2 and R7.4, `candidates`, `declaration_fits` and
`announceable` take the `Rules`).  It asks the rules themselves (`belot.play.legal_cards`, `belot.play.beats`) rather
than restating them, and it reads nothing a view does not show, so the facts are the same for
every deal the seat cannot tell apart.  Sampling worlds from the facts is the callers' business
(`belot.bots.sampling`, the OpenSpiel game's resampler); `feasible` says whether any deal of the
hidden cards satisfies a set of facts.

>>> from belot.cards import SUIT_MASKS, parse_card
>>> from belot.game import Deal
>>> d = Deal(3, [[parse_card(c) for c in h.split()] for h in (
...     "7C 8C 9C TC JC 7D 8D 9D", "TD JD QD KD AD 7H 8H 9H",
...     "QC KC AC TH JH QH KH AH", "7S 8S 9S TS JS QS KS AS")])
>>> for a in (64 + 4, 64, 64, 64, 0):  # spades by seat 0, three passes; seat 0 leads 7C
...     d.apply(a)
>>> d.apply(parse_card("TD"))  # seat 1 neither follows nor trumps
>>> f = facts(d.view(0))
>>> f.cannot[1] == SUIT_MASKS[0] | SUIT_MASKS[3], f.sizes  # void in clubs and spades (R5.2)
(True, (0, 7, 8, 8))
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import NamedTuple

from .cards import FULL_DECK, NINE, belote_partner, mask_of
from .contracts import CARRE_FIRST, EIGHT_SPLIT, TABLES, Rules
from .declarations import DECLARATIONS, KINDS, Declaration, declarable
from .game import SeatView
from .play import beats, legal_cards

__all__ = [
    "CANDIDATES", "Facts", "Play", "announceable", "candidates", "declaration_fits", "facts", "feasible",
    "plays", "ruled_out", "run_neighbours",
]


class Play(NamedTuple):
    """One card played, with the trick as the player saw it just before."""

    seat: int
    card: int
    trick: int  # index of the trick in the deal, 0-7
    position: int  # 0 for the lead
    led: int  # suit led, -1 when this card leads
    win: int  # card winning the trick before this one, -1 when it leads
    partner_winning: bool  # whether that card is the player's partner's


def plays(view: SeatView) -> Iterator[Play]:
    """Every card played so far in the deal, in order (R5.6 decides who is winning each trick)."""
    t = TABLES[view.contract]
    for ti, (leader, cards) in enumerate(_tricks(view)):
        win = ws = led = -1
        for k, c in enumerate(cards):
            s = (leader + k) & 3
            yield Play(s, c, ti, k, led, win, ws >= 0 and (ws ^ s) & 1 == 0)
            if led < 0:
                led, win, ws = c >> 3, c, s
            elif beats(t, c, win):
                win, ws = c, s


def _tricks(view: SeatView) -> list[tuple[int, tuple[int, ...]]]:
    """(leader, cards) of the closed tricks and of the trick being played."""
    tricks = [(leader, cards) for leader, cards, _ in view.tricks]
    if view.trick:
        tricks.append((view.trick[0][0], tuple(c for _, c in view.trick)))
    return tricks


# (`ruled_out`, whether the card takes the trick) of a play, memoized by `facts` under one int key
_PLAY_FACTS: dict[int, tuple[int, bool]] = {}


def ruled_out(contract: int, led: int, win: int, partner_winning: bool, card: int) -> int:
    """The cards a seat cannot have held when it played ``card`` to a trick (R5.2-R5.5).

    Every duty of R5 reads "if you hold a card of some set, play one of that set", so a card is
    illegal in a hand exactly when one other card of the hand, held beside it, would make it so:
    these are those cards.  (tests/test_inference.py checks the claim on random hands.)

    >>> from belot.cards import parse_card, cards_of, names
    >>> names(cards_of(ruled_out(3, 2, parse_card("AH"), False, parse_card("7C"))))  # R5.2 (c)
    ['7H', '8H', '9H', 'TH', 'JH', 'QH', 'KH', 'AH', '7S', '8S', '9S', 'TS', 'JS', 'QS', 'KS', 'AS']
    """
    if led < 0:
        return 0  # R5.1: any card may be led
    t = TABLES[contract]
    bit = 1 << card
    out = 0
    for x in range(32):
        if x != card and not legal_cards(bit | 1 << x, t, led, win, partner_winning) >> card & 1:
            out |= 1 << x
    return out


class Facts(NamedTuple):
    """The hard facts of one seat's view.  Masks are 32-bit card sets; tuples are by seat."""

    seat: int
    contract: int  # -1 while no contract is played
    own: int  # the seat's cards now (the five it bid on during the auction, R2.3)
    played: int  # every card played so far
    unseen: int  # the cards the seat has not seen: in other hands, or still to be dealt to it
    sizes: tuple[int, ...]  # unseen cards each seat holds (own seat: 0 in play, 3 in the auction)
    played_by: tuple[int, ...]  # cards each seat has played
    cannot: tuple[int, ...]  # cards each seat cannot hold, by its card play (R5.2-R5.5)
    must: tuple[int, ...]  # unplayed cards each seat must hold: belote partners (R7.7)
    announced: tuple[tuple[str, ...], ...]  # declaration kinds each seat announced, in order (R7.5)

    def may_hold(self, seat: int) -> int:
        """The unseen cards ``seat`` may hold: not ruled out, not another seat's belote partner."""
        others = 0
        for s in range(4):
            if s != seat:
                others |= self.must[s]
        return self.unseen & ~self.cannot[seat] & ~others


def facts(view: SeatView) -> Facts:
    """The facts of ``view``.  During the auction only the cards are counted (no card is played)."""
    me = view.seat
    own = mask_of(view.hand)
    announced = view.announced
    if view.phase == "auction" or view.contract < 0:
        sizes = [8, 8, 8, 8]
        sizes[me] = 3  # R2.3: three more cards come to every seat after the auction
        zero = (0, 0, 0, 0)
        return Facts(me, view.contract, own, 0, FULL_DECK & ~own, tuple(sizes), zero, zero, zero, announced)
    cannot = [0, 0, 0, 0]
    played_by = [0, 0, 0, 0]
    contract = view.contract
    memo = _PLAY_FACTS
    for leader, cards in _tricks(view):  # `plays`, unrolled: this runs at every heuristic decision
        win, ws, led = cards[0], leader, cards[0] >> 3
        played_by[leader] |= 1 << win
        s = leader
        for c in cards[1:]:
            s = (s + 1) & 3
            played_by[s] |= 1 << c
            partner_winning = (ws ^ s) & 1 == 0
            key = (((contract * 4 + led) * 32 + win) * 2 + partner_winning) * 32 + c
            known = memo.get(key)
            if known is None:
                known = memo[key] = (ruled_out(contract, led, win, partner_winning, c),
                                     beats(TABLES[contract], c, win))
            cannot[s] |= known[0]
            if known[1]:
                win, ws = c, s
    played = played_by[0] | played_by[1] | played_by[2] | played_by[3]
    must = [0, 0, 0, 0]
    for s, c in view.belotes:
        other = belote_partner(c)
        if not played >> other & 1:  # the announcer holds it until it plays it (R7.7)
            must[s] |= 1 << other
    sizes = [8 - played_by[s].bit_count() for s in range(4)]
    sizes[me] = 0
    return Facts(me, contract, own, played, FULL_DECK & ~own & ~played, tuple(sizes), tuple(played_by),
                 tuple(cannot), tuple(must), announced)


# -- declarations: which concrete ones fit an announced kind ---------------------------------------

CANDIDATES: dict[str, tuple[Declaration, ...]] = {
    kind: tuple(d for d in DECLARATIONS if d.kind == kind) for kind in KINDS
}
_SPLIT_QUINTS = tuple(d for d in CANDIDATES["quint"] if d.length < 8)


def candidates(kind: str, rules: Rules) -> tuple[Declaration, ...]:
    """The declarations of ``kind`` a seat may announce under ``rules``: `CANDIDATES`, less the
    8-card quint under `OPT-EIGHT-SPLIT` (R7.2: the run is announced as a quint and a tierce)."""
    if rules.options and EIGHT_SPLIT in rules.options and kind == "quint":
        return _SPLIT_QUINTS
    return CANDIDATES[kind]


def _is_split_part(d: Declaration) -> int:
    """Under `OPT-EIGHT-SPLIT`: +1 for a quint to the ace of five cards (the top of a split run),
    -1 for a tierce to the 9 (its bottom), 0 otherwise."""
    if d.is_carre:
        return 0
    if d.length == 5 and d.rank == 7:
        return 1
    if d.length == 3 and d.rank == NINE:
        return -1
    return 0


def run_neighbours(d: Declaration, rules: Rules) -> int:
    """The cards just below and above a sequence (none for a carré): a run is announced whole, so
    its holder cannot hold them unless a carré it announced before uses them (R7.4).

    Under `OPT-EIGHT-SPLIT` the two parts of a split run touch, so the neighbour on the other
    part's side may be held; under `OPT-CARRE-FIRST` a neighbour 9-A may be held as a card of a
    carré (declared or not).  Neither is ruled out here: `announceable` checks the whole hand.
    """
    if d.is_carre:
        return 0
    low = min(d.cards)
    high = max(d.cards)
    m = 0
    options = rules.options
    part = _is_split_part(d) if options and EIGHT_SPLIT in options else 0
    carre_first = bool(options) and CARRE_FIRST in options
    if low & 7 and part != 1 and not (carre_first and (low - 1) & 7 >= NINE):
        m |= 1 << (low - 1)
    if (high & 7) != 7 and part != -1 and not (carre_first and (high + 1) & 7 >= NINE):
        m |= 1 << (high + 1)
    return m


def announceable(hand: int, kinds: Sequence[str], rules: Rules,
                 prefer: Sequence[int] = ()) -> list[int] | None:
    """Ids the holder of the eight cards ``hand`` could have announced, in order, with these
    ``kinds`` (R7.4 under ``rules``, by `declarations.declarable` itself), trying the ids of
    ``prefer`` first; None when no announcement of those kinds is legal from the hand.

    >>> from belot.cards import parse_card
    >>> from belot.contracts import DEFAULT_RULES
    >>> h = sum(1 << parse_card(c) for c in "7C 8C 9C TC JC QC KC AC".split())
    >>> announceable(h, ["quint", "tierce"], DEFAULT_RULES) is None, announceable(h, ["quint", "tierce"], Rules(("OPT-EIGHT-SPLIT",)))
    (True, [14, 0])
    """
    ids: list[int] = []

    def search(k: int) -> bool:
        if k == len(kinds):
            return True
        options = [i for i in declarable(hand, ids, rules) if DECLARATIONS[i].kind == kinds[k]]
        options.sort(key=lambda i: i not in prefer)
        for i in options:
            ids.append(i)
            if search(k + 1):
                return True
            ids.pop()
        return False

    return ids if search(0) else None


def declaration_fits(
    d: Declaration, played: int, unseen: int, cannot: int, must: int, taken: int,
    chosen: Sequence[Declaration], rules: Rules,
) -> bool:
    """Whether a seat could have announced ``d`` after its declarations ``chosen`` (R7.4, R7.5).

    ``played`` are the cards the seat has played, ``unseen`` the cards it may still hold,
    ``cannot`` and ``must`` what it cannot and must hold (with the cards of ``chosen``), ``taken``
    unseen cards given to other seats' declarations.  A sequence's neighbours may be held only as
    cards of a carré in ``chosen`` (and, under ``rules``, as `run_neighbours` allows: a necessary
    condition there, which `announceable` completes on a whole hand).
    """
    need = d.mask & ~played
    if need & ~unseen or need & cannot or need & taken:
        return False
    carres = 0
    for e in chosen:
        if d.mask & e.mask:
            return False
        if e.is_carre:
            carres |= e.mask
    return not run_neighbours(d, rules) & (played | must) & ~carres


def feasible(cards: int, need: Sequence[int], cannot: Sequence[int]) -> bool:
    """Whether ``cards`` can be dealt so that seat ``s`` gets exactly ``need[s]`` of them and none
    of ``cannot[s]``.  Hall's condition for this transport problem: every set of seats can take
    at least the cards that no other seat may hold.

    >>> feasible(0b111, [2, 1, 0, 0], [0b001, 0, 0, 0])
    True
    >>> feasible(0b111, [2, 1, 0, 0], [0b011, 0, 0, 0])
    False
    """
    if cards.bit_count() != sum(need):
        return False
    by_allowed = [0] * 16  # cards counted by the set of seats that may take them
    for c in range(32):
        if cards >> c & 1:
            a = 0
            for s in range(4):
                if need[s] and not cannot[s] >> c & 1:
                    a |= 1 << s
            if not a:
                return False
            by_allowed[a] += 1
    for seats in range(1, 15):
        held = sum(need[s] for s in range(4) if seats >> s & 1)
        forced = sum(n for a, n in enumerate(by_allowed) if n and a & ~seats == 0)
        if forced > held:
            return False
    return True
