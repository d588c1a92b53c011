"""The ``heuristic`` bot: hand-written bidding, declarations and card play from one seat's view.

Bidding scores the five known cards for every contract kind (suit, NT, AT) and bids the best kind
that clears its threshold; it doubles an opposing contract its hand defends well and redoubles a
doubled contract of its own team it is sure of (and, under `OPT-SURCONTRA`, redoubles a rekontra
of the other team's contract on the same margin).  The options in force (`SeatView.options`) reach
its declarations and the declaration bonus of its bidding.  It always announces its best declarations
(`belot.declarations.best_declarations`) and belote.  Card play takes from `belot.inference` what the
seat may know: the cards played, the suits each seat has shown void, the trumps a seat has shown
it cannot hold (it did not trump or overtrump when the rules would have made it), and the partner
card of an announced belote.  With that it leads masters and draws trumps as the contract team,
gives points to a trick its partner holds safely instead of wasting high cards on it, takes tricks
with the cheapest card that cannot be beaten, discards cards that cannot win, and keeps a master
trump for the last trick (its 10 points).  Every decision is a few mask operations (well under a
millisecond); the bot is deterministic (the seed is accepted for the common interface).
"""

from __future__ import annotations

import functools

from ..auction import BID_BASE, KONTRA, PASS, REKONTRA
from ..cards import ACE, JACK, KING, NINE, QUEEN, SUIT_MASKS, TEN, cards_of, mask_of
from ..contracts import AT, NT, TABLES, ContractTable, Rules, is_suit_contract
from ..declarations import DECLARATIONS, best_declarations
from ..game import AUCTION, BELOTE_BASE, CALL_BASE, SeatView
from ..inference import facts
from ..play import beats
from .random_bot import announce_first, with_belote

# Bidding thresholds for a five-card hand, per kind (suit, NT, AT); tuned against `random` and
# `heuristic` itself in duplicate tournaments.
SUIT_THRESHOLD = 4.5
NT_THRESHOLD = 5.5
AT_THRESHOLD = 5.5
KONTRA_THRESHOLD = 5.5
REKONTRA_MARGIN = 3.0
# Outbidding the partner's contract needs this much more than the plain threshold.
OVER_PARTNER_MARGIN = 2.0


def _has(hand: int, suit: int, rank: int) -> bool:
    return bool(hand >> (8 * suit + rank) & 1)


def _suit_count(hand: int, suit: int) -> int:
    return (hand & SUIT_MASKS[suit]).bit_count()


# -- bidding ----------------------------------------------------------------------------------


def suit_strength(hand: int, trump: int) -> float:
    """How well ``hand`` plays a contract in ``trump``: trump honours and length, side aces."""
    v = 0.0
    n = _suit_count(hand, trump)
    if _has(hand, trump, JACK):
        v += 3.0
    if _has(hand, trump, NINE):
        v += 2.5 if _has(hand, trump, JACK) else 1.8
    if _has(hand, trump, ACE):
        v += 1.2
    if _has(hand, trump, TEN):
        v += 1.0
    if _has(hand, trump, KING) and _has(hand, trump, QUEEN):
        v += 1.5  # belote: 20 points that cannot be taken away
    else:
        v += 0.5 * (_has(hand, trump, KING) + _has(hand, trump, QUEEN))
    v += 0.4 * (_has(hand, trump, 0) + _has(hand, trump, 1))
    if n >= 3:
        v += 0.6 * (n - 2)
    for s in range(4):
        if s == trump:
            continue
        if _has(hand, s, ACE):
            v += 1.2
            if _has(hand, s, TEN):
                v += 0.8
        elif _has(hand, s, TEN) and _suit_count(hand, s) >= 2:
            v += 0.3
    return v


def nt_strength(hand: int) -> float:
    """No trumps: aces and guarded tens win tricks whose points count double."""
    v = 0.0
    for s in range(4):
        n = _suit_count(hand, s)
        if _has(hand, s, ACE):
            v += 2.0
            if _has(hand, s, TEN):
                v += 1.5
                if _has(hand, s, KING):
                    v += 0.5
            if n >= 3:
                v += 0.5
        elif _has(hand, s, TEN) and n >= 2:
            v += 0.6
    return v


def at_strength(hand: int) -> float:
    """All trumps: jacks and nines (with their jack) take the big tricks."""
    v = 0.0
    for s in range(4):
        j, nine = _has(hand, s, JACK), _has(hand, s, NINE)
        if j:
            v += 2.5
            if nine:
                v += 1.5
            if _has(hand, s, ACE):
                v += 0.6
        elif nine:
            v += 0.7 if _suit_count(hand, s) >= 2 else 0.3
        if _has(hand, s, KING) and _has(hand, s, QUEEN):
            v += 0.8  # a belote in all trumps
    return v


