"""One `belot tournament` played in parts, on several machines, and put together again.

A tournament's match pairs are independent (`belot.tournament.duplicate`: pair k's deals and bot
seeds come from the seed and k alone), so any machine can play any of them.  ``play`` plays the
matches of pairs FROM..TO-1 of one or more seeds on ``--jobs`` processes, in that order, and keeps
each finished match as a file (``S-KKKKK-H.pkl.gz``) the moment it ends, so a run stopped at any
time (``--seconds``) keeps every match it finished; a match already kept in ``--out`` is not played
again.  ``merge`` reads such folders, takes the seed's pairs in order from 0 until the deal pairs
reach ``--deals`` (as `belot tournament` stops), or exactly the pairs ``--pairs FROM:TO`` (to
pair a run's later pairs with another run's records), and prints the tournament's figures, the same as
``belot tournament A B --deals N --seed S --json`` gives (the decision times excepted: they are
those of the machines that played), and writes the records as ``--records`` does.  It stops with
a message when a pair it needs is missing.

    python bench/split_run.py play expert pimc --seeds 1 2 --pairs 0:120 --jobs 16 --out parts --seconds 540
    python bench/split_run.py merge expert pimc --seed 1 --deals 1000 parts more-parts --records acc1
    python bench/split_run.py merge expert pimc --seed 1 --pairs 27:54 parts --records later
"""

from __future__ import annotations

import argparse
import dataclasses
import gzip
import json
import os
import pickle
import sys
import time
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from pathlib import Path

from argtypes import bot_name, positive, seconds
from running import run

from belot.tournament import TournamentSpec
from belot.tournament.duplicate import PairOutcome, TournamentResult, half_spec
from belot.tournament.matches import MatchOutcome, play_match


def part_name(seed: int, k: int, half: int) -> str:
    return f"{seed}-{k:05d}-{half}.pkl.gz"


def play_one(args: tuple[TournamentSpec, int, int, str]) -> str:
    spec, k, half, out = args
    outcome = play_match(half_spec(spec, k, half))
    path = os.path.join(out, part_name(spec.seed, k, half))
    with gzip.open(path + ".tmp", "wb") as f:
        pickle.dump(outcome, f)
    os.replace(path + ".tmp", path)  # whole or not at all
    return path


def pair_range(text: str) -> range:
    """``FROM:TO`` (FROM < TO) as the range of pair indices, for argparse's ``type=``."""
    lo, sep, hi = text.partition(":")
    if not (sep and lo.isdigit() and hi.isdigit() and int(lo) < int(hi)):
        raise argparse.ArgumentTypeError(f"must be FROM:TO with FROM < TO, not {text!r}")
    return range(int(lo), int(hi))


def play(args: argparse.Namespace) -> int:
    out = str(args.out)
    os.makedirs(out, exist_ok=True)
    todo = []
    for seed in args.seeds:
        spec = TournamentSpec(args.bot_a, args.bot_b, deals=1, seed=seed, records=True)
        for k in args.pairs:
            for half in (0, 1):
                if not os.path.exists(os.path.join(out, part_name(seed, k, half))):
                    todo.append((spec, k, half, out))
    deadline = time.monotonic() + args.seconds if args.seconds else None
    done = 0
    pool = ProcessPoolExecutor(args.jobs)
    queue = iter(todo)
    running = {pool.submit(play_one, t) for t in [next(queue) for _ in range(min(args.jobs, len(todo)))]}
    while running:
        left = None if deadline is None else deadline - time.monotonic()
        if left is not None and left <= 0:
            break
        finished, running = wait(running, timeout=left, return_when=FIRST_COMPLETED)
        for fut in finished:
            print(os.path.basename(fut.result()), flush=True)
            done += 1
            nxt = next(queue, None)
            if nxt is not None:
                running.add(pool.submit(play_one, nxt))
    processes = list(getattr(pool, "_processes", {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for proc in processes:  # matches cut short by --seconds
        proc.kill()
    print(f"{done} matches played, {len(todo) - done} not", flush=True)
    return 0


def load(folders: list[Path], seed: int, k: int, half: int) -> MatchOutcome | None:
    for folder in folders:
        path = folder / part_name(seed, k, half)
        if path.exists():
            try:
                with gzip.open(path, "rb") as f:
                    outcome = pickle.load(f)
            except (OSError, EOFError, pickle.UnpicklingError) as e:
                raise SystemExit(f"split_run.py: {path} is not a kept match: {e}") from None
            if not isinstance(outcome, MatchOutcome):
                raise SystemExit(f"split_run.py: {path} is not a kept match")
            return outcome
    return None


def merge(args: argparse.Namespace) -> int:
    spec = TournamentSpec(args.bot_a, args.bot_b, deals=args.deals, seed=args.seed, records=True)
    result = TournamentResult(spec)
    done = 0
    wanted = args.pairs or range(sys.maxsize)
    for k in wanted:
        if not args.pairs and done >= spec.deals:
            break
        halves = (load(args.folders, spec.seed, k, 0), load(args.folders, spec.seed, k, 1))
        if halves[0] is None or halves[1] is None:
            print(f"split_run.py: pair {k} of seed {spec.seed} is missing (half "
                  f"{0 if halves[0] is None else 1}); {done} deal pairs so far", file=sys.stderr)
            return 1
        pair = PairOutcome(k, (halves[0], halves[1]))
        result.pairs.append(pair)
        done += pair.paired
    if args.pairs:  # the figures' deals_requested: the deal pairs taken
        result = TournamentResult(dataclasses.replace(spec, deals=done), result.pairs)
    if args.records:
        args.records.mkdir(parents=True, exist_ok=True)
        for pair in result.pairs:
            for half, outcome in enumerate(pair.halves):
                assert outcome.record is not None
                (args.records / f"match-{pair.index:05d}-{half}.json").write_text(outcome.record)
    print(json.dumps(result.figures(), indent=1))
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("play", help="play pairs FROM..TO-1 of each seed, one file a match")
    p.add_argument("bot_a", type=bot_name)
    p.add_argument("bot_b", type=bot_name)
    p.add_argument("--seeds", type=int, nargs="+", required=True)
    p.add_argument("--pairs", type=pair_range, required=True, metavar="FROM:TO")
    p.add_argument("--jobs", type=positive, default=2)
    p.add_argument("--out", type=Path, required=True)
    p.add_argument("--seconds", type=seconds, default=0, help="stop after this long, keeping what finished")
    p.set_defaults(func=play)
    m = sub.add_parser("merge", help="the figures of one seed from the pairs kept in FOLDERS")
    m.add_argument("bot_a", type=bot_name)
    m.add_argument("bot_b", type=bot_name)
    m.add_argument("folders", type=Path, nargs="+")
    m.add_argument("--seed", type=int, required=True)
    which = m.add_mutually_exclusive_group()
    which.add_argument("--deals", type=positive, default=1000, help="pairs from 0 until this many deal pairs")
    which.add_argument("--pairs", type=pair_range, metavar="FROM:TO", help="exactly pairs FROM..TO-1")
    m.add_argument("--records", type=Path, help="write the records (match-KKKKK-H.json) here")
    m.set_defaults(func=merge)
    args = ap.parse_args()
    if args.cmd == "play":
        if args.out.exists() and not args.out.is_dir():
            ap.error(f"--out: {args.out} exists and is not a folder")
    else:
        for folder in args.folders:
            if not folder.is_dir():
                ap.error(f"no such folder: {folder}")
    return int(args.func(args))


if __name__ == "__main__":
    run(main)
