"""Words and input of the terminal game: texts in the chosen language, card and call names, and
the parsing of what the player types (card numbers or names, call names, commands, yes/no).

Every user-facing text goes through `Words.t` with a literal key from ``i18n/<lang>/tui.json`` or
``game.json``; keys built at run time are listed by `dynamic_keys` so a test can check them all.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

from ..auction import CALL_NAMES
from ..cards import RANKS, SUITS, parse_card
from ..contracts import SUPPORTED_OPTIONS
from ..declarations import KINDS
from ..errors import printable, shown
from ..i18n import LANGUAGES, t

SUIT_SYMBOLS = "♣♦♥♠"
RANK_LABELS = ("7", "8", "9", "10", "J", "Q", "K", "A")
COMMANDS = ("last", "help", "quit")
OUTCOMES = ("made", "hanging", "inside", "redeal")
# Other names players use for a rank (docs/rules.md, words): Turkish "bacak" for the jack, the
# letters T and D (ten, queen: "D" as Turkish players write it), English words.
RANK_ALIASES = {"t": 3, "bacak": 4, "d": 5, "seven": 0, "eight": 1, "nine": 2, "ten": 3, "jack": 4,
                "queen": 5, "king": 6, "ace": 7}


def fold(text: str) -> str:
    """Lower case, no accents, no spaces: ``Hepsi Koz`` and ``hepsi koz`` and ``hepsikoz`` meet."""
    n = unicodedata.normalize("NFKD", text.casefold())
    n = "".join(ch for ch in n if not unicodedata.combining(ch))
    return n.replace("ı", "i").replace(" ", "").replace("-", "").replace("_", "")


def dynamic_keys() -> list[str]:
    """The translation keys this package builds at run time (the literal ones are found in its source)."""
    keys = [f"call.{c}" for c in CALL_NAMES]
    keys += [f"suit.{s}" for s in SUITS]
    keys += [f"rank.{r}" for r in RANKS]
    keys += [f"card.suit.{s}" for s in SUITS] + [f"card.rank.{r}" for r in RANKS]
    keys += [f"term.{k}" for k in KINDS]
    keys += [f"term.{o}" for o in OUTCOMES]
    keys += [f"tui.seat.{i}" for i in range(4)]
    keys += [f"tui.cmd.{c}" for c in COMMANDS]
    keys += [f"tui.mult.{m}" for m in (2, 4, 8)]
    keys += [f"tui.option.{o}" for o in SUPPORTED_OPTIONS]
    return keys


@dataclass(frozen=True)
class Words:
    """The texts of one language."""

    lang: str

    def t(self, key: str, **fields: object) -> str:
        return t(key, self.lang, **fields)

    def call(self, call: int) -> str:
        return self.t(f"call.{CALL_NAMES[call]}")

    def option(self, name: str) -> str:
        """A house rule's name in this language, with its id: ``Surcontra ×8 (OPT-SURCONTRA)``."""
        return f"{self.t(f'tui.option.{name}')} ({name})"

    def seat(self, rel: int) -> str:
        """Name of the seat ``rel`` places after the player's own (0 = the player)."""
        return self.t(f"tui.seat.{rel}")

    def kind(self, kind: str) -> str:
        return self.t(f"term.{kind}")

    # -- reading input -------------------------------------------------------------------------

    def command(self, text: str) -> str | None:
        """``last``/``help``/``quit`` when ``text`` names one (in English or in this language)."""
        f = fold(text)
        for c in COMMANDS:
            if f == c or f == fold(self.t(f"tui.cmd.{c}")):
                return c
        return None

    def parse_call(self, text: str) -> int | None:
        """The call named by ``text``: record notation, English words, or any language's name."""
        f = fold(text)
        if not f:
            return None
        aliases = {"p": 0, "pas": 0, "club": 1, "diamond": 2, "heart": 3, "spade": 4,
                   "notrumps": 5, "notrump": 5, "alltrumps": 6, "double": 7, "redouble": 8}
        if f in aliases:
            return aliases[f]
        suit = self._suit_word(text)  # a suit's name or symbol in any language (Sinek, ♠, clubs): its trump bid
        if suit is not None:
            return 1 + suit
        for call, name in enumerate(CALL_NAMES):
            if f == fold(name):
                return call
        for lang in (self.lang, *LANGUAGES):
            for call, name in enumerate(CALL_NAMES):
                if f == fold(t(f"call.{name}", lang)):
                    return call
        return None

    def parse_card_words(self, text: str) -> int | None:
        """A card named by a suit and a rank in words, either order: ``sinek 8``, ``kupa papaz``,
        ``8 sinek``, ``maça kızı``, ``пика дама``, ``hearts 8``, ``jack of hearts``, the words the browser
        names the card with too; None when it names no card."""
        words = [w for w in text.split() if fold(w) not in {"of", "de"}]
        if len(words) != 2:
            return None
        for first, second in (words, words[::-1]):
            suit, rank = self._suit_word(first), self._rank_word(second)
            if suit is not None and rank is not None:
                return suit * 8 + rank
        return None

    def _suit_word(self, word: str) -> int | None:
        f = fold(word)
        for lang in (self.lang, *LANGUAGES):
            for i, s in enumerate(SUITS):
                if f in (fold(t(f"suit.{s}", lang)), fold(t(f"card.suit.{s}", lang)), s.lower(), SUIT_SYMBOLS[i]):
                    return i
        return None

    def _rank_word(self, word: str) -> int | None:
        f = fold(word)
        if f in RANK_ALIASES:
            return RANK_ALIASES[f]
        for i, label in enumerate(RANK_LABELS):
            if f == label.lower():
                return i
        for lang in (self.lang, *LANGUAGES):
            for i, r in enumerate(RANKS):
                if f in (fold(t(f"rank.{r}", lang)), fold(t(f"card.rank.{r}", lang))):  # Kız, Kızı
                    return i
        return None

    def yes_no(self, text: str, default: bool) -> bool | None:
        f = fold(text)
        if not f:
            return default
        if f in {"y", "yes", "e", "evet", "д", "да"} or f in fold(self.t("tui.yes")).split("/"):
            return True
        if f in {"n", "no", "h", "hayir", "н", "не"} or f in fold(self.t("tui.no")).split("/"):
            return False
        return None


