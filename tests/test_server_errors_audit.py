"""Faults an audit of `belot serve` found, each refused by name instead of a 500 (docs/protocol.md,
"Error codes"), with what is stored left as it was."""

from __future__ import annotations

import random
import time
import warnings
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette's note about httpx versions
    from starlette.testclient import TestClient
from server_helpers import play_over_websockets
from sqlalchemy.exc import OperationalError
from starlette.websockets import WebSocketDisconnect

from belot import bots
from belot.game import MAX_TARGET
from belot.server.app import create_app
from belot.server.errors import TableError
from belot.server.names import look_alike_keys
from belot.server.requests import rematch_request
from belot.server.settings import Settings


def make_client(tmp_path: Path, **kwargs: Any) -> TestClient:
    kwargs.setdefault("bot_delay", 0.0)
    # A fault the app does not catch answers 500 here, as it would to a real client, instead of raising.
    return TestClient(create_app(f"sqlite:///{tmp_path / 'belot.sqlite3'}", **kwargs), raise_server_exceptions=False)


def finished_table(client: TestClient, seats: list[str]) -> tuple[str, str]:
    """A finished match of a short target with a person at seat 0: (table id, seat 0's token)."""
    r = client.post("/api/tables", json={"seats": seats, "target": 10, "seat": 0, "name": "Ayşe"})
    assert r.status_code == 201, r.text
    table_id, token = r.json()["table"]["id"], r.json()["token"]
    play_over_websockets(client, table_id, {0: token}, random.Random(7))
    assert client.get(f"/api/tables/{table_id}").json()["table"]["status"] == "finished"
    return table_id, token


# -- a bot level no longer offered ------------------------------------------------------------------

