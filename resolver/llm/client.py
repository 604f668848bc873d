"""The LLM client: openai.AsyncOpenAI over aiohttp, with tenacity as the only retry layer.

Transport retries (429, 5xx, timeouts, connection errors) are invisible to the caller: at most
`llm_max_attempts` attempts, 100 ms → 200 ms backoff with jitter, `Retry-After` /
`retry-after-ms` honoured up to a cap, never past the request deadline. The SDK's own retries
are off. openai exceptions are translated here, so nothing above this module imports openai.
"""

from __future__ import annotations

import asyncio
import email.utils
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import aiohttp
import httpx2
import openai
import orjson
import structlog
from openai.types.chat import ChatCompletion
from tenacity import (
    AsyncRetrying,
    RetryCallState,
    retry_if_exception_type,
    stop_after_attempt,
    wait_exponential_jitter,
)
from tenacity.stop import stop_base
from tenacity.wait import wait_base

from resolver.core.errors import LLMOutputInvalid, LLMTimeout, LLMUnavailable, Overloaded
from resolver.core.lifecycle import Lifecycle
from resolver.core.settings import Settings
from resolver.llm.limiter import CallLimiter

log = structlog.get_logger("resolver.llm")

Message = dict[str, str]

# The SDK's marker for "hand back the response unread" (`with_streaming_response` sets it).
_RAW_RESPONSE_HEADER = "X-Stainless-Raw-Response"

# 100 ms, then 200 ms, each plus up to 50 ms of jitter.
_backoff = wait_exponential_jitter(multiplier=0.1, exp_base=2, max=0.25, jitter=0.05)


@dataclass(frozen=True, slots=True)
class Completion:
    """One successful chat completion: its text and what it cost to get."""

    content: str | None
    attempts: int
    latency_ms: float
    usage: dict[str, Any] | None


class _AttemptFailed(Exception):
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


class _Retryable(_AttemptFailed):
    """One attempt failed in a way worth another attempt (429, 5xx, timeout, connection)."""


class _BadOutput(Exception):
    """The body arrived but cannot be read as a chat completion; not retried."""


def _retry_after(headers: Any) -> float | None:
    """Seconds to wait from `retry-after-ms` or `retry-after` (seconds or an HTTP date)."""
    raw_ms = headers.get("retry-after-ms")
    if raw_ms:
        try:
            return max(0.0, float(raw_ms) / 1000)
        except ValueError:
            pass
    raw = headers.get("retry-after")
    if not raw:
        return None
    try:
        return max(0.0, float(raw))
    except ValueError:
        parsed = email.utils.parsedate_to_datetime(raw) if raw else None
        if parsed is None:
            return None
        return max(0.0, parsed.timestamp() - time.time())


class _WaitRetryAfterOrBackoff(wait_base):
    """Honour the server's Retry-After (capped); otherwise exponential backoff with jitter."""

    def __init__(self, cap_s: float) -> None:
        self._cap_s = cap_s

    def __call__(self, retry_state: RetryCallState) -> float:
        outcome = retry_state.outcome
        failure = outcome.exception() if outcome is not None else None
        if isinstance(failure, _AttemptFailed) and failure.retry_after_s is not None:
            return min(failure.retry_after_s, self._cap_s)
        return float(_backoff(retry_state))


class _StopWhenDraining(stop_base):
    """Stop retrying once shutdown has begun: a retry could outlive the grace period."""

    def __init__(self, lifecycle: Lifecycle) -> None:
        self._lifecycle = lifecycle

    def __call__(self, retry_state: RetryCallState) -> bool:
        return self._lifecycle.draining


class _StopAtDeadline(stop_base):
    """Stop when the next attempt would start after the request deadline."""

    def __init__(self, deadline: float) -> None:
        self._deadline = deadline

    def __call__(self, retry_state: RetryCallState) -> bool:
        return time.monotonic() + (retry_state.upcoming_sleep or 0.0) >= self._deadline


