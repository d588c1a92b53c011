"""The analysis of finished games on the server (issue 22): a queue, one worker process, the database.

A finished game's analysis (`belot.analysis`, docs/analysis.md) is computed once and stored in
``belot_analyses`` (status, progress in decisions, the belot-analysis/1 document).  The work runs in
a separate worker process, never on the event loop, one game at a time and one deal a job (the
worker counts each decision done on a queue: the progress).  Whatever is asked, at most one core
analyses, and the others queue (`AnalysisJobs.start` is idempotent).  A restart requeues what was
queued or running.  With several workers on one database each runs the analyses asked of it, keeps
their rows fresh at its heartbeat, and takes over those a stopped worker left (`AnalysisJobs.beat`).
Only finished games are analysed: the analysis sees every hand, so a running game's must not exist.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import multiprocessing
import queue
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa

from ..analysis import Analyst, DealAnalysis, MatchAnalysis, analyzable, analyze_deal, decisions_of
from ..record import replay
from .errors import TableError
from .storage import Storage, analyses_table

log = logging.getLogger("belot.server")

QUEUED, RUNNING, DONE, FAILED = "queued", "running", "done", "failed"
SEED = 0  # the figures are those of `belot analyze --seed 0`
PROGRESS_EVERY = 0.5  # seconds between two progress writes while a deal is analysed


# -- the worker's side (each runs in the worker process) ------------------------------------------


def plan(record: str) -> list[int]:
    """The indices of the record's finished deals and the decisions of each: [index, n, index, n, ...]."""
    match = replay(json.loads(record))
    out: list[int] = []
    for i in analyzable(match):
        out += [i, len(decisions_of(match.deals[i]))]
    return out


_progress: Any = None  # the worker's end of the queue that counts decisions done


def _init_worker(progress: Any) -> None:
    global _progress
    _progress = progress


def _step() -> None:
    if _progress is not None:
        _progress.put(1)


def analyse_one(record: str, index: int, play_worlds: int, call_worlds: int) -> DealAnalysis:
    """Deal ``index`` of the record analysed (its figures do not depend on the other deals); each
    decision done is counted on the progress queue."""
    match = replay(json.loads(record))
    return analyze_deal(Analyst(SEED, play_worlds, call_worlds), match.deals[index], index, step=_step)


# -- the server's side ----------------------------------------------------------------------------


@dataclass
class Job:
    status: str
    done: int
    total: int
    result: str | None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"status": self.status, "progress": {"done": self.done, "total": self.total},
                               "result": None, "error": None}
        if self.status == DONE and self.result is not None:
            out["result"] = json.loads(self.result)
        elif self.status == FAILED:
            out["error"] = self.result
        return out


