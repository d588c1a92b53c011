"""The one entry point: ``belot <command>``.  Every public module in `belot.commands` adds a command."""

from __future__ import annotations

import argparse
import importlib
import io
import pkgutil
import sys
from collections.abc import Sequence
from typing import NoReturn

from . import __version__, commands
from .errors import printable


class _Parser(argparse.ArgumentParser):
    """argparse's parser (its subcommands' too), whose error line quotes the arguments it names
    escaped (``unrecognized arguments: a\\nb``), so that a newline in one cannot break it in two."""

    def error(self, message: str) -> NoReturn:
        super().error(printable(message))


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="belot", description="Bulgarian Belot: play, replay, solve and study the game."
    )
    parser.add_argument("--version", action="version", version=f"belot {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for info in sorted(pkgutil.iter_modules(commands.__path__), key=lambda m: m.name):
        if info.name.startswith("_"):
            continue  # shared helpers of the commands, not commands
        module = importlib.import_module(f"{commands.__name__}.{info.name}")
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    # A name the terminal's encoding lacks (a Cyrillic player on a Latin-1 terminal, a file name
    # that is not UTF-8) is printed as a backslash escape rather than ending the command.
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper) and stream.errors == "strict":
            stream.reconfigure(errors="backslashreplace")
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
