"""Accounts (issue 21 B): registering, logging in, the session cookie, seats linked to accounts,
the rating update at the end of a match, the profile, the leaderboard, resume and rematch."""

from __future__ import annotations

import random
import sqlite3
import threading
import time
import warnings
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient
    from starlette.websockets import WebSocketDisconnect
from server_helpers import play_over_websockets

from belot.server import ratings
from belot.server.accounts import COOKIE, Accounts, LoginLimiter
from belot.server.app import create_app
from belot.server.errors import TableError
from belot.server.seats import Connection
from belot.server.storage import SCHEMA_VERSION, Storage, attempts_table, sessions_table

PASSWORD = "correct horse battery"


def make_client(tmp_path: Path, **kwargs: Any) -> TestClient:
    kwargs.setdefault("bot_delay", 0.0)
    return TestClient(create_app(f"sqlite:///{tmp_path / 'belot.sqlite3'}", **kwargs))


def register(client: TestClient, name: str, password: str = PASSWORD) -> Any:
    return client.post("/api/accounts", json={"name": name, "password": password})


def test_register_refuses_bad_names_short_passwords_and_duplicates(tmp_path: Path) -> None:
    with make_client(tmp_path) as client:
        for bad in ["", "   ", "a\u202eb", "\u200b", "x" * 33]:
            r = register(client, bad)
            assert r.status_code == 400, (bad, r.text)
            assert r.json()["error"]["code"] == "bad_request"
        r = register(client, "Ayşe", "short")
        assert r.status_code == 400 and r.json()["error"]["code"] == "bad_password"
        assert register(client, "Ayşe").status_code == 201
        for same in ["Ayşe", "AYŞE", "  ayşe "]:
            r = register(client, same)
            assert r.status_code == 409 and r.json()["error"]["code"] == "name_taken", same
        r = client.post("/api/accounts", json={"name": "x", "password": PASSWORD, "admin": True})
        assert r.status_code == 400  # extra fields refused


def test_an_accounts_name_with_an_invisible_variation_is_refused(tmp_path: Path) -> None:
    """A guest took the look of an account's name with a variation selector after a letter (U+FE0F,
    U+E0100: nothing shows there); it is refused, while an emoji's own selector ("❤️") stays, and so
    does a name stored with one: keys of accounts are as before."""
    with make_client(tmp_path) as client:
        register(client, "Ivan")
        assert register(client, "\u2764\ufe0f Elif").status_code == 201
        guest = TestClient(client.app)
        for look_alike in ["Ivan\ufe0f", "Iv\U000e0100an"]:
            r = guest.post("/api/tables", json={"seat": 0, "name": look_alike})
            assert r.status_code == 400 and r.json()["error"]["detail"]["reason"] == "character", r.text
            assert register(guest, look_alike).status_code == 400
        assert guest.post("/api/login", json={"name": "\u2764\ufe0f elif", "password": PASSWORD}).status_code == 200
        r = guest.post("/api/tables", json={"seat": 0})  # logged in: seated under the account's name
        assert r.status_code == 201 and r.json()["table"]["seats"][0]["name"] == "\u2764\ufe0f Elif"


def test_password_stored_as_argon2_hash_only(tmp_path: Path) -> None:
    with make_client(tmp_path) as client:
        r = register(client, "Mehmet")
        assert r.status_code == 201
        assert PASSWORD not in r.text and r.cookies.get(COOKIE) not in r.text
        token = client.cookies.get(COOKIE)
    db = sqlite3.connect(tmp_path / "belot.sqlite3")
    (hashed,) = db.execute("select password_hash from belot_accounts").fetchone()
    assert hashed.startswith("$argon2id$")
    dump = "\n".join(db.iterdump())
    assert PASSWORD not in dump and token not in dump
    db.close()


