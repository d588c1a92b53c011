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

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from . import declarations as decl
from .auction import BID_BASE, CALL_NAMES, KONTRA, NUM_CALLS, PASS, REKONTRA, Auction
from .cards import _SUIT_CARDS, CARD_NAMES, FULL_DECK, NUM_CARDS, QUEEN, SUIT_MASKS, cards_of
from .contracts import AT, CONTRACT_NAMES, LAST_TRICK_BONUS, NO_CONTRACT, NT, TABLES, VALAT_BONUS, Rules
from .errors import RuleError
from .play import explain_illegal, legal_cards
from .scoring import REDEAL, score_deal

CARD_BASE = 0
BELOTE_BASE = 32
CALL_BASE = 64
DECLARE_BASE = CALL_BASE + NUM_CALLS  # 73
NUM_ACTIONS = DECLARE_BASE + decl.NUM_DECLARATIONS  # 163

CHANCE = -1  # a new deal is waiting for its cards
TERMINAL = -4

AUCTION, PLAY, OVER = "auction", "play", "over"
BELOTE_POINTS = 20  # R7.7

_CALL_ACTIONS: tuple[tuple[int, ...], ...] = tuple(
    tuple(CALL_BASE + c for c in range(NUM_CALLS) if m >> c & 1) for m in range(1 << NUM_CALLS)
)
_KQ = tuple((0b11 << (8 * s + QUEEN)) for s in range(4))  # queen and king of each suit


def action_name(action: int) -> str:
    """``JH``, ``QH+belote``, ``kontra``, ``declare quarte 7C-TC``."""
    if 0 <= action < BELOTE_BASE:
        return CARD_NAMES[action]
    if action < CALL_BASE:
        return CARD_NAMES[action - BELOTE_BASE] + "+belote"
    if action < DECLARE_BASE:
        return CALL_NAMES[action - CALL_BASE]
    if action < NUM_ACTIONS:
        d = decl.DECLARATIONS[action - DECLARE_BASE]
        return f"declare {d.kind} " + " ".join(CARD_NAMES[c] for c in d.cards)
    raise ValueError(f"{action!r} is not an action")


def deal_hands(rng: random.Random, dealer: int) -> list[list[int]]:
    """Shuffle and deal per R2.2-R2.3: 3 each from the forehand, 2 each, then 3 each after bidding."""
    deck = list(range(NUM_CARDS))
    rng.shuffle(deck)
    hands: list[list[int]] = [[], [], [], []]
    pos = 0
    for size in (3, 2, 3):
        for k in range(1, 5):
            seat = (dealer + k) & 3
            hands[seat].extend(deck[pos : pos + size])
            pos += size
    return hands


