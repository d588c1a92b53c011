"""Duplicate tournaments between two bots, and the one match-running path that self-play shares.

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
plays at least N deal pairs and every match is complete.  The figures depend only on the seed,
the bots and N, never on how many processes (or Ray workers) played them: pairs are computed
independently and consumed in order, and pairs computed beyond the stopping point are dropped.

Statistics (all from bot A's side):
* points per deal: for each deal pair, the mean over its two matches of (A's team game points -
  B's team game points) in that deal; the estimate is the mean over all deal pairs.  Its 95%
  interval is a normal interval with a cluster-robust standard error, clustering by match pair
  (deals of one match share a score and a hanging pot, so they are not independent).
* match win rate: matches won by A over matches played, with the Wilson 95% interval (treating
  the matches as independent; the two matches of a pair hold the same cards, which makes their
  outcomes negatively correlated, so the interval is if anything conservative).
* decision time per side: median, p95 and max of the wall time of each ``act`` call.  Timing is
  the only figure that is not reproducible.
"""

from __future__ import annotations

import hashlib
import io
import math
import random
import time
from collections import deque
from collections.abc import Callable, Generator, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from .game import Match

Z95 = 1.959963984540054
MAX_DEALS = 1000  # a match still going after this many deals is a broken bot (e.g. one that always passes)


class BotFailure(RuntimeError):
    """A bot raised or returned an illegal action; the message names the bot, match and deal."""


def derive_seed(*parts: object) -> int:
    """A 64-bit seed from the parts (stable across processes and Python runs, unlike hash())."""
    text = ":".join(str(p) for p in parts).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big")


def bot_key(name: str) -> str:
    """``heuristic`` for ``heuristic`` or ``bot:heuristic``; ValueError naming unknown bots."""
    from .bots import REGISTRY, bot_names

    key = name.removeprefix("bot:")
    if key not in REGISTRY:
        raise ValueError(f"unknown bot {name!r}; known bots: {', '.join(bot_names())}")
    return key


# -- one match: the shared path of tournaments and self-play ---------------------------------


