"""Deal and match state machines, and the view of one seat: the state API every app drives.

The vocabulary is OpenSpiel's: ``current_player``, ``legal_actions()``, ``apply(action)``,
``is_over``, ``clone()``.  Actions are ints in one fixed space:

* ``0..31``   play a card (``card``)
* ``32..63``  play a card and announce belote with it (``BELOTE_BASE + card``, K or Q only)
* ``64..72``  auction calls (``CALL_BASE + call``: pass C D H S NT AT kontra rekontra)
* ``73..162`` announce a declaration (``DECLARE_BASE + id``, see declarations.py) at the seat's
  turn in trick 1, before its card

A `Deal` is one deal from the dealt hands to its score; a `Match` chains deals to the target
(R12), carrying the dealer, the score and the hanging pot.  `view(seat)` is the information set
of one seat and holds nothing that seat may not see.
"""

from __future__ import annotations

import copy
import operator
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from operator import itemgetter
from typing import Any

from . import declarations as decl
from .auction import BID_BASE, CALL_NAMES, KONTRA, NUM_CALLS, PASS, REKONTRA, Auction
from .cards import (
    _SLICE_CARDS,
    CARD_BITS,
    CARD_NAMES,
    FULL_DECK,
    KING,
    NUM_CARDS,
    QUEEN,
    SUIT_MASKS,
    cards_of,
)
from .contracts import (
    AT,
    CAPOT_EN,
    CAPOT_NI,
    DEFAULT_RULES,
    NO_CONTRACT,
    NO_SHUFFLE,
    NT,
    SURCONTRA,
    TABLES,
    Rules,
)
from .errors import RuleError, shown
from .play import explain_illegal, legal_cards
from .scoring import BELOTE_POINTS, REDEAL, DealResult, deal_result, redeal_result, trick_points

CARD_BASE = 0
BELOTE_BASE = 32
CALL_BASE = 64
DECLARE_BASE = CALL_BASE + NUM_CALLS  # 73
NUM_ACTIONS = DECLARE_BASE + decl.NUM_DECLARATIONS  # 163

CHANCE = -1  # a new deal is waiting for its cards
TERMINAL = -4

AUCTION, PLAY, OVER = "auction", "play", "over"

_CALL_ACTIONS: tuple[tuple[int, ...], ...] = tuple(
    tuple(CALL_BASE + c for c in range(NUM_CALLS) if m >> c & 1) for m in range(1 << NUM_CALLS)
)


def call_actions(mask: int) -> tuple[int, ...]:
    """The call actions of a 9-bit mask of calls (an `Auction.legal_mask()`), in order."""
    return _CALL_ACTIONS[mask]
_CARDS_LOW, _CARDS_MID, _CARDS_HIGH = _SLICE_CARDS  # the cards of each 11-bit slice of a mask
_KQ = tuple((0b11 << (8 * s + QUEEN)) for s in range(4))  # queen and king of each suit
_QUEENS = sum(1 << (8 * s + QUEEN) for s in range(4))
_NEXT_SEAT = (1, 2, 3, 0)  # the seat to the right, who acts next: (seat + 1) & 3 in one look-up
_PARTNER = (2, 3, 0, 1)  # seat ^ 2


def _kq_pairs(hand: int) -> int:
    """The kings and queens of ``hand`` held with their partner (K and Q of one suit, R7.7)."""
    q = hand & (hand >> (KING - QUEEN)) & _QUEENS
    return q | q << (KING - QUEEN)


def action_name(action: int) -> str:
    """``JH``, ``QH+belote``, ``kontra``, ``declare quarte 7C-TC``; RuleError (a ValueError) for
    anything that is not an action (`action_index`)."""
    action = action_index(action)
    if action < BELOTE_BASE:
        return CARD_NAMES[action]
    if action < CALL_BASE:
        return CARD_NAMES[action - BELOTE_BASE] + "+belote"
    if action < DECLARE_BASE:
        return CALL_NAMES[action - CALL_BASE]
    if action < NUM_ACTIONS:
        d = decl.DECLARATIONS[action - DECLARE_BASE]
        return f"declare {d.kind} " + " ".join(CARD_NAMES[c] for c in d.cards)
    raise ValueError(f"{action!r} is not an action")


def action_index(action: object) -> int:
    """An action handed in as any whole-number type (an int, a numpy integer) from 0 to 162, as an int.
    Anything else (a float, a bool, a string, an array of several, a number out of range) is refused
    with RuleError, not rounded or parsed into some action: ``20.7`` is not the jack of hearts."""
    index = action if type(action) is int else _plain(action)
    if type(index) is not int or not 0 <= index < NUM_ACTIONS:
        raise RuleError(f"{shown(action)} is not an action (a whole number 0-{NUM_ACTIONS - 1})", "R5.1")
    return index


