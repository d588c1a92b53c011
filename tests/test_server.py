"""`belot serve` through its real ASGI app (Starlette's TestClient): HTTP, websockets, bots, rules.

The protocol is docs/protocol.md.  The "humans" are scripted by the tests, choosing among the
legal actions the server offers them; every action goes through the rules core on the server.
"""

from __future__ import annotations

import json
import random
import time
import warnings
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette's note about httpx versions
    from starlette.testclient import TestClient
from server_helpers import SPECTATOR, cards_in, check_information, play_over_websockets
from starlette.websockets import WebSocketDisconnect

from belot.game import NUM_ACTIONS
from belot.record import replay, results
from belot.server import tables as tables_mod
from belot.server.app import create_app
from belot.server.protocol import ProtocolError, action_from_json, action_to_json, rounding_to_json
from belot.server.storage import Storage
from belot.visibility import result_json


def make_client(db: str | Path, **kwargs: Any) -> TestClient:
    """A client of the app over ``db``: a database URL (the `db_url` fixture: SQLite and
    PostgreSQL), or a folder for a SQLite file."""
    kwargs.setdefault("bot_delay", 0.0)
    url = db if isinstance(db, str) else f"sqlite:///{db / 'belot.sqlite3'}"
    return TestClient(create_app(url, **kwargs))


def new_table(client: TestClient, seats: list[str], **body: Any) -> tuple[str, dict[int, str]]:
    """Create a table and join every human seat; returns the id and the tokens by seat."""
    r = client.post("/api/tables", json={"seats": seats, **body})
    assert r.status_code == 201, r.text
    table_id = r.json()["table"]["id"]
    tokens = {}
    for s, kind in enumerate(seats):
        if kind == "human":
            j = client.post(f"/api/tables/{table_id}/join", json={"seat": s, "name": f"player {s}"})
            assert j.status_code == 200, j.text
            tokens[s] = j.json()["token"]
    return table_id, tokens


def state(client: TestClient, table_id: str, token: str | None = None) -> dict[str, Any]:
    params = {"token": token} if token else {}
    r = client.get(f"/api/tables/{table_id}/state", params=params)
    assert r.status_code == 200, r.text
    return r.json()


def stored_actions(db_url: str, table_id: str) -> int:
    storage = Storage(db_url)
    stored = storage.load(table_id)
    storage.close()
    assert stored is not None
    return len(stored.moves)


# -- the wire format --------------------------------------------------------------------------


def test_every_action_round_trips_through_its_json() -> None:
    for a in range(NUM_ACTIONS):
        obj = action_to_json(a)
        assert action_from_json(json.loads(json.dumps(obj))) == a
        if "declare" in obj:  # the kind is optional when sent back, and the server's own word
            assert action_from_json({"declare": obj["declare"]}) == a
            assert obj["kind"] == ("carre" if len({c[0] for c in obj["declare"]}) == 1 else
                                   {3: "tierce", 4: "quarte"}.get(len(obj["declare"]), "quint"))
        assert not any(isinstance(v, int) and not isinstance(v, bool) for v in obj.values())


@pytest.mark.parametrize("bad", [
    None, 5, "JH", [], {}, {"card": "XX"}, {"card": 20}, {"card": "JH", "belote": "yes"},
    {"call": "double"}, {"call": 3}, {"declare": ["7C", "9C"]}, {"declare": "7C 8C 9C"},
    {"card": "JH", "call": "pass"}, {"card": "JH", "extra": 1},
    {"declare": ["7C", "8C", "9C"], "kind": "quarte"}, {"declare": ["7C", "8C", "9C"], "kind": None},
])
def test_malformed_actions_are_named(bad: Any) -> None:
    with pytest.raises(ProtocolError):
        action_from_json(bad)


@pytest.mark.parametrize("bad", [
    {"card": "J" * 30_000}, {"card": ["JH"] * 5_000}, {"call": "pass" * 8_000}, {"call": {"x" * 30_000: 1}},
    {"card": "JH", "belote": "y" * 30_000}, {"declare": ["7C"] * 10_000}, {"declare": ["7C", "8C", "9C"], "kind": "k" * 30_000},
    {"x" * 30_000: 1},
])
def test_a_huge_bad_action_gets_a_short_error(bad: Any) -> None:
    """The error quotes a bad value's first 40 characters, not the megabyte a client sent."""
    with pytest.raises(ProtocolError) as e:
        action_from_json(bad)
    assert len(str(e.value)) < 300


# -- whole matches ------------------------------------------------------------------------------


