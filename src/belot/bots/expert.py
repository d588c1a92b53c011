"""The ``expert`` bot: `pimc` that searches more where a decision is close (issue 24).

`pimc` stays as it is, the reference every change is measured against (`bench/paired.py`,
docs/strength.md).  pimc spends a fixed amount of search on every decision: a number of sampled
worlds (cards) or deals (calls) bounded by solver nodes.  Its choice is the best average over those
samples, and with a few samples the average of a card or call that is not the best can come out on
top by chance.  ``expert`` measures that chance as it goes: after pimc's own amount of search it goes
on sampling while the leader's lead over the runner-up, per sample (the same worlds for both), is
within two standard errors of zero and that lead could be worth something, up to a larger budget.
Decisions that are clear cost what they cost pimc; close ones get up to several times the worlds.

Everything else (sampling, the solver, scoring of worlds, bidding by null-window searches) is
`pimc`'s, so each rule stays in one place.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

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


class ExpertBot(PimcBot):
    name = "expert"

    def __init__(self, seed: int | None = None, **params: Any) -> None:
        """``params`` override `BUDGETS` or pimc's other parameters (tests use small budgets)."""
        super().__init__(seed, **{**BUDGETS, **params})

    def _more_worlds(self, worlds: int, nodes: int, values: dict[int, list[int]]) -> bool:
        if super()._more_worlds(worlds, nodes, values):
            return True
        return (worlds < self.max_worlds and nodes < PLAY_EXTRA * self.play_nodes
                and close(list(values.values())))

    def _more_bid_worlds(self, n: int, nodes: int, values: list[list[int]]) -> bool:
        if super()._more_bid_worlds(n, nodes, values):
            return True
        return nodes <= BID_EXTRA * self.bid_nodes and close(values)
