"""One OpenAI-compatible endpoint and one attempt at it: the SDK through its public API over our
bounded transport, the attempt's own timeout, a slot of the limiter, and the SDK's exceptions
translated into what the retry layer (`retrying.py`) decides on.

The SDK is used as documented: `AsyncOpenAI(http_client=httpx2.AsyncClient(transport=…))`
with our bounded transport (`transport.py`), and `client.post(path, cast_to=httpx2.Response,
content=…)` — the SDK README's form for a request whose JSON we encode and read ourselves.
Why not `chat.completions.create`: it converts the typed params (a recursive TypedDict
transform, then stdlib JSON) and builds pydantic objects of the answer, 2–3× the CPU of this
form for the same call (`python -m benchmarks run llm-client`, docs/llm.md).
"""

from __future__ import annotations

import asyncio
import email.utils
import math
import time
from typing import Any

import httpx2
import openai

from resolver.core.errors import Overloaded
from resolver.core.settings import Settings
from resolver.llm.completion import BadOutput, Completion, read_completion
from resolver.llm.limiter import CallLimiter
from resolver.llm.transport import BoundedAiohttpTransport, ResponseTooLarge, UndecodableResponse

_JSON_HEADERS = {"Content-Type": "application/json"}
# Attempt outcomes that count against the primary's circuit.
CIRCUIT_FAILURES = frozenset({"http_5xx", "timeout", "connection", "dns"})


class AttemptFailed(Exception):
    """One attempt failed at the transport level and is not worth repeating."""

    def __init__(
        self,
        message: str,
        *,
        timed_out: bool = False,
        status: int | None = None,
        retry_after_s: float | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.timed_out = timed_out
        self.status = status
        self.retry_after_s = retry_after_s


class Retryable(AttemptFailed):
    """One attempt failed in a way worth another attempt (429, 5xx, timeout, connection)."""


class Endpoint:
    """One OpenAI-compatible endpoint: its SDK client over the bounded transport."""

    def __init__(
        self, name: str, base_url: str, model: str, api_key: str, settings: Settings
    ) -> None:
        self.name = name
        self.base_url = base_url
        self.model = model
        self.host = httpx2.URL(base_url).host
        self._timeout_s = settings.llm_timeout_s
        self._retry_after_cap_s = settings.llm_retry_after_cap_s
        transport = BoundedAiohttpTransport(
            max_bytes=settings.llm_max_response_bytes,
            max_connections=max(100, settings.llm_max_inflight),
        )
        self.sdk = openai.AsyncOpenAI(
            base_url=base_url,
            api_key=api_key or "unused",
            max_retries=0,
            timeout=settings.llm_timeout_s,
            http_client=httpx2.AsyncClient(transport=transport, timeout=settings.llm_timeout_s),
        )

    async def aclose(self) -> None:
        """Close the connection pool."""
        await self.sdk.close()

    async def attempt(self, payload: bytes, deadline: float, limiter: CallLimiter) -> Completion:
        """One attempt within the smaller of the call timeout and what is left of the deadline,
        holding a limiter slot; raises `Retryable`, `AttemptFailed` or `BadOutput`."""
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise AttemptFailed("request deadline reached", timed_out=True)
        budget = min(self._timeout_s, remaining)
        async with limiter.slot():
            try:
                # The SDK's timeouts are per connect/read; this bounds the whole attempt.
                async with asyncio.timeout(budget):
                    response = await self.sdk.post(
                        "/chat/completions",
                        cast_to=httpx2.Response,
                        content=payload,
                        options={"headers": _JSON_HEADERS},
                    )
            except TimeoutError as exc:
                raise Retryable(f"no answer within {budget:.1f}s", timed_out=True) from exc
            except openai.APIStatusError as exc:
                failed = translate_status(exc.status_code, exc.response.headers)
                await self._cool_down(failed, limiter)
                raise failed from exc
            except openai.APITimeoutError as exc:
                raise Retryable(f"no answer within {budget:.1f}s", timed_out=True) from exc
            except openai.APIConnectionError as exc:
                raise Retryable(connection_failure(exc)) from exc
            except ResponseTooLarge as exc:
                if exc.status < 400:
                    raise BadOutput(f"the response exceeds {exc.limit} bytes") from exc
                note = f" (body over {exc.limit} bytes)"
                failed = translate_status(exc.status, exc.headers, note)
                await self._cool_down(failed, limiter)
                raise failed from exc
            except UndecodableResponse as exc:
                if exc.status < 400:
                    raise BadOutput("the response body cannot be decoded") from exc
                raise translate_status(exc.status, {}) from exc
        return read_completion(response.content)

    async def _cool_down(self, failed: AttemptFailed, limiter: CallLimiter) -> None:
        """A 429 with `Retry-After` holds back every call of the budget, not only this one."""
        if failed.status == 429 and failed.retry_after_s:
            await limiter.cool_down(min(failed.retry_after_s, self._retry_after_cap_s))


def outcome(exc: BaseException) -> str:
    """A metrics label for a failed attempt."""
    if isinstance(exc, AttemptFailed):
        if exc.status is not None:
            return (
                "http_429" if exc.status == 429 else "http_5xx" if exc.status >= 500 else "http_4xx"
            )
        if exc.timed_out:
            return "timeout"
        return "dns" if exc.message.startswith("DNS") else "connection"
    if isinstance(exc, BadOutput):
        return "bad_output"
    if isinstance(exc, Overloaded):
        return "overloaded"
    return "cancelled"


def retry_after(headers: Any) -> float | None:
    """Seconds to wait from `retry-after-ms` or `retry-after` (seconds or an HTTP date)."""
    raw_ms = headers.get("retry-after-ms")
    if raw_ms:
        try:
            value = float(raw_ms) / 1000
        except ValueError:
            value = math.nan
        if math.isfinite(value):
            return max(0.0, value)
    raw = headers.get("retry-after")
    if not raw:
        return None
    try:
        value = float(raw)
    except ValueError:
        try:
            parsed = email.utils.parsedate_to_datetime(raw)
        except (TypeError, ValueError):
            return None
        return max(0.0, parsed.timestamp() - time.time())
    return max(0.0, value) if math.isfinite(value) else None


def connection_failure(exc: openai.APIConnectionError) -> str:
    """What went wrong with the connection, from the transport's error behind the SDK's."""
    cause = exc.__cause__
    if isinstance(cause, httpx2.ConnectError):
        return str(cause)
    if isinstance(cause, httpx2.TransportError):
        return str(cause) or type(cause).__name__
    return "connection failed"


def translate_status(status: int, headers: Any, note: str = "") -> AttemptFailed:
    """An HTTP error status as the retry layer sees it: 429 and 5xx are worth another try."""
    retryable = status == 429 or status >= 500
    cls = Retryable if retryable else AttemptFailed
    return cls(
        f"HTTP {status} from the LLM{note}",
        status=status,
        retry_after_s=retry_after(headers) if retryable else None,
    )
