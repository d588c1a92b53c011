"""The table as a person sees it, at 360, 1280 and 320 px, on a tablet and in a laptop's low window, in
English, Turkish and Bulgarian: during an auction, the card play, the end-of-deal summary and the
match's end.

Measured on the element boxes: no chip, name or label leaves the box it is drawn in (a chip its
seat's name plate, a plate the felt inside its wooden rim), no text is cut off, the seats, the
trick, the calls and the hand do not overlap, a phone's controls are 40 px or more (a house rule's
checkbox by its label), and the keyboard's focus stays where the person had it when a new state
redraws the table (also with a dialog open), and inside an open dialog.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
import test_web
from test_web import FINGER, SMALL_CONTROLS, Browser, Page, ScriptedTable, Server, new_page, post

browser = test_web.browser  # test_web's fixtures: one Chromium and one `belot serve` for this module too
server = test_web.server

pytestmark = pytest.mark.browser

LANGS = ("en", "tr", "bg")
WIDTHS = ((360, 740), (1280, 800), (320, 640))  # 320: the narrowest phones in use (an iPhone SE)
# A tablet: the felt's three columns at their narrowest (601 px, just above a phone's layout, where
# a side seat's column is 132 px: a spectator's tricks ran out of the info panel and a long name was
# cut), and the widest score sheet below the felt (899 px: its "Game" stood 100 px from its column)
TABLETS = ((601, 960), (899, 700))
# Browser windows wider than they are high: a 1366 x 768 and a 1536 x 864 laptop screen (the two most
# in use) leave about 650 and 730 px under the browser's bars; a tablet on its side is 1024 x 768
LOW = ((1366, 650), (1536, 730), (1024, 768), (1280, 620))
RIM = 9  # px: the felt's wooden rim (.felt's inset box-shadow), which nothing on the felt may cover

# Every chip, name, label and control of the table and its dialogs: each inside the padding box of
# the element it is drawn in and inside the viewport, its text whole (nothing clipped by an
# overflow or a line clamp); on the felt, inside the rim.  Then the big parts of the felt, pairwise
# apart.  Returns what is wrong, [] when nothing.
LAYOUT = """([rim, extra]) => {
  const out = [];
  // (a closed <details> keeps its content's boxes, unseen: at 601 px the replay's shut house-rule
  // explanations lay on the rim)
  const shut = (e) => { for (let a = e; a.parentElement; a = a.parentElement) {
    if (a.parentElement.tagName === 'DETAILS' && !a.parentElement.open && a.tagName !== 'SUMMARY') return true; } return false; };
  const shown = (e) => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden'
    && e.getBoundingClientRect().width > 0 && !shut(e);
  const what = (e) => (e.id ? '#' + e.id : e.tagName.toLowerCase() + '.' + [...e.classList].join('.'))
    + ' "' + e.textContent.trim().replace(/\\s+/g, ' ').slice(0, 24) + '"';
  const vw = document.documentElement.clientWidth;
  // The widest piece of the element's text that cannot wrap (a word; the whole text where it does
  // not wrap), to the fraction of a pixel: scrollWidth is rounded, and an ellipsis shows for the least overflow.
  const widest = (e) => {
    const pieces = getComputedStyle(e).whiteSpace === 'nowrap' ? [e.textContent.trim()] : e.textContent.split(/\\s+/);
    const probe = document.createElement('span');
    probe.style.cssText = 'position:absolute;visibility:hidden;white-space:nowrap';
    e.appendChild(probe);
    let w = 0;
    for (const piece of pieces) { probe.textContent = piece; w = Math.max(w, probe.getBoundingClientRect().width); }
    probe.remove();
    return w;
  };
  const felt = document.querySelector('.felt');
  const fr = felt && felt.getBoundingClientRect();
  const sel = ['.chip', '.seat .name', '.nameplate', '.bubble', '.seat', '.info-panel', '.info-panel > *',
    '.house-rules', '.centre-note', '.auction-log', '.auction-log > span', '.actions > *', '.call', '.round-btn',
    '.hand', '.hand .card', '.hand .card .key', '.trick .tcard .who', '.dialog', '.dialog h2', '.dialog p', '.dialog th',
    '.dialog td', '.dialog li', '.dialog summary', '.dialog .buttons > *', '.dialog figcaption', '.sheet-wrap.open th',
    '.sheet-wrap.open td', '.dialog table', '.sheet table', '.sheet th', '.sheet td', 'select', ...extra].join(',');
  for (const e of document.querySelectorAll(sel)) {
    if (!shown(e) || e.closest('#defs')) continue;
    const r = e.getBoundingClientRect();
    const cs = getComputedStyle(e);
    if (r.left < -0.5 || r.right > vw + 0.5) out.push(['off the screen', what(e), Math.round(r.left), Math.round(r.right)]);
    if (cs.overflowX !== 'visible' && !e.matches('.dialog, .sheet-wrap')
        && (e.scrollWidth > e.clientWidth + 1 || !/anywhere|break-word/.test(cs.overflowWrap)
            && widest(e) > r.width - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) + 0.05))
      out.push(['cut off across', what(e), e.scrollWidth, e.clientWidth]);
    if (e.matches('select')) {  // its chosen option's text, cut by a max-width ("Българск" at 320 px)
      const c = e.cloneNode(true);
      c.style.cssText = 'position:absolute;visibility:hidden;width:auto;max-width:none';
      for (const o of [...c.options]) if (o.value !== e.value) o.remove();  // sized by the option shown
      e.after(c);  // beside it, so the page's rules for it (its font, its padding) hold for the copy too
      const need = c.getBoundingClientRect().width;
      c.remove();
      if (need > r.width + 0.5) out.push(['cut off across', what(e), Math.round(need), Math.round(r.width)]);
    }
    if (cs.overflowY !== 'visible' && e.scrollHeight > e.clientHeight + 1 && !e.matches('.dialog, .sheet-wrap'))
      out.push(['cut off below', what(e), e.scrollHeight, e.clientHeight]);
    // a word in two lines, also among others: "Quarte (50) · Belote" may keep its line breaks between
    // words and still break one inside, for a chip's or bubble's overflow-wrap breaks anywhere
    if (e.matches('.chip, .bubble')) {
      const walk = document.createTreeWalker(e, NodeFilter.SHOW_TEXT);
      for (let node; (node = walk.nextNode());) {
        for (const m of node.textContent.matchAll(/\\S+/g)) {
          const g = document.createRange();
          g.setStart(node, m.index);
          g.setEnd(node, m.index + m[0].length);
          const boxes = [...g.getClientRects()].filter((b) => b.width > 0);
          if (boxes.some((b) => b.top >= boxes[0].bottom - 1)) out.push(['a word broken', what(e), m[0]]);
        }
      }
    }
    if (e.matches('.seat .name')) {  // a name wraps between its words (and after a hyphen), not inside a
      // word of up to 9 letters ("rastgele", "Стоянов"); a longer one ("Özdemiroğlu") may have to break
      const probe = document.createElement('span');
      probe.style.cssText = 'position:absolute;visibility:hidden;white-space:nowrap';
      e.appendChild(probe);
      let w = 0;
      for (const piece of e.firstChild.textContent.split(/\\s+|(?<=-)/).filter((p) => p.length <= 9)) {
        probe.textContent = piece; w = Math.max(w, probe.getBoundingClientRect().width);
      }
      probe.remove();
      if (w > r.width - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) + 0.5)
        out.push(['a word broken', what(e), Math.round(w), Math.round(r.width)]);
    }
    const p = e.parentElement;
    if (p && !e.closest('.trick') && !e.matches('.key')) {
      const q = p.getBoundingClientRect(), ps = getComputedStyle(p);
      const left = q.left + parseFloat(ps.borderLeftWidth), right = q.right - parseFloat(ps.borderRightWidth);
      if (r.left < left - 0.5 || r.right > right + 0.5)
        out.push(['out of its box', what(e), 'in', what(p).slice(0, 40), Math.round(r.left), Math.round(r.right), Math.round(left), Math.round(right)]);
    }
    if (fr && felt.contains(e) && !e.matches('.seat, .hand, .actions > div:not(.prompt)') && (r.left < fr.left + rim - 0.5 || r.right > fr.right - rim + 0.5
        || r.top < fr.top + rim - 0.5 || r.bottom > fr.bottom - rim + 0.5))
      out.push(['on the rim', what(e), Math.round(r.left - fr.left), Math.round(fr.right - r.right)]);
  }
  // a score sheet's column heading stands over its column: its text and each cell's text share some
  // width, or lie a few pixels apart at most ("Game" set right in the match end's sheet, far from
  // "♣ Clubs" at the left of its column, read as "Game We")
  const text = (e) => { const g = document.createRange(); g.selectNodeContents(e); return g.getBoundingClientRect(); };
  for (const table of document.querySelectorAll('.sheet table')) {
    const heads = [...table.querySelectorAll('thead tr:last-child > th')];
    if (!shown(table) || heads.some((h) => h.colSpan > 1)) continue;
    for (const row of table.querySelectorAll('tbody tr')) {
      const cells = [...row.children];
      if (cells.length !== heads.length || cells.some((c) => c.colSpan > 1)) continue;
      heads.forEach((h, i) => {
        if (!h.textContent.trim() || !cells[i].textContent.trim()) return;
        const a = text(h), b = text(cells[i]);
        if (a.left > b.right + 6 || b.left > a.right + 6)
          out.push(['a heading beside its column', what(h), what(cells[i]), Math.round(a.left), Math.round(b.left)]);
      });
    }
  }
  // the felt's parts, pairwise apart (the cards of one trick or one hand overlap by design)
  const parts = [...document.querySelectorAll('.felt .nameplate, .felt .bubble:not(:empty), .felt .backs, .felt .info-panel, '
    + '.felt .area-sheetbtn .round-btn, .felt .trick .tcard, .felt .centre-note:not(:empty), .felt .auction-log:not(:empty), '
    + '.felt #actions > *, .felt #hand, .felt .open-hand')].filter(shown);
  parts.forEach((a, i) => {
    const r = a.getBoundingClientRect();
    for (const b of parts.slice(i + 1)) {
      if (a.contains(b) || b.contains(a) || (a.matches('.tcard') && b.matches('.tcard'))) continue;
      const s = b.getBoundingClientRect();
      if (r.left < s.right - 1 && s.left < r.right - 1 && r.top < s.bottom - 1 && s.top < r.bottom - 1)
        out.push(['overlap', what(a), what(b)]);
    }
  });
  return out;
}"""


def layout_faults(page: Page, extra: tuple[str, ...] = ()) -> list[Any]:
    """LAYOUT's findings, measured twice 300 ms apart on a settled page (a redraw between the two
    would detach what was measured: both must agree before a fault counts).  ``extra``: selectors
    of other pages' elements to measure the same way (the replay's, the lobby's)."""
    return layout_faults_of([page], extra)[0]


