"""``belot replay FILE [--json]``: replay a record and show (or print as JSON) its results."""

from __future__ import annotations

import argparse
import json

from ..auction import DOUBLING
from ..errors import printable
from ._fail import Fail, fail, read_record


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("replay", help="replay a belot-record/1 file and show each deal's result")
    p.add_argument("file", help="the record (JSON); - reads standard input")
    p.add_argument("--json", action="store_true", help="print the results document of docs/record-format.md")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..errors import RecordError
    from ..record import replay, results

    try:
        match = replay(read_record(args.file))
    except (Fail, RecordError) as e:
        return fail("belot replay", str(e))
    doc = results(match)
    if args.json:
        print(json.dumps(doc, ensure_ascii=False, indent=1))
    else:
        print(summary(doc, match.players))
    return 0


def _pair(p: list[int] | tuple[int, int]) -> str:
    return f"{p[0]:>3} - {p[1]:<3}"


def summary(doc: dict, players: list[str] | None = None) -> str:  # type: ignore[type-arg]
    """A readable per-deal summary of a results document."""
    # a record's name with a newline or an escape sequence neither breaks a line nor reaches the terminal
    names = [printable(n) for n in players] if players else [f"seat {s}" for s in range(4)]
    lines = []
    for i, d in enumerate(doc["deals"], 1):
        if d["outcome"] == "redeal":
            lines.append(f"Deal {i}: all four passed, redeal (pot {d['pot']}); score {_pair(d['score'])}")
            continue
        if d["contract"] is None:
            lines.append(f"Deal {i}: in the auction; score {_pair(d['score'])}")
            continue
        team = d["declarer"] & 1
        doubled = f", {DOUBLING[d['multiplier']]}" if d["multiplier"] in DOUBLING else ""
        head = f"Deal {i}: {d['contract']} by {names[d['declarer']]} (team {team}){doubled}"
        if d["outcome"] is None:
            lines.append(f"{head}: in progress, {len(d['tricks'])} tricks played")
            continue
        valat = "-" if d["valat"] is None else f"team {d['valat']}"
        lines += [
            head,
            f"    card points {_pair(d['card_points'])}  declarations {_pair(d['declarations'])}"
            f"  belote {_pair(d['belote'])}  valat {valat}",
            f"    totals      {_pair(d['totals'])}  {d['outcome']}",
            f"    game points {_pair(d['points'])}  pot {d['pot']:<3}  score {_pair(d['score'])}",
        ]
    winner = doc["winner"]
    end = "match goes on" if winner is None else f"team {winner} ({names[winner]} and {names[winner + 2]}) wins"
    lines.append(f"Score {_pair(doc['score'])}: {end}")
    return "\n".join(lines)
