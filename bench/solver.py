"""Open-card solver speed: whole deals at the first lead, and positions after four tricks.

For each contract kind (C D H S NT AT) it deals random hands, solves the position at the first
lead (the exact value, and the exact value of every legal card as `belot solve` computes it),
then plays four tricks along the solver's own best line and solves again.  numba compiles (or
loads from its cache) before the clock starts.  Figures (ms, wall time, one process):

    full deal: median X ms, p95 Y ms            (position value at the first lead)
    full deal, every card: median X ms, p95 Y ms
    after four tricks: median X ms
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time

from argtypes import positive
from running import run

from belot.auction import BID_BASE, PASS
from belot.contracts import CONTRACT_NAMES
from belot.game import CALL_BASE, Deal, deal_hands
from belot.solver import Position, Solver


def _deal(rng: random.Random, contract: int) -> Deal:
    dealer = rng.randrange(4)
    d = Deal(dealer, deal_hands(rng, dealer))
    d.apply(CALL_BASE + BID_BASE + contract)
    for _ in range(3):
        d.apply(CALL_BASE + PASS)
    return d


def _pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=positive, default=20, help="deals per contract kind (default 20)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    solver = Solver()
    warm = _deal(rng, 0)  # compile / load the kernels outside the clock
    solver.card_values(Position.from_deal(warm))
    full: list[float] = []
    cpu: list[float] = []
    every: list[float] = []
    four: list[float] = []
    per_kind: dict[str, list[float]] = {}
    for contract in range(6):
        for _ in range(args.deals):
            d = _deal(rng, contract)
            pos = Position.from_deal(d)
            t0 = time.perf_counter()
            c0 = time.process_time()
            solver.value(pos)
            t1 = time.perf_counter()
            cpu.append((time.process_time() - c0) * 1e3)
            solver.card_values(pos)
            t2 = time.perf_counter()
            full.append((t1 - t0) * 1e3)
            every.append((t2 - t1) * 1e3)
            per_kind.setdefault(CONTRACT_NAMES[contract], []).append((t1 - t0) * 1e3)
            while len(d.trick_winners) < 4:  # four tricks of best play
                vals = solver.card_values(Position.from_deal(d))
                d.apply(max(vals, key=lambda c: (vals[c], -c)))
            pos4 = Position.from_deal(d)
            t3 = time.perf_counter()
            solver.card_values(pos4)
            four.append((time.perf_counter() - t3) * 1e3)
    n = len(full)
    load = os.getloadavg()[0]
    print(f"{n} random deals ({args.deals} per contract kind), seed {args.seed}, load average {load:.1f} "
          f"on {os.cpu_count()} cores; numba compile time excluded")
    for name, xs in per_kind.items():
        print(f"  {name:>2}: median {statistics.median(xs):7.1f} ms, p95 {_pct(xs, 0.95):7.1f} ms, "
              f"max {max(xs):7.1f} ms")
    print(f"full deal: median {statistics.median(full):.1f} ms, p95 {_pct(full, 0.95):.1f} ms")
    print(f"full deal, CPU time: median {statistics.median(cpu):.1f} ms, p95 {_pct(cpu, 0.95):.1f} ms")
    print(f"full deal, every card: median {statistics.median(every):.1f} ms, p95 {_pct(every, 0.95):.1f} ms")
    print(f"after four tricks: median {statistics.median(four):.2f} ms (every card's value, {len(four)} positions)")


if __name__ == "__main__":
    run(main)
