"""House rules chosen at a table in the browser (issue 23; docs/rules.md section 6): the new-table
form's house-rules section, the options shown at the table and in the replay, and surkontra
(OPT-SURCONTRA, R3.3, R11.4) named on its call button, in the bubbles and as ×8.  Layout at 360 and
1280 px: the form's section and the options line are whole inside the viewport."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import test_web
from test_web import Browser, Page, Server, act_once, new_page, post
from test_web_layout import LANGS
from test_web_pages_layout import assert_pages_fit, catalog

import belot
import belot.contracts

browser = test_web.browser  # test_web's fixtures: one Chromium and one `belot serve` for this module too
server = test_web.server

pytestmark = pytest.mark.browser

CHOSEN = ["OPT-SURCONTRA", "OPT-NONZERO"]


def not_clipped(page: Page, selector: str) -> None:
    """Every element matching ``selector`` is inside the viewport's width and shows all its text."""
    width = page.viewport_size["width"]  # type: ignore[index]
    # The page redraws when its data arrives: measure once every match is laid out (none detached).
    page.wait_for_function("""sel => { const els = [...document.querySelectorAll(sel)];
        return els.length > 0 && els.every(e => e.isConnected && e.getBoundingClientRect().width > 0); }""", arg=selector)
    boxes = page.locator(selector).evaluate_all("""els => els.map(e => {
        const r = e.getBoundingClientRect();
        return [r.left, r.right, e.scrollWidth, e.clientWidth, r.width]; })""")
    assert boxes, selector
    for left, right, sw, cw, w in boxes:
        assert left >= -0.5 and right <= width + 0.5, (selector, boxes)
        assert w > 0 and sw <= cw + 1, (selector, boxes)
    assert page.evaluate("document.documentElement.scrollWidth") <= width


@pytest.mark.parametrize("width, height", [(360, 740), (1280, 800)])
def test_house_rules_form_fits_and_capot_options_exclude_each_other(browser: Browser, server: Server,
                                                                   width: int, height: int) -> None:
    for lang in ("en", "tr", "bg"):
        page = new_page(browser, width=width, height=height)
        page.context.add_init_script(f"localStorage.setItem('belot.lang', '{lang}');")
        page.goto(server.url + "/")
        page.wait_for_load_state("networkidle")  # the lobby has its bots and tables: no redraw under the checks
        page.wait_for_selector("#house-rules-form input[data-option='OPT-NONZERO']")
        assert page.locator("#house-rules-form input[data-option]").count() == 11  # all but OPT-LATE-DECLARE
        not_clipped(page, "#house-rules-form")
        not_clipped(page, "#house-rules-form label.house-rule")
        not_clipped(page, "#house-rules-form .help")
        assert "web.options" not in page.inner_text("#house-rules-form")  # every key translated
        ni, en = "#opt-OPT-CAPOT-NI", "#opt-OPT-CAPOT-EN"
        page.check(ni)
        page.check(en)
        assert page.is_checked(en) and not page.is_checked(ni)
        page.check(ni)
        assert page.is_checked(ni) and not page.is_checked(en)
        assert not page.errors  # type: ignore[attr-defined]
        page.context.close()


def test_a_table_made_with_two_house_rules_plays_a_deal_and_shows_them_at_the_table_and_in_the_replay(
        browser: Browser, server: Server) -> None:
    page = new_page(browser)
    page.goto(server.url + "/")
    page.fill("#name", "Ayşe")
    page.fill("#target", "1")  # the first scored deal ends the match
    for opt in CHOSEN:
        page.check(f"#opt-{opt}")
    page.click("#create-btn")
    page.wait_for_selector(".felt")
    tid = page.url.rstrip("/").split("/t/")[1]
    table = server.get(f"/api/tables/{tid}")["table"]
    assert table["options"] == CHOSEN and table["target"] == 1
    line = page.locator(".house-rules")
    assert [line.locator(".chip").nth(i).get_attribute("data-option") for i in range(2)] == CHOSEN
    assert "Surcontra ×8" in line.inner_text() and "Points never round to 0" in line.inner_text()
    not_clipped(page, ".house-rules .chip")
    line.locator("summary").click()  # the explanations opened at the table (and kept there)...
    line.locator(".rule-help").wait_for(state="visible")
    first = True
    for _ in range(800):
        what = act_once(page, server, bid=first)
        first = first and what != "call"
        if what == "end":
            break
    else:
        raise AssertionError("the match did not end")
    assert server.get(f"/api/tables/{tid}/record")["options"] == CHOSEN
    page.click(f"#match-end a[href='/replay/{tid}']")
    page.wait_for_selector(".replay .open-hand")
    shown = page.locator(".house-rules .chip").evaluate_all("els => els.map(e => e.dataset.option)")
    assert shown == CHOSEN
    # ...are the table's: its replay's line starts shut (one id for both kept it open there)
    assert not page.locator(".replay .house-rules").evaluate("d => d.open")
    assert not page.locator(".replay .house-rules .rule-help").is_visible()
    not_clipped(page, ".house-rules .chip")
    assert not page.errors  # type: ignore[attr-defined]