def layout_faults_of(pages: list[Page], extra: tuple[str, ...] = ()) -> list[list[Any]]:
    """`layout_faults` of each of ``pages`` (the same state in several languages): they settle
    side by side, so the two waits are spent once for all of them."""
    pages[0].wait_for_timeout(300)
    first = [page.evaluate(LAYOUT, [RIM, list(extra)]) for page in pages]
    pages[0].wait_for_timeout(300)
    second = [page.evaluate(LAYOUT, [RIM, list(extra)]) for page in pages]
    return [[f for f in a if f in b] for a, b in zip(first, second)]


def assert_fits(page: Page, *where: Any, extra: tuple[str, ...] = ()) -> None:
    faults = layout_faults(page, extra)
    if faults:
        pytest.fail(f"{where}:\n" + "\n".join(map(str, faults)), pytrace=False)


def finished_match(server: Server) -> ScriptedTable:
    table = ScriptedTable(server, target=1)
    table.play_out("plain")  # a valat or a tie does not end the match: play it out
    assert server.get(f"/api/tables/{table.id}")["table"]["status"] == "finished"
    return table


@pytest.fixture(scope="module")
def side_dealer(server: Server) -> Iterator[ScriptedTable]:
    """The card play of a doubled deal whose dealer sits at seat 3 (seat 0's left), seats 1-3 offline:
    a side seat carries the dealer's chip and the offline mark, the other the contract or the kontra."""
    while True:
        table = ScriptedTable(server)
        if table.state(0)["view"]["dealer"] == 3:
            break
        table.close()
    while table.state(0)["view"]["phase"] == "auction":
        assert table.step("doubled")
    table.play_cards(5)
    table.close()  # the other three players leave: their seats say "offline"
    yield table


