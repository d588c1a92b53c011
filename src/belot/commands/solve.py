"""``belot solve FILE [--deal N] [--at K] [--json]``: open-card values of the legal cards of a position.

The position is the one before ``play[K]`` of deal ``N`` of a record (both 0-based indices into
the record's lists; by default the last deal and its current position).  A card's value is the
most card points (the last-trick 10 included, not doubled in NT, no belote or valat bonus) that
the team of the player to move takes from the current trick (cards already on it included) to
the end, if that card is played now and all four then play perfectly with all hands open.
The record is replayed under the house rules it lists (``options``); none of them changes this
objective (docs/rules.md section 6).
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from . import _argtypes as argtypes
from ._fail import Fail, fail, read_record


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("solve", help="open-card (double dummy) value of each legal card of a record position")
    p.add_argument("file", help="the record (belot-record/1 JSON); - reads standard input")
    p.add_argument("--deal", type=argtypes.index, default=None, help="deal index, 0-based (default: the last deal)")
    p.add_argument("--at", type=argtypes.index, default=None,
                   help="play index K, 0-based: the position before play[K] (default: the current position)")
    p.add_argument("--json", action="store_true", help='print {"to_play", "objective", "values"} as JSON')
    p.set_defaults(func=run)


def _position(doc: Any, deal: int | None, at: int | None) -> tuple[Any, int, int]:
    """Replay the record up to the asked position; return (deal state, deal index, play index)."""
    from ..errors import RecordError
    from ..game import PLAY
    from ..record import replay

    try:
        replay(doc)  # the whole record is checked: an illegal card after the position is still refused
    except RecordError as e:
        raise Fail(str(e)) from None
    deals = doc["deals"]
    if not deals:
        raise Fail("the record has no deal")
    n = len(deals) - 1 if deal is None else deal
    if not 0 <= n < len(deals):
        raise Fail(f"--deal {deal} is out of range: the record has {len(deals)} deal{'s' if len(deals) != 1 else ''} (0-{len(deals) - 1})")
    target = deals[n]
    play = target.get("play", []) if isinstance(target, dict) else []
    if not isinstance(play, list):
        raise Fail(f"deal {n}: play must be a list of cards")
    k = len(play) if at is None else at
    if not 0 <= k <= len(play):
        raise Fail(f"--at {at} is out of range: deal {n} has {len(play)} plays (positions 0-{len(play)})")
    cut = dict(doc)
    cut["deals"] = [*deals[:n], dict(target, play=play[:k])] if isinstance(target, dict) else deals[: n + 1]
    try:
        match = replay(cut)
    except RecordError as e:
        raise Fail(str(e)) from None
    d = match.deals[-1]
    if d.phase != PLAY:
        if d.is_over and k > 0:  # (a whole deal's record: the default position is its end)
            raise Fail(f"deal {n} is over after its {k} plays: give --at K, 0 to {k - 1}, to solve"
                       f" the position before play[K]")
        why = "the deal is over" if d.is_over else "the auction is not over"
        raise Fail(f"deal {n} before play[{k}] is not in the play phase: {why}")
    return d, n, k


def run(args: argparse.Namespace) -> int:
    from ..cards import CARD_NAMES
    from ..contracts import CONTRACT_NAMES
    from ..solver import Position, Solver

    try:
        d, n, k = _position(read_record(args.file), args.deal, args.at)
    except Fail as e:
        return fail("belot solve", str(e))
    pos = Position.from_deal(d)
    values = Solver().card_values(pos)
    ranked = sorted(values.items(), key=lambda cv: (-cv[1], cv[0]))
    if args.json:
        doc_out = {"to_play": pos.to_move, "objective": "card-points",
                   "values": {CARD_NAMES[c]: v for c, v in ranked}}
        print(json.dumps(doc_out))
        return 0
    trick = " ".join(CARD_NAMES[c] for _, c in pos.trick) or "-"
    print(f"deal {n}, before play[{k}]: contract {CONTRACT_NAMES[pos.contract]}, trick {pos.tricks_done + 1}"
          f" (on the table: {trick}), seat {pos.to_move} to play")
    print("card points the mover's team takes from here with perfect play (last 10 included):")
    for c, v in ranked:
        print(f"  {CARD_NAMES[c]}  {v:>3}")
    return 0
