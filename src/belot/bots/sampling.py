"""Sampling the hidden cards consistently with what one seat knows (its `SeatView`).

`Knowledge.from_view` takes the hard facts a seat has from `belot.inference`: the cards it has
seen (its own hand, every card played), each other seat's hand size, the cards a seat cannot hold
because of how it played (shown voids, R5.2/R5.3 failures to trump or overtrump, R5.5 failures to
beat), the partners of announced belotes (R7.7) and the declaration kinds each seat announced
(R7.5).  `sample` deals the unseen cards to the other seats (and, during the auction,
the three cards still to come to every seat) so that every fact holds, choosing concrete
declarations for the announced kinds (under the options of the view: with `OPT-EIGHT-SPLIT` or
`OPT-CARRE-FIRST` a world is kept only if each seat could have announced its kinds from its cards,
`inference.announceable`).  The auction and the other team's card play are softer
inferences: in play, worlds in which a sensible player could have made each seat's calls (the
model below) and would have played each card the other team played (the `heuristic` bot's card
play, `_plays_plausible`) are preferred by rejection, never forced.

For bidding, `sample_auction` deals whole hands from the auction alone: the five cards each other
seat bid on are drawn so that its calls fit a sensible player's bidding (the `heuristic` bot's hand
evaluation, leniently), then the three cards still to come are dealt at random (R2.3).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from typing import NamedTuple

from .. import declarations as decl
from .. import inference
from ..auction import KONTRA, PASS
from ..cards import SUIT_MASKS, cards_of, mask_of
from ..contracts import CARRE_FIRST, EIGHT_SPLIT, TABLES, ContractTable, Rules
from ..game import SeatView
from ..play import legal_cards
from .heuristic import KONTRA_THRESHOLD, choose_card, contract_margins, defence_strength

# Draws the play sampler may reject for misfitting the auction or the play, per decision (see `sample`).
FIT_BUDGET = 400
# pimc's chance of keeping a world for each of an opponent's plays the `heuristic` card play would not
# have made (`Knowledge.play_eps`, `_plays_plausible`); 1 keeps every world
PLAY_EPS = 0.2


@dataclass
class Knowledge:
    """Hard facts one seat has about the hidden cards."""

    seat: int
    contract: int
    own: int  # the seat's own cards now (the five it holds while bidding)
    unknown: int  # cards the seat has not seen
    sizes: list[int]  # cards each seat must receive in a world (own seat: 0 in play, 3 in the auction)
    forbidden: list[int]  # per seat, cards it cannot hold
    required: list[int]  # per seat, unseen cards it must hold (belote partners)
    played_by: list[int]  # per seat, cards it played
    announced: list[tuple[str, ...]]  # declaration kinds announced, by seat
    auction: bool = False
    calls: list[list[tuple[int, bool, int]]] = field(default_factory=lambda: [[], [], [], []])  # `_auction_checks`
    fit_budget: int = 0  # draws left in which the play sampler may reject worlds that misfit the calls
    plays: list[PlayCheck] = field(default_factory=list)  # the opponents' card plays (`_plays_plausible`)
    play_eps: float = 1.0  # chance of keeping a world for each play the model would not have made
    call_budget: int = 0  # then draws left in which it may reject worlds that misfit the calls or signals
    signals: list[DiscardSignal] = field(default_factory=list)  # the partner's discards (`signals_plausible`)
    signal_eps: float = 1.0  # chance of keeping a world for each discard signal it contradicts
    rules: Rules = field(kw_only=True)  # the options in force (declarations under R7.2/R7.4 options, bidding)

    @property
    def reads(self) -> bool:
        """Whether the play sampler may still reject a world that misfits what was read (a budget lasts)."""
        return self.fit_budget > 0 or self.call_budget > 0

    @classmethod
    def from_view(cls, view: SeatView) -> Knowledge:
        f = inference.facts(view)
        me = view.seat
        announced = [tuple(a) for a in f.announced]
        rules = view.rules
        if view.phase == "auction":
            return cls(me, view.contract, f.own, f.unseen, list(f.sizes), [0, 0, 0, 0], [0, 0, 0, 0],
                       [0, 0, 0, 0], announced, True, _auction_checks(view), rules=rules)
        tricks = [(leader, cards) for leader, cards, _ in view.tricks]
        if view.trick:
            tricks.append((view.trick[0][0], tuple(c for _, c in view.trick)))
        judged: list[tuple[int, int, int, int, int, int, bool, int, int]] = []  # `_play_checks`
        seen = 0
        before = [0, 0, 0, 0]  # cards each seat played before the play in hand
        for p in inference.plays(view):
            if (p.seat ^ me) & 1:
                judged.append((p.seat, p.card, p.trick, p.position, p.led, p.win, p.partner_winning,
                               seen, before[p.seat]))
            seen |= 1 << p.card
            before[p.seat] |= 1 << p.card
        required = [f.must[s] if s != me else 0 for s in range(4)]
        played_by = list(f.played_by)
        return cls(me, view.contract, f.own, f.unseen, list(f.sizes), list(f.cannot), required, played_by,
                   announced, False, _auction_checks(view), FIT_BUDGET,
                   _play_checks(view, tricks, judged, played_by), rules=rules)


class DiscardSignal(NamedTuple):
    """A discard of the partner's (`signals_plausible`), with what it had seen then."""

    seat: int
    card: int
    led: int  # suit led in the trick
    seen: int  # the cards played before it
    later: int  # the cards the seat played from this play on (its hand then: these and its cards now)