class LLMClient:
    """One per process: the SDK client, its connection pool and the shared limiter."""

    def __init__(
        self,
        settings: Settings,
        limiter: CallLimiter,
        observe: Callable[[str, float], None] | None = None,
        lifecycle: Lifecycle | None = None,
    ) -> None:
        self._settings = settings
        self._limiter = limiter
        self._lifecycle = lifecycle or Lifecycle()
        self._observe = observe or _ignore
        self._client = openai.AsyncOpenAI(
            base_url=settings.llm_base_url,
            api_key=settings.llm_api_key.get_secret_value() or "unused",
            max_retries=0,
            timeout=settings.llm_timeout_s,
            http_client=openai.DefaultAioHttpClient(timeout=settings.llm_timeout_s),
        )

    @property
    def limiter(self) -> CallLimiter:
        """The limiter every call start goes through."""
        return self._limiter

    @property
    def draining(self) -> bool:
        """Whether the process is shutting down (no new retries or repair rounds)."""
        return self._lifecycle.draining

    async def aclose(self) -> None:
        """Close the connection pool."""
        await self._client.close()

    async def complete(
        self,
        messages: Sequence[Message],
        *,
        deadline: float,
        response_format: dict[str, Any] | None,
    ) -> Completion:
        """One chat completion, retried on transport failures within the deadline."""
        started = time.monotonic()
        attempts = 0
        retrying = AsyncRetrying(
            stop=(
                stop_after_attempt(self._settings.llm_max_attempts)
                | _StopAtDeadline(deadline)
                | _StopWhenDraining(self._lifecycle)
            ),
            wait=_WaitRetryAfterOrBackoff(self._settings.llm_retry_after_cap_s),
            retry=retry_if_exception_type(_Retryable),
            before_sleep=_log_retry,
            reraise=True,
        )
        try:
            async for attempt in retrying:
                with attempt:
                    attempts += 1
                    began = time.monotonic()
                    try:
                        content, usage = await self._attempt(messages, deadline, response_format)
                    except BaseException as exc:
                        self._observe(_outcome(exc), time.monotonic() - began)
                        raise
                    self._observe("ok", time.monotonic() - began)
        except _AttemptFailed as exc:
            if exc.timed_out:
                raise LLMTimeout(
                    f"the LLM did not answer in time after {attempts} attempt(s)",
                    details={"attempts": attempts},
                ) from exc
            raise LLMUnavailable(
                f"the LLM failed after {attempts} attempt(s): {exc.message}",
                details={"attempts": attempts, "status": exc.status},
            ) from exc
        except _BadOutput as exc:
            raise LLMOutputInvalid(
                f"the LLM answer could not be read: {exc}", details={"attempts": attempts}
            ) from exc
        latency_ms = (time.monotonic() - started) * 1000
        return Completion(content, attempts, latency_ms, usage)

    async def _attempt(
        self,
        messages: Sequence[Message],
        deadline: float,
        response_format: dict[str, Any] | None,
    ) -> tuple[str | None, dict[str, Any] | None]:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise _AttemptFailed("request deadline reached", timed_out=True)
        budget = min(self._settings.llm_timeout_s, remaining)
        extra: dict[str, Any] = {}
        if response_format is not None:
            extra["response_format"] = response_format
        async with self._limiter.slot():
            try:
                async with asyncio.timeout(budget):
                    body = await self._post(messages, extra)
            except TimeoutError as exc:
                raise _Retryable(f"no answer within {budget:.1f}s", timed_out=True) from exc
            except openai.APIStatusError as exc:
                failed = _translate_status(exc)
                if failed.status == 429 and failed.retry_after_s:
                    await self._limiter.cool_down(
                        min(failed.retry_after_s, self._settings.llm_retry_after_cap_s)
                    )
                raise failed from exc
            except openai.APITimeoutError as exc:
                if _refused(exc):
                    raise _Retryable("connection refused") from exc
                raise _Retryable("the call timed out", timed_out=True) from exc
            except openai.APIConnectionError as exc:
                raise _Retryable(f"connection failed ({exc.message})") from exc
            # The SDK translates failures of the request phase only; these come from reading
            # the body (connection reset or closed short of Content-Length, bad encoding).
            except httpx2.TimeoutException as exc:
                raise _Retryable("the answer stalled mid-body", timed_out=True) from exc
            except httpx2.TransportError as exc:
                raise _Retryable(f"the answer broke off ({type(exc).__name__})") from exc
            except httpx2.DecodingError as exc:
                raise _BadOutput("the response body cannot be decoded") from exc
        return _read_completion(body)

    async def _post(self, messages: Sequence[Message], extra: dict[str, Any]) -> bytes:
        # `client.post` with the body encoded by orjson skips what `chat.completions.create`
        # does per call to typed params (a recursive TypedDict transform, then stdlib JSON):
        # 2.15 -> 1.07 ms of CPU per call (`python -m benchmarks run llm-client`). The
        # raw-response header is what `with_streaming_response` sends: the body stays unread,
        # so the size cap is enforced while reading, and orjson reads it without building the
        # SDK's pydantic objects. Errors are raised as APIStatusError exactly as before.
        cap = self._settings.llm_max_response_bytes
        payload = {
            "model": self._settings.llm_model,
            "messages": list(messages),
            "temperature": 0,
            "max_tokens": self._settings.llm_max_tokens,
            **extra,
        }
        response = await self._client.post(
            "/chat/completions",
            cast_to=openai.AsyncAPIResponse[ChatCompletion],
            content=orjson.dumps(payload),
            options={"headers": {_RAW_RESPONSE_HEADER: "stream"}},
        )
        try:
            chunks: list[bytes] = []
            size = 0
            async for chunk in response.iter_bytes():
                size += len(chunk)
                if size > cap:
                    raise _BadOutput(f"the response exceeds {cap} bytes")
                chunks.append(chunk)
        finally:
            await response.close()
        return b"".join(chunks)


