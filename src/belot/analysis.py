"""Analysis of a played game: how much each decision with a choice cost its player (issue 22).

Every decision a player made with a choice (a card, a call, the declarations announced in trick 1,
announcing belote or not) gets two figures, both in game points of the deal score as
`belot.scoring.deal_result` gives it (contract, multiplier, declarations, belote, valat, the hanging
pot), counted as the *margin*: the player's team's game points minus the other team's, as the
`pimc` bot counts them (a swing of one game point from one team to the other is 2):

* **expected loss** (the figure shown first): over worlds of the hidden cards drawn from that
  seat's view at that moment by the sampler `pimc` uses (`belot.bots.sampling`; never the real
  hidden cards), the average margin of the best option by that average minus the chosen one's;
* **open-card loss**: the same evaluation with the real cards as the one world: the margin after the
  best option minus after the option chosen, all four then playing perfectly with open cards.

How each kind of decision is evaluated, the classes (`classify`), the accuracy and the JSON form
(`MatchAnalysis.to_json`) are in docs/analysis.md.  `costliest` is the coaching hook: a seat's most
expensive decision of one finished deal.  Figures depend only on the record, the seed and the world
counts: every decision draws its worlds from its own generator, seeded by (seed, deal, action index),
so the figures do not depend on ``jobs`` or on the order deals are analysed in.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from . import declarations as decl
from .auction import BID_BASE, KONTRA, PASS, REKONTRA
from .bots.pimc import PimcBot
from .bots.sampling import FIT_BUDGET, Knowledge, World, sample, sample_auction
from .cards import mask_of
from .contracts import CONTRACT_NAMES
from .floats import total
from .game import BELOTE_BASE, CALL_BASE, DECLARE_BASE, PLAY, Deal, Match, SeatView, action_name, call_actions
from .scoring import REDEAL, deal_result

CARD, CALL, DECLARATION, BELOTE = "card", "call", "declaration", "belote"
BEST, INACCURACY, MISTAKE, BLUNDER = "best", "inaccuracy", "mistake", "blunder"
CLASSES = (BEST, INACCURACY, MISTAKE, BLUNDER)
# Lower bounds of the classes, in game points of expected loss (margin); how they were chosen from
# the losses of bots' games is in docs/analysis.md.
THRESHOLDS = {INACCURACY: 2.0, MISTAKE: 5.0, BLUNDER: 10.0}

PLAY_WORLDS = 8  # worlds per card / declaration decision
CALL_WORLDS = 8  # whole deals per call decision
PLAY_EPS = 0.2  # `pimc`'s default: chance of keeping a world for each misfitting play of the other team


def classify(loss: float) -> str:
    """The class of an expected loss (game points): best below the inaccuracy threshold.

    >>> classify(0.0), classify(THRESHOLDS[BLUNDER])
    ('best', 'blunder')
    """
    out = BEST
    for name in (INACCURACY, MISTAKE, BLUNDER):
        if loss >= THRESHOLDS[name] - 1e-9:
            out = name
    return out


@dataclass(frozen=True)
class Decision:
    """One decision with a choice and what it cost.  ``options`` holds each option evaluated:
    (action name, average margin over the sampled worlds, margin in the real world); empty, with
    ``worlds`` 0, for a decision settled without search (belote, R7.4's best declarations)."""

    deal: int
    seat: int
    kind: str  # CARD, CALL, DECLARATION or BELOTE
    auction: int | None  # index into the record's auction list (calls)
    play: int | None  # index into the record's play list (the first entry of a declaration choice)
    trick: int | None  # 1-8 in the play phase
    chosen: str
    best: str  # best option by expected margin
    best_open: str | None  # best option with open cards
    expected_loss: float
    open_loss: float | None  # None: the record holds only five cards a hand (all passed, R2.3)
    options: tuple[tuple[str, float, float | None], ...]
    worlds: int

    @property
    def klass(self) -> str:
        return classify(self.expected_loss)

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat, "kind": self.kind, "auction": self.auction, "play": self.play,
            "trick": self.trick, "chosen": self.chosen, "best": self.best, "best_open": self.best_open,
            "expected_loss": round(self.expected_loss, 3), "open_loss": _round(self.open_loss),
            "class": self.klass, "worlds": self.worlds,
            "options": [{"action": a, "expected": round(e, 3), "open": _round(o)} for a, e, o in self.options],
        }


