"""Deal-by-deal comparison of two tournaments run with the same seed: does a change help?

``belot tournament`` deals the same cards and seeds the bots the same way for the same ``--seed``,
so two runs that differ only in one bot's code (a change against main, say) play the same deals,
and a deal that the change does not touch is played identically in both.  Comparing the runs deal
by deal removes the luck of the cards, which dominates the tournament's own interval: only deals
whose play changed contribute.  It compares the deal pairs that ``belot tournament``'s lead counts
(the deals played at both tables of a match pair, up to the shorter of its two matches) where both
runs played them (pairs of matches keep the same file names; a deal stops being compared at the first
whose cards differ between the runs, once the matches' lengths part), so its figure is on the
tournament's scale: ``--bot``'s mean lead per deal in A minus that in B with a 95% interval
(``belot tournament``'s: the match pairs are the independent units); a deal past the shorter match
of its pair counts for neither.  It prints how many deals changed, and that difference on the
changed deals by ``--bot``'s side and contract kind (in A), with standard errors that take those
deals as independent (they are not quite: a rough guide).  It also splits them by where in the match
they fall: a match's first deal played differently is played from the same score in both runs, so
its difference is the change's own; the deals after it are played from scores that have parted, and
a bot that plays for the match (`expert`) plays them for different ends, so their differences add
the match's reply to the first.  The two runs must have the same target and house rules.

    belot tournament pimc heuristic --deals 1000 --seed 1 --records A   # with the change
    belot tournament pimc heuristic --deals 1000 --seed 1 --records B   # without it
    python bench/paired.py A B [--bot pimc]

Two bots can be compared in the same seat the same way: ``--bot expert --bot-b pimc`` reads A's
``expert`` against B's ``pimc`` (``belot tournament expert heuristic`` and ``belot tournament pimc
heuristic``, one seed); the other players must be the same.
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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("a", type=Path, help="records of run A (belot tournament ... --records A)")
    ap.add_argument("b", type=Path, help="records of run B, the same --seed")
    ap.add_argument("--bot", default="pimc", help="whose lead per deal to compare (default: pimc)")
    ap.add_argument("--bot-b", help="the bot in its seats in run B, when another (default: --bot)")
    args = ap.parse_args()
    name = f"bot:{args.bot}"
    name_b = f"bot:{args.bot_b or args.bot}"
    diffs: dict[str, list[int]] = collections.defaultdict(list)  # by match pair, the independent units
    by_kind: dict[tuple[str, str], list[int]] = collections.defaultdict(list)
    first: list[int] = []  # each match's first deal played differently (the same score in both runs)
    later: list[int] = []  # the changed deals after it
    wins = [0, 0]  # the bot's match wins in A, in B
    pairs = 0
    files = [p for p in record_files(args.a) if (args.b / p.name).exists()]
    runs = {p.name: (read(p), read(args.b / p.name)) for p in files}
    played: dict[str, int] = {}  # by match pair: the deal pairs of the tournament's lead, in both runs
    for p in files:
        (_, a), (_, b) = runs[p.name]
        finished = min(sum(d.result is not None for d in m.deals) for m in (a, b))
        played[pair_of(p)] = min(played.get(pair_of(p), finished), finished)
    left_out = 0
    for path_a in files:
        (doc_a, a), (doc_b, b) = runs[path_a.name]
        if doc_a["players"] != [name if p == name_b else p for p in doc_b["players"]]:
            raise SystemExit(f"{path_a.name}: the players differ between the runs: "
                             f"{doc_a['players']} and {doc_b['players']}")
        for field, default in (("target", 151), ("options", [])):
            if doc_a.get(field, default) != doc_b.get(field, default):
                raise SystemExit(f"{path_a.name}: the runs differ in {field}: "
                                 f"{doc_a.get(field, default)} and {doc_b.get(field, default)}")
        team = team_of(doc_a, path_a, name)
        pairs += 1
        for i, m in enumerate((a, b)):
            wins[i] += m.winner == team
        parted = False
        for k, (x, ra, y, rb) in enumerate(same_cards(a, b)):
            if k >= played[pair_of(path_a)]:  # past the shorter match of its pair: no deal pair
                left_out += 1
                continue
            d = lead(ra, team) - lead(rb, team)
            diffs[pair_of(path_a)].append(d)
            if x.actions != y.actions or x.pot != y.pot:
                (later if parted else first).append(d)
                parted = True
                c = ra.contract
                side = "passed" if c < 0 else "contract" if ra.declarer & 1 == team else "defence"
                by_kind[(side, "-" if c < 0 else kind(c))].append(d)
    compared = sum(len(v) for v in diffs.values())
    if compared < 2:
        raise SystemExit(f"no deals in common between {args.a} and {args.b} (the same --seed?)")
    mean, low, high, df = mean_interval(diffs)
    changed = sum(len(v) for v in by_kind.values())
    print(f"{pairs} records in both, {compared} deals compared, {changed} played differently"
          f" ({left_out} past the shorter match of their pair left out, as the tournament's lead does)")
    who = args.bot if args.bot_b in (None, args.bot) else f"{args.bot} (A) vs {args.bot_b} (B)"
    print(f"{who}: lead per deal, A - B: {mean:+.3f} {interval_text(low, high, df, 3)}")
    print(f"{who}: match wins, A {wins[0]}, B {wins[1]} (of {pairs})")
    print("on the deals played differently, A - B per deal:")
    for (side, k), v in sorted(by_kind.items()):
        print(f"  {side:>8} {k:>4}: {len(v):5d} deals  {statistics.mean(v):+7.2f} +- {stderr(v):.2f}"
              " (standard error, deals taken as independent)")
    print("by where in the match, A - B summed (and per deal):")
    for label, v in (("first changed deal of a match (same score)", first), ("later changed deals", later)):
        if v:
            print(f"  {label}: {len(v)} deals, {sum(v):+d} +- {stderr(v) * len(v):.0f}"
                  f" ({statistics.mean(v):+.2f} +- {stderr(v):.2f})")


if __name__ == "__main__":
    run(main)
