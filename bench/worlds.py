"""How much of what a bot reads in the card play shapes the worlds it searches.

pimc and `expert` draw the hidden cards of each card decision from the hard facts (`sampling.sample`)
and prefer, by rejection, worlds that fit the calls (`_calls_plausible`), the other team's card play
(`_plays_plausible`) and, for `expert`, the partner's signals (`signals_plausible`), while a budget
of rejected draws per decision lasts (`Knowledge.fit_budget`; `expert` then goes on with the calls
and signals alone for ``call_budget`` draws more).  From the play decisions of ``--bot`` in
tournament records (one in ``--every``, with two or more legal cards), by trick:

* *pass rates*: of ``--draws`` worlds drawn from the hard facts alone, the share that each reading
  keeps (one draw of each stochastic check), and all of them together;
* *unread*: the share of the worlds the bot's own decision drew (the decision made again from the
  seat's view) that came after its budgets were spent, so that no reading shaped them.

``--call-budget N`` sets `expert`'s ``CALL_BUDGET`` first (0: none, as before it had one).

    python bench/worlds.py DIR [--bot expert] [--files N] [--every K] [--draws D] [--call-budget N]
"""

from __future__ import annotations

import argparse
import random
from collections import defaultdict
from pathlib import Path

from argtypes import count, positive
from recordset import record_files, steps
from running import run

from belot.bots import expert, make_bot, pimc
from belot.bots.pimc import PimcBot
from belot.bots.sampling import (
    Knowledge,
    World,
    _calls_plausible,
    _plays_plausible,
    sample,
    signals_plausible,
)
from belot.game import PLAY

COLUMNS = ("calls", "plays", "signals", "all", "calls and signals")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("records", type=Path, help="a folder of belot-record/1 files")
    ap.add_argument("--bot", default="expert", choices=("expert", "pimc"), help="whose decisions (default: expert)")
    ap.add_argument("--files", type=count, default=4, help="read only the first N records (0: all; default 4)")
    ap.add_argument("--every", type=positive, default=3, help="one play decision in K (default 3)")
    ap.add_argument("--draws", type=positive, default=50, help="hard-fact worlds per decision (default 50)")
    ap.add_argument("--call-budget", type=count, help="expert's CALL_BUDGET (default: its own)")
    args = ap.parse_args()
    if args.call_budget is not None:
        expert.CALL_BUDGET = args.call_budget
    bot = make_bot(args.bot, 5)
    assert isinstance(bot, PimcBot)
    unread = [0, 0]  # worlds the decision drew: after the budgets, all

    def counted(k: Knowledge, rng: random.Random, tries: int = 200) -> World:
        unread[0] += not k.reads
        unread[1] += 1
        return sample(k, rng, tries)

    pimc.sample = counted  # type: ignore[assignment]  # what the bot's card_scores calls
    rng = random.Random(1)
    rows: dict[int, list[int]] = defaultdict(lambda: [0] * (len(COLUMNS) + 3))
    decisions = 0
    for doc, d, _, actor in steps(record_files(args.records, args.files), played_only=True):
        if d.phase != PLAY or doc["players"][actor] != "bot:" + args.bot:
            continue
        view = d.view(actor)
        if len(view.legal_actions) < 2:
            continue
        decisions += 1
        if decisions % args.every:
            continue
        row = rows[len(view.tricks)]
        k = bot.knowledge(view)
        k.fit_budget, k.call_budget = 0, 0  # the pass rates: every world drawn from the hard facts alone
        for _ in range(args.draws):
            hands = list(sample(k, rng).hands)
            c, p, s = _calls_plausible(k, hands, rng), _plays_plausible(k, hands, rng), signals_plausible(k, hands, rng)
            for i, ok in enumerate((c, p, s, c and p and s, c and s)):
                row[i] += ok
        row[-3] += args.draws
        before = unread[:]
        bot.act(view)
        row[-2] += unread[0] - before[0]
        row[-1] += unread[1] - before[1]
    if not rows:
        raise SystemExit(f"no play decisions of bot:{args.bot} with a choice in {args.records}")
    print(f"bot:{args.bot}, {sum(r[-3] for r in rows.values()) // args.draws} decisions; pass rates of "
          f"hard-fact worlds, and the share of the decision's own worlds drawn after its budgets (unread)")
    print("trick  " + "  ".join(f"{c:>17}" for c in COLUMNS) + "  unread")
    for t in sorted(rows):
        r = rows[t]
        print(f"{t + 1:>5}  " + "  ".join(f"{x / r[-3]:>17.3f}" for x in r[: len(COLUMNS)])
              + f"  {r[-2] / max(r[-1], 1):.3f} of {r[-1]}")


if __name__ == "__main__":
    run(main)