def typed(text: str) -> str:
    """What the person typed, as an error message quotes it: control characters as escapes (a pasted
    escape sequence is not sent back to the terminal) and at most `belot.errors.SHOWN` characters."""
    return shown(printable(text), quote=False)


def is_whole_number(text: str, negative: bool = False) -> bool:
    """Whether ``text`` is a whole number as a person types one: the digits 0-9 only, after one ``-``
    where ``negative``. The one test of every number typed, at a prompt or on the command line:
    `int` also takes ``١`` and ``٣`` (Arabic-Indic digits), ``1_000``, ``+5`` and `` 5 ``, and
    ``²`` (AltGr+2) is a digit to `str.isdigit` but not to `int`.

    >>> [is_whole_number(t) for t in ("07", "١", "1_000", "+5", " 5", "²", "-5", "")]
    [True, False, False, False, False, False, False, False]
    >>> is_whole_number("-5", negative=True), is_whole_number("-", negative=True)
    (True, False)
    """
    digits = text[1:] if negative and text.startswith("-") else text
    return digits.isascii() and digits.isdigit()


def plain_float(text: str) -> float:
    """``text`` as a number written in ASCII, as a person types one (``1.5``, ``.5``, ``2e-3``);
    ValueError otherwise: `float` also takes ``١``, ``1_0``, ``+2`` and `` 2 ``.  The range is the
    caller's (``nan`` and ``inf`` come back as such).

    >>> plain_float("1.5"), plain_float(".5")
    (1.5, 0.5)
    >>> plain_float("1_0")
    Traceback (most recent call last):
    ValueError: not a plain number: '1_0'
    """
    if not text.isascii() or text != text.strip() or "_" in text or text.startswith("+"):
        raise ValueError(f"not a plain number: {text!r}")
    return float(text)


def mistyped_number(text: str) -> bool:
    """Whether ``text`` is meant as a number but not typed as one (`is_whole_number`): a number to
    `int` (``١``, ``+1``, ``1_0``) or digits to `str.isdigit` (``²``), which a prompt names as such
    rather than as an unknown call or card.

    >>> [mistyped_number(t) for t in ("١", "+1", "1_0", "²", "1", "JH", "10h", "")]
    [True, True, True, True, False, False, False, False]
    """
    if is_whole_number(text):
        return False
    if text.isdigit():
        return True
    try:
        int(text)
    except ValueError:
        return False
    return True


def parse_number(text: str) -> int | None:
    """A choice typed as a number (`is_whole_number`), or None; a number of more than nine digits is
    read as 10**9, out of every range (`int` refuses 4,300 digits and more)."""
    if not is_whole_number(text):
        return None
    digits = text.lstrip("0") or "0"
    return int(digits) if len(digits) <= 9 else 10**9


def parse_card_text(text: str) -> int | None:
    """A card from ``JH``, ``jh``, ``10h``, ``TH`` or ``J♥``; None when it names no card."""
    key = text.strip()
    for sym, letter in zip(SUIT_SYMBOLS, SUITS):
        key = key.replace(sym, letter)
    try:
        return parse_card(key, lenient=True)
    except ValueError:
        return None
