"""``belot tournament BOT_A BOT_B --deals N``: a duplicate tournament between two bots.

Match pairs are played until at least N deal pairs (deals played with the same cards by both
bots) are reached; see `belot.tournament` for exactly how deals map to matches and how the
figures and their 95% intervals are computed.  Runs on ``--jobs`` local processes or, with
``--ray [ADDRESS]``, on a Ray cluster, with the same figures for the same seed either way.
"""

from __future__ import annotations

import argparse
import json
import os
from typing import TYPE_CHECKING

from . import _argtypes as argtypes
from ._fail import Fail, cannot, fail
from ._options import add_option_argument, rules_from

if TYPE_CHECKING:
    from ..tournament.runners import Runner

PROG = "belot tournament"


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "tournament",
        help="duplicate matches between two bots: points per deal, match win rate, decision times",
        description=(
            "Duplicate tournament: each match pair plays one seeded deal stream twice, teams swapped, "
            "each match to the target.  Pairs are played until at least DEALS deal pairs (deals "
            "played by both matches of a pair) are reached."
        ),
    )
    p.add_argument("bot_a", metavar="BOT_A", help="first bot: random, heuristic, pimc, expert or bot:NAME")
    p.add_argument("bot_b", metavar="BOT_B", help="second bot")
    p.add_argument("--deals", type=argtypes.count, default=1000, help="deal pairs to play at least (default 1000)")
    p.add_argument("--seed", type=argtypes.seed, default=1, help="tournament seed: same seed, same figures (default 1)")
    p.add_argument("--jobs", type=argtypes.jobs, default=1, help="worker processes (default 1; at most one per CPU); figures do not depend on it")
    p.add_argument("--target", type=argtypes.target, default=151, help="match target in game points (default 151)")
    p.add_argument("--records", metavar="DIR", help="write every match as a belot-record/1 file in DIR")
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    p.add_argument(
        "--ray", nargs="?", const="local", default=None, metavar="ADDRESS",
        help="run on Ray: a local Ray with --jobs CPUs, or the cluster at ADDRESS (needs belot[ray]); "
        "put it last or write --ray=ADDRESS",
    )
    add_option_argument(p)
    p.set_defaults(func=run, parser=p)


def check_dir(path: str, prefix: str) -> str | None:
    """An error message when DIR cannot be used: not a directory, not writable, not creatable, or
    already holding files named ``prefix*`` (earlier output is never overwritten).  Creates nothing,
    so that a later refusal (Ray not installed) leaves nothing behind; `make_dir` creates it."""
    if not path:
        return "the directory name is empty"
    if os.path.exists(path) and not os.path.isdir(path):
        return f"{path} exists and is not a directory"
    if os.path.isdir(path) and any(n.startswith(prefix) for n in os.listdir(path)):
        return f"{path} already holds {prefix}* files; choose an empty or new directory"
    existing = os.path.abspath(path)
    while not os.path.exists(existing):  # the nearest existing folder is where DIR gets created
        existing = os.path.dirname(existing)
    if not os.path.isdir(existing):
        return f"cannot create {path}: {existing} is not a directory"
    if not os.access(existing, os.W_OK):
        return f"cannot write to {existing}" if existing == os.path.abspath(path) else f"cannot create {path}"
    return None


_HELD: dict[str, int] = {}  # the output directories of the runs going on in this process, locked


def make_dir(path: str, prefix: str) -> str | None:
    """Create DIR (checked by `check_dir`) and take it for this process: two runs started at once
    into one empty directory both passed `check_dir` and overwrote each other's files.  A lock on
    the directory (`release_dir`, or the process's end however it ends, lets it go) refuses the
    second, and `check_dir` is asked again under it.  An error message when DIR cannot be had."""
    try:
        os.makedirs(path, exist_ok=True)
    except OSError as e:
        return cannot("create", path, e)
    try:
        import fcntl
    except ImportError:  # (no such locks on Windows)
        return check_dir(path, prefix)
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError as e:
        return cannot("open", path, e)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        return f"another belot run is writing into {path}; choose another directory"
    problem = check_dir(path, prefix)
    if problem:
        os.close(fd)  # (closing the last descriptor releases the lock)
        return problem
    _HELD[os.path.realpath(path)] = fd
    return None


def release_dir(path: str | None) -> None:
    """Let go of a directory `make_dir` took (nothing if it took none)."""
    fd = None if path is None else _HELD.pop(os.path.realpath(path), None)
    if fd is not None:
        os.close(fd)


def runner_for(prog: str, args: argparse.Namespace, flag: str, path: str | None, prefix: str) -> Runner:
    """The runner of ``--jobs`` / ``--ray`` and the output directory ``path`` (``flag``'s, None:
    none) created and held (`make_dir`, after `check_dir` passed); `Fail` when either cannot be had."""
    from ..tournament import RayUnavailable, make_runner

    try:
        jobs = argtypes.worker_processes(prog, args.jobs) if args.ray in (None, "local") else args.jobs  # a cluster has its own
        runner = make_runner(jobs, False if args.ray is None else args.ray)
    except RayUnavailable as e:
        raise Fail(str(e)) from None
    problem = None if path is None else make_dir(path, prefix)
    if problem:
        runner.close()
        raise Fail(f"{flag}: {problem}")
    return runner  # (the caller closes it, and `release_dir`s the directory)


