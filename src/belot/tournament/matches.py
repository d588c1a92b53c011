"""One match between bots from a seeded deal stream: the single match-playing path that tournaments and
self-play share.

A match is described by a `MatchSpec`: the bots by seat, a seed and an index.  The first dealer and the
shuffled hands of every deal come from a `random.Random` seeded by (seed, index), so two matches with the
same seed and index play the same deals whoever sits where.  The bot at seat s in deal j is made afresh
with a seed derived from (seed, index, j, s): the same whichever bot sits there, so a match is
reproducible on its own.  Bots see only their seat's view.
"""

from __future__ import annotations

import hashlib
import io
import random
import time
from dataclasses import dataclass, field
from typing import Any

from ..contracts import Rules
from ..errors import shown
from ..game import Match

MAX_DEALS = 1000  # a match still going after this many deals more than it may need is a broken bot (e.g. one that always passes)


def deal_limit(target: int) -> int:
    """The deals after which a match to ``target`` has gone on too long: each played deal puts at
    least 16 game points on the board or into the pot that the next scored deal collects (R6.4,
    R11), so one team reaches the target within some ``target / 8`` played deals; the limit is
    ``target / 4`` and `MAX_DEALS` more.  A fixed 1,000 stopped matches to
    10,000 between heuristic bots, which take about 1,000 deals ("do the bots ever bid?")."""
    return MAX_DEALS + target // 4


class BotFailure(RuntimeError):
    """A bot raised or returned an illegal action; the message names the bot, match and deal."""


def derive_seed(*parts: object) -> int:
    """A 64-bit seed from the parts (stable across processes and Python runs, unlike hash())."""
    text = ":".join(str(p) for p in parts).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big")


def bot_key(name: str) -> str:
    """``heuristic`` for ``heuristic`` or ``bot:heuristic``; ValueError naming unknown bots."""
    from ..bots import REGISTRY, bot_names

    key = name.removeprefix("bot:")
    if key not in REGISTRY:
        raise ValueError(f"unknown bot {shown(name)}; known bots: {', '.join(bot_names())}")
    return key


@dataclass(frozen=True, slots=True)
class MatchSpec:
    """One match to play: the bots by seat and where its deals and bot seeds come from."""

    seats: tuple[str, str, str, str]  # bot names by seat
    seed: int  # the tournament (or self-play) seed
    index: int  # the match pair (tournament) or game (self-play) number: selects the deal stream
    target: int = 151
    record: bool = False  # return the record text
    observations: bool = False  # return the encoded observations (.npz bytes)
    options: tuple[str, ...] = ()  # the house rules in force (docs/rules.md section 6), in the record too
    start: tuple[int, int] = (0, 0)  # the score the match starts from (an end game: bench/endgame.py); no record then


@dataclass(slots=True)
class MatchOutcome:
    winner: int  # team 0 or 1
    score: tuple[int, int]
    deal_points: list[tuple[int, int]]  # game points of each team in each deal (pot included)
    times: list[list[float]]  # decision seconds by seat
    # Per deal: (contract, declarer seat, multiplier, outcome); contract -1 when all passed.
    contracts: list[tuple[int, int, int, str]] = field(default_factory=list)
    record: str | None = None
    npz: bytes | None = None


def play_match(spec: MatchSpec) -> MatchOutcome:
    """Play one match of ``spec`` from its seeded deal stream; bots see only their seat's view."""
    from ..bots import make_bot

    if spec.start != (0, 0) and spec.record:
        raise ValueError("a match started from a score has no record (a record starts at 0 to 0)")
    rng = random.Random(derive_seed(spec.seed, "deals", spec.index))
    players = [f"bot:{bot_key(n)}" for n in spec.seats]
    match = Match(Rules.from_options(spec.options), target=spec.target, rng=rng, players=players)
    match.score = list(spec.start)
    times: list[list[float]] = [[], [], [], []]
    bots: list[Any] = []
    bots_deal = -1
    obs = _ObservationLog() if spec.observations else None
    clock = time.perf_counter
    while not match.is_over:
        deal_index = len(match.deals) - 1
        if deal_index != bots_deal:  # bot randomness seeded by deal and seat
            if deal_index >= deal_limit(spec.target):
                raise BotFailure(
                    f"match {spec.index} (seed {spec.seed}) has no winner after {deal_limit(spec.target)} deals "
                    f"({', '.join(spec.seats)}): do the bots ever bid?"
                )
            bots = [make_bot(spec.seats[s], derive_seed(spec.seed, "bot", spec.index, deal_index, s)) for s in range(4)]
            bots_deal = deal_index
        seat = match.current_player
        view = match.view(seat)
        start = clock()
        try:
            action = bots[seat].act(view)
            times[seat].append(clock() - start)
            if obs is not None:
                obs.add(view, action, deal_index)
            match.apply(action)
        except Exception as e:
            raise BotFailure(
                f"bot {spec.seats[seat]!r} at seat {seat} failed in match {spec.index} (seed {spec.seed}), "
                f"deal {deal_index}: {type(e).__name__}: {e}"
            ) from None
    assert match.winner is not None
    record = None
    if spec.record:
        from ..record import dumps

        record = dumps(match)
    return MatchOutcome(
        winner=match.winner,
        score=(match.score[0], match.score[1]),
        deal_points=[(r.points[0], r.points[1]) for r in match.results],
        times=times,
        contracts=[(r.contract, r.declarer, r.multiplier, r.outcome) for r in match.results],
        record=record,
        npz=obs.to_npz([(r.points[0], r.points[1]) for r in match.results]) if obs is not None else None,
    )


class _ObservationLog:
    """Per decision: the encoded view (belot.env.encoding), its action mask, the action taken."""

    def __init__(self) -> None:
        from ..env.encoding import action_mask, encode

        self.encode, self.mask = encode, action_mask
        self.obs: list[Any] = []
        self.masks: list[Any] = []
        self.actions: list[int] = []
        self.seats: list[int] = []
        self.deals: list[int] = []

    def add(self, view: Any, action: int, deal_index: int) -> None:
        self.obs.append(self.encode(view))
        self.masks.append(self.mask(view))
        self.actions.append(action)
        self.seats.append(view.seat)
        self.deals.append(deal_index)

    def to_npz(self, deal_points: list[tuple[int, int]]) -> bytes:
        import numpy as np

        points = np.array(deal_points, dtype=np.int32).reshape(-1, 2)
        seats = np.array(self.seats, dtype=np.int8)
        deals = np.array(self.deals, dtype=np.int32)
        # The reward of a decision, as belot_v0 gives it: the game points of the deal it belongs to,
        # the acting seat's team minus the other team.
        team = seats.astype(np.int64) & 1
        rewards = (points[deals, team] - points[deals, 1 - team]).astype(np.float32)
        buf = io.BytesIO()
        np.savez_compressed(
            buf,
            observations=np.stack(self.obs) if self.obs else np.zeros((0, 0), np.float32),
            action_masks=np.stack(self.masks) if self.masks else np.zeros((0, 0), np.int8),
            actions=np.array(self.actions, dtype=np.int16),
            seats=seats,
            deal_index=deals,
            rewards=rewards,
            deal_points=points,
        )
        return buf.getvalue()