class AnalysisJobs:
    """The queue of analyses, its one worker process and the rows of ``belot_analyses``.

    ``record_of(table_id)`` gives a finished table's record (belot-record/1) as a dict.  ``shared``:
    this is one of several workers on the database (`workers.Worker`); then a starting worker takes
    only the analyses that no live worker keeps (`resume`), not those another is running.
    """

    def __init__(self, storage: Storage, record_of: Callable[[str], dict[str, Any]],
                 play_worlds: int | None = None, call_worlds: int | None = None, shared: bool = False) -> None:
        self.storage = storage
        self.record_of = record_of
        self.shared = shared
        self._held: set[str] = set()  # the analyses queued or running in this process
        a = Analyst(SEED)
        self.play_worlds = play_worlds or a.play_worlds
        self.call_worlds = call_worlds or a.call_worlds
        self._queue: asyncio.Queue[str] | None = None
        self._runner: asyncio.Task[None] | None = None
        self._executor: ProcessPoolExecutor | None = None
        self._progress: Any = None  # multiprocessing queue: one item a decision the worker finished
        self.computed = 0  # analyses computed by this process (the tests' proof that a stored one is reused)
        self._asked: dict[str, set[str]] = {}  # the tables each client address asked for, not yet done
        self._asker: dict[str, str] = {}  # and the address that asked for each of them

    # -- rows -------------------------------------------------------------------------------------

    def get(self, table_id: str) -> Job | None:
        with self.storage.engine.connect() as c:
            r = c.execute(sa.select(analyses_table).where(analyses_table.c.table_id == table_id)).first()
        return None if r is None else Job(r.status, r.done, r.total, r.result)

    def _set(self, table_id: str, **values: Any) -> None:
        with self.storage.engine.begin() as c:
            c.execute(sa.update(analyses_table).where(analyses_table.c.table_id == table_id)
                      .values(updated=time.time(), **values))

    # -- the queue ----------------------------------------------------------------------------------

    def _start(self) -> asyncio.Queue[str]:
        if self._queue is None:
            self._queue = asyncio.Queue()
            self._runner = asyncio.get_running_loop().create_task(self._run())
        return self._queue

    def resume(self) -> int:
        """Requeue the analyses a stopped server left queued or running (from the start); how many.

        Alone on its database, a starting server takes every one.  One of several workers
        (``shared``) takes only those nobody has kept fresh for a lease's time: every live worker
        touches its own at each heartbeat (`beat`), so those are a stopped worker's, and one another
        worker is running is not computed twice.
        """
        a = analyses_table.c
        now = time.time()
        left: sa.ColumnElement[bool] = a.status.in_((QUEUED, RUNNING))
        if self.shared:
            left = left & (a.updated < now - self.storage.lease_seconds)
        taken = []
        with self.storage.engine.begin() as c:
            for (table_id,) in c.execute(sa.select(a.table_id).where(left).order_by(a.updated)).all():
                # the condition again in the write: of two workers taking it over, one does
                if c.execute(sa.update(analyses_table).where(left & (a.table_id == table_id))
                             .values(status=QUEUED, done=0, updated=now)).rowcount == 1:
                    taken.append(table_id)
        queue = self._start()
        for table_id in taken:
            self._held.add(table_id)
            queue.put_nowait(table_id)
        return len(taken)

    def beat(self) -> int:
        """A worker's heartbeat (``shared``): keep this process's analyses fresh, so no other worker
        takes them, and take over those a stopped worker left (`resume`); how many were taken."""
        if self._held:
            a = analyses_table.c
            with self.storage.engine.begin() as c:
                c.execute(sa.update(analyses_table).where(a.table_id.in_(sorted(self._held))
                                                          & a.status.in_((QUEUED, RUNNING))).values(updated=time.time()))
        return self.resume()

    def start(self, table_id: str, max_queued: int | None = None, address: str | None = None,
              per_address: int | None = None) -> Job:
        """Queue the analysis of a finished table unless it is queued, running or done (a failed one
        is tried again); the job as it stands.  TableError (429) when ``max_queued`` wait already: the
        one worker takes minutes a game, and finished games of bots only cost a client little to make;
        or when ``address`` has ``per_address`` of its own still waiting or running, so that one client
        cannot fill the queue and keep everyone else's games from being analysed for hours."""
        job = self.get(table_id)
        if job is not None and job.status != FAILED:
            return job
        if max_queued is not None and self.pending() >= max_queued:
            raise TableError("too_many_analyses", f"{self.pending()} analyses are waiting, the most this server "
                             "queues; ask again when they are done", 429, detail={"limit": max_queued, "reason": "server"})
        mine = self._asked.get(address or "", set())
        if per_address is not None and len(mine) >= per_address:
            raise TableError("too_many_analyses", f"your address has {len(mine)} analyses waiting or running, "
                             "the most one address may; ask again when one is done", 429,
                             detail={"limit": per_address, "reason": "address"})
        a = analyses_table.c
        try:
            with self.storage.engine.begin() as c:
                if job is None:
                    c.execute(sa.insert(analyses_table).values(table_id=table_id, status=QUEUED, done=0, total=0,
                                                               result=None, updated=time.time()))
                    queued = True
                else:  # a failed one, tried again: by one worker of several asked at once
                    queued = c.execute(sa.update(analyses_table).where((a.table_id == table_id) & (a.status == FAILED))
                                       .values(status=QUEUED, done=0, total=0, result=None,
                                               updated=time.time())).rowcount == 1
        except sa.exc.IntegrityError:  # another worker queued it since the read above (its row is kept)
            queued = False
        if not queued:  # that worker's job is the one: not computed twice, and the request not refused
            return self.get(table_id) or Job(QUEUED, 0, 0, None)
        self._start().put_nowait(table_id)
        self._held.add(table_id)
        if address is not None:
            self._asked.setdefault(address, set()).add(table_id)
            self._asker[table_id] = address
        return Job(QUEUED, 0, 0, None)

    def _done(self, table_id: str) -> None:
        """The job of ``table_id`` is over (done or failed): no longer its address's nor this process's."""
        self._held.discard(table_id)
        address = self._asker.pop(table_id, None)
        if address is not None:
            self._asked[address].discard(table_id)
            if not self._asked[address]:
                del self._asked[address]

    def pending(self) -> int:
        return 0 if self._queue is None else self._queue.qsize()

    def _pool(self) -> ProcessPoolExecutor:
        if self._executor is None:
            # one worker: one core at most, whatever is asked.  forkserver: the server has threads.
            ctx = multiprocessing.get_context("forkserver")
            self._progress = ctx.Queue()
            self._executor = ProcessPoolExecutor(1, mp_context=ctx, initializer=_init_worker,
                                                 initargs=(self._progress,))
        return self._executor

    async def _run(self) -> None:
        assert self._queue is not None
        while True:
            table_id = await self._queue.get()
            try:
                await self._analyse(table_id)
            except asyncio.CancelledError:
                raise
            except Exception as e:  # one bad game must not stop the queue
                log.exception("the analysis of table %s failed", table_id)
                if isinstance(e, BrokenProcessPool):
                    self._shutdown()
                self._set(table_id, status=FAILED, result=f"{type(e).__name__}: {e}")
            finally:
                self._done(table_id)

    def _drain(self) -> int:
        """How many decisions the worker reported since the last look."""
        n = 0
        with contextlib.suppress(queue.Empty, OSError, ValueError):
            while self._progress is not None:
                self._progress.get_nowait()
                n += 1
        return n

    def _shutdown(self) -> None:
        if self._executor is not None:
            # A deal's analysis takes seconds: stop the worker rather than wait for it (a restart
            # starts that game again).  `_processes` is the executor's own map of its workers.
            workers = list((getattr(self._executor, "_processes", None) or {}).values())
            self._executor.shutdown(wait=False, cancel_futures=True)
            for p in workers:
                p.terminate()
        self._executor = None
        if self._progress is not None:
            self._progress.close()
            self._progress.join_thread()
            self._progress = None

    async def _analyse(self, table_id: str) -> None:
        loop = asyncio.get_running_loop()
        self._set(table_id, status=RUNNING, done=0, total=0)
        doc = self.record_of(table_id)
        record = json.dumps(doc)
        counts = await loop.run_in_executor(self._pool(), plan, record)
        deals = counts[0::2]
        total = sum(counts[1::2])
        self._set(table_id, total=total)
        done = 0
        out = []
        for index in deals:
            fut = asyncio.wrap_future(self._pool().submit(analyse_one, record, index, self.play_worlds,
                                                          self.call_worlds))
            live = done
            while True:
                try:
                    d = await asyncio.wait_for(asyncio.shield(fut), PROGRESS_EVERY)
                    break
                except TimeoutError:
                    n = self._drain()
                    if n:
                        live = min(live + n, total)
                        self._set(table_id, done=live)
            self._drain()
            out.append(d)
            done += len(d.decisions)
            self._set(table_id, done=done)
        players = doc.get("players") or [""] * 4
        result = MatchAnalysis(tuple(players), SEED, tuple(out),
                               {"play_worlds": self.play_worlds, "call_worlds": self.call_worlds})
        self._set(table_id, status=DONE, done=total, result=json.dumps(result.to_json(), ensure_ascii=False))
        self.computed += 1
        log.info("analysed table %s: %d deal(s), %d decision(s)", table_id, len(out), total)

    async def aclose(self) -> None:
        if self._runner is not None:
            self._runner.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._runner
            self._runner = None
        self._queue = None
        self._shutdown()


__all__ = ["DONE", "FAILED", "QUEUED", "RUNNING", "AnalysisJobs", "Job", "analyse_one", "plan"]
