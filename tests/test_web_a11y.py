"""The pages to a screen reader and a keyboard: axe-core (the axe-playwright-python package bundles
it) on every state a person meets, in English, Turkish and Bulgarian, at 360 and 1280 px: the lobby
with its new-table form, the account forms, a table waiting for players, the auction, the card play
with the last trick and the score sheet open, a deal's summary, the match end, the replay (as dealt,
mid-trick, a deal's end) and its analysis. A serious or critical violation fails.

No rule is disabled. axe cannot judge text on a gradient (the felt, the page) and leaves it
"incomplete": `PIXELS` measures that text's contrast on the pixels behind it, and under 4.5:1 fails
there too (the felt's light middle was 3.4:1 under white text until its green was darkened).

And the live table says in words what the other players do (#announce, a polite live region that
survives the table's redraws): their calls, cards, who took a trick, whose turn it is.

The states are test_web_layout's and test_web_pages_layout's fixtures; each state's three languages
are opened side by side, and each page is measured at both widths (resized: its CSS follows).
"""

from __future__ import annotations

import base64
from collections.abc import Callable, Iterator

import pytest
import test_web
from test_web import Browser, Page, ScriptedTable, Server, new_page, post
from test_web_layout import LANGS, WIDTHS, auction, match_end, side_dealer, summary, waiting
from test_web_pages_layout import RUNNING, analysed

axe_playwright = pytest.importorskip("axe_playwright_python.sync_playwright")

browser = test_web.browser  # test_web's fixtures: one Chromium and one `belot serve` for this module too
server = test_web.server
__all__ = ["analysed", "auction", "match_end", "side_dealer", "summary", "waiting"]  # fixtures used by name

pytestmark = pytest.mark.browser

AXE = axe_playwright.Axe()
FAILS = ("serious", "critical")

# The contrast of text that axe leaves "incomplete" because a gradient lies behind it (the felt, the
# page, the score sheet's ruled paper): measured on the pixels, where they are in view.  The page is shot with every text
# and suit icon made transparent; then, for each such element (axe's CSS selectors), the lightest
# (for light text; the darkest for dark) pixel under its lines of text, against the text's colour
# and opacity (the glyphs' band of each line).  Returns [selector, ratio, text colour, that pixel] where the ratio is under WCAG's
# 4.5:1 (3:1 for large text).
PIXELS = r"""async ([png, targets]) => {
  const img = new Image(); img.src = 'data:image/png;base64,' + png; await img.decode();
  const c = document.createElement('canvas'); c.width = img.width; c.height = img.height;
  const g = c.getContext('2d'); g.drawImage(img, 0, 0);
  const scale = img.width / document.documentElement.clientWidth;
  const lum = ([r, gr, b]) => { const f = (v) => { v /= 255; return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(gr) + 0.0722 * f(b); };
  // a line scrolled out of its list (the analysis' decisions) is not seen: nothing to measure
  const hidden = (e, r) => { if (r.top < 0 || r.bottom > innerHeight) return true; // the shot is of the viewport
    for (let a = e.parentElement; a; a = a.parentElement) {
    if (getComputedStyle(a).overflowY === 'visible') continue;
    const q = a.getBoundingClientRect(); if (r.top < q.top - 1 || r.bottom > q.bottom + 1) return true; }
    // ...nor one under something else (the phone's open score sheet over the hand's prompt)
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return !!hit && !e.contains(hit) && !hit.contains(e); };
  const out = [];
  for (const sel of targets) {
    const e = document.querySelector(sel);
    // on paper or a white box the colours are plain (the sheet's gradient is its ruled lines): the
    // felt's and the page's text is what axe cannot measure
    if (!e || e.closest('.sheet, .dialog, .box, .analysis')) continue;
    const cs = getComputedStyle(e);
    const m = cs.color.match(/[\d.]+/g).map(Number);
    let alpha = m.length > 3 ? m[3] : 1;
    for (let a = e; a; a = a.parentElement) alpha *= parseFloat(getComputedStyle(a).opacity);
    const range = document.createRange();
    let worst = null;
    for (const node of e.childNodes) {
      if (node.nodeType !== 3 || !node.textContent.trim()) continue;
      range.selectNodeContents(node);
      for (const r of range.getClientRects()) {
        if (hidden(e, r)) continue;
        // the glyphs' band: the line box's middle half (its edges reach a plate's border or glow, a ruled line)
        const x = Math.max(0, Math.floor(r.left * scale)), y = Math.max(0, Math.floor((r.top + r.height / 4) * scale));
        const w = Math.min(c.width - x, Math.ceil(r.width * scale)), h = Math.min(c.height - y, Math.ceil(r.height / 2 * scale));
        if (w <= 0 || h <= 0) continue;
        const d = g.getImageData(x, y, w, h).data;
        for (let i = 0; i < d.length; i += 4) {
          const bg = [d[i], d[i + 1], d[i + 2]];
          const fg = m.slice(0, 3).map((v, k) => v * alpha + bg[k] * (1 - alpha));
          const [hi, lo] = [lum(fg), lum(bg)].sort((p, q) => q - p);
          const ratio = (hi + 0.05) / (lo + 0.05);
          if (!worst || ratio < worst[1]) worst = [sel, Math.round(ratio * 100) / 100, cs.color, 'rgb(' + bg.join(',') + ')'];
        }
      }
    }
    const size = parseFloat(cs.fontSize), bold = parseInt(cs.fontWeight) >= 700;
    if (worst && worst[1] < (size >= 24 || bold && size >= 18.66 ? 3 : 4.5)) out.push(worst);
  }
  return out;
}"""
# The score sheet's ruled lines (1 px, every 26 px) go out with the text: a line, not a background
HIDE_TEXT = ("* { color: transparent !important; text-shadow: none !important } .suit-icon { visibility: hidden !important }"
             " .sheet { background-image: none !important }")