@pytest.mark.parametrize("humans,target", [(1, 151), (2, 61), (3, 61), (4, 61)])
def test_full_match_humans_and_bots_no_card_leaks(db_url: str, humans: int, target: int) -> None:
    """A whole match with 1-4 scripted humans and bots; no message reveals an unplayed card of
    another seat (R2.3: only the first five cards during the auction; R7.5: a declaration's kind
    only), spectators see no hand at all; the record replays to the same result."""
    rng = random.Random(humans)
    seats = ["human"] * humans + ["bot:random", "bot:heuristic", "bot:random"][: 4 - humans]
    rng.shuffle(seats)
    with make_client(db_url) as client:
        table_id, tokens = new_table(client, seats, target=target)
        messages = play_over_websockets(client, table_id, tokens, rng)
        doc = client.get(f"/api/tables/{table_id}/record").json()
        rep = client.get(f"/api/tables/{table_id}/replay").json()
        info = client.get(f"/api/tables/{table_id}").json()["table"]
    match = replay(doc)
    assert match.is_over and info["status"] == "finished"
    assert rep["record"] == doc
    # the replay's results are the record's, plus the summary's declarations and each scored deal's R10 step
    expected = results(match)
    for item, r in zip(expected["deals"], match.results):
        live = result_json(r, match.rules)
        item.update(declared=live["declared"], declared_detail=live["declared_detail"])
        if r.contract >= 0:
            item["rounding"] = rounding_to_json(r)
    assert rep["results"] == expected
    assert info["winner"] == match.winner and info["score"] == match.score
    assert info["seq"] == sum(len(d.actions) for d in match.deals) == stored_actions(db_url, table_id)
    assert doc["players"] == [f"player {s}" if k == "human" else k for s, k in enumerate(seats)]
    assert check_information(doc, messages) >= info["seq"]
    for msgs in messages.values():  # each socket saw every step from the moment it connected
        seqs = sorted({m["seq"] for m in msgs})
        assert seqs == list(range(seqs[0], info["seq"] + 1))
    if len(match.deals) > 1:  # each new deal's auction shows how the last one ended
        assert any(m["previous_deal"] and m["previous_deal"]["result"] for m in messages[SPECTATOR])
    final = messages[SPECTATOR][-1]["view"]
    assert final["winner"] == match.winner and final["result"] is not None


def test_bot_only_table_plays_by_itself_and_spectators_watch(db_url: str) -> None:
    with make_client(db_url) as client:
        r = client.post("/api/tables", json={"seats": ["bot:random"] * 4, "target": 31})
        table_id = r.json()["table"]["id"]
        assert r.json()["table"]["status"] == "playing"
        with client.websocket_connect(f"/api/tables/{table_id}/ws") as spec:
            while True:
                m = spec.receive_json()
                assert m["you"]["seat"] is None and m["view"]["hand"] == [] and m["view"]["legal"] == []
                if m["view"]["winner"] is not None:
                    break
        assert client.get(f"/api/tables/{table_id}/record").status_code == 200


