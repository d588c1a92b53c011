"""Bot decisions on a Ray cluster (``belot serve --bots ray[=ADDRESS]``), with `botpool.BotPool`'s
interface, so that the bots of many workers share one pool of machines.

A decision is one Ray task (`botpool.decide`: the bot made afresh with the seed its table gives it,
given only the seat's view), so a seeded decision is the same on Ray as on the local pool.  Quick bots decide in this process, as with the local pool.  A decision that
overruns the budget, or that Ray fails, is answered by the fallback bot here at once.  When no
cluster can be reached at start, `connect` says why and ``belot serve`` uses the local pool.
"""

from __future__ import annotations

import asyncio
import logging
import socket
from typing import Any

from ..game import SeatView
from .botpool import decide

log = logging.getLogger("belot.server")


class RayUnavailable(RuntimeError):
    """No Ray cluster at the address (or Ray is not installed)."""


def connect(address: str | None) -> None:
    """Join the Ray cluster at ``address`` (``host:port`` of its head; None: the cluster this
    machine belongs to, ``ray start --head``); RayUnavailable when there is none."""
    try:
        import ray
    except ImportError as e:
        raise RayUnavailable("Ray is not installed (pip install 'belot[ray]')") from e
    if ray.is_initialized():
        return
    if address is not None and not address.startswith("ray://"):
        host, _, port = address.rpartition(":")
        try:  # ray.init retries an unreachable address for a long time: ask the socket first
            socket.create_connection((host or "127.0.0.1", int(port)), timeout=3).close()
        except (OSError, ValueError) as e:
            raise RayUnavailable(f"no Ray cluster at {address}: {e}") from None
    try:
        ray.init(address=address or "auto", logging_level=logging.WARNING, log_to_driver=False)
    except (ConnectionError, RuntimeError, ValueError) as e:
        raise RayUnavailable(f"no Ray cluster at {address or 'auto'}: {str(e).splitlines()[0]}") from None


class RayBots:
    """Bot decisions as Ray tasks, each within ``budget`` seconds (then ``fallback`` decides here)."""

    workers = 0

    def __init__(self, budget: float = 3.0, fallback: str = "heuristic", inline: frozenset[str] = frozenset()) -> None:
        import ray

        self.budget = budget
        self.fallback = fallback
        self.inline = inline
        self.overruns = 0
        self._remote: Any = ray.remote(decide)
        self._pending = 0

    def start(self) -> None:
        return None

    def pending(self) -> int:
        return self._pending

    async def decide(self, name: str, view: SeatView, *, seed: int, urgent: bool, label: str = "") -> tuple[int, str]:
        if name.removeprefix("bot:") in self.inline:
            return decide(name, seed, view), name
        self._pending += 1
        try:
            ref = self._remote.remote(name, seed, view)
            return await asyncio.wait_for(asyncio.wrap_future(ref.future()), self.budget), name
        except TimeoutError:
            self.overruns += 1
            log.warning("%s: bot %s overran its %.1f s budget on Ray; %s decided instead", label or "a table",
                        name, self.budget, self.fallback)
        except Exception as e:  # the cluster or the task failed: the table plays on
            log.error("%s: bot %s failed on Ray (%s); %s decided instead", label or "a table", name, e, self.fallback)
        finally:
            self._pending -= 1
        return decide(self.fallback, seed, view), self.fallback

    async def aclose(self) -> None:
        return None

    def close(self, wait: bool = False) -> None:
        import ray

        if ray.is_initialized():
            ray.shutdown()


__all__ = ["RayBots", "RayUnavailable", "connect"]
