"""One terminal game: a person and three bots, a whole match, saved as a record after every action.

The match is driven through the same ``Match.apply`` path as every other app; the person sees
only their seat's view and each bot receives only its own.  Deals are shuffled from a
reproducible source: the first from the seed, each later one from the first deal's cards (kept
in the record) and the deal index, so ``--resume`` continues with exactly the deals the game
would have had.  Saving happens with Ctrl-C held back, so an action is never applied but unsaved.
"""

from __future__ import annotations

import hashlib
import os
import random
import shlex
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from rich.console import Console, Group, RenderableType
from rich.text import Text

from .. import declarations as decl
from ..auction import KONTRA, SURKONTRA, Auction, call_slot, parse_call
from ..bots import REGISTRY, Bot, make_bot
from ..cards import CARD_NAMES, mask_of, parse_card
from ..contracts import NO_SHUFFLE, SURCONTRA, Rules
from ..errors import RuleError, printable, shown
from ..game import (
    BELOTE_BASE,
    CALL_BASE,
    CHANCE,
    DECLARE_BASE,
    PLAY,
    Match,
    SeatView,
    action_name,
    cut_pack,
    deal_hands,
    deal_pack,
    gathered_pack,
)
from ..record import write
from ..visibility import seen_action
from .render import (
    MIN_COLUMNS,
    Seating,
    calls_line,
    card_text,
    hand_line,
    numbered_cards,
    render_summary,
    render_table,
    trick_text,
)
from .text import RANK_LABELS, Words, mistyped_number, parse_card_text, parse_number, typed

FAST_BOTS = ("pimc", "heuristic", "random")  # strongest first; each answers within a second


def default_bot() -> str:
    """The strongest registered bot that answers within a second."""
    for name in FAST_BOTS:
        if name in REGISTRY:
            return name
    return "random"


def data_dir() -> str:
    """Where games are saved: ``$BELOT_DATA_DIR`` or the user's data directory, ``games/``."""
    base = os.environ.get("BELOT_DATA_DIR")
    if not base:
        import platformdirs

        base = platformdirs.user_data_dir("belot")
    return os.path.join(base, "games")


def _deal_key(match: Match) -> str:
    return "".join(CARD_NAMES[c] for h in match.deals[0].dealt for c in h)


def first_deal(seed: int) -> tuple[int, list[list[int]]]:
    """Dealer and hands of deal 0 for a seed (R2.1, R2.2)."""
    rng = random.Random(f"belot-play:seed:{seed}")
    dealer = rng.randrange(4)
    return dealer, deal_hands(rng, dealer)


def next_hands(match: Match) -> list[list[int]]:
    """The hands of the next deal: shuffled from the first deal's cards and the deal index (under
    `OPT-NO-SHUFFLE` the last deal's cards gathered and cut, the cut drawn from the same source)."""
    rng = random.Random(f"belot-play:{_deal_key(match)}:{len(match.deals)}")
    dealer = match.next_dealer
    assert dealer is not None
    if match.deals and match.rules.has(NO_SHUFFLE):
        return deal_pack(cut_pack(gathered_pack(match.deals[-1]), rng), dealer)
    return deal_hands(rng, dealer)


@contextmanager
def hold_interrupt() -> Iterator[None]:
    """Hold Ctrl-C back while an action is applied and saved; raise it afterwards."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []
    old = signal.signal(signal.SIGINT, lambda signum, frame: caught.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, old)
        if caught:
            raise KeyboardInterrupt


def forget_typeahead() -> None:
    """Drop the keys typed before a prompt appeared: a second Enter or a number typed twice would
    otherwise answer the next prompt, playing a card of a trick not yet seen (a terminal only)."""
    try:
        import termios

        if sys.stdin.isatty():
            termios.tcflush(sys.stdin.fileno(), termios.TCIFLUSH)
    except (ImportError, OSError, ValueError):  # no termios (Windows), or stdin closed or not a file
        pass


class SaveError(Exception):
    """The record could not be written (the directory removed, the disk full); says which and why."""


class Quit(Exception):
    """The player asked to stop (``quit``, or the end of input)."""


@dataclass
class Setup:
    match: Match
    path: str
    human: int
    seed: int | None = None
    # the file as this game last read or wrote it (`file_id`): a save refuses a file changed since
    on_disk: tuple[int, int, int] | None = None


def file_id(path: str) -> tuple[int, int, int] | None:
    """What tells one version of the file at ``path`` from another: its inode, size and change time
    (a save replaces the file by a new one, so a save by anyone else changes the inode); None: no file."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_ino, st.st_size, st.st_mtime_ns)