def test_cookie_flags_login_logout_and_me(tmp_path: Path) -> None:
    with make_client(tmp_path) as client:
        r = register(client, "Petar")
        cookie = r.headers["set-cookie"]
        assert f"{COOKIE}=" in cookie and "HttpOnly" in cookie and "SameSite=lax" in cookie and "Path=/" in cookie
        assert client.get("/api/me").json()["account"]["name"] == "Petar"
        assert client.post("/api/logout").json() == {"account": None}
        assert client.get("/api/me").json()["account"] is None
        r = client.post("/api/login", json={"name": "petar", "password": PASSWORD})
        assert r.status_code == 200 and r.json()["account"]["name"] == "Petar"
        assert "HttpOnly" in r.headers["set-cookie"]
        assert client.get("/api/me").json()["account"]["name"] == "Petar"


def test_login_wrong_password_401_then_rate_limited_429(tmp_path: Path) -> None:
    now = [0.0]
    limiter = LoginLimiter(tries=3, window=60, clock=lambda: now[0])
    with make_client(tmp_path, login_limiter=limiter) as client:
        register(client, "Elif")
        client.post("/api/logout")
        for _ in range(3):
            r = client.post("/api/login", json={"name": "Elif", "password": "wrong password"})
            assert r.status_code == 401 and r.json()["error"]["code"] == "bad_login"
        r = client.post("/api/login", json={"name": "Elif", "password": PASSWORD})  # even the right one
        assert r.status_code == 429 and r.json()["error"]["code"] == "too_many_logins"
        assert "try again in 61 seconds" in r.json()["error"]["message"]
        assert r.json()["error"]["detail"] == {"limit": 3, "retry_after": 61} and r.headers["retry-after"] == "61"
        r = client.post("/api/login", json={"name": "nobody", "password": PASSWORD})  # the same address
        assert r.status_code == 429
        now[0] = 61.0
        assert client.post("/api/login", json={"name": "Elif", "password": PASSWORD}).status_code == 200


def test_per_account_limit_across_addresses() -> None:
    limiter = LoginLimiter(tries=2, window=60, clock=lambda: 0.0)
    limiter.failed("1.1.1.1", "Elif")
    limiter.failed("2.2.2.2", "ELIF")
    with pytest.raises(Exception, match="too many failed logins"):
        limiter.check("3.3.3.3", "elif")
    limiter.check("3.3.3.3", "someone else")


def test_rating_update_known_numbers() -> None:
    """An account (25, 25/3) with a guest partner beats two heuristic bots: OpenSkill's
    Plackett-Luce update, computed by hand with the model's formulas (beta 25/6, kappa 1e-4)."""
    new = ratings.rate([("account", 25.0, 25 / 3), "bot:heuristic", "guest", "bot:heuristic"], winner=0)
    assert set(new) == {0}
    mu, sigma = new[0]
    assert mu == pytest.approx(27.6202, abs=1e-3)
    assert sigma == pytest.approx(7.9590, abs=1e-3)
    lost = ratings.rate([("account", 25.0, 25 / 3), "bot:heuristic", "guest", "bot:heuristic"], winner=1)
    assert lost[0][0] == pytest.approx(25 - (27.6202 - 25), abs=1e-3)


def test_bot_ratings_reproduce_the_tournaments() -> None:
    """The fixed bot ratings make the model predict the match win rates of docs/strength.md."""
    bots = ratings.bot_ratings()
    assert bots["bot:random"] < bots["bot:heuristic"] == 25 < bots["bot:pimc"] <= bots["bot:expert"]
    m = ratings.MODEL

    def p(a: str, b: str) -> float:
        ra, rb = m.rating(mu=bots[a], sigma=ratings.BOT_SIGMA), m.rating(mu=bots[b], sigma=ratings.BOT_SIGMA)
        return float(m.predict_win([[ra, ra], [rb, rb]])[0])

    assert p("bot:heuristic", "bot:random") == pytest.approx(378 / 380, abs=1e-6)
    assert p("bot:pimc", "bot:heuristic") == pytest.approx(283 / 360, abs=1e-6)
    assert p("bot:expert", "bot:pimc") == pytest.approx(ratings.EXPERT_OVER_PIMC, abs=1e-6)


