"""The browser UI end to end: a real `belot serve` and Debian's Chromium driven by Playwright.

Covers issue 6's acceptance: create a table with three bots in the lobby and play a whole deal by
clicking legal calls and cards (the clickable cards are exactly the server's legal ones) until the
score sheet shows it; switch the language and see the game's Turkish and Bulgarian words; a second
browser context at another seat never shows the first seat's cards; a server restart in the middle
of a deal, after which the same page plays on.  Also the phone width (360 px) has no sideways
scrolling and the keyboard can play.  With BELOT_WRITE_SCREENSHOTS=1 it rewrites the screenshots
in docs/screenshots/.

Issue 21 (the table for phones and native speakers): scripted tables, four people driven over the
HTTP API (`ScriptedTable`), give deals of a chosen kind (doubled, inside, with declarations); the
layout checks measure element boxes at 360 and 1280 px (dialogs inside the viewport, tables in them
not wider than their box, a touch at a control's centre lands on it), in each language where the
flaw depended on it.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import connect

from belot.i18n import catalog

pytestmark = pytest.mark.browser

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
ROOT = Path(__file__).resolve().parent.parent
SCREENSHOTS = ROOT / "docs" / "screenshots"

if not Path(CHROMIUM).exists():
    if os.environ.get("BELOT_REQUIRE_BROWSER") == "1":
        raise RuntimeError(f"BELOT_REQUIRE_BROWSER=1 but {CHROMIUM} is missing")
    pytest.skip(f"Debian's chromium is not installed at {CHROMIUM} (apt-get install -y chromium)", allow_module_level=True)
try:
    from playwright.sync_api import Browser, Page, sync_playwright
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
except ImportError:  # pragma: no cover - the test extra installs it
    if os.environ.get("BELOT_REQUIRE_BROWSER") == "1":
        raise
    pytest.skip("playwright is not installed (pip install -e '.[test]')", allow_module_level=True)


# -- the server ---------------------------------------------------------------------------------


class Server:
    """`belot serve` in a subprocess on 127.0.0.1, with a temporary database, no bot delay and no
    limit on the tables one address makes."""

    def __init__(self, db: Path, *args: str) -> None:
        self.db = db
        self.args = args  # more `belot serve` flags (a later flag wins: a limit of its own)
        self.log = db.with_suffix(".log")
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        with self.log.open("ab") as log:  # a file, not a pipe: a full pipe would block the server
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "belot", "serve", "--host", "127.0.0.1", "--port", str(self.port),
                 "--db", str(self.db), "--bot-delay", "0",
                 # one address makes every table here: the abuse limits are tests/test_server_abuse.py's
                 "--tables-per-minute", "100000", "--waiting-per-address", "100000", "--max-bot-tables", "100000",
                 *self.args],
                stdout=subprocess.DEVNULL, stderr=log,
            )
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                err = self.log.read_text(errors="replace")[-2000:]
                raise RuntimeError(f"belot serve exited with {self.proc.returncode}: {err}")
            try:
                with urllib.request.urlopen(self.url + "/api/health", timeout=1) as r:
                    if json.load(r).get("ok"):
                        return
            except (urllib.error.URLError, ConnectionError, OSError):
                time.sleep(0.1)
        raise RuntimeError("belot serve did not answer /api/health within 20 s")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None

    def get(self, path: str) -> Any:
        with urllib.request.urlopen(self.url + path, timeout=5) as r:
            return json.load(r)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(tmp_path_factory.mktemp("web") / "belot.sqlite3")
    srv.start()
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


def new_page(browser: Browser, width: int = 1280, height: int = 800, locale: str = "en-US",
             touch: bool = False) -> Page:
    """A page of its own context; ``touch``: a phone's, that taps and has no hover."""
    ctx = browser.new_context(viewport={"width": width, "height": height}, locale=locale, has_touch=touch)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors  # type: ignore[attr-defined]
    page.set_default_timeout(20_000)
    return page


# -- driving a table --------------------------------------------------------------------------------

PROBE = """() => {
  const vis = (sel) => { const el = document.querySelector(sel); return !!el && el.getClientRects().length > 0; };
  if (vis('#match-end')) return 'end';
  if (vis('#summary-ok')) return 'summary';
  if (vis('#belote-yes')) return 'belote';
  if (vis('[data-declare]')) return 'declare';
  if (vis('[data-call]')) return 'call';
  if (document.querySelector('.pos-bottom.turn') && document.querySelector('#hand .card.legal')
      && document.querySelector('.felt').dataset.phase === 'play') return 'card';
  return 'wait';
}"""


def table_id(page: Page) -> str:
    return page.url.rstrip("/").split("/t/")[1]


def state_of(server: Server, page: Page) -> dict[str, Any]:
    tid = table_id(page)
    token = page.evaluate(f"localStorage.getItem('belot.token.{tid}')")
    return server.get(f"/api/tables/{tid}/state?token={token}")


def act_once(
    page: Page, server: Server | None = None, bid: bool = False, check_legal: bool = False, keep_summary: bool = False
) -> str:
    """Wait until this page has something to do, and do it by clicking like a player. Returns what.

    ``bid``: make the first bid offered instead of passing; ``check_legal``: check the clickable
    cards are the server's legal ones; ``keep_summary``: leave an end-of-deal summary open.
    """
    page.wait_for_function(f"({PROBE})() !== 'wait'", timeout=15_000)
    what = page.evaluate(PROBE)
    try:
        if what == "summary" and keep_summary:
            pass
        elif what == "summary":
            page.click("#summary-ok", timeout=2000)
        elif what == "belote":
            page.click("#belote-yes", timeout=2000)
        elif what == "declare":
            page.locator("[data-declare]").first.click(timeout=2000)
        elif what == "call":
            calls = page.locator("[data-call]")
            names = [calls.nth(i).get_attribute("data-call") for i in range(calls.count())]
            pick = next((c for c in names if c not in ("pass", "kontra", "rekontra")), "pass") if bid else "pass"
            page.click(f"[data-call='{pick}']", timeout=2000)
        elif what == "card":
            legal = page.locator("#hand .card.legal")
            if check_legal and server is not None:
                shown = set(legal.evaluate_all("els => els.map(e => e.dataset.card)"))
                view = state_of(server, page)["view"]
                if view["phase"] == "play" and view["to_move"] == view["seat"]:
                    assert shown == {a["card"] for a in view["legal"] if "card" in a}
                    dim = set(page.locator("#hand .card.dim").evaluate_all("els => els.map(e => e.dataset.card)"))
                    assert dim == set(view["hand"]) - shown
            legal.first.click(timeout=2000)
    except PlaywrightTimeout:
        pass  # the state moved on under the click: look again
    return what


def create_table(
    page: Page, server: Server, seats: tuple[str, str, str] | None = None, name: str = "Ayşe", target: int = 151
) -> str:
    page.goto(server.url + "/")
    for field, value in (("#name", name), ("#target", str(target))):
        # The lobby renders again when its lists arrive and keeps the field's selection (see
        # test_a_selection_in_the_lobby_form_outlives_the_lists_arriving): one fill is enough.
        page.fill(field, value)
        assert page.input_value(field) == value, field
    if seats:
        for i, value in enumerate(seats, start=1):
            page.select_option(f"#seat{i}", value)
    page.click("#create-btn")
    page.wait_for_selector(".felt")
    return table_id(page)


# -- the tests ----------------------------------------------------------------------------------


def test_play_a_whole_deal_by_clicking_in_turkish_and_see_the_score_sheet(browser: Browser, server: Server) -> None:
    page = new_page(browser)
    tid = create_table(page, server)
    assert page.locator("[data-seat]").count() == 4
    page.wait_for_selector("[data-call='pass']")
    assert page.locator("[data-call='pass']").inner_text().endswith("Pass")
    # Switch to Turkish in the middle of the auction: the game's own words appear at once.
    page.select_option("#lang", "tr")
    page.wait_for_function("document.documentElement.lang === 'tr'")
    assert page.locator("[data-call='pass']").inner_text().endswith("Pas")
    body = page.inner_text("body")
    assert "Skor kağıdı" in body and "Biz" in body and "Onlar" in body and "Artırma" in body
    # Play the deal by clicking: the clickable cards are exactly the server's legal ones.
    seen: set[str] = set()
    first = True
    for _ in range(300):
        what = act_once(page, server, bid=first, check_legal=True, keep_summary=True)
        first = first and what != "call"
        seen.add(what)
        if what == "summary":
            break
    assert {"call", "card", "summary"} <= seen
    dialog = page.inner_text("#summary-dialog")
    assert "Kağıt puanı" in dialog and "Anonslar" in dialog and "Belot" in dialog and "Kapo" in dialog
    assert any(w in dialog for w in ("Çıkarılmış", "Asılı", "İçeride"))
    assert "Yuvarlama" in dialog and "→" in page.inner_text("#summary-dialog tr.rounding")  # R10 step
    # The deal is on the sheet: a line, and totals equal to the server's score.
    score = server.get(f"/api/tables/{tid}")["table"]["score"]
    assert page.locator(".sheet tr.deal").count() == 1
    assert page.locator(".sheet [data-total='0']").first.inner_text() == str(score[0])
    assert page.locator(".sheet [data-total='1']").first.inner_text() == str(score[1])
    page.select_option("#lang", "bg")
    page.wait_for_function("document.documentElement.lang === 'bg'")
    assert "Точки от карти" in page.inner_text("#summary-dialog")
    page.click("#summary-ok")
    # The last trick on demand shows the four cards of the deal's last trick.
    page.keyboard.press("l")
    page.wait_for_selector("#last-dialog")
    assert page.locator("#last-dialog figure").count() == 4
    page.keyboard.press("Escape")
    page.reload()
    page.wait_for_selector(".felt")
    assert page.evaluate("document.documentElement.lang") == "bg"  # the choice is remembered
    assert not page.errors  # type: ignore[attr-defined]


