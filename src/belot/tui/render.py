"""What the terminal shows, built with Rich from one seat's view: the table, the hand, the deal
summary and the score sheet.  Nothing here reads the game state beyond a `SeatView` and the
results of finished deals (which are public once the deal is over).
"""

from __future__ import annotations

import codecs
import shutil
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TextIO

from rich import box
from rich.console import Console, ConsoleDimensions, Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from .. import declarations as decl
from ..auction import BID_BASE, CALL_NAMES, PASS
from ..cards import SUITS
from ..contracts import AT, NO_CONTRACT, NT, TABLES, Rules
from ..game import BELOTE_BASE, DealResult, SeatView
from ..scoring import HANGING, INSIDE, MADE, REDEAL
from .text import RANK_LABELS, SUIT_SYMBOLS, Words

RED = {1, 2}  # diamonds, hearts
MIN_COLUMNS = 40  # the narrowest terminal the table, the summary and the score sheet are laid out for
# What an output that cannot encode a character shows instead: a suit as its record letter (J♥ is
# shown JH, as it is typed), the table's punctuation in ASCII, Turkish ı as i.
PLAIN = {**dict(zip(SUIT_SYMBOLS, SUITS)), "·": "-", "–": "-", "→": "->", "▶": ">", "×": "x", "…": "...",
         "„": '"', "“": '"', "ı": "i"}
PLAIN_ERRORS = "belot.plain"
BASE_SUIT_ORDER = (3, 2, 0, 1)  # ♠ ♥ ♣ ♦: colours alternate


def _plain(error: UnicodeError) -> tuple[str, int]:
    """The `PLAIN` replacement of what the output cannot encode; other letters without their accents
    (ğ g, ş s), else ``?``."""
    if not isinstance(error, UnicodeEncodeError):
        raise error
    out = []
    for ch in error.object[error.start : error.end]:
        text = PLAIN.get(ch) or "".join(c for c in unicodedata.normalize("NFKD", ch) if not unicodedata.combining(c))
        try:
            text.encode(error.encoding)
        except UnicodeError:
            text = "?"
        out.append(text)
    return "".join(out), error.end


codecs.register_error(PLAIN_ERRORS, _plain)


def fit_output(stream: TextIO) -> None:
    """Make ``stream`` show what its encoding lacks in plain letters (`PLAIN`) rather than fail with
    UnicodeEncodeError: an ASCII locale, or output redirected to a file on Windows (cp1252)."""
    try:
        "".join(SUIT_SYMBOLS).encode(stream.encoding or "ascii")
    except (UnicodeError, LookupError):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors=PLAIN_ERRORS)


class TerminalConsole(Console):
    """Rich's console, measuring a dumb terminal too: Rich takes TERM=dumb (Emacs' M-x shell, some IDE
    consoles) to be 80 columns whatever its width, and an 80-column table wraps into garbage in a
    narrower window.  Measured at each print, so a resized window is followed."""

    @property
    def size(self) -> ConsoleDimensions:
        size = Console.size.fget(self)  # type: ignore[attr-defined]
        if not self.is_dumb_terminal:
            return size
        columns, lines = shutil.get_terminal_size((size.width, size.height))  # $COLUMNS, else the tty
        return ConsoleDimensions(columns, lines)

    @size.setter
    def size(self, new_size: tuple[int, int]) -> None:
        Console.size.fset(self, new_size)  # type: ignore[attr-defined]


@dataclass(frozen=True)
class Seating:
    """Who sits where: the player's seat and the four players' names (``bot:NAME`` for bots)."""

    human: int
    players: tuple[str, ...]

    def rel(self, seat: int) -> int:
        return (seat - self.human) & 3

    def name(self, words: Words, seat: int) -> str:
        return words.seat(self.rel(seat))

    def team_name(self, words: Words, team: int) -> str:
        return words.t("tui.team.us") if team == (self.human & 1) else words.t("tui.team.them")


def card_text(card: int, style: str = "") -> Text:
    suit = card >> 3
    colour = "red" if suit in RED else ""
    label = RANK_LABELS[card & 7] + SUIT_SYMBOLS[suit]
    return Text(label, style=f"bold {colour} {style}".strip())


def suit_order(contract: int) -> tuple[int, ...]:
    """Trumps first, then the other suits with the colours alternating."""
    if not 0 <= contract < NT:
        return BASE_SUIT_ORDER
    rest = [s for s in BASE_SUIT_ORDER if s != contract]
    other = [s for s in rest if (s in RED) != (contract in RED)]
    same = [s for s in rest if (s in RED) == (contract in RED)]
    order = [contract]
    while other or same:
        if other:
            order.append(other.pop(0))
        if same:
            order.append(same.pop(0))
    return tuple(order)


