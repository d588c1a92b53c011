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

ROOT = Path(__file__).resolve().parent.parent
STATIC = ROOT / "src" / "belot" / "web" / "static"
I18N = ROOT / "src" / "belot" / "i18n"

# Every error code of docs/protocol.md, decided: a person can meet it through the pages (a race with
# another player, a limit, a name typed, a link to a table that is gone ...), and the page says it
# in the player's language (web.errors.<code>, js/i18n.js errorText); or only a client other than
# the pages can cause it (hand-made JSON, a made-up route), and the page's lead-in and the server's
# English message are enough.
PERSON_CODES = [
    "spectator", "bad_token", "not_your_turn", "illegal", "not_started", "match_over", "stale", "no_table",
    "seat_taken", "not_human_seat", "table_full", "seat_reserved", "rematch_taken", "not_offered", "in_progress", "not_finished",
    "bad_request", "too_many_connections", "too_many_tables", "too_many_bot_tables", "too_many_analyses", "storage_error",
    "name_taken", "bad_password", "name_registered", "too_many_accounts", "bad_login", "too_many_logins",
    "not_logged_in", "not_your_table", "seat_free", "no_account", "moved",
]
HOSTILE_CODES = ["bad_json", "bad_message", "bad_number", "too_deep", "too_large", "no_route", "bad_method",
                 "no_language", "cross_site", "bad_content_type"]

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
    "card.rank.": list("789TJQKA"),  # a card in words (js/cards.js cardWords, game.json card.name)
    "card.suit.": list("CDHS"),
    "web.lang.": list(LANGUAGES),
    "web.bot.": [*bot_names(), "solver"],  # every level the lobby offers, and the analysis
    "web.analysis.class.": ["best", "inaccuracy", "mistake", "blunder"],
    "web.errors.": [*PERSON_CODES, "network"],  # a refusal's code; "network": no answer at all (net.js)
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
    """The calls as Turkish players say them; and a team is a "grup", as in the Turkish rules (rules.md
    A14) and everywhere on the table ("Grubunuz maçı kazandı", "1. grup"): four house rules'
    explanations said "takım"."""
    tr = catalog("tr")
    assert (tr["call.NT"], tr["call.AT"], tr["call.pass"], tr["call.kontra"], tr["term.trump"]) == (
        "Kozsuz", "Hepsi koz", "Pas", "Kontra", "Koz")
    assert tr["term.team"] == "Grup"
    for name in ("web", "game", "tui"):
        texts = json.loads((I18N / "tr" / f"{name}.json").read_text(encoding="utf-8"))
        assert [k for k, v in texts.items() if "takım" in v.casefold()] == [], name


def test_the_new_table_form_offers_every_supported_house_rule() -> None:
    """docs/rules.md section 6: the browser's list is the engine's (OPT-LATE-DECLARE refused)."""
    text = (STATIC / "js" / "options.js").read_text(encoding="utf-8")
    offered = re.search(r"HOUSE_RULES = \[(.*?)\]", text, re.S)
    assert offered is not None
    names = re.findall(r'"(OPT-[A-Z-]+)"', offered.group(1))
    assert len(names) == len(set(names)) and set(names) == SUPPORTED_OPTIONS


def protocol_codes() -> set[str]:
    """The codes of docs/protocol.md's table "Error codes" (a row may name several)."""
    text = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    table = text.split("### Error codes", 1)[1].split("\n\n", 2)[1]
    return {code for row in table.splitlines()[2:] for code in re.findall(r"`(\w+)`", row.split("|")[1])}


def test_every_error_code_is_documented_and_decided() -> None:
    """A code the server gains is listed in docs/protocol.md and then here, worded for the pages or not."""
    documented = protocol_codes()
    server = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "src" / "belot" / "server").glob("*.py"))
    raised = set(re.findall(r'TableError\(\s*"(\w+)"', server)) | set(re.findall(r'"code": "(\w+)"', server))
    assert len(raised) > 30 and raised <= documented, sorted(raised - documented)
    assert not set(PERSON_CODES) & set(HOSTILE_CODES)
    assert set(PERSON_CODES) | set(HOSTILE_CODES) == documented, sorted(documented ^ set(PERSON_CODES + HOSTILE_CODES))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_refusal_a_person_can_meet_has_its_words_in_every_language(lang: str) -> None:
    words = catalog(lang)
    missing = [code for code in PERSON_CODES if f"web.errors.{code}" not in words]
    assert not missing, f"{lang} lacks web.errors. for {missing}"
    if lang != "en":
        en = catalog("en")
        copied = [code for code in PERSON_CODES if words[f"web.errors.{code}"] == en[f"web.errors.{code}"]]
        assert not copied, f"{lang} copies English for {copied}"


def test_the_pages_word_a_refusal_only_through_error_text() -> None:
    """One function (i18n.js errorText) turns a refusal into words: no page shows a server's message."""
    for js in STATIC.rglob("*.js"):
        if js.name in ("i18n.js", "net.js"):
            continue
        text = js.read_text(encoding="utf-8")
        assert '"web.error"' not in text and not re.search(r"\b[em]\.message\b", text), js.name
