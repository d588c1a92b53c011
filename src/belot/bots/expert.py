"""The ``expert`` bot: `pimc` that searches more where a decision is close and values a card with
its next card fixed across the worlds it cannot tell apart (issue 24).

`pimc` stays as it is, the reference every change is measured against (`bench/paired.py`,
docs/strength.md).  pimc spends a fixed amount of search on every decision: a number of sampled
worlds (cards) or deals (calls) bounded by solver nodes.  Its choice is the best average over those
samples, and with a few samples the average of a card or call that is not the best can come out on
top by chance.  ``expert`` measures that chance as it goes: after pimc's own amount of search it goes
on sampling while the leader's lead over the runner-up, per sample (the same worlds for both), is
within two standard errors of zero and that lead could be worth something, up to a larger budget.
Decisions that are clear cost what they cost pimc; close ones get up to several times the worlds.

Common random numbers: pimc draws every decision's samples from one `random.Random` in turn, so a
change to how much one decision searches changes the samples of every later decision of the deal.
``expert`` seeds each decision's samples from its seed and the view it decides on (`view_key`), so
the same view with the same seed always gets the same samples and the same choice, whatever came
before; two variants of expert then differ only where a change reaches, and a paired comparison
(`bench/paired.py`) measures the change itself, not the reshuffled luck of the deals it did not touch.

Strategy fusion, one move further: pimc values a card by the average over its worlds of the best
play from there, each world choosing its own continuation, as if the seat would know the hidden
cards when it plays its next card.  From trick 2 on, ``expert`` values a card with its next card
fixed across the worlds it will not be able to tell apart by then (the worlds in which the others,
playing their open-card best, lay the same cards before its next turn), as alpha-mu search does
with two moves of its own (`next_card_values`).  It changes about one card decision in sixty.

Playing for the match: pimc maximises its team's game points less the other's in every deal, as if
the match never ended.  ``expert`` values a deal's points by the chance of winning the match from the
score they leave (`deal_value`, `belot.bots.equity`), in game points of the start of a match: early on
it plays as pimc, late it plays the score (a safe contract when a few points win the match, kontra of
a contract that would win the other team the match anyway).  Such kontras cost game points where the
contract is made; ``LEAD_WEIGHT`` counts the deal score beside the match equity, 0 by default: the
measured trade (docs/strength.md) is a few matches in a hundred for a game point a deal.

Reading the table: the cards of the match's earlier deals are public once played out, so expert
reads from them whether the other team plays its cards as the `heuristic` model does
(`belot.bots.reading`); such a team's contracts count as made in a sampled deal only from an
open-card margin of ``MODEL_DECLARER_PENALTY`` (its declarer play errs), not pimc's ``bid_penalty``
(`declarer_penalty`).  Search bots never read so, and against them expert bids as before.

Partners' discards: when ``expert`` cannot follow suit and throws a card of another plain suit, it
chooses, among the cards within ``SIGNAL_DELTA`` of its best, one from a suit whose master (the highest
card not yet played) it does not hold, when it has such a suit; and it draws its worlds so that its
partner's discards keep that convention (a world that breaks one is kept with chance ``SIGNAL_EPS``,
`sampling.signals_plausible`).  It reads every partner so; a partner who discards otherwise (pimc, a
person) only makes those worlds rarer, never impossible.

Worlds that keep the calls: pimc prefers, by rejection, worlds that fit the calls, the other team's
card play and (expert's) the partner's signals, while a budget of rejected draws per decision
(`sampling.FIT_BUDGET`) lasts.  The card-play reading keeps few worlds after trick 2 (a search bot
does not play as its model), so the budget is spent after a few worlds and the rest come from the
hard facts alone, the auction unread.  ``expert`` then goes on rejecting worlds that misfit the
calls or the signals (about a third of the worlds fit, and the checks are cheap) for up to
``CALL_BUDGET`` draws more (`Knowledge.call_budget`).

Everything else (sampling, the solver, scoring of worlds, bidding by null-window searches) is
`pimc`'s, so each rule stays in one place.
"""

from __future__ import annotations

import hashlib
import math
import random
from collections.abc import Callable, Sequence
from typing import Any

