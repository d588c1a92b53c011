"""The browser's ES modules import one another without a cycle (a cycle makes the order in which
modules run depend on which one the page loads first)."""

from __future__ import annotations

import re
from pathlib import Path

JS = Path(__file__).resolve().parent.parent / "src" / "belot" / "web" / "static" / "js"
IMPORT = re.compile(r'^import\s.*?from\s+"\./([\w.-]+)";', re.MULTILINE)


def test_the_js_modules_import_without_a_cycle() -> None:
    graph = {p.name: set(IMPORT.findall(p.read_text(encoding="utf-8"))) for p in JS.glob("*.js")}
    assert graph["table.js"] and graph["app.js"]
    done: set[str] = set()

    def visit(name: str, path: tuple[str, ...]) -> None:
        assert name not in path, " -> ".join((*path, name))
        if name in done:
            return
        for dep in graph.get(name, ()):
            visit(dep, (*path, name))
        done.add(name)

    for name in graph:
        visit(name, ())


def test_the_browser_classifies_no_declaration_and_derives_no_seat_itself() -> None:
    """The kinds of declarations and the seat of each replayed action come from the server (R7.5)."""
    text = "\n".join(p.read_text(encoding="utf-8") for p in JS.glob("*.js"))
    assert "declarationKind" not in text and "dealSteps" not in text
