"""Belot in the terminal: a person against three bots, drawn with Rich, in Turkish, Bulgarian or English.

`session` runs a match (input, bots, saving after every action, resuming), `render` draws the
table and the summaries from a seat's view, `text` holds the words and parses what is typed.
"""

from .session import Game, Setup, SetupError, default_bot, new_setup, resume_setup

__all__ = ["Game", "Setup", "SetupError", "default_bot", "new_setup", "resume_setup"]
