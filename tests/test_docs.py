"""README.md and docs/*.md against the code: what a reader acts on must exist.

Every relative link resolves (the file, and a `#anchor` to one of its headings as GitHub slugs it);
every flag written after `belot COMMAND` on one line is a flag of that command's parser; every
repository path written in backticks (`src/belot/...`, `tests/...`, `bench/...`) exists; every flag of a
command is mentioned somewhere in the docs or the README.
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import pytest

from belot.cli import build_parser

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def _commands() -> dict[str, set[str]]:
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return {name: {o for a in p._actions for o in a.option_strings} for name, p in sub.choices.items()}


def _slug(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def _anchors(path: Path) -> set[str]:
    text = re.sub(r"```.*?```", "", path.read_text(encoding="utf-8"), flags=re.S)
    return {_slug(m.group(1)) for m in re.finditer(r"^#+ (.*)$", text, re.M)}


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_relative_links_resolve(doc: Path) -> None:
    broken = []
    for m in re.finditer(r"\]\(([^)\s]+)\)", doc.read_text(encoding="utf-8")):
        link = m.group(1)
        if re.match(r"[a-z]+:", link):
            continue
        path, _, anchor = link.partition("#")
        target = (doc.parent / path).resolve() if path else doc
        if not target.exists() or (anchor and target.suffix == ".md" and anchor not in _anchors(target)):
            broken.append(link)
    assert not broken, f"{doc.name}: links to nothing: {broken}"


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_command_flags_exist(doc: Path) -> None:
    commands = _commands()
    wrong = []
    for m in re.finditer(r"belot ([a-z][a-z-]*)((?:(?! \| )[^\n`])*)", doc.read_text(encoding="utf-8")):
        command, rest = m.group(1), m.group(2)
        if command not in commands:
            continue
        wrong += [f"belot {command} {flag}" for flag in re.findall(r"(?<![\w-])(--[a-z][a-z-]*)", rest)
                  if flag not in commands[command]]
    assert not wrong, f"{doc.name}: flags the command does not have: {wrong}"


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_repository_paths_exist(doc: Path) -> None:
    missing = []
    for m in re.finditer(r"`((?:src/belot|tests|bench|docs|deploy|examples)(?:/[^`\s]*)?)`", doc.read_text(encoding="utf-8")):
        path = m.group(1)
        if re.search(r"[<*{]|-N\.", path):  # a pattern: <lang>, match-N.json
            continue
        if not (ROOT / path).exists():
            missing.append(path)
    assert not missing, f"{doc.name}: names files that do not exist: {missing}"


def test_every_flag_is_documented() -> None:
    text = "".join(doc.read_text(encoding="utf-8") for doc in DOCS)
    silent = [f"belot {command} {flag}" for command, flags in _commands().items()
              for flag in sorted(flags) if flag.startswith("--") and flag != "--help" and flag not in text]
    assert not silent, f"flags neither README.md nor docs/ mention: {silent}"


def test_the_checks_can_fail() -> None:
    """The patterns above find what they look for (a check that matches nothing cannot fail)."""
    assert _slug("6. House rules in Belot") == "6-house-rules-in-belot"
    assert "limits" in _anchors(ROOT / "docs" / "protocol.md")
    assert "--max-body" in _commands()["serve"]
    assert "--records" not in _commands()["replay"]


def test_the_record_formats_example_is_a_valid_game_in_progress() -> None:
    """docs/record-format.md's example record: seat 0 declared a tierce it did not hold, and a belote
    came from a seat without the king. With the "..." that stands for the cards to come left out, it
    replays (R7.2, R7.7), and its first deal is in progress."""
    import json

    from belot.record import replay

    text = (ROOT / "docs" / "record-format.md").read_text(encoding="utf-8")
    block = re.search(r"## A record\n```json\n(.*?)```", text, re.S)
    assert block is not None
    doc = json.loads(block.group(1))
    play = doc["deals"][0]["play"]
    assert play[-1] == "..."
    doc["deals"][0]["play"] = play[:-1]
    match = replay(doc)
    deal = match.deals[0]
    assert not deal.is_over and len(deal.actions) > 7
    assert [len(h) for h in doc["deals"][0]["hands"]] == [8, 8, 8, 8]
