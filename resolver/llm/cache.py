"""The LLM result cache: identical requests (model, messages, schema) within a TTL make one
call, and identical calls in flight at the same time share one (single-flight).

Storage sits behind `CacheBackend` (async get/set/delete of bytes with a TTL), so a store
shared by several processes (Redis) plugs in beside the in-process `LruBackend`.
Single-flight is per process: calls of other processes meet only in the shared store.
"""

from __future__ import annotations

import asyncio
import hashlib
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Any, Protocol, TypeVar

import orjson

T = TypeVar("T")


class CacheBackend(Protocol):
    """Where cached LLM results live; values are opaque bytes, keys short hex strings."""

    async def get(self, key: str) -> bytes | None:
        """The value stored under `key` while fresh, else None."""

    async def set(self, key: str, value: bytes, ttl_s: float) -> None:
        """Store `value` under `key` for `ttl_s` seconds."""

    async def delete(self, key: str) -> None:
        """Forget `key` (an answer that turned out unusable)."""


class LruBackend:
    """In-process: at most `max_entries` values, least recently used dropped first."""

    def __init__(self, *, max_entries: int, clock: Callable[[], float] = time.monotonic) -> None:
        self._max_entries = max_entries
        self._clock = clock
        self._entries: OrderedDict[str, tuple[float, bytes]] = OrderedDict()

    def __len__(self) -> int:
        return len(self._entries)

    async def get(self, key: str) -> bytes | None:
        """The fresh value, refreshed as most recently used; a stale one is dropped."""
        entry = self._entries.get(key)
        if entry is None:
            return None
        if entry[0] <= self._clock():
            del self._entries[key]
            return None
        self._entries.move_to_end(key)
        return entry[1]

    async def set(self, key: str, value: bytes, ttl_s: float) -> None:
        """Store, evicting the least recently used beyond the bound."""
        self._entries[key] = (self._clock() + ttl_s, value)
        self._entries.move_to_end(key)
        while len(self._entries) > self._max_entries:
            self._entries.popitem(last=False)

    async def delete(self, key: str) -> None:
        """Forget `key`."""
        self._entries.pop(key, None)


def request_key(model: str, body: dict[str, Any]) -> str:
    """The cache key of one chat-completions request: everything that shapes the answer."""
    digest = hashlib.sha256(orjson.dumps([model, body], option=orjson.OPT_SORT_KEYS))
    return digest.hexdigest()


class SingleFlight:
    """Identical calls in flight share one: the first starts it as a task of its own, the
    rest wait on it. A caller that leaves (its request cancelled) does not cancel the call
    for the others; when every caller has left, the call is cancelled.

    The shared call runs under its first caller's deadline. A later caller with more time
    left does not inherit that deadline: when the shared call ends in one of the `expired`
    errors (it ran out of its owner's time) or is cancelled without this caller being
    cancelled, this caller makes its own call, within its own deadline.
    """

    def __init__(self) -> None:
        self._calls: dict[str, _Flight] = {}

    def __len__(self) -> int:
        return len(self._calls)

    def __contains__(self, key: object) -> bool:
        return key in self._calls

    async def run(
        self,
        key: str,
        call: Callable[[], Awaitable[T]],
        *,
        deadline: float = float("inf"),
        expired: tuple[type[BaseException], ...] = (),
    ) -> tuple[T, bool]:
        """`(result, shared)`: `shared` when another caller had already started the call.

        `deadline` is this caller's (`time.monotonic()`), which its call runs under.
        """
        flight = self._calls.get(key)
        if flight is None:
            return await self._wait(self._start(key, call, deadline)), False
        try:
            return await self._wait(flight), True
        except asyncio.CancelledError:
            task = asyncio.current_task()
            if not flight.task.cancelled() or (task is not None and task.cancelling()):
                raise  # this caller was cancelled, not only the call it joined
        except expired:
            if flight.deadline >= deadline:
                raise  # the owner had as much time as this caller: no better luck alone
        # Its own call, shared with whoever joins it from now on.
        return await self._wait(self._start(key, call, deadline)), False

    def _start(self, key: str, call: Callable[[], Awaitable[Any]], deadline: float) -> _Flight:
        task: asyncio.Task[Any] = asyncio.ensure_future(call())
        flight = _Flight(task, deadline)
        self._calls[key] = flight
        task.add_done_callback(lambda _: self._done(key, flight))
        return flight

    async def _wait(self, flight: _Flight) -> Any:
        flight.waiters += 1
        try:
            result = await asyncio.shield(flight.task)
        except asyncio.CancelledError:
            flight.waiters -= 1
            if flight.waiters == 0 and not flight.task.done():
                flight.task.cancel()
            raise
        except BaseException:
            flight.waiters -= 1
            raise
        flight.waiters -= 1
        return result

    def _done(self, key: str, flight: _Flight) -> None:
        if self._calls.get(key) is flight:
            del self._calls[key]
        # A failure whose callers all left is not "never retrieved".
        if not flight.task.cancelled():
            flight.task.exception()


class _Flight:
    """One shared call: its task, its owner's deadline and how many callers wait on it."""

    __slots__ = ("deadline", "task", "waiters")

    def __init__(self, task: asyncio.Task[Any], deadline: float) -> None:
        self.task = task
        self.deadline = deadline
        self.waiters = 0
