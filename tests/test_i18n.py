"""Translations: every message key of every ``i18n/<lang>/*.json`` file exists in all three
languages, with the same format fields, and every key the terminal game uses exists."""

from __future__ import annotations

import json
import re
import string
from importlib import resources
from pathlib import Path

import pytest

from belot.i18n import LANGUAGES, catalog
from belot.tui.text import dynamic_keys

I18N = Path(str(resources.files("belot.i18n")))
SRC = I18N.parent
FILES = sorted({p.name for lang in LANGUAGES for p in (I18N / lang).glob("*.json")})
KEY_LITERAL = re.compile(r"""["']((?:tui|term|call|suit|rank)\.[A-Za-z0-9_.]+)["']""")


def _load(lang: str, name: str) -> dict[str, str]:
    path = I18N / lang / name
    assert path.exists(), f"{lang}/{name} is missing"
    return json.loads(path.read_text(encoding="utf-8"))


def _fields(text: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(text) if f is not None}


@pytest.mark.parametrize("name", FILES)
def test_every_key_is_in_all_three_languages(name: str) -> None:
    docs = {lang: _load(lang, name) for lang in LANGUAGES}
    keys = {lang: set(doc) for lang, doc in docs.items()}
    for lang in LANGUAGES:
        for other in LANGUAGES:
            missing = sorted(keys[other] - keys[lang])
            assert not missing, f"{lang}/{name} lacks {missing[:10]} (present in {other})"


@pytest.mark.parametrize("name", FILES)
def test_texts_are_non_empty_and_take_the_same_fields(name: str) -> None:
    docs = {lang: _load(lang, name) for lang in LANGUAGES}
    for key, en in docs["en"].items():
        for lang in LANGUAGES:
            text = docs[lang].get(key)
            if not isinstance(en, str):
                continue  # a structured value (lists, objects) is checked by its own owner
            assert isinstance(text, str) and text.strip(), f"{lang}/{name}: {key} is empty"
            assert _fields(text) == _fields(en), f"{lang}/{name}: {key} has fields {_fields(text)}, en {_fields(en)}"


def _keys_used_by_terminal_game() -> set[str]:
    sources = [*sorted((SRC / "tui").glob("*.py")), SRC / "commands" / "play.py"]
    used = set(dynamic_keys())
    for path in sources:
        used.update(KEY_LITERAL.findall(path.read_text(encoding="utf-8")))
    return used


def test_every_key_the_terminal_game_uses_exists_in_every_language() -> None:
    used = _keys_used_by_terminal_game()
    assert len(used) > 60  # the scan found the game's texts, not nothing
    for lang in LANGUAGES:
        missing = sorted(k for k in used if k not in catalog(lang))
        assert not missing, f"{lang} lacks {missing}"


def test_turkish_and_bulgarian_texts_are_translated_not_copied() -> None:
    """The terminal texts differ from English except where a word is the same (numbers, arrows)."""
    en = _load("en", "tui.json")
    for lang in ("tr", "bg"):
        doc = _load(lang, "tui.json")
        same = [k for k, v in doc.items() if v == en[k] and re.search(r"[A-Za-z]{3}", re.sub(r"\{\w+\}", "", v))]
        assert not same, f"{lang}/tui.json copies English for {same}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_terminal_and_the_browser_address_the_player_alike(lang: str) -> None:
    """The Bulgarian terminal said "ти"/"Твоите карти" where the browser says "Вие"/"Вашите": one
    program, two forms of address.  The terminal's "you" is the browser's, and no Bulgarian text
    uses the familiar pronoun."""
    tui, web = _load(lang, "tui.json"), _load(lang, "web.json")
    assert tui["tui.you"].casefold() == web["web.seat.you"].casefold()
    if lang == "bg":
        familiar = re.compile(r"\b(ти|теб|тебе|твой|твоя|твоят|твое|твоё|твои|твоите|твоята|твоето)\b", re.I)
        found = [(name, key) for name in FILES for key, text in _load(lang, name).items() if familiar.search(text)]
        assert not found, found
