"""The browser UI's text: every key the front end asks for exists in English, Turkish and Bulgarian.

The UI takes all of its words from the catalogs (``web.json`` for its own, ``game.json`` for the
game's: Koz, Kozsuz, Hepsi koz, Pas, Kontra ...); a missing key would show up as the raw key.
"""

from __future__ import annotations

import json
import re
import string
from pathlib import Path

import pytest

from belot.bots import bot_names
from belot.contracts import SUPPORTED_OPTIONS
from belot.i18n import LANGUAGES, catalog

STATIC = Path(__file__).resolve().parent.parent / "src" / "belot" / "web" / "static"
I18N = Path(__file__).resolve().parent.parent / "src" / "belot" / "i18n"

# Literal keys: t("web.table.your_turn"); prefixes of built keys: t("term." + kind).
LITERAL = re.compile(r"""\bt\(\s*["']([\w.]+)["']""")
PREFIX = re.compile(r"""\bt\(\s*["']([\w.]+\.)["']\s*\+""")
# Values that build keys from a prefix, by prefix (what the server or the game can send).
BUILT = {
    "term.": ["tierce", "quarte", "quint", "carre", "made", "hanging", "inside", "redeal", "belote",
              "dealer", "deal", "auction", "declarations", "card_points", "valat"],
    "call.": ["pass", "C", "D", "H", "S", "NT", "AT", "kontra", "rekontra", "surkontra"],
    "tui.option.": sorted(SUPPORTED_OPTIONS),  # the house rules' names: the terminal's wording
    "web.options.help.": sorted(SUPPORTED_OPTIONS),
    "rank.": list("789TJQKA"),
    "suit.": list("CDHS"),
    "web.lang.": list(LANGUAGES),
    "web.bot.": [*bot_names(), "solver"],  # every level the lobby offers, and the analysis
    "web.analysis.class.": ["best", "inaccuracy", "mistake", "blunder"],
}


def used_keys() -> set[str]:
    keys: set[str] = set()
    for js in STATIC.rglob("*.js"):
        text = js.read_text(encoding="utf-8")
        keys.update(k for k in LITERAL.findall(text) if not k.endswith("."))
        for prefix in PREFIX.findall(text):
            assert prefix in BUILT, f"{js.name} builds keys from {prefix!r}: list its values in BUILT"
            keys.update(prefix + v for v in BUILT[prefix])
    return keys


def test_the_front_end_asks_for_keys_that_exist_in_every_language() -> None:
    keys = used_keys()
    assert len(keys) > 80
    for lang in LANGUAGES:
        missing = sorted(k for k in keys if k not in catalog(lang))
        assert not missing, f"{lang} lacks {missing}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_web_catalogs_have_the_same_keys_and_fields(lang: str) -> None:
    en = json.loads((I18N / "en" / "web.json").read_text(encoding="utf-8"))
    other = json.loads((I18N / lang / "web.json").read_text(encoding="utf-8"))
    assert set(other) == set(en)
    for key, text in en.items():
        fields = {f for _, f, _, _ in string.Formatter().parse(text) if f}
        assert {f for _, f, _, _ in string.Formatter().parse(other[key]) if f} == fields, key
        assert other[key].strip(), key


def test_every_web_key_is_used() -> None:
    en = json.loads((I18N / "en" / "web.json").read_text(encoding="utf-8"))
    unused = sorted(set(en) - used_keys())
    assert not unused, f"web.json keys nothing uses: {unused}"


def test_turkish_uses_the_games_own_words() -> None:
    tr = catalog("tr")
    assert (tr["call.NT"], tr["call.AT"], tr["call.pass"], tr["call.kontra"], tr["term.trump"]) == (
        "Kozsuz", "Hepsi koz", "Pas", "Kontra", "Koz")


def test_the_new_table_form_offers_every_supported_house_rule() -> None:
    """docs/rules.md section 6: the browser's list is the engine's (OPT-LATE-DECLARE refused)."""
    text = (STATIC / "js" / "options.js").read_text(encoding="utf-8")
    offered = re.search(r"HOUSE_RULES = \[(.*?)\]", text, re.S)
    assert offered is not None
    names = re.findall(r'"(OPT-[A-Z-]+)"', offered.group(1))
    assert len(names) == len(set(names)) and set(names) == SUPPORTED_OPTIONS