@pytest.fixture(scope="module")
def auction(server: Server) -> Iterator[ScriptedTable]:
    """An auction, seat 0 to call, the dealer at a side seat (seat 1), seat 2's and 3's passes shown."""
    while True:
        table = ScriptedTable(server)
        if table.state(0)["view"]["dealer"] == 1:
            break
        table.close()
    while (nxt := table.to_move()) is not None and nxt[0] != 0:
        post(server, f"/api/tables/{table.id}/action", {"token": table.tokens[nxt[0]], "action": {"call": "pass"}})
    yield table
    table.close()


@pytest.fixture(scope="module")
def waiting(server: Server) -> Iterator[ScriptedTable]:
    """A table waiting for its two side seats, its first player named "Александра", seen by a
    spectator (the token is made up: the page drops it and watches)."""
    made = post(server, "/api/tables", {"seats": ["human", "human", "bot:random", "human"], "seat": 0, "name": "Александра"})
    table = ScriptedTable.seat_zero_of(server, made["table"]["id"], "none")
    yield table


@pytest.fixture(scope="module")
def summary(server: Server) -> Iterator[ScriptedTable]:
    table = ScriptedTable(server)
    table.play_until("doubled")
    yield table
    table.close()


@pytest.fixture(scope="module")
def redoubled_end(server: Server) -> Iterator[ScriptedTable]:
    """The end of a match of All Trumps deals at x4: the widest lines a score sheet has ("All Trumps
    x4", three-digit scores and running totals), which ran past the sheet's paper."""
    table = ScriptedTable(server, target=300)
    table.play_out("redoubled")
    yield table
    table.close()


@pytest.fixture(scope="module")
def redoubled_watched(server: Server, redoubled_end: ScriptedTable) -> ScriptedTable:
    """The same match's end seen by a spectator (a made-up token: the page drops it and watches), whose
    sheet says "Team 1" and "Team 2", longer than "We" and "They"."""
    return ScriptedTable.seat_zero_of(server, redoubled_end.id, "none")


@pytest.fixture(scope="module")
def match_end(server: Server) -> Iterator[ScriptedTable]:
    table = finished_match(server)
    yield table
    table.close()


@pytest.fixture(scope="module")
def long_end(server: Server) -> Iterator[ScriptedTable]:
    """The end of a whole match to 151 (about ten deals): a score sheet taller than the screen."""
    table = ScriptedTable(server, target=151)
    table.play_out("plain")
    yield table
    table.close()


DIALOG_OPENING = """(sel) => {
  const dialog = document.querySelector(sel + ' .dialog'), h = dialog.querySelector('h2');
  const button = dialog.querySelector('.primary'), d = dialog.getBoundingClientRect();
  const hb = h.getBoundingClientRect(), bb = button.getBoundingClientRect();
  const seen = (b) => b.top >= Math.max(d.top, 0) - 0.5 && b.bottom <= Math.min(d.bottom, innerHeight) + 0.5;
  const x = bb.left + bb.width / 2, y = bb.top + bb.height / 2;
  return {heading: seen(hb), button: seen(bb), focused: document.activeElement === button,
          on_top: document.elementFromPoint(x, y) === button,
          scrolls: [dialog, ...dialog.children].some((el) => el.scrollHeight > el.clientHeight + 1),
          covered: [...dialog.querySelectorAll('summary, a, button, th, td')].filter((el) => {
            if (button.parentElement.contains(el) || !el.checkVisibility()) return false;  // in a closed <details>
            el.scrollIntoView({block: 'nearest'});
            const r = el.getBoundingClientRect();
            const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
            return !(top && (el === top || el.contains(top)));
          }).map((el) => el.tagName + ':' + el.textContent.trim().slice(0, 20))};
}"""


