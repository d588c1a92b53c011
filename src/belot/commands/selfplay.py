"""``belot selfplay --games N --out DIR``: self-play data, one record (and observations) per match.

Matches are played through the tournament's match path (`belot.tournament.play_match`) on
``--jobs`` local processes or a Ray cluster (``--ray [ADDRESS]``); the files depend only on the
seed, the bots and N.  Game g is written as ``DIR/game-GGGGGG.json`` (belot-record/1) and, with
``--observations``, ``DIR/game-GGGGGG.npz`` holding per decision: ``observations`` (the acting
seat's `belot.env.encoding.encode` vector), ``action_masks``, ``actions``, ``seats``,
``deal_index`` and ``rewards`` (the game points of that deal, the acting seat's team minus the
other team: belot_v0's reward), plus ``deal_points`` (per deal, the points of teams 0 and 1).
"""

from __future__ import annotations

import argparse
import os

from . import _argtypes as argtypes
from ._fail import Fail, cannot, fail
from ._options import add_option_argument, rules_from

PROG = "belot selfplay"


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "selfplay",
        help="write self-play matches as records (and encoded observations) for training",
        description=(
            "Self-play data.  --bots takes one name (all four seats), two (A and B; games 2k and "
            "2k+1 play the same deals with the teams swapped, as in a tournament) or four (by seat)."
        ),
    )
    p.add_argument("--games", type=argtypes.count, required=True, help="number of matches to play")
    p.add_argument("--out", required=True, metavar="DIR", help="directory for the files (created if needed)")
    p.add_argument("--bots", nargs="+", default=["heuristic"], metavar="BOT", help="bot names (default heuristic)")
    p.add_argument("--seed", type=argtypes.seed, default=1, help="seed: same seed, same files (default 1)")
    p.add_argument("--jobs", type=argtypes.jobs, default=1, help="worker processes (default 1; at most one per CPU)")
    p.add_argument("--target", type=argtypes.target, default=151, help="match target (default 151)")
    p.add_argument("--observations", action="store_true", help="also write the encoded observations (.npz)")
    p.add_argument(
        "--ray", nargs="?", const="local", default=None, metavar="ADDRESS",
        help="run on Ray: local Ray with --jobs CPUs, or the cluster at ADDRESS (needs belot[ray])",
    )
    add_option_argument(p)
    p.set_defaults(func=run, parser=p)


def game_specs(bots: list[str], games: int, seed: int, target: int, observations: bool,  # type: ignore[no-untyped-def]
               options: tuple[str, ...] = ()):
    """The MatchSpec of each game, in order (see the module doc for the seating)."""
    from ..tournament import MatchSpec

    for g in range(games):
        if len(bots) == 1:
            seats, index = (bots[0],) * 4, g
        elif len(bots) == 2:
            a, b = bots
            seats, index = ((a, b, a, b) if g % 2 == 0 else (b, a, b, a)), g // 2
        else:
            seats, index = (bots[0], bots[1], bots[2], bots[3]), g
        yield MatchSpec(seats=seats, seed=seed, index=index, target=target, record=True,  # type: ignore[arg-type]
                        observations=observations, options=options)


def run(args: argparse.Namespace) -> int:
    from ..tournament import BotFailure, bot_key, play_match
    from .tournament import check_dir, release_dir, runner_for, write_record, write_whole

    if len(args.bots) not in (1, 2, 4):
        return fail(PROG, f"--bots takes 1, 2 or 4 names, not {len(args.bots)}")
    try:
        bots = [bot_key(b) for b in args.bots]
    except ValueError as e:
        return fail(PROG, str(e))
    options = rules_from(args.parser, args).options
    if args.observations:
        try:
            import belot.env.encoding  # noqa: F401
        except ImportError as e:
            return fail(PROG, f"--observations needs belot.env.encoding and numpy: {e}")
    problem = check_dir(args.out, "game-")
    if problem:
        return fail(PROG, f"--out: {problem}")
    try:
        runner = runner_for(PROG, args, "--out", args.out, "game-")
    except Fail as e:
        return fail(PROG, str(e))

    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    console = Console(stderr=True)
    deals = decisions = 0
    try:
        with Progress(
            TextColumn("selfplay"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
            console=console, transient=True, disable=not console.is_terminal,
        ) as progress:
            task = progress.add_task("games", total=args.games)
            specs = game_specs(bots, args.games, args.seed, args.target, args.observations, options)
            for g, outcome in enumerate(runner.ordered(play_match, specs)):
                base = os.path.join(args.out, f"game-{g:06d}")
                write_record(base + ".json", outcome.record)
                if outcome.npz is not None:
                    write_whole(base + ".npz", outcome.npz)
                deals += len(outcome.deal_points)
                decisions += sum(len(t) for t in outcome.times)
                progress.update(task, advance=1)
    except BotFailure as e:
        return fail(PROG, str(e), 1)
    except OSError as e:  # a file that cannot be written: a full disk, a directory removed meanwhile
        return fail(PROG, cannot("write", e.filename, e))
    finally:
        runner.close()
        release_dir(args.out)
    what = "records and observations" if args.observations else "records"
    print(f"{args.games} games, {deals} deals, {decisions} decisions: {what} written to {args.out}")
    return 0

