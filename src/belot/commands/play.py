"""``belot play``: a match in the terminal, you and a partner bot against two bots (see belot.tui)."""

from __future__ import annotations

import argparse
import getpass
import random
import sys
from typing import Any

from . import _argtypes as argtypes
from ._fail import cannot, fail
from ._options import add_option_argument, rules_from

_pause = argtypes.seconds(60)

PROG = "belot play"


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("play", help="play a match against the bots in the terminal",
                       epilog="exit status: 0 when the match ended or you typed quit; 130 on Ctrl-C; 1 when "
                              "the input ended (Ctrl-D) before the match did, or a bot broke a rule; 2 for "
                              "a bad argument or a file belot play cannot use (docs/terminal.md)")
    p.add_argument("--lang", choices=("tr", "bg", "en"), help="language (default: from the locale, else English)")
    p.add_argument("--partner", metavar="BOT", help="your partner's bot: random, heuristic, pimc or expert (default: the strongest fast bot)")
    p.add_argument("--opponents", metavar="BOT", help="the opponents' bot, as for --partner")
    p.add_argument("--seed", type=argtypes.seed, help="shuffle seed: the same seed deals the same cards")
    p.add_argument("--resume", metavar="FILE", help="continue the unfinished game saved in FILE")
    p.add_argument("--pause", type=_pause, default=0.8, metavar="SECONDS",
                   help="pause before each bot action (default 0.8)")
    p.add_argument("--target", type=argtypes.target, metavar="N", help="points to win the match (default 151)")
    p.add_argument("--coach", action="store_true",
                   help="after each deal, show your costliest decision and the better choice (docs/analysis.md)")
    add_option_argument(p)
    p.set_defaults(func=run, parser=p)


def _player_name() -> str:
    try:
        return getpass.getuser() or "player"
    except Exception:  # no user name in this environment
        return "player"


def _play_again(console: Any, words: Any) -> int:
    """-1: play another match; else the exit status (0: no, or the end of input; 130: Ctrl-C).
    An answer that is no yes or no is asked again, as at every other prompt (``quit``: no)."""
    from rich.text import Text

    from ..tui.session import forget_typeahead

    while True:
        forget_typeahead()
        try:
            answer = console.input(Text(words.t("tui.prompt.again") + " > ", style="bold"))
        except EOFError:
            console.print()
            return 0
        except KeyboardInterrupt:
            console.print()
            return 130
        if words.command(answer) == "quit":
            return 0
        yes = words.yes_no(answer, default=False)
        if yes is not None:
            return -1 if yes else 0
        console.print(Text(words.t("tui.err.yes_no"), style="yellow"))


def run(args: argparse.Namespace) -> int:

    from ..bots import REGISTRY, bot_names
    from ..errors import shown
    from ..i18n import default_language
    from ..tui import Game, SetupError, default_bot, new_setup, resume_setup
    from ..tui.render import TerminalConsole, fit_output
    from ..tui.session import data_dir
    from ..tui.text import Words

    bots = {}
    for option in ("partner", "opponents"):
        name = getattr(args, option)
        if name is None:  # not given; an empty name is a bot name like any other, and unknown
            name = default_bot()
        if name.removeprefix("bot:") not in REGISTRY:
            return fail(PROG, f"--{option}: unknown bot {shown(name)}; known bots: {', '.join(bot_names())}")
        bots[option] = "bot:" + name.removeprefix("bot:")
    for stream in (sys.stdout, sys.stderr):
        fit_output(stream)
    words = Words(args.lang or default_language())
    console = TerminalConsole(highlight=False)
    rules = rules_from(args.parser, args)
    if args.resume == "":  # not taken for no --resume, which would start a new game
        return fail(PROG, "--resume: the file name is empty")
    if args.resume is not None:
        for option in ("seed", "partner", "opponents", "target"):
            if getattr(args, option) is not None:
                return fail(PROG, f"--{option} cannot be used with --resume (the record holds the game)")
        if args.option:
            return fail(PROG, "--option cannot be used with --resume (the record holds the house rules)")
        try:
            setup = resume_setup(args.resume)
        except SetupError as e:
            return fail(PROG, str(e))
    else:
        seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
        players = [_player_name(), bots["opponents"], bots["partner"], bots["opponents"]]
        try:
            setup = new_setup(seed, args.target or 151, players, data_dir(), rules)
        except OSError as e:
            return fail(PROG, cannot("save the game in", data_dir(), e))
    while True:
        code = Game(setup, words, console, args.pause, coach=args.coach).run()
        if code != 0 or not setup.match.is_over:
            return code
        again = _play_again(console, words)
        if again != -1:
            return again
        seed = random.SystemRandom().randrange(2**31)
        players = list(setup.match.players or [])
        try:
            setup = new_setup(seed, setup.match.start_target, players, data_dir(), setup.match.rules)
        except OSError as e:  # the status of the same failure before the first game and within one
            return fail(PROG, cannot("save the game in", data_dir(), e))