# -- surkontra at the table (OPT-SURCONTRA) ----------------------------------------------------


class SurkontraTable:
    """Four human seats over the HTTP API under OPT-SURCONTRA: the other team bids, seat 0's team
    doubles, the bidders redouble, and the auction stops with seat 0 to say surkontra."""

    def __init__(self, server: Server) -> None:
        self.server = server
        created = post(server, "/api/tables", {"target": 1001, "seats": ["human"] * 4, "seat": 0, "name": "Ayşe",
                                               "options": ["OPT-SURCONTRA"]})
        self.id = created["table"]["id"]
        self.tokens = [created["token"]]
        for seat in (1, 2, 3):
            self.tokens.append(post(server, f"/api/tables/{self.id}/join", {"seat": seat, "name": f"P{seat}"})["token"])

    def view(self, seat: int) -> dict[str, Any]:
        return self.server.get(f"/api/tables/{self.id}/state?token={self.tokens[seat]}")["view"]

    def to_surkontra(self) -> dict[str, Any]:
        for _ in range(400):
            seat = self.view(0)["to_move"]
            v = self.view(seat)
            names = [a["call"] for a in v["legal"] if "call" in a]
            ours = seat % 2 == 0
            if seat == 0 and v["multiplier"] == 4 and "kontra" in names:
                return v
            if not names:  # the auction went otherwise: play the deal out
                action = next(a for a in v["legal"] if "card" in a)
            elif not ours and not v["contract"] and any(c in "CDHS" for c in names if len(c) == 1):
                action = {"call": next(c for c in names if c in ("C", "D", "H", "S"))}
            elif ours and v["contract"] and v["multiplier"] == 1 and "kontra" in names:
                action = {"call": "kontra"}
            elif not ours and v["multiplier"] == 2 and "rekontra" in names:
                action = {"call": "rekontra"}
            else:
                action = {"call": "pass"} if names else action
            post(self.server, f"/api/tables/{self.id}/action", {"token": self.tokens[seat], "action": action})
        raise AssertionError("seat 0 was never offered surkontra")

    def open(self, browser: Browser, width: int, height: int) -> Page:
        page = new_page(browser, width=width, height=height)
        page.context.add_init_script(f"localStorage.setItem('belot.token.{self.id}', '{self.tokens[0]}');"
                                     "localStorage.setItem('belot.lang', 'en');")
        page.goto(f"{self.server.url}/t/{self.id}")
        page.wait_for_selector(".felt")
        return page


@pytest.fixture(scope="module")
def surkontra(server: Server) -> Iterator[SurkontraTable]:
    table = SurkontraTable(server)
    table.to_surkontra()
    yield table


def test_surkontra_is_named_on_its_button_in_the_bubble_and_as_x8(browser: Browser, server: Server,
                                                                  surkontra: SurkontraTable) -> None:
    """R3.3: over a rekontra the kontra action is a surkontra; the table names it and shows ×8 (R11.4)."""
    page = surkontra.open(browser, 360, 740)
    button = page.locator("[data-call='kontra']")
    button.wait_for()
    assert "Surcontra" in button.inner_text() and "Double" not in button.inner_text()
    assert page.inner_text(".info-panel .chip.kontra") == "Redouble ×4"
    not_clipped(page, ".house-rules .chip")
    button.click()
    # (not the info panel's text: its house-rules line says "Surcontra ×8" from the start)
    page.wait_for_function("(document.querySelector('.info-panel .chip.kontra') || {}).innerText === 'Surcontra ×8'")
    assert "Surcontra" in page.inner_text(".pos-bottom .bubble, .area-bottom .bubble")
    assert surkontra.view(0)["multiplier"] == 8 and surkontra.view(0)["calls"][-1]["call"] == "surkontra"
    page.set_viewport_size({"width": 1280, "height": 800})
    not_clipped(page, ".house-rules .chip")
    assert not page.errors  # type: ignore[attr-defined]


