"""How a command stops on bad input or a file it cannot use: one line on standard error,
``belot COMMAND: what was wrong``, and exit status 2.  The line stays one line whatever it quotes (a
file name with a newline): what is not printable is escaped (`belot.errors.printable`)."""

from __future__ import annotations

import sys
from typing import Any


class Fail(Exception):
    """Raised inside a command: its message is the line `fail` prints."""


def fail(prog: str, message: str, status: int = 2) -> int:
    """Print ``prog: message`` on standard error, escaped to one line; return the exit status: 2, or
    1 for a bot that broke a rule (a defect, not the user's input), 3 for serve's database owned."""
    from ..errors import printable

    print(printable(f"{prog}: {message}"), file=sys.stderr)
    return status


def cannot(what: str, path: object, e: OSError) -> str:
    """The message for a file that cannot be used: ``cannot read FILE: No such file or directory``
    (``what`` is ``read``, ``write``...; the OSError's own text where it has no strerror)."""
    return f"cannot {what} {path}: {e.strerror or e}"


def read_record(file: str) -> Any:
    """The JSON document of the record ``file`` (``-``: standard input); Fail says why it cannot be read."""
    from ..errors import RecordError
    from ..record import read

    if not file:
        raise Fail("the record's file name is empty")
    try:
        return read(file)
    except OSError as e:
        raise Fail(cannot("read", file, e)) from None
    except RecordError as e:
        raise Fail(str(e)) from None
