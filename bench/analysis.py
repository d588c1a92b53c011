"""Mean expected loss per card and per call of each bot, over tournament records (`belot.analysis`).

Reads the records of tournaments (``belot tournament A B --records DIR``; several folders may be
given), analyses every finished deal as ``belot analyze`` does and prints, per bot (the record's
player name), the mean expected and open-card loss of its cards, calls and declarations with a
choice, the class counts, and the distribution of the positive expected losses (the quantiles the
class thresholds of docs/analysis.md were chosen from).  Also the time each deal took (median, max).

    python bench/analysis.py DIR [DIR ...] [--files N] [--deals N] [--jobs J] [--seed S]
"""

from __future__ import annotations

import argparse
import collections
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from argtypes import count, positive
from recordset import read, record_files
from running import run

from belot.analysis import CLASSES, Analyst, DealAnalysis, analyzable, analyze_deal

_STATE: dict[str, Any] = {}


def _init(seed: int) -> None:
    _STATE["analyst"] = Analyst(seed)
    _STATE["matches"] = {}


def _work(task: tuple[Path, int]) -> tuple[Path, DealAnalysis, float]:
    path, i = task
    matches = _STATE["matches"]
    if path not in matches:
        matches.clear()
        matches[path] = read(path)[1]
    t = time.perf_counter()
    out = analyze_deal(_STATE["analyst"], matches[path].deals[i], i)
    return path, out, time.perf_counter() - t


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("records", type=Path, nargs="+", help="folders of belot-record/1 files")
    ap.add_argument("--files", type=count, default=0, help="read only the first N records of each folder (0: all)")
    ap.add_argument("--deals", type=count, default=0, help="analyse only the first N deals of each record (0: all)")
    ap.add_argument("--jobs", type=positive, default=1, help="worker processes (default 1)")
    ap.add_argument("--seed", type=int, default=0, help="seed of the sampled worlds (default 0)")
    args = ap.parse_args()
    tasks: list[tuple[Path, int]] = []
    players: dict[Path, list[str]] = {}
    for folder in args.records:
        for path in record_files(folder, args.files):
            doc, m = read(path)
            players[path] = [str(p) for p in doc["players"]]
            tasks += [(path, i) for i in analyzable(m)[: args.deals or None]]
    losses: dict[tuple[str, str], list[tuple[float, float | None]]] = collections.defaultdict(list)
    classes: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    times = []
    t0 = time.perf_counter()
    with ProcessPoolExecutor(args.jobs, initializer=_init, initargs=(args.seed,)) as pool:
        for path, d, secs in pool.map(_work, tasks):
            times.append(secs)
            for x in d.decisions:
                bot = players[path][x.seat]
                losses[(bot, x.kind)].append((x.expected_loss, x.open_loss))
                classes[bot][x.klass] += 1
    wall = time.perf_counter() - t0
    print(f"{len(players)} records, {len(tasks)} deals in {wall:.0f} s with {args.jobs} jobs; seconds per deal"
          f" (one process): median {statistics.median(times):.2f}, max {max(times):.2f}")
    print("mean loss per decision with a choice (game points, own team minus the other)")
    print(f"{'bot':>16} {'kind':>12} {'n':>6} {'expected':>9} {'open':>7}")
    for (bot, kind), xs in sorted(losses.items()):
        print(f"{bot:>16} {kind:>12} {len(xs):6d} {statistics.fmean(e for e, _ in xs):9.2f}"
              f" {statistics.fmean([o for _, o in xs if o is not None] or [0.0]):7.2f}")
    print("classes: " + " ".join(CLASSES))
    for bot, c in sorted(classes.items()):
        n = sum(c.values())
        print(f"{bot:>16} " + " ".join(f"{c[k]:6d}" for k in CLASSES) + f"   accuracy {100 * c['best'] / n:.0f}%")
    print("quantiles of the positive expected losses (cards and calls, all bots)")
    for kind in ("card", "call"):
        pos = sorted(e for (_, k), xs in losses.items() if k == kind for e, _ in xs if e > 1e-9)
        if len(pos) >= 10:
            q = statistics.quantiles(pos, n=20)
            print(f"{kind:>6}: {len(pos)} positive; 25% {q[4]:.2f}  50% {q[9]:.2f}  75% {q[14]:.2f}"
                  f"  90% {q[17]:.2f}  95% {q[18]:.2f}")


if __name__ == "__main__":
    run(main)
