"""Duplicate tournaments (belot.tournament, ``belot tournament``): the deal streams, the figures and
their intervals, reproducibility across --jobs and Ray, records that replay, and CLI errors."""

from __future__ import annotations

import json
import math
import os
import sys

import pytest

from belot.cli import main
from belot.record import load
from belot.tournament import (
    LocalRunner,
    MatchOutcome,
    MatchSpec,
    PairOutcome,
    TournamentResult,
    TournamentSpec,
    play_match,
    run_tournament,
    wilson,
)


def test_both_halves_of_a_pair_play_the_same_deals_teams_swapped():
    a = play_match(MatchSpec(("heuristic", "random", "heuristic", "random"), seed=4, index=2, target=60, record=True))
    b = play_match(MatchSpec(("random", "heuristic", "random", "heuristic"), seed=4, index=2, target=60, record=True))
    da, db = json.loads(a.record)["deals"], json.loads(b.record)["deals"]
    n = min(len(da), len(db))
    assert n >= 1
    for x, y in zip(da[:n], db[:n]):
        assert x["dealer"] == y["dealer"] and x["hands"] == y["hands"]
    assert json.loads(a.record)["players"] == ["bot:heuristic", "bot:random"] * 2


@pytest.mark.parametrize("options", [(), ("OPT-SURCONTRA", "OPT-EIGHT-SPLIT", "OPT-CAPOT-EN", "OPT-NONZERO")])
def test_every_deal_pair_of_a_tournament_holds_the_same_cards(options):
    """Over every pair of a small tournament (all-pass deals and hanging pots included), deal j has the
    same dealer and hands at both tables, under the house rules that change the play too."""
    spec = TournamentSpec("heuristic", "random", deals=30, seed=5, target=80, records=True, options=options)
    res = run_tournament(spec)
    for pair in res.pairs:
        da, db = (json.loads(h.record)["deals"] for h in pair.halves)  # type: ignore[arg-type]
        assert pair.paired == min(len(da), len(db)) >= 1
        for x, y in zip(da, db):
            assert (x["dealer"], x["hands"]) == (y["dealer"], y["hands"])


