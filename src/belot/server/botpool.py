"""Bot decisions in worker processes, so no bot holds the server's event loop.

Bots ran in threads, and a pimc decision (tens to hundreds of milliseconds of pure Python and
numba) held the interpreter lock against the event loop: 20 bot-only tables slowed every other
table's replies tenfold. Here each decision is a job for a pool of processes. Jobs wait in one
priority queue, tables with a person waiting first; one dispatcher per worker takes the next job,
so a worker never holds more than one. A decision that overruns the time budget, counted from
the moment it was asked (a wait for a busy worker counts), is answered by a cheaper bot
(``fallback``) at once, and the log says so; the worker finishes an abandoned decision before it
takes another job. Bots are stateless between decisions except for their random
generator, so each decision makes its bot afresh with the seed its table gives it
(`gamelog.bot_seed`: drawn from the table's secret seed and the action's number, never the table's
seed itself): the same table plays the same game wherever and however often it is replayed, on
this pool, on Ray, or after a takeover by another worker (docs/deploy.md).  A decision the
fallback bot makes after an overrun uses the same seed.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import multiprocessing
import os
import threading
import time
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Union

from ..bots import make_bot

if TYPE_CHECKING:
    from .raybots import RayBots
from ..game import SeatView
from ..tournament.runners import usable_cpus

log = logging.getLogger("belot.server")

URGENT, BACKGROUND = 0, 1  # a person is waiting at the table / bots only
QUICK_BOTS = frozenset({"random", "heuristic"})  # a decision in well under a millisecond


FALLBACK = "heuristic"  # decides for a bot that overran its budget or failed: quick, and plays sensibly


def decide(name: str, seed: int, view: SeatView) -> int:
    """One decision of the bot ``name`` (runs in a worker process)."""
    return make_bot(name, seed=seed).act(view)


def _start_worker(server_pid: int, warm: bool) -> None:
    """A worker's first steps: follow the server out, and import the bots once (not at a decision)."""
    # The watchdog first: it keeps the normal priority, so it notices even while the machine is busy.
    threading.Thread(target=_exit_with, args=(server_pid,), name="belot-bot-watchdog", daemon=True).start()
    _below_the_server()
    if warm:
        make_bot("pimc", seed=0)  # imports the bots and builds the solver's tables


def _below_the_server() -> None:
    """Run this worker only on CPU time the server does not want (Linux SCHED_IDLE, else nice 19).

    On a machine with few cores a busy worker took CPU time from the event loop that answers
    everyone: bots can wait (their budget and the fallback bound it), a person should not.
    Threads started from here on (numba's, say) inherit it.
    """
    with contextlib.suppress(OSError, AttributeError):
        os.nice(19)
    with contextlib.suppress(OSError, AttributeError):
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))


def _exit_with(server_pid: int) -> None:
    # A worker holds both ends of its own job queue, so it never sees the server's end close: when
    # the server is killed (SIGKILL, or a shutdown that never reached the pool) it would wait for
    # a job forever, and keep the forkserver and the server's stdout open with it.
    while True:
        time.sleep(1.0)
        try:
            os.kill(server_pid, 0)
        except ProcessLookupError:
            os._exit(0)
        except PermissionError:  # alive, another user's (cannot happen for our parent; be safe)
            continue


def default_workers() -> int:
    """One worker per core, leaving one core to the server itself (at least one)."""
    return max(1, usable_cpus() - 1)


@dataclass(order=True)
class _Job:
    priority: int
    order: int
    name: str = field(compare=False)
    view: SeatView = field(compare=False)
    seed: int = field(compare=False)
    label: str = field(compare=False)
    answer: asyncio.Future[tuple[int, str]] = field(compare=False)