def test_the_lobby_lists_an_open_tables_house_rules(browser: Browser, server: Server) -> None:
    created = post(server, "/api/tables", {"seats": ["human", "human", "bot:random", "bot:random"],
                                           "options": ["OPT-CAPOT-EN", "OPT-VALAT-NO-DOUBLE"]})
    tid = created["table"]["id"]
    page = new_page(browser, width=360, height=740)
    page.context.add_init_script("localStorage.setItem('belot.lang', 'bg');")
    page.goto(server.url + "/")
    line = page.locator(f"#rules-{tid}")
    line.wait_for()
    assert "Капото вдига целта" in line.inner_text() and "Капото не се удвоява" in line.inner_text()
    not_clipped(page, f"#rules-{tid} .chip")
    assert not page.errors  # type: ignore[attr-defined]


# -- a house rule's explanation, by touch and keyboard ---------------------------------------------

# the longest options' names and explanations: the line wraps, and so do the explanations
EXPLAINED = ["OPT-SINGLE-CONTEST", "OPT-VALAT-NO-DOUBLE", "OPT-CAPOT-EN", "OPT-CARRE-FIRST"]
LINE_PARTS = (".house-rules > summary", ".house-rules .rule-help", ".house-rules .rule-help li")


def touch_page(browser: Browser, lang: str, width: int = 360, height: int = 740) -> Page:
    """A phone's page: taps, no hover (a `title` tooltip never shows)."""
    page = new_page(browser, width, height, touch=True)
    page.context.add_init_script(f"localStorage.setItem('belot.lang', '{lang}');")
    return page


def explanations_open_and_fit(pages: dict[str, Page], line: str, where: str) -> None:
    """The line's explanations are shut; a tap opens them (each option's name and its catalog text,
    on screen), they fit at 360 and 1280 px with every control finger-sized on the phone, the
    keyboard (Enter on the focused line) shuts and opens them again, and a tap shuts them.  The same
    page in each language (``pages``), measured side by side."""
    for lang, page in pages.items():
        texts = catalog(lang)
        help_list = page.locator(f"{line} .rule-help")
        assert not help_list.is_visible(), where
        assert page.locator(f"{line} [title]").count() == 0  # nothing is said only on hover
        page.locator(f"{line} > summary").tap()
        help_list.wait_for(state="visible")
        items = help_list.locator("li")
        assert items.count() == len(EXPLAINED), where
        for i, opt in enumerate(EXPLAINED):
            text = items.nth(i).inner_text()
            assert texts[f"web.options.help.{opt}"] in text, (where, lang, text)
            assert items.nth(i).get_attribute("data-option") == opt
    assert_pages_fit(pages, where, "explained", extra=LINE_PARTS)
    for page in pages.values():
        help_list = page.locator(f"{line} .rule-help")
        summary = page.locator(f"{line} > summary")
        page.set_viewport_size({"width": 360, "height": 740})
        summary.focus()
        page.keyboard.press("Enter")
        help_list.wait_for(state="hidden")
        page.keyboard.press("Enter")
        help_list.wait_for(state="visible")
        summary.tap()
        help_list.wait_for(state="hidden")
    assert_pages_fit(pages, where, "shut", extra=LINE_PARTS)
    for page in pages.values():
        assert not page.errors  # type: ignore[attr-defined]


@pytest.fixture(scope="module")
def explained(server: Server) -> dict[str, str]:
    """Under EXPLAINED: a table in play (seat 0 to call, the bots waiting on it) with its token, an
    open table in the lobby, and a finished match of bots."""
    playing = post(server, "/api/tables", {"seats": ["human", "bot:random", "bot:random", "bot:random"], "seat": 0,
                                           "name": "Ayşe", "options": EXPLAINED})
    listed = post(server, "/api/tables", {"seats": ["human", "human", "bot:random", "human"], "options": EXPLAINED})
    finished = post(server, "/api/tables", {"seats": ["bot:random"] * 4, "target": 1, "options": EXPLAINED})
    deadline = time.monotonic() + 30
    while server.get(f"/api/tables/{finished['table']['id']}")["table"]["status"] != "finished":
        assert time.monotonic() < deadline, "the bots' match did not end"
        time.sleep(0.1)
    return {"table": playing["table"]["id"], "token": playing["token"], "listed": listed["table"]["id"],
            "finished": finished["table"]["id"]}