@dataclass(frozen=True)
class PlayCheck:
    """One card an opponent played, with what it knew then: `_plays_plausible` asks whether a
    sensible player (the `heuristic` bot's card play) holding a world's cards would have played it."""

    seat: int
    card: int
    later: int  # the cards the seat played from this play on (its hand then: these and its cards now)
    led: int  # suit led in the trick (-1: this play leads it)
    win: int  # the card winning the trick before this play
    partner_winning: bool
    view: SeatView  # the seat's view before the play, its hand left empty


def _play_checks(view: SeatView, tricks: list[tuple[int, tuple[int, ...]]],
                 judged: list[tuple[int, int, int, int, int, int, bool, int, int]],
                 played_by: list[int]) -> list[PlayCheck]:
    """The checks of the other team's card plays (the own partner's are not judged): ``judged`` holds
    each in turn as (seat, card, trick index, position in the trick, led suit or -1, card winning
    the trick before it, whether the seat's partner played that card, the cards played before it,
    the cards the seat played before it); ``tricks`` are (leader, cards) and ``played_by`` each
    seat's cards played in all."""
    out = []
    for s, c, ti, k, led, win, pw, before, own_before in judged:
        leader, cards = tricks[ti]
        v = replace(view, seat=s, hand=(), legal_actions=(), own_declarations=(), tricks=view.tricks[:ti],
                    trick=tuple(((leader + j) & 3, cards[j]) for j in range(k)),
                    belotes=tuple(b for b in view.belotes if before >> b[1] & 1))
        out.append(PlayCheck(s, c, played_by[s] & ~own_before, led, win, pw, v))
    return out


def _plays_plausible(k: Knowledge, hands: list[int], rng: random.Random) -> bool:
    """Rejection test of a play-phase world against the opponents' card play: each play that a
    sensible player (`heuristic.choose_card`) holding the world's cards would not have made keeps
    the world with chance ``k.play_eps`` only.  Plays with one legal card say nothing."""
    t = TABLES[k.contract]
    for p in k.plays:
        card = model_card(p, hands[p.seat] | p.later, t)
        if card is not None and card != p.card and rng.random() >= k.play_eps:
            return False
    return True


def master_suits(hand: int, seen: int, t: ContractTable) -> int:
    """Bit s set for each suit s in which ``hand`` holds the master: the highest card of the suit
    not in ``seen`` (the cards played so far)."""
    out = 0
    for c in cards_of(hand):
        if t.above[c] & ~seen == 0:
            out |= 1 << (c >> 3)
    return out


def is_discard(card: int, led: int, t: ContractTable) -> bool:
    """Whether ``card``, played to a trick led in suit ``led``, is a discard: off that suit and not a
    trump of a suit contract."""
    return card >> 3 not in (led, t.trump_suit)


