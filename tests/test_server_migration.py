"""Storage schema 1 -> 2: a database written by the schema-1 server (tests/data/server-v1.sqlite3,
seed + engine action ints) is migrated on start to the record notation, its unfinished tables come
back with the same positions and hands, and play goes on; its finished records stay readable.

SQLite only: schema 1 existed only as SQLite files (PostgreSQL databases start at the current
schema; the other server tests run on both)."""

from __future__ import annotations

import json
import random
import shutil
import sqlite3
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette's note about httpx versions
    from starlette.testclient import TestClient

from belot import declarations as decl
from belot.game import Match
from belot.record import action_of, move_of, replay
from belot.server.app import create_app
from belot.server.migrations import v1_move
from belot.server.storage import SCHEMA_VERSION

DATA = Path(__file__).parent / "data"
KEEP = 1e9  # seconds an abandoned table stays open: decades


def v1_matches(db: Path) -> dict[str, tuple[Match, int]]:
    """Every table of a schema-1 database as schema 1 restored it: shuffled from its seed, its action
    ints applied (the numbering of schema 1 is today's, so the engine still reads them)."""
    con = sqlite3.connect(db)
    out = {}
    for tid, seed, settings in con.execute("select id, seed, settings from belot_tables"):
        m = Match(target=json.loads(settings)["target"], rng=random.Random(seed))
        rows = con.execute("select action from belot_actions where table_id = ? order by seq", (tid,)).fetchall()
        for (a,) in rows:
            m.apply(a)
        out[tid] = (m, len(rows))
    con.close()
    return out


def test_the_frozen_v1_numbering_reads_every_action_as_schema_1_meant_it() -> None:
    assert len({json.dumps(v1_move(a)) for a in range(163)}) == 163
    for a in range(163):
        assert action_of(v1_move(a)) == a and v1_move(a) == move_of(a)
    assert [v1_move(73 + d.id)["declare"] for d in decl.DECLARATIONS] == [decl.card_list(d.id) for d in decl.DECLARATIONS]


def test_schema_1_database_is_migrated_restored_and_played_on(tmp_path: Path) -> None:
    db = tmp_path / "belot.sqlite3"
    shutil.copy(DATA / "server-v1.sqlite3", db)
    fixture: dict[str, Any] = json.loads((DATA / "server-v1.json").read_text())
    old = v1_matches(db)
    assert {tid: n for tid, (_, n) in old.items()} == {tid: t["seq"] for tid, t in fixture["tables"].items()}

    # The fixture's tables were left when it was made: a server that closes abandoned tables (schema
    # 7) closes them at once (test below); this one keeps them to play them on.
    with TestClient(create_app(f"sqlite:///{db}", bot_delay=0.0, abandon_after=KEEP)) as client:
        con = sqlite3.connect(db)
        assert con.execute("select value from belot_meta where key = 'schema_version'").fetchone() == (
            str(SCHEMA_VERSION),
        )
        assert not con.execute("select name from sqlite_master where name = 'belot_actions'").fetchall()
        moves = con.execute("select table_id, seq, move from belot_moves order by table_id, seq").fetchall()
        con.close()
        assert len(moves) == sum(n for _, n in old.values())
        for tid, seq, move in moves:  # the log is record notation, not engine ints
            assert move_of(_action(old[tid][0], seq)) == json.loads(move)

        lobby = client.app.state.lobby  # type: ignore[attr-defined]
        for tid, t in fixture["tables"].items():
            m, n = old[tid]
            r = client.get(f"/api/tables/{tid}")
            assert r.status_code == 200 and r.json()["table"]["status"] == t["status"]
            if t["status"] == "finished":
                doc = client.get(f"/api/tables/{tid}/record").json()
                assert replay(doc).score == m.score and doc["deals"][0]["hands"] == _hands(m, 0)
                continue
            table = lobby.tables[tid]
            assert table.seq == n and table.status == t["status"]
            assert [d.dealt for d in table.match.deals] == [d.dealt for d in m.deals]  # same hands
            for s in range(4):
                assert table.match.view(s) == m.view(s)  # same position, seat by seat
        assert lobby.tables["3c1b0c0772"].status == "waiting"

        # The tokens still hold their seats, and play goes on into deals not yet dealt.
        for tid, tokens in fixture["tokens"].items():
            if fixture["tables"][tid]["status"] == "finished":
                continue
            rng = random.Random(1)
            start = lobby.tables[tid].match.view(0).deal_index
            while lobby.tables[tid].match.view(0).deal_index < start + 2:
                st = client.get(f"/api/tables/{tid}/state").json()
                seat = st["view"]["to_move"]
                mine = client.get(f"/api/tables/{tid}/state", params={"token": tokens[str(seat)]}).json()
                assert mine["view"]["hand"]
                r = client.post(f"/api/tables/{tid}/action", json={
                    "token": tokens[str(seat)], "action": rng.choice(mine["view"]["legal"]), "seq": st["seq"],
                })
                assert r.status_code == 200, r.text
        played = {tid: (t.seq, [d.dealt for d in t.match.deals]) for tid, t in lobby.tables.items()}

    with TestClient(create_app(f"sqlite:///{db}", bot_delay=0.0, abandon_after=KEEP)) as client:  # and a second start agrees
        lobby = client.app.state.lobby  # type: ignore[attr-defined]
        for tid, (seq, dealt) in played.items():
            t = lobby.get(tid)
            assert t is not None and (t.seq, [d.dealt for d in t.match.deals]) == (seq, dealt)


