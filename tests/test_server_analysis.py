"""Issue 22 on the server: the analysis of a finished game, queued, computed in a worker process once,
stored (``belot_analyses``, schema 3) and polled over HTTP (docs/protocol.md, "Analysis")."""

from __future__ import annotations

import asyncio
import time
import warnings
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette's note about httpx versions
    from starlette.testclient import TestClient

from belot.record import replay
from belot.server.analysis_jobs import DONE, FAILED, QUEUED, AnalysisJobs
from belot.server.app import create_app
from belot.server.limits import Limits
from belot.server.storage import Storage, analyses_table

WORLDS = (1, 1)  # one world per decision: the same code, a fraction of the time


def make_client(db: Path) -> TestClient:
    return TestClient(create_app(f"sqlite:///{db}", bot_delay=0.0, analysis_worlds=WORLDS))


def finished_table(client: TestClient) -> str:
    """A bot-only match to 1 point: over after its first deal with a contract."""
    r = client.post("/api/tables", json={"seats": ["bot:random"] * 4, "target": 1})
    assert r.status_code == 201, r.text
    table_id = r.json()["table"]["id"]
    end = time.monotonic() + 30
    while client.get(f"/api/tables/{table_id}").json()["table"]["status"] != "finished":
        assert time.monotonic() < end, "the bots did not finish"
        time.sleep(0.05)
    return table_id


def wait_done(client: TestClient, table_id: str, seen: list[dict[str, Any]]) -> dict[str, Any]:
    end = time.monotonic() + 120
    while True:
        job = client.get(f"/api/tables/{table_id}/analysis").json()
        seen.append(job)
        if job["status"] in ("done", "failed"):
            return job
        assert time.monotonic() < end, job
        time.sleep(0.05)


def two_workers(db: Path, records: dict[str, Any],
                body: Callable[[Storage, AnalysisJobs, AnalysisJobs], Awaitable[None]], lease: float | None = None) -> None:
    """``body`` run with the analyses of two workers (``shared``) on one database, which are closed after it."""
    storage = Storage(f"sqlite:///{db}")
    if lease is not None:
        storage.lease_seconds = lease

    async def main() -> None:
        a = AnalysisJobs(storage, records.__getitem__, *WORLDS, shared=True)
        b = AnalysisJobs(storage, records.__getitem__, *WORLDS, shared=True)
        try:
            await body(storage, a, b)
        finally:
            await a.aclose()
            await b.aclose()

    try:
        asyncio.run(main())
    finally:
        storage.close()


def test_an_unfinished_game_is_never_analysed(tmp_path: Path) -> None:
    with make_client(tmp_path / "b.sqlite3") as client:
        r = client.post("/api/tables", json={"seats": ["human", "bot:random", "bot:random", "bot:random"],
                                             "target": 151})
        table_id = r.json()["table"]["id"]
        for method in (client.post, client.get):
            refused = method(f"/api/tables/{table_id}/analysis")
            assert refused.status_code == 409
            assert refused.json()["error"]["code"] == "not_finished"
            assert "result" not in refused.json()
        assert client.post("/api/tables/nosuch/analysis").status_code == 404
        assert client.app.state.analyses.get(table_id) is None  # type: ignore[attr-defined]


def test_queued_once_progress_to_total_and_stored_across_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "b.sqlite3"
    with make_client(db) as client:
        table_id = finished_table(client)
        assert client.get(f"/api/tables/{table_id}/analysis").json()["status"] == "none"
        first = client.post(f"/api/tables/{table_id}/analysis").json()
        assert first["status"] == "queued" and first["progress"]["done"] == 0 and first["result"] is None
        second = client.post(f"/api/tables/{table_id}/analysis").json()
        assert second["status"] in ("queued", "running", "done")
        jobs = client.app.state.analyses  # type: ignore[attr-defined]
        assert jobs.pending() <= 1  # the second start queued nothing
        seen: list[dict[str, Any]] = [first]
        job = wait_done(client, table_id, seen)
        assert job["status"] == "done", job
        assert jobs.computed == 1
        client.post(f"/api/tables/{table_id}/analysis")  # done: nothing is queued again
        assert jobs.pending() == 0 and jobs.computed == 1
        record = client.get(f"/api/tables/{table_id}/record").json()
    doc = job["result"]
    assert doc["format"] == "belot-analysis/1" and doc["settings"] == {"play_worlds": 1, "call_worlds": 1}
    match = replay(record)
    assert [d["deal"] for d in doc["deals"]] == [i for i, d in enumerate(match.deals) if d.is_over]
    total = sum(len(d["decisions"]) for d in doc["deals"])
    assert total > 0 and job["progress"] == {"done": total, "total": total}
    dones = [j["progress"]["done"] for j in seen]
    assert dones[0] == 0 and dones == sorted(dones) and dones[-1] == total
    assert all(j["progress"]["total"] in (0, total) for j in seen)

    with make_client(db) as client:  # a restart: the stored analysis, not computed again
        again = client.get(f"/api/tables/{table_id}/analysis").json()
        assert again == job
        assert client.post(f"/api/tables/{table_id}/analysis").json() == job
        assert client.app.state.analyses.computed == 0  # type: ignore[attr-defined]


