"""A refusal of the server in the page's language: the server's `message` is English (docs/protocol.md),
and a Turkish or Bulgarian page showed it as is ("Bir sorun çıktı: every human seat of this table is
taken"). The page now says the catalog's words for the refusal's code (web.errors.<code>), filled from
the refusal's `detail` fields: how long to wait, the refused character, card, call or field."""

from __future__ import annotations

import contextlib
import http.server
import json
import re
import sqlite3
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
import test_web
from playwright.sync_api import Browser, Page
from test_web import ScriptedTable, Server, new_page, post
from test_web_pages_layout import assert_pages_fit

from belot.i18n import catalog

pytestmark = pytest.mark.browser

browser = test_web.browser  # test_web's fixtures: one Chromium and one `belot serve` for this module too
server = test_web.server
rematch = test_web.rematch  # a rematch whose seats 1-3 are kept for their players (120 s)


def toast_after(page: Page, selector: str) -> str:
    """The toast a click on `selector` brings. An earlier toast stays up 3.5 s: it must be gone first, or
    its words would be read as this click's answer (a CI run read the previous refusal that way)."""
    page.wait_for_selector("#toast", state="hidden", timeout=10_000)
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
    # An address that is no page: said in Turkish, with the way back ({"detail":"Not Found"} before).
    answer = c.goto(f"{server.url}/masa/{tid}")
    assert answer is not None and answer.status == 404
    c.wait_for_selector("main .box")
    assert c.inner_text("main .box").startswith(tr["web.page.not_found"])
    assert c.title().startswith(tr["web.page.not_found"])
    c.click("main .box a[href='/']")
    c.wait_for_selector("#create-btn")
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


def said(lang: str, key: str, **fields: str) -> re.Pattern[str]:
    """The catalog's sentence ``key`` in ``lang`` as a pattern: ``{wait}`` is any wait the page can say
    (web.wait.*, a number of seconds or minutes), any other ``{field}`` the text given for it."""
    words = catalog(lang)
    waits = "|".join(re.escape(words[k]).replace(re.escape("{n}"), r"\d+")
                     for k in ("web.wait.second", "web.wait.seconds", "web.wait.minutes"))
    pattern = re.escape(words[key]).replace(re.escape("{wait}"), f"(?:{waits})")
    for name, value in fields.items():
        pattern = pattern.replace(re.escape("{" + name + "}"), re.escape(value))
    return re.compile(pattern)