def test_an_old_database_closes_the_tables_left_long_ago_at_its_upgrade(tmp_path: Path) -> None:
    """Schema 6 -> 7: an unfinished table was last seen at its last action by a person (or its
    creation).  The fixture's, left when it was made, are closed as abandoned at the first start
    (not replayed), every stored action kept; the finished ones are as they were."""
    db = tmp_path / "belot.sqlite3"
    shutil.copy(DATA / "server-v1.sqlite3", db)
    fixture: dict[str, Any] = json.loads((DATA / "server-v1.json").read_text())
    old = v1_matches(db)
    with TestClient(create_app(f"sqlite:///{db}", bot_delay=0.0, abandon_after=3600.0)) as client:
        lobby = client.app.state.lobby  # type: ignore[attr-defined]
        assert not lobby.tables  # nothing was replayed to be played on
        for tid, t in fixture["tables"].items():
            m, n = old[tid]
            table = client.get(f"/api/tables/{tid}").json()["table"]
            assert table["status"] == ("finished" if t["status"] == "finished" else "abandoned")
            assert table["seq"] == n
            doc = client.get(f"/api/tables/{tid}/record").json()
            assert [d.dealt for d in replay(doc).deals] == [d.dealt for d in m.deals]
            assert replay(doc).view(0) == m.view(0)  # the same position, as it was left
    con = sqlite3.connect(db)
    try:
        assert con.execute("select count(*) from belot_moves").fetchone() == (sum(n for _, n in old.values()),)
        assert con.execute("select count(*) from belot_tables where seen is not null").fetchone() == (0,)
        assert con.execute("select name from sqlite_master where name = 'belot_tables_seen'").fetchone()
    finally:
        con.close()


def _schema(db: Path) -> dict[str, Any]:
    """Every table's columns (name, type, nullable), and every index's table and columns."""
    import sqlalchemy as sa

    engine = sa.create_engine(f"sqlite:///{db}")
    try:
        with engine.connect() as c:
            inspect = sa.inspect(c)
            return {t: ([(col["name"], str(col["type"]), col["nullable"]) for col in inspect.get_columns(t)],
                        sorted((i["name"], tuple(i["column_names"]), bool(i["unique"])) for i in inspect.get_indexes(t)))
                    for t in inspect.get_table_names()}
    finally:
        engine.dispose()


def test_a_migrated_database_has_the_schema_of_a_new_one(tmp_path: Path) -> None:
    """The steps from schema 1 make what a new database is made with: the same tables, columns and
    indexes (a step that forgot an index left every upgraded server scanning a table).  And the
    heartbeat's look for queued and running analyses (several workers, every 1.5 s) is an index
    range, not a scan of every analysed game (schema 8)."""
    old, seven, new = tmp_path / "old.sqlite3", tmp_path / "seven.sqlite3", tmp_path / "new.sqlite3"
    shutil.copy(DATA / "server-v1.sqlite3", old)

    def start(db: Path) -> None:
        with TestClient(create_app(f"sqlite:///{db}", bot_delay=0.0, abandon_after=KEEP)):
            pass

    start(seven)
    with sqlite3.connect(seven) as c:  # back to schema 7, without schema 8's indexes
        c.execute("DROP INDEX belot_analyses_status")
        c.execute("DROP INDEX belot_tables_status")
        c.execute("DROP INDEX belot_tables_created")
        c.execute("UPDATE belot_meta SET value = '7' WHERE key = 'schema_version'")
    for db in (old, seven, new):
        start(db)
    assert _schema(old) == _schema(new) and _schema(seven) == _schema(new)
    with sqlite3.connect(seven) as c:
        plan = " ".join(str(r) for r in c.execute(
            "EXPLAIN QUERY PLAN SELECT table_id FROM belot_analyses WHERE status IN ('queued', 'running') "
            "AND updated < 0 ORDER BY updated"))
    assert "belot_analyses_status" in plan, plan