def test_account_seat_match_history_rating_and_leaderboard(tmp_path: Path) -> None:
    with make_client(tmp_path) as client:
        register(client, "Ivan")
        r = client.post("/api/tables", json={"seats": ["human", "bot:random", "bot:random", "bot:random"],
                                             "seat": 0, "name": "someone else", "target": 10})
        assert r.status_code == 201, r.text
        table_id, token = r.json()["table"]["id"], r.json()["token"]
        assert r.json()["table"]["seats"][0]["name"] == "Ivan"  # the account's name, not the typed one
        me = client.get("/api/me").json()
        assert [t["table"]["id"] for t in me["tables"]] == [table_id]
        play_over_websockets(client, table_id, {0: token}, random.Random(3))
        prof = client.get("/api/users/ivan").json()
        assert prof["account"]["games"] == 1
        (game,) = prof["games"]
        assert game["table"] == table_id and game["links"]["replay"] == f"/replay/{table_id}"
        assert game["opponents"] == ["bot:random", "bot:random"] and game["partner"] == "bot:random"
        assert game["rating_before"]["mu"] == 25.0 and game["rating_after"]["mu"] != 25.0
        assert (game["rating_after"]["mu"] > 25) == game["won"]
        board = client.get("/api/leaderboard").json()
        assert [p["name"] for p in board["players"]] == ["Ivan"]
        assert {b["bot"] for b in board["bots"]} >= {"bot:random", "bot:heuristic"}
        assert client.get("/api/me").json()["tables"] == []
        assert client.get("/api/users/nobody").status_code == 404
        assert client.get("/api/users/%E2%80%AE").status_code == 404


def test_guest_cannot_take_an_account_name(tmp_path: Path) -> None:
    with make_client(tmp_path) as client:
        register(client, "Ivan")
        client.post("/api/logout")
        r = client.post("/api/tables", json={"seats": ["human", "bot:random", "bot:random", "bot:random"],
                                             "seat": 0, "name": "IVAN"})
        assert r.status_code == 409 and r.json()["error"]["code"] == "name_registered"
        r = client.post("/api/tables", json={"seats": ["human", "bot:random", "bot:random", "bot:random"],
                                             "seat": 0, "name": "guest"})
        assert r.status_code == 201


def test_a_new_tables_seat_names_cannot_be_an_accounts_either(tmp_path: Path) -> None:
    """``names`` gives a guest who takes a seat the name it sets: "Ivan" there let anyone play as
    the account Ivan, in the lobby, the table and the record, past the check of ``name``."""
    with make_client(tmp_path) as client:
        register(client, "Ivan")
        client.post("/api/logout")
        before = client.get("/api/tables?all=1").json()["tables"]
        for body in ({"seat": 0, "names": ["ivan", None, None, None]},
                     {"seats": ["human", "human", "bot", "bot"], "names": [None, "IVAN", None, None]}):
            r = client.post("/api/tables", json=body)
            assert r.status_code == 409 and r.json()["error"]["code"] == "name_registered", r.text
            assert "names[" in r.json()["error"]["message"]
        assert client.get("/api/tables?all=1").json()["tables"] == before  # nothing created
        register(client, "Elif")  # logged in: a name at the creator's own seat is the account's anyway
        r = client.post("/api/tables", json={"seat": 0, "names": ["Ivan", None, None, None]})
        assert r.status_code == 201 and r.json()["table"]["seats"][0]["name"] == "Elif", r.text
        r = client.post("/api/tables", json={"seats": ["human", "human", "bot", "bot"], "seat": 0,
                                             "names": [None, "Ivan", None, None]})
        assert r.status_code == 409 and r.json()["error"]["code"] == "name_registered", r.text


