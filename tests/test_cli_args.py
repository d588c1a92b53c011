"""The commands other than play and serve, run in-process on argument lists drawn from the whole input
space: the flags of every command (repeated, misplaced, after ``--``), empty and huge values, text
that is not UTF-8 (as argv decodes it, with surrogateescape), and paths that are missing, directories,
inside a file or records of every kind.  Whatever comes: exit 0, or 2 with one line on standard error
(argparse's usage and error line for a usage error), a newline in a quoted argument escaped, never a traceback, and no file left that a later
run would misread (a temporary file, a record that does not replay)."""

from __future__ import annotations

import argparse
import io
import json
import os
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import belot.tournament
from belot.cli import build_parser, main
from belot.commands import analyze, selfplay
from belot.commands.random_match import random_match
from belot.contracts import Rules
from belot.record import dumps, load

COMMANDS = ["analyze", "replay", "random-match", "tournament", "selfplay", "solve"]


def _subparser(command: str) -> argparse.ArgumentParser:
    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    return sub.choices[command]  # type: ignore[no-any-return]


def _flags() -> list[str]:
    commands = ["play", "serve", *COMMANDS]
    return sorted({o for c in commands for a in _subparser(c)._actions for o in a.option_strings})


# paths relative to the example's own folder (see _inputs); "rec.json/inside" is a path inside a file
PATHS = ["rec.json", "sk.json", "part.json", "bad.json", "latin1.json", "empty.json", "dir", "missing.json",
         "rec.json/inside", "out", "out/", "new/deep/out.json", "", "-", ".", "dir/rec.json",
         "new\nline.json", "dir/\nbelot: forged", "rec.json/\x1b[2J"]
VALUES = ["0", "1", "2", "3", "28", "31", "32", "-1", "10001", "1025", "9" * 5000, "1e3", "nan", "x", "", "x\ny",
          "\x1b[31m", "random\n",
          "random", "heuristic", "bot:random", "nosuch", "OPT-SURCONTRA", "OPT-NONZERO", "OPT-LATE-DECLARE",
          "OPT-NOSUCH", "--", "-", "-h"]
# any text an argv from the system can hold: no NUL, no surrogate but those of bytes that are not UTF-8
TOKEN = (st.sampled_from(_flags()) | st.sampled_from(PATHS) | st.sampled_from(VALUES)
         | st.text(st.characters(blacklist_characters="\0", blacklist_categories=("Cs",)), max_size=12)
         | st.binary(max_size=8).filter(lambda b: 0 not in b).map(lambda b: b.decode("utf-8", "surrogateescape")))

# an argument list that runs, for each command: the examples start from it (changed) or from nothing
VALID = {
    "analyze": ["rec.json", "--deal", "0"],
    "replay": ["rec.json", "--json"],
    "random-match": ["--seed", "1", "--out", "out.json", "--option", "OPT-SURCONTRA"],
    "tournament": ["random", "heuristic", "--deals", "1", "--records", "out", "--json"],
    "selfplay": ["--games", "2", "--out", "out", "--observations", "--option", "OPT-NONZERO", "--bots", "random"],
    "solve": ["part.json", "--at", "28"],
}


@st.composite
def command_lines(draw: st.DrawFn) -> tuple[str, list[str]]:
    """A command and its arguments: a working list with a few tokens inserted, replaced or deleted, or
    a list of tokens alone."""
    command = draw(st.sampled_from(COMMANDS))
    own = [o for a in _subparser(command)._actions for o in a.option_strings]
    token = st.sampled_from(own) | st.sampled_from(VALID[command]) | TOKEN
    args = list(VALID[command]) if draw(st.integers(0, 4)) else []
    for _ in range(draw(st.integers(0, 3))):
        at = draw(st.integers(0, len(args)))
        change = draw(st.sampled_from(["insert", "replace", "delete"]))
        if change == "insert" or not args:
            args.insert(at, draw(token))
        elif change == "replace":
            args[min(at, len(args) - 1)] = draw(token)
        else:
            del args[min(at, len(args) - 1)]
    return command, args


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    """The files every example starts with: a finished record, one that stops in its first deal,
    text that is not JSON, a record in Latin-1 and an empty file."""
    text = dumps(random_match(3))
    doc = json.loads(text)
    doc["deals"] = doc["deals"][:1]
    doc["deals"][0]["play"] = doc["deals"][0]["play"][:30]
    named = dict(doc, players=["Müge", "b", "c", "d"])
    return {"rec.json": text.encode(), "sk.json": dumps(random_match(1, Rules(("OPT-SURCONTRA",)))).encode(),
            "part.json": json.dumps(doc).encode(), "bad.json": b"{not json",
            "latin1.json": json.dumps(named, ensure_ascii=False).encode("latin-1"), "empty.json": b""}