def declaration_bonus(hand: int, rules: Rules) -> float:
    """Declarations already in the hand count in suit and AT contracts (R7.1), not in NT."""
    points = sum(DECLARATIONS[i].value for i in best_declarations(hand, rules))
    return points / 25.0


@functools.lru_cache(maxsize=1 << 16)
def contract_margins(hand: int, rules: Rules) -> tuple[float, ...]:
    """For each contract C D H S NT AT: strength minus its bidding threshold.

    Cached: the search bots' samplers ask it of the same five cards again and again (a world is
    kept only if its bidders' calls fit, `sampling._calls_fit`), about three times in four in a
    tournament; 65,536 hands cost about 24 MB."""
    bonus = declaration_bonus(hand, rules)
    return (*(suit_strength(hand, s) + bonus - SUIT_THRESHOLD for s in range(4)),
            nt_strength(hand) - NT_THRESHOLD, at_strength(hand) + bonus - AT_THRESHOLD)


def defence_strength(hand: int, contract: int) -> float:
    """How badly ``hand`` hurts the opponents' ``contract`` (for kontra)."""
    v = 0.0
    if is_suit_contract(contract):
        n = _suit_count(hand, contract)
        if _has(hand, contract, JACK):
            v += 3.0
        if _has(hand, contract, NINE):
            v += 2.0 if n >= 2 else 1.0
        if _has(hand, contract, ACE):
            v += 1.0
        v += 0.7 * max(0, n - 1)
        for s in range(4):
            if s != contract and _has(hand, s, ACE):
                v += 1.2 + (0.6 if _has(hand, s, TEN) else 0.0)
        return v
    if contract == NT:
        return nt_strength(hand)
    return at_strength(hand)


def choose_call(view: SeatView) -> int:
    legal = view.legal_actions
    hand = mask_of(view.hand)
    me = view.seat
    margins = contract_margins(hand, view.rules)
    current = view.contract
    ours = current >= 0 and (view.declarer ^ me) & 1 == 0
    if current >= 0 and ours and view.multiplier == 2 and CALL_BASE + REKONTRA in legal and (
            margins[current] >= REKONTRA_MARGIN or (view.declarer != me and margins[current] >= 1.0)):
        return CALL_BASE + REKONTRA
    best, best_margin = -1, 0.0
    for contract in range(current + 1, AT + 1):
        m = margins[contract]
        if ours:
            m -= OVER_PARTNER_MARGIN if view.declarer != me else 1.0
        if m >= best_margin and CALL_BASE + BID_BASE + contract in legal:
            best, best_margin = contract, m
    if best >= 0:
        return CALL_BASE + BID_BASE + best
    if current >= 0 and not ours and CALL_BASE + KONTRA in legal:
        # over a rekontra the kontra slot is surkontra (OPT-SURCONTRA, x8): as sure as a rekontra
        need = KONTRA_THRESHOLD + (REKONTRA_MARGIN if view.multiplier == 4 else 0.0)
        if defence_strength(hand, current) >= need:
            return CALL_BASE + KONTRA
    return CALL_BASE + PASS


# -- what the seat knows during the play ------------------------------------------------------


class Knowledge:
    """The seat's knowledge of the deal: cards unseen, and what each other seat cannot hold."""

    __slots__ = ("seat", "t", "hand", "played", "unseen", "cannot", "trick_cards", "tricks_done")

    def __init__(self, view: SeatView) -> None:
        f = facts(view)
        self.seat = view.seat
        self.t = TABLES[view.contract]
        self.hand = f.own
        self.played = f.played
        self.unseen = f.unseen
        # The partner card of an announced belote is in the announcer's hand until played: no
        # other seat holds it.
        belote = f.must[0] | f.must[1] | f.must[2] | f.must[3]
        self.cannot = [f.cannot[s] | (belote & ~f.must[s]) for s in range(4)]
        self.trick_cards = view.trick
        self.tricks_done = len(view.tricks)

    def may_hold(self, seat: int) -> int:
        return self.unseen & ~self.cannot[seat]

    def is_master(self, card: int) -> bool:
        """No unseen card of its suit ranks above it."""
        return not (self.unseen & self.t.above[card])

    def may_beat(self, seat: int, card: int, led: int) -> bool:
        """Whether ``seat``, still to play in this trick, might take it from ``card``."""
        t = self.t
        holds = self.may_hold(seat)
        if card >> 3 == led:
            if holds & t.above[card]:
                return True
            if t.trump_mask and not (t.trump_mask >> card & 1) and holds & t.trump_mask:
                # It can trump only when void in the led suit: known, or likely when few of the
                # suit are unseen.
                led_left = holds & SUIT_MASKS[led]
                return not led_left or (self.unseen & SUIT_MASKS[led]).bit_count() <= 2
            return False
        # ``card`` is a trump on another suit: only a higher trump beats it.
        return bool(t.trump_mask >> card & 1 and holds & t.above[card])