def test_resume_from_another_browser(tmp_path: Path) -> None:
    with make_client(tmp_path) as client:
        register(client, "Ivan")
        r = client.post("/api/tables", json={"seats": ["human", "human", "bot:random", "bot:random"], "seat": 0})
        table_id, old = r.json()["table"]["id"], r.json()["token"]
        other = TestClient(client.app)
        assert other.post(f"/api/tables/{table_id}/resume").status_code == 401
        other.post("/api/login", json={"name": "Ivan", "password": PASSWORD})
        r = other.post(f"/api/tables/{table_id}/resume")
        assert r.status_code == 200 and r.json()["seat"] == 0
        new = r.json()["token"]
        assert other.get(f"/api/tables/{table_id}/state", params={"token": new}).json()["you"]["seat"] == 0
        assert client.get(f"/api/tables/{table_id}/state", params={"token": old}).status_code == 403


def test_resume_closes_the_old_tokens_socket(tmp_path: Path) -> None:
    """A socket opened with the old token kept the seat after a resume: it got the hand and its
    actions were played.  Now it is told and closed, and what it sends before the close is refused."""
    with make_client(tmp_path) as client:
        register(client, "Ivan")
        r = client.post("/api/tables", json={"seats": ["human", "human", "bot:random", "bot:random"], "seat": 0})
        table_id, old = r.json()["table"]["id"], r.json()["token"]
        with client.websocket_connect(f"/api/tables/{table_id}/ws?token={old}") as ws:
            assert ws.receive_json()["you"]["seat"] == 0
            other = TestClient(client.app)
            other.post("/api/login", json={"name": "Ivan", "password": PASSWORD})
            assert other.post(f"/api/tables/{table_id}/resume").status_code == 200
            ws.send_json({"type": "ping"})  # answered "pong" while the old token still played the seat
            while (m := ws.receive_json())["type"] == "state":
                pass
            assert m["code"] == "bad_token" and "new token" in m["message"]
            with pytest.raises(WebSocketDisconnect):
                ws.receive_json()
        table = client.app.state.lobby.get(table_id)
        assert not table.seats[0].connections
        stale = Connection(0)  # one whose message came in before its close went out: no longer the seat's
        reply = table.handle_text(stale, '{"type": "sync"}')
        assert reply is not None and reply["code"] == "bad_token"
        assert stale.queue.get_nowait() is None  # closed, and no state (with the hand) was queued


def test_a_finished_match_keeps_its_players(tmp_path: Path) -> None:
    """Leaving a finished table rewrote its record's players ("Ayşe" became "seat 0") and dropped the
    seat's account link; now it is refused."""
    with make_client(tmp_path) as client:
        register(client, "Ayşe")
        r = client.post("/api/tables", json={"seats": ["human", "bot:random", "bot:random", "bot:random"], "target": 10,
                                             "seat": 0})
        table_id, t0 = r.json()["table"]["id"], r.json()["token"]
        play_over_websockets(client, table_id, {0: t0}, random.Random(3))
        before = client.get(f"/api/tables/{table_id}/record").json()
        r = client.post(f"/api/tables/{table_id}/leave", json={"token": t0})
        assert r.status_code == 409 and r.json()["error"]["code"] == "match_over"
        assert client.get(f"/api/tables/{table_id}/record").json() == before
        assert before["players"][0] == "Ayşe"
        assert client.get(f"/api/tables/{table_id}").json()["table"]["seats"][0]["name"] == "Ayşe"