class Game:
    """The loop of one match in the terminal."""

    def __init__(
        self, setup: Setup, words: Words, console: Console, pause: float,
        read: Callable[[Text], str] | None = None, coach: bool = False,
    ) -> None:
        self.match = setup.match
        self.coach = coach  # after each deal, the person's costliest decision (belot.analysis.coach)
        self.path = setup.path
        self.words = words
        self.console = console
        self.pause = pause
        players = tuple(self.match.players or ())
        self.seating = Seating(setup.human, players)
        self.seed = setup.seed
        self.on_disk = setup.on_disk if setup.on_disk is not None else file_id(setup.path)
        self._read = read or self._terminal_read

    # -- plumbing ------------------------------------------------------------------------------

    def _terminal_read(self, prompt: Text) -> str:
        forget_typeahead()
        return self.console.input(prompt)

    def t(self, key: str, **fields: object) -> str:
        return self.words.t(key, **fields)

    def say(self, key: str, style: str = "", **fields: object) -> None:
        # a path or a command to copy is left to the terminal to fold (soft_wrap), so that no newline
        # is written into it; other messages are wrapped between words
        copy = "path" in fields or "command" in fields
        if copy:  # a path is the user's: a newline or an escape sequence in it must not reach the terminal
            fields = {k: printable(v) if k in ("path", "command") and isinstance(v, str) else v for k, v in fields.items()}
        self.console.print(Text(self.t(key, **fields), style=style), soft_wrap=copy)

    def ask(self, key: str, **fields: object) -> str:
        return self._read(Text(self.t(key, **fields) + " > ", style="bold")).strip()

    def save(self) -> None:
        """Write the game; never over a file someone else saved meanwhile (a second ``belot play
        --resume`` of it): that would throw their moves away. This game stops instead, unsaved."""
        now = file_id(self.path)
        if now is not None and now != self.on_disk:  # (a file deleted meanwhile is written again whole)
            raise SaveError(f"not saved: {self.path} was changed by another program (another belot play "
                            "--resume of it?) since this game last saved it; resume it again to go on from what it holds")
        try:
            write(self.match, self.path)
        except OSError as e:
            raise SaveError(f"cannot save the game in {self.path}: {e.strerror or e}") from None
        self.on_disk = file_id(self.path)

    def apply(self, actions: list[int]) -> None:
        with hold_interrupt():
            for a in actions:
                self.match.apply(a)
            self.save()

    def bot(self, seat: int) -> Bot:
        """The seat's bot, seeded from the game and the position in it, so a resumed game goes on
        exactly as the uninterrupted one would have (a bot's own random state is not saved)."""
        d = self.match.deals[-1]
        where = f"{_deal_key(self.match)}:bot:{len(self.match.deals) - 1}:{len(d.actions)}:{seat}"
        seed = int.from_bytes(hashlib.sha256(where.encode()).digest()[:8], "big")
        return make_bot(self.seating.players[seat], seed=seed)

    def coach_seed(self) -> int:
        """The seed of the coach's sampled worlds (`belot.analysis.coach`), hashed from the game's first
        deal as the bots' are: the same game gets the same advice, resumed or not, and two games do
        not share one seed (a resumed game has no ``--seed``: it took 0, for every game)."""
        where = f"{_deal_key(self.match)}:coach"
        return int.from_bytes(hashlib.sha256(where.encode()).digest()[:8], "big")

    def resume_command(self) -> str:
        """The command that continues this game, in this game's language (``--lang``), with the coach if it had one."""
        return f"belot play --resume {shlex.quote(self.path)} --lang {self.words.lang}" + (" --coach" if self.coach else "")

    # -- the match -----------------------------------------------------------------------------

    def run(self) -> int:
        """Play to the end of the match; 0 when it ended or the player quit, 130 on Ctrl-C, 1 at the end
        of input (Ctrl-D, or a script's moves ran out) or when a bot broke a rule, 2 when the game could
        not be saved (as every command for a file it cannot use)."""
        try:
            self.loop()
        except KeyboardInterrupt:
            self.console.print()
            self.say("tui.interrupted", style="bold yellow")
            self.say("tui.resume_hint", command=self.resume_command())
            return 130
        except EOFError:  # not "quit": the match is not over, and who feeds the input should know
            self.console.print()
            self.say("tui.input_ended", style="bold yellow")
            self.say("tui.resume_hint", command=self.resume_command())
            return 1
        except Quit:
            self.console.print()
            self.say("tui.saved_at", path=self.path)
            self.say("tui.resume_hint", command=self.resume_command())
            return 0
        except SaveError as e:  # the record on disk holds every action before this one
            self.console.print(Text(printable(f"belot play: {e}"), style="bold red"), soft_wrap=True)
            return 2
        except RuleError as e:  # a bot broke a rule: say so, the record up to here is saved
            self.console.print(Text(f"belot play: {e}", style="bold red"), soft_wrap=True)
            self.say("tui.saved_at", path=self.path)
            return 1
        return 0

    def loop(self) -> None:
        m = self.match
        self.say("tui.welcome", style="bold green")
        self.say("tui.saved_at", path=self.path, style="dim")
        if self.seed is not None:
            self.say("tui.seed", seed=self.seed, style="dim")
        if m.rules.options:  # the house rules, named in this language with their ids
            self.say("tui.options", options=", ".join(self.words.option(o) for o in m.rules.options),
                     style="bold yellow")
        if m.deals and m.deals[-1].is_over and not m.is_over:
            # stopped at "next deal": the deal's summary (and the coach's word) again, as before the stop
            self.show_summary()
            while self.handle_command(self.ask("tui.prompt.continue"), m.view(self.seating.human)):
                pass
        while not m.is_over:
            if m.current_player == CHANCE:
                with hold_interrupt():
                    m.deal(next_hands(m))
                    self.save()
            deal = m.deals[-1]
            seat = m.current_player
            tricks_before = len(deal.trick_winners)
            if seat == self.seating.human:
                self.apply(self.human_turn(m.view(seat)))
            else:
                if self.pause > 0:
                    time.sleep(self.pause)
                action = self.bot(seat).act(m.view(seat))
                self.apply([action])
                self.show_bot_action(seat, action)
            if len(deal.trick_winners) > tricks_before:
                leader, cards, winner = m.view(self.seating.human).tricks[-1]
                self.console.print(trick_text(self.words, self.seating, len(deal.trick_winners), leader, cards, winner))
            if deal.is_over:
                self.show_summary()
                while not m.is_over and self.handle_command(self.ask("tui.prompt.continue"), m.view(self.seating.human)):
                    pass
        self.show_end()

    def show_bot_action(self, seat: int, action: int) -> None:
        """The action as the person's seat may see it (`belot.visibility.seen_action`: another seat's
        declaration by its kind only, R7.5)."""
        seen = seen_action(action, seat, self.seating.human)
        text = Text(f"  {self.seating.name(self.words, seat)}: ", style="dim")
        if "call" in seen:
            call = parse_call(seen["call"])
            calls = self.match.view(self.seating.human).calls
            if call == KONTRA and calls and calls[-1] == (seat, SURKONTRA):
                call = SURKONTRA  # the kontra slot over a rekontra (OPT-SURCONTRA)
            text.append(self.words.call(call), style="bold")
        elif "announce" in seen or "declare" in seen:
            text.append(self.words.kind(seen.get("announce") or seen["kind"]), style="bold magenta")
            if "declare" in seen:
                text.append(" " + " ".join(seen["declare"]))
        else:
            text.append_text(card_text(parse_card(seen["card"])))
            if seen.get("belote"):
                text.append(" · " + self.t("term.belote") + "!", style="bold magenta")
        self.console.print(text)

    def wait_for_width(self, view: SeatView) -> None:
        """In a terminal narrower than `MIN_COLUMNS` the boxes of the table and the summary wrap into
        broken borders and cut names: say how wide it is and what is needed, and go on once it is
        widened (Enter measures again; ``quit`` saves and stops). Not for output to a file."""
        while self.console.is_terminal and self.console.width < MIN_COLUMNS:
            self.say("tui.too_narrow", style="bold yellow", width=self.console.width, need=MIN_COLUMNS)
            self.handle_command(self.ask("tui.prompt.widen"), view)

    def show_summary(self) -> None:
        m = self.match
        d = m.deals[-1]
        r = d.result
        assert r is not None
        self.wait_for_width(m.view(self.seating.human))
        self.console.print(render_summary(self.words, self.seating, r, d.belotes, d.pot, m.results, m.target, m.rules))
        if self.coach:
            self.show_coach()
        if r.valat is not None and max(m.score) >= m.target and m.winner is None:
            self.say("term.no_capot_exit", style="bold magenta")

    def show_coach(self) -> None:
        """The person's costliest decision of the deal just finished, judged from what the seat could
        know (docs/analysis.md); a few seconds of analysis."""
        from ..analysis import BELOTE, CALL, CARD, DECLARATION, coach

        m = self.match
        x = coach(m.deals[-1], self.seating.human, seed=self.coach_seed(), index=len(m.deals) - 1)
        if x is None:
            self.say("tui.coach.none", style="cyan")
            return
        loss = f"{x.expected_loss:.1f}"
        if x.kind == BELOTE:  # only a withheld belote costs points
            self.say("tui.coach.belote", style="cyan", trick=x.trick, loss=loss)
            return
        key = {CARD: "tui.coach.play", CALL: "tui.coach.call", DECLARATION: "tui.coach.declare"}[x.kind]
        self.say(key, style="cyan", trick=x.trick, chosen=self._coach_option(x.kind, x.chosen, x.auction),
                 best=self._coach_option(x.kind, x.best, x.auction), loss=loss)

    def _coach_option(self, kind: str, name: str, auction: int | None = None) -> str:
        """An option of `belot.analysis` (``TD``, ``AT``, ``tierce 7C 8C 9C + ...``, ``none``) as the
        screen shows it: ``10♦``, ``All Trumps``, ``Tierce (20) 7♣–9♣``.  A call is named as the
        auction's line names it: the kontra slot over a rekontra (call ``auction`` of the last deal) is
        surkontra (OPT-SURCONTRA), not a second kontra."""
        from ..analysis import CALL, CARD

        if kind == CARD:
            return card_text(parse_card(name)).plain
        if kind == CALL:
            call = parse_call(name)
            if call == KONTRA and auction is not None:
                played = self.match.deals[-1].auction
                before = Auction(played.first, played.surcontra)
                for c in played.calls[:auction]:
                    before.record(call_slot(c))
                if before.multiplier == 4:
                    call = SURKONTRA
            return self.words.call(call)
        if name == "none":
            return self.t("tui.coach.nothing")
        ids = {action_name(DECLARE_BASE + i).removeprefix("declare "): i for i in range(len(decl.DECLARATIONS))}
        return ", ".join(self._declaration_name(ids[part]) for part in name.split(" + "))

    def show_end(self) -> None:
        m = self.match
        assert m.winner is not None
        us = self.seating.human & 1
        key = "tui.winner_us" if m.winner == us else "tui.winner_them"
        self.say(key, style="bold green" if m.winner == us else "bold red", us=m.score[us], them=m.score[1 - us])
        self.say("tui.saved_at", path=self.path)

    # -- the person's turn ---------------------------------------------------------------------

    def handle_command(self, text: str, view: SeatView) -> bool:
        """Run ``last``/``help``/``quit``; True when ``text`` was one."""
        cmd = self.words.command(text)
        if cmd is None:
            return False
        if cmd == "quit":
            raise Quit
        if cmd == "help":
            offered = range(SURKONTRA + 1 if self.match.rules.has(SURCONTRA) else SURKONTRA)  # R3.3
            self.say("tui.help", calls=", ".join(self.words.call(c) for c in offered))
        else:
            self.show_last_trick(view)
        return True

    def show_last_trick(self, view: SeatView) -> None:
        """The last closed trick of this deal, or of the previous deal before the first trick."""
        if view.tricks:
            leader, cards, winner = view.tricks[-1]
            self.console.print(trick_text(self.words, self.seating, len(view.tricks), leader, cards, winner))
            return
        deals = self.match.deals
        prev = deals[-2] if len(deals) >= 2 else None
        if prev is None or not prev.trick_winners:
            self.say("tui.no_last_trick")
            return
        k = len(prev.trick_winners) - 1
        played = [(s, a & 31) for s, a in zip(prev.actors, prev.actions) if a < CALL_BASE][4 * k : 4 * k + 4]
        self.console.print(trick_text(self.words, self.seating, k + 1, played[0][0], [c for _, c in played],
                                      prev.trick_winners[k]))

    def human_turn(self, view: SeatView) -> list[int]:
        self.wait_for_width(view)
        numbered = view.phase == PLAY
        declaring = numbered and not view.tricks and any(a >= DECLARE_BASE for a in view.legal_actions)
        table = render_table(view, self.words, self.seating, numbered)
        # what comes below the table: the card's prompt, or first the declarations offered and their prompt
        below: list[RenderableType] = [Text(self.t("tui.prompt.card") + " > ")]
        if declaring:
            hand = mask_of(view.hand)
            best = ", ".join(self._declaration_name(i) for i in decl.best_declarations(hand, view.rules))
            below = [Text(self.t("tui.declare_offer")),
                     *(self._declaration_text(k, i) for k, i in enumerate(decl.declarable(hand, [], view.rules), 1)),
                     Text(self.t("tui.prompt.declare", best=best) + " > ")]
        if numbered and self._height(Group(table, *below)) > self.console.height:
            # a short terminal: the auction's lines would push the top of the table (the partner's
            # card) off the screen; the contract line keeps what the auction decided
            table = render_table(view, self.words, self.seating, numbered, auction=False)
        self.console.print(table)
        if view.phase != PLAY:
            return [self.ask_call(view)]
        declarations: list[int] = []
        if declaring:
            declarations = self.ask_declarations(view)
        card = self.ask_card(view)
        action = card
        if BELOTE_BASE + card in view.legal_actions:
            while True:
                text = self.ask("tui.prompt.belote")
                if self.handle_command(text, view):
                    continue
                answer = self.words.yes_no(text, default=True)
                if answer is not None:
                    break
                self.say("tui.err.yes_no", style="red")
            if answer:
                action = BELOTE_BASE + card
        return [DECLARE_BASE + i for i in declarations] + [action]

    def _height(self, renderable: RenderableType) -> int:
        return len(self.console.render_lines(renderable, self.console.options, pad=False))

    def ask_call(self, view: SeatView) -> int:
        # the kontra slot over a rekontra is surkontra (OPT-SURCONTRA): shown and typed as such
        calls = [SURKONTRA if a - CALL_BASE == KONTRA and view.multiplier == 4 else a - CALL_BASE
                 for a in view.legal_actions]
        while True:
            self.console.print(calls_line(self.words, calls))
            text = self.ask("tui.prompt.call")
            if not text or self.handle_command(text, view):  # Enter alone shows the calls again
                continue
            n = parse_number(text)
            if n is not None:
                if 1 <= n <= len(calls):
                    return CALL_BASE + call_slot(calls[n - 1])
                self.say("tui.err.number", style="red", n=len(calls))
                continue
            if mistyped_number(text):
                self.say("tui.err.digits", style="red", text=typed(text), n=len(calls))
                continue
            call = self.words.parse_call(text)
            if call == KONTRA and SURKONTRA in calls:
                call = SURKONTRA
            if call is None:
                self.say("tui.err.unknown_call", style="red", text=typed(text))
            elif call not in calls:
                self.say("tui.err.call_not_now", style="red", call=self.words.call(call))
            else:
                return CALL_BASE + call_slot(call)

    def ask_card(self, view: SeatView) -> int:
        legal = numbered_cards(view)
        while True:
            text = self.ask("tui.prompt.card")
            if not text or self.handle_command(text, view):  # Enter alone shows the hand again
                self.console.print(hand_line(view, self.words, True))
                continue
            n = parse_number(text)
            if n is not None and parse_card_text(text) is None:
                if 1 <= n <= len(legal):
                    return legal[n - 1]
                self.say("tui.err.number", style="red", n=len(legal))
                continue
            if mistyped_number(text):
                self.say("tui.err.digits", style="red", text=typed(text), n=len(legal))
                continue
            card = parse_card_text(text)
            if card is None:
                card = self.words.parse_card_words(text)  # "sinek 8", "kupa papaz", "hearts 8"
            if card is None:
                self.say("tui.err.unknown_card", style="red", text=typed(text))
            elif card not in view.hand:
                self.say("tui.err.not_in_hand", style="red", card=card_text(card).plain)
            elif card not in legal:
                self.say("tui.err.card_not_legal", style="red", card=card_text(card).plain,
                         legal=" ".join(card_text(c).plain for c in legal))
            else:
                return card

    def ask_declarations(self, view: SeatView) -> list[int]:
        """R7.5: offer what the hand may declare; Enter declares the best (R7.4), or pick one by one."""
        hand = mask_of(view.hand)
        chosen: list[int] = []
        best = decl.best_declarations(hand, view.rules)  # under the house rules in force (R7.2, R7.4)
        while True:
            options = decl.declarable(hand, chosen, view.rules)
            if not options:
                return chosen
            self.say("tui.declare_offer", style="bold magenta")
            for k, i in enumerate(options, 1):
                self.console.print(self._declaration_text(k, i))
            if not chosen:
                text = self.ask("tui.prompt.declare", best=", ".join(self._declaration_name(i) for i in best))
            else:
                text = self.ask("tui.prompt.declare_more")
            if self.handle_command(text, view):
                continue
            if not text:
                return chosen or best
            n = parse_number(text)
            if n == 0:
                return chosen
            if n is not None and 1 <= n <= len(options):
                chosen.append(options[n - 1])
                continue
            if mistyped_number(text):
                self.say("tui.err.digits", style="red", text=typed(text), n=len(options))
                continue
            self.say("tui.err.number", style="red", n=len(options))

    def _declaration_name(self, i: int) -> str:
        """"Terts (20) 7♣–9♣", "Kare (100) J": the kind, its points and its cards as shown on screen."""
        d = decl.DECLARATIONS[i]
        if d.is_carre:
            cards = RANK_LABELS[d.rank]
        else:
            cards = "–".join(card_text(c).plain for c in (d.cards[0], d.cards[-1]))
        return f"{self.words.kind(d.kind)} ({d.value}) {cards}"

    def _declaration_text(self, k: int, i: int) -> Text:
        d = decl.DECLARATIONS[i]
        text = Text(f"  {k}: ", style="cyan")
        text.append(self.words.kind(d.kind), style="bold")
        text.append(" ")
        for c in d.cards:
            text.append_text(card_text(c))
            text.append(" ")
        text.append(f"({d.value})")
        return text