def test_a_rematch_naming_a_removed_bot_is_refused_by_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A finished table whose bot level the server no longer has (removed since, or never one of
    its levels) answered its rematch with a bare 500; now 409 ``not_offered`` naming the seat and
    the bot, and no rematch is stored, so one can be made once the level is back."""
    with make_client(tmp_path) as client:
        table_id, token = finished_table(client, ["human", "bot:random", "bot:heuristic", "bot:random"])
        monkeypatch.delitem(bots.REGISTRY, "random")
        r = client.post(f"/api/tables/{table_id}/rematch", json={"token": token})
        assert r.status_code == 409, r.text
        error = r.json()["error"]
        assert error["code"] == "not_offered"
        assert error["detail"] == {"field": "seats[1]", "bot": "bot:random"}
        assert "bot:random" in error["message"] and "bot:heuristic" in error["message"]
        assert client.app.state.lobby.storage.rematch_of(table_id) is None  # type: ignore[attr-defined]
        monkeypatch.undo()
        r = client.post(f"/api/tables/{table_id}/rematch", json={"token": token})
        assert r.status_code == 200 and r.json()["seat"] == 0, r.text


def test_a_rematch_request_names_each_setting_no_longer_offered() -> None:
    """The substitute bot and the bounds are checked as the seats are: whatever a stored table
    holds, the rematch is a named refusal, never a ValidationError escaping as a 500."""
    human = ["human", "bot:heuristic", "bot:heuristic", "bot:heuristic"]
    for settings, field, bot in [
        (Settings(seats=human, substitute="bot:gone"), "substitute", "bot:gone"),
        (Settings(seats=["human", "bot:gone", "human", "human"]), "seats[1]", "bot:gone"),
        (Settings(seats=["human", 7, "human", "human"]), "seats[1]", None),  # type: ignore[list-item]
        (Settings(seats=human, target=MAX_TARGET + 1), "target", None),
        (Settings(seats=human, substitute="human"), "substitute", None),
    ]:
        with pytest.raises(TableError) as e:
            rematch_request(settings)
        assert (e.value.code, e.value.status, e.value.detail["field"]) == ("not_offered", 409, field), e.value.message
        assert e.value.detail.get("bot") == bot
    assert rematch_request(Settings(seats=human)).seats == human


# -- a password too long ----------------------------------------------------------------------------

def test_a_password_too_long_is_refused_naming_the_limit(tmp_path: Path) -> None:
    """A password over 256 characters was refused as a ``bad_request`` of reason ``invalid`` with no
    limit given; now ``bad_password`` names the bound and the side of it, as a short one does.  At a
    login it is refused before it is counted as a failed one (no account has such a password)."""
    with make_client(tmp_path) as client:
        for _ in range(3):
            r = client.post("/api/accounts", json={"name": "Ayşe", "password": "x" * 257})
            assert r.status_code == 400, r.text
            assert r.json()["error"]["code"] == "bad_password"
            assert r.json()["error"]["detail"] == {"limit": 256, "reason": "too_long"}
            assert "256" in r.json()["error"]["message"]
        r = client.post("/api/accounts", json={"name": "Ayşe", "password": "short"})
        assert r.status_code == 400 and r.json()["error"]["detail"] == {"limit": 8, "reason": "too_short"}
        assert client.post("/api/accounts", json={"name": "Ayşe", "password": "y" * 256}).status_code == 201
        client.post("/api/logout")
        for _ in range(6):  # more than the 5 failed logins allowed
            r = client.post("/api/login", json={"name": "Ayşe", "password": "y" * 257})
            assert r.status_code == 400 and r.json()["error"]["detail"] == {"limit": 256, "reason": "too_long"}, r.text
        assert client.post("/api/login", json={"name": "ayşe", "password": "y" * 256}).status_code == 200


# -- HEAD -------------------------------------------------------------------------------------------

def test_head_is_answered_as_get_without_a_body(tmp_path: Path) -> None:
    """RFC 9110 9.3.2: HEAD of any GET route (pages, static files, ``GET /api/...``) has the GET's
    status and headers and no body; it was 405 everywhere but the static files."""
    with make_client(tmp_path) as client:
        table_id = client.post("/api/tables", json={}).json()["table"]["id"]
        paths = ["/", f"/t/{table_id}", f"/replay/{table_id}", "/u/Ayşe", "/leaderboard", "/account", "/no/such/page",
                 "/static/js/i18n.js", "/api/health", "/api/bots", "/api/tables", "/api/tables?all=1&limit=2",
                 f"/api/tables/{table_id}", f"/api/tables/{table_id}/state", f"/api/tables/{table_id}/record",
                 "/api/tables/nosuchtable", "/api/i18n/tr", "/api/i18n/xx", "/api/leaderboard", "/api/me",
                 "/api/users/nobody", "/api/openapi.json", "/api/nope"]
        for path in paths:
            get, head = client.get(path), client.head(path)
            assert head.status_code == get.status_code, (path, head.status_code, get.status_code)
            assert head.content == b"", path
            for header in ("content-type", "content-length"):
                assert head.headers.get(header) == get.headers.get(header), (path, header)
        assert client.head("/api/tables/nosuchtable").status_code == 404
        # A path without GET refuses HEAD as it refuses GET, naming the method asked for.
        r = client.head(f"/api/tables/{table_id}/join")
        assert r.status_code == 405 and r.headers["allow"] == "POST" and r.content == b""
        r = client.get(f"/api/tables/{table_id}/join")
        assert r.status_code == 405 and r.json()["error"]["message"].startswith("'GET' is not a method")
        # ... and a path with GET says it takes HEAD too.
        r = client.post("/api/health")
        assert r.status_code == 405 and r.headers["allow"] == "GET, HEAD", r.headers
        assert client.get("/api/health").json() == {"ok": True}


# -- the database failing under a websocket ---------------------------------------------------------

def database_away(*_args: Any, **_kwargs: Any) -> Any:
    raise OperationalError("INSERT", {}, Exception("disk I/O error"))


def test_an_action_the_database_cannot_store_over_a_websocket_is_refused_and_not_played(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The socket's client is told ``storage_error`` with the seq it is still at; the table, the other
    seats and the database are as before; once the database is back the same socket plays on."""
    with make_client(tmp_path) as client:
        r = client.post("/api/tables", json={"seats": ["human", "human", "bot:random", "bot:random"]})
        table_id = r.json()["table"]["id"]
        tokens = {s: client.post(f"/api/tables/{table_id}/join", json={"seat": s}).json()["token"] for s in (0, 1)}
        storage = client.app.state.lobby.storage  # type: ignore[attr-defined]
        table = client.app.state.lobby.tables[table_id]  # type: ignore[attr-defined]
        while table.match.current_player not in tokens:  # the bots move first
            time.sleep(0.01)
        seat = table.match.current_player
        with client.websocket_connect(f"/api/tables/{table_id}/ws?token={tokens[seat]}") as ws:
            before = ws.receive_json()
            action = before["view"]["legal"][0]
            monkeypatch.setattr(storage, "append_action", database_away)
            ws.send_json({"type": "action", "action": action, "seq": before["seq"]})
            error = ws.receive_json()
            assert (error["type"], error["code"], error["seq"]) == ("error", "storage_error", before["seq"]), error
            assert table.seq == before["seq"]
            assert client.get(f"/api/tables/{table_id}/state", params={"token": tokens[seat]}).json()["view"] == before["view"]
            assert len(storage.load(table_id).moves) == before["seq"]
            monkeypatch.undo()
            ws.send_json({"type": "action", "action": action, "seq": before["seq"]})
            after = ws.receive_json()
            while after["seq"] == before["seq"]:  # a state for presence alone may come first
                after = ws.receive_json()
            assert after["type"] == "state" and after["seq"] == before["seq"] + 1, after
            assert len(storage.load(table_id).moves) >= before["seq"] + 1


