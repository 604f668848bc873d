"""The process's place in its life: serving, stopping after SIGTERM, draining, cut.

SIGTERM makes the process *stopping*: `/readyz` answers 503 at once so that load balancers take
it out of rotation, while the listener still accepts for `RESOLVER_DRAIN_S`. Then it is
*draining*: work already under way finishes, but nothing is started that could outlive the
shutdown grace period: no transport retry and no repair round begins. At the end of the grace
period the requests still in flight are *cut*: each is answered 503 `SHUTTING_DOWN`.

One object per application, shared by the LLM client, the request middleware (which registers
every request's task here) and whatever answers `/readyz`.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any


class Lifecycle:
    """Serving until `begin_stopping`; then stopping, draining, and at last cutting, for good."""

    def __init__(self) -> None:
        self._stopping_since: float | None = None
        self._draining_since: float | None = None
        self._requests: set[asyncio.Task[Any]] = set()
        self._cut: set[asyncio.Task[Any]] = set()

    @property
    def stopping(self) -> bool:
        """Whether SIGTERM has arrived (the process is no longer ready)."""
        return self._stopping_since is not None

    @property
    def draining(self) -> bool:
        """Whether shutdown has begun."""
        return self._draining_since is not None

    @property
    def draining_since(self) -> float | None:
        """When shutdown began (`time.monotonic()`), or None."""
        return self._draining_since

    def begin_stopping(self) -> None:
        """SIGTERM arrived: answer not-ready, keep serving until draining begins."""
        if self._stopping_since is None:
            self._stopping_since = time.monotonic()

    def begin_draining(self) -> None:
        """Shutdown has begun: stop starting new retries and repair rounds."""
        self.begin_stopping()
        if self._draining_since is None:
            self._draining_since = time.monotonic()

    # The request middleware registers each request's task, so that the grace deadline can
    # answer the ones still running instead of dropping their connections.

    @property
    def in_flight(self) -> int:
        """Requests being handled now."""
        return len(self._requests)

    def track(self, task: asyncio.Task[Any]) -> None:
        """A request started on this task."""
        self._requests.add(task)

    def untrack(self, task: asyncio.Task[Any]) -> None:
        """The request on this task is answered."""
        self._requests.discard(task)
        self._cut.discard(task)

    def cut_requests(self) -> int:
        """The grace period is over: cancel every request still in flight; how many there were."""
        self.begin_draining()
        for task in self._requests:
            if task not in self._cut:
                self._cut.add(task)
                task.cancel()
        return len(self._cut)

    def was_cut(self, task: asyncio.Task[Any]) -> bool:
        """Whether this request's cancellation came from `cut_requests`."""
        return task in self._cut
