"""The LLM client: the openai SDK through its public API, tenacity as the only retry layer,
a result cache with single-flight, and a fallback endpoint behind a circuit breaker.

Transport retries (429, 5xx, timeouts, connection errors) are invisible to the caller: at most
`llm_max_attempts` attempts, 100 ms → 200 ms backoff with jitter, `Retry-After` /
`retry-after-ms` honoured up to a cap, never past the request deadline. The SDK's own retries
are off. openai exceptions are translated here, so nothing above this module imports openai.

The SDK is used as documented: `AsyncOpenAI(http_client=httpx2.AsyncClient(transport=…))`
with our bounded transport (`transport.py`), and `client.post(path, cast_to=httpx2.Response,
content=…)` — the README's form for a request whose JSON we encode and read ourselves.
Why not `chat.completions.create`: it converts the typed params (a recursive TypedDict
transform, then stdlib JSON) and builds pydantic objects of the answer, 2–3× the CPU of this
form for the same call (`python -m benchmarks run llm-client`, docs/llm.md).
"""

from __future__ import annotations

import asyncio
import email.utils
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal, Protocol

import httpx2
import openai
import orjson
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

from resolver.core import tracing
from resolver.core.errors import (
    LLMError,
    LLMOutputInvalid,
    LLMTimeout,
    LLMUnavailable,
    Overloaded,
)
from resolver.core.lifecycle import Lifecycle
from resolver.core.settings import Settings
from resolver.llm.cache import CacheBackend, LruBackend, SingleFlight, request_key
from resolver.llm.circuit import Circuit, State
from resolver.llm.limiter import CallLimiter
from resolver.llm.transport import BoundedAiohttpTransport, ResponseTooLarge, UndecodableResponse

log = structlog.get_logger("resolver.llm")

Message = dict[str, str]
Purpose = Literal["first", "repair"]

# 100 ms, then 200 ms, each plus up to 50 ms of jitter.
_backoff = wait_exponential_jitter(multiplier=0.1, exp_base=2, max=0.25, jitter=0.05)
_JSON_HEADERS = {"Content-Type": "application/json"}
_USAGE_KEYS = ("prompt_tokens", "completion_tokens", "total_tokens")


@dataclass(frozen=True, slots=True)
class Completion:
    """One chat completion: its text, what it cost and where it came from."""

    content: str | None
    attempts: int
    latency_ms: float
    usage: dict[str, int] | None
    finish_reason: str | None = None
    model: str | None = None
    endpoint: str = "primary"
    cached: bool = False
    key: str | None = None

    def to_cache(self) -> bytes:
        """What the cache keeps of it."""
        return orjson.dumps(
            {
                "content": self.content,
                "usage": self.usage,
                "finish_reason": self.finish_reason,
                "model": self.model,
                "endpoint": self.endpoint,
            }
        )


class LLMObserver(Protocol):
    """What the client reports (the Prometheus metrics implement it)."""

    def observe_llm_attempt(self, outcome: str, seconds: float) -> None:
        """One attempt ended with `outcome`."""

    def observe_llm_call(
        self,
        endpoint: str,
        model: str,
        *,
        outcome: str,
        purpose: str,
        attempts: int,
        usage: dict[str, int] | None,
    ) -> None:
        """One call ended (after `attempts` attempts; 0 when served by the cache)."""

    def observe_llm_cache(self, result: str) -> None:
        """A cache look-up: `hit`, `miss` or `shared` (joined a call in flight)."""

    def observe_llm_circuit(self, endpoint: str, state: str) -> None:
        """The circuit of `endpoint` moved to `state`."""


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


class _StopWhen(stop_base):
    """Stop retrying once a condition holds: shutdown has begun (a retry could outlive the
    grace period), or the endpoint's circuit opened (the fallback takes over)."""

    def __init__(self, *conditions: Any) -> None:
        self._conditions = conditions

    def __call__(self, retry_state: RetryCallState) -> bool:
        return any(condition() for condition in self._conditions)


class _StopAtDeadline(stop_base):
    """Stop when the next attempt would start after the request deadline."""

    def __init__(self, deadline: float) -> None:
        self._deadline = deadline

    def __call__(self, retry_state: RetryCallState) -> bool:
        return time.monotonic() + (retry_state.upcoming_sleep or 0.0) >= self._deadline


