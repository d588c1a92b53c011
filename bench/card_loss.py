"""Where each bot loses points in its card play: the open-card loss of every card played.

Reads the records of a tournament (``belot tournament A B --records DIR``) and replays every deal.
At each card played with a choice, the real hands are the one world of `PimcBot.card_scores`: every
legal card gets the deal score (the mover's team's game points minus the other's) it leads to when
all four then play perfectly with open cards.  The card's *loss* is the best card's score minus
the played card's.  No player can see the cards, so nobody's loss is 0; the figures compare bots
on the same deals, by side (the contract team or the defence), trick and contract kind.

    python bench/card_loss.py DIR [--files N]
"""

from __future__ import annotations

import argparse
import collections
import statistics
from pathlib import Path

from argtypes import count
from recordset import kind, record_files, steps
from running import run

from belot.bots.pimc import PimcBot
from belot.bots.sampling import World
from belot.game import BELOTE_BASE, CALL_BASE, PLAY


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("records", type=Path, help="a folder of belot-record/1 files")
    ap.add_argument("--files", type=count, default=0, help="read only the first N records (0: all)")
    args = ap.parse_args()
    files = record_files(args.records, args.files)
    judge = PimcBot(0, node_cap=1 << 62)  # exact scores of every card in the real world
    losses: dict[tuple[str, ...], list[float]] = collections.defaultdict(list)
    for doc, d, action, actor in steps(files, played_only=True):
        if d.phase == PLAY and action < CALL_BASE:
            view = d.view(actor)
            cards = [a for a in view.legal_actions if a < BELOTE_BASE]
            card = action - BELOTE_BASE if action >= BELOTE_BASE else action
            if len(cards) > 1:
                truth = World(tuple(d.hands), tuple(() if s == actor else tuple(x)
                                                    for s, x in enumerate(d.declared)))
                scores, _ = judge.card_scores(view, cards, world=truth)
                loss = max(scores.values()) - scores[card]
                side = "contract" if (actor ^ view.declarer) & 1 == 0 else "defence"
                bot = str(doc["players"][actor])
                trick = str(min(len(view.tricks) + 1, 4)).replace("4", "4-8")
                keys: tuple[tuple[str, ...], ...] = ((bot, side, "trick " + trick), (bot, side, kind(view.contract)),
                                                     (bot, "all"))
                for key in keys:
                    losses[key].append(loss)
    print(f"{len(files)} records; loss per card played with a choice (game points, open cards)")
    for key in sorted(losses):
        xs = losses[key]
        print(f"{' '.join(key):>40}: {len(xs):6d} cards, mean {statistics.fmean(xs):5.2f}, "
              f"total {sum(xs):7.0f}, {sum(x > 0 for x in xs) / len(xs):4.0%} lose points")


if __name__ == "__main__":
    run(main)
