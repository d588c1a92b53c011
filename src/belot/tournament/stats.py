"""The figures of a duplicate tournament and their intervals, from the played match pairs.

All figures are from bot A's side:
* points per deal: for each deal pair, the mean over its two matches of (A's team game points -
  B's team game points) in that deal; the estimate is the mean over all deal pairs.  Its standard
  error is cluster-robust, clustering by match pair (deals of one match share a score and a
  hanging pot, so they are not independent; the pairing of the two tables is in each deal pair's
  difference already): the match pairs are taken as the independent units, k of them, and the 95%
  interval is mean +- t * stderr with Student's t at k - 1 degrees of freedom (the usual
  small-sample correction for few clusters: with 2 to 8 match pairs, `--deals 10` to `40`, a
  normal interval covered the long-run lead only 71% to 92% of the time; this one 93% to 96%).
* match win rate: matches won by A over matches played, with the Wilson 95% interval (treating
  the matches as independent; the two matches of a pair hold the same cards, which makes their
  outcomes negatively correlated, so the interval is if anything conservative).
* decision time per side: median, p95 and max of the wall time of each ``act`` call.  Timing is
  the only figure that is not reproducible.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .. import floats

if TYPE_CHECKING:
    from .duplicate import PairOutcome, TournamentSpec

Z95 = 1.959963984540054


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a proportion."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def t_quantile(p: float, df: int) -> float:
    """The ``p`` quantile (p in (0.5, 1)) of Student's t with ``df`` >= 1 degrees of freedom, found
    by bisection on the exact finite-sum distribution function of integer df (Abramowitz & Stegun
    26.7.3-26.7.4).  Pure Python: scipy is not a dependency.

    >>> round(t_quantile(0.975, 1), 4), round(t_quantile(0.975, 10), 4), round(t_quantile(0.975, 1000), 4)
    (12.7062, 2.2281, 1.9623)
    """
    if df < 1 or not 0.5 < p < 1:
        raise ValueError(f"t_quantile needs p in (0.5, 1) and df >= 1, not p={p}, df={df}")
    want = 2 * p - 1  # P(|T| <= t)
    lo, hi = 0.0, 1.0
    while _t_central(hi, df) < want:
        lo, hi = hi, 2 * hi
    for _ in range(100):
        mid = (lo + hi) / 2
        if _t_central(mid, df) < want:
            lo = mid
        else:
            hi = mid
    return hi


def _t_central(t: float, df: int) -> float:
    """P(|T| <= t) for Student's t with ``df`` degrees of freedom (A&S 26.7.3-26.7.4)."""
    theta = math.atan(t / math.sqrt(df))
    c2 = math.cos(theta) ** 2
    if df % 2:
        if df == 1:
            return 2 * theta / math.pi
        term = acc = math.cos(theta)
        for k in range(3, df - 1, 2):
            term *= c2 * (k - 1) / k
            acc += term
        return 2 / math.pi * (theta + math.sin(theta) * acc)
    term = acc = 1.0
    for k in range(2, df - 1, 2):
        term *= c2 * (k - 1) / k
        acc += term
    return math.sin(theta) * acc


def _quantile(sorted_values: Sequence[float], q: float) -> float:
    """Nearest-rank quantile of sorted values."""
    if not sorted_values:
        return float("nan")
    i = min(len(sorted_values) - 1, max(0, math.ceil(q * len(sorted_values)) - 1))
    return sorted_values[i]


def timing_summary(times: Sequence[float]) -> dict[str, float | int]:
    s = sorted(times)
    return {
        "decisions": len(s),
        "median_ms": round(_quantile(s, 0.5) * 1e3, 4),
        "p95_ms": round(_quantile(s, 0.95) * 1e3, 4),
        "max_ms": round(s[-1] * 1e3, 4) if s else float("nan"),
    }


