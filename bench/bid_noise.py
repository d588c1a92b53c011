"""How much a bot's calls lose to the noise of its own sampling, against a long run of the same model.

`pimc` and `expert` value each call by the average deal score over a few dozen whole deals drawn
from the auction (`PimcBot.call_scores`); with few deals the average of a call that is not the best
can come out on top by chance, and `expert` samples more where the top two are close (issue 24,
docs/strength.md).  For the calls the search bots weighed in a tournament's records, this script
asks a *reference* (pimc's model with ``--reference`` deals a call, no node cap) for each call's
value (average deal score less pimc's margin for that kind of call), then asks each bot of
``--bots`` (``--repeats`` seeds each) for its call from the same view.  A bot's *regret* on a
decision is the reference's value of the best call minus that of the call the bot made: what more
deals of the same model could still give it.  It says nothing about how right the model is.  Only
pimc and expert can be asked: they weigh the same calls as the reference, so every call they make
has the reference's value (another bot's call may be one the reference never weighs).

    python bench/bid_noise.py DIR [--decisions N] [--reference R] [--repeats K] [--bots pimc expert]
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from argtypes import positive
from recordset import SEARCH_BOTS, record_files, stderr, steps
from running import run

from belot.bots import make_bot
from belot.bots.pimc import PimcBot
from belot.game import PLAY, SeatView


def decisions(folder: Path, limit: int) -> list[SeatView]:
    """The auction views of search bots with more than one legal call, in record order."""
    out: list[SeatView] = []
    for doc, d, _, actor in steps(record_files(folder)):
        if len(out) >= limit:
            break
        if d.phase != PLAY and doc["players"][actor] in SEARCH_BOTS and len(d.legal_actions()) > 1:
            out.append(d.view(actor))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("records", type=Path, help="a folder of belot-record/1 files")
    ap.add_argument("--decisions", type=positive, default=40, help="calls weighed by search (default 40)")
    ap.add_argument("--reference", type=positive, default=192, help="deals the reference samples a call")
    ap.add_argument("--repeats", type=positive, default=3, help="seeds each bot is asked with")
    # the search bots weigh the same calls as the reference (pimc's model): each call made has its value
    searchers = [b.removeprefix("bot:") for b in SEARCH_BOTS]
    ap.add_argument("--bots", nargs="+", default=searchers, choices=searchers)
    args = ap.parse_args()
    ref = PimcBot(0, bid_worlds=args.reference, min_bid_worlds=args.reference, node_cap=1 << 62)
    regrets: dict[str, list[float]] = {b: [] for b in args.bots}
    agree: dict[str, int] = dict.fromkeys(args.bots, 0)
    spreads: list[float] = []
    weighed = 0
    t0 = time.time()
    for i, view in enumerate(decisions(args.records, 20 * args.decisions)):
        scores = ref.call_scores(view)
        if not scores:  # only passing was worth weighing: no search, no noise
            continue
        value = {a: statistics.fmean(v) - ref.call_margin(a) for a, v in scores.items()}
        best = max(value.values())
        top = sorted(value, key=value.__getitem__, reverse=True)[:2]
        if len(top) == 2:  # the reference's own standard error of its top two's difference
            spreads.append(stderr([x - y for x, y in zip(scores[top[0]], scores[top[1]])]))
        for name in args.bots:
            for r in range(args.repeats):
                choice = make_bot(name, seed=1000 * i + r).act(view)
                regrets[name].append(best - value[choice])
                agree[name] += choice == top[0]
        weighed += 1
        if weighed >= args.decisions:
            break
    print(f"{weighed} calls weighed by search, reference {args.reference} deals a call "
          f"(standard error of its top two's difference: median {statistics.median(spreads or [0]):.2f} "
          f"game points), {time.time() - t0:.0f} s")
    for name in args.bots:
        xs = regrets[name]
        if xs:
            print(f"{name:>10}: regret {statistics.fmean(xs):5.2f} +- {stderr(xs):4.2f} game points a call, "
                  f"{sum(x > 0 for x in xs) / len(xs):4.0%} of calls below the reference's best, "
                  f"the reference's call {agree[name] / len(xs):4.0%}")


if __name__ == "__main__":
    run(main)