@pytest.mark.parametrize("size", [(1280, 800), (1280, 600), (360, 740), (320, 640)])
def test_a_long_match_end_opens_at_its_heading_with_its_button_in_view(browser: Browser, long_end: ScriptedTable,
                                                                       size: tuple[int, int]) -> None:
    """With about ten deals on the sheet, the match end opened scrolled down to its focused Continue
    button, the heading ("The match is over") half out of view. It now opens at its heading with
    the button kept in view at the dialog's foot, focused; and the button covers no line of the sheet
    that the dialog cannot scroll into view."""
    page = long_end.open(browser, *size, "en")
    page.wait_for_selector("#match-end")
    page.wait_for_function("document.activeElement && document.activeElement.matches('#match-end .primary')")
    opened = page.evaluate(DIALOG_OPENING, "#match-end")
    assert opened["scrolls"], "the sheet should be taller than the dialog here: no test of its scrolling"
    assert opened["heading"] and opened["button"] and opened["focused"] and opened["on_top"], opened
    assert opened["covered"] == [], opened["covered"]
    page.click("#match-end details summary")  # the last deal's summary, opened at the sheet's foot
    assert page.evaluate(DIALOG_OPENING, "#match-end")["covered"] == []
    page.focus("#match-end .primary")
    page.keyboard.press("Enter")  # the focused button does what it says: the table under the dialog
    page.wait_for_selector("#match-end", state="detached")
    assert not page.errors  # type: ignore[attr-defined]
    page.context.close()


# How many lines the score of a line such as "Final score We 0 – 16 They" or "Trick 2/8 · tricks: We 1 – 0
# They" takes: from its first number after the last "·" (or the word tied to it by a no-break space,
# "We") to the end.
SCORE_LINES = """(sel) => {
  const node = document.querySelector(sel).firstChild, text = node.textContent, from = text.lastIndexOf('·') + 1;
  const i = from + text.slice(from).search(/\\S+\\u00a0\\d|\\d/);
  const range = document.createRange();
  range.setStart(node, i);
  range.setEnd(node, text.length);
  return new Set([...range.getClientRects()].filter((b) => b.width > 0).map((b) => Math.round(b.bottom))).size;
}"""


@pytest.mark.parametrize("stage", ["waiting", "auction", "side_dealer", "summary", "match_end", "redoubled_end",
                                   "redoubled_watched"])
def test_nothing_overflows_is_cut_off_or_overlaps(browser: Browser, stage: str, request: pytest.FixtureRequest) -> None:
    """The Bulgarian "Раздаващ" chip ran out of a side seat's name plate at 360 px, and the side
    seats' plates lay on the felt's wooden rim: every chip and label of every stage fits, in each
    language (the three side by side, each page resized to each width: the layout check's settling
    waits are spent once for them, and each page loads once)."""
    table: ScriptedTable = request.getfixturevalue(stage)
    ready = {"auction": "[data-call]", "waiting": ".seat-chooser", "side_dealer": ".seat.pos-left .chip.dealer", "summary": "#summary-dialog",
             "match_end": "#match-end", "redoubled_end": "#match-end", "redoubled_watched": "#match-end"}[stage]
    ended = stage in ("match_end", "redoubled_end", "redoubled_watched")
    pages = {lang: table.open(browser, *WIDTHS[0], lang) for lang in LANGS}  # each resized to each width
    for page in pages.values():
        page.wait_for_selector(ready)
        if ended:
            page.click("#match-end details summary")  # the last deal's summary, opened
    for width, height in WIDTHS + TABLETS:
        for page in pages.values():
            page.set_viewport_size({"width": width, "height": height})
        assert_all_fit(pages, stage, width)
        if stage == "redoubled_watched":  # a spectator's tricks as its score line: each team whole
            assert re.fullmatch(r"Trick 8/8 · tricks: Team 1: \d · Team 2: \d", pages["en"].inner_text("#trick-count"))
        for lang, page in pages.items():
            if ended:  # the final score in one line: "Краен резултат Ние 8 – 0 / Те" left "Те" alone under it
                assert page.evaluate(SCORE_LINES, "#match-end .final") == 1, (stage, lang, width)
            # a player's tricks in one line: "Взятка 1/8 · взятки: Ние 1 – / 0 Те" at 1280 px
            if page.locator("#trick-count").count() and not page.locator("#trick-count > span").count():
                assert page.evaluate(SCORE_LINES, "#trick-count") == 1, (stage, lang, width)
            # each team's score and (a spectator's) tricks whole: "Отбор 1: 0 · Отбор 2: / 0" at 1280 px
            assert page.evaluate("[...document.querySelectorAll('#score-line > span, #trick-count > span')]"
                                 ".filter((s) => s.getClientRects().length > 1).map((s) => s.textContent)") == [], (stage, lang, width)
            if width < 600:  # a finger's controls, the match end's "last deal" disclosure among them
                assert page.evaluate(SMALL_CONTROLS, FINGER) == [], (stage, lang)
            assert page.evaluate("document.documentElement.scrollWidth") <= width, (stage, lang, width)
    if stage in ("summary", "match_end"):  # and the table under the dialog
        for page in pages.values():
            page.click("#summary-ok" if stage == "summary" else "[data-close-end]")
            page.wait_for_selector(".overlay", state="detached")
        for width, height in WIDTHS + TABLETS:
            for page in pages.values():
                page.set_viewport_size({"width": width, "height": height})
            assert_all_fit(pages, stage, width, "under the dialog")
            for lang, page in pages.items():
                assert page.evaluate("document.documentElement.scrollWidth") <= width, (stage, lang, width)
    for page in pages.values():
        assert not page.errors  # type: ignore[attr-defined]
        page.context.close()


