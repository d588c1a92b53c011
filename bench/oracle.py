"""How much the hidden cards cost ``expert``, phase by phase: ``expert`` told the real cards.

A bound, not a bot: the variants cheat.  ``oracle-bid`` is ``expert`` whose auction draws the real
deal (the others' hands and the three cards still to come) instead of sampled ones, one deal a call;
``oracle-bid-partner`` and ``oracle-bid-others`` see in the auction only the partner's cards or only
the other team's (the rest as sampled, the real cards swapped in, as many deals as ``expert``
draws); ``oracle-play`` is ``expert`` whose card play solves the real hands (and the declarations
really announced) instead of sampled worlds, one world a card; ``oracle-play-partner`` knows in the
card play only its partner's cards (the other team's drawn around them by ``expert``'s sampler, as
many worlds as it draws); ``oracle`` does both.  (In the card play the other team's cards would also
give the partner's, the seat's own being known: no variant for them.)  Everything else is
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
from typing import Any

from argtypes import positive
from running import run

import belot.bots.pimc as pimc
from belot.bots import REGISTRY
from belot.bots.expert import ExpertBot
from belot.bots.sampling import Knowledge, World
from belot.cli import main as belot_main
from belot.game import Deal, Match, SeatView

_current: list[Deal] = []  # the deal of the last view the match made
_active: dict[str, Any] = {"bid": (), "play": ()}  # the seats whose real cards the deciding bot sees now
_match_view, _sample, _sample_auction = Match.view, pimc.sample, pimc.sample_auction


def _view(self: Match, seat: int) -> SeatView:
    _current[:] = self.deals[-1:]
    return _match_view(self, seat)


def real_world() -> World:
    """The deal being played: every seat's cards now and the declarations announced so far."""
    d = _current[0]
    return World((d.hands[0], d.hands[1], d.hands[2], d.hands[3]), tuple(tuple(x) for x in d.declared))


def _sample_or_real(k: Knowledge, rng: random.Random) -> World:
    return real_world() if len(_active["play"]) == 4 else _sample(k, rng)


def with_hands(k: Knowledge, seats: tuple[int, ...]) -> None:
    """Make the real cards of ``seats`` hard facts of ``k``: each such seat must hold its unseen real
    cards and nothing else, and no other seat may hold them (the sampler then draws the rest)."""
    d = _current[0]
    for s in seats:
        real = d.hands[s] & k.unknown
        k.required[s] |= real
        k.forbidden[s] |= k.unknown & ~real
        for x in range(4):
            if x != s:
                k.forbidden[x] |= real


def with_real(w: World, seats: tuple[int, ...]) -> World:
    """``w`` with the real cards of ``seats``: each real card missing from such a seat is swapped
    with one of that seat's sampled cards that is not real, wherever the real one was sampled."""
    d = _current[0]
    hands = list(w.hands)
    for s in seats:
        for c in range(32):
            if d.hands[s] >> c & 1 and not hands[s] >> c & 1:
                h = next(x for x in range(4) if hands[x] >> c & 1)
                spare = next(e for e in range(32) if hands[s] >> e & 1 and not d.hands[s] >> e & 1)
                hands[s] ^= 1 << c | 1 << spare
                hands[h] ^= 1 << c | 1 << spare
    return World((hands[0], hands[1], hands[2], hands[3]), w.declarations)


def _sample_auction_or_real(view: SeatView, rng: random.Random, *args: Any, **kwargs: Any) -> World:
    seats = _active["bid"]
    if not seats:
        return _sample_auction(view, rng, *args, **kwargs)
    if len(seats) == 4:
        return real_world()
    return with_real(_sample_auction(view, rng, *args, **kwargs), seats)


class Oracle(ExpertBot):
    """``expert`` that sees the real cards in the auction and in the card play."""

    name = "oracle"
    # whose real cards the auction sees: all, partner (its own three still to come sampled), others
    # (the other team's; the partner's and its own three sampled) or None (none: expert's auction)
    bid_sees: str | None = "all"
    play_sees: str | None = "all"  # the same for the card play: all, partner or None

    def act(self, view: SeatView) -> int:
        sees = self.bid_sees if view.phase == "auction" else self.play_sees
        seats = () if sees is None else {"all": (0, 1, 2, 3), "partner": ((view.seat + 2) & 3,),
                                         "others": ((view.seat + 1) & 3, (view.seat + 3) & 3)}[sees]
        _active["bid" if view.phase == "auction" else "play"] = seats
        try:
            return super().act(view)
        finally:
            _active["bid"], _active["play"] = (), ()

    def knowledge(self, view: SeatView) -> Knowledge:
        k = super().knowledge(view)
        with_hands(k, _active["play"])
        return k

    def _more_worlds(self, worlds: int, nodes: int, values: dict[int, list[float]]) -> bool:
        return worlds < 1 if len(_active["play"]) == 4 else super()._more_worlds(worlds, nodes, values)

    def _more_bid_worlds(self, n: int, nodes: int, values: list[list[float]]) -> bool:
        return n < 1 if len(_active["bid"]) == 4 else super()._more_bid_worlds(n, nodes, values)


class OracleBid(Oracle):
    """``expert`` that sees the real cards in the auction only."""

    name = "oracle-bid"
    play_sees = None


class OracleBidPartner(OracleBid):
    """``expert`` that sees its partner's real cards in the auction only."""

    name = "oracle-bid-partner"
    bid_sees = "partner"


class OracleBidOthers(OracleBid):
    """``expert`` that sees the other team's real cards in the auction only."""

    name = "oracle-bid-others"
    bid_sees = "others"


class OraclePlay(Oracle):
    """``expert`` that sees the real cards in the card play only."""

    name = "oracle-play"
    bid_sees = None


class OraclePlayPartner(OraclePlay):
    """``expert`` that knows its partner's real cards in the card play only."""

    name = "oracle-play-partner"
    play_sees = "partner"


VARIANTS = {"oracle": Oracle, "oracle-bid": OracleBid, "oracle-bid-partner": OracleBidPartner,
            "oracle-bid-others": OracleBidOthers, "oracle-play": OraclePlay,
            "oracle-play-partner": OraclePlayPartner}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("variant", choices=sorted(VARIANTS))
    ap.add_argument("other", help="the bot it plays against (a `belot tournament` bot name)")
    ap.add_argument("--deals", type=positive, default=300, help="deal pairs (default 300)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--records", help="folder for the match records (for bench/paired.py)")
    args = ap.parse_args(argv)
    Match.view = _view  # type: ignore[method-assign]
    pimc.sample, pimc.sample_auction = _sample_or_real, _sample_auction_or_real
    REGISTRY.update({name: f"{__name__}:{cls.__name__}" for name, cls in VARIANTS.items()})
    cmd = ["tournament", args.variant, args.other, "--deals", str(args.deals), "--seed", str(args.seed), "--jobs", "1"]
    return belot_main(cmd + (["--records", args.records] if args.records else []))


if __name__ == "__main__":
    run(main)
