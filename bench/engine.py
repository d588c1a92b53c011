"""Complete random deals per second through the public state API, in one process.

Each deal: shuffle and deal (R2.3), a uniformly random auction, declarations and play (every
action chosen uniformly among `legal_actions()`), and the score.  Deals with no contract are
redealt and count as deals too (they are part of a real stream of deals), but each round says how many had a contract.  The last line is the figure: ``deals/s: N``, the best of
the rounds (the one least disturbed by other work on a shared machine); the median is printed too.
"""

from __future__ import annotations

import argparse
import random
import time

from argtypes import positive
from running import run as run_script

from belot.game import Deal

_cpu = 0.0


def run(n: int, seed: int) -> tuple[float, int, int]:
    rng = random.Random(seed)
    choice = rng.choice
    played = 0
    start = time.perf_counter()
    cpu = time.process_time()
    for k in range(n):
        deal = Deal.shuffled(rng, k & 3)
        while not deal.is_over:
            deal.apply(choice(deal.legal_actions()))
        assert deal.result is not None
        if deal.result.contract >= 0:
            played += 1
    global _cpu
    _cpu = time.process_time() - cpu
    return time.perf_counter() - start, n, played


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--deals", type=positive, default=20000, help="deals per round")
    ap.add_argument("--rounds", type=positive, default=5)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    run(500, args.seed)  # warm-up
    rates = []
    for r in range(args.rounds):
        elapsed, n, played = run(args.deals, args.seed + r)
        rates.append(n / elapsed)
        print(f"round {r + 1}: {n} deals ({played} with a contract) in {elapsed:.2f} s: {n / elapsed:,.0f} deals/s"
              f" ({n / _cpu:,.0f} per CPU second)")
    rates.sort()
    print(f"median of {len(rates)} rounds: {rates[len(rates) // 2]:,.0f} deals/s")
    # The best round is the figure least disturbed by other work on a shared machine (as timeit's min).
    print(f"deals/s: {rates[-1]:,.0f}")


if __name__ == "__main__":
    run_script(main)
