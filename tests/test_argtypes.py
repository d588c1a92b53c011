"""The number types of the command line (`belot.commands._argtypes`): a value out of range is an
argparse error naming the argument and the range, exit 2 (house rule: bad input gets a clear error)."""

from __future__ import annotations

import argparse

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
