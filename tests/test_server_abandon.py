"""Abandoned tables: an unfinished table with a human seat that nobody is at (no socket of a player
or a spectator, no request with a seat's token) for the server's `abandon_after` is closed as
``abandoned`` (docs/protocol.md, "Abandoned tables").  Its record stays whole and readable, it
leaves memory and the lobby, a restart does not replay it, and a seat's token is refused there by
name.  Before, every table created and left unfinished stayed in memory for ever and was replayed
at every start, so anyone could pile them up."""

from __future__ import annotations

import os
import random
import sqlite3
import time
import warnings
from pathlib import Path
from typing import Any

import httpx
import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette's note about httpx versions
    from starlette.testclient import TestClient
from test_server_restart import serving

from belot.record import replay
from belot.server.app import create_app
from belot.server.limits import Limits
from belot.server.storage import Storage

ABANDON = 0.6  # seconds; the sweep runs every quarter of it


def client_of(db: Path | str, monkeypatch: pytest.MonkeyPatch, abandon_after: float = ABANDON,
              **kwargs: Any) -> TestClient:
    """A client of the app over ``db`` (a database URL, or a SQLite file), closing tables nobody is at
    for ``abandon_after`` (set as `belot serve` takes it, from the environment)."""
    monkeypatch.setenv("BELOT_ABANDON_AFTER", str(abandon_after))
    kwargs.setdefault("bot_delay", 0.0)
    return TestClient(create_app(db if isinstance(db, str) else f"sqlite:///{db}", **kwargs))


def play_some(http: Any, table_id: str, token: str, actions: int, rng: random.Random) -> int:
    """Seat 0's player makes ``actions`` of its actions over HTTP, and the bots theirs until seat 0
    is to move again (then nothing moves); returns the seq then.  Seat 0 announces no declaration:
    one announced last would wait for its card, and the record writes a declaration on its card
    (`test_a_declaration_whose_card_was_not_played_is_kept_in_the_database`)."""
    done = 0
    while True:
        m = http.get(f"/api/tables/{table_id}/state", params={"token": token}).json()
        if m["view"]["to_move"] != 0:
            time.sleep(0.01)
            continue
        if done == actions:
            return int(m["seq"])
        r = http.post(f"/api/tables/{table_id}/action",
                      json={"token": token, "action": rng.choice(plain(m["view"]["legal"])), "seq": m["seq"]})
        assert r.status_code == 200, r.text
        done += 1