class BotPool:
    """A pool of bot worker processes with a priority queue and a per-decision time budget."""

    def __init__(self, workers: int | None = None, budget: float = 3.0, fallback: str = FALLBACK,
                 warm: bool = True, inline: frozenset[str] = frozenset()) -> None:
        """``inline``: bots so quick (`QUICK_BOTS`: tens of microseconds a decision) that they decide
        in this process at once; the trip to a worker costs more, and a person whose partners are
        quick bots would otherwise wait behind a slow bot's decision of another table."""
        self.workers = workers or default_workers()
        self.inline = inline
        self.budget = budget
        self.fallback = fallback
        self._warm = warm
        self._executor: ProcessPoolExecutor | None = None
        self._queue: asyncio.PriorityQueue[_Job] | None = None
        self._dispatchers: list[asyncio.Task[None]] = []
        self._order = itertools.count()
        self._warming: asyncio.Future[list[object]] | None = None
        self.overruns = 0  # decisions answered by the fallback bot

    def _pool(self) -> ProcessPoolExecutor:
        if self._executor is None:
            # forkserver: the server has threads (SQLite checkpoints), and fork would copy their locks.
            ctx = multiprocessing.get_context("forkserver")
            self._executor = ProcessPoolExecutor(self.workers, mp_context=ctx, initializer=_start_worker,
                                                 initargs=(os.getpid(), self._warm))
        return self._executor

    def start(self) -> None:
        """Start every worker now (the server calls it on start), so that no decision's budget is
        spent starting a process and building the solver's tables; decisions wait for it instead."""
        if self._warming is None:
            pool = self._pool()
            self._warming = asyncio.gather(*(asyncio.wrap_future(pool.submit(os.getpid))
                                             for _ in range(self.workers)), return_exceptions=True)

    def _start(self) -> asyncio.PriorityQueue[_Job]:
        if self._queue is None:
            self._queue = asyncio.PriorityQueue()
            self._dispatchers = [asyncio.get_running_loop().create_task(self._dispatch())
                                 for _ in range(self.workers)]
        return self._queue

    async def decide(self, name: str, view: SeatView, *, seed: int, urgent: bool, label: str = "") -> tuple[int, str]:
        """The action of bot ``name`` made with ``seed`` in ``view``, and the name of the bot that chose it.

        Within the budget, counted from now (or from when the workers have started): a decision
        still waiting for a worker or still thinking when it runs out is answered by the fallback
        bot at once.
        """
        if name.removeprefix("bot:") in self.inline:
            return decide(name, seed, view), name
        queue = self._start()
        if self._warming is not None and not self._warming.done():  # the budget starts with a warm pool
            await asyncio.shield(self._warming)
        loop = asyncio.get_running_loop()
        job = _Job(URGENT if urgent else BACKGROUND, next(self._order), name, view, seed, label, loop.create_future())
        queue.put_nowait(job)
        timer = loop.call_later(self.budget, self._overran, job)
        try:
            return await job.answer
        finally:
            timer.cancel()

    def _overran(self, job: _Job) -> None:
        if job.answer.done():
            return
        self.overruns += 1
        log.warning("%s: bot %s overran its %.1f s budget; %s decided instead",
                    job.label or "a table", job.name, self.budget, self.fallback)
        job.answer.set_result((decide(self.fallback, job.seed, job.view), self.fallback))

    def pending(self) -> int:
        return 0 if self._queue is None else self._queue.qsize()

    async def _dispatch(self) -> None:
        assert self._queue is not None
        if self._warming is not None:
            await self._warming
        while True:
            job = await self._queue.get()
            if job.answer.done():  # answered by the fallback while it waited for a worker (or cancelled)
                continue
            try:
                fut: Future[int] = self._pool().submit(decide, job.name, job.seed, job.view)
            except (BrokenProcessPool, RuntimeError):
                self._executor = None
                fut = self._pool().submit(decide, job.name, job.seed, job.view)
            # Awaited to the end even when the budget answered meanwhile: the worker takes no new job
            # until it has finished the abandoned one.
            try:
                action = await asyncio.wrap_future(fut)
                if not job.answer.done():
                    job.answer.set_result((action, job.name))
                continue
            except BrokenProcessPool:
                self._executor = None
                log.error("%s: the bot worker of %s died; %s decided instead", job.label or "a table",
                          job.name, self.fallback)
            except Exception:
                log.exception("%s: bot %s failed; %s decided instead", job.label or "a table", job.name,
                              self.fallback)
            if not job.answer.done():
                job.answer.set_result((decide(self.fallback, job.seed, job.view), self.fallback))

    async def aclose(self) -> None:
        for t in self._dispatchers:
            t.cancel()
        self._dispatchers = []
        self._queue = None
        self._warming = None
        await asyncio.to_thread(self.close, True)  # workers gone, their semaphores released

    def close(self, wait: bool = False, grace: float = 5.0) -> None:
        """Stop the workers; ``wait``: until they have exited, which is at most the decision under way
        or ``grace`` seconds, after which a worker still busy is terminated. The workers run only on
        CPU time nobody else wants (`_below_the_server`), so on a machine that other programs keep
        busy an unfinished decision could otherwise hold a shutdown for as long as the load lasts."""
        executor, self._executor = self._executor, None
        if executor is None:
            return
        workers = list(executor._processes.values())  # the executor has no public way to stop them
        executor.shutdown(wait=False, cancel_futures=True)
        if not wait:
            return
        deadline = time.monotonic() + grace
        for process in workers:
            process.join(max(0.0, deadline - time.monotonic()))
        for process in workers:
            if process.is_alive():
                log.warning("bot worker %s still busy %.0f s after shutdown; terminated", process.pid, grace)
                process.terminate()
                process.join(1.0)
            if process.is_alive():
                process.kill()
        executor.shutdown(wait=True)  # its thread gone, its semaphores released


class InlineBots:
    """Bot decisions in this process (a thread each), with `BotPool`'s interface: for tests and small
    tools, where starting worker processes costs more than it saves. ``belot serve`` uses the pool."""

    workers = 0
    overruns = 0

    async def decide(self, name: str, view: SeatView, *, seed: int, urgent: bool, label: str = "") -> tuple[int, str]:
        return await asyncio.to_thread(decide, name, seed, view), name

    def pending(self) -> int:
        return 0

    def start(self) -> None:
        return None

    async def aclose(self) -> None:
        return None

    def close(self, wait: bool = False) -> None:
        return None


Bots = Union[BotPool, InlineBots, "RayBots"]  # a forward reference: raybots imports this module
"""Whatever decides the bots' actions of a server (`raybots.RayBots`: on a Ray cluster)."""

__all__ = ["BACKGROUND", "QUICK_BOTS", "URGENT", "BotPool", "Bots", "InlineBots", "decide", "default_workers"]