from .. import inference
from ..cards import mask_of
from ..contracts import TABLES
from ..floats import total
from ..game import SeatView
from ..play import beats
from ..solver import DEAL_POINTS, Position, Solver
from . import equity
from .pimc import PimcBot
from .reading import plays_as_model
from .sampling import DiscardSignal, Knowledge, discard_signal_broken, is_discard

# pimc's parameters that expert changes (the others are pimc's)
BUDGETS: dict[str, int] = {"max_worlds": 96, "bid_worlds": 64, "node_cap": 8_000_000}
PLAY_EXTRA = 3  # a close card may take up to this many times pimc's play_nodes
BID_EXTRA = 1.6  # a close call up to this many times pimc's bid_nodes
Z = 2.0  # a lead of this many standard errors settles a decision
MATTERS = 0.5  # game points: a standard error of the lead below this settles it too
# from trick 2 (index 1) on, a card's value fixes the seat's next card across the worlds it will not
# tell apart; in trick 1 each world is a whole deal and that costs seconds (docs/strength.md)
FUSION_FROM = 1
MATCH_AWARE = True  # value a deal's points by the chance of winning the match (equity.value)
# the open-card margin (raw points of 162) by which the other team's contract must be made to count as
# made when that team has played its cards as the `heuristic` bot does in the earlier deals (`reading`)
MODEL_DECLARER_PENALTY = 25.0
# partners' discard convention: among discards within SIGNAL_DELTA of the best card's value, one from a
# suit whose master the seat does not hold; the partner keeps a world that contradicts a discard with
# chance SIGNAL_EPS
SIGNAL_DELTA = 0.5
SIGNAL_EPS = 0.3
# playing for the match, a deal's value is (match equity + LEAD_WEIGHT * deal score) / (1 + LEAD_WEIGHT):
# 0 plays for the match alone; the larger, the more a point given away where the match does not turn on it
# still counts (kontras of contracts that win the others the match whether doubled or not)
LEAD_WEIGHT = 0.0
# draws a card decision may reject for misfitting the calls or the partner's signals once pimc's budget
# for the other team's card play (`sampling.FIT_BUDGET`) is spent
CALL_BUDGET = 3000


def close(samples: Sequence[Sequence[float]]) -> bool:
    """Whether the option with the best mean might not be the best: its lead per sample over the
    runner-up (paired: the same samples) is within ``Z`` standard errors, and that error is at least
    ``MATTERS`` game points."""
    n = len(samples[0])
    if len(samples) < 2 or n < 2:
        return False
    order = sorted(range(len(samples)), key=lambda i: total(samples[i]), reverse=True)
    a, b = samples[order[0]], samples[order[1]]
    d = [x - y for x, y in zip(a, b)]
    mean = total(d) / n
    var = total((x - mean) ** 2 for x in d) / (n - 1)
    se = math.sqrt(var / n)
    return se >= MATTERS and mean < Z * se


def view_key(view: SeatView) -> bytes:
    """A stable digest of what the search reads in a view: the seat, its own cards, every public call,
    card, declaration and belote, the pot and the house rules.  The match score, target and history
    are left out: the worlds drawn do not depend on them (the score changes what a deal's points are
    worth, `deal_value`, not which cards the others may hold), so a change of the score alone changes
    a choice only where the match makes the difference.  ``repr`` of tuples of ints and strings is
    the same in every process, unlike ``hash()`` of a string."""
    parts = (view.seat, view.dealer, view.phase, view.to_move, view.hand, view.calls, view.contract,
             view.declarer, view.multiplier, view.tricks, view.trick, view.announced,
             view.own_declarations, view.belotes, view.legal_actions, view.pot, view.options)
    return hashlib.blake2b(repr(parts).encode(), digest_size=16).digest()


