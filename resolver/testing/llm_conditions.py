"""What a real LLM endpoint does to its callers, as the fake LLM models it for load tests:
latency, fixed or lognormal through a p50 and a p99 (`Latency`); faults at a rate each
(`Faults`); a gateway admitting at most N calls in any sliding second (`Gateway`); an answer
that inflates a thousandfold (`gzip_bomb`); a provider's prompt cache (`PromptCache`) and a
provider that refuses `response_format: json_schema` (`refused_format`)."""

from __future__ import annotations

import math
import random
import zlib
from collections import deque
from dataclasses import dataclass
from typing import Any

import orjson
from aiohttp import web

# z-score of the 99th percentile of a standard normal distribution.
_Z99 = 2.326347874040841


@dataclass(frozen=True)
class Latency:
    """How long a default answer takes: fixed at `p50_s`, or lognormal through p50 and p99."""

    p50_s: float = 0.0
    p99_s: float | None = None

    def __post_init__(self) -> None:
        if self.p50_s < 0 or (self.p99_s is not None and self.p99_s < self.p50_s):
            raise ValueError("latency needs 0 <= p50 <= p99")
        if self.p99_s is not None and self.p99_s > self.p50_s and self.p50_s == 0:
            raise ValueError("a lognormal latency needs p50 > 0")

    def sample(self, rng: random.Random) -> float:
        """One latency in seconds."""
        if self.p99_s is None or self.p99_s == self.p50_s:
            return self.p50_s
        sigma = math.log(self.p99_s / self.p50_s) / _Z99
        return rng.lognormvariate(math.log(self.p50_s), sigma)


@dataclass(frozen=True)
class Faults:
    """Rates (0..1) of injected faults, drawn independently per call in this order."""

    rate_429: float = 0.0
    retry_after_s: float = 1.0
    rate_5xx: float = 0.0
    status_5xx: int = 503
    rate_hang: float = 0.0
    hang_s: float = 3600.0
    rate_malformed: float = 0.0

    def __post_init__(self) -> None:
        rates = (self.rate_429, self.rate_5xx, self.rate_hang, self.rate_malformed)
        if any(not 0 <= r <= 1 for r in rates) or sum(rates) > 1:
            raise ValueError("fault rates are within 0..1 and add up to at most 1")

    def draw(self, rng: random.Random) -> str | None:
        """The fault for one call: `429`, `5xx`, `hang`, `malformed`, or None."""
        roll = rng.random()
        for name, rate in (
            ("429", self.rate_429),
            ("5xx", self.rate_5xx),
            ("hang", self.rate_hang),
            ("malformed", self.rate_malformed),
        ):
            if roll < rate:
                return name
            roll -= rate
        return None


class Gateway:
    """Admits at most `qps` calls in any sliding 1-second window (rejected calls don't count)."""

    def __init__(self, qps: float) -> None:
        self.qps = qps
        self._admitted: deque[float] = deque()

    def admit(self, now: float) -> float | None:
        """None when the call may pass, else the seconds until a slot frees up."""
        window = self._admitted
        while window and now - window[0] >= 1.0:
            window.popleft()
        if len(window) >= self.qps:
            return max(0.001, 1.0 - (now - window[0]))
        window.append(now)
        return None

    def reset(self) -> None:
        """Forget the window."""
        self._admitted.clear()


def gzip_bomb(inflated_bytes: int) -> bytes:
    """A gzip body of zeros that inflates to `inflated_bytes` (about 1,000:1)."""
    packer = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    block = bytes(1 << 20)
    parts = [packer.compress(block) for _ in range(inflated_bytes >> 20)]
    parts.append(packer.compress(bytes(inflated_bytes & ((1 << 20) - 1))))
    parts.append(packer.flush())
    return b"".join(parts)


def percentile(ordered: list[float], q: float) -> float:
    if not ordered:
        return 0.0
    index = min(len(ordered) - 1, max(0, math.ceil(q / 100 * len(ordered)) - 1))
    return ordered[index]


class PromptCache:
    """A provider's automatic prompt cache, as OpenAI and DeepSeek bill it: the longest prefix
    a prompt shares with a recent one is served from cache, counted in tokens (4 characters a
    token, like the fake's `prompt_tokens`), rounded down to `block_tokens`, and nothing below
    `min_tokens`. `cached_tokens` goes into `usage.prompt_tokens_details`."""

    def __init__(self, *, block_tokens: int = 64, min_tokens: int = 128, keep: int = 256) -> None:
        if block_tokens < 1 or min_tokens < 0 or keep < 1:
            raise ValueError("block_tokens >= 1, min_tokens >= 0, keep >= 1")
        self.block_tokens = block_tokens
        self.min_tokens = min_tokens
        self._seen: deque[str] = deque(maxlen=keep)

    def serve(self, prompt: str) -> int:
        """The cached tokens of this prompt; then it is cached too."""
        shared = max((_common_prefix(prompt, seen) for seen in self._seen), default=0)
        self._seen.append(prompt)
        tokens = shared // 4 // self.block_tokens * self.block_tokens
        return tokens if tokens >= self.min_tokens else 0

    def clear(self) -> None:
        """Forget every prompt."""
        self._seen.clear()


def _common_prefix(a: str, b: str) -> int:
    """How many leading characters two texts share."""
    limit = min(len(a), len(b))
    low, high = 0, limit
    while low < high:  # binary search on slices: C speed for long prompts
        middle = (low + high + 1) // 2
        if a[:middle] == b[:middle]:
            low = middle
        else:
            high = middle - 1
    return low


def prompt_text(body: dict[str, Any]) -> str:
    """What a provider's prompt cache sees: the messages in order, each after its role."""
    return "".join(
        f"<{m.get('role')}>{m.get('content') or ''}"
        for m in body.get("messages", [])
        if isinstance(m, dict)
    )


def refused_format(body: dict[str, Any], models: frozenset[str]) -> web.Response | None:
    """A 400 naming response_format for a `json_schema` request to one of `models` (as vLLM,
    llama.cpp and older gateways answer); None when the request is one the model takes."""
    wanted = body.get("response_format")
    if not models or body.get("model") not in models:
        return None
    if not isinstance(wanted, dict) or wanted.get("type") != "json_schema":
        return None
    error = {
        "error": {
            "message": "response_format type 'json_schema' is not supported by this model",
            "type": "invalid_request_error",
            "param": "response_format",
        }
    }
    return web.Response(body=orjson.dumps(error), status=400, content_type="application/json")
