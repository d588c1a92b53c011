"""Running many work items (a module-level function and its argument, e.g. `play_match` and a
`MatchSpec`) in this process, a local process pool or a Ray cluster, with the results in order.

Results come back in the order the items were submitted, whoever computed them, so figures never
depend on the number of processes or workers.  A caller may stop early: items submitted beyond
that point are cancelled or their results dropped.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import os
import signal
import threading
from collections import deque
from collections.abc import Callable, Generator, Iterator
from typing import Any


def usable_cpus() -> int:
    """The CPUs this process may run on (a container's or ``taskset``'s share, not the host's count)."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


class _Lazy:
    """Runs in this process when its result is asked for (``jobs=1``)."""

    def __init__(self, fn: Callable[..., Any], arg: Any) -> None:
        self.fn, self.arg = fn, arg

    def result(self) -> Any:
        return self.fn(self.arg)

    def cancel(self) -> None:
        pass


class Runner:
    """Submits work items (a module-level function and its argument) and yields results in order."""

    window: int

    def submit(self, fn: Callable[[Any], Any], arg: Any) -> Any: ...

    def close(self) -> None: ...

    def cancel(self, fut: Any) -> None:
        fut.cancel()

    def result(self, fut: Any) -> Any:
        return fut.result()

    def ordered(self, fn: Callable[[Any], Any], args: Iterator[Any]) -> Generator[Any, None, None]:
        """fn(arg) for each arg, in order, keeping ``window`` items in flight.  The caller may stop
        early: items submitted beyond that point are cancelled (or their results dropped)."""
        queue: deque[Any] = deque()
        try:
            for arg in args:
                queue.append(self.submit(fn, arg))
                if len(queue) >= self.window:
                    yield self.result(queue.popleft())
            while queue:
                yield self.result(queue.popleft())
        finally:
            for fut in queue:
                self.cancel(fut)


class LocalRunner(Runner):
    """``jobs`` worker processes (or this process alone for ``jobs=1``); each worker runs
    ``initializer(*initargs)`` once when it starts (e.g. to load what every item reads)."""

    def __init__(self, jobs: int = 1, initializer: Callable[..., Any] | None = None,
                 initargs: tuple[Any, ...] = ()) -> None:
        self.jobs = jobs
        self.window = 1 if jobs == 1 else 2 * jobs
        self.pool = None
        self._interrupted = False
        if jobs > 1:
            import multiprocessing
            from concurrent.futures import ProcessPoolExecutor

            self.pool = ProcessPoolExecutor(max_workers=jobs, mp_context=multiprocessing.get_context("spawn"),
                                            initializer=_start_worker, initargs=(initializer, initargs))

    def ordered(self, fn: Callable[[Any], Any], args: Iterator[Any]) -> Generator[Any, None, None]:
        """`Runner.ordered`, with Ctrl-C made safe.  A KeyboardInterrupt raised at any instant in
        the main thread could fall inside the pool's own locks (a future's, taken in its result())
        and leave one held: the pool's thread then waited for it forever, and so did Python's exit
        (about one Ctrl-C in a hundred hung).  Meanwhile Ctrl-C only sets a flag, and `result`
        raises KeyboardInterrupt between its waits, holding no lock."""
        if (self.pool is None or threading.current_thread() is not threading.main_thread()
                or signal.getsignal(signal.SIGINT) is not signal.default_int_handler):
            # (a Ctrl-C ignored, as in a shell's background job, or handled by the caller, stays so)
            yield from super().ordered(fn, args)
            return
        self._interrupted = False
        signal.signal(signal.SIGINT, self._note_interrupt)
        try:
            yield from super().ordered(fn, args)
        finally:
            signal.signal(signal.SIGINT, signal.default_int_handler)

    def _note_interrupt(self, signum: int, frame: Any) -> None:
        self._interrupted = True

    def result(self, fut: Any) -> Any:
        if self.pool is None:
            return super().result(fut)
        while True:
            if self._interrupted:
                raise KeyboardInterrupt
            try:
                return fut.result(timeout=0.1)
            except concurrent.futures.TimeoutError:
                pass

    def submit(self, fn: Callable[[Any], Any], arg: Any) -> Any:
        if self.pool is None:
            return _Lazy(fn, arg)
        return self.pool.submit(fn, arg)

    def close(self) -> None:
        """Stop the workers.  Matches still running were submitted beyond the stopping point and
        their results are not wanted: the workers are terminated rather than waited for (a slow
        bot's match can take minutes)."""
        if self.pool is not None:
            procs = list((getattr(self.pool, "_processes", None) or {}).values())
            manager = getattr(self.pool, "_executor_manager_thread", None)  # (shutdown forgets it)
            self.pool.shutdown(wait=False, cancel_futures=True)
            for proc in procs:
                if proc.is_alive():
                    proc.terminate()
            for proc in procs:
                proc.join(timeout=10)
            # The pool's manager thread sees its workers gone and ends; waited for here, since at
            # exit Python wakes it through a pipe it may be closing meanwhile: after a Ctrl-C, one
            # exit in ten printed "Exception ignored ... OSError: [Errno 9] Bad file descriptor".
            if manager is not None:
                manager.join(timeout=10)
            self.pool = None


def _start_worker(initializer: Callable[..., Any] | None, initargs: tuple[Any, ...]) -> None:
    """A worker process ignores Ctrl-C: the terminal sends it to the whole process group, and the
    main process, which stops the run, terminates the workers itself (each printed its traceback).
    Then the caller's initializer, if any."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if initializer is not None:
        initializer(*initargs)


class RayUnavailable(RuntimeError):
    pass


class RayRunner(Runner):
    """Tasks on a Ray cluster: ``address`` None starts a local Ray with ``jobs`` CPUs."""

    def __init__(self, address: str | None = None, jobs: int = 1) -> None:
        try:
            import ray
        except ImportError:
            raise RayUnavailable(
                "Ray is not installed: install the optional extra with  pip install 'belot[ray]'"
            ) from None
        self.ray = ray
        self.started = False
        if address is not None:
            _check_reachable(address)
        if not ray.is_initialized():
            kwargs: dict[str, Any] = {"include_dashboard": False, "logging_level": "ERROR", "log_to_driver": False}
            if address is None:
                kwargs["num_cpus"] = jobs
            else:
                kwargs["address"] = address
            try:
                ray.init(**kwargs)
            except Exception as e:
                raise RayUnavailable(f"cannot start or reach Ray{'' if address is None else ' at ' + address}: {e}") from None
            self.started = True
        cpus = int(ray.cluster_resources().get("CPU", jobs)) or 1
        self.window = 2 * cpus
        self._remote = ray.remote(num_cpus=1)(_call)

    def submit(self, fn: Callable[[Any], Any], arg: Any) -> Any:
        return _RayFuture(self.ray, self._remote.remote(fn, arg))

    def cancel(self, fut: Any) -> None:
        with contextlib.suppress(Exception):  # a finished task cannot be cancelled; nothing to do
            self.ray.cancel(fut.ref)

    def close(self) -> None:
        if self.started:
            self.ray.shutdown()


def _check_reachable(address: str, timeout: float = 5.0) -> None:
    """Fail fast on a cluster address nobody answers at (ray.init would retry for minutes)."""
    import socket

    hostport = address.removeprefix("ray://")
    if hostport == "auto":
        return
    host, sep, port = hostport.rpartition(":")
    if not sep or not (port.isascii() and port.isdigit()):  # "²" is a digit to isdigit, not to int
        raise RayUnavailable(f"Ray address {address!r} is not HOST:PORT, ray://HOST:PORT or auto")
    try:
        socket.create_connection((host, int(port)), timeout=timeout).close()
    except OSError as e:
        raise RayUnavailable(f"cannot reach Ray at {address}: {e.strerror or e}") from None


def _call(fn: Callable[[Any], Any], arg: Any) -> Any:
    return fn(arg)


class _RayFuture:
    def __init__(self, ray: Any, ref: Any) -> None:
        self.ray, self.ref = ray, ref

    def result(self) -> Any:
        return self.ray.get(self.ref)


def make_runner(jobs: int = 1, ray: str | bool | None = False) -> Runner:
    """A local runner, or with ``ray`` (True/"local" for a local Ray, or an address) a Ray one."""
    if ray is False:
        return LocalRunner(jobs)
    address = None if ray in (True, None, "local", "") else str(ray)
    return RayRunner(address, jobs)
