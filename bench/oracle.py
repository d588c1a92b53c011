"""How much the hidden cards cost ``expert``, phase by phase: ``expert`` told the real cards.

A bound, not a bot: the variants cheat.  ``oracle-bid`` is ``expert`` whose auction draws the real
deal (the others' hands and the three cards still to come) instead of sampled ones, one deal a call;
``oracle-play`` is ``expert`` whose card play solves the real hands (and the declarations really
announced) instead of sampled worlds, one world a card; ``oracle`` does both.  Everything else is
``expert``'s (the calls' and cards' scoring, the match equity, the declarer penalty), so a
tournament of a variant against the same bot and seed as an ``expert`` run, compared with
``bench/paired.py RUN BASE --bot oracle-bid --bot-b expert``, says what better information in that
phase could give at most: what inference, a learned model or a better sampler could win back there
is less.

The real deal reaches the variant through a wrapper of `Match.view` in this process only, so the
tournament runs with ``--jobs 1`` (its workers would start without it).

    python bench/oracle.py oracle-bid heuristic --deals 300 --seed 3 --records DIR
"""

from __future__ import annotations

import argparse
import random
import sys
from typing import Any

import belot.bots.pimc as pimc
from belot.bots import REGISTRY
from belot.bots.expert import ExpertBot
from belot.bots.sampling import Knowledge, World
from belot.cli import main as belot_main
from belot.game import Deal, Match, SeatView

_current: list[Deal] = []  # the deal of the last view the match made
_active = {"bid": False, "play": False}  # whether the deciding bot sees the real deal now
_match_view, _sample, _sample_auction = Match.view, pimc.sample, pimc.sample_auction


def _view(self: Match, seat: int) -> SeatView:
    _current[:] = self.deals[-1:]
    return _match_view(self, seat)


def real_world() -> World:
    """The deal being played: every seat's cards now and the declarations announced so far."""
    d = _current[0]
    return World((d.hands[0], d.hands[1], d.hands[2], d.hands[3]), tuple(tuple(x) for x in d.declared))


def _sample_or_real(k: Knowledge, rng: random.Random) -> World:
    return real_world() if _active["play"] else _sample(k, rng)


def _sample_auction_or_real(view: SeatView, rng: random.Random, *args: Any, **kwargs: Any) -> World:
    return real_world() if _active["bid"] else _sample_auction(view, rng, *args, **kwargs)


class Oracle(ExpertBot):
    """``expert`` that sees the real cards in the auction and in the card play."""

    name = "oracle"
    sees_bid = sees_play = True

    def act(self, view: SeatView) -> int:
        auction = view.phase == "auction"
        _active["bid"], _active["play"] = auction and self.sees_bid, not auction and self.sees_play
        try:
            return super().act(view)
        finally:
            _active["bid"] = _active["play"] = False

    def _more_worlds(self, worlds: int, nodes: int, values: dict[int, list[float]]) -> bool:
        return worlds < 1 if _active["play"] else super()._more_worlds(worlds, nodes, values)

    def _more_bid_worlds(self, n: int, nodes: int, values: list[list[float]]) -> bool:
        return n < 1 if _active["bid"] else super()._more_bid_worlds(n, nodes, values)


class OracleBid(Oracle):
    """``expert`` that sees the real cards in the auction only."""

    name = "oracle-bid"
    sees_play = False


class OraclePlay(Oracle):
    """``expert`` that sees the real cards in the card play only."""

    name = "oracle-play"
    sees_bid = False


VARIANTS = {"oracle": Oracle, "oracle-bid": OracleBid, "oracle-play": OraclePlay}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("variant", choices=sorted(VARIANTS))
    ap.add_argument("other", help="the bot it plays against (a `belot tournament` bot name)")
    ap.add_argument("--deals", type=int, default=300, help="deal pairs (default 300)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--records", help="folder for the match records (for bench/paired.py)")
    args = ap.parse_args(argv)
    Match.view = _view  # type: ignore[method-assign]
    pimc.sample, pimc.sample_auction = _sample_or_real, _sample_auction_or_real
    REGISTRY.update({name: f"{__name__}:{cls.__name__}" for name, cls in VARIANTS.items()})
    cmd = ["tournament", args.variant, args.other, "--deals", str(args.deals), "--seed", str(args.seed), "--jobs", "1"]
    return belot_main(cmd + (["--records", args.records] if args.records else []))


if __name__ == "__main__":
    sys.exit(main())