def _round(x: float | None) -> float | None:
    return None if x is None else round(x, 3)


@dataclass(frozen=True)
class Summary:
    """One seat's figures over some decisions (a deal, a match).  ``accuracy`` is the percentage of
    its decisions classed best (expected loss under the inaccuracy threshold); None without any."""

    seat: int
    decisions: int
    loss_sum: float
    loss_mean: float
    open_loss_sum: float
    open_loss_mean: float
    classes: dict[str, int]
    accuracy: float | None

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat, "decisions": self.decisions, "loss_sum": round(self.loss_sum, 3),
            "loss_mean": round(self.loss_mean, 3), "open_loss_sum": round(self.open_loss_sum, 3),
            "open_loss_mean": round(self.open_loss_mean, 3), "classes": dict(self.classes),
            "accuracy": None if self.accuracy is None else round(self.accuracy, 1),
        }


def summarize(decisions: Sequence[Decision]) -> list[Summary]:
    """Per seat 0-3: sums, means, class counts and accuracy of ``decisions``."""
    out = []
    for seat in range(4):
        mine = [x for x in decisions if x.seat == seat]
        n = len(mine)
        loss = total(x.expected_loss for x in mine)
        opens = [x.open_loss for x in mine if x.open_loss is not None]
        open_loss = total(opens)
        classes = {c: sum(x.klass == c for x in mine) for c in CLASSES}
        out.append(Summary(seat, n, loss, loss / n if n else 0.0, open_loss, open_loss / len(opens) if opens else 0.0,
                           classes, 100.0 * classes[BEST] / n if n else None))
    return out


@dataclass(frozen=True)
class DealAnalysis:
    """The decisions of one deal of a match, with its contract and result."""

    deal: int
    dealer: int
    contract: int  # -1: all four passed
    declarer: int
    multiplier: int
    points: tuple[int, int]
    decisions: tuple[Decision, ...]

    def summary(self) -> list[Summary]:
        return summarize(self.decisions)

    def to_json(self) -> dict[str, Any]:
        return {
            "deal": self.deal, "dealer": self.dealer,
            "contract": CONTRACT_NAMES[self.contract] if self.contract >= 0 else None,
            "declarer": self.declarer if self.contract >= 0 else None, "multiplier": self.multiplier,
            "points": list(self.points), "decisions": [x.to_json() for x in self.decisions],
            "summary": [s.to_json() for s in self.summary()],
        }


@dataclass(frozen=True)
class MatchAnalysis:
    players: tuple[str, ...]
    seed: int
    deals: tuple[DealAnalysis, ...]
    settings: dict[str, int] = field(default_factory=dict)

    def summary(self) -> list[Summary]:
        return summarize([x for d in self.deals for x in d.decisions])

    def to_json(self) -> dict[str, Any]:
        return {
            "format": "belot-analysis/1", "seed": self.seed, "players": list(self.players),
            "settings": dict(self.settings),
            "thresholds": dict(THRESHOLDS), "measure": "game points, own team minus the other team",
            "deals": [d.to_json() for d in self.deals],
            "summary": [s.to_json() for s in self.summary()],
        }


# -- evaluating one decision ---------------------------------------------------------------------


