"""argparse ``type=`` functions shared by the bench scripts: a bad count, duration or bot name is an
argparse error naming the argument (exit 2), not a traceback or a run that does something else."""

from __future__ import annotations

import argparse
import math

from belot.tournament import bot_key


def _int(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a whole number, not {text!r}") from None


def positive(text: str) -> int:
    """A whole number of 1 or more (deals, rounds, jobs, worlds)."""
    n = _int(text)
    if n < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more, not {n}")
    return n


def count(text: str) -> int:
    """A whole number of 0 or more (``--files 0``: all of them)."""
    n = _int(text)
    if n < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, not {n}")
    return n


def seconds(text: str) -> float:
    """A finite number of seconds, 0 or more (a delay, a warm-up, a time limit where 0 is none)."""
    try:
        s = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number of seconds, not {text!r}") from None
    if not math.isfinite(s) or s < 0:
        raise argparse.ArgumentTypeError(f"must be a finite number of seconds, 0 or more, not {text!r}")
    return s


def duration(text: str) -> float:
    """A finite number of seconds above 0 (a measured duration)."""
    s = seconds(text)
    if s == 0:
        raise argparse.ArgumentTypeError("must be more than 0 seconds")
    return s


def bot_name(text: str) -> str:
    """A registered bot's name (`belot.tournament.bot_key`)."""
    try:
        return bot_key(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None