def test_rematch_same_four_seats(tmp_path: Path) -> None:
    with make_client(tmp_path) as client:
        r = client.post("/api/tables", json={"seats": ["human", "bot:random", "human", "bot:random"], "target": 10,
                                             "seat": 0, "name": "A", "options": ["OPT-SURCONTRA", "OPT-NONZERO"]})
        table_id, t0 = r.json()["table"]["id"], r.json()["token"]
        t2 = client.post(f"/api/tables/{table_id}/join", json={"seat": 2, "name": "B"}).json()["token"]
        assert client.post(f"/api/tables/{table_id}/rematch", json={"token": t0}).status_code == 409
        play_over_websockets(client, table_id, {0: t0, 2: t2}, random.Random(5))
        assert client.post(f"/api/tables/{table_id}/rematch", json={"token": "nope"}).status_code == 403
        a = client.post(f"/api/tables/{table_id}/rematch", json={"token": t0}).json()
        b = client.post(f"/api/tables/{table_id}/rematch", json={"token": t2}).json()
        assert a["table"]["id"] == b["table"]["id"] != table_id
        again = client.post(f"/api/tables/{table_id}/rematch", json={"token": t0})  # Back, then Rematch again
        assert again.status_code == 409 and again.json()["error"]["code"] == "rematch_taken"
        assert again.json()["error"]["detail"] == {"seat": 0, "table": a["table"]["id"]}
        assert (a["seat"], b["seat"]) == (0, 2)
        assert b["table"]["status"] == "playing" and b["table"]["target"] == 10
        assert b["table"]["options"] == ["OPT-SURCONTRA", "OPT-NONZERO"]  # the house rules came along
        assert [s["name"] for s in b["table"]["seats"]][::2] == ["A", "B"]


def test_a_schema_4_database_gains_the_account_tables(tmp_path: Path) -> None:
    """Migration 4 -> 5 adds the account tables and keeps the tables already stored."""
    with make_client(tmp_path) as client:
        table_id = client.post("/api/tables", json={}).json()["table"]["id"]
    db = tmp_path / "belot.sqlite3"
    with sqlite3.connect(db) as c:
        for name in ("belot_rematches", "belot_account_games", "belot_seat_accounts", "belot_sessions",
                     "belot_accounts"):
            c.execute(f"DROP TABLE {name}")
        c.execute("UPDATE belot_meta SET value = '4' WHERE key = 'schema_version'")
    with make_client(tmp_path) as client:
        assert client.get(f"/api/tables/{table_id}").status_code == 200
        assert register(client, "Ivan").status_code == 201
    with sqlite3.connect(db) as c:
        assert c.execute("SELECT value FROM belot_meta WHERE key = 'schema_version'").fetchone()[0] == str(SCHEMA_VERSION)


def test_registrations_per_address_are_limited(tmp_path: Path) -> None:
    with make_client(tmp_path) as client:
        client.app.state.accounts.signups.tries = 2
        assert register(client, "one").status_code == 201
        assert register(client, "two", "short").status_code == 400  # a refused one counts too
        r = register(client, "three")
        assert r.status_code == 429 and r.json()["error"]["code"] == "too_many_accounts"


def test_a_schema_5_database_gains_the_attempts_and_reservations(tmp_path: Path) -> None:
    """Migration 5 -> 6 adds belot_attempts and belot_reservations and keeps what is stored."""
    with make_client(tmp_path) as client:
        register(client, "Ivan")
    db = tmp_path / "belot.sqlite3"
    with sqlite3.connect(db) as c:
        for name in ("belot_attempts", "belot_reservations"):
            c.execute(f"DROP TABLE {name}")
        c.execute("UPDATE belot_meta SET value = '5' WHERE key = 'schema_version'")
    with make_client(tmp_path) as client:
        assert client.post("/api/login", json={"name": "Ivan", "password": "wrong password"}).status_code == 401
        assert client.post("/api/login", json={"name": "Ivan", "password": PASSWORD}).status_code == 200
    with sqlite3.connect(db) as c:
        assert c.execute("SELECT value FROM belot_meta WHERE key = 'schema_version'").fetchone()[0] == str(SCHEMA_VERSION)
        assert c.execute("SELECT count(*) FROM belot_attempts").fetchone()[0] == 2  # the failure, by address and name


def two_accounts(db_url: str, now: list[float], tries: int) -> tuple[Accounts, Accounts]:
    """Two workers' accounts on one database (each its own process's objects, as with --worker)."""
    return tuple(Accounts(Storage(db_url), LoginLimiter(tries=tries, window=60, clock=lambda: now[0]),  # type: ignore[return-value]
                          signups_per_hour=tries) for _ in range(2))


