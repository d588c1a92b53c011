"""The pages other than the live table as a person sees them, at 360, 1280 and 320 px, in English,
Turkish and Bulgarian (side by side: one page per language at the same state, so the layout check's settling waits are spent once for the three): the replay (the deal as dealt, mid-trick, a deal's end summary with
declarations, belote, kontra and a hanging pot, the match's end), its analysis (running, done with
every class shown) and the lobby (no tables, many tables with long names, the new-table form with
every house rule, the account forms, an error toast).

Measured with test_web_layout's check (nothing off the screen, cut off, out of its box or
overlapping on the felt) and test_web's finger-size check; and the replay's keyboard: every control is
reached by Tab with a visible focus ring, and keeps the focus when the page is drawn anew.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import test_web
from test_web import (
    FINGER,
    SMALL_CONTROLS,
    Browser,
    Page,
    ScriptedTable,
    Server,
    inject_analysis,
    new_page,
    post,
)
from test_web_layout import LANGS, TABLETS, WIDTHS, layout_faults_of

import belot

browser = test_web.browser  # test_web's fixtures: one Chromium and one `belot serve` for this module too
server = test_web.server

pytestmark = pytest.mark.browser

# The replay's, the analysis panel's and the lobby's own elements, measured as the table's are.
PAGES = (
    ".replay > h2", ".replay .controls > *", "#narration", ".replay .open-hand", "#replay-summary",
    ".replay .sheet h3", ".replay .sheet th", ".replay .sheet td", ".replay .hint",
    "#analysis > :not(.decisions)", "#analysis .team-pick > *", "#analysis .decision", "#analysis .decision > *", ".analysis-summary .player",
    ".analysis-summary .player > *", ".analysis-summary .cls",
    ".lobby > .box", ".box h2", ".box label", ".box input", ".box select", ".box p", ".box > button",
    ".table-list li", ".table-list li > *", ".table-list .row > *", ".table-list .seats > span",
    ".house-rules-form legend", ".house-rule .name", ".house-rule .help", "#toast", ".topbar > :not(#account-link):not(.sr-only)",
    "#topbar-extra > *", "#account-link a",
)


def assert_page_fits(page: Page, *where: Any, extra: tuple[str, ...] = ()) -> None:
    """test_web_layout's check with the pages' own elements (and ``extra``), no sideways scrolling,
    and on a phone test_web's finger-size check, at each width of WIDTHS (the page resized: its CSS
    follows); a state whose felt or score sheet a tablet lays out otherwise also at TABLETS."""
    assert_pages_fit({"": page}, *where, extra=extra)


def assert_pages_fit(pages: dict[str, Page], *where: Any, extra: tuple[str, ...] = (),
                     widths: tuple[tuple[int, int], ...] = WIDTHS) -> None:
    """`assert_page_fits` of one state shown in several languages (``pages`` by language), checked
    side by side: the settling waits are spent once for all of them."""
    faults = []
    for width, height in widths:
        for page in pages.values():
            page.set_viewport_size({"width": width, "height": height})
        found = layout_faults_of(list(pages.values()), PAGES + extra)
        for (lang, page), faults_of in zip(pages.items(), found):
            faults += [[lang, width, *f] for f in faults_of]
            if page.evaluate("document.documentElement.scrollWidth") > width:
                faults.append([lang, width, "sideways scrolling", page.evaluate("document.documentElement.scrollWidth")])
            if width <= 600:
                faults += [[lang, width, "too small for a finger", *c] for c in page.evaluate(SMALL_CONTROLS, FINGER)]
    if faults:
        pytest.fail(f"{where}:\n" + "\n".join(map(str, faults)), pytrace=False)


PHONE = (WIDTHS[0], WIDTHS[2])  # the states a desktop shows with room to spare are checked on phones only


class RichTable(ScriptedTable):
    """Deals with all there is to show: the first bid doubled, every declaration made, belote announced."""

    def choose(self, view: dict[str, Any], kind: str) -> dict[str, Any]:
        declares = [a for a in view["legal"] if "declare" in a]
        if declares:
            return max(declares, key=lambda a: len(a["declare"]))
        belote = [a for a in view["legal"] if a.get("belote")]
        return belote[0] if belote else super().choose(view, "doubled")


NAMES = ("Александра Константинова", "Mehmet Ali Özdemiroğlu", "Elif", "Georgi")


@pytest.fixture(scope="module")
def rich(server: Server) -> Iterator[tuple[str, dict[str, Any]]]:
    """A finished match of doubled deals with declarations and belotes, its players' names long, and its replay."""
    for _ in range(6):  # the server deals at random: a match with such a deal, most often the first
        table = RichTable(server, target=151, names=NAMES)
        table.play_out("doubled")
        table.close()
        data = server.get(f"/api/tables/{table.id}/replay")
        if any(is_rich(r) for r in data["results"]["deals"]):
            break
    else:
        raise AssertionError("no doubled deal with declarations and belote in six matches")
    yield table.id, data


