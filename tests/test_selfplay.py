"""``belot selfplay``: replayable records, encoded observations that match the records, the same
files for the same seed, and CLI errors."""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from belot.cli import main
from belot.contracts import KNOWN_OPTIONS, Rules, UnsupportedOption
from belot.game import NUM_ACTIONS, Match
from belot.record import load


def test_selfplay_writes_replayable_records_and_observations(tmp_path, capsys):
    out = tmp_path / "data"
    assert main(["selfplay", "--games", "2", "--out", str(out), "--bots", "heuristic", "random",
                 "--seed", "3", "--target", "60", "--observations"]) == 0
    assert "2 games" in capsys.readouterr().out
    assert sorted(os.listdir(out)) == ["game-000000.json", "game-000000.npz", "game-000001.json", "game-000001.npz"]
    for g in range(2):
        check_game(out / f"game-{g:06d}", capsys)
        assert (out / f"game-{g:06d}.json").read_bytes().endswith(b"}\n")  # a text file, as record.write writes


def check_game(base: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, int]:
    """One game's files read back: the record replays (``belot replay --json``) to the deal points of
    the .npz, whose arrays are one row a decision, in the record's order, each observation and mask
    the encoder's for that seat's view under the record's house rules, each action allowed by its
    mask, each reward the module doc's; ``belot solve`` reads a position of it.  Returns the numbers
    of deals and decisions."""
    from belot.env.encoding import SIZE, action_mask, encode

    match = load(f"{base}.json")
    assert match.is_over
    capsys.readouterr()
    assert main(["replay", f"{base}.json", "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    data = np.load(f"{base}.npz")
    obs, masks, actions = data["observations"], data["action_masks"], data["actions"]
    seats, deals = data["seats"], data["deal_index"]
    n = len(actions)
    assert obs.shape == (n, SIZE) and masks.shape == (n, NUM_ACTIONS) and len(seats) == len(deals) == n
    assert masks[np.arange(n), actions].all()
    replayed = Match(match.rules, match.start_target)
    i = 0
    for j, d in enumerate(match.deals):
        replayed.deal(d.dealt, d.dealer)
        for seat, action in zip(d.actors, d.actions):
            assert (int(seats[i]), int(actions[i]), int(deals[i])) == (seat, action, j)
            view = replayed.view(seat)
            np.testing.assert_array_equal(obs[i], encode(view))
            np.testing.assert_array_equal(masks[i], action_mask(view))
            replayed.apply(action)
            i += 1
    assert i == n
    points = data["deal_points"]
    assert [tuple(p) for p in points] == [r.points for r in match.results] == [tuple(d["points"]) for d in shown["deals"]]
    assert shown["score"] == [int(x) for x in points.sum(axis=0)] and shown["winner"] == match.winner
    team = seats.astype(int) & 1
    np.testing.assert_array_equal(data["rewards"], points[deals, team] - points[deals, 1 - team])
    played = [i for i, d in enumerate(match.deals) if d.trick_winners]
    if played:  # the last position before the last trick of a deal that was played
        k = len(match.deals[played[-1]].trick_winners) * 4 - 4
        assert main(["solve", f"{base}.json", "--deal", str(played[-1]), "--at", str(k), "--json"]) == 0
        assert json.loads(capsys.readouterr().out)["objective"] == "card-points"
    return len(match.deals), n


_OPTIONS = sorted(KNOWN_OPTIONS - {"OPT-LATE-DECLARE"})


@settings(max_examples=15, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**64), options=st.lists(st.sampled_from(_OPTIONS), max_size=4, unique=True),
       bots=st.sampled_from([["heuristic", "random"], ["random"], ["random", "heuristic", "heuristic", "random"]]))
def test_every_file_reads_back_under_the_house_rules(seed, options, bots, tmp_path_factory, capsys):
    """Whatever the seed, the bots and the house rules: each game's files read back (check_game), and
    the line selfplay prints counts the deals and decisions they hold."""
    try:
        Rules.from_options(options)
    except UnsupportedOption:
        assume(False)
    out = tmp_path_factory.mktemp("selfplay") / "d"
    argv = ["selfplay", "--games", "4", "--out", str(out), "--observations", "--target", "31",
            "--seed", str(seed), "--bots", *bots, *[x for o in options for x in ("--option", o)]]
    assert main(argv) == 0
    said = capsys.readouterr().out
    figures = [check_game(out / f"game-{g:06d}", capsys) for g in range(4)]
    deals, decisions = sum(f[0] for f in figures), sum(f[1] for f in figures)
    assert said == f"4 games, {deals} deals, {decisions} decisions: records and observations written to {out}\n"
    for g in range(4):
        assert load(str(out / f"game-{g:06d}.json")).rules.options == tuple(options)


def test_two_bots_alternate_teams_on_the_same_deals(tmp_path):
    out = tmp_path / "d"
    assert main(["selfplay", "--games", "2", "--out", str(out), "--bots", "heuristic", "random", "--target", "40"]) == 0
    a, b = load(str(out / "game-000000.json")), load(str(out / "game-000001.json"))
    assert a.players == ["bot:heuristic", "bot:random"] * 2 and b.players == ["bot:random", "bot:heuristic"] * 2
    assert a.deals[0].dealt == b.deals[0].dealt


def test_same_seed_same_files(tmp_path):
    for name in ("x", "y"):
        assert main(["selfplay", "--games", "2", "--out", str(tmp_path / name), "--seed", "5", "--target", "40"]) == 0
    for f in os.listdir(tmp_path / "x"):
        assert (tmp_path / "x" / f).read_bytes() == (tmp_path / "y" / f).read_bytes()


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--games", "1", "--bots", "a", "b", "c"], "--bots takes 1, 2 or 4 names"),
        (["--games", "1", "--bots", "nobot"], "unknown bot 'nobot'"),
    ],
)
def test_cli_errors(argv, message, tmp_path, capsys):
    assert main(["selfplay", "--out", str(tmp_path / "o"), *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("belot selfplay: ") and message in err
    assert not (tmp_path / "o").exists()


def _limited_files(limit: int):  # type: ignore[no-untyped-def]
    """In the child: files may grow to ``limit`` bytes, as on a full disk (EFBIG, not a SIGXFSZ kill)."""
    import resource
    import signal

    def setup() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    return setup


@pytest.mark.parametrize("command, out, prefix", [
    (["selfplay", "--games", "2", "--target", "30", "--observations", "--out"], "d", "game-"),
    (["tournament", "random", "random", "--deals", "2", "--target", "30", "--records"], "r", "match-"),
])
def test_a_file_that_cannot_be_written_is_one_line_and_exit_2(command, out, prefix, tmp_path):
    """A full disk (here: a file size limit) while the games are written: one line naming the file and
    the reason, exit 2, no traceback, and no temporary file left beside the records."""
    import subprocess
    import sys

    argv = [sys.executable, "-m", "belot.cli", *command, str(tmp_path / out)]
    p = subprocess.run(argv, capture_output=True, text=True, preexec_fn=_limited_files(1000), timeout=120)
    assert p.returncode == 2, p.stderr
    name = "belot selfplay" if command[0] == "selfplay" else "belot tournament"
    assert p.stderr.startswith(f"{name}: cannot write {tmp_path / out / prefix}"), p.stderr
    assert p.stderr.count("\n") == 1 and "File too large" in p.stderr
    assert not [n for n in os.listdir(tmp_path / out) if n.endswith(".tmp")]


@pytest.mark.parametrize("command, name", [
    (["selfplay", "--games", "1", "--target", "30", "--out"], "selfplay"),
    (["tournament", "random", "random", "--deals", "1", "--target", "30", "--records"], "tournament"),
])
def test_two_runs_into_one_empty_directory_the_second_refused(command, name, tmp_path):
    """Two runs started at once into one empty directory both passed the empty check, and each
    overwrote the other's files: a run holds its directory, and another run is refused (exit 2,
    nothing written) until it ends."""
    import subprocess
    import sys

    from belot.commands.tournament import make_dir, release_dir

    out = tmp_path / "d"
    assert make_dir(str(out), "x-") is None  # this process holds it, as a running run does
    argv = [sys.executable, "-m", "belot.cli", *command, str(out)]
    p = subprocess.run(argv, capture_output=True, text=True, timeout=120)
    assert p.returncode == 2, p.stderr
    assert p.stderr == f"belot {name}: {command[-1]}: another belot run is writing into {out}; choose another directory\n"
    assert os.listdir(out) == []
    release_dir(str(out))  # the run ends: the directory is free
    assert subprocess.run(argv, capture_output=True, text=True, timeout=120).returncode == 0
    assert os.listdir(out)


def test_a_run_lets_go_of_its_directory_when_it_ends(tmp_path):
    """An in-process run (the Python API's `main`) held its directory until the process ended."""
    from belot.cli import main
    from belot.commands.tournament import make_dir, release_dir

    out = tmp_path / "r"
    assert main(["tournament", "random", "random", "--deals", "1", "--target", "30", "--records", str(out)]) == 0
    assert make_dir(str(out), "x-") is None  # not "another belot run is writing into ..."
    release_dir(str(out))
