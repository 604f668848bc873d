"""The transport retries of one call to one endpoint: tenacity as the only retry layer.

429, 5xx, timeouts and connection errors are retried, invisibly to the caller: at most
`llm_max_attempts` attempts, 100 ms → 200 ms backoff with jitter, `Retry-After` /
`retry-after-ms` honoured up to a cap, never past the request deadline, none once shutdown has
begun or the endpoint's circuit opened. A call whose first attempt succeeds never enters
tenacity: the first failure worth retrying is handed to it as its own first attempt. The SDK's
own retries are off. What is left of a failure is translated here into the service's errors
(`LLMUnavailable`, `LLMTimeout`, `LLMOutputInvalid`), so nothing above this package imports
openai.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace

import structlog
from tenacity import (
    AsyncRetrying,
    RetryCallState,
    retry_if_exception_type,
    stop_after_attempt,
    wait_exponential_jitter,
)
from tenacity.stop import stop_base
from tenacity.wait import wait_base

from resolver.core.errors import LLMOutputInvalid, LLMTimeout, LLMUnavailable
from resolver.llm.circuit import Circuit
from resolver.llm.completion import BadOutput, Completion
from resolver.llm.endpoint import CIRCUIT_FAILURES, AttemptFailed, Endpoint, Retryable, outcome
from resolver.llm.limiter import CallLimiter

log = structlog.get_logger("resolver.llm")

# 100 ms, then 200 ms, each plus up to 50 ms of jitter.
_backoff = wait_exponential_jitter(multiplier=0.1, exp_base=2, max=0.25, jitter=0.05)

Observe = Callable[[str, float], None]


class _WaitRetryAfterOrBackoff(wait_base):
    """Honour the server's Retry-After (capped); otherwise exponential backoff with jitter."""

    def __init__(self, cap_s: float) -> None:
        self._cap_s = cap_s

    def __call__(self, retry_state: RetryCallState) -> float:
        outcome = retry_state.outcome
        failure = outcome.exception() if outcome is not None else None
        if isinstance(failure, AttemptFailed) and failure.retry_after_s is not None:
            return min(failure.retry_after_s, self._cap_s)
        return float(_backoff(retry_state))


class _StopWhen(stop_base):
    """Stop retrying once a condition holds: shutdown has begun (a retry could outlive the
    grace period), or the endpoint's circuit opened (the fallback takes over)."""

    def __init__(self, conditions: Sequence[Callable[[], bool]]) -> None:
        self._conditions = conditions

    def __call__(self, retry_state: RetryCallState) -> bool:
        return any(condition() for condition in self._conditions)


class _StopAtDeadline(stop_base):
    """Stop when the next attempt would start after the request deadline."""

    def __init__(self, deadline: float) -> None:
        self._deadline = deadline

    def __call__(self, retry_state: RetryCallState) -> bool:
        return time.monotonic() + (retry_state.upcoming_sleep or 0.0) >= self._deadline


async def call_with_retries(
    endpoint: Endpoint,
    payload: bytes,
    deadline: float,
    *,
    limiter: CallLimiter,
    max_attempts: int,
    retry_after_cap_s: float,
    draining: Callable[[], bool],
    circuit: Circuit | None,
    observe: Observe,
) -> Completion:
    """The completion of `payload` at `endpoint`, after at most `max_attempts` attempts; each
    attempt's outcome goes to `observe` (and counts against `circuit`)."""
    started = time.monotonic()
    attempts = 0

    async def attempt() -> Completion:
        nonlocal attempts
        attempts += 1
        began = time.monotonic()
        try:
            completion = await endpoint.attempt(payload, deadline, limiter)
        except BaseException as exc:
            failed = outcome(exc)
            observe(failed, time.monotonic() - began)
            if circuit is not None and failed in CIRCUIT_FAILURES:
                circuit.attempt_failed()
            raise
        observe("ok", time.monotonic() - began)
        return completion

    try:
        # The first attempt goes without tenacity (its set-up and iteration were ~4% of a
        # call's CPU); a failure worth retrying hands over to it as its first attempt.
        first_failure: Retryable | None = None
        try:
            completion = await attempt()
        except Retryable as exc:
            first_failure = exc
        if first_failure is not None:
            stops: list[Callable[[], bool]] = [draining]
            if circuit is not None:
                stops.append(lambda: circuit.state != "closed")
            retrying = AsyncRetrying(
                stop=(
                    stop_after_attempt(max_attempts) | _StopAtDeadline(deadline) | _StopWhen(stops)
                ),
                wait=_WaitRetryAfterOrBackoff(retry_after_cap_s),
                retry=retry_if_exception_type(Retryable),
                before_sleep=_log_retry,
                reraise=True,
            )
            completion = await _retried(retrying, first_failure, attempt)
    except AttemptFailed as exc:
        where = "" if endpoint.name == "primary" else f" ({endpoint.name})"
        if exc.timed_out:
            raise LLMTimeout(
                f"the LLM{where} did not answer in time after {attempts} attempt(s)",
                details={"attempts": attempts},
            ) from exc
        details: dict[str, object] = {"attempts": attempts, "status": exc.status}
        if exc.format_refused:
            details["format_refused"] = True
        raise LLMUnavailable(
            f"the LLM{where} failed after {attempts} attempt(s): {exc.message}",
            details=details,
        ) from exc
    except BadOutput as exc:
        raise LLMOutputInvalid(
            f"the LLM answer could not be read: {exc}", details={"attempts": attempts}
        ) from exc
    latency_ms = round((time.monotonic() - started) * 1000, 1)
    return replace(completion, attempts=attempts, latency_ms=latency_ms, endpoint=endpoint.name)


async def _retried(
    retrying: AsyncRetrying, first_failure: Retryable, attempt: Callable[[], Awaitable[Completion]]
) -> Completion:
    """What tenacity makes of a call whose first attempt failed with `first_failure`: it sees
    that failure as its own first attempt (stop, wait, `llm.retry` log as if it had made it),
    then makes the others."""
    replay: Retryable | None = first_failure
    async for tried in retrying:
        with tried:
            if replay is not None:
                failure, replay = replay, None
                raise failure
            return await attempt()
    raise AssertionError("tenacity ends with an answer or the last failure")  # pragma: no cover


def _log_retry(retry_state: RetryCallState) -> None:
    outcome = retry_state.outcome
    failure = outcome.exception() if outcome is not None else None
    log.warning(
        "llm.retry",
        attempt=retry_state.attempt_number,
        wait_s=round(retry_state.upcoming_sleep, 3),
        reason=getattr(failure, "message", type(failure).__name__),
    )
