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

``--replay W [W ...]`` (the bot ``expert`` only) asks, at the last kontra of each such deal that an
``expert`` seat of the bot's team made, ``expert`` with each lead weight W (`ExpertBot` ``lead_weight``:
a deal valued by its match equity plus W times its deal score) for its call from the same view and
seed (``--seed``: the tournament's; expert with its own weight must make the recorded call, and the
count of those that it does is printed), and sums what the kontras it would not make gave against
the same deal undoubled: the game points and the match equity it would have kept or given up, in
matches' worth (equity over `equity.scale`).  The same counterfactual: a kontra left out cannot
change the others' calls after it or the cards.

    python bench/kontras.py DIR [--bot expert] [--files N] [--replay 0.25 1 --seed S]
"""

from __future__ import annotations

import argparse
from pathlib import Path

from argtypes import count
from recordset import match_view, read_all, record_files, team_of, worth
from running import run

from belot.auction import KONTRA
from belot.bots import equity
from belot.bots.expert import ExpertBot
from belot.game import CALL_BASE, Match
from belot.scoring import score_deal
from belot.tournament import derive_seed


def replayed_calls(m: Match, j: int, me: int, players: list[str], seed: int, k: int,
                   weights: list[float]) -> list[int] | None:
    """The calls of ``expert`` with each of ``weights`` at the last kontra of deal ``j`` of match pair
    ``k``, when an expert seat of team ``me`` made it on the contract played, else None; the recorded
    call first, from expert as it played (its own weight)."""
    played = m.deals[j]
    kontras = [i for i, a in enumerate(played.actions) if a == CALL_BASE + KONTRA]
    if not kontras or played.actors[kontras[-1]] & 1 != me or players[played.actors[kontras[-1]]] != "bot:expert":
        return None
    seat = played.actors[kontras[-1]]
    view = match_view(m, j, kontras[-1], seat)
    bot_seed = derive_seed(seed, "bot", k, j, seat)  # as `belot.tournament.matches` seeds each deal's bots
    return [ExpertBot(bot_seed).act(view)] + [ExpertBot(bot_seed, lead_weight=w).act(view) for w in weights]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("records", type=Path, help="a folder of belot-record/1 files")
    ap.add_argument("--bot", default="expert", help="the bot whose team is counted (default: expert)")
    ap.add_argument("--files", type=count, default=0, help="read only the first N records (0: all)")
    ap.add_argument("--late", type=count, default=100,
                    help="a contract team's score from which a deal counts as late (default: 100)")
    ap.add_argument("--replay", type=float, nargs="+", default=[], metavar="W",
                    help="ask expert with these lead weights at its last kontra of each doubled deal")
    ap.add_argument("--seed", type=int, help="the tournament's --seed (with --replay)")
    args = ap.parse_args()
    if args.replay and (args.seed is None or args.bot != "expert"):
        ap.error("--replay needs --seed (the tournament's) and --bot expert")
    if any(w < 0 for w in args.replay):
        ap.error("--replay: a lead weight is at least 0")
    files = record_files(args.records, args.files)
    # (who doubled, late) -> rows of (outcome, deal score, equity, undoubled deal score, undoubled equity)
    rows: dict[tuple[str, bool], list[tuple[str, int, float, int, float]]] = {}
    # late -> per weight: kontras not made, of them made contracts, game points and equity kept (undoubled
    # less as played); replayed kontras; of them the recorded call again
    kept: dict[bool, list[list[float]]] = {}
    replayed = [0, 0]
    for path, (doc, m) in zip(files, read_all(files)):
        me = team_of(doc, path, "bot:" + args.bot)
        score = [0, 0]
        for j, played in enumerate(m.deals):
            r = played.result
            if r is None:
                break
            if r.contract >= 0 and r.multiplier > 1:
                bteam = r.declarer & 1
                plain = score_deal(r.contract, bteam, r.totals, 1, played.pot, played.rules).points
                before = (score[0], score[1])
                key = ("others' contracts, doubled by " + args.bot if bteam != me
                       else args.bot + "'s contracts, doubled by the others", before[bteam] >= args.late)
                as_played, undoubled = worth(before, m.start_target, me, r.points), worth(before, m.start_target, me, plain)
                rows.setdefault(key, []).append((r.outcome, *as_played, *undoubled))
                calls = replayed_calls(m, j, me, doc["players"], args.seed, int(path.name.split("-")[1]),
                                       args.replay) if args.replay and bteam != me else None
                if calls is not None:
                    replayed[0] += 1
                    replayed[1] += calls[0] == CALL_BASE + KONTRA
                    sums = kept.setdefault(before[bteam] >= args.late, [[0.0] * 4 for _ in args.replay])
                    for s, call in zip(sums, calls[1:]):
                        if call != CALL_BASE + KONTRA:
                            s[0] += 1
                            s[1] += r.outcome == "made"
                            s[2] += undoubled[0] - as_played[0]
                            s[3] += undoubled[1] - as_played[1]
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
            return sum(float(x[i]) for x in rs) / len(rs)  # x[i]: a number for i >= 1
        band = f"contract team at {args.late}+" if late else f"contract team below {args.late}"
        print(f"{who}, {band}: {n} deals, made / hanging / inside {counts['made']} / {counts['hanging']} /"
              f" {counts['inside']}; game points {mean(1):+.1f} (undoubled {mean(3):+.1f}),"
              f" equity {mean(2):+.1f} (undoubled {mean(4):+.1f})")
    if args.replay:
        print(f"replayed {replayed[0]} last kontras of {args.bot}'s team; {args.bot} as it played doubled again"
              f" in {replayed[1]}")
        for late, sums in sorted(kept.items()):
            band = f"contract team at {args.late}+" if late else f"contract team below {args.late}"
            for w, (dropped, made, gp, eq) in zip(args.replay, sums):
                print(f"  {band}, lead weight {w:g}: {dropped:.0f} kontras not made ({made:.0f} of them on contracts"
                      f" made); game points {gp:+.0f}, match equity {eq:+.0f} ({eq / equity.scale():+.2f} matches)")


if __name__ == "__main__":
    run(main)