# The boxes of the hand's cards and of the calls that are not wholly inside the window
OUT_OF_VIEW = """() => [...document.querySelectorAll('#hand .card, [data-call]')].map((e) => [e, e.getBoundingClientRect()])
  .filter(([e, r]) => r.top < -0.5 || r.bottom > innerHeight + 0.5 || r.left < -0.5 || r.right > innerWidth + 0.5)
  .map(([e, r]) => [e.dataset.card || e.dataset.call, Math.round(r.top), Math.round(r.bottom)])"""


def test_the_hand_and_the_calls_are_in_a_low_windows_view(browser: Browser, auction: ScriptedTable,
                                                          side_dealer: ScriptedTable) -> None:
    """In a laptop's browser window of 1366 x 650 the felt was 790 px high and the hand lay under the
    window's lower edge, a third of each card in view: a player scrolled for every card and every
    call (at 1536 x 730 and on a tablet on its side too).  Every card of the hand and every call is in
    the window without scrolling, during the auction and the card play, and the layout check finds
    nothing, in every language."""
    pages = {(stage, lang): table.open(browser, *LOW[0], lang)
             for stage, table in (("auction", auction), ("card play", side_dealer)) for lang in LANGS}
    for (stage, _), page in pages.items():
        page.wait_for_selector("[data-call]" if stage == "auction" else "#hand .card")
    for width, height in LOW:
        for page in pages.values():
            page.set_viewport_size({"width": width, "height": height})
        assert_all_fit(pages, width, height)
        for key, page in pages.items():
            assert page.evaluate("scrollY") == 0
            assert page.evaluate(OUT_OF_VIEW) == [], (key, width, height)
    for page in pages.values():
        page.context.close()


def assert_all_fit(pages: dict[Any, Page], *where: Any) -> None:
    """`assert_fits` of pages (a state in each language, or several), settled side by side; each
    fault named by its page's key."""
    found = layout_faults_of(list(pages.values()))
    faults = [f"{key}: {fault}" for key, faults in zip(pages, found, strict=True) for fault in faults]
    if faults:
        pytest.fail(f"{where}:\n" + "\n".join(faults), pytrace=False)


def test_the_layout_check_finds_a_chip_out_of_its_plate(browser: Browser, auction: ScriptedTable) -> None:
    """The check itself: a chip made wider than its seat's plate, and a plate pushed onto the rim, are
    named; and a word of a bubble of several words drawn in two lines ("Quar/te (50) · Belote")."""
    page = auction.open(browser, 360, 740, "en")
    page.wait_for_selector(".seat.pos-right .chip.dealer")
    page.evaluate("""() => { const s = document.createElement('style');
        s.textContent = '.seat.pos-right .chip.dealer { min-width: 200px } .seat.pos-left .bubble { width: 40px }';
        document.head.appendChild(s);
        document.querySelector('.seat.pos-left .bubble').textContent = 'Quarte (50) · Belote'; }""")
    faults = layout_faults(page)
    assert any(f[0] == "out of its box" and "chip.dealer" in f[1] for f in faults), faults
    assert any(f[0] == "off the screen" or f[0] == "on the rim" for f in faults), faults
    assert ["a word broken", 'div.bubble "Quarte (50) · Belote"', "Quarte"] in faults, faults
    page.context.close()


def test_every_contracts_chip_stays_whole_on_a_side_seats_plate(browser: Browser, server: Server) -> None:
    """A CI run's random deal had a bot at a side seat bid diamonds: at 360 px "◆ Diamonds" filled
    the 89 px plate to the pixel and broke in two (the fixtures above always bid clubs); a later one
    found the chip in two lines at 320 px and the bid's bubble showing "Diamo/nds".  Each contract,
    bid from a side seat, stays whole and inside the plate, and its bubble whole, in every language, on
    phones and tablets; and its line in the auction log drew the suit's word in a second box of its own,
    padded off its icon.  (The six tables' pages side by side: the layout check's settling waits are
    spent once for them all.)"""
    tables, pages = [], {}
    for contract in ("C", "D", "H", "S", "NT", "AT"):
        table = ScriptedTable(server)
        while (nxt := table.to_move()) is not None and nxt[0] != 1:
            post(server, f"/api/tables/{table.id}/action", {"token": table.tokens[nxt[0]], "action": {"call": "pass"}})
        post(server, f"/api/tables/{table.id}/action", {"token": table.tokens[1], "action": {"call": contract}})
        tables.append(table)
        pages.update({(contract, lang): table.open(browser, 360, 740, lang) for lang in LANGS})
    for page in pages.values():
        page.wait_for_selector(".seat.pos-right .chip.contract")
        page.wait_for_selector(".seat.pos-right .bubble:not(:empty)")
    for width, height in ((360, 740), (320, 640), *TABLETS):
        for page in pages.values():
            page.set_viewport_size({"width": width, "height": height})
        assert_all_fit(pages, "contract chips", width)
    for key, page in pages.items():  # the bid's line in the auction log is one box: "Mehmet: ♦ Karo", not "♦ [Karo]"
        boxed = page.evaluate("""() => [...document.querySelectorAll('.auction-log > span *')].filter((e) => {
            const cs = getComputedStyle(e);
            return cs.backgroundColor !== 'rgba(0, 0, 0, 0)' || parseFloat(cs.paddingLeft) > 0; }).map((e) => e.outerHTML)""")
        assert boxed == [], (key, boxed)
        page.context.close()
    for table in tables:
        table.close()


