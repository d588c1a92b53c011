"""How often contracts are made, by their open-card margin: the figures behind pimc's bidding.

Reads the records of a tournament (``belot tournament A B --records DIR``), solves every played
deal with open cards from the first lead (belote and valat counted, as pimc's bidding does), and
puts each contract in the band of its margin: the bidders' open-card future points over the other
team's, less what they need to make it (R9.2), in raw points of a 162-point deal.  For each
declaring bot and contract kind it prints, per band, the contracts made out of those played.
pimc decides whether a contract is made in a sampled world by one such margin test (at 7 points,
its ``bid_penalty``): these figures show how far real play is from that step.

    python bench/calibrate.py DIR [--cuts -60 -30 7 64] [--files N]
"""

from __future__ import annotations

import argparse
import collections
from pathlib import Path

from argtypes import count
from recordset import kind, read_all, record_files
from running import run

from belot.cards import mask_of, parse_card
from belot.contracts import TABLES
from belot.solver import DEAL_POINTS, Position, Solver


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("records", type=Path, help="a folder of belot-record/1 files")
    ap.add_argument("--cuts", type=int, nargs="+", default=[-60, -30, 7, 64],
                    help="band edges, raw points of a 162-point deal (default: -60 -30 7 64)")
    ap.add_argument("--files", type=count, default=0, help="read only the first N records (0: all)")
    args = ap.parse_args()
    cuts = sorted(args.cuts)
    solver = Solver()
    counts: dict[tuple[str, str], list[list[int]]] = collections.defaultdict(
        lambda: [[0, 0] for _ in range(len(cuts) + 1)])
    files = record_files(args.records, args.files)
    for doc, m in read_all(files):
        for dd, res in zip(doc["deals"], m.results):
            if res.contract < 0:
                continue
            hands = tuple(mask_of(parse_card(c) for c in h) for h in dd["hands"])
            v = solver.diff(Position(res.contract, hands, (dd["dealer"] + 1) & 3), DEAL_POINTS)
            b = res.declarer & 1
            thr = res.declarations[1 - b] - res.declarations[b] + 1
            margin = (v if b == 0 else -v) - thr
            total = TABLES[res.contract].total
            band = sum(margin >= round(c * total / 162) for c in cuts)
            bot = str(doc["players"][res.declarer])
            for k in (kind(res.contract), "all"):
                counts[(bot, k)][band][0] += 1
                counts[(bot, k)][band][1] += res.outcome == "made"
    edges = ["-inf", *map(str, cuts), "inf"]
    print(f"{len(files)} records; bands of the open-card margin (162-point scale): "
          + " ".join(f"[{edges[i]},{edges[i + 1]})" for i in range(len(cuts) + 1)))
    for (bot, k), bands in sorted(counts.items()):
        cells = " ".join(f"{made:4d}/{n:<4d}" + (f"={made / n:.2f}" if n else "     ") for n, made in bands)
        print(f"{bot:>16} {k:>4}: {cells}")


if __name__ == "__main__":
    run(main)
