"""CPU-heavy pure work off the event loop: a small pool of worker threads, one per process.

Converting a hostile tool schema or encoding a large answer as TOON is pure Python that can
run for a second; on the event loop that second is every other request's too (`/healthz`
included). `Offload.run` hands such work to a bounded pool: the loop keeps serving, since a
busy thread yields the interpreter every few milliseconds. The work itself is bounded where
it is defined (a node budget, a size limit), so a thread is never held for long.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
T = TypeVar("T")

# Two threads: enough to keep a burst moving, few enough that the event loop never competes
# with many busy threads for the interpreter.
WORKERS = 2


class Offload:
    """A bounded pool of worker threads for pure CPU work; `close` on shutdown."""

    def __init__(self, workers: int = WORKERS) -> None:
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="resolver-cpu")
        # Every thread started now, at start-up: the pool starts one at a submit that finds
        # none idle, and `Thread.start` waits until the new thread runs, which, when that
        # thread goes straight to pure-Python work holding the interpreter, held the event
        # loop for a switch interval or more (70 ms under load, the first large context).
        # Each task waits for the others, so no thread is idle when the next is submitted.
        started = threading.Barrier(workers)
        for _ in range(workers):
            self._pool.submit(started.wait, timeout=10.0)

    async def run(self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> T:
        """`fn(*args, **kwargs)` on a worker thread (with this task's context: its log
        fields); the caller waits without blocking the loop."""
        loop = asyncio.get_running_loop()
        context = contextvars.copy_context()
        call = functools.partial(context.run, fn, *args, **kwargs)
        return await loop.run_in_executor(self._pool, call)

    def close(self) -> None:
        """Stop taking work; work already running finishes on its own (it is bounded)."""
        self._pool.shutdown(wait=False, cancel_futures=True)