def deal_hands(rng: random.Random, dealer: int) -> list[list[int]]:
    """Shuffle and deal per R2.2-R2.3: 3 each from the forehand, 2 each, then 3 each after bidding."""
    if type(rng) is random.Random:
        deck = _shuffled_deck(rng.getrandbits)
    else:
        deck = list(range(NUM_CARDS))
        rng.shuffle(deck)
    return deal_pack(deck, dealer)


def deal_pack(pack: Sequence[int], dealer: int) -> list[list[int]]:
    """Deal a pack from its top per R2.3: 3 each from the forehand on, 2 each, then 3 each."""
    return [list(take(pack)) for take in _DEALING[dealer]]


def _shuffled_deck(getrandbits: Callable[[int], int]) -> list[int]:
    """``random.Random.shuffle`` of the 32 cards in order, step for step (the same swaps from the
    same draws, so the same deck from the same state; tests/test_game.py checks it on many seeds),
    without its two method calls per card."""
    deck = _DECK[:]
    for i, n, k in _SHUFFLE_STEPS:
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


_DECK = list(range(NUM_CARDS))
# (i, n, k) of each step of the shuffle: position i swapped with a draw below n of k bits
_SHUFFLE_STEPS = tuple((i, i + 1, (i + 1).bit_length()) for i in range(NUM_CARDS - 1, 0, -1))


def _dealing_order(dealer: int) -> tuple[Callable[[Sequence[int]], tuple[int, ...]], ...]:
    """Per seat, the positions in the shuffled deck of its cards, in the order dealt (R2.3)."""
    picks: list[list[int]] = [[], [], [], []]
    pos = 0
    for size in (3, 2, 3):
        for k in range(1, 5):
            picks[(dealer + k) & 3].extend(range(pos, pos + size))
            pos += size
    return tuple(itemgetter(*p) for p in picks)


_DEALING = tuple(_dealing_order(dealer) for dealer in range(4))


def gathered_pack(d: Deal) -> list[int]:
    """OPT-NO-SHUFFLE (R2.2): the last deal's cards gathered into a pack, top first: the tricks in
    the order played, each trick's cards in play order; after an all-pass deal, the four hands from
    the forehand on, each in the order dealt.  RuleError for an all-pass deal a record lists with
    five cards a hand (R2.3): where the twelve cards never dealt lay is not in it."""
    if d.trick_winners and len(d.trick_winners) == 8:
        return [a & 31 for a in d.actions if a < CALL_BASE]
    if len(d.dealt[0]) < 8:
        raise RuleError("the next pack cannot be gathered: the last deal holds only the first five cards of "
                        "each hand, and the order of the twelve cards never dealt is unknown", "R2.2")
    return [c for k in range(4) for c in d.dealt[(d.dealer + 1 + k) & 3]]


def cut_pack(pack: list[int], rng: random.Random) -> list[int]:
    """OPT-NO-SHUFFLE (R2.2): the cut: the top c cards go under the pack, c uniform in 2..30."""
    c = rng.randint(2, 30)
    return pack[c:] + pack[:c]


@dataclass(frozen=True, slots=True)
class SeatView:
    """The information set of one seat: its own cards and everything public, nothing else."""

    seat: int
    dealer: int
    phase: str
    to_move: int  # -1 when nobody is to act in this deal
    hand: tuple[int, ...]  # own unplayed cards (the first five only while bidding, R2.3)
    calls: tuple[tuple[int, int], ...]  # (seat, call) in order
    contract: int
    declarer: int
    multiplier: int
    tricks: tuple[tuple[int, tuple[int, ...], int], ...]  # (leader, cards, winner) of closed tricks
    trick: tuple[tuple[int, int], ...]  # (seat, card) of the trick being played
    announced: tuple[tuple[str, ...], ...]  # declaration kinds announced, by seat (R7.5)
    own_declarations: tuple[int, ...]  # ids of this seat's own announced declarations
    belotes: tuple[tuple[int, int], ...]  # (seat, card) with which belote was announced
    legal_actions: tuple[int, ...]  # this seat's legal actions when it is to move
    pot: int  # hanging pot carried into this deal
    result: DealResult | None = None
    # Match context (zeros when the view is of a lone deal)
    score: tuple[int, int] = (0, 0)
    target: int = 151
    deal_index: int = 0
    winner: int | None = None
    history: tuple[DealResult, ...] = field(default=())
    options: tuple[str, ...] = ()  # the house rules in force (public: docs/rules.md options)
    # This seat's own view at the end of each earlier deal of the match, with the match's score, target,
    # index and history as that deal left them (its own ``past`` empty): every call and card played
    # there was seen by all four, so after a played-out deal each seat knows the hands the others
    # held in it (what a player remembers of the match; `belot.bots.reading`).
    past: tuple[SeatView, ...] = field(default=())

    @property
    def rules(self) -> Rules:
        """The house rules in force, as `Rules` (the options are public)."""
        return Rules(self.options) if self.options else DEFAULT_RULES

    @property
    def played(self) -> int:
        """Mask of every card played so far in this deal."""
        m = 0
        for _, cards, _ in self.tricks:
            for c in cards:
                m |= 1 << c
        for _, c in self.trick:
            m |= 1 << c
        return m


