"""Complete random deals per second through the public state API, in one process.

Each deal: shuffle and deal (R2.3), a uniformly random auction, declarations and play (every
action chosen uniformly among `legal_actions()`), and the score.  Deals with no contract are
redealt and count as deals too (they are part of a real stream of deals), but the figure is also
given for played deals only.  The last line is the figure: ``deals/s: N``.
"""

from __future__ import annotations

import argparse
import random
import time

from belot.game import Deal, deal_hands


_cpu = 0.0


def run(n: int, seed: int) -> tuple[float, int, int]:
    rng = random.Random(seed)
    choice = rng.choice
    played = 0
    start = time.perf_counter()
    cpu = time.process_time()
    for k in range(n):
        deal = Deal(k & 3, deal_hands(rng, k & 3))
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
    ap.add_argument("--deals", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    run(500, args.seed)  # warm-up
    elapsed, n, played = run(args.deals, args.seed)
    print(f"deals: {n} ({played} with a contract) in {elapsed:.2f} s")
    print(f"played deals/s: {played / elapsed:,.0f}")
    print(f"deals per CPU second (this process): {n / _cpu:,.0f}  (differs from wall clock on a loaded machine)")
    print(f"deals/s: {n / elapsed:,.0f}")


if __name__ == "__main__":
    main()
