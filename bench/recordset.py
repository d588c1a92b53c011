"""Reading a folder of tournament records, shared by the bench scripts that analyse them."""

from __future__ import annotations

import json
import math
import statistics
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from belot import floats, record
from belot.bots import equity
from belot.contracts import AT, NT
from belot.game import Deal, DealResult, Match, SeatView
from belot.tournament import stats

SEARCH_BOTS = ("bot:pimc", "bot:expert")  # the players of records whose decisions come from search


def kind(contract: int) -> str:
    """The contract kind's name: suit, NT or AT."""
    return "NT" if contract == NT else "AT" if contract == AT else "suit"


def record_files(folder: Path, limit: int = 0) -> list[Path]:
    """The record files (*.json) of ``folder`` in name order, the first ``limit`` (0: all); none
    stops the script with a message."""
    files = sorted(folder.glob("*.json"))[: limit or None]
    if not files:
        raise SystemExit(f"no records (*.json) in {folder}")
    return files


def read(path: Path) -> tuple[dict[str, Any], Match]:
    """A record and its replay; a file that is not a valid record stops the script, naming it."""
    try:
        doc = json.loads(path.read_text())
        return doc, record.replay(doc)
    except ValueError as e:  # bad JSON, or a RecordError naming what is wrong
        raise SystemExit(f"{path}: {e}") from None


def read_all(files: list[Path]) -> Iterator[tuple[dict[str, Any], Match]]:
    """``read`` for each file in turn."""
    for path in files:
        yield read(path)


def steps(files: list[Path], played_only: bool = False) -> Iterator[tuple[dict[str, Any], Deal, int, int]]:
    """Every action of every deal in ``files`` as (record, deal, action, seat), the deal replayed up
    to just before the action (one `Deal` advanced in place: read it, do not change it).
    ``played_only`` leaves out deals that all passed or did not finish."""
    for doc, m in read_all(files):
        for played in m.deals:
            if played_only and (played.result is None or played.result.contract < 0):
                continue
            d = Deal(played.dealer, played.dealt, played.rules, played.pot)
            for action, actor in zip(played.actions, played.actors):
                yield doc, d, action, actor
                d.apply(action)


def match_view(m: Match, j: int, n: int, seat: int) -> SeatView:
    """``seat``'s view just before action ``n`` of deal ``j`` of the replayed match ``m``, as the match
    gave it (`Match.view`: the score, the earlier deals and the target too): the match played again
    through `Match.deal` and `Match.apply` up to there."""
    again = Match(m.rules, m.start_target, players=m.players)
    for i, played in enumerate(m.deals[: j + 1]):
        again.deal(played.dealt, played.dealer)
        for action in played.actions if i < j else played.actions[:n]:
            again.apply(action)
    return again.view(seat)


def team_of(doc: dict[str, Any], path: Path, name: str) -> int:
    """The team (0 or 1) whose seats ``name`` (e.g. ``bot:pimc``) plays in a record; a record without
    it stops the script, naming the file."""
    seats = [s for s, p in enumerate(doc["players"]) if p == name]
    if not seats:
        raise SystemExit(f"{path}: no seat is played by {name}")
    return seats[0] & 1


def same_cards(a: Match, b: Match) -> Iterator[tuple[Deal, DealResult, Deal, DealResult]]:
    """The finished deals of two matches in step, with their results, up to the first whose cards
    differ (two matches of one pair, or of two runs with one seed, deal the same cards until their
    lengths part)."""
    for x, y in zip(a.deals, b.deals):
        if x.dealt != y.dealt or x.result is None or y.result is None:
            return
        yield x, x.result, y, y.result


def lead(r: DealResult, team: int) -> int:
    """``team``'s game points minus the other team's in one deal."""
    return r.points[team] - r.points[1 - team]


def stderr(values: Sequence[float]) -> float:
    """The standard error of the mean of ``values`` (0 for fewer than two)."""
    return statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0


def pair_of(path: Path) -> str:
    """The match pair of a tournament record, ``match-00012`` for ``match-00012-0.json`` and
    ``match-00012-1.json`` (its two halves: the same cards, teams swapped); a file named otherwise
    is a pair of its own."""
    head, _, half = path.stem.rpartition("-")
    return head if head.startswith("match-") and half in ("0", "1") else path.stem


def mean_interval(clusters: Mapping[str, Sequence[float]]) -> tuple[float, float, float, int]:
    """The mean of the values of all ``clusters`` and its 95% interval, (mean, low, high, df): the
    interval of ``belot tournament``'s lead (`stats.clustered_mean`), cluster-robust with the
    clusters (match pairs) as the independent units and Student's t at df = clusters - 1.  Deals of
    one match, and the two matches of a pair, are not independent: an interval that takes them for
    independent is too narrow.  With one cluster, low and high are nan."""
    held = [v for v in clusters.values() if v]
    mean, _, half = stats.clustered_mean([floats.total(v) for v in held], [len(v) for v in held])
    return mean, mean - half, mean + half, len(held) - 1


INTERVAL = "95% interval, clustered by match pair"


def interval_text(low: float, high: float, df: int, digits: int) -> str:
    """``[low, high] (95% interval, clustered by match pair, t(df))``, or why there is none."""
    if df < 1:
        return "[n/a, n/a] (one match pair: no interval)"
    return f"[{low:+.{digits}f}, {high:+.{digits}f}] ({INTERVAL}, t({df}))"


def worth(score: tuple[int, int], target: int, team: int, points: tuple[int, int]) -> tuple[int, float]:
    """A deal's ``points`` to ``team`` with the match at ``score``: its game points less the other
    team's, and the change in its chance of winning the match (`equity.value`)."""
    return points[team] - points[1 - team], equity.value(score, target, team, points)