def _ignore(outcome: str, seconds: float) -> None:
    """The default attempt observer."""


def _outcome(exc: BaseException) -> str:
    """A metrics label for a failed attempt."""
    if isinstance(exc, _AttemptFailed):
        if exc.status is not None:
            return (
                "http_429" if exc.status == 429 else "http_5xx" if exc.status >= 500 else "http_4xx"
            )
        return "timeout" if exc.timed_out else "connection"
    if isinstance(exc, _BadOutput):
        return "bad_output"
    if isinstance(exc, Overloaded):
        return "overloaded"
    return "cancelled"


def _refused(exc: BaseException) -> bool:
    """Whether a 'timeout' from the SDK's aiohttp transport was really a refused connection.

    The vendored transport maps aiohttp's ClientConnectorError to httpx's ConnectTimeout, so
    an LLM that is down would read as a timeout (504) instead of unavailable (502).
    """
    seen: BaseException | None = exc
    for _ in range(8):
        if seen is None:
            return False
        if isinstance(seen, aiohttp.ClientConnectorError | ConnectionError):
            return True
        seen = seen.__cause__ or seen.__context__
    return False


def _translate_status(exc: openai.APIStatusError) -> _AttemptFailed:
    status = exc.status_code
    retryable = status == 429 or status >= 500
    message = f"HTTP {status} from the LLM"
    cls = _Retryable if retryable else _AttemptFailed
    return cls(
        message,
        status=status,
        retry_after_s=_retry_after(exc.response.headers) if retryable else None,
    )


def _read_completion(body: bytes) -> tuple[str | None, dict[str, Any] | None]:
    try:
        data = orjson.loads(body)
    except orjson.JSONDecodeError as exc:
        raise _BadOutput("the response body is not JSON") from exc
    if not isinstance(data, dict):
        raise _BadOutput("the response body is not a JSON object")
    choices = data.get("choices")
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
        raise _BadOutput("the response has no choices")
    message = choices[0].get("message")
    content = message.get("content") if isinstance(message, dict) else None
    if content is not None and not isinstance(content, str):
        raise _BadOutput("the message content is not text")
    usage = data.get("usage")
    return content, usage if isinstance(usage, dict) else None


def _log_retry(retry_state: RetryCallState) -> None:
    outcome = retry_state.outcome
    failure = outcome.exception() if outcome is not None else None
    log.warning(
        "llm.retry",
        attempt=retry_state.attempt_number,
        wait_s=round(retry_state.upcoming_sleep, 3),
        reason=getattr(failure, "message", type(failure).__name__),
    )