def discard_signal_broken(hand: int, card: int, led: int, seen: int, t: ContractTable) -> bool:
    """Whether discarding ``card`` (a card off the ``led`` suit and not a trump) from ``hand`` breaks
    the discard convention: it comes from a suit whose master the hand holds while the hand has a
    card of another such suit whose master it does not hold."""
    masters = master_suits(hand, seen, t)
    if not masters >> (card >> 3) & 1:
        return False
    for s in range(4):
        if s in (led, card >> 3, t.trump_suit) or not hand & SUIT_MASKS[s]:
            continue
        if not masters >> s & 1:
            return True
    return False


def signals_plausible(k: Knowledge, hands: list[int], rng: random.Random) -> bool:
    """Rejection test of a world against the partner's discards (``k.signals``): each that breaks the
    discard convention in this world (`discard_signal_broken`) keeps it with chance ``k.signal_eps``."""
    t = TABLES[k.contract]
    for seat, card, led, seen, later in k.signals:
        if discard_signal_broken(hands[seat] | later, card, led, seen, t) and rng.random() >= k.signal_eps:
            return False
    return True


def model_card(p: PlayCheck, hand: int, t: ContractTable) -> int | None:
    """The card a sensible player (`heuristic.choose_card`) would have played in ``p``'s place holding
    ``hand`` then; None when it had one legal card (such a play says nothing)."""
    legal = legal_cards(hand, t, p.led, p.win, p.partner_winning)
    if legal & (legal - 1) == 0:
        return None
    cards = cards_of(legal)
    return choose_card(replace(p.view, hand=tuple(cards_of(hand)), legal_actions=tuple(cards)), cards)


@dataclass(frozen=True)
class World:
    """One completion of the hidden cards: every seat's cards now, and the declarations chosen."""

    hands: tuple[int, int, int, int]
    declarations: tuple[tuple[int, ...], ...]  # ids chosen for the announced kinds, by seat (own: none)


def _pick_declarations(k: Knowledge, rng: random.Random) -> tuple[list[int], list[int], list[list[int]]] | None:
    """Concrete declarations for every other seat's announced kinds: (required, forbidden, ids)."""
    req = k.required[:]
    forb = k.forbidden[:]
    ids: list[list[int]] = [[], [], [], []]
    taken = 0
    for s in range(4):
        kinds = k.announced[s]
        if s == k.seat or not kinds:
            continue
        own_cards = k.played_by[s]
        chosen: list[decl.Declaration] = []
        # Carrés first, so a sequence may sit beside a chosen carré's cards.
        for kind in sorted(kinds, key=lambda x: x != decl.CARRE):
            options = [d for d in inference.candidates(kind, k.rules)
                       if inference.declaration_fits(d, own_cards, k.unknown, forb[s], req[s], taken, chosen, k.rules)]
            if not options:
                return None
            d = rng.choice(options)
            chosen.append(d)
            ids[s].append(d.id)
            need = d.mask & ~own_cards
            req[s] |= need
            taken |= need
            forb[s] |= inference.run_neighbours(d, k.rules) & k.unknown & ~req[s]
    for s in range(4):
        if req[s].bit_count() > k.sizes[s] or req[s] & forb[s]:
            return None
    return req, forb, ids


def _checks_declarations(rules: Rules) -> bool:
    """Whether the picks of `_pick_declarations` may not be legal from a whole hand (the options of
    R7.2 and R7.4 that make a sequence depend on cards beyond its neighbours)."""
    return bool(rules.options) and (EIGHT_SPLIT in rules.options or CARRE_FIRST in rules.options)


def _announceable(k: Knowledge, dealt: list[int], ids: list[list[int]]) -> bool:
    """Whether every other seat could have announced its kinds from its eight cards in the world
    ``dealt``; ``ids`` become the ids it announced (the picked ones where legal)."""
    for s in range(4):
        if s == k.seat or not k.announced[s]:
            continue
        found = inference.announceable(dealt[s] | k.played_by[s], k.announced[s], k.rules, ids[s])
        if found is None:
            return False
        ids[s] = found
    return True