class Analyst:
    """Evaluates decisions: one exact judge (the `pimc` bot's solver and scoring, no node cap)."""

    def __init__(self, seed: int = 0, play_worlds: int = PLAY_WORLDS, call_worlds: int = CALL_WORLDS) -> None:
        self.seed = seed
        self.play_worlds = play_worlds
        self.call_worlds = call_worlds
        # no node cap (exact values whatever the solver's table holds); no bidding penalty: the
        # evaluation assumes perfect play after the decision
        self.judge = PimcBot(seed, node_cap=1 << 62, bid_penalty=0.0)

    def rng(self, deal: int, index: int) -> random.Random:
        """The generator of one decision: a function of (seed, deal, action index) only."""
        return random.Random(f"belot-analysis:{self.seed}:{deal}:{index}")

    # The three evaluations return {option action: margin} for each world given.

    def play_worlds_of(self, view: SeatView, rng: random.Random) -> list[World]:
        k = Knowledge.from_view(view)
        k.fit_budget = FIT_BUDGET
        k.play_eps = PLAY_EPS
        return [sample(k, rng) for _ in range(self.play_worlds)]

    def card_values(self, view: SeatView, w: World) -> dict[int, float]:
        """Each legal card's margin in world ``w``, everyone playing perfectly after it."""
        cards = [a for a in view.legal_actions if a < BELOTE_BASE]
        scores, _ = self.judge.card_scores(view, cards, world=w)
        return scores

    def declaration_values(self, view: SeatView, options: list[tuple[int, ...]], w: World) -> dict[int, float]:
        """Margin of announcing each set of declaration ids in ``options`` (by position), then the
        best card and perfect play: the declarations change only the score, not the play."""
        out = {}
        for i, ids in enumerate(options):
            out[i] = max(self.card_values(replace(view, own_declarations=ids), w).values())
        return out

    def call_values(self, view: SeatView, options: list[int], w: World) -> dict[int, float]:
        """Margin of each call in ``options`` in the whole deal ``w``: the deal scored as if the
        auction ended with the contract standing after the call (passing with none standing: a
        redeal, 0), each seat announcing its best declarations, the play perfect: pimc's own value
        of a call in one deal (`PimcBot.deal_call_scores`, a made contract placed in a narrow or a
        comfortable band), by the house rules of the game."""
        scores = self.judge.deal_call_scores(view, options, w)
        if scores is None:  # cannot happen without a node cap
            raise RuntimeError("the solver gave up")
        return {a: float(v) for a, v in scores.items()}


Options = tuple[tuple[str, float, float | None], ...]


def _losses(names: dict[int, str], chosen: int, sampled: list[dict[int, float]],
            truth: dict[int, float] | None) -> tuple[str, str | None, float, float | None, Options]:
    """(best, best with open cards, expected loss, open-card loss, options) from per-world margins."""
    keys = list(names)
    avg = {k: total(s[k] for s in sampled) / len(sampled) for k in keys}
    best = max(keys, key=lambda k: (avg[k], k == chosen))
    options = tuple(sorted(((names[k], avg[k], None if truth is None else truth[k]) for k in keys),
                           key=lambda o: -o[1]))
    if truth is None:
        return names[best], None, avg[best] - avg[chosen], None, options
    best_open = max(keys, key=lambda k: (truth[k], k == chosen))
    return names[best], names[best_open], avg[best] - avg[chosen], truth[best_open] - truth[chosen], options


def evaluate(analyst: Analyst, view: SeatView, kind: str, chosen: int, truth: World | None,
             rng: random.Random, worlds: Sequence[World] | None = None,
             declared: tuple[int, ...] = ()) -> tuple[str, str | None, float, float | None, Options, int]:
    """One decision of the seat of ``view``: (best, best open, expected loss, open loss, options, worlds).

    ``kind`` CARD: ``chosen`` is the card; CALL: the call action; DECLARATION: ``declared`` holds
    the ids announced (``chosen`` is ignored).  Worlds are drawn from the view with ``rng`` unless
    ``worlds`` are given; ``truth`` (the real cards) gives the open-card figures only (None: none).
    """
    if kind == CARD:
        names = {c: action_name(c) for c in view.legal_actions if c < BELOTE_BASE}
        if worlds is None:
            worlds = analyst.play_worlds_of(view, rng)

        def value(w: World) -> dict[int, float]:
            return analyst.card_values(view, w)
    elif kind == DECLARATION:
        best_ids = tuple(decl.best_declarations(mask_of(view.hand), view.rules))  # R7.2, R7.4 as in force
        if sorted(best_ids) == sorted(declared):
            # R7.4's best set announced: more of the own team's points never lower its margin, so
            # nothing is searched (each set compared costs a solve a world)
            name = _declaration_name(declared)
            return name, name, 0.0, 0.0, (), 0
        opts: list[tuple[int, ...]] = [tuple(declared), best_ids]
        names = {i: _declaration_name(ids) for i, ids in enumerate(opts)}
        chosen = 0
        if worlds is None:
            worlds = analyst.play_worlds_of(view, rng)

        def value(w: World) -> dict[int, float]:
            return analyst.declaration_values(view, opts, w)
    elif kind == CALL:
        calls = _call_options(view, chosen)
        names = {a: action_name(a) for a in calls}
        if worlds is None:
            worlds = [sample_auction(view, rng) for _ in range(analyst.call_worlds)]

        def value(w: World) -> dict[int, float]:
            return analyst.call_values(view, calls, w)
    else:
        raise ValueError(f"no evaluation for {kind!r} decisions")
    sampled = [value(w) for w in worlds]
    best, best_open, loss, open_loss, options = _losses(names, chosen, sampled,
                                                        None if truth is None else value(truth))
    return best, best_open, loss, open_loss, options, len(worlds)