class Deal:
    """One deal: auction, declarations and play, then its score (R2-R11)."""

    __slots__ = (
        "_kq", "_legal", "_options", "actions", "actors", "auction", "belotes", "dealer", "dealt",
        "declared", "hands", "is_over", "leader", "led", "phase", "pot", "result", "rules", "table", "team_points",
        "to_move", "trick", "trick_winners", "win_card", "win_seat",
    )

    def __init__(
        self, dealer: int, hands: Sequence[Sequence[int]], rules: Rules | None = None, pot: int = 0
    ) -> None:
        dealer = _plain(dealer)
        _check_dealer(dealer)
        dealt = tuple(tuple(map(_plain, h)) for h in hands)  # (a numpy array of hands: its ints)
        self._start(dealer, dealt, _check_hands(dealt), rules, pot)

    @classmethod
    def shuffled(cls, rng: random.Random, dealer: int, rules: Rules | None = None, pot: int = 0) -> Deal:
        """A new deal shuffled and dealt by ``dealer`` with ``rng`` (R2.1-R2.3): the hands of
        `deal_hands`, which need no checking when a plain ``random.Random`` shuffled them (any other
        ``rng`` shuffles through its own method, and its hands are checked as given ones)."""
        dealer = _plain(dealer)
        _check_dealer(dealer)
        if type(rng) is not random.Random:
            return cls(dealer, deal_hands(rng, dealer), rules, pot)
        deck = _shuffled_deck(rng.getrandbits)
        dealt = tuple([take(deck) for take in _DEALING[dealer]])
        d = cls.__new__(cls)
        d._start(dealer, dealt, _masks(dealt), rules, pot)
        return d

    def _start(self, dealer: int, dealt: tuple[tuple[int, ...], ...], hands: list[int], rules: Rules | None,
               pot: int) -> None:
        _check_pot(pot)
        self.rules = _rules(rules)
        self.dealer = dealer
        self.dealt = dealt
        self.hands = hands
        self.pot = pot
        self.phase = AUCTION
        forehand = _NEXT_SEAT[dealer]
        self.auction = Auction(forehand, SURCONTRA in self.rules.options)
        self.table = TABLES[0]
        self.to_move = forehand  # R3.1: the forehand calls first
        self.trick: list[int] = []
        self.leader = -1
        self.led = -1
        self.win_card = -1
        self.win_seat = -1
        self.trick_winners: list[int] = []
        self.team_points = [0, 0]
        self.declared: list[list[int]] = [[], [], [], []]
        self.belotes: list[tuple[int, int]] = []
        self.actions: list[int] = []
        self.actors: list[int] = []
        self.result: DealResult | None = None
        self.is_over = False  # phase == OVER, kept as a plain attribute: read after every action
        # The legal cards (in play) or calls (in the auction) of the seat to move, computed as each
        # action is applied (the next `apply` checks against it): 0 when nobody is to act
        self._legal = self._call_mask()
        # Per seat, caches of facts of its hand fixed when the auction ends (see `_start_play`):
        # the king-queen pairs it may announce belote with, and its trick-1 declaration options.
        self._kq: tuple[int, ...] = (0, 0, 0, 0)
        self._options: list[list[int] | None] = [None, None, None, None]

    # -- the state API -------------------------------------------------------------------------

    @property
    def current_player(self) -> int:
        return TERMINAL if self.phase == OVER else self.to_move

    @property
    def contract(self) -> int:
        return self.auction.contract

    @property
    def forehand(self) -> int:
        return (self.dealer + 1) & 3

    @property
    def trick_seats(self) -> list[int]:
        """The seat of each card of the trick being played, from its leader."""
        return [(self.leader + k) & 3 for k in range(len(self.trick))]

    def legal_actions(self) -> list[int]:
        phase = self.phase
        if phase == PLAY:
            legal = self._legal
            out = [*_CARDS_LOW[legal & 0x7FF], *_CARDS_MID[legal >> 11 & 0x7FF], *_CARDS_HIGH[legal >> 22]]
            if self._kq[self.to_move]:
                belote = self._belote_cards(legal)
                if belote:
                    out += [BELOTE_BASE + c for c in cards_of(belote)]
            if not self.trick_winners:
                options = self._declarable()
                if options:
                    out += [DECLARE_BASE + i for i in options]
            return out
        if phase == AUCTION:
            return list(_CALL_ACTIONS[self._legal])
        return []

    def is_legal(self, action: object) -> bool:
        """Whether ``action`` is in `legal_actions()`, by the same computation, without building it."""
        if type(action) is not int:
            return False
        phase = self.phase
        if phase == PLAY:
            legal = self._legal
            if 0 <= action < BELOTE_BASE:
                return legal >> action & 1 == 1
            if action < CALL_BASE:
                return action >= 0 and bool(self._belote_cards(legal) >> (action - BELOTE_BASE) & 1)
            if DECLARE_BASE <= action < NUM_ACTIONS:
                return not self.trick_winners and action - DECLARE_BASE in self._declarable()
            return False
        if phase == AUCTION:
            return CALL_BASE <= action < DECLARE_BASE and self._legal >> (action - CALL_BASE) & 1 == 1
        return False

    def apply(self, action: int) -> None:
        """Apply one action of the player to move.

        An action is accepted only if it is in the legal set this state computes (`is_legal`), as an
        int or a numpy integer (`action_index`; kept as an int); anything else raises RuleError
        with the reason and the rule that forbids it.
        """
        if type(action) is int and 0 <= action < BELOTE_BASE and self.phase == PLAY and self._legal >> action & 1:
            self._play(action)  # most actions: a card of the legal set, found as `is_legal` finds it
            return
        if not self.is_legal(action):
            if type(action) is not int:  # a numpy integer counts as its int (`action_index`)
                try:
                    index = action_index(action)
                except RuleError:
                    raise self._refusal(action) from None
                self.apply(index)
                return
            raise self._refusal(action)
        if action < CALL_BASE:
            self._play(action)
        elif action < DECLARE_BASE:
            self._call(action - CALL_BASE)
        else:
            self._declare(action - DECLARE_BASE)

    def clone(self) -> Deal:
        d = Deal.__new__(Deal)
        d.rules, d.dealer, d.dealt, d.hands, d.pot = self.rules, self.dealer, self.dealt, self.hands[:], self.pot
        d.phase, d.auction, d.table, d.to_move = self.phase, self.auction.copy(), self.table, self.to_move
        d.trick, d.leader, d.led = self.trick[:], self.leader, self.led
        d.win_card, d.win_seat, d.trick_winners = self.win_card, self.win_seat, self.trick_winners[:]
        d.team_points, d.declared = self.team_points[:], [x[:] for x in self.declared]
        d.belotes, d.actions, d.actors = self.belotes[:], self.actions[:], self.actors[:]
        d.result, d._legal, d._kq, d._options = self.result, self._legal, self._kq, self._options[:]
        d.is_over = self.is_over
        return d

    def view(self, seat: int) -> SeatView:
        _check_seat(seat)
        return self._view(seat)

    # -- the rules, step by step ---------------------------------------------------------------

    def _belote_cards(self, legal: int) -> int:
        """R7.7: the legal cards that may be played with belote: the king or the queen of trumps
        (any suit in AT, when it is led or leads) while the seat holds both, unplayed."""
        dealt = self._kq[self.to_move]  # the pairs of trumps dealt to the seat, 0 in NT
        if not dealt:
            return 0
        whole = _kq_pairs(self.hands[self.to_move]) & dealt
        if self.led >= 0 and self.table.contract == AT:
            whole &= SUIT_MASKS[self.led]
        return legal & whole

    def _declarable(self) -> list[int]:
        """R7.1-R7.5: declarations the seat to move may announce now (its turn in trick 1)."""
        if self.table.contract == NT or self.trick_winners:
            return []
        seat = self.to_move
        options = self._options[seat]
        if options is None:  # the hand is whole in trick 1 until the seat plays: computed once per
            # announcement, not at each look
            options = self._options[seat] = decl.declarable(self.hands[seat], self.declared[seat], self.rules)
        return options

    def _call_mask(self) -> int:
        """R3.1-R3.4: the calls the seat to move may make (9 bits).  A deal that holds only the
        first five cards of each hand (R2.3, an all-pass record) can only be four passes: a bid would
        lead to a contract with no last three cards to play it with (or, once refused, to an auction
        with no legal call left)."""
        mask = self.auction.legal_mask()
        if len(self.dealt[0]) < 8:
            mask &= 1 << PASS
        return mask

    def _refusal(self, action: object) -> RuleError:
        """Why ``action`` is not legal now, naming the rule (only called for refused actions)."""
        what = _describe(action)
        if type(action) is not int or not 0 <= action < NUM_ACTIONS:
            return RuleError(f"{what} is not an action", "R1.1")
        phase = self.phase
        if phase == OVER:
            return RuleError(f"{what} is not legal: the deal is over", "R5.1")
        if phase == AUCTION:
            if not CALL_BASE <= action < DECLARE_BASE:
                return RuleError(f"{what} is not legal: the auction is not over", "R3.1")
            call = action - CALL_BASE
            if self.auction.legal_mask() >> call & 1:
                return RuleError(
                    f"{what} is not possible: the deal holds only the first five cards of each hand, "
                    "so it can only be passed by all four", "R2.3")
            return RuleError(*self.auction.explain(call))
        if CALL_BASE <= action < DECLARE_BASE:
            return RuleError(f"{what} is not legal: the auction is over", "R3.6")
        seat = self.to_move
        hand = self.hands[seat]
        if action >= DECLARE_BASE:
            i = action - DECLARE_BASE
            if self.table.contract == NT:
                return RuleError("no declarations in no trumps", "R7.1")
            if self.trick_winners:
                return RuleError("declarations are made in trick 1 only", "R7.5")
            rule = "R7.4" if decl.DECLARATIONS[i].mask & ~hand == 0 else "R7.2"
            return RuleError(_explain_declaration(i, hand, self.declared[seat]), rule)
        card = action & 31
        if not self._legal >> card & 1:
            partner = self.win_seat == _PARTNER[seat]
            return RuleError(*explain_illegal(card, hand, self.table, self.led, self.win_card, partner))
        return RuleError(_explain_belote(card, hand, self.table.contract, self.led), "R7.7")

    def _call(self, call: int) -> None:
        a = self.auction
        seat = self.to_move
        a.record(call)  # `apply` checked it against `_call_mask`, a subset of the auction's legal calls
        self.actions.append(CALL_BASE + call)
        self.actors.append(seat)
        if not a.done:
            self.to_move = _NEXT_SEAT[seat]
            self._legal = self._call_mask()
            return
        if a.contract == NO_CONTRACT:  # R3.6: all passed, nothing scored, the pot stays
            self._finish_redeal()
            return
        self.phase = PLAY
        self.table = TABLES[a.contract]
        leader = self.to_move = self.leader = (self.dealer + 1) & 3  # R5.1: the forehand leads
        self._start_play(a.contract)
        self._legal = legal_cards(self.hands[leader], self.table, -1, -1, False)

    def _start_play(self, contract: int) -> None:
        """Cache what a hand allows for the whole play: the king-queen pairs of trumps each seat
        was dealt (R7.7), a superset of those it may still announce belote with."""
        if contract == NT:
            return
        trumps = FULL_DECK if contract == AT else SUIT_MASKS[contract]
        h0, h1, h2, h3 = self.hands
        self._kq = (_kq_pairs(h0) & trumps, _kq_pairs(h1) & trumps, _kq_pairs(h2) & trumps, _kq_pairs(h3) & trumps)

    def _declare(self, i: int) -> None:
        seat = self.to_move
        self.declared[seat].append(i)
        self._options[seat] = None
        self.actions.append(DECLARE_BASE + i)
        self.actors.append(seat)


    def _play(self, action: int) -> None:
        """A legal card played, with belote announced when ``action`` is past BELOTE_BASE: it goes
        to the trick (R5), and the trick is scored when it is full (R5.6, R6)."""
        seat = self.to_move
        if action < BELOTE_BASE:
            card = action
        else:
            card = action - BELOTE_BASE
            self.belotes.append((seat, card))
        self.actions.append(action)
        self.actors.append(seat)
        self.hands[seat] ^= CARD_BITS[card]  # legal cards are in the hand
        trick = self.trick
        trick.append(card)
        n = len(trick)
        t = self.table
        if n == 1:
            self.led = card >> 3
            self.win_card = card
            self.win_seat = seat
        elif t.beaten_by[self.win_card] & CARD_BITS[card]:  # R5.6, as play.beats
            self.win_card = card
            self.win_seat = seat
        if n < 4:
            to_move = self.to_move = _NEXT_SEAT[seat]
        else:
            winner = self.win_seat
            winners = self.trick_winners
            winners.append(winner)
            last = len(winners) == 8
            self.team_points[winner & 1] += trick_points(t, trick, last)
            self.trick = []
            self.led = self.win_card = self.win_seat = -1
            self.leader = winner
            if last:
                self._finish()
                return
            to_move = self.to_move = winner  # R5.1
        # The next seat's legal cards (R5), which its `apply` checks against: it has not played to
        # the trick, so the card winning it is its partner's or an opponent's (or none yet).
        self._legal = legal_cards(self.hands[to_move], t, self.led, self.win_card, self.win_seat == _PARTNER[to_move])

    def _finish_redeal(self) -> None:
        self.phase = OVER
        self.is_over = True
        self.to_move = -1
        self._legal = 0
        self.result = redeal_result(self.pot)

    def _finish(self) -> None:
        a = self.auction
        self.phase = OVER
        self.is_over = True
        self.to_move = -1
        self._legal = 0
        self.result = deal_result(
            a.contract, a.declarer, a.multiplier, self.pot, (self.team_points[0], self.team_points[1]),
            self.declared, [seat for seat, _ in self.belotes] if self.belotes else (), tuple(self.trick_winners),
            rules=self.rules)

    # -- views ---------------------------------------------------------------------------------

    def _view(self, seat: int, **match: object) -> SeatView:
        if self.phase == AUCTION or self.auction.contract == NO_CONTRACT:
            # R2.3: the last three cards are dealt only once a contract is made
            hand = tuple(sorted(self.dealt[seat][:5]))
        else:
            hand = tuple(cards_of(self.hands[seat]))
        first = self.auction.first
        calls = tuple(((first + k) & 3, c) for k, c in enumerate(self.auction.calls))
        cards = [(s, a & 31) for s, a in zip(self.actors, self.actions) if a < CALL_BASE]
        tricks = []
        for k, winner in enumerate(self.trick_winners):
            chunk = cards[4 * k : 4 * k + 4]
            tricks.append((chunk[0][0], tuple(c for _, c in chunk), winner))
        closed = 4 * len(self.trick_winners)
        announced = tuple(tuple(decl.DECLARATIONS[i].kind for i in self.declared[s]) for s in range(4))
        legal = tuple(self.legal_actions()) if seat == self.to_move and self.phase != OVER else ()
        return SeatView(
            seat=seat, dealer=self.dealer, phase=self.phase, to_move=self.to_move, hand=hand,
            calls=calls, contract=self.auction.contract,
            declarer=self.auction.declarer, multiplier=self.auction.multiplier, tricks=tuple(tricks),
            trick=tuple(cards[closed:]), announced=announced,
            own_declarations=tuple(self.declared[seat]), belotes=tuple(self.belotes),
            legal_actions=legal, pot=self.pot, result=self.result, options=self.rules.options, **match,  # type: ignore[arg-type]
        )