def test_a_finished_table_read_over_http_does_not_stay_in_memory(
        db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A finished table leaves memory when nobody watches it; a read of its page, state, record or
    replay over HTTP kept it for good, so every replay ever viewed piled up in the server.  Only the
    few read last are kept (`tables.FINISHED_KEPT`)."""
    monkeypatch.setattr(tables_mod, "FINISHED_KEPT", 1)
    with make_client(db_url) as client:
        lobby = client.app.state.lobby  # type: ignore[attr-defined]
        ids = [client.post("/api/tables", json={"seats": ["bot:random"] * 4, "target": 31}).json()["table"]["id"]
               for _ in range(2)]
        deadline = time.monotonic() + 60
        while any(client.get(f"/api/tables/{t}").json()["table"]["status"] != "finished" for t in ids):
            assert time.monotonic() < deadline
            time.sleep(0.05)
        for table_id in ids:
            for path in ("", "/state", "/record", "/replay", "/analysis"):
                assert client.get(f"/api/tables/{table_id}{path}").status_code == 200, path
                assert table_id not in lobby.tables, path
            with client.websocket_connect(f"/api/tables/{table_id}/ws") as spec:  # still watched as ever
                assert spec.receive_json()["table"]["status"] == "finished"
            assert table_id not in lobby.tables
        assert list(lobby._finished) == ids[1:]  # the one read last



def test_a_long_replay_does_not_hold_up_other_requests(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The replay of a 10,000-point match takes most of a second to build: on the event loop, a client
    asking for it again and again kept every other request and table waiting.  A replay made slow
    here (2 s) is built while the server answers others."""
    import threading

    from belot.server import app as app_mod

    build = app_mod.replay_steps

    def slow(match: Any) -> Any:
        time.sleep(2)
        return build(match)

    monkeypatch.setattr(app_mod, "replay_steps", slow)
    with make_client(tmp_path) as client:
        table_id = client.post("/api/tables", json={"seats": ["bot:random"] * 4, "target": 31}).json()["table"]["id"]
        deadline = time.monotonic() + 60
        while client.get(f"/api/tables/{table_id}").json()["table"]["status"] != "finished":
            assert time.monotonic() < deadline
            time.sleep(0.05)
        answers: list[Any] = []
        asking = threading.Thread(target=lambda: answers.append(client.get(f"/api/tables/{table_id}/replay")))
        asking.start()
        time.sleep(0.3)
        began = time.monotonic()
        assert client.get("/api/health").json() == {"ok": True}
        waited = time.monotonic() - began
        asking.join()
        assert waited < 1.0, f"a request waited {waited:.1f} s for a replay"
        assert answers[0].status_code == 200 and answers[0].json()["steps"], answers[0].text[:200]


def test_a_table_id_with_a_nul_is_no_table_on_either_database(db_url: str) -> None:
    """PostgreSQL's text holds no NUL: asked about the table "a\\0b", the database raised and every
    route of a table answered 500 (the lobby's cursor too).  It is no table, on SQLite as well."""
    with make_client(db_url) as client:
        for method, path in [("GET", ""), ("GET", "/state"), ("GET", "/record"), ("GET", "/replay"),
                             ("POST", "/join"), ("POST", "/leave"), ("POST", "/action"), ("POST", "/rematch"),
                             ("POST", "/analysis"), ("GET", "/analysis")]:
            r = client.request(method, f"/api/tables/a%00b{path}", json={} if method == "POST" else None)
            assert r.status_code == 404 and r.json()["error"]["code"] == "no_table", (path, r.text)
        r = client.get("/api/tables", params={"before": "1.5:a\x00b"})
        assert r.status_code == 400 and r.json()["error"]["detail"]["field"] == "query.before", r.text
        with client.websocket_connect("/api/tables/a%00b/ws") as ws:
            assert ws.receive_json()["code"] == "no_table"
        assert client.get("/api/health").json() == {"ok": True}

# -- refusals leave everything as it was --------------------------------------------------------


def test_wrong_token_out_of_turn_illegal_malformed_rejected_state_unchanged(db_url: str) -> None:
    with make_client(db_url) as client:
        table_id, tokens = new_table(client, ["human"] * 4)
        first = state(client, table_id)
        to_move = first["view"]["to_move"]
        other = (to_move + 1) % 4
        before = {s: state(client, table_id, tok) for s, tok in tokens.items()}
        n_before = stored_actions(db_url, table_id)

        def unchanged() -> None:
            for s, tok in tokens.items():
                now = state(client, table_id, tok)
                assert now["seq"] == before[s]["seq"] and now["view"] == before[s]["view"]
            assert stored_actions(db_url, table_id) == n_before

        # Over HTTP: a token of no seat, a seat not to move, an illegal call, a malformed action.
        url = f"/api/tables/{table_id}/action"
        r = client.post(url, json={"token": "not-a-token", "action": {"call": "pass"}})
        assert r.status_code == 403 and r.json()["error"]["code"] == "bad_token"
        r = client.post(url, json={"token": tokens[other], "action": {"call": "pass"}})
        assert r.status_code == 409 and r.json()["error"]["code"] == "not_your_turn"
        assert r.json()["error"]["detail"] == {"seat": to_move}
        r = client.post(url, json={"token": tokens[to_move], "action": {"call": "kontra"}})
        err = r.json()["error"]
        assert r.status_code == 409 and err["code"] == "illegal" and err["rule"] == "R3.3", err
        assert err["detail"] == {"action": {"call": "kontra"}}  # the refused action, as the client sends it
        r = client.post(url, json={"token": tokens[to_move], "action": {"card": "JH"}})
        assert r.json()["error"]["code"] == "illegal" and "R3.1" in r.json()["error"]["message"]
        r = client.post(url, json={"token": tokens[to_move], "action": {"card": "ZZ"}})
        assert r.status_code == 400 and r.json()["error"]["code"] == "bad_message"
        r = client.post(url, content=b"{not json")
        assert r.status_code == 400 and r.json()["error"]["code"] == "bad_request"
        unchanged()

        # Over the websocket.
        with client.websocket_connect(f"/api/tables/{table_id}/ws?token={tokens[other]}") as ws:
            assert ws.receive_json()["type"] == "state"
            ws.send_json({"type": "action", "action": {"call": "pass"}})
            assert ws.receive_json()["code"] == "not_your_turn"
        with client.websocket_connect(f"/api/tables/{table_id}/ws?token={tokens[to_move]}") as ws:
            assert ws.receive_json()["type"] == "state"
            # a bad_message names the field and the reason in its detail, as over HTTP (docs/protocol.md),
            # for a client to say it in its own language
            pas = {"call": "pass"}
            cases: list[tuple[str, str, dict[str, Any] | None]] = [
                ("this is not json", "bad_json", None),
                (json.dumps([1, 2]), "bad_message", {"reason": "not_object"}),
                (json.dumps({"kind": "action"}), "bad_message", {"field": "type", "reason": "missing"}),
                (json.dumps({"type": 7}), "bad_message", {"field": "type", "reason": "type"}),
                (json.dumps({"type": "shout"}), "bad_message", {"field": "type", "reason": "invalid"}),
                (json.dumps({"type": "action"}), "bad_message", {"field": "action", "reason": "missing"}),
                (json.dumps({"type": "action", "action": {"card": "QQ"}}), "bad_message", {"field": "action", "reason": "invalid"}),
                (json.dumps({"type": "action", "action": pas, "extra": 1}), "bad_message", {"field": "extra", "reason": "unknown_field"}),
                (json.dumps({"type": "action", "action": pas, "x" * 500: 1}), "bad_message",
                 {"field": "x" * 40 + "...", "reason": "unknown_field"}),
                (json.dumps({"type": "action", "action": pas, "seq": "0"}), "bad_message", {"field": "seq", "reason": "type"}),
                (json.dumps({"type": "action", "action": pas, "seq": 99}), "stale", None),
                (json.dumps({"type": "action", "action": {"call": "rekontra"}}), "illegal", None),
                (json.dumps({"type": "action", "action": {"declare": ["7C", "8C", "9C"]}}), "illegal", None),
            ]
            for text, code, detail in cases:
                ws.send_text(text)
                reply = ws.receive_json()
                assert reply["type"] == "error" and reply["code"] == code, (text, reply)
                assert reply["message"]
                if detail is not None:
                    assert reply["detail"] == detail, (text, reply)
            ws.send_bytes(b"\x00\x01")
            assert ws.receive_json()["code"] == "bad_json"
            ws.send_json({"type": "ping"})
            assert ws.receive_json() == {"type": "pong"}
        with client.websocket_connect(f"/api/tables/{table_id}/ws") as spec:
            assert spec.receive_json()["type"] == "state"
            spec.send_json({"type": "action", "action": {"call": "pass"}})
            assert spec.receive_json()["code"] == "spectator"
        with client.websocket_connect(f"/api/tables/{table_id}/ws?token=forged") as ws:
            assert ws.receive_json()["code"] == "bad_token"
        with client.websocket_connect("/api/tables/nosuchtable/ws") as ws:
            assert ws.receive_json()["code"] == "no_table"
        unchanged()

        # And a legal action is accepted and stored.
        legal = before[to_move]["view"]["legal"][0]
        r = client.post(url, json={"token": tokens[to_move], "action": legal, "seq": first["seq"]})
        assert r.status_code == 200 and r.json()["seq"] == first["seq"] + 1
        assert stored_actions(db_url, table_id) == n_before + 1


def test_action_before_start_and_after_end_refused(db_url: str) -> None:
    with make_client(db_url) as client:
        r = client.post("/api/tables", json={"seats": ["human", "human", "bot", "bot"], "seat": 0, "name": "Ayşe"})
        body = r.json()
        table_id, token = body["table"]["id"], body["token"]
        assert body["seat"] == 0 and body["table"]["status"] == "waiting"
        r = client.post(f"/api/tables/{table_id}/action", json={"token": token, "action": {"call": "pass"}})
        assert r.json()["error"]["code"] == "not_started"
        assert client.get(f"/api/tables/{table_id}/record").json()["error"]["code"] == "in_progress"
        assert client.get(f"/api/tables/{table_id}/replay").status_code == 409


# -- seats, lobby, pages ------------------------------------------------------------------------


def test_lobby_join_leave_and_seat_errors(db_url: str) -> None:
    with make_client(db_url) as client:
        r = client.post("/api/tables", json={"seats": ["human", "bot:random", "human", "bot:random"], "target": 41})
        table = r.json()["table"]
        tid = table["id"]
        assert [s["taken"] for s in table["seats"]] == [False, True, False, True]
        assert tid in [t["id"] for t in client.get("/api/tables").json()["tables"]]
        a = client.post(f"/api/tables/{tid}/join", json={"name": "Ayşe"}).json()
        assert a["seat"] == 0 and a["table"]["status"] == "waiting"
        err = client.post(f"/api/tables/{tid}/join", json={"seat": 0}).json()["error"]
        assert err["code"] == "seat_taken"
        assert client.post(f"/api/tables/{tid}/join", json={"seat": 1}).json()["error"]["code"] == "not_human_seat"
        assert client.post(f"/api/tables/{tid}/join", json={"seat": 7}).status_code == 400
        b = client.post(f"/api/tables/{tid}/join", json={"name": "Mehmet"}).json()
        assert b["seat"] == 2 and b["table"]["status"] == "playing"
        assert client.post(f"/api/tables/{tid}/join", json={}).json()["error"]["code"] == "table_full"
        assert tid not in [t["id"] for t in client.get("/api/tables").json()["tables"]]
        # Mehmet leaves: his seat is free again and a bot plays it; his token is dead.
        r = client.post(f"/api/tables/{tid}/leave", json={"token": b["token"]})
        seat2 = r.json()["table"]["seats"][2]
        assert seat2["taken"] is False and seat2["bot_playing"] is True
        assert client.get(f"/api/tables/{tid}/state", params={"token": b["token"]}).status_code == 403
        assert client.post(f"/api/tables/{tid}/leave", json={"token": b["token"]}).status_code == 403
        assert tid in [t["id"] for t in client.get("/api/tables").json()["tables"]]
        assert tid in [t["id"] for t in client.get("/api/tables", params={"all": 1}).json()["tables"]]
        # Ayşe leaves while connected: her socket is told and closed.
        with client.websocket_connect(f"/api/tables/{tid}/ws?token={a['token']}") as ws:
            assert ws.receive_json()["type"] == "state"
            client.post(f"/api/tables/{tid}/leave", json={"token": a["token"]})
            m = ws.receive_json()
            while m["type"] == "state":
                m = ws.receive_json()
            assert m["code"] == "bad_token"
            with pytest.raises(WebSocketDisconnect) as closed:
                while True:
                    ws.receive_json()
            assert closed.value.code == 4001
        assert client.get("/api/tables/nope").json()["error"]["code"] == "no_table"


@pytest.mark.parametrize("body,word", [
    ({"target": 0}, "target"), ({"target": "151"}, "target"), ({"seats": ["human"]}, "seats"),
    ({"seats": ["human", "bot:nobody", "bot", "bot"]}, "bot:nobody"), ({"substitute": "human"}, "substitute"),
    ({"turn_timer": -1}, "turn_timer"), ({"colour": "red"}, "colour"), ({"seat": 1}, "seat 1"),
    ({"names": ["a", "b"]}, "names"), ({"seat": 0, "name": "a\u0000you"}, "name"),
])
def test_create_table_bad_input_named(db_url: str, body: dict[str, Any], word: str) -> None:
    with make_client(db_url) as client:
        r = client.post("/api/tables", json=body)
        assert r.status_code == 400 and r.json()["error"]["code"] == "bad_request"
        assert word in r.json()["error"]["message"]
        assert client.get("/api/tables", params={"all": 1}).json()["tables"] == []


def test_pages_static_files_and_i18n(tmp_path: Path) -> None:
    static = tmp_path / "static"
    with make_client(tmp_path, static_dir=static) as client:  # no UI built yet
        for path in ("/", "/t/abc", "/replay/abc"):
            r = client.get(path)
            assert r.status_code == 200 and "not built" in r.text
        assert client.get("/static/app.js").status_code == 404
    static.mkdir()
    (static / "index.html").write_text("<!doctype html><title>belot ui</title>")
    (static / "app.js").write_text("console.log('hi')")
    with make_client(tmp_path, static_dir=static) as client:
        for path in ("/", "/t/abc", "/replay/abc"):
            assert "belot ui" in client.get(path).text
        assert client.get("/static/app.js").text == "console.log('hi')"
        # any other page: the page (which says "no such page" in the reader's language) with a 404,
        # not the framework's English JSON; the API and static files keep their own 404s
        for path in ("/zzz", "/t/", "/replay", "/a/b/c"):
            r = client.get(path)
            assert r.status_code == 404 and "belot ui" in r.text and r.headers["content-type"].startswith("text/html")
        assert client.get("/api").json()["error"]["code"] == "no_route"
        assert client.get("/static/nope.js").status_code == 404 and "belot ui" not in client.get("/static/nope.js").text
        for lang in ("en", "tr", "bg"):
            cat = client.get(f"/api/i18n/{lang}").json()
            assert cat["call.pass"]
        assert client.get("/api/i18n/xx").status_code == 404
        bots = client.get("/api/bots").json()
        assert "bot:random" in bots["bots"] and bots["default"] in bots["bots"]


# -- away players, timers, restore --------------------------------------------------------------


def wait_for(client: TestClient, table_id: str, pred: Any, timeout: float = 10.0) -> dict[str, Any]:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        m = state(client, table_id)
        if pred(m):
            return m
        time.sleep(0.02)
    raise AssertionError(f"timed out; last state {m['table']}")


def test_player_away_longer_than_grace_is_replaced_by_a_bot_until_back(db_url: str) -> None:
    with make_client(db_url, grace=0.3) as client:
        table_id, tokens = new_table(client, ["human", "bot:random", "bot:random", "bot:random"], target=1000)
        with client.websocket_connect(f"/api/tables/{table_id}/ws") as spec:
            with client.websocket_connect(f"/api/tables/{table_id}/ws?token={tokens[0]}") as ws:
                m = ws.receive_json()
                assert m["table"]["seats"][0]["connected"] and not m["table"]["seats"][0]["bot_playing"]
                while m["view"]["to_move"] != 0:
                    m = ws.receive_json()
            t0 = time.monotonic()
            # Gone: the seat waits through the grace period, then the substitute plays seat 0.
            m = spec.receive_json()
            while not (m["last_action"] and m["last_action"]["seat"] == 0):
                m = spec.receive_json()
            assert time.monotonic() - t0 >= 0.25
            assert m["last_action"]["bot"] is True and m["table"]["seats"][0]["bot_playing"]
            with client.websocket_connect(f"/api/tables/{table_id}/ws?token={tokens[0]}") as ws:
                back = ws.receive_json()
                assert not back["table"]["seats"][0]["bot_playing"]
                # Back at the seat: the table now waits for the human on seat 0's turn.
                while back["view"]["to_move"] != 0:
                    back = ws.receive_json()
                time.sleep(0.3)
                assert state(client, table_id)["seq"] == back["seq"]


def test_turn_timer_lets_the_substitute_play_one_action(db_url: str) -> None:
    with make_client(db_url, grace=60) as client:
        table_id, tokens = new_table(client, ["human"] + ["bot:random"] * 3, turn_timer=1)
        with client.websocket_connect(f"/api/tables/{table_id}/ws?token={tokens[0]}") as ws:
            m = ws.receive_json()
            while m["view"]["to_move"] != 0:
                m = ws.receive_json()
            assert 0 < m["deadline"] <= 1
            seq = m["seq"]
            time.sleep(0.5)
            # Another connection of the seat (a second tab, a reconnect) does not restart the timer.
            with client.websocket_connect(f"/api/tables/{table_id}/ws?token={tokens[0]}") as tab:
                again = tab.receive_json()
                assert again["seq"] == seq and again["deadline"] <= 0.6
            while m["seq"] == seq:
                m = ws.receive_json()
            assert m["last_action"]["seat"] == 0 and m["last_action"]["bot"] is True
            assert not m["table"]["seats"][0]["bot_playing"]  # still the human's seat


def test_unfinished_tables_restore_on_start_with_their_tokens(db_url: str) -> None:
    with make_client(db_url) as client:
        table_id, tokens = new_table(client, ["human"] * 4, target=1000)  # no early end (R12)
        rng = random.Random(5)
        for _ in range(15):
            m = state(client, table_id)
            s = m["view"]["to_move"]
            legal = state(client, table_id, tokens[s])["view"]["legal"]
            client.post(f"/api/tables/{table_id}/action", json={"token": tokens[s], "action": rng.choice(legal)})
        before = {s: state(client, table_id, t) for s, t in tokens.items()}
    with make_client(db_url) as client:
        for s, t in tokens.items():
            after = state(client, table_id, t)
            assert after["seq"] == before[s]["seq"] == 15
            assert after["view"] == before[s]["view"] and after["last_action"] == before[s]["last_action"]
        assert not cards_in(state(client, table_id)["view"]["hand"])
        # Play on into deals the restored table shuffles itself...
        while state(client, table_id)["view"]["deal_index"] < 2:
            m = state(client, table_id)
            s = m["view"]["to_move"]
            legal = state(client, table_id, tokens[s])["view"]["legal"]
            client.post(f"/api/tables/{table_id}/action", json={"token": tokens[s], "action": rng.choice(legal)})
        before = {s: state(client, table_id, t) for s, t in tokens.items()}
    # ...which a second restore (dealing the stored hands, replaying the stored moves) agrees with.
    with make_client(db_url) as client:
        for s, t in tokens.items():
            assert state(client, table_id, t)["view"] == before[s]["view"]


def test_encoded_broadcast_equals_the_state_of_each_seat(db_url: str) -> None:
    """The websocket text (encoded once, each seat's own fields spliced in) is `state` exactly."""
    with make_client(db_url) as client:
        table_id, tokens = new_table(client, ["human"] * 4, target=31)
        table = client.app.state.lobby.tables[table_id]  # type: ignore[attr-defined]
        rng = random.Random(3)
        while table.match.winner is None:
            for seat in (0, 1, 2, 3, None):
                assert json.loads(table.encode_state(seat)) == table.state(seat)
            s = table.match.current_player
            legal = state(client, table_id, tokens[s])["view"]["legal"]
            client.post(f"/api/tables/{table_id}/action", json={"token": tokens[s], "action": rng.choice(legal)})


def test_action_not_stored_is_not_played(db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Nothing is broadcast or changed unless the database took the action first."""
    from sqlalchemy.exc import OperationalError

    with make_client(db_url) as client:
        table_id, tokens = new_table(client, ["human"] * 4)
        storage = client.app.state.lobby.storage  # type: ignore[attr-defined]

        def fail(*_args: Any, **_kwargs: Any) -> None:
            raise OperationalError("INSERT", {}, Exception("disk I/O error"))

        before = state(client, table_id)
        s = before["view"]["to_move"]
        legal = state(client, table_id, tokens[s])["view"]["legal"]
        monkeypatch.setattr(storage, "append_action", fail)
        r = client.post(f"/api/tables/{table_id}/action", json={"token": tokens[s], "action": legal[0]})
        assert r.status_code == 503 and r.json()["error"]["code"] == "storage_error"
        after = state(client, table_id)
        assert after["seq"] == before["seq"] and after["view"] == before["view"]


def test_a_database_failure_on_any_route_is_a_storage_error(db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Only an action said so: a database that failed on taking a seat, creating a table or reading
    one answered a bare 500 "Internal Server Error", which names nothing."""
    from sqlalchemy.exc import OperationalError

    with make_client(db_url) as client:
        table_id = client.post("/api/tables", json={"seats": ["human", "human", "bot", "bot"]}).json()["table"]["id"]
        storage = client.app.state.lobby.storage  # type: ignore[attr-defined]

        def fail(*_args: Any, **_kwargs: Any) -> None:
            raise OperationalError("SELECT", {}, Exception("the database is away"))

        for name in ("set_seat", "create_table", "load"):
            monkeypatch.setattr(storage, name, fail)
        for method, path, body in [("POST", f"/api/tables/{table_id}/join", {"seat": 0}),
                                   ("POST", "/api/tables", {}), ("GET", "/api/tables/0123456789", None)]:
            r = client.request(method, path, json=body)
            assert r.status_code == 503 and r.json()["error"]["code"] == "storage_error", (path, r.text)
            assert "database" in r.json()["error"]["message"]
        monkeypatch.undo()
        assert client.get(f"/api/tables/{table_id}").json()["table"]["seats"][0]["taken"] is False


def test_a_bot_action_not_stored_is_tried_again(db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A bot's action the database could not store was given up (and logged as an illegal one):
    the table then waited for ever with the bot to move, the database back or not."""
    from sqlalchemy.exc import OperationalError

    from belot.server import turns

    monkeypatch.setattr(turns, "STORAGE_RETRY", 0.05, raising=False)
    with make_client(db_url, bot_delay=0.3) as client:
        r = client.post("/api/tables", json={"seats": ["human", "bot:random", "bot:random", "bot:random"], "seat": 0})
        table_id, token = r.json()["table"]["id"], r.json()["token"]
        storage = client.app.state.lobby.storage  # type: ignore[attr-defined]
        store, failures = storage.append_action, [3]

        def flaky(*args: Any, **kwargs: Any) -> Any:
            if failures[0]:
                failures[0] -= 1
                raise OperationalError("INSERT", {}, Exception("database is locked"))
            return store(*args, **kwargs)

        with client.websocket_connect(f"/api/tables/{table_id}/ws?token={token}") as ws:
            first = ws.receive_json()
            if first["view"]["to_move"] == 0:  # the person's turn: a bot's comes after it
                r = client.post(f"/api/tables/{table_id}/action", json={"token": token, "action": first["view"]["legal"][0]})
                assert r.status_code == 200, r.text
            monkeypatch.setattr(storage, "append_action", flaky)  # the bots' next actions fail to be stored
            deadline = time.monotonic() + 10
            while failures[0] != 0 or state(client, table_id)["view"]["to_move"] != 0:
                assert time.monotonic() < deadline, (failures, state(client, table_id)["seq"])
                time.sleep(0.05)
        assert failures == [0]


def test_a_deal_result_carries_its_rounding_step() -> None:
    """The view's deal result shows the R10 step the score came from (`scoring.rounding_step`):
    made and hanging deals round each team on its own, inside and doubled ones are whole."""
    from belot.bots import make_bot
    from belot.game import Deal, deal_hands
    from belot.scoring import HANGING, INSIDE, MADE

    rng = random.Random(4)
    seen = set()
    for _ in range(200):
        dealer = rng.randrange(4)
        d = Deal(dealer, deal_hands(rng, dealer))
        bots = [make_bot("heuristic", rng.randrange(1 << 30)) for _ in range(4)]
        while not d.is_over:
            d.apply(bots[d.to_move].act(d.view(d.to_move)))
        r = d.result
        assert r is not None
        step = rounding_to_json(r)
        if r.contract < 0:
            assert step is None
            continue
        assert step is not None
        team = r.declarer & 1
        if r.multiplier > 1:
            assert step == {"whole": (sum(r.totals) + 5) // 10}
            assert max(r.points) in (0, step["whole"] * r.multiplier)
        elif r.outcome == INSIDE:
            assert step == {"whole": (sum(r.totals) + 5) // 10} and r.points[1 - team] == step["whole"]
        else:
            assert r.outcome in (MADE, HANGING)
            assert r.points[1 - team] == step["teams"][1 - team]  # the defenders' points are theirs, rounded
            if r.outcome == MADE:
                assert r.points[team] == step["teams"][team]
        seen.add((r.outcome, r.multiplier > 1))
    assert {(MADE, False), (INSIDE, False)} <= seen


@pytest.mark.parametrize("path,body,code,word,detail", [
    ("join", {"seat": 1, "colour": "red"}, "bad_request", "colour", {"field": "colour", "reason": "unknown_field"}),
    ("join", {"seat": "1"}, "bad_request", "seat", {"field": "seat", "reason": "type"}),
    ("join", {"seat": 9}, "bad_request", "seat", {"field": "seat", "reason": "range", "max": 3}),
    ("join", {"seat": True}, "bad_request", "seat", {"field": "seat", "reason": "type"}),
    ("join", {"name": ["x"]}, "bad_request", "name", {"field": "name", "reason": "type"}),
    ("join", [1, 2], "bad_request", "object", {"reason": "not_object"}),
    ("leave", {"token": 5}, "bad_request", "token", {"field": "token", "reason": "type"}),
    ("leave", {"token": "x", "extra": 1}, "bad_request", "extra", {"field": "extra", "reason": "unknown_field"}),
    ("action", {"token": "x"}, "bad_message", "action", {"field": "action", "reason": "missing"}),
    ("action", {"token": "x", "action": {"call": "pass"}, "seq": "0"}, "bad_message", "seq",
     {"field": "seq", "reason": "type"}),
    ("action", {"token": "x", "action": {"call": "pass"}, "when": 1}, "bad_message", "when",
     {"field": "when", "reason": "unknown_field"}),
    ("action", "pass", "bad_message", "object", {"reason": "not_object"}),
])
def test_request_bodies_are_checked_by_their_models_and_name_the_field(
    db_url: str, path: str, body: Any, code: str, word: str, detail: dict[str, Any]
) -> None:
    """Every body is validated (unknown fields refused) before it reaches the table: a 400, never a 500.
    The refusal's `detail` names the field and the reason as fields (docs/protocol.md)."""
    with make_client(db_url) as client:
        table_id, _ = new_table(client, ["human", "human", "bot", "bot"])
        r = client.post(f"/api/tables/{table_id}/{path}", json=body)
        assert r.status_code == 400, r.text
        err = r.json()["error"]
        assert err["code"] == code and word in err["message"], err
        assert err["detail"] == detail


def test_belote_with_the_ace_is_refused_over_the_websocket(db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """R7.7, the bug a hostile client found: a seat holding A, K and Q of trumps sends the ace with
    belote. The server answers `illegal` naming R7.7, and neither the state nor the database moves."""
    from belot.cards import CARD_NAMES, SUITS
    from belot.server import tables as server_tables
    from belot.server.gamelog import new_match

    def forehand_holds_aces_kq(seed: int) -> int | None:
        deal = new_match(151, seed).deals[0]
        hand = set(deal.dealt[deal.forehand])
        for suit in range(4):
            if {8 * suit + 7, 8 * suit + 6, 8 * suit + 5} <= hand:
                return suit
        return None

    seed = next(s for s in range(10_000) if forehand_holds_aces_kq(s) is not None)
    suit = forehand_holds_aces_kq(seed)
    assert suit is not None
    monkeypatch.setattr(server_tables.secrets, "randbits", lambda _bits: seed)
    with make_client(db_url) as client:
        table_id, tokens = new_table(client, ["human"] * 4)
        url = f"/api/tables/{table_id}/action"
        forehand = state(client, table_id)["view"]["to_move"]
        for k in range(4):  # the forehand bids the suit, the others pass
            s = (forehand + k) % 4
            call = {"call": SUITS[suit]} if k == 0 else {"call": "pass"}
            r = client.post(url, json={"token": tokens[s], "action": call})
            assert r.status_code == 200, r.text
        before = state(client, table_id, tokens[forehand])
        assert before["view"]["to_move"] == forehand
        ace = CARD_NAMES[8 * suit + 7]
        assert {"card": ace} in before["view"]["legal"] and {"card": ace, "belote": True} not in before["view"]["legal"]
        n_before = stored_actions(db_url, table_id)
        with client.websocket_connect(f"/api/tables/{table_id}/ws?token={tokens[forehand]}") as ws:
            assert ws.receive_json()["type"] == "state"
            ws.send_json({"type": "action", "action": {"card": ace, "belote": True}})
            reply = ws.receive_json()
        assert reply["type"] == "error" and reply["code"] == "illegal" and reply["rule"] == "R7.7", reply
        assert reply["detail"] == {"action": {"card": ace, "belote": True}}
        after = state(client, table_id, tokens[forehand])
        assert after["seq"] == before["seq"] and after["view"] == before["view"]
        assert stored_actions(db_url, table_id) == n_before
