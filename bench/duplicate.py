"""Where a bot's lead comes from: the boards of a duplicate tournament, grouped by what the two
tables did with the same cards.

``belot tournament`` plays each match pair's deals twice, the teams swapped (``match-N-0.json`` and
``match-N-1.json``).  A board is one deal's cards at both tables (compared up to the first deal whose
cards differ, once the matches' lengths part); its duplicate score is ``--bot``'s lead in game
points at one table plus its lead at the other, so the cards' luck cancels; the mean's 95% interval
is ``belot tournament``'s (the match pairs are the independent units).  Boards are grouped by
the contracts at the two tables:

* ``same contract``: the same contract by the same seat at both tables, doubled alike, so the bot
  declared at one and defended at the other; the play made the difference (by contract kind);
* ``same contract, doubled differently``: the same, but played at another multiplier at each table
  (kontra at one table only, or a rekontra after it at one), so the calls made most of the difference;
* ``one table passed``: all four passed at one table; who declared at the other (``bot`` or
  ``other``) and what;
* ``same kind, same side``: one side declared a contract of the same kind
  at both tables, but from another seat or in another suit;
* ``different contracts``: who declared at each table and what; the bidding made the difference;
* ``both passed``: nothing happened at either.

    belot tournament pimc heuristic --deals 1000 --seed 1 --records DIR
    python bench/duplicate.py DIR [--bot pimc]
"""

from __future__ import annotations

import argparse
import collections
import statistics
from pathlib import Path

from recordset import (
    interval_text,
    kind,
    lead,
    mean_interval,
    pair_of,
    read,
    record_files,
    same_cards,
    stderr,
    team_of,
)
from running import run

from belot.game import DealResult


def contract(r: DealResult, team: int) -> str:
    """Who declared what, seen from ``team``: ``bot:suit``, ``other:AT``, ... or ``pass``."""
    if r.contract < 0:
        return "pass"
    return f"{'bot' if r.declarer & 1 == team else 'other'}:{kind(r.contract)}"


def group(a: DealResult, b: DealResult, team_a: int, team_b: int) -> str:
    if a.contract < 0 and b.contract < 0:
        return "both passed"
    if a.contract == b.contract and a.declarer == b.declarer:
        doubled = "" if a.multiplier == b.multiplier else ", doubled differently"
        return f"same contract{doubled}: {kind(a.contract)}"
    ca, cb = contract(a, team_a), contract(b, team_b)
    if "pass" in (ca, cb):
        return f"one table passed, other: {cb if ca == 'pass' else ca}"
    if ca == cb:  # one side declared the same kind at both tables, from another seat (or another suit)
        return f"same kind, same side: {ca}"
    return "different contracts: " + " / ".join(sorted((ca, cb)))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folder", type=Path, help="records of one tournament (belot tournament ... --records DIR)")
    ap.add_argument("--bot", default="pimc", help="whose duplicate score to break down (default: pimc)")
    args = ap.parse_args()
    name = f"bot:{args.bot}"
    groups: dict[str, list[int]] = collections.defaultdict(list)
    by_pair: dict[str, list[int]] = collections.defaultdict(list)  # the boards of each match pair
    pairs = 0
    for path_a in record_files(args.folder):
        if not path_a.name.endswith("-0.json"):
            continue
        path_b = path_a.with_name(path_a.name[: -len("-0.json")] + "-1.json")
        if not path_b.exists():
            continue
        (doc_a, a), (doc_b, b) = read(path_a), read(path_b)
        team_a, team_b = team_of(doc_a, path_a, name), team_of(doc_b, path_b, name)
        if team_a == team_b:
            raise SystemExit(f"{path_a.name} and {path_b.name}: {name} sits in the same seats at both "
                             "tables (not a duplicate pair)")
        pairs += 1
        for _, ra, _, rb in same_cards(a, b):
            score = lead(ra, team_a) + lead(rb, team_b)
            groups[group(ra, rb, team_a, team_b)].append(score)
            by_pair[pair_of(path_a)].append(score)
    boards = [s for v in groups.values() for s in v]
    if len(boards) < 2:
        raise SystemExit(f"no duplicate boards in {args.folder} (pairs match-N-0.json / match-N-1.json "
                         "with the same cards)")
    total = sum(boards)
    mean, low, high, df = mean_interval(by_pair)
    print(f"{pairs} match pairs, {len(boards)} boards; {args.bot}'s duplicate score per board "
          f"(two deals: per deal is half) {mean:+.2f} {interval_text(low, high, df, 2)}")
    print(f"{'group':48} {'boards':>6} {'per board':>10} {'+- se':>6} {'share':>6}")
    for g, v in sorted(groups.items(), key=lambda kv: (kv[0].split(":")[0], -abs(sum(kv[1])))):
        share = f"{100 * sum(v) / total:5.0f}%" if total else "-"
        print(f"{g:48} {len(v):6d} {statistics.mean(v):+10.2f} {stderr(v):6.2f} {share:>6}")


if __name__ == "__main__":
    run(main)