@dataclass(frozen=True, slots=True)
class MatchSpec:
    """One match to play: the bots by seat and where its deals and bot seeds come from."""

    seats: tuple[str, str, str, str]  # bot names by seat
    seed: int  # the tournament (or self-play) seed
    index: int  # the match pair (tournament) or game (self-play) number: selects the deal stream
    target: int = 151
    record: bool = False  # return the record text
    observations: bool = False  # return the encoded observations (.npz bytes)


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
    from .bots import make_bot

    rng = random.Random(derive_seed(spec.seed, "deals", spec.index))
    players = [f"bot:{bot_key(n)}" for n in spec.seats]
    match = Match(target=spec.target, rng=rng, players=players)
    times: list[list[float]] = [[], [], [], []]
    bots: list[Any] = []
    bots_deal = -1
    obs = _ObservationLog() if spec.observations else None
    clock = time.perf_counter
    while not match.is_over:
        deal_index = len(match.deals) - 1
        if deal_index != bots_deal:  # bot randomness seeded by deal and seat
            if deal_index >= MAX_DEALS:
                raise BotFailure(
                    f"match {spec.index} (seed {spec.seed}) has no winner after {MAX_DEALS} deals "
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
        except Exception as e:  # noqa: BLE001 - any failure of a bot is reported with its place
            raise BotFailure(
                f"bot {spec.seats[seat]!r} at seat {seat} failed in match {spec.index} (seed {spec.seed}), "
                f"deal {deal_index}: {type(e).__name__}: {e}"
            ) from None
    assert match.winner is not None
    record = None
    if spec.record:
        from .record import dumps

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
        from .env.encoding import action_mask, encode

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


# -- running many matches: in this process, a process pool, or a Ray cluster ------------------


class _Lazy:
    """Runs in this process when its result is asked for (``jobs=1``)."""

    def __init__(self, fn: Callable[..., Any], arg: Any) -> None:
        self.fn, self.arg = fn, arg

    def result(self) -> Any:
        return self.fn(self.arg)

    def cancel(self) -> None:
        pass


class Runner:
    """Submits work items (a module-level function and its argument) and yields results in order."""

    window: int

    def submit(self, fn: Callable[[Any], Any], arg: Any) -> Any: ...

    def close(self) -> None: ...

    def cancel(self, fut: Any) -> None:
        fut.cancel()

    def ordered(self, fn: Callable[[Any], Any], args: Iterator[Any]) -> Generator[Any, None, None]:
        """fn(arg) for each arg, in order, keeping ``window`` items in flight.  The caller may stop
        early: items submitted beyond that point are cancelled (or their results dropped)."""
        queue: deque[Any] = deque()
        try:
            for arg in args:
                queue.append(self.submit(fn, arg))
                if len(queue) >= self.window:
                    yield queue.popleft().result()
            while queue:
                yield queue.popleft().result()
        finally:
            for fut in queue:
                self.cancel(fut)


class LocalRunner(Runner):
    """``jobs`` worker processes (or this process alone for ``jobs=1``)."""

    def __init__(self, jobs: int = 1) -> None:
        self.jobs = jobs
        self.window = 1 if jobs == 1 else 2 * jobs
        self.pool = None
        if jobs > 1:
            import multiprocessing
            from concurrent.futures import ProcessPoolExecutor

            self.pool = ProcessPoolExecutor(max_workers=jobs, mp_context=multiprocessing.get_context("spawn"))

    def submit(self, fn: Callable[[Any], Any], arg: Any) -> Any:
        if self.pool is None:
            return _Lazy(fn, arg)
        return self.pool.submit(fn, arg)

    def close(self) -> None:
        """Stop the workers.  Matches still running were submitted beyond the stopping point and
        their results are not wanted: the workers are terminated rather than waited for (a slow
        bot's match can take minutes)."""
        if self.pool is not None:
            procs = list((getattr(self.pool, "_processes", None) or {}).values())
            self.pool.shutdown(wait=False, cancel_futures=True)
            for proc in procs:
                if proc.is_alive():
                    proc.terminate()
            for proc in procs:
                proc.join(timeout=10)
            self.pool = None


class RayUnavailable(RuntimeError):
    pass


class RayRunner(Runner):
    """Tasks on a Ray cluster: ``address`` None starts a local Ray with ``jobs`` CPUs."""

    def __init__(self, address: str | None = None, jobs: int = 1) -> None:
        try:
            import ray
        except ImportError:
            raise RayUnavailable(
                "Ray is not installed: install the optional extra with  pip install 'belot[ray]'"
            ) from None
        self.ray = ray
        self.started = False
        if address is not None:
            _check_reachable(address)
        if not ray.is_initialized():
            kwargs: dict[str, Any] = {"include_dashboard": False, "logging_level": "ERROR", "log_to_driver": False}
            if address is None:
                kwargs["num_cpus"] = jobs
            else:
                kwargs["address"] = address
            try:
                ray.init(**kwargs)
            except Exception as e:  # noqa: BLE001 - Ray raises many kinds; the message names the cause
                raise RayUnavailable(f"cannot start or reach Ray{'' if address is None else ' at ' + address}: {e}") from None
            self.started = True
        cpus = int(ray.cluster_resources().get("CPU", jobs)) or 1
        self.window = 2 * cpus
        self._remote = ray.remote(num_cpus=1)(_call)

    def submit(self, fn: Callable[[Any], Any], arg: Any) -> Any:
        return _RayFuture(self.ray, self._remote.remote(fn, arg))

    def cancel(self, fut: Any) -> None:
        try:
            self.ray.cancel(fut.ref)
        except Exception:  # noqa: BLE001 - a finished task cannot be cancelled; nothing to do
            pass

    def close(self) -> None:
        if self.started:
            self.ray.shutdown()


def _check_reachable(address: str, timeout: float = 5.0) -> None:
    """Fail fast on a cluster address nobody answers at (ray.init would retry for minutes)."""
    import socket

    hostport = address.removeprefix("ray://")
    if hostport == "auto":
        return
    host, sep, port = hostport.rpartition(":")
    if not sep or not port.isdigit():
        raise RayUnavailable(f"Ray address {address!r} is not HOST:PORT, ray://HOST:PORT or auto")
    try:
        socket.create_connection((host, int(port)), timeout=timeout).close()
    except OSError as e:
        raise RayUnavailable(f"cannot reach Ray at {address}: {e.strerror or e}") from None


def _call(fn: Callable[[Any], Any], arg: Any) -> Any:
    return fn(arg)


class _RayFuture:
    def __init__(self, ray: Any, ref: Any) -> None:
        self.ray, self.ref = ray, ref

    def result(self) -> Any:
        return self.ray.get(self.ref)


def make_runner(jobs: int = 1, ray: str | None | bool = False) -> Runner:
    """A local runner, or with ``ray`` (True/"local" for a local Ray, or an address) a Ray one."""
    if ray is False:
        return LocalRunner(jobs)
    address = None if ray in (True, None, "local", "") else str(ray)
    return RayRunner(address, jobs)


# -- the tournament ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TournamentSpec:
    bot_a: str
    bot_b: str
    deals: int  # deal pairs wanted (at least this many are played)
    seed: int = 0
    target: int = 151
    records: bool = False


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
    return MatchSpec(seats=seats, seed=spec.seed, index=k, target=spec.target, record=spec.records)


def play_pair(args: tuple[TournamentSpec, int]) -> PairOutcome:
    """Both matches of pair ``k``, from the same deal stream, teams swapped."""
    spec, k = args
    return PairOutcome(k, (play_match(half_spec(spec, k, 0)), play_match(half_spec(spec, k, 1))))


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a proportion."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def _quantile(sorted_values: Sequence[float], q: float) -> float:
    """Nearest-rank quantile of sorted values."""
    if not sorted_values:
        return float("nan")
    i = min(len(sorted_values) - 1, max(0, math.ceil(q * len(sorted_values)) - 1))
    return sorted_values[i]


def timing_summary(times: Sequence[float]) -> dict[str, float | int]:
    s = sorted(times)
    return {
        "decisions": len(s),
        "median_ms": round(_quantile(s, 0.5) * 1e3, 4),
        "p95_ms": round(_quantile(s, 0.95) * 1e3, 4),
        "max_ms": round(s[-1] * 1e3, 4) if s else float("nan"),
    }


@dataclass
class TournamentResult:
    spec: TournamentSpec
    pairs: list[PairOutcome] = field(default_factory=list)

    def figures(self, timing: bool = True) -> dict[str, Any]:
        """The tournament's figures (JSON-ready); all but ``timing`` depend only on the spec."""
        spec = self.spec
        ys: list[float] = []  # per match pair: sum over its deal pairs of the pair difference
        ns: list[int] = []
        a_points = b_points = 0.0
        deals_played = 0
        wins = matches = both = split = 0
        times: list[list[float]] = [[], []]  # by side: A, B
        bids = [{"contracts": 0, "made": 0, "hanging": 0, "inside": 0, "doubled": 0} for _ in range(2)]
        for pair in self.pairs:
            h0, h1 = pair.halves
            n = pair.paired
            y = 0.0
            for j in range(n):
                a0, b0 = h0.deal_points[j]  # A is team 0
                b1, a1 = h1.deal_points[j]  # A is team 1
                y += ((a0 - b0) + (a1 - b1)) / 2
                a_points += (a0 + a1) / 2
                b_points += (b0 + b1) / 2
            ys.append(y)
            ns.append(n)
            deals_played += len(h0.deal_points) + len(h1.deal_points)
            won = (h0.winner == 0) + (h1.winner == 1)
            wins += won
            matches += 2
            both += won == 2
            split += won == 1
            for s in range(4):
                times[s & 1].extend(h0.times[s])  # half 0: A at seats 0 and 2
                times[1 - (s & 1)].extend(h1.times[s])
            for half, h in enumerate(pair.halves):
                for contract, declarer, multiplier, outcome in h.contracts:
                    if contract < 0:
                        continue
                    side = (declarer & 1) ^ half  # 0 when A's team declared
                    b = bids[side]
                    b["contracts"] += 1
                    b[outcome] += 1
                    b["doubled"] += multiplier > 1
        total = sum(ns)
        mean = sum(ys) / total if total else float("nan")
        k = len(ys)
        if k > 1 and total:
            var = k / (k - 1) * sum((y - mean * n) ** 2 for y, n in zip(ys, ns)) / (total * total)
            se = math.sqrt(var)
        else:
            se = float("nan")
        lo, hi = wilson(wins, matches)
        out: dict[str, Any] = {
            "bot_a": spec.bot_a,
            "bot_b": spec.bot_b,
            "seed": spec.seed,
            "target": spec.target,
            "deals_requested": spec.deals,
            "match_pairs": k,
            "matches": matches,
            "deal_pairs": total,
            "deals_played": deals_played,
            "points_per_deal": {
                "a": _r(a_points / total if total else float("nan")),
                "b": _r(b_points / total if total else float("nan")),
                "difference": _r(mean),
                "ci95": [_r(mean - Z95 * se), _r(mean + Z95 * se)],
                "stderr": _r(se),
            },
            "match_wins": {
                "a": wins,
                "b": matches - wins,
                "win_rate": _r(wins / matches if matches else float("nan")),
                "ci95": [_r(lo), _r(hi)],
                "pairs_won_both": both,
                "pairs_split": split,
                "pairs_lost_both": k - both - split,
            },
        }
        out["contracts"] = {"a": bids[0], "b": bids[1]}  # over all deals played, both halves
        if timing:
            out["timing"] = {"a": timing_summary(times[0]), "b": timing_summary(times[1])}
        return out


def _r(x: float) -> float | None:
    return None if math.isnan(x) else round(x, 4)


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


__all__ = [
    "BotFailure", "MatchOutcome", "MatchSpec", "PairOutcome", "RayUnavailable", "Runner", "TournamentResult",
    "TournamentSpec", "derive_seed", "make_runner", "play_match", "play_pair", "run_tournament", "wilson",
]