class _Endpoint:
    """One OpenAI-compatible endpoint: its SDK client over the bounded transport."""

    def __init__(
        self, name: str, base_url: str, model: str, api_key: str, settings: Settings
    ) -> None:
        self.name = name
        self.base_url = base_url
        self.model = model
        self.host = httpx2.URL(base_url).host
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


class LLMClient:
    """One per process: the endpoints, the shared limiter, the cache and the circuit."""

    def __init__(
        self,
        settings: Settings,
        limiter: CallLimiter,
        observer: LLMObserver | None = None,
        lifecycle: Lifecycle | None = None,
        cache: CacheBackend | None = None,
    ) -> None:
        if settings.llm_base_url is None:
            raise ValueError("the LLM client needs RESOLVER_LLM_BASE_URL")
        self._settings = settings
        self._limiter = limiter
        self._lifecycle = lifecycle or Lifecycle()
        self._observer = observer
        self.primary = _Endpoint(
            "primary",
            settings.llm_base_url,
            settings.llm_model,
            settings.llm_api_key.get_secret_value(),
            settings,
        )
        self.fallback: _Endpoint | None = None
        self.circuit: Circuit | None = None
        if settings.llm_fallback_base_url is not None:
            self.fallback = _Endpoint(
                "fallback",
                settings.llm_fallback_base_url,
                settings.llm_fallback_model or settings.llm_model,
                settings.llm_fallback_api_key.get_secret_value(),
                settings,
            )
            self.circuit = Circuit(
                "primary",
                failures=settings.llm_circuit_failures,
                cool_down_s=settings.llm_circuit_cool_down_s,
                on_change=self._circuit_moved,
            )
        self._ttl_s = settings.llm_cache_ttl_s
        self._cache: CacheBackend | None = None
        if self._ttl_s > 0:
            self._cache = cache or LruBackend(max_entries=settings.llm_cache_max_entries)
        self._flights = SingleFlight()

    @property
    def limiter(self) -> CallLimiter:
        """The limiter every call start goes through."""
        return self._limiter

    @property
    def draining(self) -> bool:
        """Whether the process is shutting down (no new retries or repair rounds)."""
        return self._lifecycle.draining

    @property
    def cache(self) -> CacheBackend | None:
        """The result cache, or None when `RESOLVER_LLM_CACHE_TTL_S=0`."""
        return self._cache

    def state(self) -> dict[str, Any]:
        """What `/readyz` shows of the endpoints and the circuit."""
        shown: dict[str, Any] = {"model": self.primary.model}
        if self.fallback is not None and self.circuit is not None:
            shown["circuit"] = self.circuit.snapshot()
            shown["fallback_model"] = self.fallback.model
        return shown

    async def aclose(self) -> None:
        """Close the connection pools."""
        await self.primary.sdk.close()
        if self.fallback is not None:
            await self.fallback.sdk.close()

    async def complete(
        self,
        messages: Sequence[Message],
        *,
        deadline: float,
        response_format: dict[str, Any] | None,
        purpose: Purpose = "first",
    ) -> Completion:
        """One chat completion: from the cache, shared with an identical call in flight, or
        asked of the primary (the fallback while the primary's circuit is open)."""
        body: dict[str, Any] = {
            "messages": self._placed(messages),
            "temperature": 0,
            "max_tokens": self._settings.llm_max_tokens,
        }
        if response_format is not None:
            body["response_format"] = self._dialect(response_format)
        if self._cache is None:
            return await self._call(body, deadline, purpose)
        key = request_key(self.primary.model, body)
        cached = await self._cache.get(key)
        if cached is not None:
            completion = _from_cache(cached, key)
            self._report_cache("hit")
            self._report_call(
                completion.endpoint,
                completion.model or self.primary.model,
                outcome="cached",
                purpose=purpose,
                completion=completion,
            )
            return completion
        self._report_cache("shared" if key in self._flights else "miss")
        completion, shared = await self._flights.run(
            key, lambda: self._call_and_store(key, body, deadline, purpose)
        )
        return replace(completion, cached=shared) if shared else completion

    def _placed(self, messages: Sequence[Message]) -> list[Message]:
        """The messages, the system prompt folded into the first user message when the model
        has no system role (`RESOLVER_LLM_SYSTEM_PROMPT=user`)."""
        placed = list(messages)
        if (
            self._settings.llm_system_prompt == "user"
            and len(placed) > 1
            and placed[0]["role"] == "system"
            and placed[1]["role"] == "user"
        ):
            first = {"role": "user", "content": f"{placed[0]['content']}\n\n{placed[1]['content']}"}
            placed = [first, *placed[2:]]
        return placed

    def _dialect(self, response_format: dict[str, Any]) -> dict[str, Any]:
        """The response format as the provider takes it (`RESOLVER_LLM_JSON_SCHEMA_STYLE`)."""
        if (
            self._settings.llm_json_schema_style == "json_object"
            and response_format.get("type") == "json_schema"
        ):
            return {"type": "json_object", "schema": response_format["json_schema"]["schema"]}
        return response_format

    async def forget(self, completion: Completion) -> None:
        """Drop an answer the rules rejected, so the next identical request asks again."""
        if self._cache is not None and completion.key is not None:
            await self._cache.delete(completion.key)

    async def _call_and_store(
        self, key: str, body: dict[str, Any], deadline: float, purpose: Purpose
    ) -> Completion:
        completion = replace(await self._call(body, deadline, purpose), key=key)
        if self._cache is not None and completion.content is not None:
            await self._cache.set(key, completion.to_cache(), self._ttl_s)
        return completion

    async def _call(self, body: dict[str, Any], deadline: float, purpose: Purpose) -> Completion:
        """The primary, unless its circuit is open; the fallback when the primary fails."""
        circuit, fallback = self.circuit, self.fallback
        if circuit is None or fallback is None:
            return await self._call_endpoint(self.primary, body, deadline, purpose, None)
        if circuit.admit():
            try:
                completion = await self._call_endpoint(
                    self.primary, body, deadline, purpose, circuit
                )
            except (LLMUnavailable, LLMTimeout) as exc:
                if _refused_by_the_llm(exc):
                    # A 4xx says the endpoint is up and the request is at fault: the
                    # fallback would refuse it too.
                    circuit.release_probe()
                    raise
                circuit.call_failed(exc.message)
                if self.draining or time.monotonic() >= deadline:
                    raise
                log.warning("llm.fallback", reason=exc.message, model=fallback.model)
            except BaseException:
                circuit.release_probe()
                raise
            else:
                circuit.call_succeeded()
                return completion
        return await self._call_endpoint(fallback, body, deadline, purpose, None)

    async def _call_endpoint(
        self,
        endpoint: _Endpoint,
        body: dict[str, Any],
        deadline: float,
        purpose: Purpose,
        circuit: Circuit | None,
    ) -> Completion:
        """One call to one endpoint, retried on transport failures within the deadline."""
        payload = orjson.dumps({"model": endpoint.model, **body})
        with tracing.span(
            f"chat {endpoint.model}",
            attributes={
                "gen_ai.operation.name": "chat",
                "gen_ai.system": "openai",
                "gen_ai.request.model": endpoint.model,
                "gen_ai.request.max_tokens": body["max_tokens"],
                "gen_ai.request.temperature": 0.0,
                "server.address": endpoint.host,
                "resolver.llm.endpoint": endpoint.name,
                "resolver.llm.purpose": purpose,
            },
        ) as span:
            try:
                completion = await self._retrying(endpoint, payload, deadline, circuit)
            except LLMError as exc:
                attempts = exc.details.get("attempts", 0) if isinstance(exc.details, dict) else 0
                self._report_call(
                    endpoint.name,
                    endpoint.model,
                    outcome=exc.code.lower(),
                    purpose=purpose,
                    completion=None,
                    attempts=attempts,
                )
                if span is not None:
                    span.set_attribute("error.type", exc.code)
                raise
            except Overloaded:
                self._report_call(
                    endpoint.name,
                    endpoint.model,
                    outcome="overloaded",
                    purpose=purpose,
                    completion=None,
                )
                raise
            self._report_call(
                endpoint.name, endpoint.model, outcome="ok", purpose=purpose, completion=completion
            )
            if span is not None:
                _describe(span, completion)
            return completion

    async def _retrying(
        self, endpoint: _Endpoint, payload: bytes, deadline: float, circuit: Circuit | None
    ) -> Completion:
        started = time.monotonic()
        attempts = 0
        stops: list[Any] = [lambda: self._lifecycle.draining]
        if circuit is not None:
            stops.append(lambda: circuit.state != "closed")
        retrying = AsyncRetrying(
            stop=(
                stop_after_attempt(self._settings.llm_max_attempts)
                | _StopAtDeadline(deadline)
                | _StopWhen(*stops)
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
                        completion = await self._attempt(endpoint, payload, deadline)
                    except BaseException as exc:
                        outcome = _outcome(exc)
                        self._observe_attempt(outcome, time.monotonic() - began)
                        if circuit is not None and outcome in _CIRCUIT_FAILURES:
                            circuit.attempt_failed()
                        raise
                    self._observe_attempt("ok", time.monotonic() - began)
        except _AttemptFailed as exc:
            where = "" if endpoint.name == "primary" else f" ({endpoint.name})"
            if exc.timed_out:
                raise LLMTimeout(
                    f"the LLM{where} did not answer in time after {attempts} attempt(s)",
                    details={"attempts": attempts},
                ) from exc
            raise LLMUnavailable(
                f"the LLM{where} failed after {attempts} attempt(s): {exc.message}",
                details={"attempts": attempts, "status": exc.status},
            ) from exc
        except _BadOutput as exc:
            raise LLMOutputInvalid(
                f"the LLM answer could not be read: {exc}", details={"attempts": attempts}
            ) from exc
        latency_ms = round((time.monotonic() - started) * 1000, 1)
        return replace(completion, attempts=attempts, latency_ms=latency_ms, endpoint=endpoint.name)

    async def _attempt(self, endpoint: _Endpoint, payload: bytes, deadline: float) -> Completion:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise _AttemptFailed("request deadline reached", timed_out=True)
        budget = min(self._settings.llm_timeout_s, remaining)
        async with self._limiter.slot():
            try:
                # The SDK's timeouts are per connect/read; this bounds the whole attempt.
                async with asyncio.timeout(budget):
                    response = await endpoint.sdk.post(
                        "/chat/completions",
                        cast_to=httpx2.Response,
                        content=payload,
                        options={"headers": _JSON_HEADERS},
                    )
            except TimeoutError as exc:
                raise _Retryable(f"no answer within {budget:.1f}s", timed_out=True) from exc
            except openai.APIStatusError as exc:
                failed = _translate_status(exc.status_code, exc.response.headers)
                await self._cool_down(failed)
                raise failed from exc
            except openai.APITimeoutError as exc:
                raise _Retryable(f"no answer within {budget:.1f}s", timed_out=True) from exc
            except openai.APIConnectionError as exc:
                raise _Retryable(_connection_failure(exc)) from exc
            except ResponseTooLarge as exc:
                if exc.status < 400:
                    raise _BadOutput(f"the response exceeds {exc.limit} bytes") from exc
                note = f" (body over {exc.limit} bytes)"
                failed = _translate_status(exc.status, exc.headers, note)
                await self._cool_down(failed)
                raise failed from exc
            except UndecodableResponse as exc:
                if exc.status < 400:
                    raise _BadOutput("the response body cannot be decoded") from exc
                raise _translate_status(exc.status, {}) from exc
        return _read_completion(response.content)

    async def _cool_down(self, failed: _AttemptFailed) -> None:
        if failed.status == 429 and failed.retry_after_s:
            await self._limiter.cool_down(
                min(failed.retry_after_s, self._settings.llm_retry_after_cap_s)
            )

    def _observe_attempt(self, outcome: str, seconds: float) -> None:
        if self._observer is not None:
            self._observer.observe_llm_attempt(outcome, seconds)

    def _report_call(
        self,
        endpoint: str,
        model: str,
        *,
        outcome: str,
        purpose: str,
        completion: Completion | None,
        attempts: int = 0,
    ) -> None:
        tried = completion.attempts if completion is not None else attempts
        usage = completion.usage if completion is not None and completion.usage else {}
        if self._observer is not None:
            self._observer.observe_llm_call(
                endpoint,
                model,
                outcome=outcome,
                purpose=purpose,
                attempts=tried,
                usage=None if outcome == "cached" else usage,
            )
        log.info(
            "llm.call",
            endpoint=endpoint,
            model=model,
            purpose=purpose,
            outcome=outcome,
            attempts=tried,
            latency_ms=completion.latency_ms if completion is not None else None,
            finish_reason=completion.finish_reason if completion is not None else None,
            prompt_tokens=usage.get("prompt_tokens"),
            completion_tokens=usage.get("completion_tokens"),
            total_tokens=usage.get("total_tokens"),
        )

    def _report_cache(self, result: str) -> None:
        if self._observer is not None:
            self._observer.observe_llm_cache(result)

    def _circuit_moved(self, endpoint: str, state: State) -> None:
        if self._observer is not None:
            self._observer.observe_llm_circuit(endpoint, state)


# Attempt outcomes that count against the primary's circuit.
_CIRCUIT_FAILURES = frozenset({"http_5xx", "timeout", "connection", "dns"})


def _refused_by_the_llm(exc: LLMError) -> bool:
    """Whether a failed call ended on a 4xx other than 429 (not a sign of a failing endpoint)."""
    status = exc.details.get("status") if isinstance(exc.details, dict) else None
    return isinstance(status, int) and 400 <= status < 500 and status != 429


def _describe(span: Any, completion: Completion) -> None:
    """GenAI semantic-convention attributes of a finished call."""
    if completion.model:
        span.set_attribute("gen_ai.response.model", completion.model)
    if completion.finish_reason:
        span.set_attribute("gen_ai.response.finish_reasons", [completion.finish_reason])
    usage = completion.usage or {}
    if "prompt_tokens" in usage:
        span.set_attribute("gen_ai.usage.input_tokens", usage["prompt_tokens"])
    if "completion_tokens" in usage:
        span.set_attribute("gen_ai.usage.output_tokens", usage["completion_tokens"])
    span.set_attribute("resolver.llm.attempts", completion.attempts)


def _from_cache(raw: bytes, key: str) -> Completion:
    data = orjson.loads(raw)
    return Completion(
        content=data.get("content"),
        attempts=0,
        latency_ms=0.0,
        usage=data.get("usage"),
        finish_reason=data.get("finish_reason"),
        model=data.get("model"),
        endpoint=data.get("endpoint") or "primary",
        cached=True,
        key=key,
    )


def _outcome(exc: BaseException) -> str:
    """A metrics label for a failed attempt."""
    if isinstance(exc, _AttemptFailed):
        if exc.status is not None:
            return (
                "http_429" if exc.status == 429 else "http_5xx" if exc.status >= 500 else "http_4xx"
            )
        if exc.timed_out:
            return "timeout"
        return "dns" if exc.message.startswith("DNS") else "connection"
    if isinstance(exc, _BadOutput):
        return "bad_output"
    if isinstance(exc, Overloaded):
        return "overloaded"
    return "cancelled"


def _connection_failure(exc: openai.APIConnectionError) -> str:
    """What went wrong with the connection, from the transport's error behind the SDK's."""
    cause = exc.__cause__
    if isinstance(cause, httpx2.ConnectError):
        text = str(cause)
        if text.startswith("DNS"):
            return text
        return text
    if isinstance(cause, httpx2.TransportError):
        return str(cause) or type(cause).__name__
    return "connection failed"


def _translate_status(status: int, headers: Any, note: str = "") -> _AttemptFailed:
    retryable = status == 429 or status >= 500
    cls = _Retryable if retryable else _AttemptFailed
    return cls(
        f"HTTP {status} from the LLM{note}",
        status=status,
        retry_after_s=_retry_after(headers) if retryable else None,
    )


def _read_completion(body: bytes) -> Completion:
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
    finish = choices[0].get("finish_reason")
    model = data.get("model")
    return Completion(
        content=content,
        attempts=1,
        latency_ms=0.0,
        usage=_usage(data.get("usage")),
        finish_reason=finish if isinstance(finish, str) else None,
        model=model if isinstance(model, str) else None,
    )


def _usage(raw: Any) -> dict[str, int] | None:
    """The token counts of an answer; anything but non-negative integers is left out."""
    if not isinstance(raw, dict):
        return None
    usage = {
        key: raw[key]
        for key in _USAGE_KEYS
        if isinstance(raw.get(key), int) and not isinstance(raw[key], bool) and raw[key] >= 0
    }
    if "total_tokens" not in usage and {"prompt_tokens", "completion_tokens"} <= usage.keys():
        usage["total_tokens"] = usage["prompt_tokens"] + usage["completion_tokens"]
    return usage or None


def _log_retry(retry_state: RetryCallState) -> None:
    outcome = retry_state.outcome
    failure = outcome.exception() if outcome is not None else None
    log.warning(
        "llm.retry",
        attempt=retry_state.attempt_number,
        wait_s=round(retry_state.upcoming_sleep, 3),
        reason=getattr(failure, "message", type(failure).__name__),
    )