class ExpertBot(PimcBot):
    name = "expert"

    def __init__(self, seed: int | None = None, fusion_from: int = FUSION_FROM, match_aware: bool = MATCH_AWARE,
                 lead_weight: float = LEAD_WEIGHT, **params: Any) -> None:
        """``params`` override `BUDGETS` or pimc's other parameters (tests use small budgets).
        ``fusion_from``: the first trick (0-7) whose cards are valued with the next card fixed
        across the worlds the seat will not tell apart (`next_card_values`); 8: never.
        ``match_aware``: a deal's points are valued by the chance of winning the match they leave
        (`equity.value`), not by the deal score.
        ``lead_weight``: how much the deal score counts beside the match equity (`LEAD_WEIGHT`).
        Without a seed the bot draws one, so it stays unpredictable."""
        super().__init__(seed, **{**BUDGETS, **params})
        self.seed = seed if seed is not None else random.SystemRandom().getrandbits(64)
        self.fusion_from = fusion_from
        self.match_aware = match_aware
        self.lead_weight = lead_weight
        self._worlds: list[tuple[Position, dict[int, int], Callable[[int], float]]] = []
        self._model_team = -1  # the other team, when it is read as playing as the model does

    def decision_seed(self, view: SeatView) -> int:
        """The seed of the samples for ``view``: a function of the bot's seed and the view only."""
        base = str(self.seed).encode() + b":"
        return int.from_bytes(hashlib.blake2b(base + view_key(view), digest_size=8).digest(), "big")

    def act(self, view: SeatView) -> int:
        # common random numbers: the same view, the same samples (module docstring)
        self.rng = random.Random(self.decision_seed(view))
        self._worlds = []
        if view.phase == "auction":  # only the bidding uses the reading (`declarer_penalty`)
            self._model_team = 1 - (view.seat & 1) if plays_as_model(view) else -1
        return super().act(view)

    def _pick(self, view: SeatView, cards: list[int], scores: dict[int, float], raw: dict[int, float]) -> int:
        order = sorted(cards, key=lambda c: (scores[c], raw[c], -c), reverse=True)
        best = order[0]
        t = TABLES[view.contract]
        led = view.trick[0][1] >> 3 if view.trick else -1
        if led >= 0 and is_discard(best, led, t):
            seen = view.played
            hand = mask_of(view.hand)
            for c in order:
                if scores[c] < scores[best] - SIGNAL_DELTA:
                    break
                if is_discard(c, led, t) and not discard_signal_broken(hand, c, led, seen, t):
                    return c
        return best

    def knowledge(self, view: SeatView) -> Knowledge:
        k = super().knowledge(view)
        t = TABLES[view.contract]
        partner = view.seat ^ 2
        seen = 0
        played = [0, 0, 0, 0]
        mine: list[tuple[int, int, int, int]] = []
        for p in inference.plays(view):
            if p.seat == partner and p.led >= 0 and is_discard(p.card, p.led, t):
                mine.append((p.card, p.led, seen, played[partner]))
            seen |= 1 << p.card
            played[p.seat] |= 1 << p.card
        k.call_budget = CALL_BUDGET
        k.signals = [DiscardSignal(partner, c, led, s, played[partner] & ~before) for c, led, s, before in mine]
        k.signal_eps = SIGNAL_EPS
        return k

    def declarer_penalty(self, bteam: int) -> float:
        return MODEL_DECLARER_PENALTY if bteam == self._model_team else self.bid_penalty

    def deal_value(self, view: SeatView, points: tuple[int, int]) -> float:
        if not self.match_aware:
            return super().deal_value(view, points)
        v = equity.value(view.score, view.target, view.seat & 1, points)
        if self.lead_weight:
            w, team = self.lead_weight, view.seat & 1
            v = (v + w * (points[team] - points[1 - team])) / (1 + w)
        return v

    def _solved(self, pos: Position, diffs: dict[int, int], score: Callable[[int], float]) -> None:
        if len(pos.trick_winners) >= self.fusion_from:
            self._worlds.append((pos, diffs, score))

    def _rescore(self, view: SeatView, means: dict[int, float], start: int) -> dict[int, float]:
        worlds, self._worlds = self._worlds, []
        if len(worlds) < 2 or len(view.tricks) >= 7:
            return means
        left = self.node_cap - (int(self.solver.stats[0]) - start)
        fused = next_card_values(self.solver, worlds, means, left)
        return means if fused is None else {**means, **fused}

    def _more_worlds(self, worlds: int, nodes: int, values: dict[int, list[float]]) -> bool:
        if super()._more_worlds(worlds, nodes, values):
            return True
        return (worlds < self.max_worlds and nodes < PLAY_EXTRA * self.play_nodes
                and close(list(values.values())))

    def _more_bid_worlds(self, n: int, nodes: int, values: list[list[float]]) -> bool:
        if super()._more_bid_worlds(n, nodes, values):
            return True
        return nodes <= BID_EXTRA * self.bid_nodes and close(values)


