"""One request's LLM budget: how many calls it may make and how many prompt bytes it may send.

Without it, one request of 64 operators with 4 repair rounds, each prompt repeating a 500 KB
context, made 256 calls carrying 150 MB of prompts. The LLM stage spends from the request's
budget before every call (`spend`); past either bound the request is refused with 400
`LLM_BUDGET_EXCEEDED`, which stops its other properties too: no more of it is worth paying.
Cached answers are spent like calls: whether a prompt is cached is known only after asking.
"""

from __future__ import annotations

from collections.abc import Sequence

from resolver.core.errors import LLMBudgetExceeded
from resolver.llm.completion import Message


class RequestBudget:
    """What one request may still spend on the LLM."""

    def __init__(self, *, max_calls: int, max_prompt_bytes: int) -> None:
        self.max_calls = max_calls
        self.max_prompt_bytes = max_prompt_bytes
        self.calls = 0
        self.prompt_bytes = 0

    def spend(self, messages: Sequence[Message]) -> None:
        """Count one call carrying `messages`; `LLMBudgetExceeded` when it would pass a bound."""
        size = sum(len(m["content"].encode()) for m in messages)
        if self.calls + 1 > self.max_calls:
            raise LLMBudgetExceeded(
                f"this request needs more than {self.max_calls} LLM calls "
                "(RESOLVER_LLM_MAX_CALLS_PER_REQUEST); ask for fewer properties at once, supply "
                "more inputs, or lower options.max_repair_rounds",
                details={"limit": "calls", "max_calls": self.max_calls},
            )
        if self.prompt_bytes + size > self.max_prompt_bytes:
            raise LLMBudgetExceeded(
                f"this request's LLM prompts would pass {self.max_prompt_bytes} bytes "
                "(RESOLVER_LLM_MAX_PROMPT_BYTES_PER_REQUEST); send a shorter additional_context, "
                "fewer identities or fewer properties at once",
                details={"limit": "prompt_bytes", "max_prompt_bytes": self.max_prompt_bytes},
            )
        self.calls += 1
        self.prompt_bytes += size