def run(args: argparse.Namespace) -> int:
    from ..contracts import NO_SHUFFLE
    from ..tournament import BotFailure, TournamentSpec, bot_key
    from ..tournament.duplicate import NO_SHUFFLE_REFUSAL

    for name in (args.bot_a, args.bot_b):
        try:
            bot_key(name)
        except ValueError as e:
            return fail(PROG, str(e))
    options = rules_from(args.parser, args).options
    if NO_SHUFFLE in options:
        return fail(PROG, NO_SHUFFLE_REFUSAL)
    problem = None if args.records is None else check_dir(args.records, "match-")
    if problem:
        return fail(PROG, f"--records: {problem}")
    spec = TournamentSpec(
        bot_a=bot_key(args.bot_a), bot_b=bot_key(args.bot_b), deals=args.deals, seed=args.seed,
        target=args.target, records=bool(args.records), options=options,
    )
    try:
        runner = runner_for(PROG, args, "--records", args.records, "match-")
    except Fail as e:
        return fail(PROG, str(e))
    try:
        result = _run_with_progress(spec, runner, args.records)
    except BotFailure as e:
        return fail(PROG, str(e), 1)
    except OSError as e:  # a record that cannot be written: a full disk, a directory removed meanwhile
        return fail(PROG, cannot("write", e.filename, e))
    finally:
        runner.close()
        release_dir(args.records)
    figures = result.figures()
    if args.json:
        print(json.dumps(figures, indent=1))
    else:
        print_table(figures)
    return 0


def _run_with_progress(spec, runner, records_dir):  # type: ignore[no-untyped-def]
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from ..tournament import run_tournament

    console = Console(stderr=True)
    with Progress(
        TextColumn("[progress.description]{task.description}"), BarColumn(), MofNCompleteColumn(),
        TimeElapsedColumn(), console=console, transient=True, disable=not console.is_terminal,
    ) as progress:
        task = progress.add_task(f"{spec.bot_a} vs {spec.bot_b}: deal pairs", total=spec.deals)

        def on_pair(pair, done):  # type: ignore[no-untyped-def]
            progress.update(task, completed=min(done, spec.deals))
            if records_dir:
                write_pair_records(records_dir, pair)

        return run_tournament(spec, runner, on_pair)


def write_pair_records(directory: str, pair) -> None:  # type: ignore[no-untyped-def]
    """``match-KKKKK-0.json`` (A on team 0) and ``match-KKKKK-1.json`` (A on team 1)."""
    for half, outcome in enumerate(pair.halves):
        path = os.path.join(directory, f"match-{pair.index:05d}-{half}.json")
        write_record(path, outcome.record)


def write_record(path: str, text: str) -> None:
    """The record ``text`` (`belot.record.dumps`) as `belot.record.write` writes one: ending with a newline."""
    write_whole(path, (text + "\n").encode("utf-8"))


def write_whole(path: str, data: bytes) -> None:
    """Write whole or not at all: a temporary file renamed into place.  An OSError names ``path``."""
    tmp = path + ".tmp"
    try:
        with open(tmp, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except OSError as e:
        raise OSError(e.errno, e.strerror or str(e), path) from None
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def print_table(fig: dict) -> None:  # type: ignore[type-arg]
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    a, b = fig["bot_a"], fig["bot_b"]
    ppd, mw = fig["points_per_deal"], fig["match_wins"]
    rules = f", options {' '.join(fig['options'])}" if fig.get("options") else ""
    table = Table(title=f"{a} vs {b}: duplicate, seed {fig['seed']}, matches to {fig['target']}{rules}")
    table.add_column("figure")
    table.add_column("value", justify="right")
    table.add_row("match pairs / matches", f"{fig['match_pairs']} / {fig['matches']}")
    table.add_row("deal pairs (deals played)", f"{fig['deal_pairs']} ({fig['deals_played']})")
    table.add_row(f"game points per deal: {a} / {b}", f"{_f(ppd['a'])} / {_f(ppd['b'])}")
    lo, hi = ppd["ci95"]
    # escaped: "[n/a, n/a]" (one match pair, no interval) is rich markup and was dropped unseen
    table.add_row(f"{a} - {b} per deal (95% CI)",
                  escape(f"{_f(ppd['difference'], True)}  [{_f(lo, True)}, {_f(hi, True)}]"))
    lo, hi = mw["ci95"]
    table.add_row(f"{a} match wins / losses", f"{mw['a']} / {mw['b']}")
    table.add_row(f"{a} match win rate (95% Wilson)", escape(f"{_pct(mw['win_rate'])}  [{_pct(lo)}, {_pct(hi)}]"))
    table.add_row("pairs won both / split / lost both", f"{mw['pairs_won_both']} / {mw['pairs_split']} / {mw['pairs_lost_both']}")
    for side, name in (("a", a), ("b", b)):
        c = fig["contracts"][side]
        table.add_row(
            f"{name} contracts: made/hanging/inside (doubled)",
            f"{c['contracts']}: {c['made']} / {c['hanging']} / {c['inside']} ({c['doubled']})",
        )
    for side, name in (("a", a), ("b", b)):
        t = fig["timing"][side]
        table.add_row(
            f"decision ms, {name} ({'A' if side == 'a' else 'B'}): median / p95 / max",
            f"{t['median_ms']:.3f} / {t['p95_ms']:.3f} / {t['max_ms']:.3f}",
        )
    Console().print(table)


def _f(x: float | None, sign: bool = False) -> str:
    if x is None:
        return "n/a"
    return f"{x:+.2f}" if sign else f"{x:.2f}"


def _pct(x: float | None) -> str:
    return "n/a" if x is None else f"{100 * x:.1f}%"
