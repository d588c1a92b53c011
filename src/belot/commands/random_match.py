"""``belot random-match --seed N [--out FILE]``: a whole match of uniformly random legal play."""

from __future__ import annotations

import argparse
import random

from ..contracts import Rules
from . import _argtypes as argtypes
from ._fail import cannot, fail
from ._options import add_option_argument, rules_from


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("random-match", help="write the record of a match of random legal play")
    p.add_argument("--seed", type=argtypes.seed, required=True, help="the seed: same seed, same record")
    p.add_argument("--out", help="write the record here (default: standard output)")
    add_option_argument(p)
    p.set_defaults(func=run, parser=p)


def random_match(seed: int, rules: Rules | None = None):  # type: ignore[no-untyped-def]
    """The match in which every seat plays the ``random`` bot, all seeded from ``seed``, under ``rules``."""
    from ..bots import make_bot
    from ..game import Match

    rng = random.Random(seed)
    bots = [make_bot("random", seed=rng.randrange(2**32)) for _ in range(4)]
    match = Match(rules, rng=rng, players=["bot:random"] * 4)
    while not match.is_over:
        seat = match.current_player
        match.apply(bots[seat].act(match.view(seat)))
    return match


def run(args: argparse.Namespace) -> int:
    from ..record import dumps, write

    if args.out == "":  # not taken for no --out, which prints the record
        return fail("belot random-match", "--out: the file name is empty")
    match = random_match(args.seed, rules_from(args.parser, args))
    if args.out is not None:
        try:
            write(match, args.out)
        except OSError as e:
            return fail("belot random-match", cannot("write", args.out, e))
    else:
        print(dumps(match))
    return 0
