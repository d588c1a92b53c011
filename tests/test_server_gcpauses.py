"""server/gcpauses.py: survivors of a full collection are frozen, and everything is unfrozen
every period (so cyclic garbage among them is collected in the end)."""

from __future__ import annotations

import asyncio
import gc

from belot.server.gcpauses import keep_gc_pauses_short


def test_survivors_of_a_full_collection_are_frozen_then_unfrozen_every_period() -> None:
    async def scenario() -> tuple[int, int, int, int, bool, bool]:
        task = asyncio.get_running_loop().create_task(keep_gc_pauses_short(period=0.5, check=0.05))
        await asyncio.sleep(0.01)
        at_start = gc.get_freeze_count()  # what the server built to start
        kept = [[i] for i in range(20_000)]  # long-lived objects made after the start
        gc.collect()  # a full collection: its survivors get frozen at the next check
        await asyncio.sleep(0.15)
        after_full = gc.get_freeze_count()
        frozen = not collected(kept[0])
        await asyncio.sleep(0.5)  # a period: everything unfrozen
        after_period = gc.get_freeze_count()
        unfrozen = collected(kept[0])
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        assert len(kept) == 20_000
        return at_start, after_full, after_period, gc.get_freeze_count(), frozen, unfrozen

    at_start, after_full, after_period, stopped, frozen, unfrozen = asyncio.run(scenario())
    # The kept lists left the collected generations at the check after the full collection, and came
    # back at the period's unfreeze. (The counts move by the 20,001 kept objects less any frozen ones
    # that reference counting freed meanwhile: other threads of the test process, so not exactly.)
    assert frozen and unfrozen
    assert at_start > 0 and after_full >= at_start + 15_000
    assert after_period < after_full and stopped == 0


def collected(obj: object) -> bool:
    """Whether a collection may look at ``obj``: it is in one of the three generations, not frozen."""
    return any(o is obj for gen in range(3) for o in gc.get_objects(gen))
