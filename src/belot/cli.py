"""The one entry point: ``belot <command>``.  Every public module in `belot.commands` adds a command."""

from __future__ import annotations

import argparse
import importlib
import io
import os
import pkgutil
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

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


class OutputError(OSError):
    """Standard output could not be written (a full disk, /dev/full): the command's failure, not a defect."""


class _StandardOutput(io.FileIO):
    """File descriptor 1, whose write errors say that they are standard output's (`OutputError`)."""

    def write(self, b: Any) -> int:
        try:
            return super().write(b)
        except BrokenPipeError:  # a reader gone (`| head`): the end of the output, not a failure
            raise
        except OSError as e:
            raise OutputError(e.errno, e.strerror) from None


def _watch_standard_output() -> None:
    """Make sys.stdout tell its own write errors apart: a command's other files have messages of
    their own. Only the process's real standard output (not a test's captured one)."""
    out = sys.stdout
    if out is None or out is not sys.__stdout__ or not isinstance(out, io.TextIOWrapper):
        return
    try:
        raw = _StandardOutput(out.fileno(), "w", closefd=False)
    except (OSError, ValueError):
        return
    out.flush()
    sys.stdout = io.TextIOWrapper(io.BufferedWriter(raw), encoding=out.encoding, errors=out.errors,
                                  line_buffering=out.line_buffering, write_through=out.write_through)


def main(argv: Sequence[str] | None = None) -> int:
    _watch_standard_output()
    # A name the terminal's encoding lacks (a Cyrillic player on a Latin-1 terminal, a file name
    # that is not UTF-8) is printed as a backslash escape rather than ending the command.
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper) and stream.errors == "strict":
            stream.reconfigure(errors="backslashreplace")
    args = None
    try:
        try:
            args = build_parser().parse_args(argv)  # (Ctrl-C while the commands load: 130 too, no traceback)
            return int(args.func(args) or 0)
        finally:  # the output's last bytes (argparse's --help too): a full disk may say so only here
            if sys.stdout is not None:
                sys.stdout.flush()
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    except OutputError as e:
        # what is still buffered would fail again as the interpreter exits ("Exception ignored ...")
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        prog = "belot" if args is None else f"belot {args.command}"  # (--help written to a full disk)
        print(printable(f"{prog}: cannot write standard output: {e.strerror or e}"), file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