def test_browser_language_is_the_default(browser: Browser, server: Server) -> None:
    page = new_page(browser, locale="tr-TR")
    page.goto(server.url + "/")
    page.wait_for_selector("#create-btn")
    assert page.inner_text("#create-btn") == "Masayı kur"
    assert page.evaluate("document.documentElement.lang") == "tr"


def test_a_second_seat_never_sees_the_first_seats_cards(browser: Browser, server: Server) -> None:
    a = new_page(browser)
    tid = create_table(a, server, seats=("bot:random", "human", "bot:random"), name="Ayşe")
    assert a.locator("#waiting").is_visible()  # seat 2 is free: nothing is played yet
    b = new_page(browser)
    b.goto(server.url + "/")
    b.fill("#name", "Mehmet")
    b.click(f"#open-tables li[data-table='{tid}'] [data-join]")  # the lobby's open tables
    b.wait_for_selector("#hand .card")
    a.wait_for_selector("#hand .card")

    def hand(page: Page) -> set[str]:
        return set(page.locator("#hand .card").evaluate_all("els => els.map(e => e.dataset.card)"))

    def shown_outside_trick(page: Page) -> set[str]:
        # Every card face on the page that is not on the table (the trick, the last trick).
        return set(page.evaluate("""() => [...document.querySelectorAll('[data-card]')]
            .filter(e => !e.closest('.trick, #last-dialog, #summary-dialog, #match-end'))
            .map(e => e.dataset.card)"""))

    checks = 0
    for _ in range(40):
        for me, other in ((a, b), (b, a)):
            secret = hand(me)
            assert secret, "the seat shows its own hand"
            assert not secret & shown_outside_trick(other), "a seat's cards leaked to the other seat"
            checks += 1
        page = a if a.evaluate(PROBE) != "wait" else b if b.evaluate(PROBE) != "wait" else None
        if page is None:
            a.wait_for_timeout(100)
            continue
        act_once(page, server, bid=True)
        if a.locator(".felt").get_attribute("data-phase") == "play" and len(hand(a)) <= 6:
            break
    assert checks >= 8
    assert b.locator(".seat.pos-bottom").get_attribute("data-seat") == "2"
    assert a.locator(".seat.pos-top").get_attribute("data-seat") == "2"  # partner opposite
    assert a.locator(".seat.pos-right").get_attribute("data-seat") == "1"  # the next seat on the right
    # Leaving the seat: the page turns into a spectator's, with no hand.
    b.click("#btn-leave")
    b.wait_for_function("document.querySelectorAll('#hand .card').length === 0")
    b.wait_for_selector("[data-sit='2']")  # the seat is free again, offered to anyone with the link
    # A spectator (the table link, no seat) sees nobody's hand.
    watcher = new_page(browser)
    watcher.goto(f"{server.url}/t/{tid}")
    watcher.wait_for_selector(".felt")
    assert watcher.locator("#hand .card").count() == 0
    assert not (hand(a) | hand(b)) & shown_outside_trick(watcher)
    assert not watcher.errors  # type: ignore[attr-defined]


def test_the_page_continues_after_a_server_restart(browser: Browser, server: Server) -> None:
    page = new_page(browser)
    tid = create_table(page, server)
    first = True
    for _ in range(200):  # into the play of the deal
        what = act_once(page, server, bid=first)
        first = first and what != "call"
        if page.locator(".felt").get_attribute("data-phase") == "play" and page.locator("#hand .card").count() <= 6:
            break
    before = server.get(f"/api/tables/{tid}")["table"]["seq"]
    server.stop()
    page.wait_for_selector("#banner:not(.hidden)")
    server.start()
    page.wait_for_function("document.querySelector('#banner').classList.contains('hidden') || "
                           "document.querySelector('#banner').classList.contains('ok')", timeout=15_000)
    # The same page plays on: its clicks reach the restarted server.
    view = state_of(server, page)["view"]
    deal, cards = view["deal_index"], len(view["hand"])
    done = [act_once(page, server) for _ in range(4)]
    assert {"card", "call", "summary", "declare", "belote"} & set(done)
    page.wait_for_function(f"document.querySelectorAll('#hand .card').length < {cards} || "
                           "document.querySelector('.felt').dataset.phase === 'auction'")
    view = state_of(server, page)["view"]
    assert view["deal_index"] > deal or len(view["hand"]) < cards
    assert server.get(f"/api/tables/{tid}")["table"]["seq"] > before
    assert not page.errors  # type: ignore[attr-defined]


def test_the_page_reconnects_after_a_network_drop(browser: Browser, server: Server) -> None:
    page = new_page(browser)
    sockets: list[Any] = []

    def through(route: Any) -> None:  # pass the table socket through, keeping a handle to cut it
        route.connect_to_server()
        sockets.append(route)

    page.route_web_socket(re.compile(r"/api/tables/\w+/ws"), through)
    create_table(page, server)
    page.wait_for_selector("[data-call]")
    assert len(sockets) == 1
    sockets[0].close()  # the connection drops under the page
    page.wait_for_selector("#banner:not(.hidden)")
    page.wait_for_function("() => !document.querySelector('#banner').textContent.includes('lost')")
    assert len(sockets) == 2  # it came back by itself, and plays on
    assert act_once(page, server) == "call"


def test_match_end_then_replay_with_all_hands_open(browser: Browser, server: Server) -> None:
    page = new_page(browser)
    tid = create_table(page, server, target=1)  # the first scored deal (without a capot) ends the match
    assert server.get(f"/api/tables/{tid}")["table"]["target"] == 1
    first = True
    for _ in range(600):
        what = act_once(page, server, bid=first)
        first = first and what != "call"
        if what == "end":
            break
    end = page.inner_text("#match-end")
    assert "The match is over" in end and ("Your team won" in end or "other team won" in end)
    table = server.get(f"/api/tables/{tid}")["table"]
    assert table["status"] == "finished"
    page.click(f"#match-end a[href='/replay/{tid}']")
    page.wait_for_selector(".replay .open-hand")
    hands = page.locator(".replay .open-hand")
    assert hands.count() == 4
    assert [hands.nth(i).locator(".card-slot").count() for i in range(4)] == [5, 5, 5, 5]  # before the auction
    record = server.get(f"/api/tables/{tid}/record")
    deal = record["deals"][0]
    shown = set(page.locator(".replay .open-hand [data-card]").evaluate_all("els => els.map(e => e.dataset.card)"))
    assert shown == {c for h in deal["hands"] for c in h[:5]}
    page.keyboard.press("ArrowRight")
    assert page.inner_text("#narration").strip()
    page.keyboard.press("End")
    page.wait_for_selector("#replay-summary")
    if deal["play"]:
        assert page.locator(".replay .open-hand .card-slot.played").count() == 32
        # Issue 21 (13): the four "who played it" labels of the last trick are whole and apart.
        boxes = page.locator(".replay .trick .who").evaluate_all("""els => els.map(e => {
            const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom, e.scrollWidth <= e.clientWidth + 1]; })""")
        assert len(boxes) == 4 and all(b[4] for b in boxes)
        for i, a in enumerate(boxes):
            for b in boxes[i + 1:]:
                assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], (a, b)
        # ...and not hidden under another card: the label's centre is the label.
        assert page.locator(".replay .trick .who").evaluate_all("""els => els.every(e => {
            const r = e.getBoundingClientRect(); const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
            return hit === e || e.contains(hit); })""")
    first_result = server.get(f"/api/tables/{tid}/replay")["results"]["deals"][0]
    if first_result["contract"]:  # the summary shows the R10 rounding step, as at the table
        assert page.locator("#replay-summary tr.rounding").count() == 1
        assert "→" in page.inner_text("#replay-summary tr.rounding")
    page.goto(server.url + "/")
    # Issue 21 (11): a finished game says when, who played with whom, and who won.
    item = page.locator(f"#finished-tables li[data-table='{tid}']")
    item.wait_for()
    assert item.locator("time").get_attribute("datetime")
    text = item.inner_text()
    assert "Ayşe" in text and " & " in text and "won by" in text
    winners = [s for s in table["seats"] if s["seat"] % 2 == table["winner"]]
    assert (winners[0]["name"] or "") in item.locator(".winner").inner_text() or "Bot" in item.locator(".winner").inner_text()
    assert not page.errors  # type: ignore[attr-defined]