def test_a_restart_requeues_an_analysis_left_running(tmp_path: Path) -> None:
    db = tmp_path / "b.sqlite3"
    with make_client(db) as client:
        table_id = finished_table(client)
        jobs = client.app.state.analyses  # type: ignore[attr-defined]
        # As a killed server leaves it: the row says running, nothing works on it.
        with jobs.storage.engine.begin() as c:
            c.execute(analyses_table.insert().values(table_id=table_id, status="running", done=3, total=9,
                                                     result=None, updated=time.time()))
    with make_client(db) as client:
        job = wait_done(client, table_id, [])
        assert job["status"] == "done" and job["progress"]["done"] == job["progress"]["total"]
        assert client.app.state.analyses.computed == 1  # type: ignore[attr-defined]


def test_the_queue_of_analyses_is_capped_server_wide(tmp_path: Path) -> None:
    """Nothing limited how many analyses waited for the one worker, and finished games of bots only are
    cheap to make: over `Limits.queued_analyses` waiting, a new one is refused (429), an asked one is not."""
    with TestClient(create_app(f"sqlite:///{tmp_path / 'b.sqlite3'}", bot_delay=0.0, analysis_worlds=WORLDS,
                               limits=Limits(queued_analyses=1))) as client:
        tables = [finished_table(client) for _ in range(4)]
        answers = [client.post(f"/api/tables/{t}/analysis") for t in tables]  # the worker takes a while to start
        refused = [r for r in answers if r.status_code == 429]
        assert refused, [r.status_code for r in answers]
        err = refused[0].json()["error"]
        assert err["code"] == "too_many_analyses" and err["detail"] == {"limit": 1, "reason": "server"}
        assert client.app.state.analyses.pending() <= 1  # type: ignore[attr-defined]
        asked = tables[answers.index(next(r for r in answers if r.status_code == 200))]
        assert client.post(f"/api/tables/{asked}/analysis").status_code == 200  # asked already: its job


def test_one_address_has_its_share_of_the_analysis_queue(tmp_path: Path) -> None:
    """The queue of analyses was capped server-wide only: one client that made finished games of bots
    (cheap) could fill it, and every other player's analysis was refused for hours.  An address may
    have `Limits.analyses_per_address` waiting or running; another address still gets its own, and
    the first may ask again once one of its analyses is done."""
    app = create_app(f"sqlite:///{tmp_path / 'b.sqlite3'}", bot_delay=0.0, analysis_worlds=WORLDS,
                     limits=Limits(analyses_per_address=2))
    with TestClient(app) as client:
        tables = [finished_table(client) for _ in range(4)]
        first = [client.post(f"/api/tables/{t}/analysis") for t in tables[:3]]
        assert [r.status_code for r in first] == [200, 200, 429], [r.text for r in first]
        err = first[2].json()["error"]
        assert err["code"] == "too_many_analyses" and err["detail"] == {"limit": 2, "reason": "address"}
        assert "your address" in err["message"]
        assert client.get(f"/api/tables/{tables[2]}/analysis").json()["status"] == "none"  # nothing stored
        jobs = app.state.analyses
        other = ("10.9.8.7", 4242)  # another player: the same app, another client address
        assert client.portal is not None
        client.portal.call(lambda: jobs.start(tables[3], None, other[0], 2))
        assert jobs.pending() >= 1
        wait_done(client, tables[0], [])
        wait_done(client, tables[1], [])
        again = client.post(f"/api/tables/{tables[2]}/analysis")
        assert again.status_code == 200, again.text
        wait_done(client, tables[2], [])
        wait_done(client, tables[3], [])
        assert jobs._asked == {} and jobs._asker == {}  # nothing kept of an address once its analyses are done