def test_a_websocket_whose_table_the_database_cannot_read_is_told_so(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A socket opened while the database was away got no message at all (the app's refusal of a
    database failure was an HTTP answer); now ``storage_error`` and the close 1011, after which the
    client reconnects, and a socket opened once the database is back gets the table."""
    with make_client(tmp_path) as client:
        table_id = client.post("/api/tables", json={}).json()["table"]["id"]
        lobby = client.app.state.lobby  # type: ignore[attr-defined]
        lobby.drop(table_id)  # not in memory: read from the database when asked for
        monkeypatch.setattr(lobby.storage, "load", database_away)
        with client.websocket_connect(f"/api/tables/{table_id}/ws") as ws:
            error = ws.receive_json()
            assert (error["type"], error["code"]) == ("error", "storage_error"), error
            assert "database" in error["message"]
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 1011
        monkeypatch.undo()
        with client.websocket_connect(f"/api/tables/{table_id}/ws") as ws:
            state = ws.receive_json()
            assert state["type"] == "state" and state["table"]["id"] == table_id


def test_a_database_failure_handling_a_message_leaves_the_socket_open(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Whatever write of a message's handling the database fails, its client is told ``storage_error``
    and the socket stays open (it closed with no word), and so does it when it closes."""
    with make_client(tmp_path) as client:
        table_id = client.post("/api/tables", json={}).json()["table"]["id"]
        table = client.app.state.lobby.tables[table_id]  # type: ignore[attr-defined]
        with client.websocket_connect(f"/api/tables/{table_id}/ws") as ws:
            assert ws.receive_json()["type"] == "state"
            monkeypatch.setattr(table, "handle_text", database_away)
            ws.send_json({"type": "sync"})
            error = ws.receive_json()
            assert (error["type"], error["code"], error["seq"]) == ("error", "storage_error", table.seq), error
            monkeypatch.undo()
            ws.send_json({"type": "ping"})
            assert ws.receive_json() == {"type": "pong"}
            monkeypatch.setattr(table, "disconnect", database_away)  # a worker's lease not released as it goes
        assert client.get("/api/health").json() == {"ok": True}


# -- a name passing for an account's ----------------------------------------------------------------

@pytest.mark.parametrize(("name", "account"), [
    ("Іvan", "Ivan"),  # Cyrillic І
    ("Ιvan", "Ivan"),  # Greek Ι
    ("іvan", "Ivan"),  # Cyrillic і, in lower case: names compare ignoring case
    ("ЕНА", "EHA"),  # three Cyrillic capitals drawn as Latin ones
    ("Mapия", "Мария"),  # Latin M, a, p among Cyrillic letters, the other way round
    ("вepa", "Вера"),  # Latin e, p, a: in upper case "ВEPA", which "ВЕРА" is drawn as
    ("𝐈𝐯𝐚𝐧", "Ivan"),  # mathematical bold
    ("Ｉｖａｎ", "Ivan"),  # full width
])
def test_names_drawn_alike_have_one_look_alike_key(name: str, account: str) -> None:
    assert look_alike_keys(name) & look_alike_keys(account), (look_alike_keys(name), look_alike_keys(account))


@pytest.mark.parametrize(("name", "other"), [
    ("Иван", "Ivan"),  # the same name in two scripts, drawn differently
    ("Işık", "Isik"),  # Turkish letters are letters of their own
    ("Ívan", "Ivan"),  # an accent shows
    ("Вера", "Vera"),  # nor its spelling in Latin letters
    ("lvan", "Ivan"),  # within Latin nothing is folded (docs/protocol.md)
])
def test_names_drawn_differently_stay_apart(name: str, other: str) -> None:
    assert not look_alike_keys(name) & look_alike_keys(other)


def test_a_guest_cannot_pass_for_an_account_with_look_alike_letters(tmp_path: Path) -> None:
    """A guest sat as "Іvan" (a Cyrillic І) beside the account "Ivan", and a look-alike could be
    registered as an account of its own; each is refused as the name itself is, naming the account.
    An account registered by another server on the same database (a worker) is seen too."""
    with make_client(tmp_path) as client:
        assert client.post("/api/accounts", json={"name": "Ivan", "password": "correct horse"}).status_code == 201
        guest = TestClient(client.app)
        table_id = guest.post("/api/tables", json={"seats": ["human", "human", "bot", "bot"]}).json()["table"]["id"]
        for name in ["Іvan", "IVAN", "𝐈𝐯𝐚𝐧"]:
            r = guest.post(f"/api/tables/{table_id}/join", json={"seat": 0, "name": name})
            assert r.status_code == 409 and r.json()["error"]["code"] == "name_registered", r.text
            r = guest.post("/api/tables", json={"seat": 0, "name": name})
            assert r.status_code == 409 and r.json()["error"]["code"] == "name_registered", r.text
            r = guest.post("/api/tables", json={"names": [None, name, None, None]})
            assert r.status_code == 409 and r.json()["error"]["code"] == "name_registered", r.text
            assert r.json()["error"]["message"].startswith("names[1]: ")
            r = guest.post("/api/accounts", json={"name": name, "password": "another horse"})
            assert r.status_code == 409 and r.json()["error"]["code"] == "name_taken", r.text
            assert "'Ivan'" in r.json()["error"]["message"]
        assert "looks like" in guest.post("/api/tables", json={"seat": 0, "name": "Іvan"}).json()["error"]["message"]
        # Names merely alike in sound are not refused, nor is the account's own seat.
        r = guest.post(f"/api/tables/{table_id}/join", json={"seat": 0, "name": "Иван"})
        assert r.status_code == 200, r.text
        assert client.post(f"/api/tables/{table_id}/join", json={"seat": 1}).json()["table"]["seats"][1]["name"] == "Ivan"
        with make_client(tmp_path) as other_worker:
            r = other_worker.post("/api/accounts", json={"name": "Вера", "password": "correct horse"})
            assert r.status_code == 201, r.text
        r = guest.post("/api/tables", json={"seat": 0, "name": "BEPA"})  # Latin letters only
        assert r.status_code == 409 and r.json()["error"]["code"] == "name_registered", r.text


@pytest.mark.parametrize("seat", [0, 1, 3])
def test_an_unknown_bot_level_is_refused_naming_its_seat(tmp_path: Path, seat: int) -> None:
    """A table asked with an unknown bot level at one seat was refused with the field "seats", where
    a seat of the wrong type is named "seats.3": the refusal names the seat, and its value."""
    kinds = ["human", "bot:random", "bot:random", "bot:random"]
    kinds[seat] = "bot:nosuch"
    with make_client(tmp_path) as client:
        r = client.post("/api/tables", json={"seats": kinds})
        assert r.status_code == 400, r.text
        error = r.json()["error"]
        assert error["code"] == "bad_request" and error["detail"] == {"field": f"seats.{seat}", "reason": "invalid"}
        assert error["message"].startswith(f"seats.{seat}: 'bot:nosuch' is neither"), error
        assert client.get("/api/tables").json()["tables"] == []