def _line_to_next_turn(solver: Solver, pos: Position, card: int) -> tuple[Position, tuple[int, ...]] | None:
    """Play ``card`` for the seat to move in ``pos``, then every other seat's open-card best card
    (the lowest of equal ones) until that seat is to move again: the position then, and the cards
    the others played on the way (what the seat will have seen; a belote announced with one of them
    is left out, so worlds that differ only there count as one: a slight pessimism, measured so).
    None when the node limit was hit."""
    me = pos.to_move
    t = TABLES[pos.contract]
    hands = list(pos.hands)
    trick, winners, seat, c = list(pos.trick), list(pos.trick_winners), me, card
    seen: list[int] = []
    while True:
        hands[seat] &= ~(1 << c)
        trick.append((seat, c))
        if seat != me:
            seen.append(c)
        if len(trick) == 4:
            win_seat, win_card = trick[0]
            for s, x in trick[1:]:
                if beats(t, x, win_card):
                    win_seat, win_card = s, x
            winners.append(win_seat)
            trick, seat = [], win_seat
        else:
            seat = (seat + 1) & 3
        nxt = Position(pos.contract, (hands[0], hands[1], hands[2], hands[3]), seat, tuple(trick), len(winners),
                       tuple(winners))
        if seat == me:
            return nxt, tuple(seen)
        diffs = solver.card_diffs(nxt, DEAL_POINTS)
        if not diffs:
            return None
        sign = 1 if seat & 1 == 0 else -1
        c = max(sorted(diffs), key=lambda x: sign * diffs[x])


def line_values(solver: Solver, world: tuple[Position, dict[int, int], Callable[[int], float]],
                card: int) -> tuple[tuple[int, ...], dict[int, float]] | None:
    """In one solved world (its position, every card's solver value, its deal-score function): the
    cards the others lay after ``card`` up to the seat's next turn (`_line_to_next_turn`), and the
    deal score of each next card there, followed by open-card play.  A line's value is the open-card
    value of ``card`` less what the next card gives up against the world's best next card, so what
    the tricks, belotes and valat on the way are worth is the solver's own.  None at the node limit."""
    pos, diffs, score = world
    line = _line_to_next_turn(solver, pos, card)
    nxt_diffs = None if line is None else solver.card_diffs(line[0], DEAL_POINTS)
    if not nxt_diffs or line is None:
        return None
    sign = 1 if pos.to_move & 1 == 0 else -1
    top = max(sign * v for v in nxt_diffs.values())
    return line[1], {c2: score(diffs[card] + sign * (sign * v - top)) for c2, v in nxt_diffs.items()}


def next_card_values(solver: Solver, worlds: Sequence[tuple[Position, dict[int, int], Callable[[int], float]]],
                     means: dict[int, float], nodes: int) -> dict[int, float] | None:
    """The cards' average deal scores when the seat's next card must be the same in every world it
    will not be able to tell apart (a second own move free of strategy fusion, as in alpha-mu search
    with two moves).

    Each world gives, for each card now, the open-card best line of the others up to the seat's next
    turn and the value of each next card there (`line_values`); the worlds are grouped
    by the cards the others played on the way, and in each group one next card is chosen for all of
    them (the best on their sum).  pimc instead takes each world's own best next card, so its average
    (``means``) is never below this one: a card whose mean is not above the best value found so far
    cannot overtake it and is not searched.  None when ``nodes`` solver nodes did not suffice.
    """
    start = int(solver.stats[0])
    n = len(worlds)
    out: dict[int, float] = {}
    best = -math.inf
    for card in sorted(means, key=lambda c: (-means[c], c)):
        if means[card] <= best:
            break
        groups: dict[tuple[int, ...], dict[int, float]] = {}
        for world in worlds:
            solver.limit(nodes - (int(solver.stats[0]) - start))
            lines = line_values(solver, world, card)
            solver.limit(None)
            if lines is None:
                return None
            seen, values = lines
            sums = groups.setdefault(seen, {})
            for c2, v in values.items():
                sums[c2] = sums.get(c2, 0.0) + v
        value = total(max(s.values()) for s in groups.values()) / n
        out[card] = value
        best = max(best, value)
    return out
