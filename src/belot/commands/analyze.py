"""``belot analyze FILE [--deal N] [--json] [--jobs J] [--seed S]``: what each decision of a game cost.

Every decision a player made with a choice (card, call, declarations, belote) gets its expected loss
(over worlds drawn from that seat's view) and its open-card loss, in game points; see
`belot.analysis` and docs/analysis.md.  The report lists, per deal, the contract and each player's
costly decisions with the better choice; ``--json`` prints the ``belot-analysis/1`` document.
Same record and seed, same figures, whatever ``--jobs``.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from . import _argtypes as argtypes
from ._fail import Fail, fail, read_record

PROG = "belot analyze"
DESCRIPTION = (
    "What each decision of a recorded game cost. Every decision a player made with a choice (card, call, "
    "declarations, belote) gets its expected loss, over worlds drawn from what that seat could know, and "
    "its open-card loss, in game points (docs/analysis.md). The report lists, per deal, the contract and "
    "each player's costly decisions with the better choice; --json prints the belot-analysis/1 document. "
    "Same record and seed, same figures, whatever --jobs."
)


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("analyze", help="the expected and open-card loss of every decision of a recorded game",
                       description=DESCRIPTION)
    p.add_argument("file", help="the record (belot-record/1 JSON); - reads standard input")
    p.add_argument("--deal", type=argtypes.index, default=None, help="analyse deal N only (0-based; default: every deal)")
    p.add_argument("--json", action="store_true", help="print the analysis as JSON (docs/analysis.md)")
    p.add_argument("--jobs", type=argtypes.jobs, default=1, help="worker processes (default 1; at most one per CPU); figures do not depend on it")
    p.add_argument("--seed", type=argtypes.seed, default=0, help="seed of the sampled worlds (default 0)")
    p.set_defaults(func=run)


def _players(doc: Any) -> list[str]:
    names = doc.get("players") if isinstance(doc, dict) else None
    if isinstance(names, list) and len(names) == 4:
        return [str(x) for x in names]
    return [f"seat {s}" for s in range(4)]


# -- worker processes: each replays the record once and keeps one analyst ---------------------------

_STATE: dict[str, Any] = {}


def _init(doc: Any, seed: int) -> None:
    from ..analysis import Analyst
    from ..record import replay

    _STATE["match"] = replay(doc)
    _STATE["analyst"] = Analyst(seed)


def _work(index: int) -> Any:
    from ..analysis import analyze_deal

    return analyze_deal(_STATE["analyst"], _STATE["match"].deals[index], index)


def run(args: argparse.Namespace) -> int:
    from ..analysis import MatchAnalysis, analyzable, decisions_of
    from ..errors import RecordError
    from ..record import replay

    try:
        doc = read_record(args.file)
        try:
            match = replay(doc)
        except (RecordError, ValueError) as e:
            raise Fail(f"not a valid record: {e}") from None
        done = analyzable(match)
        if args.deal is not None:
            if not 0 <= args.deal < len(match.deals):
                raise Fail(f"--deal {args.deal} is out of range: the record has {len(match.deals)} deals"
                            + (f" (0-{len(match.deals) - 1})" if match.deals else ""))
            if args.deal not in done:
                raise Fail(f"deal {args.deal} is not finished: only finished deals can be analysed")
            done = [args.deal]
        if not done:
            raise Fail("the record has no finished deal")
    except Fail as e:
        return fail(PROG, str(e))
    players = _players(doc)
    total = sum(len(decisions_of(match.deals[i])) for i in done)
    jobs = 1 if len(done) == 1 else argtypes.worker_processes(PROG, min(args.jobs, len(done)))  # a deal a process
    results = _analyse(doc, match, done, args.seed, jobs, total)
    from ..analysis import CALL_WORLDS, PLAY_WORLDS

    analysis = MatchAnalysis(tuple(players), args.seed, tuple(results),
                             {"play_worlds": PLAY_WORLDS, "call_worlds": CALL_WORLDS})
    if args.json:
        print(json.dumps(analysis.to_json(), indent=1))
    else:
        print(report(analysis))
    return 0


def _analyse(doc: Any, match: Any, done: list[int], seed: int, jobs: int, total: int) -> list[Any]:
    """The deals analysed, in order, with a progress bar on standard error (one step a decision)."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from ..analysis import Analyst, analyze_deal, decisions_of

    console = Console(stderr=True)
    columns = (TextColumn("analysing"), BarColumn(), MofNCompleteColumn(), TextColumn("decisions"),
               TimeElapsedColumn())
    with Progress(*columns, console=console, transient=True, disable=not console.is_terminal) as bar:
        task = bar.add_task("analyse", total=total)
        if jobs == 1:
            a = Analyst(seed)
            return [analyze_deal(a, match.deals[i], i, lambda: bar.advance(task)) for i in done]
        from ..tournament.runners import LocalRunner

        # Deals handed out in order (the longest first would balance better, but their length is
        # unknown); LocalRunner makes Ctrl-C safe and stops the workers, as in a tournament.
        runner = LocalRunner(jobs, initializer=_init, initargs=(doc, seed))
        out = []
        try:
            for k, result in enumerate(runner.ordered(_work, iter(done))):
                out.append(result)
                bar.advance(task, len(decisions_of(match.deals[done[k]])))
        finally:
            runner.close()
        return out


