"""The GenAI CLIENT span of one LLM call (OpenTelemetry's semantic conventions), built only
when tracing is on."""

from __future__ import annotations

from contextlib import AbstractContextManager, nullcontext
from typing import Any

from resolver.core import tracing
from resolver.llm.completion import Completion, Purpose
from resolver.llm.endpoint import Endpoint

_NO_SPAN: AbstractContextManager[None] = nullcontext()


def call_span(
    endpoint: Endpoint, model: str, body: dict[str, Any], purpose: Purpose
) -> AbstractContextManager[Any]:
    """The GenAI CLIENT span of one call; nothing (and no attributes built) when tracing is off."""
    if not tracing.enabled():
        return _NO_SPAN
    return tracing.span(
        f"chat {model}",
        attributes={
            "gen_ai.operation.name": "chat",
            "gen_ai.system": "openai",
            "gen_ai.request.model": model,
            "gen_ai.request.max_tokens": body["max_tokens"],
            "gen_ai.request.temperature": 0.0,
            "server.address": endpoint.host,
            "resolver.llm.endpoint": endpoint.name,
            "resolver.llm.purpose": purpose,
        },
    )


def describe_call(span: Any, completion: Completion) -> None:
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
