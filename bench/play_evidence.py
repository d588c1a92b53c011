"""How much a card tells about the hidden cards if its player is taken to play open-card best.

A way to draw better worlds for `pimc` (issue 24, docs/strength.md) is to weight each world by how
well it explains the others' cards: a world in which a played card was the open-card best (the
solver's best for the player's team, within ``--tol`` raw points) would count more than one in which
it threw points away.  That only helps if the real cards make the played card best far more often
than the worlds the sampler already draws.  This script measures both, from tournament records:

* *real*: at each card a search bot (``bot:pimc``, ``bot:expert``) played with a choice, whether it
  was open-card best with the real hands;
* *worlds*: the share of ``--worlds`` worlds, drawn by pimc's own sampler (calls and the `heuristic`
  play model, pimc's ``play_eps``, `PLAY_EPS`) from the next seat's view just after the card fell, in which it was.

Per trick it prints both rates and the two likelihood ratios a weighting could use (best: real /
worlds; not best: (1 - real) / (1 - worlds)).  Ratios near 1 mean the play says little that the
sampler does not already know.

    python bench/play_evidence.py DIR [--files N] [--from-trick T] [--worlds W] [--tol RAW]
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

from argtypes import count, positive
from recordset import SEARCH_BOTS, record_files, steps
from running import run

from belot.bots.pimc import _shared_solver
from belot.bots.sampling import PLAY_EPS, Knowledge, sample
from belot.game import BELOTE_BASE, CALL_BASE, PLAY
from belot.solver import DEAL_POINTS, Position


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("records", type=Path, help="a folder of belot-record/1 files")
    ap.add_argument("--files", type=count, default=0, help="read only the first N records (0: all)")
    ap.add_argument("--from-trick", type=int, default=0, choices=range(8), metavar="T",
                    help="judge cards of trick T+1 on (0-7; early tricks cost whole-deal solves)")
    ap.add_argument("--worlds", type=positive, default=12, help="sampled worlds per card (default 12)")
    ap.add_argument("--tol", type=count, default=0, help="raw points within which a card counts as best")
    args = ap.parse_args()
    solver = _shared_solver()
    rng = random.Random(1)

    def best(pos: Position, card: int) -> bool:
        sign = 1 if pos.to_move % 2 == 0 else -1
        diffs = solver.card_diffs(pos, DEAL_POINTS)
        return sign * diffs[card] >= max(sign * v for v in diffs.values()) - args.tol

    rows: list[tuple[int, bool, float]] = []  # (trick, best with the real cards, share of worlds)
    files = record_files(args.records, args.files)
    for doc, d, action, actor in steps(files, played_only=True):
        if not (d.phase == PLAY and action < CALL_BASE and len(d.trick_winners) >= args.from_trick
                and doc["players"][actor] in SEARCH_BOTS and sum(a < BELOTE_BASE for a in d.legal_actions()) > 1):
            continue
        card = action - BELOTE_BASE if action >= BELOTE_BASE else action
        pos = Position.from_deal(d)
        after = d.clone()
        after.apply(action)
        if after.phase != PLAY:
            continue
        k = Knowledge.from_view(after.view((actor + 1) & 3))  # the next seat, the card just seen
        k.play_eps = PLAY_EPS
        hits = 0
        for _ in range(args.worlds):
            hands = list(sample(k, rng).hands)
            hands[actor] |= 1 << card  # back to the moment before the card fell
            hits += best(Position(pos.contract, (hands[0], hands[1], hands[2], hands[3]), actor,
                                  pos.trick, pos.tricks_done, pos.trick_winners), card)
        rows.append((pos.tricks_done, best(pos, card), hits / args.worlds))
    print(f"{len(files)} records, {len(rows)} cards played with a choice by search bots "
          f"(best: within {args.tol} raw points of the open-card best)")
    print(f"{'trick':>6} {'cards':>6} {'real':>6} {'worlds':>7} {'ratio if best':>14} {'if not':>7}")
    for t in [*range(8), None]:
        sel = [r for r in rows if t is None or r[0] == t]
        if not sel:
            continue
        real = sum(r[1] for r in sel) / len(sel)
        worlds = sum(r[2] for r in sel) / len(sel)
        ratio_best = real / worlds if worlds else float("nan")
        ratio_not = (1 - real) / (1 - worlds) if worlds < 1 else float("nan")
        print(f"{'all' if t is None else t + 1:>6} {len(sel):6d} {real:6.3f} {worlds:7.3f} {ratio_best:14.2f} {ratio_not:7.2f}")


if __name__ == "__main__":
    run(main)
