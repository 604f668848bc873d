"""One OpenAI-compatible endpoint and one attempt at it: the request as the SDK shapes it, sent
over our bounded transport, the attempt's own timeout, a slot of the limiter, and the failures
translated into what the retry layer (`retrying.py`) decides on.

The SDK (`openai.AsyncOpenAI`, retries off) is the client of record for what goes on the wire:
the endpoint's URL (its `base_url`, normalised) and the headers of every call (its
`default_headers` and `auth_headers`: the key, `User-Agent`, the `X-Stainless-*` platform
headers; and the per-call `x-stainless-retry-count`/`x-stainless-read-timeout` it adds, with
retries off always 0 and the configured timeout), read once per endpoint. The body holds the
fields of the SDK's `CompletionCreateParamsNonStreaming` we use, encoded with orjson
(`client.py`). What the SDK no longer does is send: its per-call machinery (options, an
httpx2 Request and Response per call, the header merge, its retry loop even when off) cost
~330 µs of CPU per call against ~90 µs for the POST itself, so the POST goes straight through
`transport.py` and the answer is read by `read_completion` (a validated read of the fields we
use: as cheap as pydantic's strict `ChatCompletion.model_validate_json`, which would refuse
answers the SDK accepts, and ~35× cheaper than the SDK's own lenient parse; docs/llm.md).
"""

from __future__ import annotations

import asyncio
import email.utils
import math
import time
from typing import Any

import openai
from multidict import CIMultiDict

from resolver.core.errors import Overloaded
from resolver.core.settings import Settings
from resolver.llm.completion import BadOutput, Completion, read_completion
from resolver.llm.limiter import CallLimiter
from resolver.llm.transport import (
    BoundedTransport,
    ResponseTooLarge,
    TransportFailed,
    UndecodableResponse,
)

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
        format_refused: bool = False,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.timed_out = timed_out
        self.status = status
        self.retry_after_s = retry_after_s
        # A 400 whose body names `response_format`/`json_schema`: the provider refuses the
        # structured-output request itself (client.py asks again with `json_object`).
        self.format_refused = format_refused


class Retryable(AttemptFailed):
    """One attempt failed in a way worth another attempt (429, 5xx, timeout, connection)."""


class Endpoint:
    """One OpenAI-compatible endpoint: the SDK's shaping of its requests, our transport."""

    def __init__(
        self, name: str, base_url: str, model: str, api_key: str, settings: Settings
    ) -> None:
        self.name = name
        self.base_url = base_url
        self.model = model
        self._timeout_s = settings.llm_timeout_s
        self._retry_after_cap_s = settings.llm_retry_after_cap_s
        self.sdk = openai.AsyncOpenAI(
            base_url=base_url,
            api_key=api_key or "unused",
            max_retries=0,
            timeout=settings.llm_timeout_s,
        )
        self.host = self.sdk.base_url.host
        # As the SDK merges a relative path into its base URL (which ends in "/").
        root = self.sdk.base_url
        self.url = str(root.copy_with(raw_path=root.raw_path + b"chat/completions"))
        # Handed to aiohttp as its own header type: no conversion per call.
        self.headers = CIMultiDict(sdk_headers(self.sdk, settings.llm_timeout_s))
        self._transport = BoundedTransport(
            max_bytes=settings.llm_max_response_bytes,
            timeout_s=settings.llm_timeout_s,
            max_connections=max(100, settings.llm_max_inflight),
        )

    async def aclose(self) -> None:
        """Close the connection pool (and the SDK client's, never used)."""
        await self._transport.aclose()
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
                # The transport's timeouts are per connect/read; this bounds the whole attempt.
                async with asyncio.timeout(budget):
                    answer = await self._transport.post(self.url, self.headers, payload)
            except TimeoutError as exc:
                raise Retryable(f"no answer within {budget:.1f}s", timed_out=True) from exc
            except TransportFailed as exc:
                if exc.timed_out:
                    raise Retryable(f"no answer within {budget:.1f}s", timed_out=True) from exc
                raise Retryable(exc.message) from exc
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
            if not 200 <= answer.status < 300:
                failed = translate_status(answer.status, answer.headers)
                failed.format_refused = answer.status == 400 and names_the_format(answer.body)
                await self._cool_down(failed, limiter)
                raise failed
        return read_completion(answer.body)

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


def sdk_headers(sdk: openai.AsyncOpenAI, timeout_s: float) -> dict[str, str]:
    """The headers the SDK sends with every chat completion of this client, retries off."""
    headers = {
        name: value
        for name, value in {**sdk.default_headers, **sdk.auth_headers}.items()
        if isinstance(value, str)  # `Omit`: a header the SDK leaves out
    }
    headers["x-stainless-retry-count"] = "0"
    headers["x-stainless-read-timeout"] = str(float(timeout_s))
    return headers


# How providers name the structured-output request they refuse: OpenAI's `param`, vLLM's and
# llama.cpp's messages ("response_format type json_schema is not supported", "Unknown
# response_format type"), gateways' `Invalid value for 'response_format.type'`.
_FORMAT_WORDS = (b"response_format", b"json_schema", b"response format")


def names_the_format(body: bytes) -> bool:
    """Whether a provider's error body (its first 4 KiB) speaks of the response format."""
    head = body[:4096].lower()
    return any(word in head for word in _FORMAT_WORDS)


def translate_status(status: int, headers: Any, note: str = "") -> AttemptFailed:
    """An HTTP error status as the retry layer sees it: 429 and 5xx are worth another try."""
    retryable = status == 429 or status >= 500
    cls = Retryable if retryable else AttemptFailed
    return cls(
        f"HTTP {status} from the LLM{note}",
        status=status,
        retry_after_s=retry_after(headers) if retryable else None,
    )
