"""Translations: every user-facing text of every app, in English, Turkish and Bulgarian.

Each language is a folder of JSON files (``game.json`` for the game's own words from the docs/rules.md
glossary, ``tui.json`` for the terminal, ``web.json`` for the browser); keys are dotted and the
same in all three languages.  Texts use ``str.format`` fields: ``t("tui.prompt_card", "tr")``.
"""

from __future__ import annotations

import contextlib
import json
import locale
import os
from functools import cache
from importlib import resources

LANGUAGES = ("en", "tr", "bg")
DEFAULT = "en"


@cache
def catalog(lang: str) -> dict[str, str]:
    """All keys of one language, merged from its files."""
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}; choose one of {', '.join(LANGUAGES)}")
    merged: dict[str, str] = {}
    folder = resources.files(__name__).joinpath(lang)
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".json"):
            merged.update(json.loads(entry.read_text(encoding="utf-8")))
    return merged


def t(key: str, lang: str = DEFAULT, /, **fields: object) -> str:
    """The text of ``key`` in ``lang`` (English if the key is missing there), formatted."""
    text = catalog(lang).get(key)
    if text is None:
        text = catalog(DEFAULT).get(key, key)
    return text.format(**fields) if fields else text


def default_language() -> str:
    """The language of the user's locale (LANGUAGE, LC_ALL, LC_MESSAGES, LANG), else English."""
    candidates = [os.environ.get(v, "") for v in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")]
    with contextlib.suppress(ValueError):
        candidates.append(locale.getlocale()[0] or "")
    for value in candidates:
        for part in value.split(":"):
            code = part[:2].lower()
            if code in LANGUAGES:
                return code
    return DEFAULT
