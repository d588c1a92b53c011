"""Presence at a table (who is connected) reaches everyone there, without one client's sockets
making the server send a whole state to every connection each time one opens or closes.

An audit measured 1,169 connects by one client send 46,760 messages to the 20 spectators of its
table: each connect and each close was a state to every connection.  Changes of presence alone are
now sent at most once per `presence_every` seconds (docs/protocol.md, "state").
"""

from __future__ import annotations

import time
import warnings
from pathlib import Path
from typing import Any

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette's note about httpx versions
    from starlette.testclient import TestClient

from belot.server.app import create_app

CYCLES = 40


def client_of(tmp_path: Path) -> TestClient:
    return TestClient(create_app(f"sqlite:///{tmp_path / 'belot.sqlite3'}", bot_delay=0.0))


def table_with_a_player(client: TestClient) -> tuple[str, str]:
    """A table waiting for two more players (nothing is played meanwhile), and the first one's token."""
    r = client.post("/api/tables", json={"seats": ["human", "human", "human", "bot:random"], "seat": 0,
                                         "name": "Ayşe"})
    assert r.status_code == 201, r.text
    return r.json()["table"]["id"], r.json()["token"]


def read_all(ws: Any) -> list[dict[str, Any]]:
    """Every message the server queued for ``ws`` so far: a ping's pong comes after them."""
    ws.send_json({"type": "ping"})
    out = []
    while (m := ws.receive_json())["type"] != "pong":
        out.append(m)
    return out


def test_rapid_connects_send_a_spectator_a_bounded_number_of_states(tmp_path: Path) -> None:
    every = 0.5  # the default of `create_app`
    with client_of(tmp_path) as client:
        table_id, token = table_with_a_player(client)
        with client.websocket_connect(f"/api/tables/{table_id}/ws") as spec:
            first = spec.receive_json()
            assert first["type"] == "state" and not first["table"]["seats"][0]["connected"]
            t0 = time.monotonic()
            for _ in range(CYCLES):
                with client.websocket_connect(f"/api/tables/{table_id}/ws?token={token}") as ws:
                    own = ws.receive_json()  # the one connecting gets its state at once
                    assert own["you"]["seat"] == 0 and own["table"]["seats"][0]["connected"]
            elapsed = time.monotonic() - t0
            time.sleep(2 * every)  # the last change's state goes out at the end of its interval
            states = [m for m in read_all(spec) if m["type"] == "state"]
            # One state per interval at most, and one at once for the first change: the old server
            # sent 2 * CYCLES (a state for each connect and each close).
            assert 1 <= len(states) <= elapsed / every + 2 < 2 * CYCLES, (len(states), elapsed)
            assert not states[-1]["table"]["seats"][0]["connected"]  # the final presence: gone

            # A player who stays is seen connected by the spectator, once the interval is over.
            with client.websocket_connect(f"/api/tables/{table_id}/ws?token={token}") as ws:
                ws.receive_json()
                m = spec.receive_json()
                assert m["table"]["seats"][0]["connected"]
                time.sleep(2 * every)
                assert all(s["table"]["seats"][0]["connected"] for s in read_all(spec) if s["type"] == "state")


def test_a_change_of_play_carries_the_presence_with_it(tmp_path: Path) -> None:
    """A state sent for a join goes out at once, and holds who is connected then; the presence
    state it made needless is not sent after it."""
    every = 2.0
    with client_of(tmp_path) as client:
        client.app.state.lobby.presence_every = every  # type: ignore[attr-defined]  # the tables made from now
        table_id, token = table_with_a_player(client)
        with client.websocket_connect(f"/api/tables/{table_id}/ws") as spec:
            spec.receive_json()
            with client.websocket_connect(f"/api/tables/{table_id}/ws?token={token}") as ws:
                ws.receive_json()
                assert spec.receive_json()["table"]["seats"][0]["connected"]  # the first change: at once
            with client.websocket_connect(f"/api/tables/{table_id}/ws?token={token}") as ws:
                ws.receive_json()  # a second change within the interval waits for its end
                r = client.post(f"/api/tables/{table_id}/join", json={"seat": 1, "name": "Mehmet"})
                assert r.status_code == 200, r.text
                m = spec.receive_json()
                assert m["table"]["seats"][1]["name"] == "Mehmet" and m["table"]["seats"][0]["connected"]
                time.sleep(every + 0.5)
                assert read_all(spec) == []
