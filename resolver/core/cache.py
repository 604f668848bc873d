"""A small async cache: values kept for a TTL each, LRU-bounded, one fetch per key at a time.

Serves the operator-schema cache of the pipeline endpoint and the MCP tool cache of action
recall: both fetch a document from agent-operator-integration that rarely changes.
"""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable
from typing import Generic, TypeVar

from resolver.core.deadline import Deadline

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class TtlCache(Generic[K, V]):
    """`get(key, fetch, ttl_of)`: the fresh cached value, else the value of one shared fetch.

    A fetch runs as a task of its own, so one caller's cancellation does not cancel the
    others' wait; a fetch that raises is never cached; `ttl_of(value) <= 0` keeps a value out.
    """

    def __init__(
        self, *, max_entries: int = 1024, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self._max_entries = max_entries
        self._clock = clock
        self._entries: OrderedDict[K, tuple[float, V]] = OrderedDict()
        self._inflight: dict[K, asyncio.Future[V]] = {}

    def _fresh(self, key: K) -> tuple[float, V] | None:
        """The `(expires_at, value)` entry while fresh; a stale one is dropped."""
        entry = self._entries.get(key)
        if entry is not None and entry[0] <= self._clock():
            del self._entries[key]
            return None
        return entry

    async def get(
        self, key: K, fetch: Callable[[], Awaitable[V]], ttl_of: Callable[[V], float]
    ) -> tuple[V, bool]:
        """`(value, from_cache)`; raises what the fetch raised."""
        entry = self._fresh(key)
        if entry is not None:
            return entry[1], True
        task = self._inflight.get(key)
        if task is None:
            task = asyncio.ensure_future(fetch())
            self._inflight[key] = task
            task.add_done_callback(lambda done: self._settle(key, done, ttl_of))
        return await asyncio.shield(task), False

    async def get_within(
        self,
        deadline: Deadline | None,
        key: K,
        fetch: Callable[[], Awaitable[V]],
        ttl_of: Callable[[V], float],
    ) -> tuple[V, bool]:
        """`get`, waited for no longer than a request's deadline allows (then TimeoutError).

        The fetch is shared by every request waiting for this key, so it runs on under its
        own timeout (give it no deadline); each request waits only as long as its own allows.
        """
        async with asyncio.timeout(deadline.remaining() if deadline is not None else None):
            return await self.get(key, fetch, ttl_of)

    def _settle(self, key: K, task: asyncio.Future[V], ttl_of: Callable[[V], float]) -> None:
        self._inflight.pop(key, None)
        # Retrieving the exception keeps a failure whose waiters all left from being reported
        # as "never retrieved".
        if task.cancelled() or task.exception() is not None:
            return
        value = task.result()
        ttl = ttl_of(value)
        if ttl <= 0:
            return
        self._entries[key] = (self._clock() + ttl, value)
        self._entries.move_to_end(key)
        while len(self._entries) > self._max_entries:
            self._entries.popitem(last=False)
