"""The ``pimc`` bot: perfect-information Monte Carlo over worlds consistent with its view.

Card play: sample worlds of the hidden cards (`belot.bots.sampling`: the hard facts of the view,
and by preference worlds that fit the calls and in which the other team's cards are the ones a
sensible player would have played, each misfit card keeping a world with chance ``play_eps``),
solve each with the open-card solver (card points, last 10, NT doubling, belote and valat), turn
every legal card's value (exact for every card, whole deals in trick 1 too) into the *deal score*
of that world (made / hanging / inside and the kontra multiplier, with the declarations of the
world, via `belot.scoring.score_deal`) and play the card with the best average of (own team's game
points - the other team's); between equal averages, the one that takes the most points.  Bidding: deal
whole hands that fit the auction so far (`sampling.sample_auction`: the others' five cards fit
their calls, the three cards still to come at random), decide with null-window searches from the
first lead whether each candidate contract is made in each deal (and by how much), and compare
the average deal score of passing, each bid, kontra and rekontra (surkontra under `OPT-SURCONTRA`).
Declarations and scoring follow the options in force (`SeatView.options`).  Declarations: the best (R7.4
default); belote: always announced.

The amount of search is bounded by counts of solver nodes, not by the clock, so a seeded bot
makes the same decisions on every machine.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from .. import declarations as decl
from ..auction import BID_BASE, KONTRA, PASS, REKONTRA
from ..cards import ACE, FULL_DECK, JACK, NINE, QUEEN, SUIT_MASKS, TEN, cards_of, mask_of
from ..contracts import AT, NT, TABLES, VALAT_BONUS, Rules
from ..floats import total
from ..game import BELOTE_BASE, CALL_BASE, DECLARE_BASE, SeatView
from ..scoring import BELOTE_POINTS, deal_result, score_deal, trick_points
from ..solver import DEAL_POINTS, Position, Solver
from .random_bot import announce_first, with_belote
from .sampling import FIT_BUDGET, PLAY_EPS, Knowledge, World, sample, sample_auction

_KQ = tuple(0b11 << (8 * s + QUEEN) for s in range(4))


def _future_belote(contract: int, hands: tuple[int, ...]) -> list[int]:
    """The seats with a belote still to come in a world: K+Q of trumps unplayed in one hand (R7.7)."""
    if contract == NT:
        return []
    suits = range(4) if contract == AT else (contract,)
    return [seat for s in suits for seat in range(4) if hands[seat] & _KQ[s] == _KQ[s]]


def _multiplier_after(call: int, multiplier: int) -> int:
    """The multiplier a call leaves (R3.3): kontra x2, rekontra x4, the kontra slot over a rekontra
    surkontra x8 (`OPT-SURCONTRA`), a bid x1, a pass the standing one."""
    if call == KONTRA:
        return 8 if multiplier == 4 else 2
    if call == REKONTRA:
        return 4
    return multiplier if call == PASS else 1


_SOLVER: Solver | None = None


def _shared_solver() -> Solver:
    """One solver (and its 20 MB table) per process: bots are made afresh for every deal."""
    global _SOLVER
    if _SOLVER is None:
        _SOLVER = Solver()
        # load the compiled kernels now, not inside the first timed decision
        hands = (1 << 0 | 1 << 1, 1 << 8 | 1 << 9, 1 << 16 | 1 << 17, 1 << 24 | 1 << 25)
        pos = Position(0, hands, 0, (), 6, (0, 1))
        _SOLVER.card_diffs(pos, DEAL_POINTS)
        _SOLVER.diff(pos, DEAL_POINTS, 0, 0)
    return _SOLVER


class PimcBot:
    name = "pimc"

    def __init__(self, seed: int | None = None, play_nodes: int = 1_500_000, min_worlds: int = 4,
                 max_worlds: int = 32, bid_nodes: int = 5_000_000, bid_worlds: int = 32,
                 min_bid_worlds: int = 12, bid_margin: float = 0.0, kontra_margin: float = 4.0,
                 bid_penalty: float = 7.0, node_cap: int = 6_000_000, fit_budget: int = FIT_BUDGET,
                 play_eps: float = PLAY_EPS) -> None:
        self.rng = random.Random(seed)
        self.solver = _shared_solver()
        self.play_nodes = play_nodes
        self.min_worlds = min_worlds
        self.max_worlds = max_worlds
        self.bid_nodes = bid_nodes
        self.bid_worlds = bid_worlds
        self.bid_margin = bid_margin
        self.kontra_margin = kontra_margin
        self.min_bid_worlds = min_bid_worlds
        self.bid_penalty = bid_penalty
        self.node_cap = node_cap
        self.fit_budget = fit_budget
        self.play_eps = play_eps
        self._decision_start = 0

    # -- the interface ---------------------------------------------------------------------------

    def act(self, view: SeatView) -> int:
        legal = view.legal_actions
        if not legal:
            raise ValueError("the bot was asked to act but has no legal action")
        if len(legal) == 1:
            return legal[0]
        if CALL_BASE <= legal[0] < DECLARE_BASE:
            action = self._bid(view)
        else:
            declare = announce_first(view)
            if declare is not None:
                return declare
            cards = [a for a in legal if a < BELOTE_BASE]
            card = cards[0] if len(cards) == 1 else self._play(view, cards)
            action = with_belote(view, card)
        return action if action in legal else legal[0]

    # -- card play ---------------------------------------------------------------------------------

    def _play(self, view: SeatView, cards: list[int]) -> int:
        scores, raw = self.card_scores(view, cards)
        if not scores:  # not one world solved within the cap: the cheapest card
            t = TABLES[view.contract]
            return min(cards, key=lambda c: (t.points[c], t.strength[c], c))
        return self._pick(view, cards, scores, raw)

    def _pick(self, view: SeatView, cards: list[int], scores: dict[int, float], raw: dict[int, float]) -> int:
        """The card to play given each card's average deal score and raw points difference."""
        # equal deal scores (the outcome is settled in every world): the most points still count
        return max(cards, key=lambda c: (scores[c], raw[c], -c))

    def card_scores(self, view: SeatView, cards: list[int],
                    world: World | None = None) -> tuple[dict[int, float], dict[int, float]]:
        """For each of ``cards``: the average over sampled worlds of the deal score (own team's game
        points minus the other's) and of the raw points difference (own minus other's, from here),
        each card followed by perfect play in its world.  Empty when no world was solved.  Given a
        ``world`` (the real hidden cards, when analysing a played game), that world alone.

        Every card's value is exact in every world, also in trick 1 where whole deals are solved:
        a bound (enough to find a world's best card) would rate a card that loses heavily in some
        worlds as nearly best there, and the average would favour it.
        """
        k = self.knowledge(view)
        rules = k.rules
        contract = view.contract
        t = TABLES[contract]
        mult = t.multiplier
        team = view.seat & 1
        sign = 1 if team == 0 else -1
        past = [0, 0]  # raw card points of the closed tricks, per team (R6.1)
        closed = 0
        for _, tc, winner in view.tricks:
            past[winner & 1] += trick_points(t, tc, last=False)
            closed |= mask_of(tc)
        trick_winners = tuple(w for _, _, w in view.tricks)
        teams = {w & 1 for w in trick_winners}
        # R8: the team that may still take every trick (-1: either), None when both have a trick
        valat_team = teams.pop() if len(teams) == 1 else -1 if not teams else None
        remaining = trick_points(t, cards_of(FULL_DECK & ~closed), last=True) * mult
        belotes = [s for s, _ in view.belotes]
        values: dict[int, list[float]] = {c: [] for c in cards}  # each card's deal score, world by world
        raw = {c: 0.0 for c in cards}
        worlds = 0
        start = int(self.solver.stats[0])
        while (worlds < 1 if world is not None else
               self._more_worlds(worlds, int(self.solver.stats[0]) - start, values)):
            w = sample(k, self.rng) if world is None else world
            pos = Position(contract, w.hands, view.seat, view.trick, len(view.tricks), trick_winners)
            # a hard cap on the nodes of one decision bounds its time (counted, so reproducible)
            self.solver.limit(self.node_cap - (int(self.solver.stats[0]) - start))
            diffs = self.solver.card_diffs(pos, DEAL_POINTS)
            if not diffs:
                break
            score = self._scorer(view, w, rules, past, valat_team, remaining, belotes)
            for c in cards:
                values[c].append(score(diffs[c]))
                raw[c] += sign * diffs[c]
            self._solved(pos, diffs, score)
            worlds += 1
        self.solver.limit(None)
        if worlds == 0:
            return {}, {}
        means = {c: total(v) / worlds for c, v in values.items()}
        return self._rescore(view, means, start), {c: v / worlds for c, v in raw.items()}

    def knowledge(self, view: SeatView) -> Knowledge:
        """What the card play's worlds are drawn from (`sampling.Knowledge`, with this bot's budget of
        rejected draws and its reading of the other team's play); for bots that read more."""
        k = Knowledge.from_view(view)
        k.fit_budget = self.fit_budget
        k.play_eps = self.play_eps
        return k

    def _scorer(self, view: SeatView, w: World, rules: Rules, past: list[int], valat_team: int | None,
                remaining: int, belotes: list[int]) -> Callable[[int], float]:
        """The deal score (`deal_value`: own team's game points minus the other's) in world ``w`` of a
        line whose solver value from the decision's position is ``d`` (team 0's future points minus
        team 1's)."""
        contract = view.contract
        mult = TABLES[contract].multiplier
        declared = self._declarations(view, w, rules)
        to_come = _future_belote(contract, w.hands)
        fb = [0, 0]
        for seat in to_come:
            fb[seat & 1] += BELOTE_POINTS

        def score(d: int) -> float:
            # The solver's value d is team 0's future points minus team 1's: the card points
            # left (doubled in NT), the belotes to come and the valat bonus (R8).  Without a
            # valat a team's lead is at most the points left plus its belotes less the other's
            # (the other team may take a trick of no points), so a larger lead is a valat.
            lead, x = (d, 0) if d >= 0 else (-d, 1)
            valat = x if valat_team in (x, -1) and lead > remaining + fb[x] - fb[1 - x] else None
            bonus = VALAT_BONUS if valat is not None else 0
            f0 = (remaining + fb[0] + fb[1] + bonus + d) // 2
            future0 = f0 - fb[0] - (bonus if valat == 0 else 0)  # team 0's card points to come
            future = (future0 // mult, (remaining - future0) // mult)
            r = deal_result(contract, view.declarer, view.multiplier, view.pot,
                            (past[0] + future[0], past[1] + future[1]), declared,
                            belotes + to_come, valat=valat, rules=rules)
            return self.deal_value(view, r.points)

        return score

    def deal_value(self, view: SeatView, points: tuple[int, int]) -> float:
        """What a deal that gives the teams ``points`` game points is worth to the seat of ``view``, the
        measure its card play and calls maximise: pimc's is its team's points less the other's."""
        team = view.seat & 1
        return points[team] - points[1 - team]

    def _solved(self, pos: Position, diffs: dict[int, int], score: Callable[[int], float]) -> None:
        """Called with each solved world of a card decision (its position, every card's solver
        value and its deal-score function): for bots that look further into the worlds."""

    def _rescore(self, view: SeatView, means: dict[int, float], start: int) -> dict[int, float]:
        """The cards' average deal scores as the decision uses them; pimc's are the worlds' means.
        ``start`` is the solver's node count when the decision began (for bots that search more)."""
        return means

    def _more_worlds(self, worlds: int, nodes: int, values: dict[int, list[float]]) -> bool:
        """Whether to solve another world for a card: until ``min_worlds`` are solved, then while
        fewer than ``play_nodes`` solver nodes are spent, never beyond ``max_worlds``.  ``values``
        (each card's deal score in each world so far) is for bots that stop by the scores."""
        return worlds < self.max_worlds and (worlds < self.min_worlds or nodes < self.play_nodes)

    def _declarations(self, view: SeatView, w: World, rules: Rules) -> list[list[int]]:
        """The declaration ids each seat announces in world ``w`` (contested by `deal_result`)."""
        ids: list[list[int]] = [list(x) for x in w.declarations]
        ids[view.seat] = list(view.own_declarations)
        if not view.tricks and view.contract != NT:
            # trick 1: the seats still to play will announce their best declarations (R7.5)
            seen = {s for s, _ in view.trick}
            for s in range(4):
                if s != view.seat and s not in seen:
                    ids[s] = decl.best_declarations(w.hands[s], rules)
        return ids

    # -- bidding -----------------------------------------------------------------------------------

    def _test(self, pos: Position, bteam: int, x: int) -> bool | None:
        """Whether the bidding team ``bteam`` takes at least ``x`` more future points than the other
        (one null-window search: far cheaper than the exact value); None when the node cap is hit."""
        s = self.solver
        left = self.node_cap - (int(s.stats[0]) - self._decision_start)
        if left <= 0:
            return None
        s.limit(left)
        if bteam == 0:
            v = s.window(pos, DEAL_POINTS, x - 1, x)
            ok = v >= x
        else:
            v = s.window(pos, DEAL_POINTS, -x, -x + 1)
            ok = v <= -x
        s.limit(None)
        return None if s.aborted else ok

    def _outcome(self, contract: int, bteam: int, w: World, forehand: int,
                 declared: list[int]) -> tuple[int, int] | None:
        """Representative totals (team 0, team 1) of ``contract`` bid by ``bteam`` in world ``w``.

        Whether the contract is made (R9.2) is decided exactly by a null-window search on the
        bidders' future points, less ``bid_penalty`` raw points for the imperfect play of a
        declarer who does not see the cards; a made contract is placed in one of two bands
        (narrow / comfortable) by a second search.  Declarations are each seat's best (R7.4),
        contested (R7.6) in ``declared``; belote and valat are in the solver's objective.
        """
        t = TABLES[contract]
        dp = [0, 0] if contract == NT else declared  # R7.1: none in NT
        total = t.total + BELOTE_POINTS * len(_future_belote(contract, w.hands))
        thr = dp[1 - bteam] - dp[bteam] + 1  # future difference the bidders need to make it
        pen = round(self.declarer_penalty(bteam) * t.total / 162)
        band = round(0.35 * t.total)
        pos = Position(contract, w.hands, forehand)
        made = self._test(pos, bteam, thr + pen)
        if made is None:
            return None
        if not made:
            d = thr - 1 - band // 2
        else:
            wide = self._test(pos, bteam, thr + pen + band)
            if wide is None:
                return None
            d = min(total, thr + (band * 17) // 10) if wide else thr + band // 2
        fb_ = (total + d) // 2
        tb, to = fb_ + dp[bteam], total - fb_ + dp[1 - bteam]
        return (tb, to) if bteam == 0 else (to, tb)

    def declarer_penalty(self, bteam: int) -> float:
        """The raw points a contract of ``bteam`` must be made by with open cards to count as made
        (`_outcome`): ``bid_penalty`` for every declarer."""
        return self.bid_penalty

    @staticmethod
    def _candidates(own: int) -> list[int]:
        """At most two contracts worth solving for a five-card hand, strongest first.

        A quick count of the cards that take tricks in each contract kind (R4.1 orders) keeps
        the solver for the contracts the hand could play; the others are never bid.
        """
        def has(suit: int, rank: int) -> int:
            return own >> (8 * suit + rank) & 1

        scored = []
        for s in range(4):
            n = (own & SUIT_MASKS[s]).bit_count()
            score = 3 * has(s, JACK) + 2 * has(s, NINE) + has(s, ACE) + 0.5 * has(s, TEN) + 0.5 * n
            if score >= 3:
                scored.append((score, s))
        aces = sum(has(s, ACE) for s in range(4))
        tens = sum(has(s, TEN) for s in range(4))
        if aces >= 2 or (aces and tens >= 2):
            scored.append((1.5 * aces + 0.5 * tens, NT))
        jacks = sum(has(s, JACK) for s in range(4))
        nines = sum(has(s, NINE) for s in range(4))
        if jacks and jacks + nines >= 2:
            scored.append((2 * jacks + nines, AT))
        scored.sort(reverse=True)
        return [c for _, c in scored[:2]]

    def _more_bid_worlds(self, n: int, nodes: int, values: list[list[float]]) -> bool:
        """Whether to sample another deal for a call (at most ``bid_worlds``): until
        ``min_bid_worlds`` are scored, then while at most ``bid_nodes`` solver nodes are spent.
        ``values`` (each call's deal score in each deal so far, passing's too) is for bots that stop
        by the scores."""
        return n < self.min_bid_worlds or nodes <= self.bid_nodes

    def _bid(self, view: SeatView) -> int:
        """The call with the best average deal score (`call_scores`) less its margin: ``bid_margin``
        for a bid, ``kontra_margin`` for kontra and rekontra, none for passing; on a tie the first in
        `call_scores`' order (passing first when no contract stands, so a bid must beat 0)."""
        scores = self.call_scores(view)
        best_action, best = CALL_BASE + PASS, -1e9
        for a, vs in scores.items():
            v = total(vs) / len(vs) - self.call_margin(a)
            if v > best:
                best, best_action = v, a
        return best_action

    def call_margin(self, action: int) -> float:
        """What a call's average deal score must beat passing's by: ``bid_margin`` for a bid,
        ``kontra_margin`` for kontra and rekontra, none for passing."""
        call = action - CALL_BASE
        return 0.0 if call == PASS else self.kontra_margin if call in (KONTRA, REKONTRA) else self.bid_margin

    def call_scores(self, view: SeatView) -> dict[int, list[float]]:
        """Each call worth weighing, with its deal score (own team's game points minus the other's)
        in each whole deal sampled from the auction; empty when only passing is worth weighing or
        not one deal was scored within the node cap.

        The calls: a bid of each candidate contract (a quick count of the hand's trick takers,
        `_candidates`), passing (worth 0 when no contract stands; else the standing contract) and
        kontra / rekontra / surkontra of the standing contract (x2, x4, x8: `_multiplier_after`),
        in that order, passing first when no contract stands.  All are scored in the same sampled
        deals with `score_deal` (made / hanging / inside, the multiplier, the pot); deals are added
        until ``bid_nodes`` solver nodes are spent (at least ``min_bid_worlds``).
        """
        legal = set(view.legal_actions)
        current = view.contract
        actions = [CALL_BASE + BID_BASE + c for c in self._candidates(mask_of(view.hand))
                   if c > current and CALL_BASE + BID_BASE + c in legal]
        if current >= 0:
            actions += [CALL_BASE + call for call in (PASS, KONTRA, REKONTRA) if CALL_BASE + call in legal]
        if not any(a != CALL_BASE + PASS for a in actions):
            return {}
        if current < 0:
            actions.append(CALL_BASE + PASS)
        self._decision_start = int(self.solver.stats[0])
        # each call's deal score deal by deal (passing last here, first in the result)
        values: list[list[float]] = [[] for _ in actions]
        n = 0
        # the bidding model is lenient (slack 1) about partners and passers, but an opponent's bid is
        # fitted exactly: a lenient fit deals that bidder weaker cards than real bidders hold, and
        # pimc then doubled AT and NT contracts that were made (-23 and -17 points a kontra)
        slacks = [1.0] * 4
        for s, call in view.calls:
            if (s ^ view.seat) & 1 and BID_BASE <= call <= BID_BASE + AT:
                slacks[s] = 0.0
        for _ in range(self.bid_worlds):
            w = sample_auction(view, self.rng, slack=0.0, slacks=slacks)
            scored = self.deal_call_scores(view, actions, w)
            if scored is None:  # the node cap was hit in this deal
                break
            for i, a in enumerate(actions):
                values[i].append(scored[a])
            n += 1
            if not self._more_bid_worlds(n, int(self.solver.stats[0]) - self._decision_start, values):
                break
        if n == 0:
            return {}
        scores = dict(zip(actions, values))
        if current < 0:
            return {CALL_BASE + PASS: scores.pop(CALL_BASE + PASS), **scores}
        return scores

    def deal_call_scores(self, view: SeatView, actions: list[int], w: World) -> dict[int, float] | None:
        """Each call in ``actions``, with its deal score (own team's game points minus the other's) in
        the whole deal ``w``, as if the auction ended with the contract standing after it: a bid stands
        undoubled, kontra and rekontra multiply the standing contract (`_multiplier_after`), passing
        leaves it standing or, with none standing, is a redeal worth 0 (R3.6).  Each seat announces
        its best declarations (R7.4), contested (R7.6); a contract's totals are `_outcome`'s; all by
        the house rules of ``view`` (`score_deal`: made / hanging / inside, the multiplier, the pot).
        None when the node cap was hit.  pimc's bidding and `belot analyze` both value calls here."""
        me = view.seat & 1
        rules = view.rules
        terms: list[tuple[int, int, int]] = []  # (action, contract, bidding team); contract -1: a redeal
        for a in actions:
            call = a - CALL_BASE
            if BID_BASE <= call < KONTRA:
                terms.append((a, call - BID_BASE, me))
            else:
                terms.append((a, view.contract, view.declarer & 1 if view.contract >= 0 else me))
        own = [decl.best_declarations(h, rules) for h in w.hands]
        declared = decl.contest((own[0] + own[2], own[1] + own[3]), rules)
        forehand = (view.dealer + 1) & 3
        outcomes: dict[tuple[int, int], tuple[int, int]] = {}
        for contract, bteam in {(c, b) for _, c, b in terms if c >= 0}:
            o = self._outcome(contract, bteam, w, forehand, declared)
            if o is None:
                return None
            outcomes[(contract, bteam)] = o
        out: dict[int, float] = {}
        for a, c, b in terms:
            if c < 0:
                out[a] = 0
                continue
            sc = score_deal(c, b, outcomes[(c, b)], _multiplier_after(a - CALL_BASE, view.multiplier),
                            view.pot, rules)
            out[a] = self.deal_value(view, sc.points)
        return out
