"""The number types of the command line (`belot.commands._argtypes`): a value out of range is an
argparse error naming the argument and the range, exit 2 (house rule: bad input gets a clear error)."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from belot.cli import main
from belot.commands._argtypes import seconds, whole


def test_whole_keeps_its_range() -> None:
    port = whole(0, 65535, "a port number")
    assert port("0") == 0 and port("65535") == 65535
    for bad, says in (("65536", "65536 is not a port number from 0 to 65535"), ("-1", "from 0 to 65535"),
                      ("x", "'x' is not a port number"), ("1.5", "is not a port number")):
        with pytest.raises(argparse.ArgumentTypeError, match=says):
            port(bad)
    with pytest.raises(argparse.ArgumentTypeError, match="0 is not a whole number 1 or more"):
        whole(1)("0")


def test_seconds_are_finite_and_in_range() -> None:
    assert seconds()("0") == 0.0 and seconds(10)("2.5") == 2.5
    for parse, bad in ((seconds(), "nan"), (seconds(), "inf"), (seconds(), "-1"), (seconds(10), "11"),
                       (seconds(positive=True), "0"), (seconds(), "soon")):
        with pytest.raises(argparse.ArgumentTypeError, match="seconds"):
            parse(bad)


# every number a command takes, out of range or not a number at all (a pasted 5,000-digit value
# included: its message quotes 40 characters of it, and ``int()`` alone would refuse it with its own)
@pytest.mark.parametrize("argv, says", [
    (["tournament", "random", "random", "--deals", "0"], "argument --deals: 0 is not a whole number from 1 to"),
    (["tournament", "random", "random", "--jobs", "0"], "argument --jobs: 0 is not a number of worker processes from 1 to 1024"),
    (["tournament", "random", "random", "--target", "0"], "argument --target: 0 is not a match target from 1 to 10000"),
    (["tournament", "random", "random", "--seed", "9" * 5000], "argument --seed: a whole-number seed has at most 4300 digits, not 5000"),
    (["selfplay", "--out", "o", "--games", "0"], "argument --games: 0 is not a whole number from 1 to"),
    (["selfplay", "--out", "o", "--games", "1", "--jobs", "2000"], "argument --jobs: 2000 is not a number of worker"),
    (["selfplay", "--out", "o", "--games", "1", "--target", "10001"], "argument --target: 10001 is not a match target"),
    (["analyze", "r.json", "--jobs", "0"], "argument --jobs: 0 is not a number of worker processes"),
    (["analyze", "r.json", "--deal", "-1"], "argument --deal: -1 is not an index from 0 to"),
    (["solve", "r.json", "--at", "-1"], "argument --at: -1 is not an index from 0 to 1000000"),
    (["solve", "r.json", "--deal", "9" * 4300], "argument --deal: " + "9" * 40 + "... is not an index"),
    (["solve", "r.json", "--deal", "x"], "argument --deal: 'x' is not an index"),
    (["random-match", "--seed", "1e3"], "argument --seed: '1e3' is not a whole-number seed"),
    (["play", "--pause", "nan"], "argument --pause: nan is not a finite number of seconds from 0 to 60"),
    (["play", "--pause", "-1"], "argument --pause: -1 is not a finite number of seconds"),
    (["play", "--target", "0"], "argument --target: 0 is not a match target from 1 to 10000"),
    (["serve", "--bot-workers", "0"], "argument --bot-workers: 0 is not a number of worker processes"),
])
def test_commands_refuse_numbers_out_of_range(argv: list[str], says: str, tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as e:
        main(argv)
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert says in err and len(err) < 2000
    assert list(tmp_path.iterdir()) == []  # nothing written


@pytest.mark.parametrize("args, says", [
    (["--port", "99999"], "argument --port: 99999 is not a port number from 0 to 65535"),
    (["--grace", "nan"], "argument --grace: nan is not a finite number of seconds from 0 to 86400"),
    (["--max-body", "0"], "argument --max-body: 0 is not a whole number from 1 to 1000000000"),
])
def test_serve_refuses_numbers_out_of_range(args: list[str], says: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        main(["serve", *args])
    assert e.value.code == 2
    assert says in capsys.readouterr().err


@pytest.mark.parametrize("option, says", [
    ("--host", "belot serve: --host is empty (every interface is 0.0.0.0 or ::)\n"),
    ("--db", "belot serve: --db is empty\n"),
    ("--advertise", "belot serve: --advertise is empty\n"),
])
def test_serve_refuses_an_empty_value_rather_than_a_default(option: str, says: str, tmp_path, monkeypatch,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    """``--host "$HOST"`` with HOST unset listened on every interface (an empty host is INADDR_ANY to
    the socket); ``--db ''`` opened the user's own database: both before anything is opened."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))  # the default database, were it opened
    monkeypatch.chdir(tmp_path)
    assert main(["serve", "--port", "0", option, ""]) == 2
    assert capsys.readouterr().err == says
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("args, says", [
    (["--advertise", "http://10.0.0.5:8000"], "--advertise is where the other workers reach this one: it needs --worker"),
    (["--worker", "--advertise", "10.0.0.5:8000"], "--advertise: 10.0.0.5:8000 is not an http:// or https:// address"),
    (["--worker", "--advertise", "http://:8000"], "--advertise: http://:8000 is not an http:// or https:// address"),
    (["--worker", "--advertise", "http://h:99999"], "--advertise: http://h:99999 is not an http:// or https:// address"),
])
def test_serve_refuses_an_advertised_address_it_cannot_use(args: list[str], says: str, tmp_path, monkeypatch,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    """Without --worker, --advertise was ignored without a word; with it, any text was taken, and the
    other workers could not reach this one (before anything is opened)."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    assert main(["serve", "--port", "0", *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"belot serve: {says}") and err.count("\n") == 1
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("url", ["mysql://x", "mysql+pymysql://u@h/d", "oracle://h", "x://y"])
def test_serve_names_a_database_kind_it_does_not_support(url: str, capsys: pytest.CaptureFixture[str]) -> None:
    """``--db mysql://x`` said "No module named 'MySQLdb' (for PostgreSQL: pip install ...)"."""
    assert main(["serve", "--port", "0", "--db", url]) == 2
    kind = url.split(":")[0].split("+")[0]
    assert capsys.readouterr().err == (f"belot serve: --db: {kind}:// is not a database belot stores games in: "
                                       "a SQLite file (a path or sqlite:///PATH) or postgresql://user@host/db\n")


def test_serve_on_a_database_another_server_owns_is_one_line_and_exit_3(tmp_path, capsys) -> None:
    from belot.server.owner import Owner

    db = tmp_path / "b.sqlite3"
    with Owner(str(db)):
        assert main(["serve", "--port", "0", "--db", str(db)]) == 3
    err = capsys.readouterr().err
    assert err.startswith("belot serve: the database is in use") and err.count("\n") == 1, err


def test_serve_quotes_a_host_with_a_newline_escaped_on_one_line(tmp_path, capsys) -> None:
    assert main(["serve", "--port", "0", "--db", str(tmp_path / "b.sqlite3"), "--host", "a\nb"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("belot serve: cannot listen on a\\nb:0: ") and err.count("\n") == 1, err


@pytest.mark.skipif(not hasattr(os, "sched_setaffinity"), reason="needs Linux's CPU affinity")
@pytest.mark.parametrize("argv", [["tournament", "random", "random", "--deals", "3", "--json"],
                                  ["selfplay", "--games", "2", "--out", "out"]])
def test_more_jobs_than_cpus_run_one_process_per_cpu_and_say_so(argv: list[str], tmp_path: Path) -> None:
    """``--jobs 1000`` started a thousand Python processes: on this 24 GiB machine the tournament
    took every byte of memory and printed nothing in two minutes.  Given one CPU, ``--jobs 64``
    runs one process, says so on standard error, and gives the figures of ``--jobs 1``."""
    def run(jobs: str) -> subprocess.CompletedProcess[str]:
        out = tmp_path / jobs
        out.mkdir()
        return subprocess.run([sys.executable, "-m", "belot", *argv, "--jobs", jobs], cwd=out, capture_output=True,
                              text=True, timeout=120, preexec_fn=lambda: os.sched_setaffinity(0, {min(os.sched_getaffinity(0))}))

    many, one = run("64"), run("1")
    assert many.returncode == one.returncode == 0, many.stderr
    assert many.stderr.endswith(": --jobs 64: this machine gives belot 1 CPU; running 1 worker process\n"), many.stderr
    assert one.stderr == ""
    if argv[0] == "tournament":  # the same figures; only the decisions' times differ
        assert {**json.loads(many.stdout), "timing": None} == {**json.loads(one.stdout), "timing": None}
    if argv[0] == "selfplay":
        files = sorted(p.name for p in (tmp_path / "1" / "out").iterdir())
        assert files and files == sorted(p.name for p in (tmp_path / "64" / "out").iterdir())
        assert all((tmp_path / "1" / "out" / f).read_bytes() == (tmp_path / "64" / "out" / f).read_bytes() for f in files)


def test_worker_processes_keep_a_number_within_the_cpus_and_name_the_flag(monkeypatch, capsys) -> None:
    """The same bound for `belot analyze --jobs` and `belot serve --bot-workers` (a server's bot pool)."""
    import belot.tournament.runners
    from belot.commands._argtypes import worker_processes

    monkeypatch.setattr(belot.tournament.runners, "usable_cpus", lambda: 4)
    assert worker_processes("belot analyze", 4) == 4 and capsys.readouterr().err == ""
    assert worker_processes("belot serve", 9, "--bot-workers") == 4
    assert capsys.readouterr().err == "belot serve: --bot-workers 9: this machine gives belot 4 CPUs; running 4 worker processes\n"
