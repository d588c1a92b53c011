"""The interval of the bench scripts that compare tournament records (bench/paired.py,
bench/duplicate.py): `belot tournament`'s cluster-robust estimator (`stats.clustered_mean`),
checked against a numpy sandwich and scipy's t, and paired.py's printed interval on a small record
set checked against the same computed independently."""

from __future__ import annotations

import importlib
import json
import math
import re
from pathlib import Path

import pytest

from belot.cli import main
from belot.record import load
from belot.tournament.stats import clustered_mean

BENCH = Path(__file__).resolve().parent.parent / "bench"


def sandwich(values: dict[str, list[float]]) -> tuple[float, float, float]:
    """(mean, low, high): the CR1 sandwich of a regression of the values on a constant, clustered by
    key, with Student's t at clusters - 1 degrees of freedom (numpy and scipy)."""
    np = pytest.importorskip("numpy")
    st = pytest.importorskip("scipy.stats")
    keys = list(values)
    y = np.array([v for k in keys for v in values[k]], dtype=float)
    g = np.array([i for i, k in enumerate(keys) for _ in values[k]])
    x = np.ones((len(y), 1))
    beta = np.linalg.lstsq(x, y, rcond=None)[0]
    u = y - x @ beta
    bread = np.linalg.inv(x.T @ x)
    meat = sum(np.outer(x[g == c].T @ u[g == c], x[g == c].T @ u[g == c]) for c in range(len(keys)))
    k = len(keys)
    se = math.sqrt((bread @ meat @ bread)[0, 0] * k / (k - 1))
    half = st.t.ppf(0.975, k - 1) * se
    return float(beta[0]), float(beta[0] - half), float(beta[0] + half)


def test_clustered_mean_is_the_cr1_sandwich_with_t():
    values = {"a": [3.0, -1.0, 4.0], "b": [10.0], "c": [-2.0, 0.0], "d": [7.0, 7.0, 1.0, -5.0], "e": [12.0, 9.0]}
    mean, _, half = clustered_mean([sum(v) for v in values.values()], [len(v) for v in values.values()])
    m, lo, hi = sandwich(values)
    assert mean == pytest.approx(m, abs=1e-12)
    assert [mean - half, mean + half] == pytest.approx([lo, hi], abs=1e-10)
    # far from the interval that takes the 12 values for independent (normal, 1.96): t(4) and clusters
    flat = [v for vs in values.values() for v in vs]
    sd = math.sqrt(sum((v - mean) ** 2 for v in flat) / (len(flat) - 1))
    assert half > 1.5 * 1.959963984540054 * sd / math.sqrt(len(flat))


def test_clustered_mean_with_one_value_a_cluster_is_the_one_sample_t_interval():
    st = pytest.importorskip("scipy.stats")
    values = [4.0, -3.0, 11.0, 0.5, 2.0, 7.0]
    mean, _, half = clustered_mean(values, [1] * len(values))
    assert [mean - half, mean + half] == pytest.approx(list(st.ttest_1samp(values, 0).confidence_interval(0.95)),
                                                       abs=1e-10)


def test_clustered_mean_with_one_cluster_has_no_interval():
    mean, se, half = clustered_mean([6.0], [3])
    assert mean == 2.0 and math.isnan(se) and math.isnan(half)


def test_paired_interval_is_the_clustered_one(tmp_path, monkeypatch, capsys):
    """paired.py on run A (heuristic vs random) and a run B whose bot played other cards (random
    vs random, relabelled as A's players: a record replays from its actions, whoever the players
    are): its interval is the sandwich over the deal differences clustered by match pair, computed
    here from the records, over the deal pairs of the tournament's lead (a deal past the shorter
    match of its pair, in either run, counts for neither: it was once counted, putting the figure on
    another scale than the lead's)."""
    a, b = tmp_path / "a", tmp_path / "b"
    for bots, out in ((["heuristic", "random"], a), (["random", "random"], b)):
        assert main(["tournament", *bots, "--deals", "12", "--seed", "1", "--target", "60", "--records", str(out)]) == 0
    capsys.readouterr()
    both = [p.name for p in sorted(b.glob("*.json")) if (a / p.name).exists()]  # match pairs may end apart
    finished = {n: min(sum(d.result is not None for d in load(str(run / n)).deals) for run in (a, b)) for n in both}
    pairs = {n[:-7]: min(v for k, v in finished.items() if k[:-7] == n[:-7]) for n in both}
    diffs: dict[str, list[float]] = {}
    left_out = 0
    for name in both:
        path_b = b / name
        doc = json.loads(path_b.read_text())
        doc["players"] = json.loads((a / name).read_text())["players"]
        path_b.write_text(json.dumps(doc))
        team = int(name[-6])  # match-KKKKK-H.json: heuristic is team H in run A
        ma, mb = load(str(a / name)), load(str(path_b))
        for k, (x, y) in enumerate(zip(ma.deals, mb.deals)):
            if x.dealt != y.dealt or x.result is None or y.result is None:
                break
            if k >= pairs[name[:-7]]:
                left_out += 1
                continue
            lead = (x.result.points[team] - x.result.points[1 - team]) - (y.result.points[team] - y.result.points[1 - team])
            diffs.setdefault(name[:-7], []).append(lead)
    assert len(diffs) >= 3 and any(d != 0 for v in diffs.values() for d in v) and left_out > 0
    monkeypatch.syspath_prepend(str(BENCH))
    paired = importlib.import_module("paired")
    monkeypatch.setattr("sys.argv", ["paired.py", str(a), str(b), "--bot", "heuristic"])
    paired.main()
    out = capsys.readouterr().out
    found = re.search(r"lead per deal, A - B: (\S+) \[(\S+), (\S+)\] \(95% interval, clustered by match pair, "
                      r"t\((\d+)\)\)", out)
    assert found, out
    m, lo, hi = sandwich(diffs)
    assert [float(found[i]) for i in (1, 2, 3)] == pytest.approx([m, lo, hi], abs=6e-4)
    assert int(found[4]) == len(diffs) - 1
    flat = [d for v in diffs.values() for d in v]  # the independent normal interval is another one here
    sd = math.sqrt(sum((d - m) ** 2 for d in flat) / (len(flat) - 1))
    assert abs((hi - m) - 1.959963984540054 * sd / math.sqrt(len(flat))) > 0.01
