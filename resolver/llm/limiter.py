"""Limits on LLM calls: the `CallLimiter` seam the client asks before every call start, and
`LLMLimiter`, its per-process implementation (in-flight cap, optional QPS pacing, bounded
waiting). A limiter shared by several processes implements the same protocol."""

from __future__ import annotations

import asyncio
import time
from contextlib import AbstractAsyncContextManager
from typing import Any, Protocol

from resolver.core.errors import Overloaded

# A gateway counts calls when they arrive, not when we pace them: a call that leaves late
# (event-loop lag under a burst, the process descheduled for tens of ms) lets the window
# that starts with it see N + 1. Pacing 10% slower than the limit absorbs ~100 ms of such
# lag per second of window (`python -m benchmarks run gateway`).
PACING_MARGIN = 1.10


class CallLimiter(Protocol):
    """What the LLM client needs of a limiter: one slot per call attempt, and a place to report
    a gateway's `Retry-After` so that later call starts wait it out."""

    @property
    def inflight(self) -> int:
        """Calls of this process holding a slot now."""

    @property
    def pending(self) -> int:
        """Calls of this process waiting for a slot now."""

    def slot(self) -> AbstractAsyncContextManager[None]:
        """Hold one call slot for the duration of one attempt; raise `Overloaded` (503) when
        too many calls already wait."""

    async def cool_down(self, seconds: float) -> None:
        """The gateway answered 429 with `Retry-After: seconds` (already capped)."""

    def state(self) -> dict[str, Any]:
        """What `/readyz` shows of the limiter."""


class _Slot:
    """One slot of an `LLMLimiter`, held for the `async with` block (a plain class: the
    generator-based context manager cost twice as much per call)."""

    __slots__ = ("_limiter",)

    def __init__(self, limiter: LLMLimiter) -> None:
        self._limiter = limiter

    async def __aenter__(self) -> None:
        await self._limiter._enter()

    async def __aexit__(self, *exc_info: object) -> None:
        self._limiter._leave()


class LLMLimiter:
    """Shared by every request of the process: at most `max_inflight` calls at once, at most
    `qps` call starts per second, and at most `max_pending` calls waiting for a slot."""

    def __init__(self, *, max_inflight: int, qps: float | None, max_pending: int) -> None:
        self._slots = asyncio.Semaphore(max_inflight)
        self._max_inflight = max_inflight
        self._interval = PACING_MARGIN / qps if qps else 0.0
        self._next_start = 0.0
        self._max_pending = max_pending
        self._pending = 0
        self._inflight = 0

    @property
    def inflight(self) -> int:
        """Calls holding a slot now."""
        return self._inflight

    @property
    def pending(self) -> int:
        """Calls waiting for a slot now."""
        return self._pending

    @property
    def max_inflight(self) -> int:
        """The cap on calls holding a slot at once."""
        return self._max_inflight

    def slot(self) -> AbstractAsyncContextManager[None]:
        """Hold one call slot; raise Overloaded at once when too many calls already wait."""
        return _Slot(self)

    async def _enter(self) -> None:
        if self._slots.locked() and self._pending >= self._max_pending:
            raise Overloaded(
                f"{self._pending} LLM calls are already waiting for a slot; retry shortly",
                retry_after_s=1,
            )
        self._pending += 1
        try:
            await self._slots.acquire()
        finally:
            self._pending -= 1
        self._inflight += 1
        if self._interval:
            try:
                await self._pace()
            except BaseException:
                self._leave()
                raise

    def _leave(self) -> None:
        self._inflight -= 1
        self._slots.release()

    async def _pace(self) -> None:
        # A start is claimed only when it happens, never booked ahead: a waiter abandoned at
        # its request's deadline must not leave a booked turn that delays every later call.
        while self._interval:
            now = time.monotonic()
            if now >= self._next_start:
                self._next_start = now + self._interval
                return
            await asyncio.sleep(self._next_start - now)

    async def cool_down(self, seconds: float) -> None:
        """Per process, the retry that follows a 429 already waits its Retry-After; no call
        start is held back beyond that."""

    def state(self) -> dict[str, Any]:
        """The per-process limits and their use now."""
        return {
            "kind": "local",
            "inflight": self._inflight,
            "pending": self._pending,
            "qps": round(PACING_MARGIN / self._interval, 3) if self._interval else None,
            "max_inflight": self._max_inflight,
        }
