"""Accounts in the browser (issue 21 B): register, log out, a refused and a good login, a short
match to target 10 under the account's name against bots, the rematch offer, the profile with the
match and the changed rating, the leaderboard, and log out. With BELOT_WRITE_SCREENSHOTS=1 it
rewrites docs/screenshots/profile.png."""

from __future__ import annotations

import json
import os
import time
import urllib.request

import pytest
import test_web
from playwright.sync_api import Browser, Page, Route
from test_web import SCREENSHOTS, Server, act_once, new_page, table_id

pytestmark = pytest.mark.browser

PASSWORD = "kesme şeker 42"


browser = test_web.browser  # test_web's fixtures: one Chromium and one `belot serve` for this module too
server = test_web.server


def test_register_play_see_history_and_rating_log_out(browser: Browser, server: Server) -> None:
    page = new_page(browser)
    page.goto(server.url + "/")
    page.click("#login-link")
    page.fill("#acc-name", "Zeynep")
    page.fill("#acc-password", PASSWORD)
    page.click("#register-btn")
    page.wait_for_selector("#playing-as")
    assert "Zeynep" in page.inner_text("#playing-as")
    assert page.inner_text("#me-link") == "Zeynep"
    cookies = {c["name"]: c for c in page.context.cookies()}
    assert cookies["belot_session"]["httpOnly"] and cookies["belot_session"]["sameSite"] == "Lax"
    assert page.evaluate("document.cookie") == ""  # HttpOnly: no script can read the session
    session = cookies["belot_session"]["value"]

    # Log out, a wrong password is refused with a message, the right one logs in.
    page.goto(server.url + "/account")
    page.click("#logout")
    page.wait_for_selector("#login-link")
    page.goto(server.url + "/account")
    page.fill("#acc-name", "zeynep")
    page.fill("#acc-password", "not the password")
    page.click("#login-btn")
    page.wait_for_selector("#account-error:not(.hidden)")
    assert "Wrong name or password" in page.inner_text("#account-error")
    page.fill("#acc-password", PASSWORD)
    page.click("#login-btn")
    page.wait_for_selector("#playing-as")
    assert PASSWORD not in page.content()

    # A short match against three bots, under the account's name.
    page.fill("#target", "10")
    page.click("#create-btn")
    page.wait_for_selector(".felt")
    tid = table_id(page)
    assert server.get(f"/api/tables/{tid}")["table"]["seats"][0]["name"] == "Zeynep"
    first = True
    for _ in range(1500):
        what = act_once(page, server, bid=first)
        first = first and what != "call"
        if what == "end":
            break
    assert "The match is over" in page.inner_text("#match-end")
    # The rematch: a new table, the same seats, this player at the same seat under the account's name.
    page.click("#btn-rematch")
    page.wait_for_function(f"!location.pathname.endsWith('{tid}')")
    page.wait_for_selector(".felt")
    again = table_id(page)
    assert server.get(f"/api/tables/{again}")["table"]["seats"][0]["name"] == "Zeynep"
    # Back to the finished match and Rematch again: the same rematch, not "someone took this seat".
    page.go_back()
    page.wait_for_selector("#btn-rematch")
    page.click("#btn-rematch")
    page.wait_for_function(f"location.pathname.endsWith('{again}')")
    page.wait_for_selector(".felt")
    assert page.locator("#toast:not(.hidden)").count() == 0

    # Another browser, logged in to the same account, finds that running table in its lobby.
    other = new_page(browser)
    other.goto(server.url + "/account")
    other.fill("#acc-name", "Zeynep")
    other.fill("#acc-password", PASSWORD)
    other.click("#login-btn")
    other.click(f"#my-tables [data-resume='{again}']")
    other.wait_for_selector(".felt")
    assert table_id(other) == again and other.evaluate(f"localStorage.getItem('belot.token.{again}')")
    # By a table's link, a logged-in player sits down without typing a name, under the account's.
    req = urllib.request.Request(server.url + "/api/tables", data=json.dumps(
        {"seats": ["human", "human", "bot", "bot"], "seat": 0, "name": "Guest"}).encode(),
        headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=5) as r:
        linked = json.load(r)["table"]["id"]
    other.goto(f"{server.url}/t/{linked}")
    assert "Zeynep" in other.inner_text(".seat-chooser #playing-as")
    other.click("[data-sit='1']")
    other.wait_for_function(f"!!localStorage.getItem('belot.token.{linked}')")
    assert server.get(f"/api/tables/{linked}")["table"]["seats"][1]["name"] == "Zeynep"
    other.context.close()

    # The profile lists the match with its replay link, and the rating moved.
    page.goto(server.url + "/")
    page.click("#me-link")
    row = page.locator(f"#history tr[data-table='{tid}']")
    row.wait_for()
    assert row.locator(f"a[href='/replay/{tid}']").count() == 1
    assert row.inner_text().count("Bot:") == 3  # partner and both opponents
    profile = server.get("/api/users/Zeynep")
    assert profile["account"]["games"] == 1
    assert profile["account"]["rating"]["mu"] != 25.0
    assert profile["games"][0]["rating_after"] != profile["games"][0]["rating_before"]
    shown = float(page.inner_text("#rating").split()[1])
    assert shown == pytest.approx(profile["account"]["rating"]["ordinal"], abs=0.051) and shown != 0
    if os.environ.get("BELOT_WRITE_SCREENSHOTS") == "1":
        page.screenshot(path=str(SCREENSHOTS / "profile.png"), full_page=True)

    page.click("a[href='/leaderboard']")
    page.wait_for_selector("#leaderboard")
    assert "Zeynep" in page.inner_text("#leaderboard")

    page.goto(server.url + "/account")
    page.click("#logout")
    page.wait_for_selector("#login-link")
    assert server.get("/api/me")["account"] is None
    log = server.log.read_text(errors="replace")
    assert PASSWORD not in log and session not in log  # nor in the server's log
    assert not page.errors  # type: ignore[attr-defined]


