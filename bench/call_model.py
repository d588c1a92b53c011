"""How the search bots call, by hand strength (docs/strength.md: reading the others' calls).

    python bench/call_model.py RUNS/ep21 RUNS/base5 ... [--bots expert pimc]

For every call the named bots made in the records (tournament ``--records`` folders), the five cards
the caller held (R2.3) and their `heuristic.contract_margins`: for each contract above the standing
one, whether the caller bid it, by the margin for it in steps of 0.5 (grouped by suit, NT, AT); and
for a pass over the other team's contract (or none), the best margin of the contracts above it.
Prints, per bucket, the calls, the decisions and their share.  pimc's samplers read a bid as the
`heuristic` bidding makes it (a margin of at least 0, `sampling._calls_fit`); these shares say how
far search bots' calls are from that.
"""

from __future__ import annotations

import argparse
import collections
import math
from pathlib import Path

from recordset import kind, read_all, record_files
from running import run

from belot.bots.heuristic import contract_margins
from belot.bots.sampling import _auction_checks
from belot.cards import mask_of
from belot.contracts import AT

LOW = -5.0  # the lower edge of the first bucket of margins (which also holds all below it)
HIGH = 2.0  # the lower edge of the last bucket (which holds all above it)
LAST = int((HIGH - LOW) * 2)  # the last bucket's index


def _bucket(m: float) -> int:
    """The bucket of margin ``m``: steps of 0.5 from ``LOW``, the last for all from ``HIGH`` up."""
    return max(0, min(LAST, math.floor((m - LOW) * 2)))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folders", nargs="+", type=Path, help="folders of tournament records")
    ap.add_argument("--bots", nargs="+", default=["expert", "pimc"], help="the bots whose calls count")
    args = ap.parse_args()
    bots = {f"bot:{b}" for b in args.bots}
    bids: collections.Counter[tuple[str, int]] = collections.Counter()
    chances: collections.Counter[tuple[str, int]] = collections.Counter()
    passes: collections.Counter[int] = collections.Counter()
    pass_chances: collections.Counter[int] = collections.Counter()
    files = [f for folder in args.folders for f in record_files(folder)]
    for doc, match in read_all(files):
        for d in match.deals:
            checks = _auction_checks(d.view(0))  # the calls are public: any seat's view has them all
            for seat in range(4):
                if doc["players"][seat] not in bots:
                    continue
                margins = contract_margins(mask_of(d.dealt[seat][:5]), d.rules)
                for before, ours, call in checks[seat]:
                    for c in range(before + 1, AT + 1):
                        key = (kind(c), _bucket(margins[c]))
                        chances[key] += 1
                        bids[key] += call == c + 1
                    if before < AT and not ours:
                        b = _bucket(max(margins[before + 1:]))
                        pass_chances[b] += 1
                        passes[b] += call == 0
    print(f"{len(files)} records; margins in steps of 0.5 (the first row: all below {LOW + 0.5}, the last: all from {HIGH:g})")
    for k in ("suit", "NT", "AT"):
        print(f"bid {k}:")
        for b in sorted(b for kk, b in chances if kk == k):
            n, m = bids[(k, b)], chances[(k, b)]
            print(f"  {LOW + b / 2:+5.1f}  {n:5d} of {m:5d}  {n / m:.3f}")
    print("pass over the other team's contract or none, by the best margin above it:")
    for b in sorted(pass_chances):
        n, m = passes[b], pass_chances[b]
        print(f"  {LOW + b / 2:+5.1f}  {n:5d} of {m:5d}  {n / m:.3f}")


if __name__ == "__main__":
    run(main)
