"""The fan-out: run one coroutine per property, at most N at once, results in request order."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from typing import TypeVar

T = TypeVar("T")
R = TypeVar("R")


async def fan_out(jobs: Sequence[T], worker: Callable[[T], Awaitable[R]], *, limit: int) -> list[R]:
    """Run `worker` over `jobs` with at most `limit` in flight, keeping job order.

    Workers report per-property failures in their results so every property is attempted;
    an exception that escapes a worker (overload, cancellation) cancels the siblings and
    propagates unwrapped.
    """
    if not jobs:
        return []
    if len(jobs) == 1:
        return [await worker(jobs[0])]
    semaphore = asyncio.Semaphore(limit)

    async def guarded(job: T) -> R:
        async with semaphore:
            return await worker(job)

    try:
        async with asyncio.TaskGroup() as group:
            tasks = [group.create_task(guarded(job)) for job in jobs]
    except BaseExceptionGroup as group_error:
        raise group_error.exceptions[0] from None
    return [task.result() for task in tasks]