def test_a_house_rules_explanation_opens_by_tap_and_keyboard_and_fits(browser: Browser, server: Server,
                                                                      explained: dict[str, str]) -> None:
    """A house rule's explanation was only a hover tooltip (`title`) on its chip: a phone never
    showed it.  At the table, in the lobby's list and in the replay, the line of chips opens the
    explanations by a tap and by the keyboard, and closes them again, in each language."""
    pages = {lang: touch_page(browser, lang) for lang in LANGS}
    for page in pages.values():
        page.context.add_init_script(f"localStorage.setItem('belot.token.{explained['table']}', '{explained['token']}');")
        page.goto(f"{server.url}/t/{explained['table']}")
        page.wait_for_selector(".felt .house-rules")
    explanations_open_and_fit(pages, ".house-rules", "table")

    line = f"#rules-{explained['listed']}"
    for page in pages.values():
        page.goto(server.url + "/")
        page.wait_for_selector(line)
        page.wait_for_load_state("networkidle")
    explanations_open_and_fit(pages, line, "lobby")

    for page in pages.values():
        page.goto(f"{server.url}/replay/{explained['finished']}")
        page.wait_for_selector(".replay .open-hand")
    explanations_open_and_fit(pages, ".house-rules", "replay")
    # an explanation opened stays open while the replay is stepped through (each step draws it anew)
    for page in pages.values():
        page.tap(".house-rules > summary")
        page.evaluate("window.__before = document.querySelector('.replay')")
        page.keyboard.press("ArrowRight")
        page.wait_for_function("document.querySelector('.replay') !== window.__before")
        assert page.locator(".house-rules .rule-help").is_visible()
        page.context.close()


def test_many_house_rules_take_one_line_on_a_phone(browser: Browser, server: Server) -> None:
    """Ten house rules were ten chips on a 320 px phone, a line each, 250 px above the felt: the hand
    and the calls went below the fold.  On a phone a line of more than two shows their number, and
    opening it names and explains each; at 1280 px the chips are shown."""
    options = [o for o in sorted(belot.contracts.SUPPORTED_OPTIONS) if o != "OPT-CAPOT-NI"]  # it excludes CAPOT-EN
    made = post(server, "/api/tables", {"seats": ["human", "bot:random", "bot:random", "bot:random"], "seat": 0,
                                        "name": "Ayşe", "options": options})
    # the bots' calls first: their states would draw the line anew while it is measured
    deadline = time.monotonic() + 30
    while server.get(f"/api/tables/{made['table']['id']}/state?token={made['token']}")["view"]["to_move"] != 0:
        assert time.monotonic() < deadline, "the bots did not call"
        time.sleep(0.05)
    pages = {lang: touch_page(browser, lang, 320, 568) for lang in LANGS}
    for page in pages.values():
        page.context.add_init_script(f"localStorage.setItem('belot.token.{made['table']['id']}', '{made['token']}');")
        page.goto(f"{server.url}/t/{made['table']['id']}")
        page.wait_for_selector(".felt .house-rules")
    names = {lang: json.loads((Path(belot.__file__).parent / "i18n" / lang / "tui.json").read_text(encoding="utf-8"))
             for lang in LANGS}
    for lang, page in pages.items():
        texts = catalog(lang)
        summary = page.locator(".felt .house-rules > summary")
        # Measured in one turn of the page's script: the presence states of the pages opened after
        # this one come in while it is measured, each drawing the table anew, and a summary located
        # before such a redraw had no box after it (a full run's failure).
        height, shown_count, shown_chips = page.evaluate("""() => {
          const line = document.querySelector('.felt .house-rules > summary');
          const seen = (e) => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden';
          const count = line.querySelector('.rule-count');
          return [line.getBoundingClientRect().height, seen(count) ? count.textContent : null,
                  [...line.querySelectorAll('.chip.rule')].filter(seen).length]; }""")
        assert 0 < height <= 48, (lang, height)  # one finger-sized line
        assert shown_count == str(len(options)) and shown_chips == 0, (lang, shown_count, shown_chips)
        summary.tap()
        items = page.locator(".felt .house-rules .rule-help li")
        items.first.wait_for(state="visible")
        assert items.count() == len(options), lang
        for i, opt in enumerate(options):
            text = items.nth(i).inner_text()
            assert names[lang][f"tui.option.{opt}"] in text and texts[f"web.options.help.{opt}"] in text, (lang, text)
    assert_pages_fit(pages, "ten house rules opened", extra=LINE_PARTS)  # phones, tablets, a desktop
    for lang, page in pages.items():  # a desktop's width shows the chips, by name
        page.set_viewport_size({"width": 1280, "height": 800})
        chips = page.locator(".felt .house-rules .chip.rule")
        assert not page.locator(".felt .house-rules .rule-count").is_visible(), lang
        assert [chips.nth(i).inner_text() for i in range(chips.count())] == [names[lang][f"tui.option.{o}"] for o in options]
        assert not page.errors  # type: ignore[attr-defined]
        page.context.close()
