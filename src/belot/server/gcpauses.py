"""Short garbage-collector pauses for a server holding thousands of connections.

CPython's full collection walks every tracked object, and stops the event loop meanwhile: with
2,000 websockets and 500 tables a worker holds half a million objects, and a full collection took
100-430 ms, every few seconds under load (bench/server_workers.py), which every player waiting
for an answer felt.  Most of those objects live as long as their table or connection.  So after
each full collection its survivors are frozen (`gc.freeze`: moved where collections do not look),
and the next full collection walks only what was kept since.  Cyclic garbage among frozen objects
is not collected until `unfreeze`, which runs every ``period`` seconds and lets the next full
collection walk everything once; reference counting frees everything else as before.
"""

from __future__ import annotations

import asyncio
import gc


async def keep_gc_pauses_short(period: float = 600.0, check: float = 1.0) -> None:
    """Run for the server's lifetime (cancel to stop); see the module docstring."""
    gc.collect()
    gc.freeze()  # what the server built to start: modules, tables, restored games
    seen = gc.get_stats()[2]["collections"]
    since_unfreeze = 0.0
    try:
        while True:
            await asyncio.sleep(check)
            since_unfreeze += check
            if since_unfreeze >= period:
                gc.unfreeze()
                since_unfreeze = 0.0
                seen = gc.get_stats()[2]["collections"]
                continue
            full = gc.get_stats()[2]["collections"]
            if full != seen:  # a full collection ran: what it kept is long-lived
                seen = full
                gc.freeze()
    finally:
        gc.unfreeze()


__all__ = ["keep_gc_pauses_short"]