MAX_TARGET = 10_000  # the largest match target a new game takes (the commands and the server)


class Match:
    """A match to the target (R12): deals in turn, the score, the pot and the winner.

    With ``rng`` the match shuffles and deals by itself (R2); without, it waits at a chance node
    (``current_player == CHANCE``) until `deal` gives it the hands, as a record replay does.
    """

    def __init__(
        self,
        rules: Rules | None = None,
        target: int = 151,
        rng: random.Random | None = None,
        first_dealer: int | None = None,
        players: list[str] | None = None,
    ) -> None:
        target = _plain(target)
        if type(target) is not int or target < 1:
            raise ValueError(f"a match target is a whole number of game points from 1, not {shown(target)}")
        if first_dealer is not None:
            first_dealer = _plain(first_dealer)
            _check_dealer(first_dealer)
        self.rules = _rules(rules)
        self.players = players
        self.start_target = target
        self.target = target  # raised by OPT-CAPOT-EN after a valat (R12.2)
        self.rng = rng
        self.deals: list[Deal] = []
        self.results: list[DealResult] = []
        self.score = [0, 0]
        self.pot = 0
        self.winner: int | None = None
        self._past_views: list[tuple[SeatView, ...]] = [(), (), (), ()]  # `_past`
        self._ends: list[tuple[tuple[int, int], int]] = []  # (score, target) as each deal closed: `_past`
        if first_dealer is None and rng is not None:
            first_dealer = rng.randrange(4)  # R2.1
        self.first_dealer = first_dealer
        if rng is not None:
            self._deal_from_rng()

    @property
    def next_dealer(self) -> int | None:
        if not self.deals:
            return self.first_dealer
        return (self.deals[-1].dealer + 1) & 3  # R2.1

    @property
    def current(self) -> Deal | None:
        """The deal in progress (None at a chance node or when the match is over)."""
        if self.deals and not self.deals[-1].is_over:
            return self.deals[-1]
        return None

    @property
    def current_player(self) -> int:
        if self.winner is not None:
            return TERMINAL
        d = self.current
        return CHANCE if d is None else d.to_move

    @property
    def is_over(self) -> bool:
        return self.winner is not None

    def deal(self, hands: Sequence[Sequence[int]], dealer: int | None = None) -> Deal:
        """Start the next deal with these hands (in dealing order), at a chance node."""
        dealer = None if dealer is None else _plain(dealer)
        if self.winner is not None:
            raise RuleError("the match is over", "R12.1")
        if self.current is not None:
            raise RuleError("the current deal is not finished", "R2.1")
        expected = self.next_dealer
        if dealer is None:
            if expected is None:
                raise ValueError("the first deal needs its dealer")
            dealer = expected
        elif expected is not None and dealer != expected and self.deals:
            raise RuleError(f"the dealer must be seat {expected}, the right of the last dealer, not {dealer}", "R2.1")
        d = Deal(dealer, hands, self.rules, self.pot)
        self.deals.append(d)
        return d

    def legal_actions(self) -> list[int]:
        d = self.current
        return d.legal_actions() if d is not None and self.winner is None else []

    def apply(self, action: int) -> None:
        d = self.current
        if self.winner is not None:
            raise RuleError(f"{_describe(action)} is not legal: the match is over", "R12.1")
        if d is None:
            raise RuleError(f"{_describe(action)} is not legal: the next deal has not been dealt", "R2.3")
        d.apply(action)
        if d.phase == OVER:
            self._close_deal(d)

    def _close_deal(self, d: Deal) -> None:
        r = d.result
        assert r is not None
        self.results.append(r)
        self.score[0] += r.points[0]
        self.score[1] += r.points[1]
        self.pot = r.pot
        if r.outcome != REDEAL:
            self._check_end(r)
        self._ends.append(((self.score[0], self.score[1]), self.target))
        if self.winner is None and self.rng is not None:
            self._deal_from_rng()

    def _check_end(self, r: DealResult) -> None:
        """R12.1 after a scored deal; R12.2: not after a valat (nor after an all-pass deal)."""
        a, b = self.score
        options = self.rules.options
        if r.valat is not None:
            if options and CAPOT_EN in options and max(a, b) >= self.target:
                self.target = max(a, b) + 1  # OPT-CAPOT-EN replaces R12.2: the target is raised
            else:
                return
        if max(a, b) >= self.target and a != b:
            leader = 0 if a > b else 1
            if options and CAPOT_NI in options and r.points[leader] <= 0:
                return  # OPT-CAPOT-NI (R12.1): the winner must have scored in the final deal
            self.winner = leader

    def next_hands(self, rng: random.Random) -> list[list[int]]:
        """The next deal's hands, drawn with ``rng``: a shuffle (R2.2), or under OPT-NO-SHUFFLE the
        last deal's pack gathered and cut."""
        dealer = self.next_dealer
        assert dealer is not None
        if self.deals and self.rules.has(NO_SHUFFLE):
            return deal_pack(cut_pack(gathered_pack(self.deals[-1]), rng), dealer)
        return deal_hands(rng, dealer)

    def _deal_from_rng(self) -> None:
        assert self.rng is not None
        self.deal(self.next_hands(self.rng))

    def clone(self) -> Match:
        m = Match.__new__(Match)
        m.rules, m.target, m.first_dealer, m.players = self.rules, self.target, self.first_dealer, self.players
        m.start_target = self.start_target
        m.rng = None
        if type(self.rng) is random.Random:
            m.rng = random.Random()
            m.rng.setstate(self.rng.getstate())
        elif isinstance(self.rng, random.SystemRandom):  # no state to copy: the clone draws from the OS too
            m.rng = self.rng
        elif self.rng is not None:  # a subclass of Random keeps its class, and with it its own draws
            m.rng = copy.deepcopy(self.rng)
        m.deals = [d for d in self.deals]
        if m.deals and not m.deals[-1].is_over:
            m.deals[-1] = m.deals[-1].clone()
        m.results, m.score, m.pot, m.winner = self.results[:], self.score[:], self.pot, self.winner
        m._past_views, m._ends = self._past_views[:], self._ends[:]
        return m

    def view(self, seat: int) -> SeatView:
        """The seat's view of the deal in progress, or of the last deal between deals."""
        _check_seat(seat)
        if not self.deals:
            raise ValueError("no deal has been dealt yet")
        d = self.deals[-1]
        return d._view(
            seat, score=(self.score[0], self.score[1]), target=self.target,
            deal_index=len(self.deals) - 1, winner=self.winner, history=tuple(self.results),
            past=self._past(seat),
        )

    def _past(self, seat: int) -> tuple[SeatView, ...]:
        """The seat's end-of-deal views of the deals before the last (made once each, then kept): each
        as `view` gave it when that deal closed (its score, target, index and history), but for its own
        ``past``, left empty (every view of the match holds the whole list once)."""
        views = self._past_views[seat]
        if len(views) < len(self.deals) - 1:
            views += tuple(
                d._view(seat, score=self._ends[i][0], target=self._ends[i][1], deal_index=i,
                        history=tuple(self.results[: i + 1]))
                for i, d in enumerate(self.deals[len(views):-1], len(views)))
            self._past_views[seat] = views
        return views


