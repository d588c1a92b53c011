"""Faults an audit of `belot serve` found, each refused by name instead of a 500 (docs/protocol.md,
"Error codes"), with what is stored left as it was."""

from __future__ import annotations

import random
import warnings
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette's note about httpx versions
    from starlette.testclient import TestClient
from server_helpers import play_over_websockets

from belot import bots
from belot.game import MAX_TARGET
from belot.server.app import create_app
from belot.server.errors import TableError
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
