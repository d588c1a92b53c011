"""Duplicate tournaments between two bots: the match pairs, their deal streams, and playing pairs in
order until enough deal pairs are reached.

A tournament is a sequence of **match pairs** k = 0, 1, 2, ...  Both matches of pair k play the
same **deal stream**: the first dealer and the shuffled hands of deal j come from a
`random.Random` seeded by (tournament seed, k) and are consumed in the same order, so deal j has
the same dealer and the same four hands in both matches.  In the first match bot A sits at seats
0 and 2 (team 0) and bot B at seats 1 and 3; in the second the teams are swapped, so each bot
plays each set of cards once.  Each match is played to the target (151, R12).  The bot at seat s
in deal j of pair k is made afresh with a seed derived from (seed, k, j, s): the same in both
matches, whichever bot sits there, so both halves are reproducible on their own.

``deals=N`` asks for N **deal pairs**: deal j of pair k is a deal pair when both matches of the
pair played it (the longer match's extra deals count for the match result only).  Pairs are
played in order until the deal pairs reach N; the last pair is played whole, so a tournament
plays at least N deal pairs and every match is complete.  The figures (`stats`) depend only on
the seed, the bots and N, never on how many processes (or Ray workers) played them: pairs are
computed independently and consumed in order, and pairs computed beyond the stopping point are
dropped.  Nor on the Python version: the bots' and the figures' float sums are `belot.floats`'s.

The deal stream is the same in both matches because it never depends on the play: dealers
rotate by deal (R2.1, an all-pass deal included) and each deal is a fresh shuffle.  Under the
house rule OPT-NO-SHUFFLE a pack is the last deal's cards as played, so it is refused.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from ..contracts import NO_SHUFFLE
from . import stats
from .matches import MatchOutcome, MatchSpec, bot_key, play_match
from .runners import LocalRunner, Runner

NO_SHUFFLE_REFUSAL = (
    f"{NO_SHUFFLE} cannot be played as a duplicate tournament: after the first deal each pack is the "
    "last deal's cards gathered as they were played (R2.2), so the two matches of a pair would not "
    "hold the same cards"
)


@dataclass(frozen=True, slots=True)
class TournamentSpec:
    bot_a: str
    bot_b: str
    deals: int  # deal pairs wanted (at least this many are played)
    seed: int = 0
    target: int = 151
    records: bool = False
    options: tuple[str, ...] = ()  # the house rules every match is played under


@dataclass(slots=True)
class PairOutcome:
    index: int
    halves: tuple[MatchOutcome, MatchOutcome]  # half 0: A on team 0; half 1: A on team 1

    @property
    def paired(self) -> int:
        return min(len(self.halves[0].deal_points), len(self.halves[1].deal_points))


def half_spec(spec: TournamentSpec, k: int, half: int) -> MatchSpec:
    """Match ``half`` of pair ``k``: half 0 has bot A on team 0 (seats 0, 2), half 1 on team 1."""
    a, b = spec.bot_a, spec.bot_b
    seats = (a, b, a, b) if half == 0 else (b, a, b, a)
    return MatchSpec(seats=seats, seed=spec.seed, index=k, target=spec.target, record=spec.records,
                     options=spec.options)


def play_pair(args: tuple[TournamentSpec, int]) -> PairOutcome:
    """Both matches of pair ``k``, from the same deal stream, teams swapped."""
    spec, k = args
    return PairOutcome(k, (play_match(half_spec(spec, k, 0)), play_match(half_spec(spec, k, 1))))


@dataclass
class TournamentResult:
    spec: TournamentSpec
    pairs: list[PairOutcome] = field(default_factory=list)

    def figures(self, timing: bool = True) -> dict[str, Any]:
        """The tournament's figures (JSON-ready, see `stats`); all but ``timing`` depend only on the spec."""
        return stats.figures(self.spec, self.pairs, timing)


def run_tournament(
    spec: TournamentSpec,
    runner: Runner | None = None,
    on_pair: Callable[[PairOutcome, int], None] | None = None,
) -> TournamentResult:
    """Play match pairs in order until ``spec.deals`` deal pairs are reached (see the module doc).

    ``on_pair(pair, deal_pairs_so_far)`` is called for each pair in order (progress, records).
    """
    if spec.deals < 1:
        raise ValueError(f"deals must be at least 1, not {spec.deals}")
    if spec.target < 1:
        raise ValueError(f"target must be at least 1, not {spec.target}")
    if NO_SHUFFLE in spec.options:
        raise ValueError(NO_SHUFFLE_REFUSAL)
    bot_key(spec.bot_a)
    bot_key(spec.bot_b)
    own = runner is None
    runner = runner or LocalRunner(1)
    result = TournamentResult(spec)
    done = 0

    def halves() -> Iterator[MatchSpec]:
        k = 0
        while True:
            yield half_spec(spec, k, 0)
            yield half_spec(spec, k, 1)
            k += 1

    try:
        # The two matches of a pair are separate work items: twice the parallelism and progress.
        stream = runner.ordered(play_match, halves())
        for first in stream:
            pair = PairOutcome(len(result.pairs), (first, next(stream)))
            result.pairs.append(pair)
            done += pair.paired
            if on_pair is not None:
                on_pair(pair, done)
            if done >= spec.deals:
                stream.close()  # cancels matches submitted beyond this pair
                break
    finally:
        if own:
            runner.close()
    return result
