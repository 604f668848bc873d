"""The fallback endpoint behind the primary's circuit breaker: which endpoint one call goes to.

Without a fallback (`RESOLVER_LLM_FALLBACK_BASE_URL` unset) every call goes to the primary and
there is no circuit. With one, a call goes to the primary while its circuit admits it, and to
the fallback when the circuit is open or the primary's call failed (after its retries) — unless
the primary refused the request itself (a 4xx: the fallback would refuse it too), shutdown has
begun, or the deadline has passed.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable

import structlog

from resolver.core.errors import LLMError, LLMTimeout, LLMUnavailable
from resolver.llm.circuit import Circuit
from resolver.llm.completion import Completion
from resolver.llm.endpoint import Endpoint

log = structlog.get_logger("resolver.llm")

# One call to one endpoint (with its retries), counting against the circuit when given one.
CallEndpoint = Callable[[Endpoint, Circuit | None], Awaitable[Completion]]


async def with_fallback(
    call: CallEndpoint,
    primary: Endpoint,
    fallback: Endpoint | None,
    circuit: Circuit | None,
    *,
    deadline: float,
    draining: Callable[[], bool],
) -> Completion:
    """The primary's completion, unless its circuit is open; the fallback's when it fails."""
    if circuit is None or fallback is None:
        return await call(primary, None)
    if circuit.admit():
        try:
            completion = await call(primary, circuit)
        except (LLMUnavailable, LLMTimeout) as exc:
            if _refused_by_the_llm(exc):
                # A 4xx says the endpoint is up and the request is at fault: the fallback
                # would refuse it too.
                circuit.release_probe()
                raise
            circuit.call_failed(exc.message)
            if draining() or time.monotonic() >= deadline:
                raise
            log.warning("llm.fallback", reason=exc.message, model=fallback.model)
        except BaseException:
            circuit.release_probe()
            raise
        else:
            circuit.call_succeeded()
            return completion
    return await call(fallback, None)


def _refused_by_the_llm(exc: LLMError) -> bool:
    """Whether a failed call ended on a 4xx other than 429 (not a sign of a failing endpoint)."""
    status = exc.details.get("status") if isinstance(exc.details, dict) else None
    return isinstance(status, int) and 400 <= status < 500 and status != 429