# -- card play --------------------------------------------------------------------------------


def _low(cards: list[int], t: ContractTable) -> int:
    return min(cards, key=lambda c: (t.points[c], t.strength[c]))


def _high(cards: list[int], t: ContractTable) -> int:
    return max(cards, key=lambda c: (t.strength[c], t.points[c]))


def _keep_value(k: Knowledge, card: int) -> float:
    """What keeping ``card`` is worth beyond its points (masters, trumps, guards)."""
    t = k.t
    v = float(t.points[card])
    if t.trump_mask >> card & 1:
        v += 8 + 2 * t.strength[card]
    if k.is_master(card):
        v += 12
    else:
        # A ten (or AT nine) guarded by a low card of its suit may still win: keep the guard.
        suit_cards = k.hand & SUIT_MASKS[card >> 3]
        if suit_cards.bit_count() == 2 and t.points[card] < 10:
            other = (suit_cards & ~(1 << card)).bit_length() - 1
            if t.points[other] >= 10 and not k.is_master(other):
                v += 6
    return v


def _discard(k: Knowledge, cards: list[int]) -> int:
    """The card that costs least to give away."""
    t = k.t
    def cost(c: int) -> tuple[float, int]:
        v = _keep_value(k, c)
        if t.trump_suit >= 0 and c >> 3 != t.trump_suit and (k.hand & SUIT_MASKS[c >> 3]).bit_count() == 1 \
                and k.hand & t.trump_mask:
            v -= 1.5  # makes a void to trump later
        return (v, t.strength[c])
    return min(cards, key=cost)


def _smear(k: Knowledge, cards: list[int]) -> int:
    """The card to give to a trick the partner holds: the most points that cannot win later."""
    t = k.t
    return max(cards, key=lambda c: (t.points[c] - (_keep_value(k, c) - t.points[c]), -t.strength[c]))


def _lead(k: Knowledge, view: SeatView, cards: list[int]) -> int:
    t = k.t
    me = k.seat
    opps = ((me + 1) & 3, (me + 3) & 3)
    partner = (me + 2) & 3
    our_contract = (view.declarer ^ me) & 1 == 0
    hand = k.hand
    trumps = hand & t.trump_mask
    if t.trump_suit >= 0:
        opp_trumps = any(k.may_hold(o) & t.trump_mask for o in opps)
        masters_trump = [c for c in cards_of(trumps) if k.is_master(c)]
        if len(cards) == 2 and masters_trump and opp_trumps:
            # Keep the master trump for the last trick and its 10 points.
            others = [c for c in cards if c not in masters_trump]
            if others:
                return _low(others, t)
        if our_contract and trumps and opp_trumps:
            if masters_trump:
                return _high(masters_trump, t)  # draw the opponents' trumps
            if view.declarer == partner and trumps.bit_count() <= 2:
                return _low(cards_of(trumps), t)  # lead to the partner's trumps
            if view.declarer == me and trumps.bit_count() >= 3:
                return _low(cards_of(trumps), t)  # push out the master trump while we are long
        # Side-suit masters that no opponent can ruff.
        best = [
            c for c in cards
            if c >> 3 != t.trump_suit and k.is_master(c)
            and not any(k.cannot[o] & SUIT_MASKS[c >> 3] == SUIT_MASKS[c >> 3] and k.may_hold(o) & t.trump_mask for o in opps)
        ]
        if best:
            return max(best, key=lambda c: (t.points[c], t.strength[c]))
        # Let the partner ruff a suit it has shown void in, when it may still trump.
        if not our_contract or view.declarer == partner:
            for c in sorted(cards, key=lambda c: t.points[c]):
                s = c >> 3
                if s != t.trump_suit and k.cannot[partner] & SUIT_MASKS[s] == SUIT_MASKS[s] and k.may_hold(partner) & t.trump_mask:
                    return c
    else:
        masters = [c for c in cards if k.is_master(c)]
        if masters:
            # Cash from the longest suit first: its masters draw the suit for our later cards.
            return max(masters, key=lambda c: ((hand & SUIT_MASKS[c >> 3]).bit_count(), t.points[c]))
    return _lead_low(k, cards)