def _declaration_name(ids: Sequence[int]) -> str:
    if not ids:
        return "none"
    return " + ".join(action_name(DECLARE_BASE + i)[len("declare "):] for i in sorted(ids))


def _call_options(view: SeatView, chosen: int) -> list[int]:
    """The calls compared: passing, kontra and rekontra when legal, the bids of the contracts the
    hand could play (`PimcBot._candidates`, the quick count pimc bids with) and the call made."""
    legal = set(view.legal_actions)
    want = {CALL_BASE + PASS, CALL_BASE + KONTRA, CALL_BASE + REKONTRA, chosen}
    want |= {CALL_BASE + BID_BASE + c for c in PimcBot._candidates(mask_of(view.hand))}
    return sorted(a for a in want if a in legal)


# -- a whole deal --------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Step:
    """A decision found in a deal's replay, before it is evaluated."""

    kind: str
    seat: int
    index: int  # action index in the deal
    auction: int | None
    play: int | None
    trick: int | None
    view: SeatView
    chosen: int
    truth: World | None
    declared: tuple[int, ...] = ()


def decisions_of(played: Deal) -> list[_Step]:
    """Every decision with a choice in a finished deal, with the view it was made from."""
    d = Deal(played.dealer, played.dealt, played.rules, played.pot)
    steps: list[_Step] = []
    actions, actors = played.actions, played.actors
    n_calls = n_play = 0
    chose_declarations: set[int] = set()  # seats whose declaration choice is taken
    i = 0
    while i < len(actions):
        a, seat = actions[i], actors[i]
        view = d.view(seat)
        legal = view.legal_actions
        if d.phase != PLAY:
            five = len(d.dealt[0]) < 8
            if five:
                # A record of an all-pass deal may hold five cards a hand (R2.3): the deal can only
                # go on with passes, but at the table the seat had every call of the auction open.
                legal = call_actions(d.auction.legal_mask())
                view = replace(view, legal_actions=legal)
            if len(legal) > 1:
                # no open cards in a five-card record: its last three cards were never dealt
                truth = None if five else World(tuple(mask_of(h) for h in d.dealt), ((), (), (), ()))  # type: ignore[arg-type]
                steps.append(_Step(CALL, seat, i, n_calls, None, None, view, a, truth))
            d.apply(a)
            n_calls += 1
            i += 1
            continue
        trick = len(view.tricks) + 1

        def truth_of(actor: int) -> World:
            return World(tuple(d.hands), tuple(() if s == actor else tuple(x)  # type: ignore[arg-type]
                                               for s, x in enumerate(d.declared)))
        if seat not in chose_declarations and any(x >= DECLARE_BASE for x in legal):
            chose_declarations.add(seat)
            # the declarations announced at this turn, then the card: one choice of a set
            ids = []
            j = i
            while actions[j] >= DECLARE_BASE:
                ids.append(actions[j] - DECLARE_BASE)
                j += 1
            steps.append(_Step(DECLARATION, seat, i, None, n_play, trick, view, 0, truth_of(seat), tuple(ids)))
            for x in actions[i:j]:
                d.apply(x)
                n_play += 1
            i = j
            continue
        card = a - BELOTE_BASE if BELOTE_BASE <= a < CALL_BASE else a
        if sum(x < BELOTE_BASE for x in legal) > 1:
            steps.append(_Step(CARD, seat, i, None, n_play, trick, view, card, truth_of(seat)))
        if BELOTE_BASE + card in legal:
            steps.append(_Step(BELOTE, seat, i, None, n_play, trick, view, a, truth_of(seat)))
        d.apply(a)
        n_play += 1
        i += 1
    return steps


