"""The server under a hostile client (issue 19): each attack that once took it down, as a test.

Bad names, huge integers, deep nesting and huge bodies are refused with a 4xx naming what is wrong
(never a 500, never a traceback in the log), nothing is stored on a refusal, and the lobby keeps
answering; connections and tables per client address are limited (429 / close 4029); a database
that already holds a bad name is served; the lobby is paged from an index.
"""

from __future__ import annotations

import base64
import contextlib
import json
import logging
import os
import socket
import sqlite3
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette's note about httpx versions
    from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from test_server_restart import serving

from belot.server.app import create_app
from belot.server.botpool import BotPool
from belot.server.errors import TableError
from belot.server.limits import MAX_DEPTH, Limits, depth, loads
from belot.server.storage import SCHEMA_VERSION


def make_client(tmp_path: Path, **kwargs: Any) -> TestClient:
    kwargs.setdefault("bot_delay", 0.0)
    return TestClient(create_app(f"sqlite:///{tmp_path / 'belot.sqlite3'}", **kwargs))


def db_rows(tmp_path: Path) -> dict[str, int]:
    with sqlite3.connect(tmp_path / "belot.sqlite3") as c:
        return {t: c.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0]
                for t in ("belot_tables", "belot_seats", "belot_deals", "belot_moves")}