def plain(legal: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The legal actions but declarations (a card, a call)."""
    return [a for a in legal if "declare" not in a]


def wait_status(http: Any, table_id: str, status: str, timeout: float = 10.0) -> dict[str, Any]:
    end = time.monotonic() + timeout
    while True:
        table = http.get(f"/api/tables/{table_id}").json()["table"]
        if table["status"] == status or time.monotonic() > end:
            assert table["status"] == status, table
            return dict(table)
        time.sleep(0.05)


def assert_refused_as_abandoned(r: Any) -> None:
    assert r.status_code == 409, r.text
    error = r.json()["error"]
    assert error["code"] == "match_over" and error["detail"] == {"reason": "abandoned"}, error
    assert "abandoned" in error["message"]


def test_a_table_nobody_is_at_is_closed_its_record_kept_and_its_tokens_refused(
        db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    db = db_url
    rng = random.Random(3)
    with client_of(db, monkeypatch) as client:
        lobby = client.app.state.lobby  # type: ignore[attr-defined]
        # One in play (its player made a few actions, then closed the page), one waiting for a player.
        r = client.post("/api/tables", json={"seats": ["human", "bot:random", "bot:random", "bot:random"],
                                             "seat": 0, "name": "Ayşe"})
        played, token = r.json()["table"]["id"], r.json()["token"]
        with client.websocket_connect(f"/api/tables/{played}/ws?token={token}") as ws:
            ws.receive_json()
            seq = play_some(client, played, token, 3, rng)
        r = client.post("/api/tables", json={"seats": ["human", "human", "bot:random", "bot:random"],
                                             "seat": 0, "name": "Mehmet"})
        waiting, waiting_token = r.json()["table"]["id"], r.json()["token"]
        listed = {t["id"] for t in client.get("/api/tables").json()["tables"]}
        assert waiting in listed

        table = wait_status(client, played, "abandoned")
        assert table["seq"] == seq  # nothing was played after it was left
        wait_status(client, waiting, "abandoned")
        assert played not in lobby.tables and waiting not in lobby.tables  # out of memory
        assert waiting not in {t["id"] for t in client.get("/api/tables").json()["tables"]}  # out of the lobby

        # The record is whole: every stored action, readable and replayable as a finished one's.
        doc = client.get(f"/api/tables/{played}/record").json()
        match = replay(doc)
        assert sum(len(d.actions) for d in match.deals) == seq and not match.is_over
        assert doc["players"][0] == "Ayşe"
        rep = client.get(f"/api/tables/{played}/replay")
        assert rep.status_code == 200 and rep.json()["record"] == doc
        assert client.get(f"/api/tables/{played}/state").json()["table"]["status"] == "abandoned"

        # A player back with the seat's token is told by name, over HTTP and the websocket; nothing changes.
        assert_refused_as_abandoned(client.get(f"/api/tables/{played}/state", params={"token": token}))
        assert_refused_as_abandoned(client.post(f"/api/tables/{played}/action",
                                                json={"token": token, "action": {"call": "pass"}}))
        assert_refused_as_abandoned(client.post(f"/api/tables/{played}/leave", json={"token": token}))
        assert_refused_as_abandoned(client.post(f"/api/tables/{waiting}/join", json={"seat": 1}))
        # Over the websocket the seat is refused by name, and the socket shows the table as it was
        # left, as a spectator's (the browser's page then shows it, not nothing).
        with client.websocket_connect(f"/api/tables/{played}/ws?token={token}") as ws:
            m = ws.receive_json()
            assert m["type"] == "error" and m["code"] == "match_over" and m["detail"] == {"reason": "abandoned"}
            m = ws.receive_json()
            assert m["type"] == "state" and m["you"]["seat"] is None and m["view"]["hand"] == []
            assert m["table"]["status"] == "abandoned" and m["seq"] == seq
            ws.send_json({"type": "action", "action": {"call": "pass"}})
            assert ws.receive_json()["code"] == "spectator"
        with client.websocket_connect(f"/api/tables/{waiting}/ws?token={waiting_token}") as ws:
            assert ws.receive_json()["code"] == "match_over"
            assert ws.receive_json()["table"]["status"] == "abandoned"
        assert client.get(f"/api/tables/{played}").json()["table"]["seq"] == seq
        assert played not in lobby.tables

    storage = Storage(db)
    try:
        stored = storage.load(played)
        assert stored is not None and stored.status == "abandoned" and len(stored.moves) == seq
    finally:
        storage.close()


def test_a_table_someone_is_at_stays_open(db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A socket open (a player's, or only a spectator's) keeps a table open however long; the
    time counts from when the last one closed."""
    with client_of(db_url, monkeypatch) as client:
        r = client.post("/api/tables", json={"seats": ["human", "human", "bot:random", "bot:random"], "seat": 0})
        player, token = r.json()["table"]["id"], r.json()["token"]
        r = client.post("/api/tables", json={"seats": ["human", "human", "bot:random", "bot:random"], "seat": 0})
        watched = r.json()["table"]["id"]
        with client.websocket_connect(f"/api/tables/{player}/ws?token={token}") as ws, \
                client.websocket_connect(f"/api/tables/{watched}/ws") as spec:
            ws.receive_json()
            spec.receive_json()
            time.sleep(3 * ABANDON)
            for tid in (player, watched):
                assert client.get(f"/api/tables/{tid}").json()["table"]["status"] == "waiting"
        left = time.monotonic()
        wait_status(client, player, "abandoned")
        wait_status(client, watched, "abandoned")
        assert time.monotonic() - left >= ABANDON * 0.9


def test_a_player_over_http_alone_keeps_the_table_open(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A player who plays over HTTP (no socket) is someone at the table too."""
    rng = random.Random(5)
    with client_of(tmp_path / "belot.sqlite3", monkeypatch, abandon_after=1.0) as client:
        r = client.post("/api/tables", json={"seats": ["human", "bot:random", "bot:random", "bot:random"],
                                             "seat": 0, "target": 1000})
        tid, token = r.json()["table"]["id"], r.json()["token"]
        end = time.monotonic() + 2.5
        while time.monotonic() < end:
            play_some(client, tid, token, 1, rng)
            time.sleep(0.2)
        assert client.get(f"/api/tables/{tid}").json()["table"]["status"] == "playing"


def test_a_table_of_bots_only_plays_on(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A table of bots only is never abandoned: it plays to its end (`--max-bot-tables` bounds them)."""
    with client_of(tmp_path / "belot.sqlite3", monkeypatch, bot_delay=0.05) as client:
        r = client.post("/api/tables", json={"seats": ["bot:random"] * 4, "target": 1000})
        tid = r.json()["table"]["id"]
        time.sleep(3 * ABANDON)
        assert client.get(f"/api/tables/{tid}").json()["table"]["status"] == "playing"


@pytest.mark.slow
def test_abandoned_tables_are_not_replayed_at_a_restart(tmp_path: Path) -> None:
    """Through real `belot serve` processes: a table abandoned while the server ran, and one whose
    time ran out while the server was stopped, come back from neither start; their records do."""
    db = tmp_path / "belot.sqlite3"
    rng = random.Random(7)
    short = {**os.environ, "BELOT_ABANDON_AFTER": "1"}
    long = {**os.environ, "BELOT_ABANDON_AFTER": "3600"}
    seats = {"seats": ["human", "bot:random", "bot:random", "bot:random"], "seat": 0, "target": 1000}
    with serving(db, "--log-level", "info", env=short) as served, httpx.Client(base_url=served.url, timeout=10) as http:
        r = http.post("/api/tables", json=seats)
        closed, closed_token = r.json()["table"]["id"], r.json()["token"]
        closed_seq = play_some(http, closed, closed_token, 2, rng)
        wait_status(http, closed, "abandoned")
    with serving(db, "--log-level", "info", env=long) as served, httpx.Client(base_url=served.url, timeout=10) as http:
        assert http.get(f"/api/tables/{closed}").json()["table"]["status"] == "abandoned"
        r = http.post("/api/tables", json=seats)
        later, later_token = r.json()["table"]["id"], r.json()["token"]
        later_seq = play_some(http, later, later_token, 2, rng)
    assert "restored 1 unfinished table" not in served.err  # the first was not replayed
    time.sleep(1.5)  # the second's player is gone longer than the next server keeps a table open
    # (its flag, over the environment's hour)
    with serving(db, "--log-level", "info", "--abandon-after", "1", env=long) as served, \
            httpx.Client(base_url=served.url, timeout=10) as http:
        for tid, token, seq in ((closed, closed_token, closed_seq), (later, later_token, later_seq)):
            table = http.get(f"/api/tables/{tid}").json()["table"]
            assert table["status"] == "abandoned" and table["seq"] == seq
            doc = http.get(f"/api/tables/{tid}/record").json()
            assert sum(len(d.actions) for d in replay(doc).deals) == seq
            assert_refused_as_abandoned(http.get(f"/api/tables/{tid}/state", params={"token": token}))
    assert "closed 1 abandoned table" in served.err  # closed at the start, from the database alone
    assert "restored" not in served.err  # and replayed by neither start
    con = sqlite3.connect(db)
    try:
        rows = dict(con.execute("select id, status from belot_tables").fetchall())
    finally:
        con.close()
    assert rows == {closed: "abandoned", later: "abandoned"}


def test_an_accounts_abandoned_table_is_not_offered_to_go_back_to(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """`GET /api/me` listed the account's tables not finished, so an abandoned one was offered in
    the lobby's "your tables" with nothing to go back to; and resuming it made a token for it."""
    with client_of(tmp_path / "belot.sqlite3", monkeypatch) as client:
        assert client.post("/api/accounts", json={"name": "Ivan", "password": "correct horse battery"}).status_code == 201
        r = client.post("/api/tables", json={"seats": ["human", "bot:random", "bot:random", "bot:random"], "seat": 0})
        table_id = r.json()["table"]["id"]
        assert [t["table"]["id"] for t in client.get("/api/me").json()["tables"]] == [table_id]
        wait_status(client, table_id, "abandoned")
        assert client.get("/api/me").json()["tables"] == []
        assert_refused_as_abandoned(client.post(f"/api/tables/{table_id}/resume"))


def test_a_declaration_whose_card_was_not_played_is_kept_in_the_database(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A player who announced a declaration in trick 1 and left before playing its card: the table is
    closed with that declaration stored, and the record, which writes a declaration on its card
    (belot-record/1), is the match up to the card before it (docs/protocol.md, "Abandoned tables")."""
    rng = random.Random(5)
    with client_of(tmp_path / "belot.sqlite3", monkeypatch, abandon_after=30.0,
                   limits=Limits(tables_per_minute=1000, waiting_per_address=1000)) as client:
        for _ in range(200):  # deals until seat 0 is offered a declaration
            r = client.post("/api/tables", json={"seats": ["human", "bot:random", "bot:random", "bot:random"],
                                                 "seat": 0, "target": 1000})
            assert r.status_code == 201, r.text
            table_id, token = r.json()["table"]["id"], r.json()["token"]
            while True:
                m = client.get(f"/api/tables/{table_id}/state", params={"token": token}).json()
                legal = m["view"]["legal"]
                if m["view"]["to_move"] != 0 or not legal:
                    time.sleep(0.01)
                    continue
                if any("declare" in a for a in legal) or m["view"]["phase"] != "auction":  # offered, or too late
                    break
                r = client.post(f"/api/tables/{table_id}/action", json={"token": token, "action": rng.choice(legal)})
                assert r.status_code == 200, r.text
            if any("declare" in a for a in legal):
                break
            client.post(f"/api/tables/{table_id}/leave", json={"token": token})
        else:
            raise AssertionError("seat 0 was never offered a declaration")
        declare = next(a for a in legal if "declare" in a)
        r = client.post(f"/api/tables/{table_id}/action", json={"token": token, "action": declare})
        assert r.status_code == 200, r.text
        seq = r.json()["seq"]
        lobby = client.app.state.lobby  # type: ignore[attr-defined]
        assert lobby.get(table_id).abandon()
        doc = client.get(f"/api/tables/{table_id}/record").json()
        assert sum(len(d.actions) for d in replay(doc).deals) == seq - 1
        written = [sorted(x) for d in doc["deals"] for p in d["play"] if isinstance(p, dict) for x in p.get("declare", ())]
        assert sorted(declare["declare"]) not in written  # the others' declarations are there, on their cards
    storage = Storage(f"sqlite:///{tmp_path / 'belot.sqlite3'}")
    try:
        stored = storage.load(table_id)
        assert stored is not None and len(stored.moves) == seq
        assert stored.moves[-1][:2] == (0, {"declare": declare["declare"]})
    finally:
        storage.close()