def refusal(server: Server, path: str, body: dict[str, Any]) -> Any:
    """The server's error body for a request it refuses."""
    req = urllib.request.Request(server.url + path, data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json"})
    with pytest.raises(urllib.error.HTTPError) as e:
        urllib.request.urlopen(req, timeout=5)
    return json.loads(e.value.read())["error"]


@pytest.mark.parametrize("lang, wait", [("tr", "2 dakika sonra"), ("bg", "след 2 минути")])
def test_a_seat_kept_for_a_rematch_says_in_the_pages_language_how_long_it_is_kept(
        browser: Browser, server: Server, rematch: ScriptedTable, lang: str, wait: str) -> None:
    """The wait was only in the server's English message; the Turkish and Bulgarian pages said "a little
    later". The join a person clicks in the lobby meets a kept seat (the request goes to the rematch, as
    when the lobby is older than the rematch): the page says the server's retry_after in its words."""
    open_table = post(server, "/api/tables", {})["table"]["id"]
    page = new_page(browser, locale={"tr": "tr-TR", "bg": "bg-BG"}[lang])
    page.goto(server.url + "/")
    join = f"#open-tables li[data-table='{open_table}'] [data-join]"
    page.wait_for_selector(join)
    page.route(f"**/api/tables/{open_table}/join",
               lambda route: route.continue_(url=f"{server.url}/api/tables/{rematch.id}/join"))
    shown = toast_after(page, join)
    assert said(lang, "web.errors.seat_reserved").fullmatch(shown), shown
    assert wait in shown  # the hold is 120 s, 2 minutes, and the module's tests take less than 30 s
    assert "seconds" not in shown and "rematch)" not in shown
    assert not page.errors  # type: ignore[attr-defined]
    page.context.close()


@pytest.fixture(scope="module")
def strict(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server of its own with 2 tables a minute from one address (and the login limit of 5 failures
    in 5 minutes, which would refuse the other tests' logins from the same address)."""
    srv = Server(tmp_path_factory.mktemp("strict") / "belot.sqlite3", "--tables-per-minute", "2")
    srv.start()
    yield srv
    srv.stop()


def test_the_limits_of_tables_and_logins_say_how_long_to_wait_in_turkish_and_bulgarian(
        browser: Browser, strict: Server) -> None:
    for _ in range(2):
        post(strict, "/api/tables", {"seat": 0})
    err = refusal(strict, "/api/tables", {"seat": 0})
    assert err["code"] == "too_many_tables" and err["detail"]["reason"] == "created"
    for lang, locale in (("tr", "tr-TR"), ("bg", "bg-BG")):
        page = new_page(browser, locale=locale)
        page.goto(strict.url + "/")
        page.wait_for_selector("#create-btn")
        shown = toast_after(page, "#create-btn")
        assert said(lang, "web.errors.tables_per_minute", limit="2").fullmatch(shown), shown
        seconds = re.escape(catalog(lang)["web.wait.seconds"]).replace(re.escape("{n}"), r"\d+")
        assert re.search(seconds, shown), shown  # the wait, in seconds: under a minute
        assert not page.errors  # type: ignore[attr-defined]
        page.context.close()
    tr_wait = catalog("tr")["web.wait.minutes"].replace("{n}", "5")
    bg_wait = catalog("bg")["web.wait.minutes"].replace("{n}", "5")
    for lang, locale, wait in (("bg", "bg-BG", bg_wait), ("tr", "tr-TR", tr_wait)):
        page = new_page(browser, locale=locale)
        page.goto(strict.url + "/account")
        page.wait_for_selector("#login-btn")
        page.fill("#acc-name", "Стоян")
        page.fill("#acc-password", "не е паролата")
        for _ in range(6 if lang == "bg" else 1):  # 5 failures from this address, then the limit
            page.evaluate("document.querySelector('#account-error').classList.add('hidden')")
            page.click("#login-btn")
            page.wait_for_selector("#account-error:not(.hidden)")
        shown = page.inner_text("#account-error")
        assert said(lang, "web.errors.too_many_logins").fullmatch(shown), shown
        assert wait in shown, shown  # 300 s of the window left: 5 minutes
        assert not page.errors  # type: ignore[attr-defined]
        page.context.close()


def error_text(page: Page, error: dict[str, Any]) -> str:
    """What the page (its errorText, js/i18n.js) says for a refusal the server sent."""
    return str(page.evaluate("async e => (await import('/static/js/i18n.js')).errorText(e)", error))


def test_an_illegal_action_and_a_refused_name_are_said_in_the_pages_language(
        browser: Browser, server: Server) -> None:
    """Their detail was the server's English after a translated lead-in ("Bu oynanamaz: kontra is not
    legal: ..."); now the refused card or call, the rule and the name's fault are said from fields."""
    table = ScriptedTable(server)
    try:
        seat, _ = table.to_move() or (None, None)
        assert seat is not None
        kontra = refusal(server, f"/api/tables/{table.id}/action", {"token": table.tokens[seat],
                                                                     "action": {"call": "kontra"}})
        card = refusal(server, f"/api/tables/{table.id}/action", {"token": table.tokens[seat],
                                                                   "action": {"card": "KH"}})
    finally:
        table.close()
    assert (kontra["code"], kontra["rule"], card["code"]) == ("illegal", "R3.3", "illegal")
    # A name of nothing visible (a combining accent alone), refused by the server, not the browser.
    page = new_page(browser, locale="tr-TR")
    page.goto(server.url + "/")
    page.wait_for_selector("#create-btn")
    page.fill("#name", "\u0301")
    shown = toast_after(page, "#create-btn")
    assert shown == catalog("tr")["web.errors.name_invisible"], shown
    too_long = refusal(server, "/api/tables", {"seat": 0, "name": "x" * 40})
    target = refusal(server, "/api/tables", {"target": 0})
    for lang, locale in (("tr", "tr-TR"), ("bg", "bg-BG")):
        if lang != "tr":
            page = new_page(browser, locale=locale)
            page.goto(server.url + "/")
            page.wait_for_selector("#create-btn")
        words = catalog(lang)
        assert error_text(page, kontra) == words["web.errors.illegal_action"].format(
            action=words["call.kontra"], rule="R3.3")
        # The card as the language names it: "Kupa Papazı", "Поп купа" (not "Papaz Kupa").
        king = {"tr": "Kupa Papazı", "bg": "Поп купа"}[lang]
        assert error_text(page, card) == words["web.errors.illegal_action"].format(action=king, rule=card["rule"])
        assert error_text(page, too_long) == words["web.errors.name_too_long"].format(limit=32)
        assert error_text(page, target) == words["web.errors.bad_field"].format(field=words["web.lobby.target"])
        for err in (kontra, card, too_long, target):
            shown = error_text(page, err)
            assert not re.search(r"\b(legal|not|name|characters|Input|should)\b", shown), shown
        assert not page.errors  # type: ignore[attr-defined]
        page.context.close()


@pytest.mark.parametrize(("lang", "locale", "named"), [
    ("en", "en-US", {"QS": "Queen of Spades", "TD": "Ten of Diamonds", "7C": "Seven of Clubs"}),
    ("tr", "tr-TR", {"QS": "Maça Kızı", "TD": "Karo Onlusu", "JC": "Sinek Valesi", "AH": "Kupa Ası"}),
    ("bg", "bg-BG", {"QS": "Дама пика", "TD": "Десетка каро", "KH": "Поп купа"}),
])
def test_a_card_in_words_is_named_as_its_language_names_it(browser: Browser, server: Server, lang: str,
                                                           locale: str, named: dict[str, str]) -> None:
    """The words of a card (the hand's labels for a screen reader, the belote question, a refused card)
    were rank then suit in every language: "Queen Spades", "Kız Maça"."""
    page = new_page(browser, locale=locale)
    page.goto(server.url + "/")
    page.wait_for_selector("#create-btn")
    words = page.evaluate("""async cards => {
        const [{ cardWords }, { t }] = await Promise.all([import('/static/js/cards.js'), import('/static/js/i18n.js')]);
        return Object.fromEntries(cards.map(c => [c, cardWords(c, t)]));
    }""", list(named))
    assert words == named
    page.context.close()


ATTACK = """<!doctype html><html><body>
<iframe name="sink"></iframe>
<form id="form" method="POST" enctype="text/plain" target="sink" action="{api}/api/tables">
<input name='{{"seat": 0, "seats": ["human", "bot:random", "bot:random", "bot:random"], "name": "Mallory' value='form"}}'>
</form>
<script>
const body = JSON.stringify({{seat: 0, seats: ["human", "bot:random", "bot:random", "bot:random"], name: "Mallory"}});
window.done = Promise.all([
  // no Content-Type at all (a Blob of no type): only the browser's Sec-Fetch-Site tells this one
  fetch("{api}/api/tables", {{method: "POST", mode: "no-cors", body: new Blob([body])}}),
  fetch("{api}/api/tables", {{method: "POST", mode: "no-cors", body: body}}),  // text/plain
  fetch("{api}/api/tables/{table}/join", {{method: "POST", mode: "no-cors", body: new Blob(['{{"seat": 1, "name": "Mallory"}}'])}}),
]).then(() => "sent", (e) => String(e));
document.getElementById("form").submit();
</script></body></html>"""


def test_a_page_of_another_site_cannot_make_a_visitors_browser_act_here(browser: Browser, server: Server) -> None:
    """A page of another site (here http://localhost:PORT, beside the server's http://127.0.0.1:PORT)
    made its visitors' Chromium post a form and no-cors fetches to the API: it created tables and took
    seats from their addresses. Chromium says where the request comes from (Sec-Fetch-Site:
    cross-site) and the server refuses it (server/crosssite.py), so nothing is stored."""
    table = post(server, "/api/tables", {"seats": ["human"] * 4, "seat": 0, "name": "Ayşe"})["table"]["id"]
    page_html = ATTACK.format(api=server.url, table=table).encode()

    class Attacker(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # the name http.server calls
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.end_headers()
            self.wfile.write(page_html)

        def log_message(self, *args: Any) -> None:
            pass

    def mallory_seats() -> int:
        with contextlib.closing(sqlite3.connect(server.db)) as db:
            return int(db.execute("SELECT COUNT(*) FROM belot_seats WHERE name LIKE 'Mallory%'").fetchone()[0])

    attacker = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Attacker)
    threading.Thread(target=attacker.serve_forever, daemon=True).start()
    page = new_page(browser)
    try:
        before = mallory_seats()
        with page.expect_response(lambda r: r.request.method == "POST" and "/api/tables" in r.url
                                  and r.request.post_data is not None and "form" in r.request.post_data) as form:
            page.goto(f"http://localhost:{attacker.server_address[1]}/")
        assert page.evaluate("window.done") == "sent"  # each request went out and was answered
        assert form.value.status == 403
        assert mallory_seats() == before
        assert post(server, f"/api/tables/{table}/join", {"seat": 1, "name": "Elif"})["seat"] == 1  # still free
    finally:
        page.context.close()
        attacker.shutdown()


@pytest.fixture(scope="module")
def abandoning(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A `belot serve` that closes a table nobody is at after one second."""
    srv = Server(tmp_path_factory.mktemp("abandon") / "belot.sqlite3", "--abandon-after", "1")
    srv.start()
    yield srv
    srv.stop()


def test_a_player_back_at_an_abandoned_table_is_told_so_and_it_leaves_the_lobby(browser: Browser,
                                                                                abandoning: Server) -> None:
    """A seat's token kept in the browser for a table closed as abandoned: the page said "The match is
    over" (a match that never ended), still offered to leave the seat, and the lobby kept the table
    among this browser's. It now says the table was closed and why, offers no seat to leave, and the
    lobby forgets it; the game stays there to replay. In each language, measured at 360, 1280 and 320 px."""
    made = post(abandoning, "/api/tables", {"seats": ["human", "bot:random", "bot:random", "bot:random"],
                                            "seat": 0, "name": "Ayşe"})
    tid, token = made["table"]["id"], made["token"]
    deadline = time.monotonic() + 20
    while abandoning.get(f"/api/tables/{tid}")["table"]["status"] != "abandoned":
        assert time.monotonic() < deadline, "the table was not closed"
        time.sleep(0.2)
    pages = {lang: new_page(browser, width=360, height=740) for lang in ("en", "tr", "bg")}
    for lang, page in pages.items():
        words = catalog(lang)
        page.context.add_init_script(f"localStorage.setItem('belot.lang', '{lang}');"
                                     f"localStorage.setItem('belot.token.{tid}', '{token}');")
        page.goto(f"{abandoning.url}/t/{tid}")
        page.wait_for_selector("#toast:not(.hidden)")
        assert page.inner_text("#toast") == words["web.errors.match_abandoned"], lang
        page.wait_for_selector(".felt")
        assert page.locator("#btn-leave").count() == 0
        assert page.locator(".call, .hand .card button, .hand button").count() == 0  # nothing to play
        # and the page goes on saying so once the toast is gone, with the way to the game's replay
        assert page.inner_text("#watching").startswith(words["web.table.abandoned"]), lang
        assert page.get_attribute("#watching a", "href") == f"/replay/{tid}"
    assert_pages_fit(pages, "an abandoned table", extra=("#watching", "#watching a"))
    for page in pages.values():
        page.goto(abandoning.url + "/")
        page.wait_for_load_state("networkidle")
        page.wait_for_function(f"localStorage.getItem('belot.token.{tid}') === null")
        assert tid not in page.inner_text("main")
        assert not page.errors  # type: ignore[attr-defined]
        page.context.close()
