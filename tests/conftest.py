"""Shared test helpers: build deals from partial hands, find the shared examples."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from belot.auction import parse_call
from belot.cards import SUIT_MASKS, parse_card
from belot.game import CALL_BASE, Deal

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("BELOT_SHARED", ROOT.parent / "shared"))
# The reference matches of shared/examples, copied here so the suite never depends on a
# neighbouring folder; test_examples_are_the_shared_ones checks the copies when shared/ is there.
EXAMPLES = Path(__file__).parent / "data" / "examples"
# tests/data holds fixtures (and the script that made the old-server database), not tests or doctests
collect_ignore_glob = ["data/*"]

# The Ctrl-C tests (here and in the terminals they start) need Ctrl-C to interrupt. A shell that
# starts the suite in the background without job control (`pytest &` in a script) makes SIGINT
# ignored, and an ignored signal stays ignored in every child; a handler does not (exec resets it).
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

# Hypothesis, for every property test unless it says otherwise: no deadline and no "too slow" health
# check, both timings that a loaded 2-core CI machine (browsers and servers beside) can miss with no
# fault in the code (a generation of hostile websocket messages failed so once, unreproduced); and
# the blob that reruns a failure printed with it. A test's own @settings with suppress_health_check
# replaces this list: it names too_slow itself.
settings.register_profile("belot", deadline=None, suppress_health_check=[HealthCheck.too_slow], print_blob=True)
settings.load_profile("belot")


def card(text: str) -> int:
    """A card in record notation ("7H") or as docs/rules.md section 4 writes it, suit first ("H7")."""
    if text[0] in "CDHS":
        text = text[1:] + text[0]
    return parse_card(text)


def cards(text: str) -> list[int]:
    return [card(c) for c in text.split()]


def make_hands(spec: dict[int, str], void: dict[int, str] | None = None) -> list[list[int]]:
    """Four 8-card hands: the given cards per seat, the rest dealt in order avoiding voided suits."""
    void = void or {}
    hands = {s: cards(spec.get(s, "")) for s in range(4)}
    used = {c for h in hands.values() for c in h}
    rest = [c for c in range(32) if c not in used]
    for seat in range(4):
        banned = 0
        for suit in void.get(seat, ""):
            banned |= SUIT_MASKS["CDHS".index(suit)]
        while len(hands[seat]) < 8:
            pick = next((c for c in rest if not banned >> c & 1), None)
            if pick is None:
                raise ValueError("cannot fill the hands with these voids")
            rest.remove(pick)
            hands[seat].append(pick)
    return [hands[s] for s in range(4)]


def deal_with(spec: dict[int, str], auction: str, dealer: int = 0, void: dict[int, str] | None = None) -> Deal:
    """A Deal (dealer 0: forehand is seat 1) after the given auction calls."""
    d = Deal(dealer, make_hands(spec, void))
    for call in auction.split():
        d.apply(CALL_BASE + parse_call(call))
    return d


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """An empty server database, once SQLite and once PostgreSQL (tests/pg.py: a throwaway
    cluster; skipped where none can start, required with BELOT_REQUIRE_POSTGRES=1)."""
    import pg

    return pg.database_url(request.param, str(tmp_path / "belot.sqlite3"))


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    import sys

    if "pg" in sys.modules:
        sys.modules["pg"].stop()


@pytest.fixture
def examples_dir() -> Path:
    return EXAMPLES