def _steps(engine: Any, work: Callable[[], object]) -> int:
    """The database's work for ``work``: SQLite's virtual machine steps, in tens."""
    import sqlalchemy as sa

    steps = [0]

    def count() -> int:
        steps[0] += 1
        return 0  # go on

    def counted(conn: Any, cursor: Any, statement: str, parameters: Any, context: Any, many: bool) -> None:
        conn.connection.dbapi_connection.set_progress_handler(count, 10)

    sa.event.listen(engine, "before_cursor_execute", counted)
    try:
        work()
    finally:
        sa.event.remove(engine, "before_cursor_execute", counted)
    return steps[0]


def _finished_games(engine: Any, n: int, start: int = 0) -> None:
    """``n`` finished and analysed games, stored."""
    import sqlalchemy as sa

    from belot.server.storage import analyses_table, tables_table

    settings = json.dumps({"seats": ["human", "bot", "bot", "bot"]})
    ids = [f"f{i:05d}" for i in range(start, start + n)]
    with engine.begin() as c:
        c.execute(sa.insert(tables_table), [dict(id=t, created=i, seed=i, settings=settings, status="finished",
                                                 record="{}", seen=None) for i, t in enumerate(ids, start)])
        c.execute(sa.insert(analyses_table), [dict(table_id=t, status="done", done=1, total=1, result="{}", updated=i)
                                              for i, t in enumerate(ids, start)])


def test_a_workers_heartbeat_does_not_grow_with_the_finished_games(tmp_path: Path) -> None:
    """Every 1.5 s each of several workers looks for the tables in play nobody owns, those a person
    was at when their worker stopped, and the analyses nobody computes.  On schema 7 three of those
    reads went through every stored game or analysis, in the event loop every player waits on: with
    100,000 finished games on SQLite about 400 ms a heartbeat.  The database's work for a heartbeat
    is now the same with 2,000 finished and analysed games as with none."""
    from belot.server.workers import Worker

    db = tmp_path / "belot.sqlite3"
    worker = Worker("http://127.0.0.1:9")
    app = create_app(f"sqlite:///{db}", bot_delay=0.0, abandon_after=KEEP, worker=worker)
    with TestClient(app):
        lobby = app.state.lobby  # type: ignore[attr-defined]

        def heartbeat() -> None:
            for beat in (lambda: worker.sweep(lobby), *worker.beats):
                beat()

        heartbeat()
        none = _steps(lobby.storage.engine, heartbeat)
        _finished_games(lobby.storage.engine, 2000)
        many = _steps(lobby.storage.engine, heartbeat)
        assert many <= 2 * none + 100, (none, many)


def test_the_lobbys_newest_tables_do_not_grow_with_the_stored_games(tmp_path: Path) -> None:
    """Every lobby page asks for the newest tables of any status (`GET /api/tables?all=1`), and on
    schema 7 the server sorted every stored table for them: with 100,000 on SQLite, 20 ms a page
    (144 ms cold) in the event loop.  The read is the same work with 2,100 stored games as with
    100."""
    with TestClient(create_app(f"sqlite:///{tmp_path / 'belot.sqlite3'}", bot_delay=0.0, abandon_after=KEEP)) as client:
        storage = client.app.state.lobby.storage  # type: ignore[attr-defined]
        _finished_games(storage.engine, 100)
        few = _steps(storage.engine, lambda: storage.recent_ids(50))
        _finished_games(storage.engine, 2000, start=100)
        many = _steps(storage.engine, lambda: storage.recent_ids(50))
        assert storage.recent_ids(3) == ["f02099", "f02098", "f02097"]
        assert many <= 2 * few + 100, (few, many)


def _action(m: Match, seq: int) -> int:
    flat = [a for d in m.deals for a in d.actions]
    return flat[seq]


def _hands(m: Match, i: int) -> list[list[str]]:
    from belot.cards import CARD_NAMES

    return [[CARD_NAMES[c] for c in h] for h in m.deals[i].dealt]