def registered_with_a_table(page: Page, server: Server, name: str) -> str:
    """Register the account ``name`` in ``page`` and create a table with a free human seat (by
    someone else); the table's id."""
    page.goto(server.url + "/account")
    page.fill("#acc-name", name)
    page.fill("#acc-password", PASSWORD)
    page.click("#register-btn")
    page.wait_for_selector("#me-link")
    req = urllib.request.Request(server.url + "/api/tables", data=json.dumps(
        {"seats": ["human", "human", "bot", "bot"], "seat": 0, "name": "Host"}).encode(),
        headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=5) as r:
        return str(json.load(r)["table"]["id"])


def watch_for_the_name_field(page: Page) -> None:
    """From the next page loaded on: ``window.sawNameField`` is true once a guest's name field was drawn."""
    page.add_init_script("new MutationObserver(() => { if (document.querySelector('#join-name'))"
                         " window.sawNameField = true; }).observe(document, {childList: true, subtree: true});")


def test_a_logged_in_player_is_known_before_the_table_renders(browser: Browser, server: Server) -> None:
    """The seat chooser of a table opened by its link says "playing as NAME" to a logged-in player
    even when the server is slow to say who is logged in (/api/me answers a second late here): the
    page asks first and renders then, so an account is never offered a name field to type in."""
    page = new_page(browser)
    linked = registered_with_a_table(page, server, "Ayla")

    def late(route: Route) -> None:
        time.sleep(1.0)
        route.continue_()

    watch_for_the_name_field(page)
    page.route("**/api/me", late)
    page.goto(f"{server.url}/t/{linked}")
    page.wait_for_selector(".seat-chooser")
    assert "Ayla" in page.inner_text(".seat-chooser #playing-as")
    assert page.evaluate("window.sawNameField !== true")  # not even for a moment
    assert page.locator("#join-name").count() == 0
    assert not page.errors  # type: ignore[attr-defined]
    page.context.close()


def test_a_logged_in_player_is_known_even_when_the_server_answers_after_the_page_rendered(
        browser: Browser, server: Server) -> None:
    """/api/me answers 4 s late, after the page stopped waiting (3 s) and rendered the table as a
    guest's: when the answer comes, the seat chooser is drawn again for the account."""
    page = new_page(browser)
    linked = registered_with_a_table(page, server, "Derya")

    def very_late(route: Route) -> None:
        time.sleep(4.0)  # the page runs on meanwhile: it stops waiting at 3 s and renders
        route.continue_()

    watch_for_the_name_field(page)
    page.route("**/api/me", very_late)
    page.goto(f"{server.url}/t/{linked}")
    page.wait_for_selector("#playing-as", timeout=15_000)
    assert page.evaluate("window.sawNameField === true")  # drawn as a guest's first, then again
    assert "Derya" in page.inner_text(".seat-chooser #playing-as")
    assert page.locator("#join-name").count() == 0
    assert not page.errors  # type: ignore[attr-defined]
    page.context.close()


def test_a_server_that_never_says_who_is_logged_in_does_not_keep_the_page_blank(
        browser: Browser, server: Server) -> None:
    """/api/me never answers here: after waiting for it a few seconds the lobby renders all the same."""
    page = new_page(browser)
    page.route("**/api/me", lambda route: None)  # the request stays pending
    page.goto(server.url + "/")
    page.wait_for_selector("#create-btn", timeout=10_000)
    assert not page.errors  # type: ignore[attr-defined]
    page.context.close()
