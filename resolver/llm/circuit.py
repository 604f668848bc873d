"""The primary LLM endpoint's circuit: closed (calls go to it), open (calls go to the
fallback for a cool-down), half-open (one probe call tries the primary again).

It opens when a call's retries are exhausted, or after `failures` failed attempts in a row
(5xx, timeouts, connection errors; a 429 is the gateway pacing us, not a failure). After
`cool_down_s` the next call probes the primary while the others keep using the fallback; the
probe's success closes the circuit, its failure opens it for another cool-down.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, Literal

import structlog

State = Literal["closed", "open", "half_open"]
STATE_VALUES: dict[State, int] = {"closed": 0, "half_open": 1, "open": 2}

log = structlog.get_logger("resolver.llm")


class Circuit:
    """One endpoint's circuit breaker (per process)."""

    def __init__(
        self,
        name: str,
        *,
        failures: int,
        cool_down_s: float,
        clock: Callable[[], float] = time.monotonic,
        on_change: Callable[[str, State], None] | None = None,
    ) -> None:
        self.name = name
        self._threshold = failures
        self._cool_down_s = cool_down_s
        self._clock = clock
        self._on_change = on_change
        self._state: State = "closed"
        self._consecutive = 0
        self._opened_at = 0.0
        self._probing = False
        self.opened = 0

    @property
    def state(self) -> State:
        """The state now (an open circuit past its cool-down reads as half-open)."""
        if self._state == "open" and self._clock() - self._opened_at >= self._cool_down_s:
            self._move("half_open")
        return self._state

    def admit(self) -> bool:
        """Whether this call may go to the endpoint; in half-open, only one probe at a time."""
        state = self.state
        if state == "closed":
            return True
        if state == "half_open" and not self._probing:
            self._probing = True
            return True
        return False

    def attempt_failed(self) -> None:
        """One attempt failed (5xx, timeout, connection): N in a row open the circuit."""
        self._consecutive += 1
        if self._consecutive >= self._threshold and self._state == "closed":
            self._open(f"{self._consecutive} failed attempts in a row")

    def call_failed(self, reason: str) -> None:
        """A call failed after its retries (or the half-open probe failed): open."""
        self._probing = False
        if self._state != "open":
            self._open(reason)

    def call_succeeded(self) -> None:
        """A call went through: the failure count restarts, a probe closes the circuit."""
        self._consecutive = 0
        self._probing = False
        if self._state != "closed":
            self._move("closed")
            log.info("llm.circuit_closed", endpoint=self.name)

    def release_probe(self) -> None:
        """The probe ended without a verdict (cancelled, or a 4xx that says nothing)."""
        self._probing = False

    def _open(self, reason: str) -> None:
        self._opened_at = self._clock()
        self.opened += 1
        self._move("open")
        log.warning(
            "llm.circuit_opened", endpoint=self.name, reason=reason, cool_down_s=self._cool_down_s
        )

    def _move(self, state: State) -> None:
        self._state = state
        if state == "open":
            self._probing = False
        if self._on_change is not None:
            self._on_change(self.name, state)

    def snapshot(self) -> dict[str, Any]:
        """What `/readyz` shows."""
        state = self.state
        shown: dict[str, Any] = {"state": state, "times_opened": self.opened}
        if state == "open":
            left = self._cool_down_s - (self._clock() - self._opened_at)
            shown["retry_primary_in_s"] = round(max(0.0, left), 1)
        return shown
