"""What doubled contracts gave, in game points and in the chance of winning the match.

Reads the records of a tournament (``belot tournament A B --records DIR``).  For every finished deal
played doubled (kontra, and any rekontra or surkontra that followed, R3.3) it takes the team of
``--bot``, the score before the deal and the points the deal gave, and compares them with the same
deal scored undoubled (the same cards played, ``score_deal`` at x1, R11): in game points (the bot's
team's less the other's) and in match equity (`belot.bots.equity.value`, the change in the chance
of winning the match, in game points of the start of a match).  Doubles by the bot's team (of the
other team's contracts) and of the bot's own contracts are counted apart, by the contract team's
score before the deal.

The undoubled score is a counterfactual: the cards might have been played otherwise, and a kontra
that was not made cannot draw a rekontra.  It says what the doubles did with the play as it was.

    python bench/kontras.py DIR [--bot expert] [--files N]
"""

from __future__ import annotations

import argparse
from pathlib import Path

from recordset import read_all, record_files, team_of

from belot.bots import equity
from belot.scoring import score_deal


def worth(score: tuple[int, int], target: int, team: int, points: tuple[int, int]) -> tuple[int, float]:
    """A deal's ``points`` to ``team`` with the match at ``score``: its game points less the other
    team's, and the change in its chance of winning the match (`equity.value`)."""
    return points[team] - points[1 - team], equity.value(score, target, team, points)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("records", type=Path, help="a folder of belot-record/1 files")
    ap.add_argument("--bot", default="expert", help="the bot whose team is counted (default: expert)")
    ap.add_argument("--files", type=int, default=0, help="read only the first N records (0: all)")
    ap.add_argument("--late", type=int, default=100,
                    help="a contract team's score from which a deal counts as late (default: 100)")
    args = ap.parse_args()
    files = record_files(args.records, args.files)
    # (who doubled, late) -> rows of (outcome, deal score, equity, undoubled deal score, undoubled equity)
    rows: dict[tuple[str, bool], list[tuple[str, int, float, int, float]]] = {}
    for path, (doc, m) in zip(files, read_all(files)):
        me = team_of(doc, path, "bot:" + args.bot)
        score = [0, 0]
        for played in m.deals:
            r = played.result
            if r is None:
                break
            if r.contract >= 0 and r.multiplier > 1:
                bteam = r.declarer & 1
                plain = score_deal(r.contract, bteam, r.totals, 1, played.pot, played.rules).points
                before = (score[0], score[1])
                key = ("others' contracts, doubled by " + args.bot if bteam != me
                       else args.bot + "'s contracts, doubled by the others", before[bteam] >= args.late)
                rows.setdefault(key, []).append((r.outcome, *worth(before, m.start_target, me, r.points),
                                                 *worth(before, m.start_target, me, plain)))
            score[0] += r.points[0]
            score[1] += r.points[1]
    if not rows:
        raise SystemExit(f"no doubled contracts in {len(files)} records")
    print(f"{len(files)} records; figures per doubled deal for {args.bot}'s team: game points (own less the"
          " other's) and match equity, as played and undoubled")
    for (who, late), rs in sorted(rows.items()):
        n = len(rs)
        counts = {o: sum(x[0] == o for x in rs) for o in ("made", "hanging", "inside")}

        def mean(i: int, rs: list[tuple[str, int, float, int, float]] = rs) -> float:
            return sum(x[i] for x in rs) / len(rs)
        band = f"contract team at {args.late}+" if late else f"contract team below {args.late}"
        print(f"{who}, {band}: {n} deals, made / hanging / inside {counts['made']} / {counts['hanging']} /"
              f" {counts['inside']}; game points {mean(1):+.1f} (undoubled {mean(3):+.1f}),"
              f" equity {mean(2):+.1f} (undoubled {mean(4):+.1f})")


if __name__ == "__main__":
    main()
