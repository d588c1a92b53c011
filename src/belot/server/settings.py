"""A table's settings (target, who plays each seat, the substitute bot, the turn timer, the house
rules) and the
checks of their values, shared by the request models and the restore from storage; the statuses
of a table, and how long an unfinished table nobody is at is kept open (`configured_abandon_after`)."""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, field
from typing import Any

from ..bots import bot_names
from ..contracts import Rules
from ..game import MAX_TARGET
from ..tui.text import plain_float
from .names import clean_stored_name

HUMAN = "human"
WAITING, PLAYING, FINISHED = "waiting", "playing", "finished"  # a table's status
# An unfinished table with a human seat that nobody was at for `ABANDON_AFTER` seconds: closed, its
# record kept as it was left (docs/protocol.md, "Abandoned tables").
ABANDONED = "abandoned"
ENDED = (FINISHED, ABANDONED)  # nothing more is played: kept in memory only while watched or read lately
UNFINISHED = (WAITING, PLAYING)

ABANDON_AFTER = 6 * 3600.0  # seconds; the environment's BELOT_ABANDON_AFTER sets another
ABANDON_AFTER_ENV = "BELOT_ABANDON_AFTER"


def configured_abandon_after(environ: dict[str, str] | None = None) -> float:
    """Seconds an unfinished table with a human seat stays open with nobody at it (no socket of a
    player or a spectator, no request with a seat's token): `ABANDON_AFTER`, or the environment's
    ``BELOT_ABANDON_AFTER`` (seconds, more than 0).

    >>> configured_abandon_after({}), configured_abandon_after({"BELOT_ABANDON_AFTER": "90"})
    (21600.0, 90.0)

    Written in ASCII, as `belot serve`'s numbers are: ``float()`` also takes "١", "1_0" and " 5 ".

    >>> configured_abandon_after({"BELOT_ABANDON_AFTER": "١"})
    Traceback (most recent call last):
    ValueError: BELOT_ABANDON_AFTER='١': give the seconds an abandoned table stays open (the digits 0-9 and a decimal point, more than 0)
    """
    text = (os.environ if environ is None else environ).get(ABANDON_AFTER_ENV)
    if text is None:
        return ABANDON_AFTER
    try:
        seconds = plain_float(text)
    except ValueError:
        seconds = math.nan
    if not (math.isfinite(seconds) and seconds > 0):
        raise ValueError(f"{ABANDON_AFTER_ENV}={text!r}: give the seconds an abandoned table stays open "
                         "(the digits 0-9 and a decimal point, more than 0)")
    return seconds


def default_bot() -> str:
    """The strongest registered bot that answers quickly, else the random bot."""
    names = bot_names()
    for preferred in ("heuristic", "random"):
        if preferred in names:
            return f"bot:{preferred}"
    return f"bot:{names[0]}"


def seat_kind(x: Any) -> str:
    """``"human"`` or a bot level ``"bot:NAME"`` (``"bot"`` alone: the default); ValueError otherwise."""
    if x == HUMAN:
        return HUMAN
    if x == "bot":
        return default_bot()
    if isinstance(x, str) and x.startswith("bot:") and x.removeprefix("bot:") in bot_names():
        return x
    known = ", ".join(f"bot:{n}" for n in bot_names())
    raise ValueError(f"{x!r} is neither \"human\" nor a bot level ({known})")


@dataclass
class Settings:
    target: int = 151
    seats: list[str] = field(default_factory=lambda: [HUMAN, default_bot(), default_bot(), default_bot()])
    names: list[str | None] = field(default_factory=lambda: [None] * 4)
    substitute: str = field(default_factory=default_bot)
    turn_timer: float | None = None
    options: list[str] = field(default_factory=list)  # house rules (docs/rules.md section 6), checked

    def rules(self) -> Rules:
        return Rules.from_options(self.options)

    def to_json(self) -> dict[str, Any]:
        return {
            "target": self.target, "seats": self.seats, "names": self.names,
            "substitute": self.substitute, "turn_timer": self.turn_timer,
            "options": self.options,
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Settings:
        # Names as stored may predate `names.clean_name` (a lone surrogate broke every lobby page).
        names = [None if n is None else clean_stored_name(n) for n in d["names"]]
        return cls(
            target=d["target"], seats=d["seats"], names=names, substitute=d["substitute"],
            turn_timer=d["turn_timer"], options=list(d.get("options") or []),  # none stored before house rules
        )


__all__ = [
    "ABANDONED", "ABANDON_AFTER", "ENDED", "FINISHED", "HUMAN", "MAX_TARGET", "PLAYING", "UNFINISHED", "WAITING",
    "Settings", "configured_abandon_after", "default_bot", "seat_kind",
]
