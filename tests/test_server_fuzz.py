"""Fuzzing the server as a hostile client would (issue 19): generated messages and bodies.

* Hypothesis sends generated hostile messages over a real websocket of a seated player (Starlette's
  TestClient, the real ASGI app): every reply is a ``state`` or an ``error`` with a known code, the
  socket stays open, and a refused message changes neither the table nor the database.
* Schemathesis sends bodies and parameters generated from the app's OpenAPI schema, valid and
  invalid, to every HTTP endpoint of a real ``belot serve`` subprocess: never a 5xx, every error a
  ``{"error": {"code", "message"}}`` body, nothing stored on a refusal, no traceback logged.
* The same real server refuses a second ``belot serve`` on its database, naming itself.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import sqlite3
import subprocess
import sys
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette's note about httpx versions
    from starlette.testclient import TestClient

from belot.server.app import create_app

ERROR_CODES = {
    "bad_json", "bad_message", "bad_number", "too_deep", "spectator", "match_over", "not_started", "stale",
    "not_your_turn", "illegal", "bad_token", "no_table", "bad_request", "table_full", "seat_taken",
    "not_human_seat", "in_progress", "no_language", "too_large", "too_many_tables", "too_many_bot_tables",
    "too_many_connections", "storage_error", "no_route", "bad_method", "not_finished",
    # accounts (test_server_accounts.py)
    "no_account", "name_taken", "bad_password", "bad_login", "too_many_logins", "name_registered",
    "not_logged_in", "not_your_table", "seat_free", "too_many_accounts", "rematch_taken", "too_many_analyses",
    "cross_site", "bad_content_type",  # requests a page of another site can send (server/crosssite.py)
}
# BELOT_FUZZ=10 runs ten times the examples (a longer hunt than the suite's few seconds).
SCALE = max(1, int(os.environ.get("BELOT_FUZZ", "1")))
TABLES = ("belot_tables", "belot_seats", "belot_deals", "belot_moves")


def db_rows(db: Path) -> dict[str, int]:
    with sqlite3.connect(db) as c:
        return {t: c.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0] for t in TABLES}


def stored_state(db: Path, table_id: str) -> tuple[int, ...]:
    """What a refused request could have changed: the tables, the seats taken, the moves at ``table_id``.
    (Generated tables with a turn timer play on by themselves, so not every move counts.)"""
    with sqlite3.connect(db) as c:
        return (
            c.execute("SELECT COUNT(*) FROM belot_tables").fetchone()[0],
            c.execute("SELECT COUNT(*) FROM belot_seats WHERE token_hash IS NOT NULL").fetchone()[0],
            c.execute("SELECT COUNT(*) FROM belot_moves WHERE table_id = ?", (table_id,)).fetchone()[0],
        )


# -- the websocket ------------------------------------------------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=12,
)
huge_int = st.integers(min_value=21, max_value=6000).map(lambda n: "9" * n)
actions = st.one_of(
    json_values,
    st.fixed_dictionaries({"call": st.sampled_from(["pass", "C", "NT", "kontra", "x", "\ud800"])}),
    st.fixed_dictionaries({"card": st.text(max_size=3)}, optional={"belote": json_values}),
    st.fixed_dictionaries({"declare": st.lists(st.text(max_size=3), max_size=9)}, optional={"kind": json_values}),
)
messages = st.one_of(
    st.builds(lambda a, s: json.dumps({"type": "action", "action": a, "seq": s}), actions, json_values),
    st.builds(lambda t, extra: json.dumps({"type": t, **extra}),
              st.sampled_from(["action", "sync", "ping", "", "ACTION", "\ud800"]),
              st.dictionaries(st.text(max_size=6), json_values, max_size=3)),
    st.builds(lambda n: '{"type": "action", "action": {"call": "pass"}, "seq": ' + n + "}", huge_int),
    st.builds(lambda d: "[" * d + "]" * d, st.integers(17, 5000)),
    st.builds(lambda d: '{"a":' * d, st.integers(1, 3000)),
    json_values.map(json.dumps),
    st.text(max_size=40),
    st.binary(max_size=40),
)


@pytest.fixture(scope="module")
def seated(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[TestClient, Any, str, Path]]:
    """A table in its auction with a person at seat 0 on a websocket; the bots wait an hour."""
    db = tmp_path_factory.mktemp("fuzz") / "belot.sqlite3"
    with TestClient(create_app(f"sqlite:///{db}", bot_delay=3600.0)) as client:
        r = client.post("/api/tables", json={"seats": ["human", "bot", "bot", "bot"], "seat": 0})
        table_id, token = r.json()["table"]["id"], r.json()["token"]
        with client.websocket_connect(f"/api/tables/{table_id}/ws?token={token}") as ws:
            ws.receive_json()
            yield client, ws, table_id, db


@settings(max_examples=150 * SCALE, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(message=messages)
def test_hostile_websocket_messages_get_an_error_and_change_nothing(
        seated: tuple[TestClient, Any, str, Path], message: str | bytes) -> None:
    client, ws, table_id, db = seated
    before_state = client.get(f"/api/tables/{table_id}/state").json()
    before_rows = db_rows(db)
    if isinstance(message, bytes):
        ws.send_bytes(message)
    else:
        ws.send_text(message)
    # Replies come in order: everything before the fence's own error is this message's.  The fence is
    # a type no generated message has (a ping would not do: a generated ping has a pong of its own,
    # and the next example would take that one for its fence and miss its own replies).
    fence = f"fence-{secrets.token_hex(4)}"
    ws.send_text(json.dumps({"type": fence}))
    replies = []
    while True:
        m = ws.receive_json()
        if m["type"] == "error" and fence in m["message"]:
            break
        replies.append(m)
    for m in replies:
        assert m["type"] in ("error", "state", "pong"), m
        if m["type"] == "pong":  # only a ping is answered so
            assert json.loads(message)["type"] == "ping", m
        if m["type"] == "error":
            assert m["code"] in ERROR_CODES and isinstance(m["message"], str) and m["message"], m
            if m["code"] == "bad_message":  # which part was wrong, for a client's own words
                assert m["detail"]["reason"] in ("not_object", "missing", "type", "invalid", "unknown_field"), m
                assert m["detail"]["reason"] == "not_object" or isinstance(m["detail"]["field"], str), m
    if any(m["type"] == "state" and m["seq"] > before_state["seq"] for m in replies):
        return  # a generated action happened to be legal and was played: a change, rightly
    assert client.get(f"/api/tables/{table_id}/state").json()["view"] == before_state["view"]
    assert db_rows(db) == before_rows


# -- HTTP, against a real server ----------------------------------------------------------------

class Served:
    def __init__(self, db: Path) -> None:
        self.db = db
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "belot", "serve", "--host", "127.0.0.1", "--port", "0", "--db", str(db),
             "--bot-delay", "3600", "--bot-workers", "1", "--tables-per-minute", "100000",
             "--waiting-per-address", "100000", "--max-bot-tables", "100000", "--log-level", "warning"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        assert line.startswith("belot serve: http://"), line
        self.url = line.split()[2].rstrip("/")

    def stop(self) -> str:
        self.proc.terminate()
        _out, err = self.proc.communicate(timeout=20)
        return err


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    server = Served(tmp_path_factory.mktemp("served") / "belot.sqlite3")
    log = ""
    try:
        yield server
    finally:
        log = server.stop()
    assert "Traceback" not in log and " 500 " not in log, log[-3000:]


@pytest.fixture(scope="module")
def api_schema(served: Served) -> Any:
    schema = schemathesis.openapi.from_url(f"{served.url}/api/openapi.json")
    schema.config.generation.update(modes=["positive", "negative"], max_examples=25 * SCALE, deterministic=SCALE == 1)
    return schema


@pytest.fixture(scope="module")
def seat_of_served(served: Served) -> tuple[str, str]:
    import httpx

    r = httpx.post(f"{served.url}/api/tables", json={"seats": ["human", "human", "bot", "bot"], "seat": 0})
    return r.json()["table"]["id"], r.json()["token"]


schema = schemathesis.pytest.from_fixture("api_schema")


@schema.parametrize()
def test_every_endpoint_refuses_hostile_requests_without_a_5xx(
        case: Any, served: Served, seat_of_served: tuple[str, str]) -> None:
    table_id, token = seat_of_served
    if case.path_parameters and "table_id" in case.path_parameters and len(case.formatted_path) % 2:
        case.path_parameters["table_id"] = table_id  # half the cases reach a real table
    if isinstance(case.body, dict) and "token" in case.body and len(json.dumps(case.body, default=str)) % 2:
        case.body["token"] = token
    before = stored_state(served.db, table_id)
    response = case.call()
    assert response.status_code < 500, (case.as_curl_command(), response.text)
    if response.status_code >= 400 and case.path.startswith("/api/"):
        assert "error" in response.json(), (case.as_curl_command(), response.status_code, response.text)
        err = response.json()["error"]
        assert err["code"] in ERROR_CODES and err["message"], (case.as_curl_command(), response.text)
        assert stored_state(served.db, table_id) == before, case.as_curl_command()


def test_a_second_server_on_the_same_database_exits_naming_the_first(served: Served) -> None:
    second = subprocess.run(
        [sys.executable, "-m", "belot", "serve", "--port", "0", "--db", str(served.db)],
        capture_output=True, text=True, timeout=60,
    )
    assert second.returncode != 0
    assert re.search(rf"in use by another belot serve \(process {served.proc.pid} on \S+, since ", second.stderr), \
        second.stderr
    assert second.stdout == ""


def test_hostile_input_against_the_real_server(served: Served) -> None:
    """The attacks of issue 19 over real sockets: the answers are 4xx errors naming the problem."""
    import httpx
    from websockets.sync.client import connect

    with httpx.Client(base_url=served.url, timeout=30) as http:
        r = http.post("/api/tables", json={"seats": ["human", "bot", "bot", "bot"], "seat": 0})
        table_id, token = r.json()["table"]["id"], r.json()["token"]
        for body, code in [
            ('{"names": ["\\ud800", null, null, null]}', "bad_request"),
            ('{"target": 1' + "0" * 5000 + "}", "bad_number"),
            ("[" * 60_000, "too_deep"),
            (" " * 70_000, "too_large"),
        ]:
            r = http.post("/api/tables", content=body)
            assert 400 <= r.status_code < 500 and r.json()["error"]["code"] == code, r.text
        assert http.get("/api/tables").status_code == 200
    with connect(f"{served.url.replace('http', 'ws')}/api/tables/{table_id}/ws?token={token}") as ws:
        assert json.loads(ws.recv())["type"] == "state"
        ws.send('{"type": "action", "action": {"call": "pass"}, "seq": 1' + "0" * 5000 + "}")
        assert json.loads(ws.recv())["code"] == "bad_number"
        ws.send("[" * 30_000)
        assert json.loads(ws.recv())["code"] == "too_deep"
        ws.send('{"type": "ping"}')
        assert json.loads(ws.recv())["type"] == "pong"


def test_idle_connections_per_address_are_capped_and_others_still_answered(tmp_path: Path) -> None:
    """One client holding idle sockets (1,003 once made every new connection fail) gets a 429 for
    the connection over its limit (twice --ws-per-address), while the server answers the rest."""
    import socket

    server = subprocess.Popen(
        [sys.executable, "-m", "belot", "serve", "--host", "127.0.0.1", "--port", "0", "--db",
         str(tmp_path / "belot.sqlite3"), "--ws-per-address", "2", "--bot-workers", "1"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        assert server.stdout is not None
        host, port = server.stdout.readline().split()[2].removeprefix("http://").rstrip("/").split(":")
        idle = [socket.create_connection((host, int(port)), timeout=10) for _ in range(4)]
        extra = socket.create_connection((host, int(port)), timeout=10)
        answer = extra.recv(4096).decode()
        assert answer.startswith("HTTP/1.1 429") and "too_many_connections" in answer, answer
        idle.pop().close()
        # the slot is free once the server has seen the close: at once on a quiet machine, later on a
        # loaded one (a fixed 0.2 s wait was a race)
        deadline = time.monotonic() + 15
        while True:
            with socket.create_connection((host, int(port)), timeout=10) as s:
                s.sendall(b"GET /api/health HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n")
                answer = s.recv(4096).decode()
            if not answer.startswith("HTTP/1.1 429") or time.monotonic() > deadline:
                break
            time.sleep(0.1)
        assert answer.startswith("HTTP/1.1 200"), answer
        for s in [*idle, extra]:
            s.close()
    finally:
        server.terminate()
        _out, err = server.communicate(timeout=30)
    assert "Traceback" not in err, err