def violations(page: Page) -> list[tuple[str, ...]]:
    """axe's serious and critical violations on the page as it is, and `PIXELS`' contrast of the text
    on gradients: (rule, impact, element, what is wrong)."""
    if not page.evaluate("typeof window.axe === 'object'"):  # once a page: its 500 KB, not at each check
        page.evaluate(AXE.axe_script)
    res = page.evaluate("(o) => axe.run(o)", {"resultTypes": ["violations", "incomplete"]})
    found = [(v["id"], v["impact"], " ".join(map(str, n["target"])), n["failureSummary"].replace("\n", " "))
             for v in res["violations"] if v["impact"] in FAILS for n in v["nodes"]]
    on_gradient = [n["target"][0] for v in res["incomplete"] if v["id"] == "color-contrast" for n in v["nodes"]
                   if any(c.get("data", {}).get("messageKey") == "bgGradient" for c in n["any"]) and len(n["target"]) == 1]
    if on_gradient:
        style = page.add_style_tag(content=HIDE_TEXT)
        png = base64.b64encode(page.screenshot()).decode()
        style.evaluate("s => s.remove()")
        found += [("color-contrast (pixels)", "serious", sel, f"{ratio}:1, {fg} on {bg}")
                  for sel, ratio, fg, bg in page.evaluate(PIXELS, [png, on_gradient])]
    return found


def check(pages: dict[str, Page], where: str, then: Callable[[Page], None] | None = None) -> None:
    """`violations` of each page (a language each) at a phone's and a desktop's width (the layout
    tests also measure 320 px, whose rules axe finds at 360 as well); ``then``, when given,
    is done on each page at each width before it is measured (a dialog opened, which a resize or a
    redraw may not keep)."""
    faults = []
    for width, height in WIDTHS[:2]:
        for lang, page in pages.items():
            page.set_viewport_size({"width": width, "height": height})
            if then:
                then(page)
            page.wait_for_timeout(50)
            faults += [(where, lang, width, *f) for f in violations(page)]
    if faults:
        pytest.fail("\n".join(map(str, faults)), pytrace=False)