def _small_work(monkeypatch: pytest.MonkeyPatch) -> None:
    """Keep each example fast without touching what is checked: tournaments of at most 2 deal pairs
    and self-play of at most 2 games, both to 20 points; the analysis itself skipped (the record and
    the --deal are still checked); no Ray."""
    from dataclasses import replace
    from itertools import islice

    real_run, real_specs = belot.tournament.run_tournament, selfplay.game_specs
    monkeypatch.setattr(belot.tournament, "run_tournament",
                        lambda spec, *a: real_run(replace(spec, deals=min(spec.deals, 2), target=20), *a))
    monkeypatch.setattr(selfplay, "game_specs",
                        lambda bots, games, seed, target, *a: islice(real_specs(bots, min(games, 2), seed, 20, *a), 2))
    monkeypatch.setattr(analyze, "_analyse", lambda *a: [])
    monkeypatch.setitem(sys.modules, "ray", None)


@settings(max_examples=300, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(line=command_lines())
def test_any_arguments_exit_0_or_2_with_one_line(line: tuple[str, list[str]], inputs: dict[str, bytes],
                                                tmp_path_factory: pytest.TempPathFactory,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    command, args = line
    work = tmp_path_factory.mktemp("argv")
    for name, data in inputs.items():
        (work / name).write_bytes(data)
    (work / "dir").mkdir()
    (work / "dir" / "rec.json").write_bytes(inputs["rec.json"])
    before = {p: p.read_bytes() for p in work.rglob("*") if p.is_file()}
    folders = {p for p in work.rglob("*") if p.is_dir()}
    capsys.readouterr()
    with pytest.MonkeyPatch.context() as mp:
        _small_work(mp)
        mp.chdir(work)
        mp.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(inputs["part.json"]), encoding="utf-8"))
        try:
            rc = main([command, *args])
            exited = False
        except SystemExit as e:
            rc, exited = e.code, True
    _, err = capsys.readouterr()
    assert rc in (0, 2), (rc, err[-500:])
    assert "Traceback" not in err
    if rc == 2:  # one line, whatever newlines the arguments it quotes hold
        if exited:  # argparse: usage, then one error line
            last = err.rstrip("\n").rpartition("\n")[2]
            assert last.startswith(("belot: error: ", f"belot {command}: error: ")), err[-500:]
        else:
            assert err.startswith(f"belot {command}: "), err[-500:]
            assert err.count("\n") == 1 and err.endswith("\n"), err[-500:]
        # a refusal leaves nothing behind: no output directory made before the refusal
        assert {p for p in work.rglob("*") if p.is_dir()} == folders, err[-500:]
    _no_misleading_files(work, before)


def _no_misleading_files(work: Path, before: dict[Path, bytes]) -> None:
    """Every file the run created or changed is whole: a record that replays, observations that load;
    no temporary file is left."""
    import numpy as np

    for p in work.rglob("*"):
        if not p.is_file() or before.get(p) == p.read_bytes():
            continue
        assert not p.name.endswith(".tmp"), p
        if p.suffix == ".npz":
            assert len(np.load(p)["actions"]) > 0
        else:
            assert load(os.fspath(p)).is_over, p


# -- defects an audit of the commands found, each once as its own case ---------------------------------