def _fill(k: Knowledge, req: list[int], forb: list[int], rng: random.Random) -> list[int] | None:
    """Deal the unknown cards: the required ones, then the rest, most constrained card first."""
    hands = req[:]
    rest = k.unknown
    for s in range(4):
        rest &= ~req[s]
    need = [k.sizes[s] - req[s].bit_count() for s in range(4)]
    cards = [c for c in range(32) if rest >> c & 1]
    rng.shuffle(cards)
    allowed = {c: [s for s in range(4) if need[s] > 0 and not forb[s] >> c & 1] for c in cards}
    cards.sort(key=lambda c: len(allowed[c]))
    for c in cards:
        opts = [s for s in allowed[c] if need[s] > 0]
        if not opts:
            return None
        total = sum(need[s] for s in opts)
        r = rng.randrange(total)
        for s in opts:
            r -= need[s]
            if r < 0:
                break
        hands[s] |= 1 << c
        need[s] -= 1
    return hands


def _calls_plausible(k: Knowledge, hands: list[int], rng: random.Random) -> bool:
    """Rejection test of a play-phase world against the auction: for each other seat, five of its
    eight cards drawn at random (which five it bid on is unknown, R2.3) must fit its calls
    (`_calls_fit`).  Accepting on one random five weights a world by the share of its fives that
    fit, which is the chance a sensible player with those eight cards made those calls."""
    for s in range(4):
        if s == k.seat or not k.calls[s]:
            continue
        cards = cards_of(hands[s] | k.played_by[s])
        if len(cards) != 8:
            continue
        if not _calls_fit(mask_of(rng.sample(cards, 5)), k.calls[s], 1.0, k.rules):
            return False
    return True


def sample(k: Knowledge, rng: random.Random, tries: int = 200) -> World:
    """One world consistent with every hard fact of ``k``; in the play phase, worlds that fit the
    auction (`_calls_plausible`), the other team's card play (`_plays_plausible`) and the partner's
    signals (`signals_plausible`) are preferred by rejection while ``k.fit_budget`` lasts; then, while
    ``k.call_budget`` lasts, worlds that fit the auction and the signals.

    In the play phase the world's hands are the cards each seat holds now (the own seat's hand
    included); in the auction they are the whole eight-card hands.  The budget counts rejected
    draws over all the worlds of one `Knowledge` (one decision), so calls or cards that fit no
    sensible bidder or player (a random bot, a surprising human) cost a bounded time, after which
    any world is taken.
    """
    fallback: World | None = None
    for _ in range(tries):
        picked = _pick_declarations(k, rng)
        if picked is None:
            continue
        req, forb, ids = picked
        dealt = _fill(k, req, forb, rng)
        if dealt is None:
            continue
        dealt[k.seat] |= k.own
        if _checks_declarations(k.rules) and not _announceable(k, dealt, ids):
            continue  # a hard fact: the announced kinds must be legal from the world's hands
        world = World((dealt[0], dealt[1], dealt[2], dealt[3]), tuple(tuple(x) for x in ids))
        if k.auction or not k.reads:
            return world
        plays = k.fit_budget > 0  # while it lasts the card play is read too, then the calls and signals alone
        if (_calls_plausible(k, dealt, rng) and (not plays or _plays_plausible(k, dealt, rng))
                and signals_plausible(k, dealt, rng)):
            return world
        if plays:
            k.fit_budget -= 1
        else:
            k.call_budget -= 1
        fallback = fallback or world
    if fallback is not None:
        return fallback
    # The random construction can miss a very tight fit (or a player announced against the usual
    # habits): give up the declarations first, then the inferred voids, so a world always exists.
    for req, forb in ((k.required, k.forbidden), ([0, 0, 0, 0], [0, 0, 0, 0])):
        for _ in range(tries):
            dealt = _fill(k, req, forb, rng)
            if dealt is not None:
                dealt[k.seat] |= k.own
                return World((dealt[0], dealt[1], dealt[2], dealt[3]), ((), (), (), ()))
    raise ValueError("no deal of the hidden cards fits the hand sizes")  # only for inconsistent views