def test_every_doubles_bubble_stays_whole_at_a_side_seat(browser: Browser, server: Server) -> None:
    """A CI run's random bot redoubled from a side seat: at 360 and 320 px its bubble showed
    "Redoub/le" ("Сюрко/нтра" for a surcontra, OPT-SURCONTRA, R3.3).  On a phone a side seat's
    bubble shows a double, redouble or surcontra by its multiplier, whole, in every language, and so
    the bid beside them; the word stays for a screen reader (and on the seat's chip).  At 1280 px
    and on a tablet the word is shown, whole."""
    table = ScriptedTable(server, options=("OPT-SURCONTRA",))
    while (nxt := table.to_move()) is not None and nxt[0] != 0:
        post(server, f"/api/tables/{table.id}/action", {"token": table.tokens[nxt[0]], "action": {"call": "pass"}})
    for seat, call in ((0, "C"), (1, "kontra"), (2, "rekontra"), (3, "kontra")):  # seat 3's kontra is a surkontra
        post(server, f"/api/tables/{table.id}/action", {"token": table.tokens[seat], "action": {"call": call}})
    # seat 0 sees seat 1's double at its right and seat 3's surcontra at its left; seat 1 sees seat
    # 2's redouble at its right and seat 0's bid at its left
    pages = [table.open(browser, 360, 740, lang, seat) for seat in (0, 1) for lang in LANGS]
    for page in pages:
        page.wait_for_selector(".seat.pos-right .bubble:not(:empty)")
        page.wait_for_selector(".seat.pos-left .bubble:not(:empty)")
    for width, height in ((360, 740), (320, 640), (1280, 800), *TABLETS):
        for page in pages:
            page.set_viewport_size({"width": width, "height": height})
        faults = layout_faults_of(pages)
        words = [[" ".join(page.inner_text(f".seat.pos-{side} .bubble").split()) for side in ("right", "left")]
                 for page in pages]  # a phone: the multiplier shown, the word kept for a screen reader
        if width < 600:
            assert words[0] == ["×2 Double", "×8 Surcontra"] and words[3][0] == "×4 Redouble", words
        else:  # a desktop's side seat has room for the word alone
            assert words[0] == ["Double", "Surcontra"] and words[3][0] == "Redouble", words
        assert faults == [[]] * len(pages), (width, words)
    for page in pages:
        page.context.close()
    table.close()


# What a seat's bubble says during the card play: its declarations, then its belote (R7.5, R7.7).
# A carré is one word whatever its rank; a seat announces two declarations at most (8 cards: a quint
# and a tierce, a carré and a quarte, two carrés).
BUBBLES = (["tierce"], ["quarte"], ["quint"], ["carre"], [], ["quint", "tierce"], ["carre", "quarte"],
           ["carre", "carre"])
ENGLISH = {"tierce": "Tierce (20)", "quarte": "Quarte (50)", "quint": "Quint (100)", "carre": "Carré"}


