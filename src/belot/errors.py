"""The errors the rules core raises: every refusal names the rule it applies."""

from __future__ import annotations

SHOWN = 40
"""How many characters of a bad value a message quotes."""


def shown(value: object, quote: bool = True) -> str:
    """A bad value as a message quotes it: at most `SHOWN` characters of it, so a pasted megabyte or a
    deeply nested list stays one short line.

    >>> shown("7C"), shown("x" * 100), shown(list(range(50)))
    ("'7C'", "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...'", '[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 1...')
    """
    if isinstance(value, str):
        short = value if len(value) <= SHOWN else value[:SHOWN] + "..."
        return repr(short) if quote else short
    try:
        text = repr(value)
    except RecursionError:
        return f"a {type(value).__name__} nested too deep"
    return text if len(text) <= SHOWN else text[:SHOWN] + "..."


def printable(text: str) -> str:
    """``text`` with every character that is not printable as its escape (``\\n``, ``\\x1b``, a byte
    that is not UTF-8 as ``\\udcff``), so that a value quoted in a message (a file or player name with
    a newline, a pasted escape sequence) can neither break the message's line nor reach the terminal.

    >>> printable("a\\nb\\x1b[2J ü")
    'a\\\\nb\\\\x1b[2J ü'
    """
    return "".join(c if c.isprintable() else ascii(c)[1:-1] for c in text)


class RuleError(ValueError):
    """An action that the rules forbid, e.g. ``QS is not legal: must follow spades (R5.2)``."""

    def __init__(self, message: str, rule: str) -> None:
        super().__init__(f"{message} ({rule})")
        self.rule = rule
        self.detail = message


class RecordError(ValueError):
    """An invalid record: names the deal, the action (``auction[i]``/``play[i]``) and the rule."""

    def __init__(self, message: str, deal: int | None = None, where: str | None = None) -> None:
        prefix = ""
        if deal is not None:
            prefix = f"deal {deal}, {where}: " if where else f"deal {deal}: "
        super().__init__(prefix + message)
        self.deal = deal
        self.where = where
