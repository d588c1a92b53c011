"""argparse ``type=`` functions for numbers with a range: a value outside it is an argparse error
naming the argument and the range (exit 2), shared by the commands and the bench scripts."""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Callable

from ..errors import shown as _shown
from ..game import MAX_TARGET
from ..tui.text import is_whole_number, plain_float

DIGITS_ONLY = "the digits 0-9 only"


def whole(lo: int | None = None, hi: int | None = None, what: str = "a whole number") -> Callable[[str], int]:
    """A whole number from ``lo`` to ``hi`` (no bound where None), in the digits 0-9 after an optional
    ``-`` (`belot.tui.text.is_whole_number`: ``١``, ``1_000``, ``+5`` and `` 5`` are refused, which
    ``int()`` takes); a ``-`` is read so that the range names what is wrong with ``-1``.  ``int()``
    itself refuses more than 4,300 digits, so an unbounded one stays a number Python can print."""
    def parse(text: str) -> int:
        if not is_whole_number(text, negative=True):
            sign = ", after a - for a negative one" if lo is None or lo < 0 else ""
            raise argparse.ArgumentTypeError(f"{_shown(text)} is not {what} ({DIGITS_ONLY}{sign})")
        try:
            value = int(text)
        except ValueError:  # past Python's limit on an int read from text
            digits = text.lstrip("-")
            raise argparse.ArgumentTypeError(f"{what} has at most 4300 digits, not {len(digits)}") from None
        if (lo is not None and value < lo) or (hi is not None and value > hi):
            span = f"at most {hi}" if lo is None else f"{lo} or more" if hi is None else f"from {lo} to {hi}"
            raise argparse.ArgumentTypeError(f"{_shown(text, quote=False)} is not {what} {span}")
        return value
    return parse


def seconds(hi: float = math.inf, positive: bool = False) -> Callable[[str], float]:
    """A finite number of seconds from 0 (above 0 when ``positive``) to ``hi``, written in ASCII
    (``1.5``, ``.5``, ``2e-3``): ``float()`` also takes ``١``, ``1_0``, ``+2`` and `` 2 ``."""
    def parse(text: str) -> float:
        try:
            value = plain_float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{_shown(text)} is not a number of seconds "
                                             "(the digits 0-9 and a decimal point, as in 0.5)") from None
        if not (math.isfinite(value) and 0 <= value <= hi) or (positive and value == 0):
            top = f" and at most {hi:g}" if math.isfinite(hi) else ""
            span = "above 0" + top if positive else f"from 0 to {hi:g}" if top else "0 or more"
            raise argparse.ArgumentTypeError(f"{_shown(text, quote=False)} is not a finite number of seconds {span}")
        return value
    return parse


# the commands' shared kinds of number
seed = whole(what="a whole-number seed")  # any size: the same seed, the same cards
count = whole(1, 10**9)  # deals, games, a body's bytes
jobs = whole(1, 1024, "a number of worker processes")
target = whole(1, MAX_TARGET, "a match target")  # game points to win a match
index = whole(0, 10**6, "an index")  # 0-based; the command checks it against its record


def worker_processes(prog: str, jobs: int, flag: str = "--jobs") -> int:
    """``jobs`` local worker processes, at most one per CPU this process may use: more only slow one
    another (the figures never depend on their number), and a thousand took every byte of memory and
    never finished.  A note on standard error says when the number is lowered."""
    from ..tournament.runners import usable_cpus

    cpus = usable_cpus()
    if jobs <= cpus:
        return jobs
    print(f"{prog}: {flag} {jobs}: this machine gives belot {cpus} CPU{'s' * (cpus > 1)}; "
          f"running {cpus} worker process{'es' * (cpus > 1)}", file=sys.stderr)
    return cpus