def test_no_shuffle_is_refused_a_duplicate_tournament_cannot_hold_it(capsys):
    """OPT-NO-SHUFFLE (R2.2): the next pack is the last deal's cards as played, so the tables of a
    pair part after deal 0 (they did: hands of deals 1-3 differed); refused, not silently unpaired."""
    with pytest.raises(ValueError, match="OPT-NO-SHUFFLE cannot be played as a duplicate"):
        run_tournament(TournamentSpec("heuristic", "random", deals=5, options=("OPT-NO-SHUFFLE",)))
    assert main(["tournament", "heuristic", "random", "--deals", "5", "--option", "OPT-NO-SHUFFLE"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("belot tournament: OPT-NO-SHUFFLE cannot be played") and err.count("\n") == 1


def test_the_deal_stream_depends_on_the_match_number():
    spec = {"seats": ("random",) * 4, "seed": 4, "target": 30, "record": True}
    a = json.loads(play_match(MatchSpec(index=0, **spec)).record)  # type: ignore[arg-type]
    b = json.loads(play_match(MatchSpec(index=1, **spec)).record)  # type: ignore[arg-type]
    assert a["deals"][0]["hands"] != b["deals"][0]["hands"]


def test_a_match_from_a_late_score_plays_the_same_deals_to_the_target():
    """An end game (bench/endgame.py): the match starts from a score, plays the deal stream of a match
    from 0 to 0 and ends by R12.1 at the target; such a match has no record (a record starts at 0)."""
    seats = ("heuristic",) * 4
    whole = play_match(MatchSpec(seats, seed=4, index=3))
    late = play_match(MatchSpec(seats, seed=4, index=3, start=(140, 120)))
    assert late.deal_points == whole.deal_points[:len(late.deal_points)]
    assert late.score == (140 + sum(p[0] for p in late.deal_points), 120 + sum(p[1] for p in late.deal_points))
    assert max(late.score) >= 151 and late.score[late.winner] > late.score[1 - late.winner]
    assert len(late.deal_points) < len(whole.deal_points)
    with pytest.raises(ValueError, match="no record"):
        play_match(MatchSpec(seats, seed=4, index=3, start=(140, 120), record=True))


def fake_pair(k: int, half0: list[tuple[int, int]], half1: list[tuple[int, int]]) -> PairOutcome:
    def outcome(points: list[tuple[int, int]]) -> MatchOutcome:
        s0, s1 = sum(p[0] for p in points), sum(p[1] for p in points)
        return MatchOutcome(winner=0 if s0 > s1 else 1, score=(s0, s1), deal_points=points, times=[[0.001]] * 4)
    return PairOutcome(k, (outcome(half0), outcome(half1)))


def test_figures_from_known_pairs():
    """Points per deal over deal pairs (the longer half's extra deals only count for the match),
    the cluster-robust interval, and wins from A's side (A is team 0 in half 0, team 1 in half 1)."""
    pairs = [
        fake_pair(0, [(20, 0), (10, 6)], [(4, 12), (0, 16), (8, 8)]),
        fake_pair(1, [(16, 0)], [(0, 26)]),
        fake_pair(2, [(0, 30), (5, 5)], [(0, 9), (9, 0)]),
    ]
    res = TournamentResult(TournamentSpec("a", "b", deals=3), pairs)
    fig = res.figures()
    # Deal-pair values ((a0-b0) + (a1-b1)) / 2:
    #   pair 0: ((20-0)+(12-4))/2 = 14, ((10-6)+(16-0))/2 = 10  -> Y=24, n=2 (third deal unpaired)
    #   pair 1: ((16-0)+(26-0))/2 = 21                           -> Y=21, n=1
    #   pair 2: ((0-30)+(9-0))/2 = -10.5, ((5-5)+(0-9))/2 = -4.5 -> Y=-15, n=2
    ys, ns = [24, 21, -15], [2, 1, 2]
    mean = sum(ys) / sum(ns)
    var = 3 / 2 * sum((y - mean * n) ** 2 for y, n in zip(ys, ns)) / sum(ns) ** 2
    ppd = fig["points_per_deal"]
    assert fig["deal_pairs"] == 5 and fig["deals_played"] == 11 and fig["matches"] == 6
    assert ppd["difference"] == pytest.approx(mean, abs=1e-4)
    assert ppd["stderr"] == pytest.approx(math.sqrt(var), abs=1e-4)
    # 3 match pairs: Student's t at 2 degrees of freedom (4.3027), not the normal 1.96
    assert ppd["ci95"] == pytest.approx([mean - 4.3027 * math.sqrt(var), mean + 4.3027 * math.sqrt(var)], abs=1e-3)
    # Wins: pair 0 half 0: 30-6 team 0 (A) wins; half 1: 12-36 team 1 (A) wins.  Pair 1: A, A.
    # Pair 2: half 0 5-35 B; half 1 9-9 -> "team 1" in this fake, i.e. A.
    mw = fig["match_wins"]
    assert (mw["a"], mw["b"]) == (5, 1)
    assert (mw["pairs_won_both"], mw["pairs_split"], mw["pairs_lost_both"]) == (2, 1, 0)
    assert fig["timing"]["a"]["decisions"] == 12


def test_lead_interval_is_the_textbook_one_computed_independently():
    """The lead's interval by other means: the cluster-robust (CR1) sandwich of a regression of the
    deal-pair differences on a constant, clusters = match pairs, with Student's t at k - 1 degrees of
    freedom (numpy and scipy); and with one deal pair a match pair it is scipy's one-sample t interval."""
    np = pytest.importorskip("numpy")
    st = pytest.importorskip("scipy.stats")
    rng = np.random.default_rng(5)
    pairs, diffs, cluster = [], [], []
    for k in range(6):
        n = int(rng.integers(1, 5))
        h0 = [(int(rng.integers(0, 30)), int(rng.integers(0, 30))) for _ in range(n)]
        h1 = [(int(rng.integers(0, 30)), int(rng.integers(0, 30))) for _ in range(n + int(rng.integers(0, 2)))]
        pairs.append(fake_pair(k, h0, h1))
        for j in range(n):
            diffs.append(((h0[j][0] - h0[j][1]) + (h1[j][1] - h1[j][0])) / 2)
            cluster.append(k)
    d, g = np.array(diffs), np.array(cluster)
    x = np.ones((len(d), 1))
    beta = np.linalg.lstsq(x, d, rcond=None)[0]
    u = d - x @ beta
    bread = np.linalg.inv(x.T @ x)
    meat = sum(np.outer(x[g == c].T @ u[g == c], x[g == c].T @ u[g == c]) for c in range(6))
    se = math.sqrt((bread @ meat @ bread)[0, 0] * 6 / 5)
    half = st.t.ppf(0.975, 5) * se
    ppd = TournamentResult(TournamentSpec("a", "b", deals=1), pairs).figures()["points_per_deal"]
    assert ppd["difference"] == pytest.approx(beta[0], abs=1e-4)
    assert ppd["stderr"] == pytest.approx(se, abs=1e-4)
    assert ppd["ci95"] == pytest.approx([beta[0] - half, beta[0] + half], abs=1e-4)

    one = [fake_pair(k, [(a, 0)], [(0, b)]) for k, (a, b) in enumerate([(3, 5), (20, 1), (0, 9), (7, 7), (12, 0)])]
    values = [(3 + 5) / 2, (20 + 1) / 2, 9 / 2, 7, 6]
    lo, hi = st.ttest_1samp(values, 0).confidence_interval(0.95)
    assert TournamentResult(TournamentSpec("a", "b", deals=1), one).figures()["points_per_deal"]["ci95"] == \
        pytest.approx([lo, hi], abs=1e-4)


@pytest.mark.parametrize("df", [1, 2, 3, 4, 5, 8, 13, 38, 200, 2001])
def test_t_quantile_matches_scipy(df):
    st = pytest.importorskip("scipy.stats")
    from belot.tournament.stats import t_quantile

    for p in (0.975, 0.9, 0.995):
        assert t_quantile(p, df) == pytest.approx(st.t.ppf(p, df), rel=1e-10)


def test_decision_time_percentiles_are_nearest_rank():
    """Median and p95 as docs/strength.md defines them: the smallest time with at least that share of
    the decisions at or below it (numpy's inverted_cdf, Hyndman and Fan's type 1)."""
    np = pytest.importorskip("numpy")
    from belot.tournament import timing_summary

    assert timing_summary([0.004, 0.001, 0.003, 0.002]) == {"decisions": 4, "median_ms": 2.0, "p95_ms": 4.0,
                                                            "max_ms": 4.0}
    rng = np.random.default_rng(3)
    for n in (1, 2, 19, 20, 21, 100, 1001):
        times = [float(t) for t in rng.exponential(0.05, n)]
        got = timing_summary(times)
        for key, q in (("median_ms", 0.5), ("p95_ms", 0.95)):
            assert got[key] == round(float(np.quantile(times, q, method="inverted_cdf")) * 1e3, 4)
        assert got["max_ms"] == round(max(times) * 1e3, 4) and got["decisions"] == n


def test_wilson_interval():
    lo, hi = wilson(8, 10)
    assert lo == pytest.approx(0.4902, abs=1e-4) and hi == pytest.approx(0.9433, abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)
    lo, hi = wilson(100, 100)
    assert hi == 1.0 and 0.96 < lo < 0.97
    st = pytest.importorskip("scipy.stats")
    for k, n in [(0, 7), (3, 7), (77, 78), (144, 218), (50, 100)]:
        ci = st.binomtest(k, n).proportion_ci(0.95, method="wilson")
        assert wilson(k, n) == pytest.approx((ci.low, ci.high), abs=1e-9)


def test_a_seeded_tournament_is_reproducible_and_independent_of_jobs():
    spec = TournamentSpec("heuristic", "random", deals=25, seed=7, target=80)
    one = run_tournament(spec).figures(timing=False)
    again = run_tournament(spec).figures(timing=False)
    runner = LocalRunner(2)
    try:
        two = run_tournament(spec, runner).figures(timing=False)
    finally:
        runner.close()
    assert one == again == two
    assert one["deal_pairs"] >= 25
    other = run_tournament(TournamentSpec("heuristic", "random", deals=25, seed=8, target=80)).figures(timing=False)
    assert other != one


def _sigint_ignored(_: object) -> bool:
    import signal

    return signal.getsignal(signal.SIGINT) == signal.SIG_IGN


def test_a_ctrl_c_is_the_main_process_s_to_handle_and_close_leaves_no_thread():
    """Ctrl-C during `belot tournament --jobs 2` printed, in about one run of ten, a worker's
    "Process SpawnProcess-1:" or Python's "Exception ignored ... Bad file descriptor" from the
    pool's manager thread at exit. The workers ignore SIGINT (the main process stops them), and
    `close` waits for the manager thread."""
    runner = LocalRunner(2)
    try:
        assert list(runner.ordered(_sigint_ignored, iter(range(4)))) == [True] * 4
        manager = runner.pool._executor_manager_thread  # type: ignore[union-attr]
        assert manager is not None and manager.is_alive()
    finally:
        runner.close()
    assert not manager.is_alive()


def _slow(x: int) -> int:
    import time

    time.sleep(0.3)
    return x


def test_a_ctrl_c_while_the_pool_works_stops_the_run_between_waits_and_restores_the_handler():
    """A Ctrl-C raised inside the pool's locks left one held, and about one interrupted run in a
    hundred hung at exit: while `ordered` runs, Ctrl-C sets a flag that `result` acts on."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        pytest.skip("signal handlers belong to the main thread")  # (a SIGINT would stop the runner)
    before = signal.getsignal(signal.SIGINT)
    runner = LocalRunner(2)
    got = []
    try:
        with pytest.raises(KeyboardInterrupt):
            for x in runner.ordered(_slow, iter(range(1000))):
                got.append(x)
                if x == 1:  # (after a result: a timer raced the workers' start on a busy machine)
                    threading.Timer(0.05, os.kill, (os.getpid(), signal.SIGINT)).start()
        assert signal.getsignal(signal.SIGINT) is before  # restored as the run stopped
    finally:
        runner.close()
    assert got == list(range(len(got))) and 2 <= len(got) < 1000


def test_a_ctrl_c_ignored_by_the_caller_stays_ignored_while_the_pool_works():
    """A shell starts a background job with SIGINT ignored; the runner's own Ctrl-C handler took
    over all the same, and a Ctrl-C meant for the foreground stopped a background tournament."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        pytest.skip("signal handlers belong to the main thread")
    before = signal.signal(signal.SIGINT, signal.SIG_IGN)
    runner = LocalRunner(2)
    try:
        seen = [signal.getsignal(signal.SIGINT) for _ in runner.ordered(_slow, iter(range(3)))]
        assert seen == [signal.SIG_IGN] * 3
    finally:
        runner.close()
        signal.signal(signal.SIGINT, before)


def test_stops_after_the_pair_that_reaches_the_deal_pairs():
    spec = TournamentSpec("random", "random", deals=12, seed=3, target=40)
    res = run_tournament(spec)
    counts = [p.paired for p in res.pairs]
    assert sum(counts) >= 12 and sum(counts[:-1]) < 12
    assert [p.index for p in res.pairs] == list(range(len(res.pairs)))


def test_cli_records_replay_and_match_the_figures(tmp_path, capsys):
    out = tmp_path / "records"
    assert main(["tournament", "heuristic", "random", "--deals", "6", "--seed", "2", "--target", "60",
                 "--records", str(out), "--json"]) == 0
    fig = json.loads(capsys.readouterr().out)
    files = sorted(os.listdir(out))
    assert len(files) == fig["matches"] == 2 * fig["match_pairs"]
    wins_a = 0
    deals = 0
    declared = {"a": 0, "b": 0}
    made = {"a": 0, "b": 0}
    for name in files:
        match = load(str(out / name))  # replays through the rules engine
        assert match.is_over
        assert (out / name).read_bytes().endswith(b"}\n")  # a text file, as belot.record.write writes
        half = int(name[-6])
        wins_a += match.winner == half
        deals += len(match.results)
        for r in match.results:
            if r.contract >= 0:
                side = "a" if r.declarer & 1 == half else "b"
                declared[side] += 1
                made[side] += r.outcome == "made"
        assert match.players == (["bot:heuristic", "bot:random"] * 2 if half == 0 else ["bot:random", "bot:heuristic"] * 2)
    assert wins_a == fig["match_wins"]["a"]
    assert deals == fig["deals_played"]
    # The lead, the points per deal and the pair counts, recomputed from the records alone: deal j
    # of a pair counts when both tables played it; A's margin averaged over the two tables.
    diffs, a_pts, both_split_lost = [], [], [0, 0, 0]
    for k in range(fig["match_pairs"]):
        m0, m1 = (load(str(out / f"match-{k:05d}-{h}.json")) for h in (0, 1))
        for r0, r1 in zip(m0.results, m1.results):
            diffs.append(((r0.points[0] - r0.points[1]) + (r1.points[1] - r1.points[0])) / 2)
            a_pts.append((r0.points[0] + r1.points[1]) / 2)
        both_split_lost[2 - (m0.winner == 0) - (m1.winner == 1)] += 1
    ppd, mw = fig["points_per_deal"], fig["match_wins"]
    assert fig["deal_pairs"] == len(diffs)
    assert ppd["difference"] == pytest.approx(sum(diffs) / len(diffs), abs=1e-4)
    assert ppd["a"] == pytest.approx(sum(a_pts) / len(a_pts), abs=1e-4)
    assert both_split_lost == [mw["pairs_won_both"], mw["pairs_split"], mw["pairs_lost_both"]]
    # Decision times cover every act call: calls, declarations, belotes, forced cards (one per action).
    seats_a = [(0, 2), (1, 3)]
    assert fig["timing"]["a"]["decisions"] == sum(
        1 for name in files for d in load(str(out / name)).deals for s in d.actors if s in seats_a[int(name[-6])])
    for side in "ab":
        assert fig["contracts"][side]["contracts"] == declared[side]
        assert fig["contracts"][side]["made"] == made[side]
    assert main(["replay", str(out / files[0])]) == 0


def test_cli_prints_the_table(capsys):
    assert main(["tournament", "random", "bot:random", "--deals", "3", "--target", "40"]) == 0
    text = capsys.readouterr().out
    assert "per deal (95% CI)" in text and "win rate" in text and "median / p95 / max" in text


def test_table_says_there_is_no_interval_with_one_match_pair(capsys):
    """One match pair has no standard error: the lead's row says so ("[n/a, n/a]" was taken by rich
    as a markup tag and vanished, leaving the lead alone as if it had no interval to show)."""
    from belot.commands.tournament import print_table

    fig = TournamentResult(TournamentSpec("a", "b", deals=1), [fake_pair(0, [(20, 0), (10, 6)], [(4, 12)])]).figures()
    assert fig["points_per_deal"]["ci95"] == [None, None]
    print_table(fig)
    row = next(line for line in capsys.readouterr().out.splitlines() if "per deal (95% CI)" in line)
    assert "+14.00  [n/a, n/a]" in row


@pytest.mark.parametrize(
    "argv, message",
    [
        (["nosuchbot", "random"], "unknown bot 'nosuchbot'"),
        (["random", "bot:zzz"], "unknown bot 'bot:zzz'"),
    ],
)
def test_cli_errors(argv, message, capsys):
    assert main(["tournament", *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("belot tournament: ") and message in err


def test_cli_records_must_be_a_directory(tmp_path, capsys):
    f = tmp_path / "file"
    f.write_text("x")
    assert main(["tournament", "random", "random", "--deals", "1", "--records", str(f)]) == 2
    assert "is not a directory" in capsys.readouterr().err
    assert f.read_text() == "x"


def test_cli_bad_number_is_an_argparse_error(capsys):
    with pytest.raises(SystemExit) as e:
        main(["tournament", "random", "random", "--deals", "many"])
    assert e.value.code == 2


@pytest.mark.parametrize("argv, out", [
    (["tournament", "random", "random", "--deals", "1", "--records", "{out}", "--ray"], "new/records"),
    (["selfplay", "--games", "1", "--out", "{out}", "--ray"], "new/games"),
])
def test_cli_ray_missing_is_a_clear_error_and_leaves_no_directory(monkeypatch, capsys, tmp_path, argv, out):
    """A refusal leaves nothing behind: the output directory is made only once Ray has started."""
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray -> ImportError
    assert main([a.replace("{out}", str(tmp_path / out)) for a in argv]) == 2
    assert "pip install 'belot[ray]'" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("command, option", [("selfplay", "--out"), ("tournament", "--records")])
@pytest.mark.parametrize("inside, reason", [("file/out", "is not a directory"), ("file/deep/out", "is not a directory"),
                                            ("", "the directory name is empty")])
def test_cli_an_output_directory_that_cannot_be_made_is_one_line(capsys, monkeypatch, tmp_path, command, option,
                                                                 inside, reason):
    """Not a silent run without records (``--records ''`` was taken for no --records), nor a
    message without the name ('cannot create : No such file or directory')."""
    (tmp_path / "file").write_text("x")
    monkeypatch.chdir(tmp_path)
    argv = ["selfplay", "--games", "1"] if command == "selfplay" else ["tournament", "random", "random", "--deals", "1"]
    assert main([*argv, option, inside]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"belot {command}: {option}: ") and reason in err and err.count("\n") == 1, err
    assert [p.name for p in tmp_path.iterdir()] == ["file"]


@pytest.mark.slow
def test_ray_with_two_workers_gives_the_local_figures():
    """Issue 7: a tournament on local Ray (2 workers) gives exactly the figures of the local run;
    self-play games through the same Ray runner give the same records as locally."""
    pytest.importorskip("ray")
    from belot.tournament import RayRunner

    spec = TournamentSpec("heuristic", "random", deals=20, seed=11, target=80, records=True)
    local = run_tournament(spec)
    from belot.commands.selfplay import game_specs

    games = list(game_specs(["heuristic", "random"], 3, 5, 60, False))
    runner = RayRunner(None, jobs=2)
    try:
        remote = run_tournament(spec, runner)
        remote_games = list(runner.ordered(play_match, iter(games)))  # selfplay's path, same session
    finally:
        runner.close()
    assert remote.figures(timing=False) == local.figures(timing=False)
    assert [g.record for g in remote_games] == [play_match(g).record for g in games]
    assert [h.record for p in remote.pairs for h in p.halves] == [h.record for p in local.pairs for h in p.halves]


def test_cli_never_overwrites_earlier_records(tmp_path, capsys):
    out = tmp_path / "r"
    out.mkdir()
    (out / "match-00000-0.json").write_text("earlier")
    assert main(["tournament", "random", "random", "--deals", "1", "--records", str(out)]) == 2
    assert "already holds match-* files" in capsys.readouterr().err
    assert (out / "match-00000-0.json").read_text() == "earlier"


class IllegalBot:
    """A bot that answers an action that is never legal (for the error path)."""

    name = "illegal"

    def __init__(self, seed: int | None = None) -> None:
        pass

    def act(self, view):  # type: ignore[no-untyped-def]
        return 999


def test_cli_reports_a_failing_bot_with_its_place(monkeypatch, capsys):
    from belot.bots import REGISTRY

    monkeypatch.setitem(REGISTRY, "illegal", "test_tournament:IllegalBot")
    assert main(["tournament", "illegal", "random", "--deals", "1", "--seed", "4"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("belot tournament: bot 'illegal' at seat") and "match 0 (seed 4), deal 0" in err


@pytest.mark.parametrize("address, message", [("127.0.0.1:1", "cannot reach Ray at 127.0.0.1:1"),
                                              ("nonsense", "is not HOST:PORT"),
                                              # digits to str.isdigit: "²" failed in int() with a traceback
                                              ("localhost:\u00b2", "is not HOST:PORT"),
                                              ("localhost:\u0661", "is not HOST:PORT")])
def test_cli_bad_ray_address_fails_fast(address, message, capsys):
    pytest.importorskip("ray")
    assert main(["tournament", "random", "random", "--deals", "1", f"--ray={address}"]) == 2
    assert message in capsys.readouterr().err


class PassingBot:
    """Always passes, plays the first legal card: matches between two of them never end."""

    name = "passing"

    def __init__(self, seed: int | None = None) -> None:
        pass

    def act(self, view):  # type: ignore[no-untyped-def]
        from belot.game import CALL_BASE

        return CALL_BASE if CALL_BASE in view.legal_actions else view.legal_actions[0]


def test_a_match_that_never_ends_is_an_error_not_a_hang(monkeypatch, capsys):
    from belot.bots import REGISTRY
    from belot.tournament import matches

    monkeypatch.setitem(REGISTRY, "passing", "test_tournament:PassingBot")
    monkeypatch.setattr(matches, "MAX_DEALS", 30)
    assert main(["tournament", "passing", "passing", "--deals", "1"]) == 1
    assert "has no winner after 67 deals" in capsys.readouterr().err  # 30 + 151 // 4


def test_a_match_to_the_largest_target_is_not_taken_for_a_broken_bot() -> None:
    """A fixed limit of 1,000 deals stopped `belot tournament heuristic heuristic --target 10000
    --seed 2` ("has no winner after 1000 deals ... do the bots ever bid?"): its first match takes
    1,011 deals. The limit grows with the target."""
    from belot.game import MAX_TARGET
    from belot.tournament import matches

    spec = matches.MatchSpec(seed=2, index=0, seats=("heuristic",) * 4, target=MAX_TARGET)
    outcome = matches.play_match(spec)
    assert max(outcome.score) >= MAX_TARGET and len(outcome.deal_points) > 1000, (outcome.score, len(outcome.deal_points))
    assert matches.deal_limit(MAX_TARGET) == 3500 and matches.deal_limit(151) == 1037


def test_cli_options_reach_every_match_its_record_and_the_figures(tmp_path, capsys):
    """docs/rules.md section 6: `--option NAME` (repeatable) plays every match under the house
    rules; each record lists them and replays under them, the JSON figures name them; without
    options the figures have no such key; a bad option is an argparse error (exit 2)."""
    out = tmp_path / "records"
    opts = ["OPT-SURCONTRA", "OPT-EIGHT-SPLIT"]
    assert main(["tournament", "heuristic", "random", "--deals", "4", "--seed", "3", "--target", "60",
                 "--records", str(out), "--json", *[x for o in opts for x in ("--option", o)]]) == 0
    fig = json.loads(capsys.readouterr().out)
    assert fig["options"] == opts
    for name in sorted(os.listdir(out)):
        assert json.loads((out / name).read_text())["options"] == opts
        assert load(str(out / name)).rules.options == tuple(opts)
    assert main(["tournament", "heuristic", "random", "--deals", "2", "--seed", "3", "--target", "30", "--json"]) == 0
    assert "options" not in json.loads(capsys.readouterr().out)
    with pytest.raises(SystemExit) as e:
        main(["tournament", "heuristic", "random", "--deals", "2", "--option", "OPT-LATE-DECLARE"])
    assert e.value.code == 2
    assert "OPT-LATE-DECLARE" in capsys.readouterr().err


def test_selfplay_option(tmp_path, capsys):
    out = tmp_path / "games"
    assert main(["selfplay", "--games", "2", "--out", str(out), "--bots", "random", "--target", "30",
                 "--option", "OPT-NONZERO"]) == 0
    for name in sorted(os.listdir(out)):
        assert json.loads((out / name).read_text())["options"] == ["OPT-NONZERO"]