def _describe(action: object) -> str:
    if type(action) is int and 0 <= action < NUM_ACTIONS:
        return action_name(action)
    return repr(action)


def _check_hands(hands: tuple[tuple[int, ...], ...]) -> list[int]:
    """The hands as masks, after checking they are a deal of distinct cards (R1.1, R2.3)."""
    if len(hands) == 4:
        h0, h1, h2, h3 = hands
        if len(h0) == len(h1) == len(h2) == len(h3) == _EIGHT_CARDS and set(map(type, (*h0, *h1, *h2, *h3))) == _INT_ONLY:
            # The usual deal: four hands of eight ints (not bools) that are the 32 cards between
            # them.  Anything else takes the checks below, which name what is wrong.
            try:
                masks = _masks(hands)
            except KeyError:  # an int that is not a card
                masks = [0]
            if len(masks) == 4 and masks[0] | masks[1] | masks[2] | masks[3] == FULL_DECK:
                return masks  # 32 ints each a card's bit, covering the deck: all distinct
    if len(hands) != 4:
        raise RuleError(f"a deal has four hands, not {len(hands)}", "R1.2")
    masks = []
    seen = 0
    for seat, h in enumerate(hands):
        if len(h) not in (5, 8):
            raise RuleError(f"seat {seat} was dealt {len(h)} cards, not 8 (or 5 before bidding)", "R2.3")
        m = 0
        for c in h:
            if type(c) is not int or not 0 <= c < NUM_CARDS:
                raise RuleError(f"{shown(c)} is not a card", "R1.1")
            m |= 1 << c
        if m & seen or m.bit_count() != len(h):
            dup = next(c for c in h if (m & seen) >> c & 1 or list(h).count(c) > 1)
            raise RuleError(f"{CARD_NAMES[dup]} was dealt twice", "R1.1")
        seen |= m
        masks.append(m)
    if len({len(h) for h in hands}) != 1:
        raise RuleError("every hand must hold the same number of cards", "R2.3")
    if len(hands[0]) == 8 and seen != FULL_DECK:
        raise RuleError("the hands do not hold the 32 cards", "R1.1")
    return masks