def test_login_limit_is_shared_by_every_worker_on_the_database(db_url: str) -> None:
    """Failures at one worker count at the others: N workers do not allow N times the guesses,
    neither per address nor per name; old failures leave the table with the window."""
    now = [1000.0]
    a, b = two_accounts(db_url, now, tries=3)
    try:
        a.register("Elif", PASSWORD)
        for accounts in (a, b, a):
            with pytest.raises(TableError) as e:
                accounts.login("Elif", "wrong password", "1.1.1.1")
            assert e.value.code == "bad_login"
        for accounts, address, name in ((b, "1.1.1.1", "nobody"), (a, "2.2.2.2", "ELIF"), (b, "3.3.3.3", "elif")):
            with pytest.raises(TableError) as e:
                accounts.login(name, PASSWORD, address)
            assert (e.value.code, e.value.status) == ("too_many_logins", 429)
            assert "try again in 61 seconds" in e.value.message
        now[0] += 61
        assert b.login("Elif", PASSWORD, "1.1.1.1").name == "Elif"  # a success leaves nothing counted
        with pytest.raises(TableError):
            a.login("Elif", "wrong password", "4.4.4.4")
        with a.engine.connect() as c:  # the three old failures (address and name rows) are gone
            assert c.execute(sa.select(sa.func.count()).select_from(attempts_table)).scalar() == 2
    finally:
        a.storage.close()
        b.storage.close()


def test_registration_limit_is_shared_by_every_worker_on_the_database(db_url: str) -> None:
    now = [1000.0]
    a, b = two_accounts(db_url, now, tries=2)
    try:
        a.check_signup("1.1.1.1")
        b.check_signup("1.1.1.1")
        for accounts in (a, b):
            with pytest.raises(TableError) as e:
                accounts.check_signup("1.1.1.1")
            assert (e.value.code, e.value.status) == ("too_many_accounts", 429)
        b.check_signup("2.2.2.2")
        now[0] += 3601
        a.check_signup("1.1.1.1")
    finally:
        a.storage.close()
        b.storage.close()


def test_expired_sessions_are_deleted(tmp_path: Path) -> None:
    """At start and when sessions are made (at most hourly) the expired sessions leave the table;
    live ones stay."""
    with make_client(tmp_path) as client:
        register(client, "Ivan")
        accounts = client.app.state.accounts
        with accounts.engine.begin() as c:
            c.execute(sa.insert(sessions_table).values(token_hash="old", account_id=1, created=0.0, expires=1.0))
        accounts._next_purge = 0.0  # an hour has passed since the last purge
        client.post("/api/login", json={"name": "Ivan", "password": PASSWORD})
        with accounts.engine.connect() as c:
            hashes = {r.token_hash for r in c.execute(sa.select(sessions_table))}
        assert "old" not in hashes and len(hashes) == 2  # the registration's session and the login's
        with accounts.engine.begin() as c:
            c.execute(sa.insert(sessions_table).values(token_hash="old", account_id=1, created=0.0, expires=1.0))
        cookie = client.cookies.get(COOKIE)
    with make_client(tmp_path) as client:  # a restart
        client.cookies.set(COOKIE, cookie)
        assert client.get("/api/me").json()["account"]["name"] == "Ivan"  # the cookie's session lives on
        with client.app.state.accounts.engine.connect() as c:
            assert c.execute(sa.select(sessions_table).where(sessions_table.c.token_hash == "old")).first() is None


