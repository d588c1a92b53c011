"""Player names at the edge of the server: cleaned once, so nothing stored can break a page.

A name is Unicode text a person typed. It is normalised (NFC), and refused when it holds a lone
surrogate (not encodable, it broke the lobby's JSON for everyone), a control or format character
(bidirectional overrides, zero-width joiners used to fake another player's name), another character
that shows as nothing (U+034F, Hangul fillers, a variation selector after a letter), or nothing
visible; at most `MAX_NAME` characters. `clean_stored_name` is the lenient form for what a database
already holds: it never raises, so an old bad row is shown as a neutral placeholder, not a 500. `look_alike_keys` says which names pass for one another (an account's
and a guest's "Іvan" with a Cyrillic І), so that none passes for an account's.

>>> clean_name("  Ayşe  ")
'Ayşe'
>>> clean_name("A\\u0301da")   # NFC: A + combining acute becomes Á
'Áda'
>>> clean_name("\\ud800")
Traceback (most recent call last):
...
belot.server.names.BadName: name: a lone surrogate (U+D800) is not a character
>>> clean_stored_name("\\ud800x")
'x'
"""

from __future__ import annotations

import unicodedata

MAX_NAME = 32
# Categories refused anywhere in a name: controls, format characters (bidi overrides, zero-width),
# surrogates, private use and unassigned code points; line and paragraph separators.
_REFUSED = {"Cc": "a control character", "Cf": "an invisible format character", "Cs": "a lone surrogate",
            "Co": "a private-use character", "Cn": "an unassigned code point",
            "Zl": "a line separator", "Zp": "a paragraph separator"}

# Default-ignorable code points of other categories (Unicode's DerivedCoreProperties) and the braille
# blank: letters and marks that show as nothing, so "Ivan" + U+034F passed for another "Ivan" and
# U+3164 alone for a name.  A variation selector chooses how the character before it looks (an emoji's
# picture, "❤️"): after a letter, or first, it shows nothing and is refused too.
_INVISIBLE = frozenset([0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x180B, 0x180C, 0x180D, 0x180F, 0x2800, 0x3164,
                        0xFFA0])
_VARIATION = frozenset([*range(0xFE00, 0xFE10), *range(0xE0100, 0xE01F0)])


def _invisible(ch: str, before: str) -> bool:
    return ord(ch) in _INVISIBLE or (ord(ch) in _VARIATION and (not before or unicodedata.category(before)[0] == "L"))


class BadName(ValueError):
    """A refused name; the message names the field and what is wrong with it, and ``detail`` says the
    same as fields (docs/protocol.md): ``field``, ``reason`` (``not_text``, ``character``,
    ``nothing_visible``, ``too_long``), the refused ``char`` (``"U+200D"``) or the ``limit``."""

    def __init__(self, field: str, problem: str, reason: str, **more: object) -> None:
        super().__init__(f"{field}: {problem}")
        self.detail: dict[str, object] = {"field": field, "reason": reason, **more}


def _problem(text: str) -> tuple[str, str] | None:
    """What is wrong with a character of ``text`` and its code point, if one is refused."""
    for i, ch in enumerate(text):
        cat = unicodedata.category(ch)
        if cat in _REFUSED or _invisible(ch, text[i - 1] if i else ""):
            point = f"U+{ord(ch):04X}"
            what = _REFUSED.get(cat, "an invisible character")
            return (f"{what} ({point}) is not allowed" if cat != "Cs" else
                    f"a lone surrogate ({point}) is not a character"), point
    return None



def clean_name(value: object, field: str = "name") -> str:
    """The name to store for ``value``, or BadName naming ``field`` and the problem."""
    if not isinstance(value, str):
        raise BadName(field, "a name must be a string", "not_text")
    problem = _problem(value)
    if problem:
        raise BadName(field, problem[0], "character", char=problem[1])
    text = " ".join(unicodedata.normalize("NFC", value).split())
    if not text or not any(unicodedata.category(ch)[0] in "LNPS" for ch in text):
        raise BadName(field, "a name must have a visible character", "nothing_visible")
    if len(text) > MAX_NAME:
        raise BadName(field, f"a name has at most {MAX_NAME} characters, not {len(text)}", "too_long", limit=MAX_NAME)
    return text


# Letters of other scripts drawn as a Latin letter is (a part of Unicode TR39's confusables.txt,
# Cyrillic and Greek to Latin), by case: "І" (Cyrillic) is "I", its lower case "і" is "i".  Within
# Latin nothing is folded ("l" and "I", "ı" and "i" are told apart by Turkish and other readers).
_LIKE_UPPER = str.maketrans({
    "А": "A", "В": "B", "Е": "E", "Ѕ": "S", "І": "I", "Ј": "J", "К": "K", "М": "M", "Н": "H", "О": "O",
    "Р": "P", "С": "C", "Т": "T", "Х": "X", "Ү": "Y", "Ԛ": "Q", "Ԝ": "W", "Ӏ": "I",
    "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M", "Ν": "N", "Ο": "O",
    "Ρ": "P", "Τ": "T", "Υ": "Y", "Χ": "X",
})
_LIKE_LOWER = str.maketrans({
    "а": "a", "е": "e", "о": "o", "р": "p", "с": "c", "у": "y", "х": "x", "ѕ": "s", "і": "i", "ј": "j",
    "һ": "h", "ԁ": "d", "ԛ": "q", "ԝ": "w", "ӏ": "l",
    "ο": "o", "ν": "v", "ι": "i", "α": "a", "ρ": "p", "υ": "u", "ϳ": "j",
})


def look_alike_key(name: str) -> str:
    """What two names that look alike have in common, ignoring case: one account's name and another
    that passes for it ("Іvan" with a Cyrillic І for "Ivan", "𝐈𝐯𝐚𝐧" in mathematical bold).

    A small form of TR39's skeleton: compatibility forms folded (NFKD: bold, full-width, ligatures),
    then the letters of `_LIKE_UPPER` read as their Latin look-alike, the case folded, and the
    letters of `_LIKE_LOWER` read so.  Accents stay: "Ívan" is not "Ivan".

    >>> look_alike_key("Іvan") == look_alike_key("IVAN") == look_alike_key("ivan")
    True
    >>> look_alike_key("Иван") == look_alike_key("Ivan"), look_alike_key("lvan") == look_alike_key("Ivan")
    (False, False)
    """
    text = unicodedata.normalize("NFKD", name).translate(_LIKE_UPPER)
    return unicodedata.normalize("NFKD", text.casefold()).translate(_LIKE_LOWER)


def look_alike_keys(name: str) -> set[str]:
    """`look_alike_key` of the name as written, in lower case and in upper case: names compare
    ignoring case, so "вера" passes for the account "Вера" as "ВЕРА" does, whose look-alike
    "BEPA" (Latin) is refused with them.  Two names look alike when their sets meet.

    >>> bool(look_alike_keys("вepa") & look_alike_keys("Вера"))
    True
    """
    return {look_alike_key(name), look_alike_key(name.lower()), look_alike_key(name.upper())}


def clean_stored_name(value: object, fallback: str = "?") -> str:
    """A stored name made safe to show: refused characters dropped, cut to `MAX_NAME`."""
    if not isinstance(value, str):
        return fallback
    kept = "".join(ch for i, ch in enumerate(value)
                   if unicodedata.category(ch) not in _REFUSED and not _invisible(ch, value[i - 1] if i else ""))
    text = " ".join(unicodedata.normalize("NFC", kept).split())[:MAX_NAME]
    return text if any(unicodedata.category(ch)[0] in "LNPS" for ch in text) else fallback