def sort_hand(hand: Sequence[int], contract: int) -> list[int]:
    """By suit (trumps first), each suit strongest first in the contract's order (R4)."""
    table = TABLES[contract if contract >= 0 else NT]
    order = suit_order(contract)
    return sorted(hand, key=lambda c: (order.index(c >> 3), -table.strength[c]))


def display_contract(view: SeatView) -> int:
    """The contract the hand is sorted for: the final one, or the highest bid so far."""
    return view.contract


def contract_label(words: Words, contract: int) -> Text:
    if contract == NO_CONTRACT:
        return Text("-")
    text = Text()
    if contract < NT:
        text.append(SUIT_SYMBOLS[contract] + " ", style="bold red" if contract in RED else "bold")
    text.append(words.call(BID_BASE + contract), style="bold")
    return text


def legal_cards_of(view: SeatView) -> list[int]:
    return sorted({a & 31 for a in view.legal_actions if a < BELOTE_BASE + 32})


def numbered_cards(view: SeatView) -> list[int]:
    """The legal cards in the order they are shown and numbered (1, 2, ...)."""
    legal = set(legal_cards_of(view))
    return [c for c in sort_hand(view.hand, display_contract(view)) if c in legal]


def hand_line(view: SeatView, words: Words, numbered: bool) -> Text:
    """The hand grouped by suit; with ``numbered``, legal cards get their number, others are dim."""
    cards = sort_hand(view.hand, display_contract(view))
    legal = numbered_cards(view) if numbered else []
    text = Text(words.t("tui.hand") + ": ", style="bold")
    last_suit = -1
    for c in cards:
        if last_suit >= 0 and c >> 3 != last_suit:
            text.append("  ")
        elif last_suit >= 0:
            text.append(" ")
        last_suit = c >> 3
        if c in legal:
            text.append(f"{legal.index(c) + 1}:", style="cyan")
            text.append_text(card_text(c, "underline"))
        elif numbered:
            text.append_text(card_text(c, "dim"))
        else:
            text.append_text(card_text(c))
    return text


def _seat_cell(view: SeatView, words: Words, seating: Seating, seat: int) -> Text:
    rel = seating.rel(seat)
    text = Text(justify="center")
    style = "bold reverse" if seat == view.to_move else "bold"
    text.append(seating.name(words, seat), style=style)
    if rel == 2:
        text.append(" · " + words.t("tui.partner"), style="italic")
    if seat == view.dealer:
        text.append(" (" + words.t("tui.dealer_mark") + ")", style="yellow")
    text.append("\n")
    player = seating.players[seat] if seat < len(seating.players) else ""
    if rel == 0:
        player = words.t("tui.you")
    text.append(player + "\n", style="dim")
    played = dict(view.trick)
    if seat in played:
        text.append_text(card_text(played[seat]))
    elif seat == view.to_move:
        key = "tui.to_act" if view.phase == "play" else "tui.to_call"
        text.append("▶ " + words.t(key), style="green")
    else:
        text.append(" ")
    extras = [words.kind(k) for k in view.announced[seat]]
    extras += [words.t("term.belote") for s, _ in view.belotes if s == seat]
    if extras:
        text.append("\n" + ", ".join(extras), style="magenta")
    return text


def auction_text(view: SeatView, words: Words, seating: Seating) -> Text:
    text = Text(words.t("term.auction") + ": ", style="bold")
    if not view.calls:
        text.append("-")
    for k, (seat, call) in enumerate(view.calls):
        if k:
            text.append(" · ")
        text.append(seating.name(words, seat) + " ")
        text.append(words.call(call), style="dim" if call == PASS else "bold")
    return text


def contract_text(view: SeatView, words: Words, seating: Seating) -> Text:
    text = Text(words.t("term.contract") + ": ", style="bold")
    if view.contract == NO_CONTRACT:
        text.append("-")
        return text
    text.append_text(contract_label(words, view.contract))
    text.append(" · " + words.t("tui.bid_by", seat=seating.name(words, view.declarer),
                                team=seating.team_name(words, view.declarer & 1)))
    if view.multiplier > 1:
        text.append(" · " + words.t(f"tui.mult.{view.multiplier}"), style="bold red")
    return text


def score_text(view: SeatView, words: Words, seating: Seating) -> Text:
    us = seating.human & 1
    text = Text(words.t("term.score") + ": ", style="bold")
    text.append(words.t("tui.score_line", us=view.score[us], them=view.score[1 - us], target=view.target))
    if view.pot:
        text.append(" · " + words.t("term.pot") + f": {view.pot}", style="yellow")
    return text