def table_pages(browser: Browser, table: ScriptedTable, ready: str) -> Iterator[dict[str, Page]]:
    pages = {lang: table.open(browser, *WIDTHS[0], lang) for lang in LANGS}
    for page in pages.values():
        page.wait_for_selector(ready)
    yield pages
    for page in pages.values():
        assert not page.errors  # type: ignore[attr-defined]
        page.context.close()


def plain_pages(browser: Browser, url: str, ready: str) -> Iterator[dict[str, Page]]:
    pages = {}
    for lang in LANGS:
        page = pages[lang] = new_page(browser, *WIDTHS[0])
        page.context.add_init_script(f"localStorage.setItem('belot.lang', '{lang}');")
        page.goto(url)
    for lang, page in pages.items():
        page.wait_for_selector(ready)
        page.wait_for_function(f"document.documentElement.lang === '{lang}'")
    yield pages
    for page in pages.values():
        assert not page.errors  # type: ignore[attr-defined]
        page.context.close()


def test_the_lobby_and_the_account_forms(browser: Browser, server: Server) -> None:
    for pages in plain_pages(browser, server.url + "/", "#house-rules-form input[data-option]"):
        for page in pages.values():
            page.wait_for_load_state("networkidle")  # the lobby has its lists: no redraw under axe
        check(pages, "lobby")
        for page in pages.values():
            page.goto(server.url + "/account")
            page.wait_for_selector("#acc-name")
        check(pages, "account")


@pytest.mark.parametrize("stage", ["waiting", "auction", "summary"])
def test_a_table(browser: Browser, stage: str, request: pytest.FixtureRequest) -> None:
    ready = {"waiting": ".seat-chooser", "auction": "[data-call]", "summary": "#summary-dialog"}[stage]
    for pages in table_pages(browser, request.getfixturevalue(stage), ready):
        check(pages, stage)


def test_the_card_play_the_last_trick_and_the_score_sheet(browser: Browser, side_dealer: ScriptedTable) -> None:
    def last_trick(page: Page) -> None:
        if not page.locator("#last-dialog").count():
            page.click("#btn-last")
            page.wait_for_selector("#last-dialog")

    def sheet(page: Page) -> None:
        if page.locator("#last-dialog").count():
            page.keyboard.press("Escape")
        if page.viewport_size and page.viewport_size["width"] < 900 and not page.locator("#sheet.open").count():
            page.click("#btn-sheet")  # a phone's sheet opens over the hand; a desktop's is always there
            page.wait_for_selector("#sheet.open .sheet")

    for pages in table_pages(browser, side_dealer, "#trick .tcard"):
        check(pages, "card play")
        check(pages, "last trick", last_trick)
        check(pages, "score sheet", sheet)


def test_the_match_end_and_its_replay(browser: Browser, server: Server, match_end: ScriptedTable) -> None:
    def last_deal(page: Page) -> None:
        if not page.evaluate("document.querySelector('#match-end details').open"):
            page.click("#match-end details summary")

    for pages in table_pages(browser, match_end, "#match-end"):
        check(pages, "match end", last_deal)
    for pages in plain_pages(browser, f"{server.url}/replay/{match_end.id}", ".replay .open-hand"):
        check(pages, "replay, as dealt")
        for page in pages.values():
            for key in ["ArrowRight"] * 12:
                page.keyboard.press(key)
            page.wait_for_selector(".replay .trick .tcard")
        check(pages, "replay, mid-trick")
        for page in pages.values():  # a red card named in the narration (on the page's green it was 1:1)
            for _ in range(40):
                if page.locator("#narration .card-short.red").count():
                    break
                page.keyboard.press("ArrowRight")
            page.wait_for_selector("#narration .card-short.red")
        check(pages, "replay, a red card named")
        for page in pages.values():
            page.keyboard.press("End")
            page.wait_for_selector("#replay-summary")
        check(pages, "replay, the deal's end")