@dataclass(frozen=True, slots=True)
class DealResult:
    """What a finished deal gave (docs/record-format.md results); teams are 0 (seats 0, 2) and 1."""

    contract: int  # -1 when all four passed
    declarer: int
    multiplier: int
    tricks: tuple[int, ...]  # seat that won each trick
    card_points: tuple[int, int]
    declarations: tuple[int, int]
    belote: tuple[int, int]
    valat: int | None
    totals: tuple[int, int]
    outcome: str
    points: tuple[int, int]
    pot: int
    declared: tuple[tuple[int, ...], ...] = ()  # declaration ids announced, by seat (shown after the deal)

    def to_json(self) -> dict[str, object]:
        if self.outcome == REDEAL:
            return {"contract": None, "outcome": REDEAL, "points": [0, 0], "pot": self.pot}
        return {
            "contract": CONTRACT_NAMES[self.contract] if self.contract >= 0 else None,
            "declarer": self.declarer if self.contract >= 0 else None,
            "multiplier": self.multiplier,
            "tricks": list(self.tricks),
            "card_points": list(self.card_points),
            "declarations": list(self.declarations),
            "belote": list(self.belote),
            "valat": self.valat,
            "totals": list(self.totals),
            "outcome": self.outcome,
            "points": list(self.points),
            "pot": self.pot,
        }


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
        "rules", "dealer", "dealt", "hands", "pot", "phase", "auction", "table", "to_move",
        "trick", "trick_seats", "leader", "led", "win_card", "win_seat", "trick_winners",
        "team_points", "declared", "belotes", "actions", "actors", "result", "_legal",
    )

    def __init__(
        self, dealer: int, hands: Sequence[Sequence[int]], rules: Rules | None = None, pot: int = 0
    ) -> None:
        if not 0 <= dealer <= 3:
            raise ValueError(f"dealer must be a seat 0-3, not {dealer!r}")
        self.rules = rules or Rules()
        self.dealer = dealer
        self.dealt: tuple[tuple[int, ...], ...] = tuple(tuple(h) for h in hands)
        self.hands = _check_hands(self.dealt)
        self.pot = pot
        self.phase = AUCTION
        self.auction = Auction((dealer + 1) & 3)
        self.table = TABLES[0]
        self.to_move = (dealer + 1) & 3  # R3.1: the forehand calls first
        self.trick: list[int] = []
        self.trick_seats: list[int] = []
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
        self._legal = -1

    # -- the state API -------------------------------------------------------------------------

    @property
    def current_player(self) -> int:
        return TERMINAL if self.phase == OVER else self.to_move

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    @property
    def contract(self) -> int:
        return self.auction.contract

    @property
    def forehand(self) -> int:
        return (self.dealer + 1) & 3

    def legal_actions(self) -> list[int]:
        phase = self.phase
        if phase == PLAY:
            legal = self._legal
            if legal < 0:
                legal = self._legal_cards()
            sc = _SUIT_CARDS
            out = [*sc[0][legal & 0xFF], *sc[1][legal >> 8 & 0xFF], *sc[2][legal >> 16 & 0xFF], *sc[3][legal >> 24]]
            contract = self.table.contract
            if contract == NT:
                return out
            seat = self.to_move
            hand = self.hands[seat]
            if contract == AT:
                for s in range(4):
                    kq = _KQ[s]
                    if hand & kq == kq and (self.led < 0 or self.led == s):
                        out.extend(BELOTE_BASE + c for c in cards_of(legal & kq))
            else:
                kq = _KQ[contract]
                if hand & kq == kq:
                    out.extend(BELOTE_BASE + c for c in cards_of(legal & kq))
            if not self.trick_winners:
                out.extend(DECLARE_BASE + i for i in decl.declarable(hand, self.declared[seat]))
            return out
        if phase == AUCTION:
            return list(_CALL_ACTIONS[self.auction.legal_mask()])
        return []

    def apply(self, action: int) -> None:
        """Apply one action of the player to move; raise RuleError (naming the rule) if illegal."""
        if self.phase == PLAY:
            if 0 <= action < BELOTE_BASE:
                self._play(action, False)
            elif BELOTE_BASE <= action < CALL_BASE:
                self._play(action - BELOTE_BASE, True)
            elif DECLARE_BASE <= action < NUM_ACTIONS:
                self._declare(action - DECLARE_BASE)
            else:
                raise RuleError(f"{_describe(action)} is not legal: the auction is over", "R3.6")
        elif self.phase == AUCTION:
            if not CALL_BASE <= action < DECLARE_BASE:
                raise RuleError(f"{_describe(action)} is not legal: the auction is not over", "R3.1")
            self._call(action - CALL_BASE)
        else:
            raise RuleError(f"{_describe(action)} is not legal: the deal is over", "R5.1")

    def clone(self) -> Deal:
        d = Deal.__new__(Deal)
        d.rules, d.dealer, d.dealt, d.hands, d.pot = self.rules, self.dealer, self.dealt, self.hands[:], self.pot
        d.phase, d.auction, d.table, d.to_move = self.phase, self.auction.copy(), self.table, self.to_move
        d.trick, d.trick_seats, d.leader, d.led = self.trick[:], self.trick_seats[:], self.leader, self.led
        d.win_card, d.win_seat, d.trick_winners = self.win_card, self.win_seat, self.trick_winners[:]
        d.team_points, d.declared = self.team_points[:], [x[:] for x in self.declared]
        d.belotes, d.actions, d.actors = self.belotes[:], self.actions[:], self.actors[:]
        d.result, d._legal = self.result, self._legal
        return d

    def view(self, seat: int) -> SeatView:
        return self._view(seat)

    # -- the rules, step by step ---------------------------------------------------------------

    def _legal_cards(self) -> int:
        if self._legal < 0:
            seat = self.to_move
            self._legal = legal_cards(
                self.hands[seat], self.table, self.led, self.win_card,
                self.win_seat >= 0 and (self.win_seat ^ seat) & 1 == 0,
            )
        return self._legal

    def _call(self, call: int) -> None:
        a = self.auction
        seat = a.to_call
        if len(self.dealt[0]) < 8:
            trial = a.copy()
            trial.apply(call)
            if trial.done and trial.contract != NO_CONTRACT:
                raise RuleError(
                    f"{CALL_NAMES[call]} is not possible: a contract would be played but the record "
                    "holds only the first five cards of each hand", "R2.3")
        a.apply(call)
        self.actions.append(CALL_BASE + call)
        self.actors.append(seat)
        if not a.done:
            self.to_move = a.to_call
            return
        if a.contract == NO_CONTRACT:  # R3.6: all passed, nothing scored, the pot stays
            self._finish_redeal()
            return
        self.phase = PLAY
        self.table = TABLES[a.contract]
        self.to_move = self.leader = self.forehand  # R5.1
        self._legal = -1

    def _declare(self, i: int) -> None:
        seat = self.to_move
        if self.table.contract == NT:
            raise RuleError("no declarations in no trumps", "R7.1")
        if self.trick_winners:
            raise RuleError("declarations are made in trick 1 only", "R7.5")
        hand = self.hands[seat]
        if i not in decl.declarable(hand, self.declared[seat]):
            raise RuleError(_explain_declaration(i, hand, self.declared[seat]), "R7.4" if decl.DECLARATIONS[i].mask & ~hand == 0 else "R7.2")
        self.declared[seat].append(i)
        self.actions.append(DECLARE_BASE + i)
        self.actors.append(seat)

    def _play(self, card: int, belote: bool) -> None:
        seat = self.to_move
        legal = self._legal
        if legal < 0:
            legal = self._legal_cards()
        if not (legal >> card) & 1:
            partner = self.win_seat >= 0 and (self.win_seat ^ seat) & 1 == 0
            raise RuleError(*explain_illegal(card, self.hands[seat], self.table, self.led, self.win_card, partner))
        if belote:
            self._check_belote(seat, card)
            self.belotes.append((seat, card))
            self.actions.append(BELOTE_BASE + card)
        else:
            self.actions.append(card)
        self.actors.append(seat)
        self.hands[seat] ^= 1 << card  # legal cards are in the hand
        self._legal = -1
        trick = self.trick
        trick.append(card)
        self.trick_seats.append(seat)
        n = len(trick)
        if n == 1:
            self.led = card >> 3
            self.win_card = card
            self.win_seat = seat
            self.to_move = (seat + 1) & 3
            return
        t = self.table
        w = self.win_card
        if (card ^ w) < 8:  # same suit: the stronger card wins (R5.6)
            if t.strength[card] > t.strength[w]:
                self.win_card = card
                self.win_seat = seat
        elif (t.trump_mask >> card) & 1:  # a trump on another suit (R5.6)
            self.win_card = card
            self.win_seat = seat
        if n < 4:
            self.to_move = (seat + 1) & 3
            return
        pts = t.points
        winner = self.win_seat
        gained = pts[trick[0]] + pts[trick[1]] + pts[trick[2]] + pts[trick[3]]
        winners = self.trick_winners
        winners.append(winner)
        last = len(winners) == 8
        if last:
            gained += LAST_TRICK_BONUS  # R6.2
        self.team_points[winner & 1] += gained
        self.trick = []
        self.trick_seats = []
        self.led = self.win_card = self.win_seat = -1
        self.to_move = self.leader = winner  # R5.1
        if last:
            self._finish()

    def _check_belote(self, seat: int, card: int) -> None:
        """R7.7: first of K+Q held together, trump suit (any suit in AT), led/followed/trumped."""
        contract = self.table.contract
        suit = card >> 3
        name = CARD_NAMES[card]
        if contract == NT:
            raise RuleError(f"no belote with {name}: there is no belote in no trumps", "R7.7")
        if card & 7 < QUEEN:
            raise RuleError(f"no belote with {name}: belote is the king and queen of one suit", "R7.7")
        if contract != AT and suit != contract:
            raise RuleError(f"no belote with {name}: belote is the king and queen of trumps", "R7.7")
        if self.hands[seat] & _KQ[suit] != _KQ[suit]:
            raise RuleError(f"no belote with {name}: the player does not hold both king and queen of it, unplayed", "R7.7")
        if contract == AT and self.led >= 0 and self.led != suit:
            raise RuleError(f"no belote with {name}: it is discarded on another suit", "R7.7")

    def _finish_redeal(self) -> None:
        self.phase = OVER
        self.to_move = -1
        self.result = DealResult(
            contract=NO_CONTRACT, declarer=-1, multiplier=1, tricks=(), card_points=(0, 0),
            declarations=(0, 0), belote=(0, 0), valat=None, totals=(0, 0), outcome=REDEAL,
            points=(0, 0), pot=self.pot,
        )

    def _finish(self) -> None:
        t = self.table
        contract = t.contract
        mult = t.multiplier
        card_points = (self.team_points[0] * mult, self.team_points[1] * mult)  # R6.3
        if contract == NT:
            declared = (0, 0)
        else:
            d = self.declared
            c0, c1 = decl.contest((d[0] + d[2], d[1] + d[3]))  # R7.6
            declared = (c0, c1)
        belote = [0, 0]
        for seat, _ in self.belotes:
            belote[seat & 1] += BELOTE_POINTS
        teams = [w & 1 for w in self.trick_winners]
        valat = 0 if sum(teams) == 0 else 1 if sum(teams) == 8 else None  # R8
        totals = [card_points[k] + declared[k] + belote[k] for k in (0, 1)]
        if valat is not None:
            totals[valat] += VALAT_BONUS
        a = self.auction
        s = score_deal(contract, a.declarer & 1, (totals[0], totals[1]), a.multiplier, self.pot)
        self.phase = OVER
        self.to_move = -1
        self.result = DealResult(
            contract=contract, declarer=a.declarer, multiplier=a.multiplier,
            tricks=tuple(self.trick_winners), card_points=card_points,
            declarations=(declared[0], declared[1]), belote=(belote[0], belote[1]), valat=valat,
            totals=(totals[0], totals[1]), outcome=s.outcome, points=s.points, pot=s.pot,
            declared=tuple(tuple(x) for x in self.declared),
        )

    # -- views ---------------------------------------------------------------------------------

    def _view(self, seat: int, **match: object) -> SeatView:
        if self.phase == AUCTION or self.auction.contract == NO_CONTRACT:
            # R2.3: the last three cards are dealt only once a contract is made
            hand = tuple(sorted(self.dealt[seat][:5]))
        else:
            hand = tuple(cards_of(self.hands[seat]))
        calls = tuple(
            (s, a - CALL_BASE) for s, a in zip(self.actors, self.actions) if CALL_BASE <= a < DECLARE_BASE
        )
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
            legal_actions=legal, pot=self.pot, result=self.result, **match,  # type: ignore[arg-type]
        )


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
        self.rules = rules or Rules()
        self.players = players
        self.target = target
        self.rng = rng
        self.deals: list[Deal] = []
        self.results: list[DealResult] = []
        self.score = [0, 0]
        self.pot = 0
        self.winner: int | None = None
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
        # R12.1 after a scored deal; R12.2: not after a valat, nor after an all-pass deal.
        if r.outcome != REDEAL and r.valat is None:
            a, b = self.score
            if max(a, b) >= self.target and a != b:
                self.winner = 0 if a > b else 1
        if self.winner is None and self.rng is not None:
            self._deal_from_rng()

    def _deal_from_rng(self) -> None:
        assert self.rng is not None
        dealer = self.next_dealer
        assert dealer is not None
        self.deal(deal_hands(self.rng, dealer), dealer)

    def clone(self) -> Match:
        m = Match.__new__(Match)
        m.rules, m.target, m.first_dealer, m.players = self.rules, self.target, self.first_dealer, self.players
        m.rng = None
        if self.rng is not None:
            m.rng = random.Random()
            m.rng.setstate(self.rng.getstate())
        m.deals = [d for d in self.deals]
        if m.deals and not m.deals[-1].is_over:
            m.deals[-1] = m.deals[-1].clone()
        m.results, m.score, m.pot, m.winner = self.results[:], self.score[:], self.pot, self.winner
        return m

    def view(self, seat: int) -> SeatView:
        """The seat's view of the deal in progress, or of the last deal between deals."""
        if not self.deals:
            raise ValueError("no deal has been dealt yet")
        d = self.deals[-1]
        return d._view(
            seat, score=(self.score[0], self.score[1]), target=self.target,
            deal_index=len(self.deals) - 1, winner=self.winner, history=tuple(self.results),
        )


def _describe(action: int) -> str:
    try:
        return action_name(action)
    except (ValueError, TypeError, IndexError):
        return repr(action)


def _check_hands(hands: tuple[tuple[int, ...], ...]) -> list[int]:
    """The hands as masks, after checking they are a deal of distinct cards (R1.1, R2.3)."""
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
                raise RuleError(f"{c!r} is not a card", "R1.1")
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
    "AUCTION", "BELOTE_BASE", "CALL_BASE", "CARD_BASE", "CHANCE", "DECLARE_BASE", "NUM_ACTIONS",
    "OVER", "PLAY", "TERMINAL", "Deal", "DealResult", "Match", "SeatView", "action_name", "deal_hands",
    "KONTRA", "REKONTRA", "PASS", "BID_BASE", "SUIT_MASKS",
]