# -- the auction: what the calls say about the five cards each seat bid on ---------------------


def _calls_fit(hand5: int, calls: list[tuple[int, bool, int]], slack: float,
               rules: Rules) -> bool:
    """Whether a sensible player (the `heuristic` bidding model) with ``hand5`` might make ``calls``.

    Each call is (contract standing before it (-1: none), whether the caller's team holds it,
    call).  The model is lenient by ``slack``: a bid needs a hand not far below the bidding
    threshold of its contract, a pass over an opposing (or no) contract a hand that clears no higher
    contract by much, a kontra some defence against the contract.
    """
    margins: tuple[float, ...] | None = None  # computed once per hand, only when a call needs them
    for before, ours, call in calls:
        if (call == PASS and not ours) or 1 <= call <= 6:
            if margins is None:
                margins = contract_margins(hand5, rules)
            if call == PASS:
                if any(m >= slack for m in margins[before + 1:]):
                    return False
            elif margins[call - 1] < -slack:
                return False
        elif call == KONTRA and before >= 0 and defence_strength(hand5, before) < KONTRA_THRESHOLD - slack:
            return False
    return True


def _auction_checks(view: SeatView) -> list[list[tuple[int, bool, int]]]:
    """Per seat, its calls as (contract before, caller's team holds it, call)."""
    out: list[list[tuple[int, bool, int]]] = [[], [], [], []]
    contract, holder = -1, -1
    for s, call in view.calls:
        out[s].append((contract, holder >= 0 and (holder ^ s) & 1 == 0, call))
        if 1 <= call <= 6:
            contract, holder = call - 1, s
    return out


def bidding_hands(view: SeatView, rng: random.Random, slack: float = 1.0, tries: int = 500,
                  slacks: list[float] | None = None) -> list[int]:
    """The five cards each seat bid on (R2.3), this seat's own and the others' drawn to fit the calls.

    Each other seat's five cards are drawn until its calls fit a sensible player's bidding
    (`_calls_fit`, the seats with the most calls first); a seat whose calls fit no draw within
    ``tries`` gets the slack doubled (from 0: 0.5; at last no condition), so a deal always exists.
    Pass the same ``slacks`` list (per seat, each at least ``slack``) to successive calls for one
    view: a seat that needed more slack once starts there next time, which bounds the time a whole
    set of deals takes.
    """
    if slacks is None:
        slacks = [slack] * 4
    me = view.seat
    own = mask_of(view.hand)
    checks = _auction_checks(view)
    rules = view.rules
    left = [c for c in range(32) if not own >> c & 1]
    first5 = [0, 0, 0, 0]
    first5[me] = own
    for s in sorted((s for s in range(4) if s != me), key=lambda s: -len(checks[s])):
        calls = checks[s]
        sl = max(slack, slacks[s])
        while True:
            pick = None
            for _ in range(tries if calls else 1):
                cand = rng.sample(left, 5)
                h = sum(1 << c for c in cand)
                if _calls_fit(h, calls, sl, rules):
                    pick = cand
                    break
            if pick is not None:
                break
            sl = sl * 2 if sl else 0.5
            if sl > 8:
                calls = []
        slacks[s] = sl
        first5[s] = sum(1 << c for c in pick)
        left = [c for c in left if not first5[s] >> c & 1]
    return first5


def sample_auction(view: SeatView, rng: random.Random, slack: float = 1.0, tries: int = 500,
                   slacks: list[float] | None = None) -> World:
    """A whole deal (eight cards a seat) consistent with this seat's five cards and the calls so far:
    `bidding_hands`, then the three cards still to come dealt at random (R2.3)."""
    hands = bidding_hands(view, rng, slack, tries, slacks)
    left = [c for c in range(32) if not (hands[0] | hands[1] | hands[2] | hands[3]) >> c & 1]
    rng.shuffle(left)
    for s in range(4):
        for c in left[3 * s: 3 * s + 3]:
            hands[s] |= 1 << c
    return World((hands[0], hands[1], hands[2], hands[3]), ((), (), (), ()))
