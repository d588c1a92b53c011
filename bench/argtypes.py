"""argparse ``type=`` functions shared by the bench scripts: a bad count, duration or bot name is an
argparse error naming the argument (exit 2), not a traceback or a run that does something else.
The number types are the commands' own (`belot.commands._argtypes`)."""

from __future__ import annotations

import argparse

from belot.commands._argtypes import seconds as _seconds
from belot.commands._argtypes import whole
from belot.tournament import bot_key

positive = whole(1)  # deals, rounds, jobs, worlds
count = whole(0)  # 0 or more (``--files 0``: all of them)
seconds = _seconds()  # a delay, a warm-up, a time limit where 0 is none
duration = _seconds(positive=True)  # a measured duration


def bot_name(text: str) -> str:
    """A registered bot's name (`belot.tournament.bot_key`)."""
    try:
        return bot_key(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None