def test_a_turn_that_times_out_says_so_and_the_summary_shows_the_time(browser: Browser, server: Server) -> None:
    """With a turn timer the substitute bot acted for a player out of time and the page said nothing
    (the call seemed to make itself); and at a deal's end the summary covered the calls while the
    next turn's time ran down unseen beneath it."""
    made = post(server, "/api/tables", {"seats": ["human", "bot:random", "bot:random", "bot:random"], "seat": 0,
                                        "name": "Ayşe", "turn_timer": 2, "target": 1001})
    tid, token = made["table"]["id"], made["token"]
    page = new_page(browser, width=360, height=740, locale="tr-TR")
    page.context.add_init_script(f"localStorage.setItem('belot.token.{tid}', '{token}');")
    page.goto(f"{server.url}/t/{tid}")
    page.wait_for_selector("#deadline")  # seat 0's turn, its time running: let it run out
    page.wait_for_selector("#toast:not(.hidden)", timeout=15_000)
    assert page.inner_text("#toast") == catalog("tr")["web.table.timed_out"]
    assert not page.errors  # type: ignore[attr-defined]
    page.context.close()
    # A deal ends and seat 0 calls first in the next: the summary it opens on shows seat 0's time.
    table = ScriptedTable(server, turn_timer=60)
    while True:
        table.play_until("plain")
        view = table.state(0)["view"]
        if view["phase"] == "auction" and view["to_move"] == 0:
            break
    page = table.open(browser, 360, 740, "tr")
    page.wait_for_selector("#summary-dialog #summary-deadline")
    assert re.fullmatch(r"\d+ sn kaldı", page.inner_text("#summary-deadline"))
    assert not page.errors  # type: ignore[attr-defined]
    page.context.close()
    table.close()


