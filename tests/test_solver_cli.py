"""``belot solve``: text and JSON output on record positions, values checked against minimax."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from test_solver import _minimax

from belot.cards import CARD_NAMES
from belot.cli import main
from belot.commands.random_match import random_match
from belot.game import BELOTE_BASE
from belot.record import dumps
from belot.solver import CARD_POINTS


@pytest.fixture(scope="module")
def record(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict]:
    match = random_match(5)
    path = tmp_path_factory.mktemp("solve") / "match.json"
    text = dumps(match)
    path.write_text(text)
    return path, json.loads(text)


def _played_deal(doc: dict) -> int:
    return next(i for i, d in enumerate(doc["deals"]) if len(d.get("play", [])) == 32)


def test_json_values_match_minimax_on_a_late_position(record, capsys) -> None:  # type: ignore[no-untyped-def]
    path, doc = record
    n = _played_deal(doc)
    k = 22  # trick 6, two cards on the table
    assert main(["solve", str(path), "--deal", str(n), "--at", str(k), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) == {"to_play", "objective", "values"}
    assert out["objective"] == "card-points"
    # the same position through the engine, each card then exhaustive minimax
    from belot.commands.solve import _position

    d, _, _ = _position(doc, n, k)
    assert out["to_play"] == d.to_move
    legal = [a for a in d.legal_actions() if a < BELOTE_BASE]
    assert sorted(out["values"]) == sorted(CARD_NAMES[c] for c in legal)
    team = d.to_move & 1
    for c in legal:
        e = d.clone()
        e.apply(c)
        diff = 0 if e.is_over else _minimax(e, CARD_POINTS)
        mine = e.team_points[team] - d.team_points[team]
        theirs = e.team_points[1 - team] - d.team_points[1 - team]
        rest = diff if team == 0 else -diff
        # mover's points from here = decided now + half of (remaining total + difference of the rest)
        remaining_after = (e.table.total // e.table.multiplier) - sum(e.team_points)
        expected = mine + (remaining_after + rest) // 2
        assert theirs >= 0
        assert out["values"][CARD_NAMES[c]] == expected, CARD_NAMES[c]


def test_text_output_lists_every_legal_card(record, capsys) -> None:  # type: ignore[no-untyped-def]
    path, doc = record
    n = _played_deal(doc)
    assert main(["solve", str(path), "--deal", str(n), "--at", "0"]) == 0
    out = capsys.readouterr().out
    first = doc["deals"][n]["play"][0]
    first = first["card"] if isinstance(first, dict) else first
    assert "seat" in out and f"  {first}" in out


def test_record_stopping_at_the_position_is_the_default(record, tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    _, doc = record
    n = _played_deal(doc)
    cut = dict(doc, deals=[*doc["deals"][:n], dict(doc["deals"][n], play=doc["deals"][n]["play"][:29])])
    p = tmp_path / "cut.json"
    p.write_text(json.dumps(cut))
    assert main(["solve", str(p), "--json"]) == 0
    a = json.loads(capsys.readouterr().out)
    path, _ = record
    assert main(["solve", str(path), "--deal", str(n), "--at", "29", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == a


@pytest.mark.parametrize(
    "args, words",
    [
        (["--deal", "99"], "--deal 99 is out of range"),
        (["--deal", "N", "--at", "33"], "--at 33 is out of range"),
        (["--deal", "N", "--at", "32"], "is over after its 32 plays: give --at K, 0 to 31, to solve"),
        # a finished game's record: its default position, the end, names the positions there are
        (["--deal", "N"], "is over after its 32 plays: give --at K, 0 to 31, to solve"),
    ],
)
def test_bad_positions_exit_2_with_one_line(record, capsys, args, words) -> None:  # type: ignore[no-untyped-def]
    path, doc = record
    args = [str(_played_deal(doc)) if a == "N" else a for a in args]
    assert main(["solve", str(path), *args]) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1


def test_bad_files_exit_2(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["solve", str(tmp_path / "missing.json")]) == 2
    assert "cannot read" in capsys.readouterr().err
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    assert main(["solve", str(bad)]) == 2
    assert "not valid JSON" in capsys.readouterr().err
    wrong = tmp_path / "wrong.json"
    wrong.write_text(json.dumps({"format": "belot-record/1", "deals": [{"dealer": 0, "hands": [["JH"]] * 4}]}))
    assert main(["solve", str(wrong)]) == 2
    assert "belot solve:" in capsys.readouterr().err


def test_console_script_runs() -> None:
    r = subprocess.run([sys.executable, "-m", "belot", "solve", "/nonexistent.json"], capture_output=True, text=True)
    assert r.returncode == 2 and r.stderr.startswith("belot solve: cannot read")


def test_solve_replays_a_record_under_its_options(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    """docs/rules.md section 6: `belot solve` replays the record under the options it lists (here a
    deal with a surkontra, legal only under OPT-SURCONTRA); the values are the solver's, whose
    objective no option changes, and without the options the record is refused (exit 2)."""
    from belot.commands.solve import _position
    from belot.contracts import Rules
    from belot.solver import Position, Solver

    rules = Rules.from_options(["OPT-SURCONTRA", "OPT-EIGHT-SPLIT", "OPT-NONZERO"])
    doc = json.loads(dumps(random_match(1, rules)))
    assert doc["options"] == list(rules.options) and "surkontra" in doc["deals"][0]["auction"]
    path = tmp_path / "options.json"
    path.write_text(json.dumps(doc))
    assert main(["solve", str(path), "--deal", "0", "--at", "21", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    d, _, _ = _position(doc, 0, 21)
    assert d.rules == rules and d.auction.multiplier == 8
    values = Solver().card_values(Position.from_deal(d))
    assert out["values"] == {CARD_NAMES[c]: v for c, v in sorted(values.items(), key=lambda cv: (-cv[1], cv[0]))}
    plain = dict(doc, options=[])
    path.write_text(json.dumps(plain))
    assert main(["solve", str(path), "--deal", "0", "--at", "21", "--json"]) == 2
    assert "surkontra" in capsys.readouterr().err
