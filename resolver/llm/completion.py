"""One chat completion as the client hands it on: its text, what it cost, where it came from —
read from the provider's JSON (`read_completion`) or from the result cache (`from_cache`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

import orjson

Message = dict[str, str]
Purpose = Literal["first", "repair"]

USAGE_KEYS = ("prompt_tokens", "completion_tokens", "total_tokens", "cached_tokens")
# The Responses API's names for the same counts (the openai SDK's `ResponseUsage`), read when
# an OpenAI-compatible server answers with them instead of `CompletionUsage`'s.
_RESPONSES_NAMES = {"input_tokens": "prompt_tokens", "output_tokens": "completion_tokens"}
ENDPOINTS = ("primary", "fallback")

CACHE_FORMAT = 3
"""The version of what `to_cache` writes; part of every shared cache key, so that a service
writing another format (a rolling upgrade) never reads this one's values, nor they its."""

# What a cached value holds besides the answer's text: usage, names, JSON punctuation.
_CACHE_OVERHEAD_BYTES = 4096


class BadOutput(Exception):
    """The body arrived but cannot be read as a chat completion; not retried."""


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
    # What the call cost by `RESOLVER_LLM_PRICES` (None: no price known); a cached answer
    # cost nothing and keeps none.
    cost: float | None = None

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


def cache_value_limit(settings: Any) -> int:
    """The largest cached value this service writes: an answer's limit plus its wrapping."""
    return int(settings.llm_max_response_bytes) + _CACHE_OVERHEAD_BYTES


def _within(text: str, max_bytes: int) -> bool:
    """Whether `text` is at most `max_bytes` of UTF-8 (a character is up to 4 bytes: the
    count of characters alone let a CJK answer of 3x the limit through; issue 30)."""
    return len(text) <= max_bytes and len(text.encode("utf-8", "surrogatepass")) <= max_bytes


def from_cache(raw: bytes, key: str, *, max_content_bytes: int) -> Completion | None:
    """A completion the cache kept under `key` (no attempts, no latency); None when the value
    is not one `to_cache` could have written: not JSON, ill-typed, or an answer larger than
    `max_content_bytes` (the shared store is written by others too)."""
    try:
        data = orjson.loads(raw)
    except orjson.JSONDecodeError:
        return None
    if not isinstance(data, dict):
        return None
    content, usage = data.get("content"), data.get("usage")
    finish_reason, model, endpoint = (
        data.get("finish_reason"),
        data.get("model"),
        data.get("endpoint"),
    )
    if not (
        (content is None or (isinstance(content, str) and _within(content, max_content_bytes)))
        and (usage is None or read_usage(usage) == usage)
        and (finish_reason is None or isinstance(finish_reason, str))
        and (model is None or isinstance(model, str))
        and (endpoint is None or endpoint in ENDPOINTS)
    ):
        return None
    return Completion(
        content=content,
        attempts=0,
        latency_ms=0.0,
        usage=usage,
        finish_reason=finish_reason,
        model=model,
        endpoint=endpoint or "primary",
        cached=True,
        key=key,
    )


def read_completion(body: bytes) -> Completion:
    """The completion in a provider's 2xx body; `BadOutput` when it cannot be read."""
    try:
        data = orjson.loads(body)
    except orjson.JSONDecodeError as exc:
        raise BadOutput("the response body is not JSON") from exc
    if not isinstance(data, dict):
        raise BadOutput("the response body is not a JSON object")
    choices = data.get("choices")
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
        raise BadOutput("the response has no choices")
    message = choices[0].get("message")
    content = message.get("content") if isinstance(message, dict) else None
    if content is not None and not isinstance(content, str):
        raise BadOutput("the message content is not text")
    finish = choices[0].get("finish_reason")
    model = data.get("model")
    return Completion(
        content=content,
        attempts=1,
        latency_ms=0.0,
        usage=read_usage(data.get("usage")),
        finish_reason=finish if isinstance(finish, str) else None,
        model=model if isinstance(model, str) else None,
    )


def read_usage(raw: Any) -> dict[str, int] | None:
    """The token counts of an answer; anything but non-negative integers is left out.

    Both shapes of the openai SDK are read: `CompletionUsage` (`prompt_tokens`,
    `completion_tokens`, `prompt_tokens_details.cached_tokens`) and the Responses API's
    `ResponseUsage` (`input_tokens`, `output_tokens`, `input_tokens_details.cached_tokens`);
    a flat `cached_tokens` is what the result cache keeps. Cached tokens are part of the
    prompt's, so never more than them.
    """
    if not isinstance(raw, dict):
        return None
    usage = {key: raw[key] for key in USAGE_KEYS if _count(raw.get(key))}
    for theirs, ours in _RESPONSES_NAMES.items():
        if ours not in usage and _count(raw.get(theirs)):
            usage[ours] = raw[theirs]
    if "cached_tokens" not in usage:
        for details in ("prompt_tokens_details", "input_tokens_details"):
            inner = raw.get(details)
            if isinstance(inner, dict) and _count(inner.get("cached_tokens")):
                usage["cached_tokens"] = inner["cached_tokens"]
                break
    if "cached_tokens" in usage and "prompt_tokens" in usage:
        usage["cached_tokens"] = min(usage["cached_tokens"], usage["prompt_tokens"])
    if "total_tokens" not in usage and {"prompt_tokens", "completion_tokens"} <= usage.keys():
        usage["total_tokens"] = usage["prompt_tokens"] + usage["completion_tokens"]
    return usage or None


def _count(value: Any) -> bool:
    """Whether a usage value is a token count: a non-negative integer (not a bool)."""
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0
