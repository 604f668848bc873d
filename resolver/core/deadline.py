"""One request, one deadline: `RESOLVER_REQUEST_TIMEOUT_S` counted once, from the moment the
request's head has been read until its answer, across every phase (body, upstream calls, LLM).

A phase never waits longer than what is left: each upstream or LLM call takes the smaller of
its own timeout and `remaining()`. When the time is up, the phase that was running names
itself in the error (docs/reliability.md lists which error each phase gives).
"""

from __future__ import annotations

import time

from resolver.core.records import record


@record
class Deadline:
    """A point on the monotonic clock (`time.monotonic()`) and the budget it came from."""

    at: float
    budget_s: float

    @classmethod
    def after(cls, budget_s: float) -> Deadline:
        """The deadline `budget_s` seconds from now."""
        return cls(time.monotonic() + budget_s, budget_s)

    def remaining(self) -> float:
        """Seconds left, never negative."""
        return max(0.0, self.at - time.monotonic())

    def expired(self) -> bool:
        """Whether no time is left."""
        return time.monotonic() >= self.at

    def cap(self, timeout_s: float | None) -> tuple[float, bool]:
        """The timeout to use for one call and whether the deadline (not `timeout_s`) sets it."""
        left = self.remaining()
        if timeout_s is None or left < timeout_s:
            return left, True
        return timeout_s, False