def test_several_workers_keep_their_own_analyses_and_take_over_a_stopped_ones(tmp_path: Path) -> None:
    """Several workers on one database (docs/deploy.md): a worker that started took over every analysis
    queued or running, those a live worker was computing too (both computed them, each setting the
    other's progress back), and the analysis of a killed worker stayed "running" until some worker
    started again.  Each worker now keeps its own analyses fresh at its heartbeat (`AnalysisJobs.beat`),
    and takes over, at start or at a heartbeat, only those nobody kept fresh for a lease's time."""
    db = tmp_path / "b.sqlite3"
    with make_client(db) as client:
        live, killed = finished_table(client), finished_table(client)
        records = {t: client.get(f"/api/tables/{t}/record").json() for t in (live, killed)}

    async def body(storage: Storage, a: AnalysisJobs, b: AnalysisJobs) -> None:
        a.start(live)
        await asyncio.sleep(0.8)  # longer than a lease: only a's heartbeat keeps its analysis a's
        a.beat()
        assert b.resume() == 0  # b starts: a's analysis is not b's to compute
        with storage.engine.begin() as c:  # as a killed worker leaves its analysis
            c.execute(analyses_table.insert().values(table_id=killed, status="running", done=3, total=9,
                                                     result=None, updated=time.time()))
        taken = 0
        end = time.monotonic() + 120
        while not all(a.get(t).status == DONE for t in (live, killed)):  # type: ignore[union-attr]
            assert time.monotonic() < end, (a.get(live), a.get(killed))
            taken += a.beat() + b.beat()
            await asyncio.sleep(0.1)
        assert taken == 1  # the killed worker's, a lease after its last heartbeat, by one of them
        assert a.computed + b.computed == 2  # each analysis computed once
        assert a.beat() == 0 and b.beat() == 0  # done: nobody takes them again

    two_workers(db, records, body, lease=0.5)  # a lease's time; the heartbeats above come every 0.1 s


def test_two_workers_asked_at_once_share_one_analysis(tmp_path: Path) -> None:
    """Two workers asked for one game's analysis at the same moment: each read no job, one stored
    its row first, and the other's insert failed on it, so that request was answered 503 ("try
    again").  A failed analysis asked again on two workers at once was computed by both.  The worker
    that comes second now answers with the first one's job and queues nothing of its own."""
    db = tmp_path / "b.sqlite3"
    with make_client(db) as client:
        fresh, failed = finished_table(client), finished_table(client)
        records = {t: client.get(f"/api/tables/{t}/record").json() for t in (fresh, failed)}

    async def body(storage: Storage, a: AnalysisJobs, b: AnalysisJobs) -> None:
        with storage.engine.begin() as c:  # an earlier try of the second game failed
            c.execute(analyses_table.insert().values(table_id=failed, status=FAILED, done=0, total=0, result=None,
                                                     updated=time.time()))
        real_get = b.get
        for table_id in (fresh, failed):
            reads = [b.get(table_id)]  # b's first read comes before a writes the row
            assert a.start(table_id).status == QUEUED
            b.get = lambda t, reads=reads: reads.pop() if reads else real_get(t)  # type: ignore[method-assign]
            job = b.start(table_id)  # was: IntegrityError (a 503), or the failed one queued twice
            b.get = real_get  # type: ignore[method-assign]
            assert job is not None and job.status != FAILED, job
            assert b.pending() == 0 and not b._held
        end = time.monotonic() + 120
        while not all(a.get(t).status == DONE for t in (fresh, failed)):  # type: ignore[union-attr]
            assert time.monotonic() < end, (a.get(fresh), a.get(failed))
            await asyncio.sleep(0.1)
        assert (a.computed, b.computed) == (2, 0)  # each analysis computed once, by the worker that queued it

    two_workers(db, records, body)


def test_a_worker_takes_over_a_killed_workers_analysis_at_its_heartbeat(tmp_path: Path) -> None:
    """The server's wiring of the test above: a `belot serve --worker` app beats for its analyses too,
    so an analysis a killed worker left running is finished by a live one, without any restart."""
    from belot.server.workers import Worker

    db = tmp_path / "b.sqlite3"
    with make_client(db) as client:
        table_id = finished_table(client)
    app = create_app(f"sqlite:///{db}", bot_delay=0.0, analysis_worlds=WORLDS, worker=Worker("http://127.0.0.1:9"))
    with TestClient(app) as client:
        with app.state.analyses.storage.engine.begin() as c:  # after the start: only a heartbeat can take it
            c.execute(analyses_table.insert().values(table_id=table_id, status="running", done=3, total=9,
                                                     result=None, updated=time.time() - 60))
        job = wait_done(client, table_id, [])
        assert job["status"] == "done" and job["progress"]["done"] == job["progress"]["total"] > 0
        assert app.state.analyses.computed == 1
