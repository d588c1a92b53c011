"""The game points the two teams take in a deal, counted over many self-play matches: the data of
`belot.bots.equity` (the chance of winning a match from a score).

    python bench/deal_points.py --matches 5000 --seed 7 > src/belot/bots/deal_points.json

Each match is played by ``--bot`` at all four seats from the tournament's seeded deal streams; every
scored deal counts as (team 0's game points, team 1's), the pot included as the match adds it, in
both orders (the teams are alike), and all-pass deals are left out (they change no score).
"""

from __future__ import annotations

import argparse
import collections
import json

from argtypes import bot_name, positive
from running import run

from belot.tournament.matches import MatchSpec, play_match


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--matches", type=positive, default=5000)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--bot", type=bot_name, default="heuristic")
    args = ap.parse_args()
    counts: collections.Counter[tuple[int, int]] = collections.Counter()
    for i in range(args.matches):
        for a, b in play_match(MatchSpec((args.bot,) * 4, args.seed, i)).deal_points:
            if a or b:
                counts[(a, b)] += 1
                counts[(b, a)] += 1
    doc = {
        "source": f"python bench/deal_points.py --matches {args.matches} --seed {args.seed} --bot {args.bot}",
        "deals": sum(counts.values()) // 2,
        "points": [[a, b, n] for (a, b), n in sorted(counts.items())],
    }
    print(json.dumps(doc, separators=(",", ":")))


if __name__ == "__main__":
    run(main)
