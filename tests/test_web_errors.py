"""A refusal of the server in the page's language: the server's `message` is English (docs/protocol.md),
and a Turkish or Bulgarian page showed it as is ("Bir sorun çıktı: every human seat of this table is
taken"). The page now says the catalog's words for the refusal's code (web.errors.<code>)."""

from __future__ import annotations

import pytest
import test_web
from playwright.sync_api import Browser, Page
from test_web import Server, new_page, post

from belot.i18n import catalog

pytestmark = pytest.mark.browser

browser = test_web.browser  # test_web's fixtures: one Chromium and one `belot serve` for this module too
server = test_web.server


def toast_after(page: Page, selector: str) -> str:
    page.click(selector)
    page.wait_for_selector("#toast:not(.hidden)")
    return page.inner_text("#toast")


def test_a_turkish_player_joining_a_full_table_is_told_so_in_turkish(browser: Browser, server: Server) -> None:
    a = new_page(browser, locale="tr-TR")
    tid = test_web.create_table(a, server, seats=("bot:random", "human", "bot:random"), name="Ayşe")
    c = new_page(browser, locale="tr-TR")
    c.goto(server.url + "/")
    join = f"#open-tables li[data-table='{tid}'] [data-join]"
    c.wait_for_selector(join)
    c.fill("#name", "Can")
    post(server, f"/api/tables/{tid}/join", {"name": "Mehmet"})  # the last seat goes while Can looks at the lobby
    shown = toast_after(c, join)
    assert shown == catalog("tr")["web.errors.table_full"]
    assert "seat" not in shown and "taken" not in shown
    # No answer at all (the network gone): said in Turkish too, not the browser's "Failed to fetch".
    c.route("**/api/tables", lambda route: route.abort() if route.request.method == "POST" else route.continue_())
    assert toast_after(c, "#create-btn") == catalog("tr")["web.errors.network"]
    c.unroute("**/api/tables")
    # The replay of a match still played says why there is none yet.
    c.goto(f"{server.url}/replay/{tid}")
    c.wait_for_selector("main .box")
    tr = catalog("tr")
    assert c.inner_text("main .box") == f"{tr['web.replay.not_found']} {tr['web.errors.in_progress']}"
    assert not a.errors and not c.errors  # type: ignore[attr-defined]
    a.context.close()
    c.context.close()


def test_a_bulgarian_guest_is_told_in_bulgarian_that_a_name_is_an_accounts_or_unusable(
        browser: Browser, server: Server) -> None:
    post(server, "/api/accounts", {"name": "Радослава", "password": "баница с боза"})
    page = new_page(browser, locale="bg-BG")
    page.goto(server.url + "/")
    page.wait_for_selector("#create-btn")
    page.fill("#name", "Радослава")
    shown = toast_after(page, "#create-btn")
    assert shown == catalog("bg")["web.errors.name_registered"]
    assert "account" not in shown and "log in" not in shown
    # An emoji of several people (joined by U+200D, an invisible format character the server refuses).
    page.fill("#name", "Иван 👨\u200d💻")
    shown = toast_after(page, "#create-btn")
    assert shown == catalog("bg")["web.errors.name_character"].format(char="U+200D")
    assert "invisible" not in shown and "not allowed" not in shown
    assert page.url.rstrip("/") == server.url  # no table was made
    assert not page.errors  # type: ignore[attr-defined]
    page.context.close()
