"""``belot selfplay``: replayable records, encoded observations that match the records, the same
files for the same seed, and CLI errors."""

from __future__ import annotations

import os

import numpy as np
import pytest

from belot.cli import main
from belot.game import NUM_ACTIONS, Match
from belot.record import load


def test_selfplay_writes_replayable_records_and_observations(tmp_path, capsys):
    out = tmp_path / "data"
    assert main(["selfplay", "--games", "2", "--out", str(out), "--bots", "heuristic", "random",
                 "--seed", "3", "--target", "60", "--observations"]) == 0
    assert "2 games" in capsys.readouterr().out
    assert sorted(os.listdir(out)) == ["game-000000.json", "game-000000.npz", "game-000001.json", "game-000001.npz"]
    from belot.env.encoding import SIZE, encode

    for g in range(2):
        match = load(str(out / f"game-{g:06d}.json"))
        assert match.is_over
        data = np.load(out / f"game-{g:06d}.npz")
        obs, masks, actions = data["observations"], data["action_masks"], data["actions"]
        seats, deals = data["seats"], data["deal_index"]
        assert obs.shape == (len(actions), SIZE) and masks.shape == (len(actions), NUM_ACTIONS)
        # Every action taken is one the mask allows, and the record holds them in the same order.
        assert masks[np.arange(len(actions)), actions].all()
        replayed = Match(target=60)
        i = 0
        for d in match.deals:
            replayed.deal(d.dealt, d.dealer)
            for seat, action in zip(d.actors, d.actions):
                assert (int(seats[i]), int(actions[i])) == (seat, action)
                if i % 37 == 0:  # spot-check the stored observation against the encoder
                    np.testing.assert_array_equal(obs[i], encode(replayed.view(seat)))
                replayed.apply(action)
                i += 1
        assert i == len(actions)
        points = data["deal_points"]
        assert [tuple(p) for p in points] == [r.points for r in match.results]
        team = seats.astype(int) & 1
        np.testing.assert_array_equal(data["rewards"], points[deals, team] - points[deals, 1 - team])


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