def test_rematch_keeps_the_seats_for_their_players_until_the_hold_lapses(tmp_path: Path) -> None:
    """The first to ask creates the rematch; the other seats the finished match's people held are kept
    for them: a stranger is refused (and the lobby does not list the table), their player gets the
    seat (by the old token, or logged in by the account), and after the hold anyone may take it."""
    with make_client(tmp_path, rematch_hold=120.0) as client:
        other = TestClient(client.app)  # B's browser, logged in
        register(other, "Bora")
        r = client.post("/api/tables", json={"seats": ["human", "human", "human", "bot:random"], "target": 10,
                                             "seat": 0, "name": "A"})
        table_id, t0 = r.json()["table"]["id"], r.json()["token"]
        t1 = other.post(f"/api/tables/{table_id}/join", json={"seat": 1}).json()["token"]
        t2 = client.post(f"/api/tables/{table_id}/join", json={"seat": 2, "name": "C"}).json()["token"]
        play_over_websockets(client, table_id, {0: t0, 1: t1, 2: t2}, random.Random(7))
        lobby = client.app.state.lobby
        now = [time.time()]
        lobby.clock = lambda: now[0]
        a = client.post(f"/api/tables/{table_id}/rematch", json={"token": t0}).json()
        new_id = a["table"]["id"]
        assert a["seat"] == 0 and [s["reserved"] for s in a["table"]["seats"]] == [False, True, True, False]
        assert new_id not in [t["id"] for t in client.get("/api/tables").json()["tables"]]
        lobby.tables.pop(new_id)  # read back from the database, as another worker would
        stranger = TestClient(client.app)
        for body in ({"seat": 1, "name": "X"}, {"seat": 2}, {}):
            r = stranger.post(f"/api/tables/{new_id}/join", json=body)
            assert r.status_code == 409 and r.json()["error"]["code"] == "seat_reserved", r.text
            assert "kept for its player of the last match" in r.json()["error"]["message"]
            assert "for 120 more seconds" in r.json()["error"]["message"]
            # The wait as a field (and the HTTP header), for a page to say in its own language.
            assert r.json()["error"]["detail"] == {"seat": body.get("seat"), "retry_after": 120}
            assert r.headers["retry-after"] == "120"
        b = other.post(f"/api/tables/{table_id}/rematch").json()  # no token: the account's seat
        assert (b["table"]["id"], b["seat"]) == (new_id, 1) and b["table"]["seats"][1]["name"] == "Bora"
        assert not b["table"]["seats"][1]["reserved"]
        now[0] += 121  # C did not come back in time: the seat is open to anyone
        assert new_id in [t["id"] for t in client.get("/api/tables").json()["tables"]]
        r = stranger.post(f"/api/tables/{new_id}/join", json={"name": "X"})
        assert r.status_code == 200 and r.json()["seat"] == 2 and r.json()["table"]["status"] == "playing"
        r = client.post(f"/api/tables/{table_id}/rematch", json={"token": t2})
        assert r.status_code == 409 and r.json()["error"]["code"] == "rematch_taken"
        assert r.json()["error"]["detail"] == {"seat": 2, "table": new_id}


def test_look_alike_names_registered_at_the_same_moment_make_one_account(db_url: str) -> None:
    """The look-alike check came before the password's hash (tens of ms) and the insert, unlocked:
    "Ivan" and "Іvan" (a Cyrillic І) registered at the same moment both passed it and both became
    accounts, in one process (the route hashes in a thread) or on two workers.  Registrations are
    now checked and stored one at a time: one of each pair is refused."""
    storage = Storage(db_url)
    workers = [Accounts(storage), Accounts(storage)]  # two caches of the names seen, as two workers have

    def sign_up(accounts: Accounts, name: str, start: threading.Barrier, outcomes: list[str]) -> None:
        start.wait()
        try:
            outcomes.append(accounts.register(name, PASSWORD).name)
        except TableError as e:
            outcomes.append(e.code)

    try:
        for i in range(6):
            names, start, outcomes = [f"Ivan{i}", f"\u0406van{i}"], threading.Barrier(2), []
            threads = [threading.Thread(target=sign_up, args=(accounts, name, start, outcomes))
                       for accounts, name in zip(workers, names)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            assert sorted(outcomes, key=lambda o: o != "name_taken") in (["name_taken", names[0]], ["name_taken", names[1]]), \
                (i, outcomes)
    finally:
        storage.close()