def _plain(value: Any) -> Any:
    """A whole number of another type (a numpy integer) as its int, as `action_index` takes an action;
    anything else as it is (a bool, a float, a string), for the checks to name it."""
    if type(value) is int or isinstance(value, bool):
        return value
    try:
        return operator.index(value)
    except TypeError:
        return value


def _check_seat(seat: object) -> None:
    """A seat is the int 0, 1, 2 or 3 (not -1, which would index seat 3's cards, nor a bool)."""
    if type(seat) is not int or not 0 <= seat <= 3:
        raise ValueError(f"a seat is 0, 1, 2 or 3, not {shown(seat)}")


def _check_dealer(dealer: int) -> None:
    if type(dealer) is not int or not 0 <= dealer <= 3:  # as `_check_seat`: not 1.5, True or "1"
        raise ValueError(f"dealer must be a seat 0-3, not {shown(dealer)}")


def _rules(rules: Rules | None) -> Rules:
    if rules is None:
        return DEFAULT_RULES
    if not isinstance(rules, Rules):  # ("OPT-NONZERO",) or "OPT-NONZERO" failed at the first card
        raise ValueError(f"rules are a belot.Rules (Rules.from_options([...])), not {shown(rules)}")
    return rules


def _check_pot(pot: int) -> None:
    if type(pot) is not int or pot < 0:  # R11: the hanging game points carried in, a count
        raise ValueError(f"a deal's pot is a whole number of game points from 0, not {shown(pot)}")


