"""Duplicate tournaments between two bots, and the one match-running path that self-play shares.

Each piece has one job: `matches` plays one match from a seeded deal stream; `runners` runs many
matches in order in this process, a process pool or a Ray cluster; `duplicate` pairs matches on the
same cards with the teams swapped and plays pairs until enough deal pairs are reached; `stats`
turns the pairs into figures with their intervals.  The public names are re-exported here; a
module-level setting such as `matches.MAX_DEALS` is read (and patched in tests) where it lives.
"""

from __future__ import annotations

from .duplicate import PairOutcome, TournamentResult, TournamentSpec, half_spec, play_pair, run_tournament
from .matches import BotFailure, MatchOutcome, MatchSpec, bot_key, derive_seed, play_match
from .runners import LocalRunner, RayRunner, RayUnavailable, Runner, make_runner
from .stats import Z95, timing_summary, wilson

__all__ = [
    "Z95", "BotFailure", "LocalRunner", "MatchOutcome", "MatchSpec", "PairOutcome", "RayRunner",
    "RayUnavailable", "Runner", "TournamentResult", "TournamentSpec", "bot_key", "derive_seed", "half_spec",
    "make_runner", "play_match", "play_pair", "run_tournament", "timing_summary", "wilson",
]