def _belote_loss(played: Deal, seat: int) -> float:
    """What withholding a belote cost: the finished deal's margin for ``seat``'s team with the
    belote announced minus without (the rest of the deal as played)."""
    r = played.result
    assert r is not None
    belotes = [s for s, _ in played.belotes]
    alt = deal_result(r.contract, r.declarer, r.multiplier, played.pot,
                      (played.team_points[0], played.team_points[1]), played.declared, [*belotes, seat],
                      tuple(played.trick_winners), rules=played.rules)
    me = seat & 1
    return float((alt.points[me] - alt.points[1 - me]) - (r.points[me] - r.points[1 - me]))


def analyze_deal(analyst: Analyst, played: Deal, index: int,
                 step: Callable[[], None] | None = None, seats: Collection[int] = (0, 1, 2, 3)) -> DealAnalysis:
    """All decisions of ``seats`` in the finished deal ``played`` (deal ``index`` of its match),
    evaluated; ``step`` is called after each (a progress bar).  A decision's figures do not depend on
    which others are analysed."""
    if not played.is_over or played.result is None:
        raise ValueError(f"deal {index} is not finished")
    out = []
    for s in decisions_of(played):
        if s.seat not in seats:
            continue
        if s.kind == BELOTE:
            announced = s.chosen >= BELOTE_BASE
            loss = 0.0 if announced else _belote_loss(played, s.seat)
            chosen = "belote" if announced else "no belote"
            x = Decision(index, s.seat, BELOTE, None, s.play, s.trick, chosen, "belote", "belote", loss, loss,
                         (), 0)
        else:
            best, best_open, loss, open_loss, options, n = evaluate(
                analyst, s.view, s.kind, s.chosen, s.truth, analyst.rng(index, s.index), declared=s.declared)
            chosen = (action_name(s.chosen) if s.kind != DECLARATION else _declaration_name(s.declared))
            x = Decision(index, s.seat, s.kind, s.auction, s.play, s.trick, chosen, best, best_open,
                         loss, open_loss, options, n)
        out.append(x)
        if step is not None:
            step()
    r = played.result
    return DealAnalysis(index, played.dealer, r.contract if r.outcome != REDEAL else -1, r.declarer,
                        r.multiplier, r.points, tuple(out))


def costliest(analysis: DealAnalysis, seat: int) -> Decision | None:
    """The coaching hook: ``seat``'s decision of the deal with the largest expected loss (the
    earliest among equals), or None when it lost nothing (or had no choice)."""
    mine = [x for x in analysis.decisions if x.seat == seat and x.expected_loss > 1e-9]
    return max(mine, key=lambda x: x.expected_loss, default=None)


def coach(played: Deal, seat: int, seed: int = 0, index: int = 0,
          analyst: Analyst | None = None) -> Decision | None:
    """`costliest` of a finished deal, only ``seat``'s decisions analysed (a few seconds): what
    ``belot play --coach`` is to show.  ``index`` is the deal's index in its match (it seeds the worlds,
    so the figures are those of ``belot analyze --seed SEED`` for that deal)."""
    return costliest(analyze_deal(analyst or Analyst(seed), played, index, seats=(seat,)), seat)


def analyzable(match: Match) -> list[int]:
    """The indices of the match's finished deals."""
    return [i for i, d in enumerate(match.deals) if d.is_over and d.result is not None]


def analyze_match(match: Match, players: Sequence[str], seed: int = 0, deals: Sequence[int] | None = None,
                  analyst: Analyst | None = None, step: Callable[[], None] | None = None) -> MatchAnalysis:
    """`analyze_deal` for each of ``deals`` (default: every finished deal), in one process."""
    a = analyst or Analyst(seed)
    todo = analyzable(match) if deals is None else list(deals)
    out = tuple(analyze_deal(a, match.deals[i], i, step) for i in todo)
    return MatchAnalysis(tuple(players), seed, out, {"play_worlds": a.play_worlds, "call_worlds": a.call_worlds})


__all__ = [
    "BELOTE", "BEST", "BLUNDER", "CALL", "CARD", "CLASSES", "DECLARATION", "INACCURACY", "MISTAKE",
    "THRESHOLDS", "Analyst", "DealAnalysis", "Decision", "MatchAnalysis", "Summary", "analyzable",
    "analyze_deal", "analyze_match", "classify", "coach", "costliest", "decisions_of", "evaluate", "summarize",
]
