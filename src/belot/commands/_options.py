"""``--option NAME`` (repeatable) for the commands that start games: the house rules in force."""

from __future__ import annotations

import argparse

from ..contracts import SUPPORTED_OPTIONS, Rules, UnsupportedOption


def add_option_argument(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--option", action="append", default=[], metavar="NAME",
        help="a house rule in force (repeatable): " + ", ".join(sorted(SUPPORTED_OPTIONS)) + " (docs/rules.md)",
    )


def rules_from(p: argparse.ArgumentParser, args: argparse.Namespace) -> Rules:
    """The options of ``args`` as `Rules`; a bad one ends the command with its reason (exit 2)."""
    try:
        return Rules.from_options(args.option)
    except UnsupportedOption as e:
        p.error(str(e))
