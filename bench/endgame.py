"""End games: two bots play the last deals of matches from the same late scores, duplicate.

A match to 151 is decided in its last few deals, where a bot that plays for the match (`expert` with
``match_aware``, `belot.bots.equity`) and one that plays for the deal score part ways.  Playing whole
matches spends most of the time on deals where they agree; this script starts each match from a late
score instead.  State i: the score before a deal of a ``heuristic`` self-play match (seeded by
``--seed`` and i) at which a team has ``--low`` game points or more, one such deal drawn at random
(so the scores are those real matches pass through).  From it, bot A and bot B play the match out twice
on one deal stream, A on team 0 and then on team 1 (as `belot tournament` does, bots seeded alike), and
A's match wins are counted: a state played identically by both bots gives one win each.

    python bench/endgame.py expert expert-deal --states 200 --seed 1 --jobs 2

Bot names are those of `belot tournament`, and ``expert-deal`` (expert valuing deals by their score,
``match_aware=False``) and ``expert-nofusion`` (``fusion_from=8``) for comparisons.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import statistics
import time
from concurrent.futures import ProcessPoolExecutor

from argtypes import bot_name, count, positive
from running import run

from belot.bots import REGISTRY
from belot.bots.expert import ExpertBot
from belot.tournament.matches import MatchOutcome, MatchSpec, derive_seed, play_match


class ExpertDealScore(ExpertBot):
    name = "expert-deal"

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed, match_aware=False)


class ExpertNoFusion(ExpertBot):
    name = "expert-nofusion"

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed, fusion_from=8)


REGISTRY.setdefault("expert-deal", f"{__name__}:ExpertDealScore")
REGISTRY.setdefault("expert-nofusion", f"{__name__}:ExpertNoFusion")


def late_score(seed: int, i: int, low: int, target: int) -> tuple[int, int] | None:
    """The score before one deal of heuristic self-play match ``i`` at which a team has ``low`` or
    more (drawn at random among them), None when the match has no such deal."""
    out = play_match(MatchSpec(("heuristic",) * 4, derive_seed(seed, "states"), i, target=target))
    a = b = 0
    late = []
    for x, y in out.deal_points:
        if max(a, b) >= low and max(a, b) < target:
            late.append((a, b))
        a, b = a + x, b + y
    return random.Random(derive_seed(seed, "pick", i)).choice(late) if late else None


def play_state(args: tuple[str, str, int, int, tuple[int, int], int]) -> tuple[MatchOutcome, MatchOutcome]:
    a, b, seed, i, start, target = args
    return (play_match(MatchSpec((a, b, a, b), seed, i, target=target, start=start)),
            play_match(MatchSpec((b, a, b, a), seed, i, target=target, start=start)))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("a", type=bot_name)
    ap.add_argument("b", type=bot_name)
    ap.add_argument("--states", type=positive, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--low", type=count, default=100, help="a team has this many game points or more (default 100)")
    ap.add_argument("--target", type=positive, default=151)
    ap.add_argument("--jobs", type=positive, default=2)
    args = ap.parse_args()
    if not 0 <= args.low < args.target:
        ap.error(f"--low must be from 0 to the target less 1 ({args.target - 1}), not {args.low}")
    states = [(i, s) for i in range(args.states) if (s := late_score(args.seed, i, args.low, args.target))]
    tasks = [(args.a, args.b, args.seed, i, s, args.target) for i, s in states]
    wins: list[int] = []  # A's wins per state, 0-2
    times: list[float] = []
    t0 = time.time()
    with ProcessPoolExecutor(max_workers=args.jobs, mp_context=multiprocessing.get_context("fork")) as pool:
        for (i, s), (h0, h1) in zip(states, pool.map(play_state, tasks)):
            w = (h0.winner == 0) + (h1.winner == 1)
            wins.append(w)
            times += [t for h in (h0, h1) for seat in range(4) for t in h.times[seat]]
            print(f"state {i:4d} {s[0]:3d}-{s[1]:3d}: A won {w} of 2; deals {len(h0.deal_points)}, "
                  f"{len(h1.deal_points)}", flush=True)
    n = len(wins)
    if n == 0:
        raise SystemExit("no match of the sample reached a late score: lower --low or raise --states")
    share = [w / 2 for w in wins]
    m = statistics.fmean(share)
    se = statistics.stdev(share) / math.sqrt(n) if n > 1 else float("nan")
    print(f"\n{args.a} vs {args.b}: {n} late states (a team at {args.low}+), seed {args.seed}, "
          f"{time.time() - t0:.0f} s")
    print(f"A's share of the end games: {m:.3f} [{m - 1.96 * se:.3f}, {m + 1.96 * se:.3f}]"
          f"  (won both / split / lost both: {wins.count(2)} / {wins.count(1)} / {wins.count(0)})")
    if times:
        q = statistics.quantiles(times, n=20)
        print(f"decision times, all seats: median {statistics.median(times) * 1000:.0f} ms, "
              f"p95 {q[-1] * 1000:.0f} ms, max {max(times):.2f} s")


if __name__ == "__main__":
    run(main)