def test_every_declarations_bubble_stays_whole_at_a_side_seat(browser: Browser, side_dealer: ScriptedTable) -> None:
    """The bubbles show texts that random play picks, and the fixtures reached only some: a side
    seat's bubble showing each declaration, alone and with belote, and belote alone, keeps each word
    whole in every language, at 360, 320 and 1280 px and a tablet's widths, with the seat's chips (dealer, offline,
    contract or kontra) above it.  The page draws states the test sends through its socket: the real card play's, with the
    declarations put in."""
    base = side_dealer.state(0)
    sockets: dict[Page, Any] = {}
    pages = []

    def answer(page: Page, ws: Any) -> None:  # the page's table socket is the test's: it answers a sync with the state
        ws.on_message(lambda m: ws.send(json.dumps(base)) if json.loads(m)["type"] == "sync" else None)
        sockets[page] = ws

    for lang in LANGS:  # loading side by side
        page = new_page(browser, *WIDTHS[0])
        page.context.add_init_script(f"localStorage.setItem('belot.token.{side_dealer.id}', '{side_dealer.tokens[0]}');"
                                     f"localStorage.setItem('belot.lang', '{lang}');")
        page.route_web_socket(re.compile(r"/api/tables/\w+/ws"), lambda ws, page=page: answer(page, ws))
        page.goto(f"{side_dealer.server.url}/t/{side_dealer.id}", wait_until="commit")
        pages.append(page)
    for lang, page in zip(LANGS, pages):
        page.wait_for_selector(".felt")  # drawn from the test's state
        page.wait_for_function(f"document.documentElement.lang === '{lang}'")
    # the texts two by two, one at the left seat and one at the right (the seats' chips differ)
    texts = [(kinds, belote) for kinds in BUBBLES for belote in (False, True) if kinds or belote]
    pairs = list(zip(texts[0::2], texts[1::2] + texts[:1]))
    for left, right in pairs:
        view = dict(base["view"], announced=[[], [], [], []], belotes=[])
        for seat, (kinds, belote) in ((3, left), (1, right)):  # seat 0 sees seat 3 at its left, seat 1 at its right
            view["announced"][seat] = kinds
            if belote:
                view["belotes"].append({"seat": seat, "card": "K" + view["contract"]})  # a suit: the fixture bids one
        for page in pages:
            page.evaluate("window.__before = document.querySelector('.felt')")
        for page in pages:
            sockets[page].send(json.dumps(dict(base, view=view)))
        for page in pages:
            page.wait_for_function("document.querySelector('.felt') !== window.__before")
        shown = [" ".join(pages[0].inner_text(f".seat.pos-{side} .bubble").split()) for side in ("left", "right")]
        assert shown == [" · ".join([ENGLISH[k] for k in kinds] + ["Belote"] * belote) for kinds, belote in (left, right)]
        for width, height in ((360, 740), (320, 640), (1280, 800), *TABLETS):
            for page in pages:
                page.set_viewport_size({"width": width, "height": height})
            # measured once: nothing but the test's socket redraws these pages
            faults = [f"{lang}: {fault}" for lang, page in zip(LANGS, pages) for fault in page.evaluate(LAYOUT, [RIM, []])]
            assert not faults, (width, left, right, faults)
    for page in pages:
        assert not page.errors  # type: ignore[attr-defined]
        page.context.close()


# The texts (of the elements ``sel`` finds) whose last line is a lone token of one or two characters:
# "Точките не се закръглят до / 0" at 360 px.
LONE_ENDS = """(sel) => [...document.querySelectorAll(sel)].filter((e) => {
  const node = e.firstChild, text = node.textContent.trimEnd(), cut = text.lastIndexOf(' ');
  if (cut < 0 || text.length - cut - 1 > 2) return false;
  const box = (a, b) => { const r = document.createRange(); r.setStart(node, a); r.setEnd(node, b); return r.getBoundingClientRect(); };
  return box(cut + 1, text.length).top >= box(0, cut).bottom - 1;
}).map((e) => e.textContent)"""


@pytest.mark.parametrize("width", [360, 412, 600])
def test_phone_house_rule_checkboxes_are_finger_sized_by_their_labels(browser: Browser, server: Server, width: int) -> None:
    """The new table's house-rule checkboxes are 13 px: on a phone each is hit through its label,
    which must be 40 px or more and toggle the box wherever it is touched (a one-line rule's label
    was 34 px high on a phone wider than 400 px).  No rule's name ends in a line of its own holding
    a lone "0" (Bulgarian, 360 px)."""
    for lang in LANGS:
        page = new_page(browser, width=width, height=740)
        page.context.add_init_script(f"localStorage.setItem('belot.lang', '{lang}');")
        page.goto(server.url + "/")
        page.wait_for_load_state("networkidle")  # the lobby has its lists: no redraw under the clicks
        page.wait_for_selector("#house-rules-form input[data-option]")
        assert page.evaluate(SMALL_CONTROLS, FINGER) == [], (lang, width)
        assert page.evaluate(LONE_ENDS, "#house-rules-form .house-rule .name") == [], (lang, width)
        boxes = page.locator("#house-rules-form input[type=checkbox]")
        assert boxes.count() == 11
        for i in range(boxes.count()):
            box = boxes.nth(i)
            label = page.locator(f"label[for='{box.get_attribute('id')}']")
            size = label.bounding_box()
            assert size is not None
            was = box.is_checked()
            for x, y in ((size["width"] - 3, size["height"] / 2), (size["width"] / 2, size["height"] - 3)):
                label.click(position={"x": x, "y": y})  # the far end and the bottom edge of the label
                assert box.is_checked() != was, (lang, width, box.get_attribute("id"), x, y)
                was = not was
        assert not page.errors  # type: ignore[attr-defined]
        page.context.close()


# -- the keyboard's focus ----------------------------------------------------------------------------

ACTIVE = "() => { const a = document.activeElement; return a === document.body ? 'body' : a.outerHTML.slice(0, 80); }"


def test_a_new_state_leaves_the_focus_where_it_was_with_a_dialog_open(browser: Browser, server: Server) -> None:
    """The match end's dialog holds Replay, Rematch, Lobby and Continue: a person who had tabbed to
    Rematch, or opened the last deal's summary, lost both when a state arrived (another player
    leaving the table): the page was drawn anew, the focus went to Continue and the summary closed.
    Tab and Shift+Tab also left the dialog for the top bar, under the overlay."""
    table = finished_match(server)
    try:
        page = table.open(browser, 1280, 800, "en")
        page.wait_for_selector("#match-end")
        assert page.evaluate("document.activeElement.matches('[data-close-end]')")
        page.keyboard.press("Shift+Tab")
        page.keyboard.press("Shift+Tab")
        assert page.evaluate("document.activeElement.id") == "btn-rematch"
        page.click("#match-end details summary")
        page.focus("#btn-rematch")
        page.evaluate("window.__before = document.querySelector('#match-end')")
        table.sockets[0].close()  # seat 1 leaves: every page gets a new state and draws anew
        page.wait_for_function("document.querySelector('#match-end') !== window.__before")
        assert page.evaluate("document.activeElement.id") == "btn-rematch", page.evaluate(ACTIVE)
        assert page.evaluate("document.querySelector('#match-end details').open")
        # Tab goes round inside the dialog, never to the top bar or the table under it
        seen = set()
        for key in ["Tab"] * 8 + ["Shift+Tab"] * 8:
            page.keyboard.press(key)
            assert page.evaluate("!!document.activeElement.closest('#match-end')"), (key, page.evaluate(ACTIVE))
            seen.add(page.evaluate(ACTIVE))
        assert len(seen) >= 5  # the summary, Replay, Rematch, Lobby, Continue
        assert not page.errors  # type: ignore[attr-defined]
        page.context.close()
    finally:
        table.close()