def clustered_mean(sums: Sequence[float], counts: Sequence[int]) -> tuple[float, float, float]:
    """The mean per unit over clusters of units, its cluster-robust standard error and the half width
    of its 95% interval: (mean, stderr, half).  Cluster c holds ``counts[c]`` units whose values add up
    to ``sums[c]``; the clusters are the independent draws, the units within one need not be.  The
    mean is the ratio sum(sums) / sum(counts); its variance is the CR1 sandwich of a regression on a
    constant, k / (k - 1) * sum((sums[c] - mean * counts[c])^2) / sum(counts)^2 over k clusters, and
    the interval is mean +- t * stderr with Student's t at k - 1 degrees of freedom.  With fewer than
    two clusters the standard error and the half width are nan (and with no units, the mean too).

    >>> mean, se, half = clustered_mean([6.0, 2.0], [2, 2])  # cluster means 3 and 1: se = |3 - 1| / 2
    >>> mean, se, round(half, 4)  # t(1)
    (2.0, 1.0, 12.7062)
    """
    total = sum(counts)
    mean = floats.total(sums) / total if total else float("nan")
    k = len(sums)
    if k > 1 and total:
        var = k / (k - 1) * floats.total((y - mean * n) ** 2 for y, n in zip(sums, counts)) / (total * total)
        se = math.sqrt(var)
        return mean, se, t_quantile(0.975, k - 1) * se
    return mean, float("nan"), float("nan")


def figures(spec: TournamentSpec, pairs: Sequence[PairOutcome], timing: bool = True) -> dict[str, Any]:
    """The tournament's figures (JSON-ready); all but ``timing`` depend only on the spec."""
    ys: list[float] = []  # per match pair: sum over its deal pairs of the pair difference
    ns: list[int] = []
    a_points = b_points = 0.0
    deals_played = 0
    wins = matches = both = split = 0
    times: list[list[float]] = [[], []]  # by side: A, B
    bids = [{"contracts": 0, "made": 0, "hanging": 0, "inside": 0, "doubled": 0} for _ in range(2)]
    for pair in pairs:
        h0, h1 = pair.halves
        n = pair.paired
        y = 0.0
        for j in range(n):
            a0, b0 = h0.deal_points[j]  # A is team 0
            b1, a1 = h1.deal_points[j]  # A is team 1
            y += ((a0 - b0) + (a1 - b1)) / 2
            a_points += (a0 + a1) / 2
            b_points += (b0 + b1) / 2
        ys.append(y)
        ns.append(n)
        deals_played += len(h0.deal_points) + len(h1.deal_points)
        won = (h0.winner == 0) + (h1.winner == 1)
        wins += won
        matches += 2
        both += won == 2
        split += won == 1
        for s in range(4):
            times[s & 1].extend(h0.times[s])  # half 0: A at seats 0 and 2
            times[1 - (s & 1)].extend(h1.times[s])
        for half, h in enumerate(pair.halves):
            for contract, declarer, multiplier, outcome in h.contracts:
                if contract < 0:
                    continue
                side = (declarer & 1) ^ half  # 0 when A's team declared
                b = bids[side]
                b["contracts"] += 1
                b[outcome] += 1
                b["doubled"] += multiplier > 1
    total = sum(ns)
    k = len(ys)
    mean, se, margin = clustered_mean(ys, ns)
    lo, hi = wilson(wins, matches)
    out: dict[str, Any] = {
        "bot_a": spec.bot_a,
        "bot_b": spec.bot_b,
        "seed": spec.seed,
        "target": spec.target,
        "deals_requested": spec.deals,
        "match_pairs": k,
        "matches": matches,
        "deal_pairs": total,
        "deals_played": deals_played,
        "points_per_deal": {
            "a": _r(a_points / total if total else float("nan")),
            "b": _r(b_points / total if total else float("nan")),
            "difference": _r(mean),
            "ci95": [_r(mean - margin), _r(mean + margin)],
            "stderr": _r(se),
        },
        "match_wins": {
            "a": wins,
            "b": matches - wins,
            "win_rate": _r(wins / matches if matches else float("nan")),
            "ci95": [_r(lo), _r(hi)],
            "pairs_won_both": both,
            "pairs_split": split,
            "pairs_lost_both": k - both - split,
        },
    }
    if spec.options:  # the house rules (absent under the defaults, so default figures are unchanged)
        out["options"] = list(spec.options)
    out["contracts"] = {"a": bids[0], "b": bids[1]}  # over all deals played, both halves
    if timing:
        out["timing"] = {"a": timing_summary(times[0]), "b": timing_summary(times[1])}
    return out


def _r(x: float) -> float | None:
    return None if math.isnan(x) else round(x, 4)