@pytest.fixture
def no_tracebacks(caplog: pytest.LogCaptureFixture) -> Iterator[None]:
    """Bad input is the client's fault: the server logs no error and no traceback for it."""
    with caplog.at_level(logging.WARNING, logger="belot.server"):
        yield
    bad = [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
    assert not bad, [r.getMessage() for r in bad]


def error_of(r: Any, status: int, code: str) -> str:
    assert r.status_code == status, r.text
    err = r.json()["error"]
    assert err["code"] == code, err
    return str(err["message"])


# -- 1. names -----------------------------------------------------------------------------------

@pytest.mark.parametrize("body, detail", [
    ('{"names": ["\\ud800", null, null, null]}', {"field": "names[0]", "reason": "character", "char": "U+D800"}),
    ('{"seat": 0, "name": "\\ud800"}', {"field": "name", "reason": "character", "char": "U+D800"}),
    ('{"seat": 0, "name": "a\\u202eb"}', {"field": "name", "reason": "character", "char": "U+202E"}),
    ('{"names": [null, null, "\\u0000x", null]}', {"field": "names[2]", "reason": "character", "char": "U+0000"}),
    ('{"seat": 0, "name": "' + "x" * 33 + '"}', {"field": "name", "reason": "too_long", "limit": 32}),
    ('{"seat": 0, "name": "\\u0301 "}', {"field": "name", "reason": "nothing_visible"}),
    # characters that show as nothing: a copy of another's name ("Ivan" + U+034F), or a blank name
    ('{"seat": 0, "name": "Ivan\\u034f"}', {"field": "name", "reason": "character", "char": "U+034F"}),
    ('{"seat": 0, "name": "\\u3164"}', {"field": "name", "reason": "character", "char": "U+3164"}),
    ('{"seat": 0, "name": "\\u2800\\u2800"}', {"field": "name", "reason": "character", "char": "U+2800"}),
    ('{"names": ["\\uffa0", null, null, null]}', {"field": "names[0]", "reason": "character", "char": "U+FFA0"}),
    ('{"seat": 0, "name": "\\ufe0f"}', {"field": "name", "reason": "character", "char": "U+FE0F"}),
])
def test_a_bad_name_is_refused_naming_the_field_and_nothing_is_stored(
        tmp_path: Path, body: str, detail: dict[str, Any], no_tracebacks: None) -> None:
    with make_client(tmp_path) as client:
        before = db_rows(tmp_path)
        r = client.post("/api/tables", content=body)
        message = error_of(r, 400, "bad_request")
        assert message.startswith(f"{detail['field']}:"), message
        # The same as fields (docs/protocol.md), for a page to say in its own language.
        assert r.json()["error"]["detail"] == detail
        assert db_rows(tmp_path) == before
        assert client.get("/api/tables").status_code == 200


def test_a_join_with_a_bad_name_is_refused_and_leaves_the_seat_free(tmp_path: Path, no_tracebacks: None) -> None:
    with make_client(tmp_path) as client:
        table_id = client.post("/api/tables", json={}).json()["table"]["id"]
        before = db_rows(tmp_path)
        r = client.post(f"/api/tables/{table_id}/join", content='{"seat": 0, "name": "\\udfff"}')
        assert "lone surrogate" in error_of(r, 400, "bad_request")
        assert db_rows(tmp_path) == before
        assert client.get(f"/api/tables/{table_id}").json()["table"]["seats"][0]["taken"] is False
        assert [t["id"] for t in client.get("/api/tables").json()["tables"]] == [table_id]


def test_a_database_already_holding_a_bad_name_is_served(tmp_path: Path, no_tracebacks: None) -> None:
    """A table stored before names were checked (its settings hold a lone surrogate) made every lobby
    page a 500, also after a restart; now the name is shown cleaned."""
    with make_client(tmp_path) as client:
        table_id = client.post("/api/tables", json={"names": ["Ayşe", None, None, None]}).json()["table"]["id"]
    with sqlite3.connect(tmp_path / "belot.sqlite3") as c:
        (settings,) = c.execute("SELECT settings FROM belot_tables WHERE id = ?", (table_id,)).fetchone()
        c.execute("UPDATE belot_tables SET settings = ? WHERE id = ?",
                  (settings.replace("Ay\\u015fe", "\\ud800Ay\\u202e\\u015fe"), table_id))
    with make_client(tmp_path) as client:
        r = client.get("/api/tables")
        assert r.status_code == 200, r.text
        assert r.json()["tables"][0]["seats"][0]["name"] == "Ayşe"
        assert client.get(f"/api/tables/{table_id}/state").status_code == 200


# -- 6. numbers and nesting ---------------------------------------------------------------------

HOSTILE_BODIES = [
    ('{"target": 1' + "0" * 5000 + "}", "bad_number"),
    ('{"seat": 1' + "0" * 4400 + "}", "bad_number"),
    ('{"target": 1e999}', "bad_number"),
    ('{"target": NaN}', "bad_number"),
    ("[" * 60_000, "too_deep"),
    ('{"names": ' + "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1) + "}", "too_deep"),
    ('{"name": "\\ud800"' + ', "x": 1' * 3 + "}", "bad_request"),
    ("\xff\xfe", "bad_request"),
]


@pytest.mark.parametrize("body, code", HOSTILE_BODIES)
def test_huge_numbers_and_deep_nesting_are_refused_on_every_endpoint(
        tmp_path: Path, body: str, code: str, no_tracebacks: None) -> None:
    with make_client(tmp_path) as client:
        table_id = client.post("/api/tables", json={}).json()["table"]["id"]
        before = db_rows(tmp_path)
        raw = body.encode("latin-1") if body == "\xff\xfe" else body.encode("utf-8", "surrogatepass")
        for path in ("/api/tables", f"/api/tables/{table_id}/join", f"/api/tables/{table_id}/leave",
                     f"/api/tables/{table_id}/action"):
            r = client.post(path, content=raw)
            assert r.status_code == 400, (path, r.text)
            assert r.json()["error"]["code"] in (code, "bad_message"), (path, r.text)
        assert db_rows(tmp_path) == before


def test_huge_numbers_and_deep_nesting_over_the_websocket_are_error_messages(
        tmp_path: Path, no_tracebacks: None) -> None:
    """A 4,301-digit integer once closed the socket with the bad-token code and logged a traceback."""
    with make_client(tmp_path) as client:
        r = client.post("/api/tables", json={"seats": ["human", "bot", "bot", "bot"], "seat": 0})
        table_id, token = r.json()["table"]["id"], r.json()["token"]
        with client.websocket_connect(f"/api/tables/{table_id}/ws?token={token}") as ws:
            assert ws.receive_json()["type"] == "state"
            for text, code in [
                ('{"type": "action", "action": {"call": "pass"}, "seq": 1' + "0" * 5000 + "}", "bad_number"),
                ("[" * 60_000, "too_deep"),
                ('{"type": "action", "action": {"call": "pass"}, "seq": -Infinity}', "bad_number"),
                ("{", "bad_json"),
            ]:
                ws.send_text(text)
                m = ws.receive_json()
                while m["type"] != "error":
                    m = ws.receive_json()
                assert m["code"] == code, m
            ws.send_json({"type": "ping"})  # the socket is still open and answering
            m = ws.receive_json()
            while m["type"] != "pong":
                m = ws.receive_json()


def test_depth_skips_strings_and_loads_bounds() -> None:
    assert depth('{"a": "[[[[[[[[[[[[[[[[[[[[[[[["}') == 1
    assert depth("[" * 40 + "]" * 40) == 40
    assert loads('{"seq": 12345678901234567890}') == {"seq": 12345678901234567890}
    with pytest.raises(TableError, match="at most 20 digits"):
        loads('{"seq": 123456789012345678901}')


# -- 5. bodies ----------------------------------------------------------------------------------

def test_a_body_over_the_limit_is_refused_before_it_is_read(tmp_path: Path, no_tracebacks: None) -> None:
    with make_client(tmp_path, limits=Limits(max_body=1000)) as client:
        before = db_rows(tmp_path)
        r = client.post("/api/tables", content=b"{" + b" " * 5000 + b"}")
        assert "at most 1000 bytes" in error_of(r, 413, "too_large")
        sent = []

        def chunks() -> Iterator[bytes]:  # no Content-Length: the cap applies while it streams in
            for _ in range(100):
                sent.append(1)
                yield b" " * 500

        r = client.post("/api/tables", content=chunks())
        error_of(r, 413, "too_large")
        r = client.post("/api/tables", content=b"{}", headers={"content-length": "abc"})
        assert r.status_code in (400, 413)
        assert db_rows(tmp_path) == before
        assert client.post("/api/tables", json={}).status_code == 201


@pytest.mark.parametrize("length", [b"\xb2", b"1\xb9", b"-1", b" 2"])
def test_a_content_length_that_is_no_ascii_number_is_refused_as_too_large(
        tmp_path: Path, length: bytes, no_tracebacks: None) -> None:
    """"\u00b2" (superscript two, latin-1 as HTTP headers are) is a digit to str.isdigit but not to
    int(): it ended in a 500. uvicorn's parser refuses such a header first; the app must not rely on it."""
    with make_client(tmp_path) as client:
        before = db_rows(tmp_path)
        sent: list[dict[str, Any]] = []

        async def receive() -> dict[str, Any]:
            return {"type": "http.request", "body": b"{}", "more_body": False}

        async def send(message: dict[str, Any]) -> None:
            sent.append(message)

        scope = {"type": "http", "method": "POST", "path": "/api/tables", "raw_path": b"/api/tables", "root_path": "",
                 "query_string": b"", "scheme": "http", "http_version": "1.1", "server": ("testserver", 80),
                 "client": ("127.0.0.1", 5000),
                 "headers": [(b"host", b"testserver"), (b"content-type", b"application/json"), (b"content-length", length)]}
        assert client.portal is not None
        client.portal.call(client.app, scope, receive, send)
        assert sent[0]["type"] == "http.response.start" and sent[0]["status"] == 413
        assert json.loads(sent[1]["body"])["error"]["code"] == "too_large"
        assert db_rows(tmp_path) == before


@pytest.mark.parametrize("path", ["/api/tables", "/api/accounts", "/api/login"])
def test_a_client_gone_before_its_body_is_whole_is_no_traceback(tmp_path: Path, path: str) -> None:
    """A client that sent part of a body and hung up made Starlette's ClientDisconnect escape the app:
    "Exception in ASGI application" and a traceback in the server's log, as often as a client liked."""
    with make_client(tmp_path) as client:
        before = db_rows(tmp_path)
        incoming: list[dict[str, Any]] = [{"type": "http.request", "body": b'{"na', "more_body": True}]
        sent: list[dict[str, Any]] = []

        async def receive() -> dict[str, Any]:
            return incoming.pop(0) if incoming else {"type": "http.disconnect"}

        async def send(message: dict[str, Any]) -> None:
            sent.append(message)

        scope = {"type": "http", "method": "POST", "path": path, "raw_path": path.encode(), "root_path": "",
                 "query_string": b"", "scheme": "http", "http_version": "1.1", "server": ("testserver", 80),
                 "client": ("127.0.0.1", 5000),
                 "headers": [(b"host", b"testserver"), (b"content-type", b"application/json"),
                             (b"content-length", b"100")]}
        assert client.portal is not None
        client.portal.call(client.app, scope, receive, send)  # raised ClientDisconnect before
        assert sent[0]["type"] == "http.response.start" and sent[0]["status"] == 400
        assert db_rows(tmp_path) == before


# -- requests a page of another site makes a visitor's browser send (server/crosssite.py) --------

def all_rows(tmp_path: Path) -> dict[str, int]:
    """Every row of every table: what a refused request must leave as it was."""
    with sqlite3.connect(tmp_path / "belot.sqlite3") as c:
        names = [r[0] for r in c.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        return {t: c.execute(f'SELECT COUNT(*) FROM "{t}"').fetchone()[0] for t in names}


def unsafe_api_requests(client: TestClient) -> list[tuple[str, str, dict[str, Any]]]:
    """(method, path, body) for every route of the API that changes something, each with a body the
    route would grant: a table to act on, a free seat, a name not yet registered."""
    made = client.post("/api/tables", json={"seats": ["human"] * 4, "seat": 0, "name": "Ayşe"}).json()
    table, token = made["table"]["id"], made["token"]
    bodies = {"/api/tables": {"seats": ["human", "bot:random", "bot:random", "bot:random"]},
              "/api/tables/{table_id}/join": {"seat": 1, "name": "Mallory"},
              "/api/tables/{table_id}/leave": {"token": token},
              "/api/tables/{table_id}/action": {"token": token, "action": {"call": "pass"}},
              "/api/accounts": {"name": "Mallory", "password": "correct horse battery"},
              "/api/login": {"name": "Ayşe", "password": "correct horse battery"}}
    requests = []
    for route in client.app.routes:  # type: ignore[attr-defined]
        for method in sorted(set(getattr(route, "methods", None) or ()) - {"GET", "HEAD", "OPTIONS"}):
            requests.append((method, route.path.replace("{table_id}", table), bodies.get(route.path, {})))
    assert len(requests) >= 10, requests  # every POST route of docs/protocol.md is among them
    return requests


@pytest.mark.parametrize("site", ["cross-site", "same-site", "Cross-Site"])
def test_a_request_from_another_sites_page_changes_nothing_on_any_route(
        tmp_path: Path, site: str, no_tracebacks: None) -> None:
    """Any page could make its visitors' browsers create tables, take seats, register or log in
    here, from their addresses. Their browsers say so (Sec-Fetch-Site), whatever proxy is between."""
    with make_client(tmp_path) as client:
        requests = unsafe_api_requests(client)
        before = all_rows(tmp_path)
        for method, path, body in requests:
            r = client.request(method, path, json=body, headers={"Sec-Fetch-Site": site})
            assert "another site" in error_of(r, 403, "cross_site"), (method, path)
            assert r.json()["error"]["detail"] == {"reason": site.lower()}
        assert all_rows(tmp_path) == before
        # reading is left alone: what a GET shows is public, and it changes nothing
        assert client.get("/api/tables", headers={"Sec-Fetch-Site": site}).status_code == 200


@pytest.mark.parametrize("kind", ["text/plain", "application/x-www-form-urlencoded",
                                  "multipart/form-data; boundary=x", "TEXT/PLAIN;charset=UTF-8", "", "json"])
def test_a_body_a_form_can_send_is_refused_on_any_route(tmp_path: Path, kind: str, no_tracebacks: None) -> None:
    """A browser too old to send Sec-Fetch-Site still posts forms to other sites (text, form and
    multipart bodies, no preflight): a body must be application/json, as the pages send it."""
    with make_client(tmp_path) as client:
        requests = unsafe_api_requests(client)
        before = all_rows(tmp_path)
        for method, path, body in requests:
            r = client.request(method, path, content=json.dumps(body), headers={"Content-Type": kind})
            error_of(r, 415, "bad_content_type")
            assert r.json()["error"]["detail"] == {"field": "Content-Type"}
        assert all_rows(tmp_path) == before


@pytest.mark.parametrize("origin", ["https://evil.example", "http://testserver:8080", "null", "https://testserver.evil.example",
                                    "ftp//testserver"])
def test_an_old_browsers_post_from_another_origin_changes_nothing(tmp_path: Path, origin: str,
                                                                    no_tracebacks: None) -> None:
    """Safari before 16.4 sends no Sec-Fetch-Site, and a `no-cors` fetch with a Blob body sends no
    Content-Type: such a post from another site's page passed both checks and was read as JSON.  Its
    Origin names that page; one that is not this host (another host or port, a sandboxed frame's
    "null", no scheme) is refused, on every route."""
    with make_client(tmp_path) as client:
        requests = unsafe_api_requests(client)
        before = all_rows(tmp_path)
        for method, path, body in requests:
            r = client.request(method, path, content=json.dumps(body), headers={"Origin": origin})
            assert "another site" in error_of(r, 403, "cross_site"), (method, path)
            assert r.json()["error"]["detail"] == {"reason": "origin"}
        assert all_rows(tmp_path) == before


@pytest.mark.parametrize("headers", [{}, {"Sec-Fetch-Site": "same-origin"}, {"Sec-Fetch-Site": "none"},
                                     {"Origin": "http://testserver"}, {"Origin": "HTTP://TestServer:80"},
                                     {"Origin": "https://testserver"},  # TLS ended at a proxy: the Host has no scheme
                                     {"Origin": "https://elsewhere.example", "Sec-Fetch-Site": "same-origin"},
                                     {"Content-Type": "application/json; charset=utf-8"},
                                     {"Content-Type": "Application/JSON", "Sec-Fetch-Site": "same-origin"}])
def test_the_pages_own_requests_and_programs_are_served(tmp_path: Path, headers: dict[str, str]) -> None:
    """What the pages send (same-origin, JSON), what a typed address sends (none), and what a
    program sends (no Sec-Fetch-Site; a body with or without a Content-Type) is served as before."""
    with make_client(tmp_path) as client:
        body = json.dumps({"seats": ["human"] * 4, "seat": 0, "name": "Ayşe"})
        made = client.post("/api/tables", content=body, headers=headers)
        assert made.status_code == 201, made.text
        table = made.json()["table"]["id"]
        r = client.post(f"/api/tables/{table}/join", content='{"seat": 1, "name": "Elif"}', headers=headers)
        assert r.status_code == 200, r.text
        assert client.post("/api/accounts", content='{"name": "Elif", "password": "correct horse battery"}',
                           headers=headers).status_code in (200, 201)



def test_an_unknown_route_or_method_is_named_in_its_error(tmp_path: Path, no_tracebacks: None) -> None:
    """"Not Found" and "Method Not Allowed" said neither the path nor the method a client got wrong."""
    with make_client(tmp_path) as client:
        message = error_of(client.get("/api/tablez"), 404, "no_route")
        assert "'/api/tablez'" in message, message
        message = error_of(client.get("/api/" + "x" * 5000), 404, "no_route")
        assert len(message) < 200, message
        message = error_of(client.delete("/api/tables"), 405, "bad_method")
        assert "'DELETE'" in message and "'/api/tables'" in message, message
        message = error_of(client.put("/api/health"), 405, "bad_method")
        assert "'PUT'" in message and "it takes GET" in message, message
        r = client.request("OPTIONS", "/api/tables")  # two routes, GET (so HEAD too) and POST: all are named
        assert "it takes GET, HEAD, POST" in error_of(r, 405, "bad_method") and r.headers["allow"] == "GET, HEAD, POST"

# -- 3. connections -----------------------------------------------------------------------------

def test_websockets_per_address_are_limited_with_a_clear_close(tmp_path: Path, no_tracebacks: None) -> None:
    with make_client(tmp_path, limits=Limits(ws_per_address=2)) as client:
        table_id = client.post("/api/tables", json={}).json()["table"]["id"]
        path = f"/api/tables/{table_id}/ws"
        with client.websocket_connect(path) as a, client.websocket_connect(path) as b:
            assert a.receive_json()["type"] == b.receive_json()["type"] == "state"
            with client.websocket_connect(path) as c:
                m = c.receive_json()
                assert m["type"] == "error" and m["code"] == "too_many_connections", m
                assert "limit of 2" in m["message"] and m["detail"] == {"reason": "address", "limit": 2}
                with pytest.raises(WebSocketDisconnect) as e:
                    c.receive_json()
                assert e.value.code == 4029 and "limit of 2" in e.value.reason
            assert client.get("/api/health").status_code == 200
        with client.websocket_connect(path) as d:  # closed sockets no longer count
            assert d.receive_json()["type"] == "state"



def _raw_websocket(url: str, path: str) -> socket.socket:
    """A websocket opened by hand, whose client reads nothing (a receive buffer of 1 KB)."""
    host, port = url.removeprefix("http://").split(":")
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
    s.connect((host, int(port)))
    key = base64.b64encode(os.urandom(16)).decode()
    s.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
              f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode())
    return s


def _rss_mib(pid: int) -> int:
    status = Path(f"/proc/{pid}/status").read_text()
    return int(next(line for line in status.splitlines() if line.startswith("VmRSS")).split()[1]) // 1024


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads a process's memory in /proc")
def test_a_socket_that_reads_nothing_cannot_pile_up_messages(tmp_path: Path) -> None:
    """A client sending ``sync`` in a loop and reading nothing: each answer, a whole state, waited in
    the server's memory for it (500 MB in 20 s from one socket, and it never closed).  Past the
    limit of what may wait, the socket is dropped: its seat is no longer connected, the memory stays."""
    import httpx

    with serving(tmp_path / "belot.sqlite3", "--bot-delay", "3600", "--bot-workers", "1") as served, \
            httpx.Client(base_url=served.url, timeout=30) as http:
        r = http.post("/api/tables", json={"seats": ["human", "bot", "bot", "bot"], "seat": 0})
        table_id, token = r.json()["table"]["id"], r.json()["token"]
        before = _rss_mib(served.proc.pid)
        with contextlib.closing(_raw_websocket(served.url, f"/api/tables/{table_id}/ws?token={token}")) as sock:
            sync = b"\x81\x8f\0\0\0\0" + b'{"type":"sync"}'  # one masked text frame
            sock.settimeout(60)
            for _ in range(300):
                sock.sendall(sync * 200)
            deadline = time.monotonic() + 30
            while http.get(f"/api/tables/{table_id}").json()["table"]["seats"][0]["connected"]:
                assert time.monotonic() < deadline, "the socket that reads nothing is still at the table"
                time.sleep(0.2)
            grown = _rss_mib(served.proc.pid) - before
            assert grown < 40, f"the server grew by {grown} MiB for one socket"
            assert http.get("/api/health").json() == {"ok": True}
    assert "Traceback" not in served.err, served.err


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads a process's memory in /proc")
def test_pings_of_a_client_that_reads_nothing_are_not_answered_into_memory(tmp_path: Path) -> None:
    """A client sending websocket pings and reading nothing: uvicorn wrote each pong at once, held
    until the client read it (240 MB in 9 s from one socket).  Unread pongs are dropped instead."""
    import httpx

    with serving(tmp_path / "belot.sqlite3", "--bot-delay", "3600", "--bot-workers", "1") as served, \
            httpx.Client(base_url=served.url, timeout=30) as http:
        table_id = http.post("/api/tables", json={}).json()["table"]["id"]
        before = _rss_mib(served.proc.pid)
        with contextlib.closing(_raw_websocket(served.url, f"/api/tables/{table_id}/ws")) as sock:
            ping = b"\x89\xfd\0\0\0\0" + b"p" * 125  # a masked ping frame with the most payload a ping has
            sock.settimeout(60)
            for _ in range(5000):
                sock.sendall(ping * 100)  # 65 MB of pings
            assert http.get("/api/health").json() == {"ok": True}
            grown = _rss_mib(served.proc.pid) - before
            assert grown < 25, f"the server grew by {grown} MiB for one socket's pings"
    assert "Traceback" not in served.err, served.err


def test_a_request_that_never_comes_whole_is_closed_in_its_time(tmp_path: Path) -> None:
    """Slowloris: a connection that sent its first byte was kept for ever, so one header line every
    few seconds, or a body that never came whole, held it; the whole request is due in 10 s, here
    (`--request-time`) in 3."""
    import httpx

    with serving(tmp_path / "belot.sqlite3", "--bot-workers", "1", "--request-time", "3") as served, \
            contextlib.ExitStack() as sockets:
        host, port = served.url.removeprefix("http://").split(":")
        starts = [b"GET /api/health HTTP/1.1\r\nHost: x\r\n",
                  b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{"]
        slow: list[socket.socket] = []
        for start in starts:
            slow.append(sockets.enter_context(socket.create_connection((host, int(port)), timeout=30)))
            slow[-1].sendall(start)
        began = time.monotonic()
        with httpx.Client(base_url=served.url, timeout=30) as http:
            while time.monotonic() - began < 5:
                for s in slow:
                    with contextlib.suppress(OSError):
                        s.sendall(b"X-Still: here\r\n" if s is slow[0] else b" ")
                assert http.get("/api/health").json() == {"ok": True}  # everyone else is answered meanwhile
                time.sleep(1)
        for s in slow:
            s.settimeout(10)
            try:
                answer = s.recv(100)
            except ConnectionResetError:
                answer = b""
            assert answer == b"", answer  # closed, with no answer: the request never came
    assert "Traceback" not in served.err, served.err


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads a process's memory in /proc")
def test_a_request_head_over_64_kib_is_refused_and_not_kept(tmp_path: Path) -> None:
    """uvicorn's httptools protocol kept every header line of a request however many came: four
    connections sending small headers for 10 s grew the server to 4.7 GB.  Past 64 KiB of request
    line and headers the answer is 431 ``too_large``, and the connection closes."""
    import httpx

    with serving(tmp_path / "belot.sqlite3", "--bot-workers", "1") as served:
        host, port = served.url.removeprefix("http://").split(":")
        before = _rss_mib(served.proc.pid)
        with socket.create_connection((host, int(port)), timeout=30) as s:
            s.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\n")
            with contextlib.suppress(OSError):  # the server closes its side once it has answered
                for _ in range(100):
                    s.sendall(b"X-h: v\r\n" * 100_000)  # 80 MB of header lines in all
            answer = s.recv(4096).decode()
        assert answer.startswith("HTTP/1.1 431 "), answer[:200]
        error = json.loads(answer.split("\r\n\r\n", 1)[1])["error"]
        assert error["code"] == "too_large" and error["detail"] == {"limit": 65536}, error
        grown = _rss_mib(served.proc.pid) - before
        assert grown < 40, f"the server grew by {grown} MiB for one request's headers"
        with httpx.Client(base_url=served.url, timeout=30) as http:  # a large but normal head is served
            assert http.get("/api/health", headers={"cookie": "x=" + "a" * 30_000}).status_code == 200
            r = http.post("/api/tables", content='{"seat": 0}' + " " * 60_000, headers={"content-type": "application/json"})
            assert r.status_code == 201, r.text
    assert "Traceback" not in served.err, served.err


def test_the_log_of_every_request_holds_no_seat_token(tmp_path: Path) -> None:
    """With ``--log-level info`` (every request logged), ``/ws?token=...`` and ``/state?token=...``
    put the seat's secret in the log: whoever read it could play that seat."""
    import httpx
    from websockets.sync.client import connect

    with serving(tmp_path / "belot.sqlite3", "--bot-workers", "1", "--log-level", "info") as served:
        with httpx.Client(base_url=served.url, timeout=30) as http:
            r = http.post("/api/tables", json={"seat": 0})
            table_id, token = r.json()["table"]["id"], r.json()["token"]
            assert http.get(f"/api/tables/{table_id}/state", params={"token": token}).status_code == 200
        with connect(f"{served.url.replace('http', 'ws')}/api/tables/{table_id}/ws?token={token}") as ws:
            assert json.loads(ws.recv())["you"]["seat"] == 0
    log = served.out + served.err
    assert f"/api/tables/{table_id}/state?token=..." in log  # the request is logged, its token not
    assert token not in log

# -- 4. tables ----------------------------------------------------------------------------------

def test_tables_per_minute_and_waiting_tables_per_address_are_limited(tmp_path: Path, no_tracebacks: None) -> None:
    with make_client(tmp_path, limits=Limits(tables_per_minute=4, waiting_per_address=2)) as client:
        assert client.post("/api/tables", json={}).status_code == 201
        assert client.post("/api/tables", json={}).status_code == 201
        before = db_rows(tmp_path)
        r = client.post("/api/tables", json={})
        assert "waiting for players" in error_of(r, 429, "too_many_tables")
        # The particulars as fields, for a client to say in its own language (no wait: play or leave one).
        assert r.json()["error"]["detail"] == {"reason": "waiting", "limit": 2} and "retry-after" not in r.headers
        assert db_rows(tmp_path) == before
        # A table that starts at once (its one human seat taken) is not waiting: allowed, up to the rate.
        for _ in range(2):
            r = client.post("/api/tables", json={"seat": 0})
            assert r.status_code == 201 and r.json()["table"]["status"] == "playing"
        r = client.post("/api/tables", json={"seat": 0})
        assert "in the last minute" in error_of(r, 429, "too_many_tables")
        detail = r.json()["error"]["detail"]
        assert detail["reason"] == "created" and detail["limit"] == 4 and 1 <= detail["retry_after"] <= 60
        assert r.headers["retry-after"] == str(detail["retry_after"])
        assert f"try again in {detail['retry_after']} s" in r.json()["error"]["message"]
        assert client.get("/api/tables").status_code == 200


def test_tables_joined_at_once_and_left_count_as_waiting(tmp_path: Path, no_tracebacks: None) -> None:
    """A table whose creator took its one human seat starts at once, and leaving the seat puts it in
    the lobby: it waits for a player, but was never counted, so one address filled the lobby."""
    with make_client(tmp_path, bot_delay=3600.0, limits=Limits(waiting_per_address=2)) as client:
        for _ in range(2):
            r = client.post("/api/tables", json={"seat": 0})
            table_id, token = r.json()["table"]["id"], r.json()["token"]
            assert client.post(f"/api/tables/{table_id}/leave", json={"token": token}).status_code == 200
        assert len(client.get("/api/tables").json()["tables"]) == 2
        before = db_rows(tmp_path)
        for body in ({"seat": 0}, {}):
            r = client.post("/api/tables", json=body)
            assert "waiting for players" in error_of(r, 429, "too_many_tables")
            assert r.json()["error"]["detail"] == {"reason": "waiting", "limit": 2}
        assert db_rows(tmp_path) == before
        assert len(client.get("/api/tables").json()["tables"]) == 2
        # someone takes one of them: the address may create again
        client.post(f"/api/tables/{table_id}/join", json={"name": "Ayşe"})
        assert client.post("/api/tables", json={"seat": 0}).status_code == 201


@pytest.mark.parametrize("trusted", [False, True])
def test_a_clients_own_x_forwarded_for_is_not_its_address(tmp_path: Path, trusted: bool) -> None:
    """uvicorn trusted X-Forwarded-For from 127.0.0.1, where a proxy on the same host connects from:
    behind one that does not set the header itself, a client named any address it liked, and every
    per-address limit (tables a minute here) was its own.  Only the proxies named in uvicorn's
    FORWARDED_ALLOW_IPS are trusted."""
    import httpx

    env = {k: v for k, v in os.environ.items() if k != "FORWARDED_ALLOW_IPS"}
    if trusted:
        env["FORWARDED_ALLOW_IPS"] = "127.0.0.1"
    with serving(tmp_path / "belot.sqlite3", "--bot-workers", "1", "--tables-per-minute", "3", env=env) as served, \
            httpx.Client(base_url=served.url, timeout=30) as http:
        codes = [http.post("/api/tables", json={"seat": 0}, headers={"x-forwarded-for": f"10.0.0.{i}"}).status_code
                 for i in range(5)]
    assert codes == ([201] * 5 if trusted else [201, 201, 201, 429, 429]), codes


def test_bot_only_tables_are_capped_server_wide(tmp_path: Path, no_tracebacks: None) -> None:
    with make_client(tmp_path, bot_delay=30.0, limits=Limits(bot_tables=2)) as client:
        for _ in range(2):
            assert client.post("/api/tables", json={"seats": ["bot:random"] * 4}).status_code == 201
        before = db_rows(tmp_path)
        r = client.post("/api/tables", json={"seats": ["bot:random"] * 4})
        assert "bots only" in error_of(r, 429, "too_many_bot_tables")
        assert r.json()["error"]["detail"] == {"limit": 2}
        assert db_rows(tmp_path) == before
        assert client.post("/api/tables", json={}).status_code == 201  # a table for people still opens


def test_a_table_every_person_left_waits_for_someone(tmp_path: Path, no_tracebacks: None) -> None:
    """Creating a table with one human seat and leaving it made a table of bots only that the cap
    above did not count: one address kept twenty a minute playing.  Such a table's bots now wait
    until someone is there again, a player or anyone watching."""
    with make_client(tmp_path, limits=Limits(bot_tables=1)) as client:
        r = client.post("/api/tables", json={"seats": ["human", "bot:random", "bot:random", "bot:random"], "seat": 0})
        table_id, token = r.json()["table"]["id"], r.json()["token"]
        assert client.post(f"/api/tables/{table_id}/leave", json={"token": token}).status_code == 200
        seq = client.get(f"/api/tables/{table_id}/state").json()["seq"]
        time.sleep(0.5)  # bots at a 0 s delay: some 30 actions a second while they played
        assert client.get(f"/api/tables/{table_id}/state").json()["seq"] == seq
        with client.websocket_connect(f"/api/tables/{table_id}/ws") as spectator:
            m = spectator.receive_json()
            while m["seq"] < seq + 4:  # watched, it plays on
                m = spectator.receive_json()


def test_the_lobby_is_paged_newest_first(tmp_path: Path) -> None:
    with make_client(tmp_path) as client:
        made = [client.post("/api/tables", json={}).json()["table"]["id"] for _ in range(7)]
        full = client.post("/api/tables", json={"seat": 0}).json()["table"]["id"]  # no free seat: not listed
        seen: list[str] = []
        url: str | None = "/api/tables?limit=3"
        pages = 0
        while url is not None:
            page = client.get(url).json()
            seen += [t["id"] for t in page["tables"]]
            pages += 1
            url = None if page["next"] is None else f"/api/tables?limit=3&before={page['next']}"
        assert seen == made[::-1] and full not in seen and pages == 3
        for bad in ("/api/tables?limit=0", "/api/tables?limit=100000", "/api/tables?before=x",
                    "/api/tables?before=nan:ab", "/api/tables?limit=1" + "0" * 5000):
            r = client.get(bad)
            assert r.status_code == 400, (bad, r.text)


def test_a_lobby_query_out_of_range_says_its_bounds_as_a_body_field_does(tmp_path: Path) -> None:
    """docs/protocol.md, "Error details": a value out of bounds is `reason` `range` with `min` / `max`,
    in a query parameter as in a body (the query's refusal said `invalid` and no bound)."""
    with make_client(tmp_path) as client:
        low = client.get("/api/tables?limit=0").json()["error"]
        high = client.get("/api/tables?limit=51").json()["error"]
        assert low["code"] == high["code"] == "bad_request"
        assert low["detail"] == {"field": "query.limit", "reason": "range", "min": 1}, low
        assert high["detail"] == {"field": "query.limit", "reason": "range", "max": 50}, high
        assert low["message"].startswith("query.limit: ")
        # text that is no number or yes/no is of the wrong type; a cursor not made by the lobby is named
        for query, field in (("limit=x", "query.limit"), ("limit=1.5", "query.limit"), ("all=maybe", "query.all")):
            assert client.get(f"/api/tables?{query}").json()["error"]["detail"] == {"field": field, "reason": "type"}
        bad = client.get("/api/tables?before=abc").json()["error"]
        assert bad["code"] == "bad_request" and bad["detail"] == {"field": "query.before", "reason": "invalid"}


def test_an_empty_token_holds_no_seat_on_a_socket_either(tmp_path: Path) -> None:
    """``GET /state?token=`` answered 403 while the websocket took ``?token=`` for a spectator."""
    with make_client(tmp_path) as client:
        table_id = client.post("/api/tables", json={}).json()["table"]["id"]
        assert client.get(f"/api/tables/{table_id}/state?token=").status_code == 403
        with client.websocket_connect(f"/api/tables/{table_id}/ws?token=") as ws:
            assert ws.receive_json()["code"] == "bad_token"
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 4001


def test_waiting_tables_load_on_demand_after_a_restart(tmp_path: Path) -> None:
    with make_client(tmp_path) as client:
        waiting = client.post("/api/tables", json={"seats": ["human", "human", "bot", "bot"], "seat": 0}).json()
        table_id, token = waiting["table"]["id"], waiting["token"]
    app = create_app(f"sqlite:///{tmp_path / 'belot.sqlite3'}", bot_delay=0.0)
    with TestClient(app) as client:
        assert table_id not in app.state.lobby.tables  # not replayed at start: nothing runs at it
        assert [t["id"] for t in client.get("/api/tables").json()["tables"]] == [table_id]
        r = client.post(f"/api/tables/{table_id}/join", json={"seat": 1, "name": "Bob"})
        assert r.status_code == 200 and r.json()["table"]["status"] == "playing"
        assert client.get(f"/api/tables/{table_id}/state", params={"token": token}).status_code == 200
        assert client.get("/api/tables").json()["tables"] == []


def test_a_schema_2_database_lists_its_open_tables_after_migrating(tmp_path: Path) -> None:
    with make_client(tmp_path) as client:
        open_id = client.post("/api/tables", json={}).json()["table"]["id"]
        client.post("/api/tables", json={"seat": 0})
    with sqlite3.connect(tmp_path / "belot.sqlite3") as c:  # back to schema 2: no column, no index
        c.execute("DROP INDEX belot_tables_lobby")
        c.execute("ALTER TABLE belot_tables DROP COLUMN open")
        c.execute("UPDATE belot_meta SET value = '2' WHERE key = 'schema_version'")
    with make_client(tmp_path) as client:
        assert [t["id"] for t in client.get("/api/tables").json()["tables"]] == [open_id]
    with sqlite3.connect(tmp_path / "belot.sqlite3") as c:
        plan = " ".join(str(r) for r in c.execute(
            "EXPLAIN QUERY PLAN SELECT created, id FROM belot_tables WHERE open = 1 ORDER BY created DESC LIMIT 50"))
        assert "belot_tables_lobby" in plan and c.execute("SELECT value FROM belot_meta").fetchone()[0] == str(SCHEMA_VERSION)


# -- 2. bots ------------------------------------------------------------------------------------

def test_bots_decide_in_worker_processes(tmp_path: Path) -> None:
    """With a `BotPool` (as `belot serve` runs) a bot table plays its moves from worker processes."""
    pool = BotPool(workers=1, budget=30.0, warm=False)
    with make_client(tmp_path, bots=pool) as client:
        table_id = client.post("/api/tables", json={"seats": ["bot:random"] * 4, "target": 1}).json()["table"]["id"]
        with client.websocket_connect(f"/api/tables/{table_id}/ws") as ws:
            m = ws.receive_json()
            while m["seq"] < 12:
                m = ws.receive_json()
            assert m["last_action"]["bot"] is True
        assert pool._executor is not None and pool._executor._processes
    assert json.loads(json.dumps(m))["seq"] >= 12
