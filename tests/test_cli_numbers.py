"""Every number given on the command line is written in the digits 0-9 (`belot.tui.text.is_whole_number`,
the test the terminal's prompts use too): ``int()`` and ``float()`` also take ``١`` (an Arabic-Indic
digit), ``1_000``, ``+5`` and `` 5 ``, and ``belot serve --port ' ٨٠'`` listened on port 80.  Such a
value is an argparse error naming the argument and what was wrong, exit 2."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from belot.cli import build_parser, main
from belot.server.settings import configured_abandon_after

# every option (and positional) that takes a number, per command, with a value it takes
NUMBERS = {
    "play": {"--seed": "7", "--target": "151", "--pause": "0.5"},
    "random-match": {"--seed": "7"},
    "tournament": {"--deals": "10", "--seed": "7", "--jobs": "1", "--target": "151"},
    "selfplay": {"--games": "1", "--seed": "7", "--jobs": "1", "--target": "151"},
    "analyze": {"--deal": "0", "--jobs": "1", "--seed": "7"},
    "solve": {"--deal": "0", "--at": "0"},
    "serve": {"--port": "8000", "--grace": "60", "--rematch-hold": "120", "--bot-delay": "0.5",
              "--bot-workers": "1", "--bot-budget": "2.5", "--max-body": "1000", "--ws-per-address": "4",
              "--ws-total": "100", "--tables-per-minute": "10", "--waiting-per-address": "2",
              "--max-bot-tables": "5", "--analyses-per-address": "2", "--abandon-after": "3600",
              "--request-time": "10"},
}
REQUIRED = {"random-match": [], "tournament": ["random", "random"], "selfplay": ["--out", "o", "--games", "1"],
            "analyze": ["r.json"], "solve": ["r.json"], "play": [], "serve": []}
# what int() or float() takes and a person does not type as a number
NOT_DIGITS = ["١", "٣٠", "1_0", "+5", " 5", "5 ", "5\n", "²"]


def _subparser(command: str) -> argparse.ArgumentParser:
    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    return sub.choices[command]  # type: ignore[no-any-return]


def test_the_list_holds_every_option_that_takes_a_number() -> None:
    """An option added with a number type (or a bare ``type=int``) is checked below too."""
    for command, options in NUMBERS.items():
        typed = {a.option_strings[0] for a in _subparser(command)._actions
                 if a.type is not None and getattr(a.type, "__qualname__", "").split(".")[0] in ("whole", "seconds", "int", "float")}
        assert typed == set(options), command


@pytest.mark.parametrize("command, option", [(c, o) for c, os_ in NUMBERS.items() for o in os_])
def test_a_number_not_in_the_digits_0_9_is_an_argparse_error(command: str, option: str,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    parser = _subparser(command)
    good = parser.parse_args([*REQUIRED[command], option, NUMBERS[command][option]])
    assert getattr(good, option.lstrip("-").replace("-", "_")) is not None
    for bad in NOT_DIGITS:
        with pytest.raises(SystemExit) as e:
            parser.parse_args([*REQUIRED[command], option, bad])
        assert e.value.code == 2, bad
        err = capsys.readouterr().err.splitlines()[-1]
        assert err.startswith(f"belot {command}: error: argument {option}: {bad!r} is not "), err
        assert "(the digits 0-9" in err, err


def test_the_message_says_a_minus_is_taken_where_the_number_may_be_negative(capsys: pytest.CaptureFixture[str]) -> None:
    """A seed may be any whole number (``-5`` deals its own cards); a port, a count cannot, and ``-1``
    is refused by its range, which the message names."""
    assert main(["random-match", "--seed", "-5"]) == 0
    capsys.readouterr()
    with pytest.raises(SystemExit):
        main(["random-match", "--seed", "+5"])
    assert capsys.readouterr().err.endswith(
        "argument --seed: '+5' is not a whole-number seed (the digits 0-9 only, after a - for a negative one)\n")
    with pytest.raises(SystemExit):
        main(["serve", "--port", "-1"])
    assert capsys.readouterr().err.endswith("argument --port: -1 is not a port number from 0 to 65535\n")
    with pytest.raises(SystemExit):
        main(["serve", "--port", "٨٠"])
    assert capsys.readouterr().err.endswith("argument --port: '٨٠' is not a port number (the digits 0-9 only)\n")


def test_seconds_take_a_decimal_point_and_ascii_only(capsys: pytest.CaptureFixture[str]) -> None:
    parser = _subparser("play")
    for text, value in (("0.5", 0.5), (".5", 0.5), ("2", 2.0), ("1e-1", 0.1)):
        assert parser.parse_args(["--pause", text]).pause == value
    for bad in ("١.٥", "0_5", "+1", " 1"):
        with pytest.raises(SystemExit):
            parser.parse_args(["--pause", bad])
        assert capsys.readouterr().err.endswith(
            f"argument --pause: {bad!r} is not a number of seconds (the digits 0-9 and a decimal point, as in 0.5)\n")


@pytest.mark.parametrize("value", ["١", "1_0", " 5", "+5", "0", "-3", "nan", "inf", "90x", ""])
def test_the_environments_abandon_after_is_a_number_in_ascii(value: str) -> None:
    """``BELOT_ABANDON_AFTER`` took what ``float()`` takes: "١" was 1 second.  Like `--abandon-after`
    it is written in ASCII."""
    with pytest.raises(ValueError, match=r"BELOT_ABANDON_AFTER=.*: give the seconds"):
        configured_abandon_after({"BELOT_ABANDON_AFTER": value})


def test_serve_names_a_bad_abandon_after_in_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    """A bad ``BELOT_ABANDON_AFTER`` ended `belot serve` with a traceback: it is named, exit 2, and no
    database is made."""
    monkeypatch.setenv("BELOT_ABANDON_AFTER", "six hours")
    db = tmp_path / "belot.sqlite3"
    assert main(["serve", "--port", "0", "--db", str(db)]) == 2
    assert capsys.readouterr().err.startswith("belot serve: BELOT_ABANDON_AFTER='six hours': give the seconds")
    assert not db.exists()