def _lead_low(k: Knowledge, cards: list[int]) -> int:
    """A low lead from a suit that does not expose a ten/nine or give away the trump control."""
    t = k.t
    opps = ((k.seat + 1) & 3, (k.seat + 3) & 3)

    def cost(c: int) -> tuple[float, int]:
        v = _keep_value(k, c)
        s = c >> 3
        suit = k.hand & SUIT_MASKS[s]
        if t.trump_mask >> c & 1:
            v += 10  # do not lead trumps without a plan
        # Leading from a suit that holds an unprotected big card lets the opponents catch it.
        for o in cards_of(suit):
            if o != c and t.points[o] >= 10 and not k.is_master(o):
                v += 6
        if t.trump_mask and not t.trump_mask >> c & 1:
            full = SUIT_MASKS[s]
            for o in opps:
                if k.cannot[o] & full == full and k.may_hold(o) & t.trump_mask:
                    v += 5  # an opponent shown void would ruff it
        return (v, t.strength[c])
    return min(cards, key=cost)


def _follow(k: Knowledge, view: SeatView, cards: list[int]) -> int:
    t = k.t
    me = k.seat
    trick = view.trick
    led = trick[0][1] >> 3
    win, win_seat = trick[0][1], trick[0][0]
    for seat, c in trick[1:]:
        if beats(t, c, win):
            win, win_seat = c, seat
    pos = len(trick)
    later = [(me + i) & 3 for i in range(1, 4 - pos)]
    opps_after = [s for s in later if (s ^ me) & 1]
    trick_points = sum(t.points[c] for _, c in trick)
    last_trick = k.tricks_done == 7
    if (win_seat ^ me) & 1 == 0 and not any(k.may_beat(s, win, led) for s in opps_after):
        return _smear(k, cards)
    winners = [c for c in cards if beats(t, c, win)]
    safe = [c for c in winners if not any(k.may_beat(s, c, led) for s in opps_after)]
    if (win_seat ^ me) & 1 == 0:
        # Partner winning but may be overtaken: overtake only with a card that cannot be beaten
        # and only when the trick is worth it.
        if safe and trick_points >= 10 and opps_after:
            return _cheapest_win(k, safe, len(cards))
        return _discard(k, cards)
    if safe:
        worth = trick_points + (10 if last_trick else 0)
        pick = _cheapest_win(k, safe, len(cards))
        # Spending a master trump on a pointless trick early wastes trump control.
        if worth == 0 and t.trump_mask >> pick & 1 and t.strength[pick] >= 6:
            losers = [c for c in cards if c not in winners]
            if losers:
                return _discard(k, losers)
        return pick
    if winners:
        if pos == 2 and trick_points >= 10:
            return _high(winners, t)  # only one opponent left: try to take it
        losers = [c for c in cards if c not in winners]
        if losers:
            return _discard(k, losers)
        return _low(winners, t)
    return _discard(k, cards)


def _cheapest_win(k: Knowledge, safe: list[int], n_legal: int) -> int:
    t = k.t
    hand_cards = cards_of(k.hand)
    # With two cards left keep a master trump for the last trick if another card also wins now.
    if len(hand_cards) == 2 and len(safe) > 1:
        non_trump = [c for c in safe if not t.trump_mask >> c & 1]
        if non_trump:
            return _low(non_trump, t)
    return min(safe, key=lambda c: (t.trump_mask >> c & 1, t.points[c] + 2 * t.strength[c]))


class HeuristicBot:
    name = "heuristic"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed  # deterministic: the seed is accepted for the common bot interface

    def act(self, view: SeatView) -> int:
        legal = view.legal_actions
        if not legal:
            raise ValueError("the bot was asked to act but has no legal action")
        if view.phase == AUCTION:
            return choose_call(view)
        declare = announce_first(view)
        if declare is not None:
            return declare
        cards = [a for a in legal if a < BELOTE_BASE]
        return with_belote(view, cards[0] if len(cards) == 1 else choose_card(view, cards))


def choose_card(view: SeatView, cards: list[int]) -> int:
    """The heuristic's card among ``cards`` (the seat's legal cards) in ``view``'s position."""
    k = Knowledge(view)
    return _lead(k, view, cards) if not view.trick else _follow(k, view, cards)


__all__ = ["HeuristicBot", "choose_call", "choose_card", "contract_margins", "defence_strength", "Knowledge"]