def test_phone_width_and_keyboard(browser: Browser, server: Server) -> None:
    page = new_page(browser, width=360, height=740, locale="tr-TR")
    page.goto(server.url + "/")
    page.select_option("#timer", "60")  # a turn timer: the seat to move sees its time run down
    page.click("#create-btn")
    page.wait_for_selector("[data-call]")
    assert server.get(f"/api/tables/{table_id(page)}")["table"]["turn_timer"] == 60
    page.wait_for_selector("#deadline")
    assert "sn kaldı" in page.inner_text("#deadline")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    page.keyboard.press("1")  # the first legal call: pass
    for _ in range(200):
        what = page.evaluate(PROBE)
        if what == "card":
            n = page.locator("#hand .card").count()
            page.keyboard.press("ArrowRight")
            page.keyboard.press("Enter")
            page.wait_for_function(f"document.querySelectorAll('#hand .card').length < {n} || "
                                   "document.querySelector('#belote-yes') !== null")
            if page.locator("#belote-yes").count():
                page.keyboard.press("b")
            break
        if what == "wait":
            page.wait_for_timeout(50)
        else:
            act_once(page, server, bid=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360


@pytest.mark.skipif(os.environ.get("BELOT_WRITE_SCREENSHOTS") != "1", reason="set BELOT_WRITE_SCREENSHOTS=1 to rewrite docs/screenshots")
def test_write_screenshots(browser: Browser, server: Server) -> None:
    """docs/screenshots: the table mid-deal, the summaries of an inside and of a doubled deal, in
    Turkish and Bulgarian at desktop and phone width, and the score sheet open on a phone."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    sizes = (("desktop", 1280, 800), ("phone", 360, 740))
    names = {"tr": ("Ayşe", "Mehmet", "Elif", "Can"), "bg": ("Мария", "Георги", "Елена", "Иван")}
    for lang in ("tr", "bg"):
        for kind in ("inside", "doubled"):
            table = ScriptedTable(server, names=names[lang])
            table.play_until(kind, deals=30)
            for name, width, height in sizes:
                page = table.open(browser, width, height, lang)
                page.wait_for_selector("#summary-dialog")
                page.wait_for_timeout(200)
                page.screenshot(path=str(SCREENSHOTS / f"summary-{kind}-{lang}-{name}.png"))
                if kind == "doubled" and name == "phone":
                    page.click("#summary-ok")
                    page.click("#btn-sheet")
                    page.wait_for_selector("#sheet.open .sheet")
                    page.wait_for_timeout(200)
                    page.screenshot(path=str(SCREENSHOTS / f"sheet-{lang}-phone.png"))
                page.context.close()
            if kind == "doubled":
                # Mid-deal, the player to choose a card: the next deal, two tricks in, two cards on the table.
                while True:
                    v = table.state(0)["view"]
                    if (v["phase"] == "play" and v["to_move"] == 0 and len(v["tricks"]) >= 2 and len(v["trick"]) >= 2):
                        break
                    assert table.step("plain")
                for name, width, height in sizes:
                    page = table.open(browser, width, height, lang)
                    page.wait_for_selector("#hand .card")
                    if page.locator("#summary-ok").count():
                        page.click("#summary-ok")
                    page.wait_for_selector("#hand .card.legal")
                    page.wait_for_timeout(200)
                    page.screenshot(path=str(SCREENSHOTS / f"table-{lang}-{name}.png"))
                    page.context.close()
            table.close()


# -- scripted deals: every seat a person driven over HTTP, for deals of a chosen kind -------------

RANK_ORDER = "789JQKTA"  # low to high, roughly: enough to lose or win tricks on purpose


def post(server: Server, path: str, body: dict[str, Any]) -> Any:
    req = urllib.request.Request(server.url + path, data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=5) as r:
        return json.load(r)


class ScriptedTable:
    """A table of four human seats whose actions this test chooses, sent over the HTTP API.

    ``kind`` picks the deals: ``"doubled"`` (the first bid is a suit, the next seat doubles, the
    rest pass), ``"redoubled"`` (All Trumps, doubled and redoubled: x4), ``"inside"`` (the declarer's team plays its lowest cards, the other its highest) or
    ``"plain"``.  `play_until` drives the table until a deal of that kind has been scored the way
    wanted; the browser then opens seat 0 with its token.
    """

    def __init__(self, server: Server, target: int = 1001, names: tuple[str, ...] = ("Ayşe", "Mehmet", "Elif", "Can"),
                 turn_timer: int | None = None, options: tuple[str, ...] = ()) -> None:
        self.server = server
        created = post(server, "/api/tables", {"target": target, "seats": ["human"] * 4, "seat": 0, "name": names[0],
                                               "turn_timer": turn_timer, "options": list(options)})
        self.id = created["table"]["id"]
        self.tokens = [created["token"]]
        for seat in (1, 2, 3):
            self.tokens.append(post(server, f"/api/tables/{self.id}/join", {"seat": seat, "name": names[seat]})["token"])
        # The other three players are connected, as at a real table (no "offline" marks).
        ws = server.url.replace("http://", "ws://")
        self._open = contextlib.ExitStack()  # each socket entered (websockets 17 warns of one that is not)
        self.sockets = [self._open.enter_context(connect(f"{ws}/api/tables/{self.id}/ws?token={tok}", max_queue=None))
                        for tok in self.tokens[1:]]

    @classmethod
    def seat_zero_of(cls, server: Server, table_id: str, token: str) -> ScriptedTable:
        """A table that exists already (a rematch), driven with seat 0's token only, no sockets."""
        table = cls.__new__(cls)
        table.server, table.id, table.tokens, table.sockets = server, table_id, [token], []
        table._open = contextlib.ExitStack()
        return table

    def close(self) -> None:
        self._open.close()

    def state(self, seat: int) -> dict[str, Any]:
        return self.server.get(f"/api/tables/{self.id}/state?token={self.tokens[seat]}")

    def to_move(self) -> tuple[int, dict[str, Any]] | None:
        v = self.state(0)["view"]
        if v is None or v["winner"] is not None or v["to_move"] is None:
            return None
        seat = v["to_move"]
        return seat, self.state(seat)["view"]

    def choose(self, view: dict[str, Any], kind: str) -> dict[str, Any]:
        legal = view["legal"]
        calls = [a for a in legal if "call" in a]
        if calls:
            names = [a["call"] for a in calls]
            made = [c for c in view["calls"] if c["call"] != "pass"]
            if not made and kind != "redoubled":
                pick = "NT" if kind == "inside" and "NT" in names else next(c for c in names if c in "CDHS")
            elif kind == "doubled" and len(made) == 1 and "kontra" in names:
                pick = "kontra"
            elif kind == "redoubled" and "AT" in names and not made:
                pick = "AT"
            elif kind == "redoubled" and ("rekontra" in names or ("kontra" in names and len(made) == 1)):
                pick = "rekontra" if "rekontra" in names else "kontra"
            else:
                pick = "pass"
            return {"call": pick}
        declares = [a for a in legal if "declare" in a]
        if declares and kind == "declared":
            return declares[0]
        cards = [a for a in legal if "card" in a and not a.get("belote")] or [a for a in legal if "card" in a]
        ours = view["declarer"] is not None and (view["seat"] & 1) == (view["declarer"] & 1)
        ordered = sorted(cards, key=lambda a: RANK_ORDER.index(a["card"][0]))
        return ordered[0] if ours or kind != "inside" else ordered[-1]

    def step(self, kind: str) -> bool:
        nxt = self.to_move()
        if nxt is None:
            return False
        seat, view = nxt
        post(self.server, f"/api/tables/{self.id}/action", {"token": self.tokens[seat], "action": self.choose(view, kind)})
        return True

    def play_out(self, kind: str) -> None:
        """Every action until the match ends."""
        while self.step(kind):
            pass

    def play_until(self, kind: str, deals: int = 12) -> dict[str, Any]:
        """Whole deals until one scored as ``kind`` wants (doubled, or inside); its result."""
        for _ in range(deals):
            start = len(self.state(0)["view"]["history"])
            while len(self.state(0)["view"]["history"]) == start:
                assert self.step(kind), "the match ended before a deal of the kind wanted"
            result = self.state(0)["view"]["history"][-1]
            if kind == "doubled" and result.get("multiplier", 1) > 1:
                return result
            if kind == "inside" and result["outcome"] == "inside" and result.get("multiplier", 1) == 1:
                return result
            if kind == "plain" and result["contract"]:
                return result
            prev = self.state(0).get("previous_deal") or {}
            if kind == "declared" and any((prev.get("result") or {}).get("declared_detail") or []):
                return prev["result"]
        raise AssertionError(f"no {kind} deal in {deals} deals")

    def play_cards(self, n: int) -> None:
        """Into the play of the current deal: its auction (one bid), then ``n`` cards."""
        played = 0
        while played < n:
            v = self.state(0)["view"]
            if v["phase"] == "play":
                played = sum(len(t["cards"]) for t in v["tricks"]) + len(v["trick"])
                if played >= n:
                    break
            assert self.step("plain")

    def open(self, browser: Browser, width: int, height: int, lang: str, seat: int = 0) -> Page:
        """The seat's page in ``lang``, its token in the page's storage as if it had taken the seat."""
        page = new_page(browser, width=width, height=height)
        page.context.add_init_script(f"localStorage.setItem('belot.token.{self.id}', '{self.tokens[seat]}');"
                                     f"localStorage.setItem('belot.lang', '{lang}');")
        page.goto(f"{self.server.url}/t/{self.id}")
        page.wait_for_selector(".felt")
        page.wait_for_function(f"document.documentElement.lang === '{lang}'")
        return page


def settled_box(page: Page, selector: str) -> dict[str, float] | None:
    """The element's box.  The page redraws a view by replacing its elements, so a redraw between
    finding the element and measuring it leaves a detached element with no box: measure again,
    for up to 2 s, before taking it for hidden."""
    for _ in range(40):
        box = page.locator(selector).first.bounding_box()
        if box is not None:
            return dict(box)
        page.wait_for_timeout(50)
    return None


def inside_viewport(page: Page, selector: str) -> None:
    box = settled_box(page, selector)
    vp = page.viewport_size
    assert box is not None and vp is not None, selector
    assert box["x"] >= -0.5 and box["y"] >= -0.5, (selector, box)
    assert box["x"] + box["width"] <= vp["width"] + 0.5, (selector, box, vp)
    assert box["y"] + box["height"] <= vp["height"] + 0.5, (selector, box, vp)


def reachable(page: Page, selector: str) -> None:
    """The control is in the viewport and a touch at its centre lands on it (nothing covers it).
    As in `settled_box`, a redraw between finding the element and hit-testing it leaves a detached
    element (no box, so the hit lands on whatever is at the page's corner): look again, for up to
    2 s, before calling it covered; a control that stays covered fails."""
    inside_viewport(page, selector)
    cover = ""
    for _ in range(40):
        cover = page.locator(selector).first.evaluate("""el => {
            if (!el.isConnected) return "a redraw (the element was detached)";
            const r = el.getBoundingClientRect();
            const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
            return hit === el || el.contains(hit) ? "" : (hit ? hit.outerHTML.slice(0, 200) : "nothing");
        }""")
        if not cover:
            return
        page.wait_for_timeout(50)
    raise AssertionError(f"{selector} is covered by {cover}")


def nothing_clipped(page: Page, selector: str) -> None:
    """Every table in ``selector`` fits its box: no column cut off (scrollWidth <= clientWidth)."""
    widths = page.locator(f"{selector} table").evaluate_all(
        "els => els.map(e => [e.scrollWidth, e.clientWidth, e.parentElement.scrollWidth, e.parentElement.clientWidth])")
    assert widths, selector
    for sw, cw, psw, pcw in widths:
        assert sw <= cw + 1 and psw <= pcw + 1, (selector, widths)


@pytest.fixture(scope="module")
def doubled(server: Server) -> Iterator[ScriptedTable]:
    table = ScriptedTable(server)
    result = table.play_until("doubled")
    assert result["multiplier"] > 1
    yield table
    table.close()


@pytest.mark.parametrize("lang", ["tr", "bg", "en"])
def test_a_deal_scored_whole_fits_the_summary_at_phone_and_desktop_width(browser: Browser, server: Server,
                                                                        doubled: ScriptedTable, lang: str) -> None:
    """Issue 21 (1): the rounding row of a deal scored whole (R10, doubled) used to widen the table to
    470-515 px in a 300-330 px dialog, cutting off the second team's column."""
    for width, height in ((360, 740), (1280, 800)):
        page = doubled.open(browser, width, height, lang)
        page.wait_for_selector("#summary-dialog tr.rounding")
        inside_viewport(page, "#summary-dialog .dialog")
        nothing_clipped(page, "#summary-dialog .dialog")
        # The second team's column is on screen, whole.
        inside_viewport(page, "#summary-dialog thead th:last-child")
        reachable(page, "#summary-ok")
        assert not page.errors  # type: ignore[attr-defined]
        page.context.close()


@pytest.fixture(scope="module")
def my_call(server: Server) -> Iterator[ScriptedTable]:
    """A table at the start of a deal's auction, seat 0 to call with all seven calls before it."""
    table = ScriptedTable(server)
    while (nxt := table.to_move()) is not None and nxt[0] != 0:
        post(server, f"/api/tables/{table.id}/action", {"token": table.tokens[nxt[0]], "action": {"call": "pass"}})
    yield table
    table.close()


@pytest.mark.parametrize("lang", ["en", "bg", "tr"])
def test_phone_auction_keeps_the_hand_in_view(browser: Browser, my_call: ScriptedTable, lang: str) -> None:
    """Issue 21 (6): with seven call buttons the hand was pushed below the fold on a phone."""
    page = my_call.open(browser, 360, 740, lang)
    page.wait_for_selector("[data-call]")
    assert page.locator("[data-call]").count() == 7
    for i in range(7):
        reachable(page, f"[data-call] >> nth={i}")
    cards = page.locator("#hand .card")
    assert cards.count() == 5
    inside_viewport(page, "#hand")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    page.context.close()


FINGER = 40  # px: the least side of a control a finger can hit on a phone

# A checkbox is hit through its label, which toggles it (test_web_layout clicks each label's far
# end to make sure): the label's box is the target.  A <summary> opens its <details>.  A card of the
# hand is hit on its strip: its button and the gap after it, which its face covers (up to the next
# card; the hand test taps each strip's middle).
SMALL_CONTROLS = """min => [...document.querySelectorAll(
        'button, select, input, summary, a.primary, a.secondary, a.round-btn, .topbar a')]
    .filter(e => e.getClientRects().length && getComputedStyle(e).visibility !== 'hidden')
    .map(e => { const target = e.type === 'checkbox' && e.labels.length ? e.labels[0] : e;
                const r = target.getBoundingClientRect();
                const next = e.matches('.hand .card') && e.nextElementSibling;
                const width = next ? next.getBoundingClientRect().left - r.left : r.width;
                return [e.id || e.textContent.trim().slice(0, 20), Math.round(width), Math.round(r.height)]; })
    .filter(([, w, h]) => w < min || h < min)"""


def top_bar_overlaps(page: Page) -> list[Any]:
    """The top bar's shown items that overlap one another or leave the screen."""
    return page.evaluate("""() => {
        const els = [...document.querySelectorAll('.topbar > *, #topbar-extra > *, #account-link a')]
            .filter(e => e.id !== 'topbar-extra' && e.id !== 'account-link' && !e.classList.contains('sr-only')
                && e.getClientRects().length);  // the page's h1 is for a screen reader only: 1 px, clipped
        const out = [];
        els.forEach((a, i) => {
            const r = a.getBoundingClientRect();
            if (r.left < -0.5 || r.right > window.innerWidth + 0.5) out.push(['off screen', a.textContent.trim()]);
            for (const b of els.slice(i + 1)) {
                const s = b.getBoundingClientRect();
                if (r.left < s.right - 0.5 && s.left < r.right - 0.5 && r.top < s.bottom - 0.5 && s.top < r.bottom - 0.5)
                    out.push([a.textContent.trim(), b.textContent.trim()]);
            }
        });
        return out; }""")


@pytest.mark.parametrize("lang", ["tr", "bg", "en"])
def test_phone_controls_are_finger_sized_and_the_top_bar_fits(browser: Browser, server: Server, my_call: ScriptedTable,
                                                              lang: str) -> None:
    """On a phone the calls were 30 px high and the top bar's buttons 22 px; at a table the top bar's
    "Leave the seat" ran under the log-in link (tr, bg). Every control is 40 x 40 px or more, the top
    bar's items are apart and on screen (on a 320 px phone too), and the hand stays in view during
    the auction."""
    page = my_call.open(browser, 360, 740, lang)
    page.wait_for_selector("[data-call]")
    page.wait_for_selector("#login-link")
    assert page.evaluate(SMALL_CONTROLS, FINGER) == []
    assert top_bar_overlaps(page) == []
    inside_viewport(page, "#hand")
    page.click("#btn-sheet")
    page.wait_for_selector("#sheet.open .sheet")
    assert page.evaluate(SMALL_CONTROLS, FINGER) == []
    page.set_viewport_size({"width": 320, "height": 640})  # a small phone: "Giriş yapın" ran under the language list
    assert top_bar_overlaps(page) == []
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto(server.url + "/")  # the lobby's form and lists
    page.wait_for_selector("#create-btn")
    assert page.evaluate(SMALL_CONTROLS, FINGER) == []
    assert top_bar_overlaps(page) == []
    page.set_viewport_size({"width": 320, "height": 640})
    assert top_bar_overlaps(page) == []
    page.context.close()


HAND = """() => {
    const hand = document.querySelector('#hand'), cs = [...hand.querySelectorAll('.card')];
    const pad = parseFloat(getComputedStyle(hand).paddingLeft) + parseFloat(getComputedStyle(hand).paddingRight);
    const boxes = cs.map((c) => c.getBoundingClientRect());
    const strips = boxes.map((r, i) => (i + 1 < boxes.length ? boxes[i + 1].left : r.right) - r.left);
    // room: the row the hand may take; hits: what a tap in the middle of each card's strip hits
    const hits = boxes.map((r, i) => { const e = document.elementFromPoint(r.left + strips[i] / 2, r.top + r.height / 2);
                                       return !!e && e.closest('.card') === cs[i]; });
    return { room: hand.parentElement.clientWidth - pad, width: boxes[boxes.length - 1].width,
             extent: boxes[boxes.length - 1].right - boxes[0].left, strips, hits, gap: boxes.length > 1
             ? parseFloat(getComputedStyle(cs[1]).marginLeft) : 0 }; }"""


def test_the_hand_overlaps_only_as_much_as_its_row_lacks(browser: Browser, server: Server) -> None:
    """A fixed overlap of a third of a card left 37 px of each card to tap on a phone with room to
    spare (five or six cards), and hid two fifths of each card on a 1280 px screen. The cards lie
    side by side where the row has room; where it lacks room they overlap just enough to fill the
    row, all alike; a tap in the middle of each card's part in view hits that card. In each language
    (the same cards, but the table around them is drawn anew)."""
    table = ScriptedTable(server)
    try:
        for played in (1, 9, 17):  # the first trick (7 or 8 cards), the third (5 or 6), the fifth
            table.play_cards(played)
            page = table.open(browser, 360, 740, "bg")
            page.wait_for_selector("#hand .card")
            for lang, (width, height) in itertools.product(("bg", "tr", "en"), ((360, 740), (412, 900), (1280, 800))):
                if page.evaluate("document.documentElement.lang") != lang:
                    page.select_option("#lang", lang)  # the table drawn anew in another language
                    page.wait_for_function(f"document.documentElement.lang === '{lang}'")
                    page.wait_for_selector("#hand .card")
                page.set_viewport_size({"width": width, "height": height})  # the CSS follows the width
                m = page.evaluate(HAND)
                n, gap = len(m["strips"]), max(m["gap"], 0)
                if n * m["width"] + (n - 1) * gap <= m["room"] + 0.5:  # room for all, side by side
                    assert min(m["strips"][:-1], default=m["width"]) >= m["width"] - 0.5, (lang, width, m)
                else:
                    assert m["extent"] >= m["room"] - 1, (lang, width, m)  # the row is used to its end
                    assert max(m["strips"][:-1]) - min(m["strips"][:-1]) < 1, (lang, width, m)
                    assert min(m["strips"][:-1]) >= FINGER - 0.5, (lang, width, m)  # 37 px at 360 px
                assert all(m["hits"]), (lang, width, m)
                assert m["extent"] <= width, (lang, width, m)
            page.context.close()
    finally:
        table.close()


def test_a_covered_control_is_not_reachable(browser: Browser, my_call: ScriptedTable) -> None:
    """The touch check itself: a layer over the call buttons fails it, naming the layer."""
    page = my_call.open(browser, 360, 740, "en")
    page.wait_for_selector("[data-call]")
    reachable(page, "[data-call] >> nth=1")
    page.evaluate("""() => { const d = document.createElement("div"); d.id = "veil";
        d.style.cssText = "position:fixed;inset:0;z-index:99"; document.body.appendChild(d); }""")
    with pytest.raises(AssertionError, match='covered by <div id="veil"'):
        reachable(page, "[data-call] >> nth=1")
    page.context.close()


def test_black_suits_are_black_on_white_buttons_and_yellow_chips(browser: Browser, my_call: ScriptedTable) -> None:
    """Issue 21 (5): ♣ and ♠ were white outlines on the white call buttons and the yellow contract chip."""
    page = my_call.open(browser, 1280, 800, "tr")
    page.wait_for_selector("[data-call='C']")
    fill = "el => getComputedStyle(el).fill"
    for call in ("C", "S"):
        assert page.locator(f"[data-call='{call}'] .suit-icon").evaluate(fill) == "rgb(22, 24, 29)"
    page.context.close()


def test_bulgarian_says_ние_те_and_never_от_вие(browser: Browser, server: Server) -> None:
    """Issue 21 (4): "Вие" named both the player's own seat ("обявена от Вие") and the other team's
    column ("Ние | Вие"); the terminal says "Ние – Те"."""
    table = ScriptedTable(server)
    try:
        while (nxt := table.to_move()) is not None and table.state(0)["view"]["phase"] == "auction":
            seat, view = nxt
            pick = next(a["call"] for a in view["legal"] if a["call"] in ("C", "D", "H", "S")) if seat == 0 else "pass"
            post(server, f"/api/tables/{table.id}/action", {"token": table.tokens[seat], "action": {"call": pick}})
        assert table.state(0)["view"]["declarer"] == 0
        page = table.open(browser, 360, 740, "bg")
        page.wait_for_selector("#contract")
        assert "обявена от вас" in page.inner_text(".info-panel")
        assert "от Вие" not in page.inner_text("body")
        assert page.inner_text("#score-line").startswith("Ние 0") and "Те" in page.inner_text("#score-line")
        page.click("#btn-sheet")
        heads = page.locator("#sheet thead th").all_inner_texts()
        assert heads[-2:] == ["Ние", "Те"]
        page.context.close()
        # The summary's columns too, and the terminal's words.
        from belot.i18n import t as catalog_t
        assert (catalog_t("web.sheet.we", "bg"), catalog_t("web.sheet.they", "bg")) == (
            catalog_t("tui.team.us", "bg"), catalog_t("tui.team.them", "bg"))
    finally:
        table.close()


def test_phone_score_sheet_has_a_close_button_and_hides_nothing_it_should_not(browser: Browser, my_call: ScriptedTable) -> None:
    """Issue 21 (2): on a phone the open score sheet covered its own button, the contract, the score
    and the partner, and only the S and Esc keys (which a phone has not) closed it."""
    page = my_call.open(browser, 360, 740, "tr")
    page.wait_for_selector("[data-call]")
    reachable(page, "#btn-sheet")
    page.click("#btn-sheet")
    page.wait_for_selector("#sheet.open .sheet")
    inside_viewport(page, "#sheet")
    nothing_clipped(page, "#sheet")
    reachable(page, "#sheet-close")
    for still_seen in ("#btn-sheet", "#score-line", ".pos-top .nameplate", ".area-info"):
        reachable(page, still_seen)
    page.click("#sheet-close")
    page.wait_for_selector("#sheet:not(.open)", state="attached")
    assert not page.locator("#sheet .sheet").is_visible()
    reachable(page, "[data-call] >> nth=0")  # the table is usable again
    page.click("#btn-sheet")  # and its own button closes it as well
    page.wait_for_selector("#sheet.open")
    page.click("#btn-sheet")
    page.wait_for_selector("#sheet:not(.open)", state="attached")
    page.context.close()


@pytest.mark.parametrize(("lang", "partner", "us", "them"), [
    ("tr", "eşiniz", "Biz", "Onlar"), ("bg", "партньор", "Ние", "Те"), ("en", "partner", "We", "They")])
def test_the_table_says_who_your_partner_is(browser: Browser, server: Server, my_call: ScriptedTable,
                                            lang: str, partner: str, us: str, them: str) -> None:
    """Issue 21 (3): the seat opposite is marked as the partner (a person by name, a bot by its level),
    the others as the other team, and the score line says which number is whose."""
    page = my_call.open(browser, 360, 740, lang)
    page.wait_for_selector("[data-call]")
    top = page.locator(".seat.pos-top")
    assert top.get_attribute("data-seat") == "2"
    assert top.locator(".chip.partner").inner_text() == partner
    assert "Elif" in top.locator(".name").inner_text()
    assert top.locator(".nameplate.us").count() == 1
    assert page.locator(".seat.pos-left .nameplate.them, .seat.pos-right .nameplate.them").count() == 2
    line = page.inner_text("#score-line")
    assert line.startswith(us) and them in line
    page.context.close()
    # With bots: "Partner (Bot: good)" rather than "Bot: good (3)".
    page = new_page(browser, locale={"tr": "tr-TR", "bg": "bg-BG", "en": "en-US"}[lang])
    create_table(page, server)
    plate = page.locator(".seat.pos-top .nameplate")
    assert plate.locator(".chip.partner").inner_text() == partner
    assert "(3)" not in plate.locator(".name").inner_text()
    assert partner.lower() in (plate.locator(".name").get_attribute("title") or "").lower()
    page.context.close()


def test_the_keyboard_stays_in_an_open_dialog(browser: Browser, server: Server) -> None:
    """The deal summary and the last trick are modal: Tab went on from their buttons to the calls and
    cards under the overlay (Enter then made a call nobody could see), and the last trick opened with
    the focus nowhere. The focus starts on the dialog's button and Tab never reaches the table under it."""
    table = ScriptedTable(server)
    try:
        table.play_until("plain")
        while (nxt := table.to_move()) is not None and nxt[0] != 0:  # seat 0 to call in the next deal
            post(server, f"/api/tables/{table.id}/action", {"token": table.tokens[nxt[0]], "action": {"call": "pass"}})
        page = table.open(browser, 1280, 800, "en")
        page.wait_for_selector("#summary-ok")
        page.wait_for_selector("[data-call]", state="attached")  # the auction, under the summary
        under = "() => !!document.activeElement.closest('.game')"
        assert page.evaluate("document.activeElement.id") == "summary-ok"
        for _ in range(12):
            page.keyboard.press("Tab")
            assert not page.evaluate(under), page.evaluate("document.activeElement.outerHTML.slice(0, 120)")
        page.click("#summary-ok")
        page.keyboard.press("l")
        page.wait_for_selector("#last-dialog")
        assert page.evaluate("!!document.activeElement.closest('#last-dialog')")
        for _ in range(12):
            page.keyboard.press("Tab")
            assert not page.evaluate(under), page.evaluate("document.activeElement.outerHTML.slice(0, 120)")
        waiting = table.to_move()
        page.keyboard.press("1")  # a number key makes no call from behind the dialog either
        page.wait_for_timeout(700)
        assert table.to_move() == waiting
        page.keyboard.press("Escape")
        page.wait_for_selector("#last-dialog", state="detached")
        page.keyboard.press("Tab")
        page.wait_for_function("!document.querySelector('.game').inert")  # the table is usable again
        page.context.close()
    finally:
        table.close()


def test_the_summary_says_which_declarations_counted(browser: Browser, server: Server) -> None:
    """Issue 21 (10): the summary lists each declaration with its points and whether it counted (R7.6),
    as the terminal does."""
    table = ScriptedTable(server)
    try:
        result = table.play_until("declared", deals=20)
        detail = [d for seat in result["declared_detail"] for d in seat]
        for team in (0, 1):  # the server's verdicts agree with the points it wrote
            counted = sum(d["value"] for s, seat in enumerate(result["declared_detail"]) for d in seat if d["counted"] and s % 2 == team)
            assert counted == result["declarations"][team]
        page = table.open(browser, 360, 740, "tr")
        page.wait_for_selector("#summary-dialog ul.declared li")
        items = page.locator("#summary-dialog ul.declared li")
        assert items.count() == len(detail)
        for i, d in enumerate(detail):
            text = items.nth(i).inner_text()
            assert f"({d['value']})" in text
            assert ("geçerli" if d["counted"] else "iptal") in text
        nothing_clipped(page, "#summary-dialog .dialog")
        page.context.close()
    finally:
        table.close()


def test_a_player_coming_by_link_is_asked_for_a_name_and_the_lobby_lists_your_tables(browser: Browser, server: Server) -> None:
    """Issue 21 (12, 11): someone who opens the table link types a name before sitting down (else the
    table called them "Seat 3"); the lobby lists the running tables this browser has a seat at."""
    a = new_page(browser, locale="tr-TR")
    tid = create_table(a, server, seats=("bot:random", "human", "bot:random"), name="Ayşe")
    b = new_page(browser, width=360, height=740, locale="tr-TR")
    b.goto(f"{server.url}/t/{tid}")
    b.wait_for_selector("#join-name")
    reachable(b, "#join-name")
    b.click("[data-sit='2']")  # no name yet: asked for one, not seated
    b.wait_for_selector("#name-needed:not(.hidden)")
    assert server.get(f"/api/tables/{tid}")["table"]["seats"][2]["taken"] is False
    b.fill("#join-name", "Mehmet")
    b.click("[data-sit='2']")
    b.wait_for_selector("#hand .card")
    assert server.get(f"/api/tables/{tid}")["table"]["seats"][2]["name"] == "Mehmet"
    a.wait_for_function("document.querySelector('.seat.pos-top .name').textContent.includes('Mehmet')")
    assert a.locator(".seat.pos-top .chip.partner").inner_text() == "eşiniz"
    # Back in the lobby, each page finds its own running table there, with a way back to it.
    for page in (a, b):
        page.goto(server.url + "/")
        page.wait_for_selector(f"#my-tables li[data-table='{tid}']")
        page.click(f"#my-tables li[data-table='{tid}'] a")
        page.wait_for_selector("#hand .card")
    assert not a.errors and not b.errors  # type: ignore[attr-defined]
    a.context.close()
    b.context.close()


def test_a_double_click_creates_one_table_and_joins_once(browser: Browser, server: Server) -> None:
    """A double click on "Create the table" made two tables (the first left behind with a seat held
    for nobody), and on "Join" a seat and then an error that every seat was taken."""
    a = new_page(browser)
    a.goto(server.url + "/")
    a.wait_for_selector("#create-btn")
    a.fill("#name", "Çift Tık")
    a.select_option("#seat2", "human")
    a.dblclick("#create-btn")
    a.wait_for_selector(".felt")
    tid = table_id(a)
    a.wait_for_timeout(500)  # a second table would have been made by now
    made = [x["id"] for x in server.get("/api/tables?all=1")["tables"] if x["seats"][0]["name"] == "Çift Tık"]
    assert made == [tid]
    assert a.evaluate("Object.keys(localStorage).filter(k => k.startsWith('belot.token.'))") == [f"belot.token.{tid}"]
    b = new_page(browser)
    b.goto(server.url + "/")
    b.fill("#name", "Mehmet")
    b.dblclick(f"#open-tables li[data-table='{tid}'] [data-join]")
    b.wait_for_selector("#hand .card")
    b.wait_for_timeout(500)
    assert b.locator("#toast").is_hidden(), b.inner_text("#toast")
    assert server.get(f"/api/tables/{tid}")["table"]["seats"][2]["name"] == "Mehmet"
    assert not a.errors and not b.errors  # type: ignore[attr-defined]
    a.context.close()
    b.context.close()


def test_a_name_field_takes_no_more_than_the_server_keeps(browser: Browser, server: Server) -> None:
    """The name fields let 40 characters be typed, the server takes 32 (server/names.py): a longer
    name typed in the lobby or at a table's link got an English error and no table or seat. Typing
    stops at the longest name the server keeps, and that name plays."""
    from belot.server.names import MAX_NAME

    long_name = "Александра-Магдалена Костадинова Петрова"
    assert len(long_name) > MAX_NAME
    a = new_page(browser, locale="bg-BG")
    a.goto(server.url + "/")
    a.wait_for_selector("#name")
    a.select_option("#seat2", "human")
    a.click("#name")
    a.keyboard.type(long_name)
    assert a.input_value("#name") == long_name[:MAX_NAME]
    a.click("#create-btn")
    a.wait_for_selector(".felt")
    tid = table_id(a)
    assert server.get(f"/api/tables/{tid}")["table"]["seats"][0]["name"] == long_name[:MAX_NAME]
    b = new_page(browser, locale="bg-BG")
    b.goto(f"{server.url}/t/{tid}")
    b.click("#join-name")
    b.keyboard.type(long_name[::-1])
    b.click("[data-sit='2']")
    b.wait_for_selector("#hand .card")
    assert server.get(f"/api/tables/{tid}")["table"]["seats"][2]["name"] == long_name[::-1][:MAX_NAME].strip()
    assert not a.errors and not b.errors  # type: ignore[attr-defined]
    a.context.close()
    b.context.close()


def test_a_selection_in_the_lobby_form_outlives_the_lists_arriving(browser: Browser, server: Server) -> None:
    """The lobby draws itself again when its lists arrive (or on Refresh) and gives the focus back to
    the field being typed in. The target was a number field, whose selection the page cannot read: a
    person who had selected "151" to type "1" over it got "1151" when the lists came between (a
    fresh-clone CI run of stop 62 made a table to 1151 so). Every field keeps its selection."""
    page = new_page(browser)
    page.goto(server.url + "/")
    page.wait_for_selector("#create-btn")
    for field in ("#target", "#name"):
        page.fill(field, "151")
        page.focus(field)
        page.evaluate("sel => document.querySelector(sel).select()", field)
        old = page.query_selector(field)
        # The lists arrive while the field keeps the focus (a click on Refresh would take it).
        page.evaluate("document.querySelector('#refresh').click()")
        page.wait_for_function("el => !el.isConnected", arg=old)
        page.keyboard.type("1")
        assert page.input_value(field) == "1", field
    assert not page.errors  # type: ignore[attr-defined]
    page.context.close()


@pytest.mark.parametrize("lang", ["tr", "bg", "en"])
def test_a_target_that_is_no_whole_number_from_1_to_the_largest_is_refused_in_the_pages_language(
        browser: Browser, server: Server, lang: str) -> None:
    """The target field takes a whole number from 1 to game.MAX_TARGET. A typed "0" made a table to
    151 (the page read it as no number); anything else out of range is kept from being sent with
    the reason in the page's language, and no table is made."""
    from belot.game import MAX_TARGET
    from belot.i18n import catalog

    page = new_page(browser, width=360)
    page.context.add_init_script(f"localStorage.setItem('belot.lang', '{lang}');")
    page.goto(server.url + "/")
    page.wait_for_load_state("networkidle")
    before = len(server.get("/api/tables?all=1")["tables"])
    reason = catalog(lang)["web.lobby.target_range"].replace("{n}", str(MAX_TARGET))
    for typed in ("", "0", "00", "abc", "1e3", "-5", "2.5", " 7", str(MAX_TARGET + 1)):
        page.fill("#target", typed)
        page.click("#create-btn")
        assert page.evaluate("document.querySelector('#target').validationMessage") == reason, typed
        assert page.url.rstrip("/") == server.url, typed
    assert len(server.get("/api/tables?all=1")["tables"]) == before
    page.fill("#target", str(MAX_TARGET))
    assert page.evaluate("document.querySelector('#target').validationMessage") == ""
    page.click("#create-btn")
    page.wait_for_selector(".felt")
    assert server.get(f"/api/tables/{table_id(page)}")["table"]["target"] == MAX_TARGET
    assert not page.errors  # type: ignore[attr-defined]
    page.context.close()


def test_phone_header_names_watching_and_trick_count(browser: Browser, server: Server) -> None:
    """Issue 21 (13): on a phone the Bulgarian header stays one line, seat names are whole, the
    spectator's "You are watching" is inside the felt, and the table counts the tricks."""
    table = ScriptedTable(server)
    try:
        table.play_cards(6)
        page = table.open(browser, 360, 740, "bg")
        page.wait_for_selector("#trick-count")
        # the score tied into one line: no-break spaces, a word joiner after the dash
        assert re.fullmatch(r"Взятка 2/8 · взятки: Ние\s\d\s–\u2060?\s\d\sТе", page.inner_text("#trick-count"))
        tops = page.locator(".topbar > *:not(.hidden):not(.sr-only)").evaluate_all(
            "els => els.filter(e => e.getClientRects().length).map(e => e.getBoundingClientRect().top)")
        assert max(tops) - min(tops) < 12, "the header wrapped"
        assert page.locator(".topbar").bounding_box()["height"] < 48  # type: ignore[index]
        for name in page.locator(".seat .name").all():
            assert name.evaluate("e => e.scrollWidth <= e.clientWidth + 1 && e.scrollHeight <= e.clientHeight + 1"), name.inner_text()
        page.context.close()
        watcher = new_page(browser, width=360, height=740, locale="bg-BG")
        watcher.goto(f"{server.url}/t/{table.id}")
        watcher.wait_for_selector("#watching")
        felt, note = settled_box(watcher, ".felt"), settled_box(watcher, "#watching")  # a redraw may detach them
        assert felt and note and note["y"] + note["height"] <= felt["y"] + felt["height"] - 9  # clear of the wooden rim
        watcher.context.close()
    finally:
        table.close()


@pytest.mark.parametrize(("lang", "bot"), [("en", "bot:random"), ("bg", "bot:heuristic"), ("tr", "bot:random")])
def test_phone_side_seats_name_their_bots_whole(browser: Browser, server: Server, lang: str, bot: str) -> None:
    """On a phone the side seats' two-line names cut "Bot: random (2)" to "Bot: random…": the seat
    number, all that tells two bots of one level apart, was lost. The names are whole."""
    page = new_page(browser, width=360, height=740, locale={"tr": "tr-TR", "bg": "bg-BG", "en": "en-US"}[lang])
    page.goto(server.url + "/")
    page.wait_for_selector("#create-btn")
    for i in (1, 2, 3):
        page.select_option(f"#seat{i}", bot)
    page.click("#create-btn")
    page.wait_for_selector(".seat.pos-left .name")
    for side in ("left", "right"):
        name = page.locator(f".seat.pos-{side} .name")
        assert re.search(r"\([24]\)$", name.inner_text().strip())
        assert name.evaluate("e => e.scrollWidth <= e.clientWidth + 1 && e.scrollHeight <= e.clientHeight + 1"), name.inner_text()
    page.context.close()


def test_phone_lobby_background_reaches_past_the_last_box(browser: Browser, server: Server) -> None:
    """Issue 21 (13): on a phone the lobby is longer than the screen; the felt colour goes on below
    the last box instead of ending at the first screenful."""
    page = new_page(browser, width=360, height=740, locale="bg-BG")
    page.goto(server.url + "/")
    page.wait_for_selector("#create-btn")
    assert page.evaluate("document.documentElement.scrollHeight") > 740
    assert page.evaluate("getComputedStyle(document.documentElement).backgroundColor") not in ("rgba(0, 0, 0, 0)", "transparent")
    page.context.close()


def test_a_deal_scored_whole_fits_the_replay_summary_on_a_phone(browser: Browser, server: Server) -> None:
    """Issue 21 (1), in the replay: the summary of a doubled deal keeps both teams' columns."""
    table = ScriptedTable(server, target=1)
    try:
        table.play_until("doubled")
        table.play_out("plain")
        deals = server.get(f"/api/tables/{table.id}/replay")["results"]["deals"]
        index = next(i for i, d in enumerate(deals) if d.get("multiplier", 1) > 1)
        page = new_page(browser, width=360, height=740, locale="tr-TR")
        page.goto(f"{server.url}/replay/{table.id}")
        page.wait_for_selector(".replay .open-hand")
        for _ in range(index):
            page.keyboard.press("PageDown")
        page.keyboard.press("End")
        page.wait_for_selector("#replay-summary tr.rounding")
        nothing_clipped(page, "#replay-summary")
        box = page.locator("#replay-summary").bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= 360
        page.context.close()
    finally:
        table.close()


# -- issue 22: the analysis of a finished game --------------------------------------------------


def finished_bot_game(server: Server, target: int = 1) -> str:
    """A bot-only match to ``target``: over after its first deal with a contract (for target 1)."""
    tid = post(server, "/api/tables", {"seats": ["bot:random"] * 4, "target": target})["table"]["id"]
    deadline = time.monotonic() + 30
    while server.get(f"/api/tables/{tid}")["table"]["status"] != "finished":
        assert time.monotonic() < deadline, "the bots did not finish"
        time.sleep(0.1)
    return tid


def analysis_of(server: Server, tid: str) -> dict[str, Any]:
    """The game's analysis (one world a decision: quick), as the server would compute it."""
    from belot.analysis import Analyst, analyze_match
    from belot.record import replay

    record = server.get(f"/api/tables/{tid}/record")
    return analyze_match(replay(record), record["players"], analyst=Analyst(0, 1, 1)).to_json()


def inject_analysis(server: Server, tid: str, doc: dict[str, Any] | None = None) -> dict[str, Any]:
    """The game's analysis (``doc``, else computed by `analysis_of`), stored as the server would store it."""
    import sqlite3

    doc = analysis_of(server, tid) if doc is None else doc
    total = sum(len(d["decisions"]) for d in doc["deals"])
    with sqlite3.connect(server.db) as con:
        con.execute("insert into belot_analyses values (?, 'done', ?, ?, ?, ?)",
                    (tid, total, total, json.dumps(doc), time.time()))
    return doc


def test_the_analysis_of_a_finished_game_in_the_replay(browser: Browser, server: Server) -> None:
    """Issue 22: the lobby's finished game opens the replay in analysis mode: a chart with one point a
    decision of the deal, the best card marked in the hand and in the list, each player's figures;
    nothing of the panel is cut off at 360 or 1280 px."""
    tid = finished_bot_game(server)
    doc = inject_analysis(server, tid)
    deal = doc["deals"][0]
    assert deal["deal"] == 0
    page = new_page(browser)
    page.goto(server.url + "/")
    page.click(f"#finished-tables li[data-table='{tid}'] a.analysis-link")
    page.wait_for_selector("#analysis-chart")
    assert page.url.endswith(f"/replay/{tid}?analysis")
    assert page.locator("#analysis-chart .pt").count() == len(deal["decisions"])
    assert page.locator("#analysis-decisions .decision").count() == len(deal["decisions"])
    classes = page.locator("#analysis-chart .pt").evaluate_all("els => els.map(e => e.classList[1])")
    assert classes == [d["class"] for d in deal["decisions"]]

    # the first card decision: the replay goes to it, its best card(s) marked in the player's hand
    i, first = next((i, d) for i, d in enumerate(deal["decisions"]) if d["kind"] == "card")
    best = {o["action"] for o in first["options"] if o["expected"] >= first["options"][0]["expected"] - 1e-6}
    page.click(f"#analysis-decisions .decision[data-i='{i}']")
    page.wait_for_selector(f"#analysis-chart .pt.current[data-i='{i}']")
    marked = page.locator(f".replay .seat[data-seat='{first['seat']}'] .card-slot.best-card")
    assert set(marked.evaluate_all("els => els.map(e => e.dataset.card)")) == best
    assert page.locator(".replay .card-slot.best-card").count() == len(best)
    listed = page.locator(f"#analysis-decisions .decision[data-i='{i}'] .best-option")
    assert set(listed.evaluate_all("els => els.map(e => e.dataset.option)")) == best

    # each player's summary of the deal: accuracy and class counts as the document says
    for s in deal["summary"]:
        box = page.locator(f"#analysis-deal-summary .player[data-seat='{s['seat']}']")
        acc = box.locator(".accuracy").inner_text()
        assert acc == ("–" if s["accuracy"] is None else f"{round(s['accuracy'], 1):g}%"), (acc, s)
        for c, n in s["classes"].items():
            assert box.locator(f".cls[data-class='{c}']").inner_text().endswith(f": {n}")
    assert page.locator("#analysis-game-summary .player").count() == 4
    assert page.errors == []  # type: ignore[attr-defined]

    for width, height in ((360, 740), (1280, 800)):
        page.evaluate("window.__chart = document.querySelector('#analysis-chart')")
        page.set_viewport_size({"width": width, "height": height})
        # the chart is drawn again for the new width (150 ms after the last resize event)
        page.wait_for_function("document.querySelector('#analysis-chart') !== window.__chart")
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1"), width
        out = page.locator("#analysis, #analysis *").evaluate_all("""els => els.filter(e => {
            const r = e.getBoundingClientRect();
            if (!r.width && !r.height) return false;
            return r.left < -0.5 || r.right > window.innerWidth + 0.5 || e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX !== 'visible';
        }).map(e => e.tagName + '.' + (e.className.baseVal ?? e.className))""")
        assert out == [], (width, out)
        if os.environ.get("BELOT_WRITE_SCREENSHOTS") == "1" or os.environ.get("BELOT_ANALYSIS_SHOTS"):
            folder = Path(os.environ.get("BELOT_ANALYSIS_SHOTS") or SCREENSHOTS)
            page.locator("#analysis").screenshot(path=str(folder / f"analysis-{width}.png"))
    page.context.close()


def test_a_picked_belote_decision_is_the_one_marked_current(browser: Browser, server: Server) -> None:
    """A belote is a decision of its own, made at its card's step (after the card's, or alone where the
    card was forced). Picking it marked the card's decision, or none, as current: a person saw another
    row lit than the one picked (and a CI run waited for the picked row in vain). Every decision picked,
    from the list or the chart, is the one marked; the best cards shown stay those of the step's card."""
    for _ in range(80):  # the server deals at random: bot games until one deal has a belote decision
        tid = finished_bot_game(server)
        doc = analysis_of(server, tid)
        deal = next((d for d in doc["deals"] if any(x["kind"] == "belote" for x in d["decisions"])), None)
        if deal is not None:
            break
    assert deal is not None, "no belote in 80 deals of random bots"
    inject_analysis(server, tid, doc)
    page = new_page(browser)
    page.goto(f"{server.url}/replay/{tid}?analysis")
    page.wait_for_selector("#analysis-chart")
    for _ in range(deal["deal"]):
        page.click("[data-go='nextdeal']")
    page.wait_for_selector(f"#analysis-decisions .decision >> nth={len(deal['decisions']) - 1}")
    assert page.locator("#analysis-decisions .decision").count() == len(deal["decisions"])
    for i, d in enumerate(deal["decisions"]):
        where = "#analysis-decisions .decision" if i % 2 else "#analysis-chart .pt"
        page.click(f"{where}[data-i='{i}']")
        page.wait_for_selector(f"#analysis-decisions .decision.current[data-i='{i}']")
        assert page.locator("#analysis-decisions .decision.current").count() == 1
        assert page.locator(f"#analysis-chart .pt.current[data-i='{i}']").count() == 1
        if d["kind"] != "belote":
            continue
        # the step's own decision (its card's, or a declaration made with it): None where the card was forced
        mine = next((j for j, x in enumerate(deal["decisions"]) if x["kind"] != "belote" and x["play"] == d["play"]), None)
        own = deal["decisions"][mine] if mine is not None else None
        marked = page.locator(".replay .card-slot.best-card").evaluate_all("els => els.map(e => e.dataset.card)")
        if own is None or own["kind"] != "card":
            assert marked == []
        else:
            top = max(o["expected"] for o in own["options"])
            assert set(marked) == {o["action"] for o in own["options"] if o["expected"] >= top - 1e-6}
        # a step away and back by the keys: the step's own decision is current again, not the belote
        page.keyboard.press("ArrowRight")
        page.keyboard.press("ArrowLeft")
        if mine is None:
            page.wait_for_selector("#analysis-decisions .decision.current", state="detached")
        else:
            page.wait_for_selector(f"#analysis-decisions .decision.current[data-i='{mine}']")
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()


REFUSED_STORAGE = {
    # site data blocked: any use of localStorage throws
    "blocked": "Object.defineProperty(window, 'localStorage', "
               "{get() { throw new DOMException('site data is blocked', 'SecurityError'); }});",
    # a full quota: every write throws
    "full": "Storage.prototype.setItem = function () { throw new DOMException('the quota is full', 'QuotaExceededError'); };",
}


@pytest.mark.parametrize("refused", sorted(REFUSED_STORAGE))
def test_a_browser_that_refuses_its_storage_still_plays(browser: Browser, server: Server, refused: str) -> None:
    """A browser with the site's data blocked throws on any use of localStorage, one with a full quota on
    each write: the page read the language there before drawing anything and stayed blank, or lost the
    token of the seat it had just been given. Now the game goes on, what the page keeps held in memory
    for the page's life: the seat acts, the lobby lists it as the player's, the language changes."""
    page = new_page(browser)
    page.context.add_init_script(REFUSED_STORAGE[refused])
    tid = create_table(page, server, name="Ayşe")
    assert act_once(page, server, bid=True) == "call"  # the token, kept in memory, is accepted (a bid: no summary in the way)
    page.click("#brand")  # in the page: the lobby lists the table as this browser's
    page.wait_for_selector(f"#my-tables li[data-table='{tid}']")
    assert page.input_value("#name") == "Ayşe"
    page.select_option("#lang", "bg")
    page.wait_for_function("document.querySelector('#brand').textContent === 'Белот'")
    page.click(f"#my-tables li[data-table='{tid}'] a.primary")
    page.wait_for_selector(".felt")
    assert page.locator("#hand .card").count() >= 5  # seat 0's own hand: the token still holds
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()


def test_the_analysis_of_an_unfinished_game_is_refused(server: Server) -> None:
    tid = post(server, "/api/tables", {"seats": ["human", "bot:random", "bot:random", "bot:random"]})["table"]["id"]
    with pytest.raises(urllib.error.HTTPError) as e:
        server.get(f"/api/tables/{tid}/analysis")
    assert e.value.code == 409 and json.load(e.value)["error"]["code"] == "not_finished"


def test_the_page_starts_the_analysis_and_shows_its_progress(browser: Browser, server: Server) -> None:
    """Issue 22 for real: nothing stored yet, the page asks for the analysis, shows the progress while
    the server's worker computes it (8 worlds a decision), then the chart of the stored result."""
    tid = finished_bot_game(server)
    page = new_page(browser, width=360, height=740)
    page.goto(f"{server.url}/replay/{tid}")
    page.wait_for_selector(".replay .open-hand")
    assert page.locator("#analysis").count() == 0
    page.click("#analysis-toggle")
    page.wait_for_selector("#analysis-progress, #analysis-chart")
    page.wait_for_selector("#analysis-chart", timeout=180_000)
    job = server.get(f"/api/tables/{tid}/analysis")
    assert job["status"] == "done" and job["progress"]["done"] == job["progress"]["total"]
    first = next(d for d in job["result"]["deals"] if d["deal"] == 0)
    assert page.locator("#analysis-chart .pt").count() == len(first["decisions"])
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()


@pytest.fixture(scope="module")
def rematch(server: Server) -> Iterator[ScriptedTable]:
    """The rematch of a finished four-person match, asked for by seat 0 only: seats 1-3 are kept
    for their players (`--rematch-hold`, 120 s by default)."""
    old = ScriptedTable(server, target=1)
    # the server deals at random, and a valat (R12.2) or a tie does not end the match: play it out
    old.play_out("plain")
    assert server.get(f"/api/tables/{old.id}")["table"]["status"] == "finished"
    got = post(server, f"/api/tables/{old.id}/rematch", {"token": old.tokens[0]})
    old.close()
    yield ScriptedTable.seat_zero_of(server, got["table"]["id"], got["token"])


@pytest.mark.parametrize("lang", ["tr", "bg", "en"])
def test_a_rematchs_kept_seats_are_named_and_fit_at_phone_and_desktop_width(
        browser: Browser, server: Server, rematch: ScriptedTable, lang: str) -> None:
    """A rematch keeps the other players' seats for them: the table names each kept seat in the
    page's language, nothing runs off the screen at 360 or 1280 px, and a stranger who comes by the
    link is offered no seat."""
    kept = {"tr": "(oyuncusuna ayrıldı)", "bg": "(запазено за играча си)", "en": "(kept for its player)"}[lang]
    seats = server.get(f"/api/tables/{rematch.id}")["table"]["seats"]
    assert [s["reserved"] for s in seats] == [False, True, True, True]
    for width, height in ((360, 740), (1280, 800)):
        page = rematch.open(browser, width, height, lang)
        page.wait_for_function("t => document.body.innerText.includes(t)", arg=kept)
        # the boxes of every shown element holding the text, measured at one moment in the page (a
        # box asked for element by element may meet one the table has just drawn again: none)
        boxes = page.evaluate("""t => {
            const w = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
            const out = [];
            for (let n = w.nextNode(); n; n = w.nextNode()) {
                const r = n.parentElement.getBoundingClientRect();
                if (n.parentElement.closest('.sr-only')) continue;  // said to a screen reader, not shown (#announce)
                if (n.textContent.includes(t) && r.width > 0 && r.height > 0) out.push([r.left, r.right]);
            }
            return out; }""", kept)
        assert boxes and all(left >= -0.5 and right <= width + 0.5 for left, right in boxes), (kept, boxes)
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        assert not page.errors  # type: ignore[attr-defined]
        page.context.close()
        stranger = new_page(browser, width=width, height=height)
        stranger.context.add_init_script(f"localStorage.setItem('belot.lang', '{lang}');")
        stranger.goto(f"{server.url}/t/{rematch.id}")
        stranger.wait_for_selector(".felt")
        stranger.wait_for_function("t => document.body.innerText.includes(t)", arg=kept)
        assert stranger.locator("[data-sit], .seat-chooser").count() == 0
        assert stranger.evaluate("document.documentElement.scrollWidth") <= width
        assert not stranger.errors  # type: ignore[attr-defined]
        stranger.context.close()