def is_rich(result: dict[str, Any]) -> bool:
    return any(result["declarations"]) and any(result["belote"]) and result["multiplier"] > 1


def catalog(lang: str) -> dict[str, str]:
    """The browser's texts in ``lang`` (src/belot/i18n/LANG/web.json)."""
    path = Path(belot.__file__).parent / "i18n" / lang / "web.json"
    return json.loads(path.read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def open_replay(browser: Browser, server: Server, tid: str, width: int, height: int, lang: str) -> Page:
    page = new_page(browser, width=width, height=height)
    page.context.add_init_script(f"localStorage.setItem('belot.lang', '{lang}');")
    page.goto(f"{server.url}/replay/{tid}")
    page.wait_for_selector(".replay .open-hand")
    page.wait_for_function(f"document.documentElement.lang === '{lang}'")
    return page


def test_the_replay_fits_at_every_step(browser: Browser, server: Server, rich: tuple[str, dict[str, Any]]) -> None:
    """The deal as dealt, mid-trick, a deal's summary with declarations, belote and kontra, one with
    a hanging pot carried and the next collecting it, and the match's end, in each language side by
    side: at 1280 px the seats' long names were cut ("Александра Кон…" with 300 px free beside it)."""
    tid, data = rich
    deals = data["results"]["deals"]
    rich_deal = next(i for i, d in enumerate(deals) if is_rich(d))
    # No deal can be scripted to a tie over the API (the server deals at random): for the layout, the
    # first deal's result is made a hanging one, its pot carried into the second deal and collected there.
    hung = json.loads(json.dumps(data))
    hung["results"]["deals"][0].update(outcome="hanging", pot=36, points=[0, 0])
    pages = {lang: open_replay(browser, server, tid, 1280, 800, lang) for lang in LANGS}

    def keys(*pressed: str, ready: str) -> None:
        for page in pages.values():
            for key in pressed:
                page.keyboard.press(key)
            page.wait_for_selector(ready)

    # as dealt and mid-trick the table has room to spare at 1280 px: a phone's width only
    assert_pages_fit(pages, "as dealt", widths=PHONE)
    keys(*["ArrowRight"] * (len(data["record"]["deals"][0]["auction"]) + 6), ready=".replay .trick .tcard")  # into the second trick
    assert_pages_fit(pages, "mid-trick", widths=PHONE)
    keys(*["PageDown"] * rich_deal, "End", ready="#replay-summary")
    assert_pages_fit(pages, "declarations, belote, kontra", rich_deal, widths=WIDTHS + TABLETS)
    # each declaration listed with whether it counted (R7.6), as the live table's summary lists them
    detail = [d for seat in deals[rich_deal]["declared_detail"] for d in seat]
    for lang, page in pages.items():
        items = page.locator("#replay-summary ul.declared li")
        assert items.count() == len(detail) > 0, lang
        texts = catalog(lang)
        for i, d in enumerate(detail):
            assert items.nth(i).get_attribute("data-counted") == str(d["counted"]).lower()
            verdict = texts["web.summary.counted" if d["counted"] else "web.summary.cancelled"]
            assert f"({d['value']})" in items.nth(i).inner_text() and verdict in items.nth(i).inner_text(), lang
    keys(*["PageDown"] * len(deals), "End", ready=".replay .sheet td.win")
    assert_pages_fit(pages, "the match's end", widths=WIDTHS + TABLETS)
    for page in pages.values():
        page.route(f"**/api/tables/{tid}/replay", lambda route: route.fulfill(json=hung))
        page.reload()
        page.wait_for_selector(".replay .open-hand")
    keys("End", ready=".replay .sheet .pot")
    assert_pages_fit(pages, "a hanging pot")
    keys("PageDown", "End", ready="#replay-summary")
    assert_pages_fit(pages, "the pot collected")
    for page in pages.values():
        assert not page.errors  # type: ignore[attr-defined]
        page.context.close()


def test_the_replay_controls_leave_a_phone_its_felt(browser: Browser, server: Server,
                                                   rich: tuple[str, dict[str, Any]]) -> None:
    """On a 320 x 568 phone the replay's eight controls, with their names, took four rows in English
    and five in Bulgarian (250-330 px), and the felt began 410 px down, its hands below the fold.
    There the six step buttons are their symbols on one row, the step and the analysis on a second;
    each keeps its name as its accessible name and tooltip; at 1280 px the names are shown."""
    tid, _ = rich
    for lang in LANGS:
        texts = catalog(lang)
        names = [texts[f"web.replay.{k}"] for k in ("prev_deal", "start", "prev", "next", "end", "next_deal")]
        page = open_replay(browser, server, tid, 320, 568, lang)
        for width, height in ((320, 568), (1280, 800)):  # the page resized: its CSS follows
            page.set_viewport_size({"width": width, "height": height})
            buttons = page.locator(".replay .controls button[data-go]:not(#analysis-toggle)")
            assert [buttons.nth(i).get_attribute("aria-label") for i in range(6)] == names, lang
            assert [buttons.nth(i).get_attribute("title") for i in range(6)] == names, lang
            assert [page.get_by_role("button", name=n, exact=True).count() for n in names] == [1] * 6, lang
            boxes = [buttons.nth(i).bounding_box() for i in range(6)]
            shown = [buttons.nth(i).inner_text() for i in range(6)]
            controls = page.locator(".replay .controls").bounding_box()
            felt = page.locator(".replay .felt").bounding_box()
            assert all(b is not None for b in boxes) and controls and felt
            if width == 320:
                assert len({round(b["y"]) for b in boxes if b}) == 1, (lang, boxes)  # one row
                assert controls["height"] <= 2 * 44 + 12, (lang, controls)  # two rows at most
                assert all(n not in s for n, s in zip(names, shown, strict=True)), (lang, shown)
                # the felt starts in the first screen's upper half: its top seat's cards are in view
                assert felt["y"] < height / 2, (lang, felt)
                top = page.locator(".replay .seat.area-top .open-hand").bounding_box()
                assert top and top["y"] + top["height"] <= height, (lang, top)
            else:
                assert all(n in s for n, s in zip(names, shown, strict=True)), (lang, shown)
        assert not page.errors  # type: ignore[attr-defined]
        page.context.close()


@pytest.fixture(scope="module")
def analysed(server: Server) -> Iterator[str]:
    """A finished one-deal match analysed, its decisions relabelled to show every class."""
    import sqlite3

    table = ScriptedTable(server, target=1, names=NAMES)
    table.play_out("plain")
    table.close()
    doc = inject_analysis(server, table.id)
    classes = ["best", "inaccuracy", "mistake", "blunder"]
    for deal in doc["deals"]:
        for i, decision in enumerate(deal["decisions"]):
            decision["class"] = classes[i % 4]
    with sqlite3.connect(server.db) as con:
        con.execute("update belot_analyses set result = ? where table_id = ?", (json.dumps(doc), table.id))
    yield table.id


RUNNING = {"status": "running", "progress": {"done": 17, "total": 120}, "result": None, "error": None}


def test_the_analysis_fits_while_it_runs_and_when_done(browser: Browser, server: Server, analysed: str) -> None:
    pages = {}
    for lang in LANGS:
        page = pages[lang] = new_page(browser)
        page.context.add_init_script(f"localStorage.setItem('belot.lang', '{lang}');")
        page.route(f"**/api/tables/{analysed}/analysis", lambda route: route.fulfill(json=RUNNING))
        page.goto(f"{server.url}/replay/{analysed}?analysis")
    for page in pages.values():
        page.wait_for_selector("#analysis-progress")
    assert_pages_fit(pages, "running")
    for page in pages.values():
        page.unroute(f"**/api/tables/{analysed}/analysis")
    for page in pages.values():
        page.wait_for_selector("#analysis-chart")
        for cls in ("best", "inaccuracy", "mistake", "blunder"):
            assert page.locator(f"#analysis-decisions .cls.{cls}").count()
    assert_pages_fit(pages, "done", widths=WIDTHS + TABLETS)
    for page in pages.values():
        assert not page.errors  # type: ignore[attr-defined]
        page.context.close()


ALL_RULES = ["OPT-NO-SHUFFLE", "OPT-SURCONTRA", "OPT-EIGHT-SPLIT", "OPT-CARRE-FIRST", "OPT-LENGTH-FIRST", "OPT-CARRE-RANK",
             "OPT-SINGLE-CONTEST", "OPT-NONZERO", "OPT-VALAT-NO-DOUBLE", "OPT-CAPOT-NI"]


@pytest.fixture(scope="module")
def long_list(server: Server) -> list[str]:
    """Eight open tables, every house rule but one, their first players' names 30 characters or more."""
    names = ("Александра Константинова-Петрова", "Mehmet Ali Özdemiroğlugiller")
    return [post(server, "/api/tables", {"seats": ["human", "human", "bot:random", "human"], "seat": 0,
                                         "name": names[i % 2], "options": ALL_RULES})["table"]["id"] for i in range(8)]


def test_the_lobby_and_the_account_forms_fit(browser: Browser, server: Server, long_list: list[str]) -> None:
    """An empty lobby, a long list of open tables (a table's link widened its item 6 px past the
    list at 1280 px), every house rule ticked, a refused join's toast, the account form's refusal."""
    pages = {}
    for lang in LANGS:
        page = pages[lang] = new_page(browser)
        page.context.add_init_script(f"localStorage.setItem('belot.lang', '{lang}');")
        page.route("**/api/tables", lambda route: route.fulfill(json={"tables": []}))
        page.goto(server.url + "/")
    for page in pages.values():
        page.wait_for_selector("#house-rules-form input[data-option]")
        page.wait_for_selector("#open-h + p.muted")
    assert_pages_fit(pages, "no tables")
    for page in pages.values():
        page.unroute("**/api/tables")
        page.click("#refresh")
        page.wait_for_selector(f"#open-tables li[data-table='{long_list[-1]}']")
        for box in page.locator("#house-rules-form input[data-option]").all():
            box.check()
    assert_pages_fit(pages, "a long list, every house rule")
    # a seat taken meanwhile: the join is refused, its toast in the page's language (checked at once,
    # page by page: the toast goes after 3.5 s)
    taken = post(server, "/api/tables", {"seats": ["human", "human", "bot:random", "bot:random"], "seat": 0,
                                         "name": "Ayşe"})["table"]["id"]
    for page in pages.values():
        page.click("#refresh")
        page.wait_for_selector(f"[data-join='{taken}']")
    post(server, f"/api/tables/{taken}/join", {"name": "Can"})
    for lang, page in pages.items():
        page.click(f"[data-join='{taken}']")
        page.wait_for_selector("#toast:not(.hidden)")
        assert_pages_fit({lang: page}, "a toast", widths=PHONE)
    for page in pages.values():
        page.goto(server.url + "/account")
        page.fill("#acc-name", "Александра")
        page.fill("#acc-password", "not the password")
        page.click("#login-btn")
    for page in pages.values():
        page.wait_for_selector("#account-error:not(.hidden)")
    assert_pages_fit(pages, "the account form, refused")
    for page in pages.values():  # an address that is no page: its notice and the way to the lobby
        page.goto(server.url + "/no/such/page")
        page.wait_for_selector("main .box a[href='/']")
    assert_pages_fit(pages, "no such page", extra=(".box a",))
    for page in pages.values():
        assert not page.errors  # type: ignore[attr-defined]
        page.context.close()


# -- the keyboard ------------------------------------------------------------------------------------

ACTIVE = "() => { const a = document.activeElement; return a === document.body ? 'body' : a.outerHTML.slice(0, 80); }"


def test_the_replay_keeps_the_focus_and_the_decisions_scroll_when_drawn_anew(browser: Browser, server: Server,
                                                                            analysed: str) -> None:
    """The replay is drawn anew each second while its analysis runs, and on each pick of a decision
    or a team: the focus went to the page's start (the next Tab began at the top bar again) and the
    list of decisions went back to its top under the person scrolling it. Every control is reached
    by Tab with a visible focus ring."""
    page = new_page(browser, width=360, height=740)
    page.route(f"**/api/tables/{analysed}/analysis", lambda route: route.fulfill(json=RUNNING))
    page.goto(f"{server.url}/replay/{analysed}?analysis")
    page.wait_for_selector("#analysis-progress")
    page.focus("#replay-next")
    page.evaluate("window.__before = document.querySelector('.replay')")
    page.wait_for_function("document.querySelector('.replay') !== window.__before")  # a poll drew it anew
    assert page.evaluate("document.activeElement.id") == "replay-next", page.evaluate(ACTIVE)
    page.unroute(f"**/api/tables/{analysed}/analysis")
    page.wait_for_selector("#analysis-chart")

    # Tab from the top: every control of the page in turn, each with a ring (outline or shadow)
    page.focus("#lang")
    seen = []
    for _ in range(60):
        page.keyboard.press("Tab")
        el = page.evaluate("""() => { const a = document.activeElement, cs = getComputedStyle(a);
            return [a.tagName.toLowerCase() + (a.dataset.go ? ':' + a.dataset.go : a.dataset.i ? ':' + a.dataset.i : a.dataset.team ? ':team' + a.dataset.team : ''),
                    cs.outlineStyle !== 'none' && parseFloat(cs.outlineWidth) >= 2 || cs.boxShadow !== 'none'] }""")
        if el[0] == "body" or el[0] in (s[0] for s in seen):  # past the last control, or round again
            break
        seen.append(el)
    names = [s[0] for s in seen]
    for want in ("button:next", "button:end", "button:analysis", "button:team1", "div:0", "div:3"):
        assert want in names, (want, names)
    assert [s for s in seen if not s[1]] == [], seen

    # a decision low in the list, picked with Enter: it keeps the focus and the list its scroll
    last = page.locator("#analysis-decisions .decision").count() - 1
    page.focus(f"#analysis-decisions .decision[data-i='{last}']")
    top = page.evaluate("document.querySelector('#analysis-decisions').scrollTop")
    assert top > 0
    page.keyboard.press("Enter")
    page.wait_for_selector(f"#analysis-decisions .decision.current[data-i='{last}']")
    assert page.evaluate("document.activeElement.dataset.i") == str(last), page.evaluate(ACTIVE)
    assert page.evaluate("document.querySelector('#analysis-decisions').scrollTop") == top
    # a decision is a button to a screen reader and to the keyboard: Space picks it too, and scrolls nothing
    assert page.get_attribute(f"#analysis-decisions .decision[data-i='{last}']", "role") == "button"
    page.focus(f"#analysis-decisions .decision[data-i='{last - 1}']")
    top = page.evaluate("document.querySelector('#analysis-decisions').scrollTop")
    page.keyboard.press(" ")
    page.wait_for_selector(f"#analysis-decisions .decision.current[data-i='{last - 1}']")
    assert page.evaluate("document.querySelector('#analysis-decisions').scrollTop") == top
    page.click("#analysis [data-team='1']")
    assert page.evaluate("document.activeElement.dataset.team") == "1", page.evaluate(ACTIVE)
    assert not page.errors  # type: ignore[attr-defined]
    page.context.close()


def test_every_page_has_one_heading_of_its_name_and_the_window_title_says_it(
        browser: Browser, server: Server, analysed: str) -> None:
    """A screen reader lists a page's headings and names a tab by its title: the pages had h2s only,
    and every window was titled "Belot". Each page has one h1, its name in the page's language (read,
    not shown), and the window's title says it, after a link followed in the page and after a change
    of language too."""
    tid = post(server, "/api/tables", {"seats": ["human", "bot:random", "bot:random", "bot:random"]})["table"]["id"]
    for lang in LANGS:
        words = catalog(lang)
        names = {
            "/": words["web.page.lobby"],
            f"/t/{tid}": words["web.page.table"].format(id=tid),
            f"/replay/{analysed}": f"{words['web.replay.title']} {analysed}",
            "/account": words["web.page.account"],
            "/leaderboard": words["web.account.leaderboard"],
            "/u/Zehra%20Nur": "Zehra Nur",
        }
        if lang == "en":  # addresses no link makes, typed or pasted: each page is drawn, none left blank
            names.update({
                "/u/%E0%A4": "%E0%A4",  # no UTF-8 behind the escapes
                "/u/%": "%",  # an escape cut short
                "/u/Ayla%0A%09": "Ayla\n\t",  # control characters (the title reads them as spaces)
                "/u/" + "%C3%B6" * 300: "ö" * 300,  # a name longer than any account's
                f"/t/{tid}%00": words["web.page.not_found"],  # no table id: no such page
            })
        page = new_page(browser, width=360, height=740)
        page.context.add_init_script(f"localStorage.setItem('belot.lang', '{lang}');")
        for path, name in names.items():
            page.goto(server.url + path)
            title = re.sub(r"[\t\n\f\r ]+", " ", f"{name} · {words['web.title']}").strip()  # as document.title reads
            page.wait_for_function("([t]) => document.title === t", arg=[title])
            assert page.locator("h1").count() == 1, path
            assert page.locator("h1").text_content() == name, path
            assert page.locator("h1").evaluate("e => e.closest('header') !== null")  # in a landmark
            assert page.locator("main").inner_text().strip(), path  # the page itself is drawn
        page.click("#brand")  # a link followed in the page: no load, the name follows
        page.wait_for_function("([t]) => document.title === t", arg=[f"{names['/']} · {words['web.title']}"])
        assert page.locator("h1").text_content() == names["/"]
        other = "en" if lang != "en" else "tr"
        page.select_option("#lang", other)
        lobby = catalog(other)["web.page.lobby"]
        page.wait_for_function("([t]) => document.title === t", arg=[f"{lobby} · {catalog(other)['web.title']}"])
        assert page.locator("h1").text_content() == lobby
        assert not page.errors  # type: ignore[attr-defined]
        page.context.close()