def render_table(view: SeatView, words: Words, seating: Seating, numbered: bool,
                 auction: bool = True) -> RenderableType:
    """The whole table as the player sees it when it is their turn; without the auction's line when
    ``auction`` is false (in the play the contract line says what the auction decided)."""
    me = seating.human
    grid = Table.grid(expand=True)
    for _ in range(3):
        grid.add_column(justify="center", ratio=1)
    centre = Text(justify="center")
    if view.phase == "play":
        centre.append(words.t("tui.trick_no", n=len(view.tricks) + 1), style="dim")
        won = [sum(1 for _, _, w in view.tricks if w & 1 == team) for team in (me & 1, 1 - (me & 1))]
        centre.append("\n" + words.t("tui.tricks_won", us=won[0], them=won[1]), style="dim")
    else:
        centre.append(words.t("term.auction"), style="dim")
    grid.add_row("", _seat_cell(view, words, seating, (me + 2) & 3), "")
    grid.add_row(_seat_cell(view, words, seating, (me + 3) & 3), centre, _seat_cell(view, words, seating, (me + 1) & 3))
    grid.add_row("", _seat_cell(view, words, seating, me), "")
    title = words.t("tui.deal_title", n=view.deal_index + 1, dealer=seating.name(words, view.dealer))
    panel = Panel(grid, title=title, border_style="green")
    lines = [contract_text(view, words, seating)]
    if auction:
        lines.append(auction_text(view, words, seating))
    return Group(panel, *lines, score_text(view, words, seating), hand_line(view, words, numbered))


def trick_text(words: Words, seating: Seating, number: int, leader: int, cards: Sequence[int], winner: int) -> Text:
    text = Text(words.t("term.trick") + f" {number}: ", style="bold")
    for k, c in enumerate(cards):
        seat = (leader + k) & 3
        if k:
            text.append("  ")
        text.append(seating.name(words, seat) + " ")
        text.append_text(card_text(c))
    text.append("  → " + words.t("tui.takes", seat=seating.name(words, winner)), style="bold")
    return text


# -- after a deal ------------------------------------------------------------------------------


def _pair(seating: Seating, values: Sequence[int]) -> tuple[int, int]:
    us = seating.human & 1
    return values[us], values[1 - us]


def _declaration_rows(words: Words, seating: Seating, r: DealResult, rules: Rules) -> list[Text]:
    """Each declaration announced, with its details, and whether it counted (R7.6 under ``rules``)."""
    verdicts = decl.counted(r.declared, rules)  # R7.6: one rule, shared with the web's summary
    rows = []
    for seat, ids in enumerate(r.declared):
        for i, counted in zip(ids, verdicts[seat]):
            d = decl.DECLARATIONS[i]
            line = Text(f"  {seating.name(words, seat)}: ")
            line.append(words.kind(d.kind), style="bold")
            line.append(" ")
            for c in d.cards:
                line.append_text(card_text(c))
                line.append(" ")
            line.append(f"({d.value}) ")
            line.append(words.t("tui.counted") if counted else words.t("tui.cancelled"),
                        style="green" if counted else "red")
            rows.append(line)
    return rows