def test_the_analysis(browser: Browser, server: Server, analysed: str) -> None:
    for pages in plain_pages(browser, f"{server.url}/replay/{analysed}?analysis", "#analysis-chart"):
        check(pages, "analysis")
    page = new_page(browser, *WIDTHS[0])
    page.route(f"**/api/tables/{analysed}/analysis", lambda route: route.fulfill(json=RUNNING))
    page.goto(f"{server.url}/replay/{analysed}?analysis")
    page.wait_for_selector("#analysis-progress")
    check({"en": page}, "analysis running")
    page.context.close()


def test_the_check_finds_what_it_should(browser: Browser, server: Server) -> None:
    """The check itself: a button without a name, and the brand's text made a green close to the
    page's gradient behind it, are found."""
    page = new_page(browser, *WIDTHS[0])
    page.goto(server.url + "/")
    page.wait_for_selector("#house-rules-form input[data-option]")
    page.wait_for_load_state("networkidle")
    page.evaluate("""() => { document.querySelector('#create-btn').textContent = '';
        document.querySelector('#brand').style.color = '#2e8b57'; }""")
    found = {(f[0], f[2]) for f in violations(page)}
    assert ("button-name", "#create-btn") in found, found
    assert ("color-contrast (pixels)", "#brand") in found, found
    page.context.close()


# -- what a screen reader hears ----------------------------------------------------------------------

def test_a_screen_reader_hears_the_other_players_calls_cards_and_turn(browser: Browser, server: Server) -> None:
    """The table is drawn anew on every move and said nothing: a blind player heard neither the
    others' calls nor their cards, nor that it was their turn. #announce says each state's news."""
    table = ScriptedTable(server)
    names = {1: "Mehmet", 2: "Partner (Elif)", 3: "Can"}
    try:
        page = table.open(browser, *WIDTHS[1], "en")

        def hear(text: str, where: str = "includes") -> None:
            page.wait_for_function(f"document.getElementById('announce').textContent.{where}({text!r})", timeout=15_000)

        def words(card: str) -> str:
            return page.evaluate(f"""() => import('/static/js/i18n.js').then(({{t}}) =>
                t('card.name', {{rank: t('card.rank.{card[0]}'), suit: t('card.suit.{card[1]}')}}))""")

        # the page opens saying only whose turn it is (no history), so a player who is first to call hears it
        first = "Your call" if table.to_move()[0] == 0 else "Waiting for "  # type: ignore[index]
        hear(first, "includes")
        while (nxt := table.to_move()) is not None and nxt[0] != 0:
            post(server, f"/api/tables/{table.id}/action", {"token": table.tokens[nxt[0]], "action": {"call": "pass"}})
            hear(f"{names[nxt[0]]}: Pass", "startsWith")
        hear("Your call", "endsWith")
        page.click("[data-call='C']")  # a bid: the deal is played
        hear("Waiting for", "startsWith")  # our own call is not said back
        while len(table.state(0)["view"]["tricks"]) == 0:  # the first trick, card by card
            seat, view = table.to_move()  # type: ignore[misc]
            if seat == 0:
                hear("Your turn" if view["phase"] == "play" else "Your call", "endsWith")
                # played through the API, as the others: a click could meet a declaration or belote question
                post(server, f"/api/tables/{table.id}/action", {"token": table.tokens[0], "action": table.choose(view, "plain")})
                # no wait for the text to change: after a declaration the turn stays ours and nothing new is said
                continue
            action = table.choose(view, "plain")
            post(server, f"/api/tables/{table.id}/action", {"token": table.tokens[seat], "action": action})
            hear(f"{names[seat]}: " + (words(action["card"]) if "card" in action else "Pass"))
        winner = table.state(0)["view"]["tricks"][0]["winner"]
        hear("You take it" if winner == 0 else f"Taken by {names[winner]}")
        assert not page.errors  # type: ignore[attr-defined]
        page.context.close()
    finally:
        table.close()
