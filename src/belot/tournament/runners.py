"""Running many work items (a module-level function and its argument, e.g. `play_match` and a
`MatchSpec`) in this process, a local process pool or a Ray cluster, with the results in order.

Results come back in the order the items were submitted, whoever computed them, so figures never
depend on the number of processes or workers.  A caller may stop early: items submitted beyond
that point are cancelled or their results dropped.
"""

from __future__ import annotations

import contextlib
import os
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

    def ordered(self, fn: Callable[[Any], Any], args: Iterator[Any]) -> Generator[Any, None, None]:
        """fn(arg) for each arg, in order, keeping ``window`` items in flight.  The caller may stop
        early: items submitted beyond that point are cancelled (or their results dropped)."""
        queue: deque[Any] = deque()
        try:
            for arg in args:
                queue.append(self.submit(fn, arg))
                if len(queue) >= self.window:
                    yield queue.popleft().result()
            while queue:
                yield queue.popleft().result()
        finally:
            for fut in queue:
                self.cancel(fut)


class LocalRunner(Runner):
    """``jobs`` worker processes (or this process alone for ``jobs=1``)."""

    def __init__(self, jobs: int = 1) -> None:
        self.jobs = jobs
        self.window = 1 if jobs == 1 else 2 * jobs
        self.pool = None
        if jobs > 1:
            import multiprocessing
            from concurrent.futures import ProcessPoolExecutor

            self.pool = ProcessPoolExecutor(max_workers=jobs, mp_context=multiprocessing.get_context("spawn"))

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
            self.pool.shutdown(wait=False, cancel_futures=True)
            for proc in procs:
                if proc.is_alive():
                    proc.terminate()
            for proc in procs:
                proc.join(timeout=10)
            self.pool = None


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
    if not sep or not port.isdigit():
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
