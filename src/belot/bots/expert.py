"""The ``expert`` bot: `pimc` that searches more where a decision is close (issue 24).

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

Everything else (sampling, the solver, scoring of worlds, bidding by null-window searches) is
`pimc`'s, so each rule stays in one place.
"""

from __future__ import annotations

import hashlib
import math
import random
from collections.abc import Sequence
from typing import Any

from ..game import SeatView
from .pimc import PimcBot

# pimc's parameters that expert changes (the others are pimc's)
BUDGETS: dict[str, int] = {"max_worlds": 96, "bid_worlds": 64, "node_cap": 8_000_000}
PLAY_EXTRA = 3  # a close card may take up to this many times pimc's play_nodes
BID_EXTRA = 1.6  # a close call up to this many times pimc's bid_nodes
Z = 2.0  # a lead of this many standard errors settles a decision
MATTERS = 0.5  # game points: a standard error of the lead below this settles it too


def close(samples: Sequence[Sequence[int]]) -> bool:
    """Whether the option with the best mean might not be the best: its lead per sample over the
    runner-up (paired: the same samples) is within ``Z`` standard errors, and that error is at least
    ``MATTERS`` game points."""
    n = len(samples[0])
    if len(samples) < 2 or n < 2:
        return False
    order = sorted(range(len(samples)), key=lambda i: sum(samples[i]), reverse=True)
    a, b = samples[order[0]], samples[order[1]]
    d = [x - y for x, y in zip(a, b)]
    mean = sum(d) / n
    var = sum((x - mean) ** 2 for x in d) / (n - 1)
    se = math.sqrt(var / n)
    return se >= MATTERS and mean < Z * se


def view_key(view: SeatView) -> bytes:
    """A stable digest of what the search reads in a view: the seat, its own cards, every public call,
    card, declaration and belote, the pot and the house rules.  The match score, target and history
    are left out (the search does not use them).  ``repr`` of tuples of ints and strings is the same
    in every process, unlike ``hash()`` of a string."""
    parts = (view.seat, view.dealer, view.phase, view.to_move, view.hand, view.calls, view.contract,
             view.declarer, view.multiplier, view.tricks, view.trick, view.announced,
             view.own_declarations, view.belotes, view.legal_actions, view.pot, view.options)
    return hashlib.blake2b(repr(parts).encode(), digest_size=16).digest()


class ExpertBot(PimcBot):
    name = "expert"

    def __init__(self, seed: int | None = None, **params: Any) -> None:
        """``params`` override `BUDGETS` or pimc's other parameters (tests use small budgets).
        Without a seed the bot draws one, so it stays unpredictable."""
        super().__init__(seed, **{**BUDGETS, **params})
        self.seed = seed if seed is not None else random.SystemRandom().getrandbits(64)

    def decision_seed(self, view: SeatView) -> int:
        """The seed of the samples for ``view``: a function of the bot's seed and the view only."""
        base = str(self.seed).encode() + b":"
        return int.from_bytes(hashlib.blake2b(base + view_key(view), digest_size=8).digest(), "big")

    def act(self, view: SeatView) -> int:
        # common random numbers: the same view, the same samples (module docstring)
        self.rng = random.Random(self.decision_seed(view))
        return super().act(view)

    def _more_worlds(self, worlds: int, nodes: int, values: dict[int, list[int]]) -> bool:
        if super()._more_worlds(worlds, nodes, values):
            return True
        return (worlds < self.max_worlds and nodes < PLAY_EXTRA * self.play_nodes
                and close(list(values.values())))

    def _more_bid_worlds(self, n: int, nodes: int, values: list[list[int]]) -> bool:
        if super()._more_bid_worlds(n, nodes, values):
            return True
        return nodes <= BID_EXTRA * self.bid_nodes and close(values)