def test_a_new_state_leaves_the_focus_on_the_tables_controls(browser: Browser, server: Server) -> None:
    """At the table, a person who had tabbed to the Score sheet button or to the top bar's Leave
    button lost the focus to the page's start whenever another seat moved; after their own call the
    focus went nowhere, and the next Tab began again at the top of the page."""
    table = ScriptedTable(server)
    try:
        while (nxt := table.to_move()) is not None and nxt[0] != 1:
            post(server, f"/api/tables/{table.id}/action", {"token": table.tokens[nxt[0]], "action": {"call": "pass"}})
        page = table.open(browser, 1280, 800, "en")
        page.wait_for_selector(".seat.pos-right.turn")
        for spot in ("#btn-sheet", "#btn-leave", "#btn-last"):
            page.focus(spot)
            page.evaluate("window.__before = document.querySelector('.felt')")
            assert table.step("plain")  # the seat to move passes: a new state
            page.wait_for_function("document.querySelector('.felt') !== window.__before")
            assert page.evaluate("'#' + document.activeElement.id") == spot, page.evaluate(ACTIVE)
            if table.to_move() is None or table.to_move()[0] == 0:  # type: ignore[index]
                break
        while (nxt := table.to_move()) is not None and nxt[0] != 0:
            assert table.step("plain")
        page.wait_for_selector("[data-call='pass']")
        page.focus("[data-call='pass']")
        page.keyboard.press("Enter")  # the call made: its button is gone, the focus stays by the calls
        page.wait_for_function("() => !document.querySelector(\"[data-call='pass']\") || document.querySelector('.seat.pos-bottom:not(.turn)')")
        page.wait_for_timeout(300)
        assert page.evaluate("!!document.activeElement.closest('.hand-area')"), page.evaluate(ACTIVE)
        page.focus("#btn-last")
        page.keyboard.press("Enter")  # the last trick, closed with Escape: the focus is back on its button
        page.wait_for_selector("#last-dialog")
        page.keyboard.press("Escape")
        page.wait_for_selector("#last-dialog", state="detached")
        assert page.evaluate("document.activeElement.id") == "btn-last", page.evaluate(ACTIVE)
        assert not page.errors  # type: ignore[attr-defined]
        page.context.close()
    finally:
        table.close()


def _long_declaration_offer(server: Server) -> ScriptedTable:
    """A table at seat 0's first card of All Trumps with a declaration of four or more cards (a
    quarte, a quint or a carré) to offer: deals are random, so tables are dealt until one has it."""
    for _ in range(150):
        table = ScriptedTable(server)
        while (nxt := table.to_move()) is not None:
            seat, view = nxt
            names = [a["call"] for a in view["legal"] if "call" in a]
            if not names:
                break
            call = "AT" if "AT" in names and not any(c["call"] != "pass" for c in view["calls"]) else "pass"
            post(server, f"/api/tables/{table.id}/action", {"token": table.tokens[seat], "action": {"call": call}})
        while nxt is not None and nxt[0] != 0:  # the others play their first legal card, declaring nothing
            seat, view = nxt
            card = next(a for a in view["legal"] if "card" in a)
            post(server, f"/api/tables/{table.id}/action", {"token": table.tokens[seat], "action": card})
            nxt = table.to_move()
        if nxt is not None and any(len(a.get("declare", ())) >= 4 for a in nxt[1]["legal"]):
            return table
        table.close()
    raise AssertionError("no deal of 150 offered seat 0 a declaration of four cards")


@pytest.mark.parametrize("width", [320, 360])
def test_a_declarations_cards_stay_on_one_line_of_its_button(browser: Browser, server: Server, width: int) -> None:
    """At 320 px "Announce Quarte (50) J♥ Q♥ K♥ / A♥" left the last card alone on a line: a
    declaration's cards are one piece, on one line of the button, and the button fits."""
    table = _long_declaration_offer(server)
    pages = [table.open(browser, width, 740, lang) for lang in LANGS]
    for page in pages:
        page.wait_for_selector("[data-declare]")
    for lang, page in zip(LANGS, pages):
        lines = page.evaluate("""() => [...document.querySelectorAll('[data-declare]')].map((b) =>
            [b.textContent.trim(), new Set([...b.querySelectorAll('.card-short')].map((c) => Math.round(c.getBoundingClientRect().top))).size])""")
        assert lines and all(n == 1 for _, n in lines), (lang, lines)
    assert layout_faults_of(pages) == [[]] * len(LANGS)
    for page in pages:
        page.context.close()
    table.close()