def new_setup(seed: int, target: int, players: list[str], directory: str, rules: Rules | None = None) -> Setup:
    """A new match under ``rules`` (the house rules, saved in the record), its first deal dealt,
    and the file it will be saved in."""
    match = Match(rules, target=target, players=players)
    dealer, hands = first_deal(seed)
    match.first_dealer = dealer
    match.deal(hands, dealer)
    os.makedirs(directory, exist_ok=True)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    tag = f"seed{str(seed)[:24]}"  # a seed of any size is a seed, but a file name has 255 bytes at most
    n = 1
    while True:  # claimed by creating it (O_EXCL): two games started in one second never share a file
        path = os.path.join(directory, f"{stamp}-{tag}.json" if n == 1 else f"{stamp}-{tag}-{n}.json")
        try:
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
            break
        except FileExistsError:
            n += 1
    write(match, path)
    return Setup(match, path, human=0, seed=seed, on_disk=file_id(path))


class SetupError(ValueError):
    """A game that cannot be resumed; the message says why."""


def resume_setup(path: str) -> Setup:
    """The unfinished game of the record at ``path``, replayed to where it stopped."""
    from ..errors import RecordError
    from ..record import load

    if path == "-" or (os.path.exists(path) and not os.path.isfile(path)):
        # a game goes on where it is saved after each action: stdin, a FIFO or a device is no such place
        what = "standard input" if path == "-" else "not a regular file"
        raise SetupError(f"{printable(path)}: {what}; a game is resumed from the file it is saved in")
    on_disk = file_id(path)  # before it is read: a save after any change since is refused
    try:
        match = load(path)
    except RecordError as e:  # named once: some record errors name the file already
        message = str(e)
        raise SetupError(message if message.startswith(f"{path}: ") else f"{path}: {message}") from None
    except OSError as e:
        raise SetupError(f"cannot read {path}: {e.strerror}") from None
    if not match.deals:
        raise SetupError(f"{path}: the record has no deal to continue")
    if match.is_over:
        a, b = match.score
        raise SetupError(f"{path}: this game is already over ({a} to {b}); belot replay shows it")
    players = list(match.players or ["player", *[f"bot:{default_bot()}"] * 3])
    humans = [s for s, p in enumerate(players) if not p.startswith("bot:")]
    if len(humans) != 1:
        raise SetupError(f"{path}: the record must have exactly one seat that is not a bot, not {len(humans)}")
    for p in players:
        if p.startswith("bot:") and p.removeprefix("bot:") not in REGISTRY:
            raise SetupError(f"{path}: unknown bot {shown(p)} in players")
    match.players = players
    return Setup(match, path, human=humans[0], on_disk=on_disk)
