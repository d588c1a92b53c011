"""Decision time of each registered bot on positions from real games, in one process.

Positions: every decision of a few seeded deals played by the ``heuristic`` bot (random bidding
is not a useful source of positions), then a random sample of ``--positions`` of them, bidding,
declarations and card play mixed as they come.  Each bot answers every sampled position (the
slow ones, e.g. ``pimc``, a smaller sample: ``--slow-positions``); the figures are the wall time
per ``act`` call.  Timing depends on the machine's load: quote it with the load.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time

from argtypes import positive
from running import run

from belot.bots import REGISTRY, make_bot
from belot.game import Deal, SeatView, deal_hands

FAST = {"random", "heuristic"}


def positions(n: int, seed: int) -> list[SeatView]:
    rng = random.Random(seed)
    bots = [make_bot("heuristic", seed=s) for s in range(4)]
    views: list[SeatView] = []
    k = 0
    while len(views) < 4 * n:
        d = Deal(k & 3, deal_hands(rng, k & 3))
        while not d.is_over:
            view = d.view(d.current_player)
            views.append(view)
            d.apply(bots[view.seat].act(view))
        k += 1
    return rng.sample(views, n)


def quantile(sorted_values: list[float], q: float) -> float:
    i = min(len(sorted_values) - 1, max(0, int(q * len(sorted_values) + 0.999999) - 1))
    return sorted_values[i]


def summary(times: list[float]) -> str:
    s = sorted(times)
    return (
        f"{len(s)} decisions, median {statistics.median(s) * 1e3:.3f} ms, "
        f"p95 {quantile(s, 0.95) * 1e3:.3f} ms, max {s[-1] * 1e3:.3f} ms"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--positions", type=positive, default=400)
    ap.add_argument("--slow-positions", type=positive, default=60)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--bots", nargs="*", default=sorted(REGISTRY))
    args = ap.parse_args()
    sample = positions(args.positions, args.seed)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"positions: {len(sample)} from real deals (seed {args.seed}); load average {load:.2f}")
    for name in args.bots:
        bot = make_bot(name, seed=args.seed)
        views = sample if name in FAST else sample[: args.slow_positions]
        bot.act(views[0])  # warm-up (imports, compiled kernels)
        times: list[float] = []
        by_phase: dict[str, list[float]] = {"auction": [], "play": []}
        for view in views:
            start = time.perf_counter()
            action = bot.act(view)
            elapsed = time.perf_counter() - start
            times.append(elapsed)
            by_phase[view.phase].append(elapsed)
            assert action in view.legal_actions
        print(f"{name}: {summary(times)}")
        for phase, ts in by_phase.items():
            if ts:
                print(f"    {phase}: {summary(ts)}")


if __name__ == "__main__":
    run(main)