def _surkontra_record(tmp_path: Path) -> Path:
    path = tmp_path / "sk.json"
    path.write_text(dumps(random_match(1, Rules(("OPT-SURCONTRA",)))), encoding="utf-8")
    return path


def test_replay_names_a_surkontra_deal(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """R3.3 (OPT-SURCONTRA): `belot replay` of any record with a surkontra ended in KeyError: 8."""
    path = _surkontra_record(tmp_path)
    assert json.loads(path.read_text(encoding="utf-8"))["deals"][0]["auction"][-4] == "surkontra"
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Deal 1: AT by bot:random (team 0), surkontra\n")


@pytest.mark.parametrize("command", [["replay", "REC"], ["replay", "--json", "REC"], ["random-match", "--seed", "1"],
                                     ["--help"], ["replay", "--help"],
                                     ["solve", "--deal", "0", "--at", "3", "REC"],
                                     ["tournament", "random", "random", "--deals", "1", "--target", "20"]])
def test_output_that_cannot_be_written_is_exit_2_with_one_line(tmp_path: Path, command: list[str]) -> None:
    """Standard output on a full disk (/dev/full): a traceback and exit 1 from every command."""
    import subprocess

    rec = _surkontra_record(tmp_path)
    argv = [sys.executable, "-m", "belot", *[str(rec) if a == "REC" else a for a in command]]
    with open("/dev/full", "w") as full:
        out = subprocess.run(argv, stdout=full, stderr=subprocess.PIPE, text=True, timeout=120, check=False)
    assert out.returncode == 2, out.stderr[-800:]
    prog = "belot" if "--help" in command else f"belot {command[0]}"  # argparse's help: before a command runs
    assert out.stderr == f"{prog}: cannot write standard output: No space left on device\n"


def test_ctrl_c_while_the_commands_load_is_130_without_a_traceback(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C in the first tenth of a second (the commands' modules loading) printed a traceback."""
    import belot.cli

    def interrupted() -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(belot.cli, "build_parser", interrupted)
    assert main(["replay", "x.json"]) == 130


def test_solve_checks_the_whole_record_not_only_the_part_before_its_position(tmp_path: Path,
                                                                             capsys: pytest.CaptureFixture[str]) -> None:
    doc = json.loads(dumps(random_match(3)))
    doc["deals"][-1]["play"][20] = "ZZ"  # long after the position solved
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert main(["solve", "--deal", "0", "--at", "3", str(path)]) == 2
    assert "'ZZ' is not a card" in capsys.readouterr().err


def test_a_players_name_with_control_characters_is_printed_escaped(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """A shared record's name broke the summary's line, coloured the terminal and set its title."""
    from belot.commands.analyze import _seat

    doc = json.loads(dumps(random_match(3)))
    doc["players"] = ["evil\n\x1b[31mRED\x1b]0;owned\x07", "b", "c", "d"]
    path = tmp_path / "esc.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\x07" not in out and "evil\\n\\x1b[31mRED" in out
    assert "\x1b" not in _seat(tuple(doc["players"]), 0)


def test_a_field_given_twice_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Readers differ on which of two values counts, and the one dropped went unchecked."""
    path = tmp_path / "dup.json"
    path.write_text('{"format": "belot-record/1", "deals": [{"dealer": 0, "hands": [["ZZ"]]}], "deals": []}')
    assert main(["replay", str(path)]) == 2
    assert capsys.readouterr().err == "belot replay: the record is not valid: the field 'deals' appears twice in one object\n"


def test_a_seed_too_long_for_python_is_called_too_long_not_no_number(capsys: pytest.CaptureFixture[str]) -> None:
    """A seed of 5,000 digits is a whole number; it was called "not a whole-number seed"."""
    with pytest.raises(SystemExit) as e:
        main(["random-match", "--seed", "9" * 5000])
    assert e.value.code == 2
    assert capsys.readouterr().err.endswith("argument --seed: a whole-number seed has at most 4300 digits, not 5000\n")