def render_summary(
    words: Words, seating: Seating, r: DealResult, belotes: Sequence[tuple[int, int]], pot_in: int,
    history: Sequence[DealResult], target: int, rules: Rules,
) -> RenderableType:
    """The summary of a finished deal under ``rules`` (the house rules it was played by), then the
    score sheet."""
    us, them = words.t("tui.team.us"), words.t("tui.team.them")
    parts: list[RenderableType] = []
    if r.outcome == REDEAL:
        parts.append(Text(words.t("tui.all_passed", pot=r.pot), style="bold"))
    else:
        team = r.declarer & 1
        head = Text()
        head.append_text(contract_label(words, r.contract))
        head.append(" · " + words.t("tui.bid_by", seat=seating.name(words, r.declarer), team=seating.team_name(words, team)))
        if r.multiplier > 1:
            head.append(" · " + words.t(f"tui.mult.{r.multiplier}"), style="bold red")
        parts.append(head)
        table = Table(box=None, pad_edge=False)
        table.add_column("")
        table.add_column(us, justify="right")
        table.add_column(them, justify="right")
        table.add_row(words.t("term.card_points"), *map(str, _pair(seating, r.card_points)))
        table.add_row(words.t("term.declarations"), *map(str, _pair(seating, r.declarations)))
        table.add_row(words.t("term.belote"), *map(str, _pair(seating, r.belote)))
        if r.valat is not None:
            v = [90 if r.valat == k else 0 for k in (0, 1)]
            table.add_row(words.t("term.valat"), *map(str, _pair(seating, v)))
        table.add_row(Text(words.t("term.totals"), style="bold"), *map(str, _pair(seating, r.totals)))
        # The rounding to game points (R10), computed with the scoring rules themselves.
        step = r.rounding()
        if isinstance(step, int):
            raw = r.totals[0] + r.totals[1]
            rounded = Text(words.t("tui.rounding_whole", raw=raw, whole=step, mult=r.stake))
        else:
            pu, pt = _pair(seating, step)
            tu, tt = _pair(seating, r.totals)
            rounded = Text(words.t("tui.rounding", us_raw=tu, us=pu, them_raw=tt, them=pt))
        table.add_row(words.t("tui.rounding_label"), rounded, "")
        table.add_row(Text(words.t("term.game_points"), style="bold"), *map(str, _pair(seating, r.points)))
        parts.append(table)
        decl_rows = _declaration_rows(words, seating, r, rules)
        if decl_rows:
            parts.append(Text(words.t("term.declarations") + ":", style="bold"))
            parts.extend(decl_rows)
        for seat, card in belotes:
            line = Text(f"  {seating.name(words, seat)}: " + words.t("term.belote") + " ")
            line.append_text(card_text(card))
            parts.append(line)
        if r.valat is not None:
            parts.append(Text(words.t("tui.valat_by", team=seating.team_name(words, r.valat)), style="bold magenta"))
        outcome = Text(words.t(f"term.{r.outcome}"), style="bold")
        if r.outcome == MADE:
            outcome.append(" · " + words.t("tui.made_for", team=seating.team_name(words, team)))
        elif r.outcome == INSIDE:
            outcome.append(" · " + words.t("tui.inside_for", team=seating.team_name(words, 1 - team)))
        elif r.outcome == HANGING:
            outcome.append(" · " + words.t("tui.hanging_pot", pot=r.pot))
        if pot_in and r.outcome != HANGING:
            outcome.append(" · " + words.t("tui.pot_collected", pot=pot_in))
        parts.append(outcome)
    parts.append(score_sheet(words, seating, history, target))
    title = words.t("tui.summary_title", n=len(history))
    return Panel(Group(*parts), title=title, border_style="cyan")


def score_sheet(words: Words, seating: Seating, history: Sequence[DealResult], target: int) -> RenderableType:
    """The sheet of the match's deals. It fits 40 columns without cutting a word ("Сюрк…" lost the
    ×8 of a contract): no side borders, the points a deal left hanging told in its contract's cell
    rather than in a column of their own, and a word longer than its column broken, not cut short."""
    table = Table(title=words.t("tui.score_sheet", target=target), title_justify="left", box=box.SIMPLE_HEAD,
                  pad_edge=False)
    table.add_column("#", justify="right", overflow="fold")
    table.add_column(words.t("term.contract"), overflow="fold", min_width=9)  # "Сюрконтра", "Sürkontra" whole
    table.add_column(words.t("tui.team.us"), justify="right", overflow="fold")
    table.add_column(words.t("tui.team.them"), justify="right", overflow="fold")
    score = [0, 0]
    for n, r in enumerate(history, 1):
        score[0] += r.points[0]
        score[1] += r.points[1]
        if r.outcome == REDEAL:
            contract = Text(words.t("term.redeal"), style="dim")
        else:
            contract = contract_label(words, r.contract)
            contract.append(" " + seating.name(words, r.declarer), style="dim")
            if r.multiplier > 1:
                contract.append(" " + words.t(f"tui.mult.{r.multiplier}"), style="red")
        if r.pot:
            contract.append(f" · {words.t('term.pot')} {r.pot}", style="yellow")
        pu, pt = _pair(seating, r.points)
        su, st = _pair(seating, score)
        table.add_row(str(n), contract, f"{pu} ({su})", f"{pt} ({st})")
    return table


def calls_line(words: Words, calls: Sequence[int]) -> Text:
    text = Text()
    for k, call in enumerate(calls):
        if k:
            text.append("  ")
        text.append(f"{k + 1}:", style="cyan")
        if BID_BASE <= call < BID_BASE + AT + 1 and call - BID_BASE < NT:
            s = call - BID_BASE
            text.append(SUIT_SYMBOLS[s], style="bold red" if s in RED else "bold")
        text.append(words.call(call), style="bold")
        text.append(f" ({CALL_NAMES[call]})", style="dim")
    return text


__all__ = [
    "MIN_COLUMNS", "Seating", "TerminalConsole", "card_text", "fit_output", "hand_line", "numbered_cards", "render_summary", "render_table",
    "score_sheet", "sort_hand", "suit_order", "trick_text", "calls_line",
]