def _seat(players: tuple[str, ...], seat: int) -> str:
    from ..errors import printable  # a record's name with a newline or an escape sequence stays on its line

    return f"seat {seat} ({printable(players[seat])})" if players[seat] != f"seat {seat}" else f"seat {seat}"


def _open(x: float | None) -> str:
    return "    -" if x is None else f"{x:5.1f}"


def report(analysis: Any) -> str:
    """The readable report: per deal the contract and result, then each player's decisions that cost
    something (class inaccuracy or worse) with the better choice, then the figures per player."""
    from ..analysis import BEST, CLASSES
    from ..auction import DOUBLING
    from ..contracts import CONTRACT_NAMES

    lines = ["Losses in game points (own team minus the other): expected over worlds the player could"
             " not tell apart, then with open cards."]
    players = analysis.players
    for d in analysis.deals:
        if d.contract < 0:
            head = "all passed (redeal)"
        else:
            mult = f" {DOUBLING[d.multiplier]}" if d.multiplier in DOUBLING else ""
            head = f"contract {CONTRACT_NAMES[d.contract]}{mult} by seat {d.declarer}"
        lines.append("")
        lines.append(f"Deal {d.deal} (dealer seat {d.dealer}): {head}; points {d.points[0]}-{d.points[1]}")
        summaries = d.summary()
        for seat in range(4):
            s = summaries[seat]
            if not s.decisions:
                continue
            acc = "-" if s.accuracy is None else f"{s.accuracy:.0f}%"
            lines.append(f"  {_seat(players, seat)}: {s.decisions} decision{'s' if s.decisions != 1 else ''},"
                         f" loss {s.loss_sum:.1f}"
                         f" (open {s.open_loss_sum:.1f}), accuracy {acc}")
            for x in d.decisions:
                if x.seat != seat or x.klass == BEST:
                    continue
                where = f"trick {x.trick}" if x.trick is not None else "auction"
                lines.append(f"    {x.klass:<10} {where:<8} {x.kind:<11} {x.chosen:<14} better {x.best:<14}"
                             f" loss {x.expected_loss:5.1f}  open {_open(x.open_loss)}")
    lines.append("")
    lines.append("Per player:")
    lines.append(f"  {'player':<24} {'decisions':>9} {'loss':>7} {'mean':>6} {'open':>7} {'mean':>6} "
                 + " ".join(f"{c:>10}" for c in CLASSES) + f" {'accuracy':>8}")
    for s in analysis.summary():
        acc = "-" if s.accuracy is None else f"{s.accuracy:.0f}%"
        lines.append(f"  {_seat(players, s.seat):<24} {s.decisions:>9} {s.loss_sum:>7.1f} {s.loss_mean:>6.2f}"
                     f" {s.open_loss_sum:>7.1f} {s.open_loss_mean:>6.2f} "
                     + " ".join(f"{s.classes[c]:>10}" for c in CLASSES) + f" {acc:>8}")
    return "\n".join(lines)
