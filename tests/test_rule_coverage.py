"""The rulebook docs/rules.md and the rule ids the project cites agree.

Every rule id (R1-R12 and their parts) and option name (`OPT-...`) used anywhere in the project is
defined in docs/rules.md; every rule of it is cited by at least one other test module; and when the
shared folder with the original RULES.md sits beside the checkout, docs/rules.md defines every id and
option it does, so the two cannot drift apart.
"""

import re
from pathlib import Path

import pytest
from conftest import ROOT, SHARED

from belot.contracts import KNOWN_OPTIONS

HERE = Path(__file__).parent
RULEBOOK = ROOT / "docs" / "rules.md"

RULE_ID = re.compile(r"\bR\d+(?:\.\d+)?\b")
OPTION = re.compile(r"\bOPT-[A-Z]+(?:-[A-Z]+)*\b")
# Places where code, tests and documentation cite rules; the rulebook itself is left out.
CITING = ("src", "tests", "bench", "docs", "README.md")
SKIP_DIRS = {"__pycache__", "node_modules"}


def _ids(text: str) -> set[str]:
    return set(RULE_ID.findall(text))


def _leaves(ids: set[str]) -> set[str]:
    """The rules with no numbered parts (R8, R5.2), the ones a test can cite."""
    return {i for i in ids if not any(j.startswith(i + ".") for j in ids)}


def _rulebook() -> str:
    return RULEBOOK.read_text(encoding="utf-8")


def _citing_files() -> list[Path]:
    files = []
    for name in CITING:
        top = ROOT / name
        for p in [top] if top.is_file() else sorted(top.rglob("*")):
            parts = set(p.relative_to(ROOT).parts)
            if p.is_file() and p != RULEBOOK and not parts & SKIP_DIRS \
                    and not any(part.endswith(".egg-info") for part in parts):
                files.append(p)
    return files


def _text(p: Path) -> str:
    try:
        return p.read_text(encoding="utf-8")
    except (UnicodeDecodeError, OSError):
        return ""  # images, databases: nothing to cite


def test_the_rulebook_defines_rules_r1_to_r12():
    ids = _ids(_rulebook())
    assert {f"R{n}" for n in range(1, 13)} <= ids
    assert "R5.2" in ids and "R10.4" in ids


def test_every_cited_rule_id_is_in_the_rulebook():
    defined = _ids(_rulebook())
    unknown = {}
    for p in _citing_files():
        for rid in _ids(_text(p)) - defined:
            unknown.setdefault(rid, []).append(str(p.relative_to(ROOT)))
    assert not unknown, f"rule ids cited but not defined in docs/rules.md: {unknown}"


def test_every_known_option_is_in_the_rulebook():
    defined = set(OPTION.findall(_rulebook()))
    assert defined == set(KNOWN_OPTIONS)


def test_the_rulebook_keeps_every_id_of_the_shared_rules():
    rules = SHARED / "RULES.md"
    if not rules.exists():
        pytest.skip(f"no shared/RULES.md beside the checkout ({rules}); docs/rules.md stands alone")
    shared = rules.read_text(encoding="utf-8")
    ours = _rulebook()
    assert _ids(shared) <= _ids(ours), sorted(_ids(shared) - _ids(ours))
    assert _leaves(_ids(shared)) == _leaves(_ids(ours))
    assert set(OPTION.findall(shared)) <= set(OPTION.findall(ours))


def _cited_by_tests() -> str:
    text = []
    for p in HERE.glob("test_*.py"):
        if p.name != Path(__file__).name:
            text.append(p.read_text(encoding="utf-8"))
    return "\n".join(text)


def test_every_rule_is_cited_by_a_test():
    text = _cited_by_tests()
    missing = []
    for rid in sorted(_leaves(_ids(_rulebook()))):
        dotted = re.escape(rid) + r"(?![\d.])"
        underscored = re.escape(rid.lower().replace(".", "_")) + r"(?!\d)"
        if not re.search(dotted, text) and not re.search(underscored, text):
            missing.append(rid)
    assert not missing, f"rules with no test citing them: {missing}"