def _masks(hands: tuple[tuple[int, ...], ...]) -> list[int]:
    """The mask of each of four hands of eight cards (a KeyError for an int that is not a card)."""
    b = _CARD_BIT
    return [b[c0] | b[c1] | b[c2] | b[c3] | b[c4] | b[c5] | b[c6] | b[c7] for c0, c1, c2, c3, c4, c5, c6, c7 in hands]


_EIGHT_CARDS = 8
_INT_ONLY = {int}
_CARD_BIT = {c: 1 << c for c in range(NUM_CARDS)}  # the bit of each card; no other key (a KeyError)


def _explain_belote(card: int, hand: int, contract: int, led: int) -> str:
    """Why belote may not be announced with ``card`` (R7.7), for a card that is legal to play."""
    name = CARD_NAMES[card]
    suit = card >> 3
    if contract == NT:
        return f"no belote with {name}: there is no belote in no trumps"
    if card & 7 not in (QUEEN, KING):
        return f"no belote with {name}: belote is the king and queen of one suit"
    if contract != AT and suit != contract:
        return f"no belote with {name}: belote is the king and queen of trumps"
    if hand & _KQ[suit] != _KQ[suit]:
        return f"no belote with {name}: the player does not hold both king and queen of it, unplayed"
    if led >= 0 and led != suit:
        return f"no belote with {name}: it is discarded on another suit"
    return f"no belote with {name}"


def _explain_declaration(i: int, hand: int, announced: list[int]) -> str:
    d = decl.DECLARATIONS[i]
    cards = " ".join(CARD_NAMES[c] for c in d.cards)
    if d.mask & ~hand:
        return f"false declaration {cards}: the player does not hold it"
    used = 0
    for j in announced:
        used |= decl.DECLARATIONS[j].mask
    if d.mask & used:
        return f"declaration {cards} shares a card with one already announced"
    return f"declaration {cards} is not a whole sequence of the hand"


__all__ = [
    "AUCTION", "BELOTE_BASE", "BELOTE_POINTS", "BID_BASE", "CALL_BASE", "CARD_BASE", "CHANCE",
    "DECLARE_BASE", "KONTRA", "NUM_ACTIONS", "OVER", "PASS", "PLAY", "REKONTRA", "SUIT_MASKS", "TERMINAL",
    "Deal", "DealResult", "Match", "SeatView", "action_name", "call_actions", "deal_hands",
]
