"""The offload pool's threads start with it, not at the first piece of work: starting a thread
waits until it runs, which on the event loop, beside a thread already busy with pure Python,
held the loop for a switch interval or more (issue 30's cost bomb, 70 ms under load)."""

from __future__ import annotations

import asyncio
import threading
import time

from resolver.core.offload import WORKERS, Offload


def _pool_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name.startswith("resolver-cpu")]


async def test_every_thread_starts_with_the_pool() -> None:
    before = set(_pool_threads())
    offload = Offload()
    try:
        deadline = time.monotonic() + 10
        while len(set(_pool_threads()) - before) < WORKERS:
            assert time.monotonic() < deadline, "the pool's threads did not start"
            await asyncio.sleep(0.01)
        # And they serve work as before.
        assert await offload.run(sum, [1, 2, 3]) == 6
    finally:
        offload.close()
