"""What the LLM stage did for one property (the `llm` block of its debug output), typed."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from resolver.llm.completion import Completion, Message

USAGE_KEYS = ("prompt_tokens", "completion_tokens", "total_tokens", "cached_tokens")


def _no_tokens() -> dict[str, int]:
    return dict.fromkeys(USAGE_KEYS, 0)


@dataclass(slots=True)
class LLMTrace:
    """The calls of one property: counts, latency and tokens summed over its calls; the model,
    endpoint, finish reason, messages and answer of the last one."""

    attempts: int = 0
    repair_rounds: int = 0
    latency_ms: float = 0.0
    calls: int = 0
    cached_calls: int = 0
    retries: int = 0
    usage: dict[str, int] = field(default_factory=_no_tokens)
    # What the provider calls cost (RESOLVER_LLM_PRICES); `unpriced` counts calls whose model
    # has no price (the request's cost is then unknown: null).
    cost: float = 0.0
    unpriced: int = 0
    model: str | None = None
    endpoint: str | None = None  # only when not the primary
    finish_reason: str | None = None
    request: list[Message] | None = None
    response: str | None = None

    def account(self, completion: Completion, messages: Sequence[Message]) -> None:
        """Add one call; a cached answer costs no tokens."""
        self.attempts += completion.attempts
        self.latency_ms = round(self.latency_ms + completion.latency_ms, 1)
        self.calls += 1
        self.retries += max(0, completion.attempts - 1)
        if completion.cached:
            self.cached_calls += 1
        else:
            for key in USAGE_KEYS:
                self.usage[key] += (completion.usage or {}).get(key, 0)
            if completion.cost is None:
                self.unpriced += 1
            else:
                self.cost += completion.cost
        if completion.model:
            self.model = completion.model
        if completion.endpoint != "primary":
            self.endpoint = completion.endpoint
        self.finish_reason = completion.finish_reason
        self.request = list(messages)
        self.response = completion.content

    def debug(self) -> dict[str, Any]:
        """The debug block: the counts always; model and endpoint when known; the last call's
        finish reason, messages and answer once a call came back."""
        shown: dict[str, Any] = {
            "attempts": self.attempts,
            "repair_rounds": self.repair_rounds,
            "latency_ms": self.latency_ms,
            "calls": self.calls,
            "cached_calls": self.cached_calls,
            "retries": self.retries,
            "usage": dict(self.usage),
            "cost": self.cost if not self.unpriced else None,
        }
        if self.model is not None:
            shown["model"] = self.model
        if self.endpoint is not None:
            shown["endpoint"] = self.endpoint
        if self.calls:
            shown["finish_reason"] = self.finish_reason
            shown["request"] = self.request
            shown["response"] = self.response
        return shown


def usage_total(traces: Sequence[LLMTrace]) -> dict[str, int]:
    """The request's LLM usage: calls, cache hits, retries, repair rounds and tokens."""
    return {
        "calls": sum(t.calls for t in traces),
        "cached_calls": sum(t.cached_calls for t in traces),
        "retries": sum(t.retries for t in traces),
        "repair_rounds": sum(t.repair_rounds for t in traces),
        **{key: sum(t.usage[key] for t in traces) for key in USAGE_KEYS},
    }


def bill(traces: Sequence[LLMTrace]) -> dict[str, Any]:
    """The request's `usage` (SPEC §6): provider calls (answers of resolver's result cache
    cost nothing and are not counted), tokens, and the cost — null when a call's model has no
    price in RESOLVER_LLM_PRICES, 0 when no call was made."""
    unpriced = sum(t.unpriced for t in traces)
    return {
        "llm_calls": sum(t.calls - t.cached_calls for t in traces),
        "prompt_tokens": sum(t.usage["prompt_tokens"] for t in traces),
        "cached_tokens": sum(t.usage["cached_tokens"] for t in traces),
        "completion_tokens": sum(t.usage["completion_tokens"] for t in traces),
        "cost": None if unpriced else round(sum(t.cost for t in traces), 10),
    }
