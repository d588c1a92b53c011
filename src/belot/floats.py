"""Sums of floats that come out the same on every Python the package supports.

Python 3.12 made the built-in ``sum()`` of floats compensate its rounding (Neumaier summation), so
from 3.12 on it can differ from 3.11's in the last bits.  A bot that compares two cards' average
values then breaks a near-tie the other way now and then, and a seeded tournament plays other
cards on another Python (seen: the same seeded match of `expert` against `pimc` differed in two
cards between 3.11 and 3.12 until its sums went through `total`).  Decisions and figures that must
reproduce from their seed add their floats here: left to right, as 3.11's ``sum()`` does, so the
decisions and figures made on 3.11 stay as they were.
"""

from __future__ import annotations

from collections.abc import Iterable


def total(values: Iterable[float]) -> float:
    """The sum of ``values`` added left to right in double precision (0.0 for none).

    >>> total([0.1] * 10) == 0.1 + 0.1 + 0.1 + 0.1 + 0.1 + 0.1 + 0.1 + 0.1 + 0.1 + 0.1
    True
    >>> total([1e16, 1.0, -1e16])  # no compensation: the 1.0 is lost, as in 3.11's sum()
    0.0
    """
    acc = 0.0
    for v in values:
        acc += v
    return acc
