"""The MCP proxy (SPEC §8): flat LLM arguments in, checked against the tool's own
`inputSchema`, then `{"tool_name", "parameters"}` to agent-operator-integration.

The schema is checked once per cached tool detail (its metaschema and regexes), the
arguments within `ARGUMENT_CHECK_BUDGET_S`; both on the offload threads, never on the event
loop (issue 30: 4,000 objects under `uniqueItems` once held the loop for 20 s).

Bounded: at most `max_inflight` calls at once (beyond: 503 `OVERLOADED` with Retry-After, at
once), each on the tool-call connection pool, each answer read to at most `max_answer_bytes`
and passed through as the upstream's own bytes — checked to be JSON, never re-serialised.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from typing import Any

import structlog

from resolver.actions.mcp_tools import McpToolCache
from resolver.core.clip import clip
from resolver.core.errors import InvalidArguments, Overloaded
from resolver.core.jsonio import dumps, top_level
from resolver.core.offload import Offload
from resolver.toolschema.arguments import (
    ArgumentCheckTooCostly,
    ArgumentViolation,
    CheckedSchema,
    check_schema,
)
from resolver.upstreams.client import CallerHeaders, Upstreams
from resolver.upstreams.models import McpToolDetail
from resolver.upstreams.operator_integration import call_mcp_tool

log = structlog.get_logger("resolver.mcp_proxy")

_SHOWN_VIOLATIONS = 5
_LISTED_VIOLATIONS = 50
# A tool call takes seconds to a minute: an immediate retry would only be refused again.
_RETRY_AFTER_S = 5
_JSON_SPACE = b" \t\r\n"
# Answers up to this size are checked on the event loop (well under a millisecond).
_CHECKED_ON_THE_LOOP = 64 << 10
# Checked schemas kept (one per tool detail the cache holds; the cache keeps at most 1,024).
_CHECKED_ENTRIES = 1024


class McpProxy:
    """Validates and forwards one MCP tool call; counts the calls in flight."""

    def __init__(
        self,
        upstreams: Upstreams,
        tools: McpToolCache,
        *,
        call_timeout_s: float,
        max_inflight: int = 32,
        max_answer_bytes: int = 4 << 20,
        offload: Offload | None = None,
    ) -> None:
        self.upstreams = upstreams
        self.tools = tools
        self._offload = offload if offload is not None else Offload()
        # id(detail) → (the detail, kept so that its id stays its own; its checked schema).
        self._checked: OrderedDict[int, tuple[McpToolDetail, asyncio.Future[CheckedSchema]]] = (
            OrderedDict()
        )
        self.call_timeout_s = call_timeout_s
        self.max_inflight = max_inflight
        self.max_answer_bytes = max_answer_bytes
        self.inflight = 0

    async def call(
        self, mcp_id: str, tool_name: str, arguments: dict[str, Any], caller: CallerHeaders
    ) -> bytes | bytearray:
        """The tool's JSON answer as bytes (an object with this request's `trace_id` added
        unless it has one); 400 `INVALID_ARGUMENTS` before any call when they break the
        schema, 404 when the tool is unknown, 502 when it cannot be run, 503 when
        `max_inflight` calls are already running."""
        client = self.upstreams.tool_calls()
        if self.inflight >= self.max_inflight:
            log.warning("mcp_proxy.overloaded", inflight=self.inflight, limit=self.max_inflight)
            raise Overloaded(
                f"{self.inflight} MCP tool calls are already running, the most this service "
                "runs at once (RESOLVER_MCP_MAX_INFLIGHT); retry later",
                retry_after_s=_RETRY_AFTER_S,
            )
        self.inflight += 1
        try:
            detail = await self.tools.get(mcp_id, tool_name, caller)
            checked = await self.checked_schema(detail)
            try:
                violations = await self._offload.run(checked.violations, arguments)
            except ArgumentCheckTooCostly as exc:
                log.warning(
                    "mcp_proxy.arguments_too_costly",
                    mcp_id=mcp_id,
                    tool_name=tool_name,
                    budget_s=exc.budget_s,
                )
                raise InvalidArguments(
                    f"the arguments of MCP tool {tool_name!r} could not be checked against "
                    f"its inputSchema within {exc.budget_s:g}s; send smaller arguments",
                    details=[{"path": "$", "message": str(exc)}],
                ) from None
            if violations:
                log.info(
                    "mcp_proxy.invalid_arguments",
                    mcp_id=mcp_id,
                    tool_name=tool_name,
                    violations=len(violations),
                )
                raise _invalid(tool_name, violations)
            raw = await call_mcp_tool(
                client,
                mcp_id,
                tool_name,
                arguments,
                caller,
                timeout_s=self.call_timeout_s,
                max_bytes=self.max_answer_bytes,
            )
        finally:
            self.inflight -= 1
        try:
            if len(raw) <= _CHECKED_ON_THE_LOOP:
                return with_trace_id(raw, caller.trace_id)
            # A few MB are checked in milliseconds (`top_level`: no Python objects built; a
            # full parse held the interpreter a third of a second, issue 30), still not on
            # the event loop.
            return await self._offload.run(with_trace_id, raw, caller.trace_id)
        except ValueError as exc:
            raise client.unreadable(f"an answer of MCP tool {tool_name!r}", str(exc)) from exc

    async def checked_schema(self, detail: McpToolDetail) -> CheckedSchema:
        """The tool's `inputSchema`, checked once per cached detail (concurrent callers share
        the check), off the loop; `SchemaConversionError` when unusable."""
        key = id(detail)
        entry = self._checked.get(key)
        if entry is not None and entry[0] is detail:
            self._checked.move_to_end(key)
            return await asyncio.shield(entry[1])
        future = asyncio.ensure_future(self._offload.run(check_schema, detail.input_schema))
        future.add_done_callback(_retrieved)
        self._checked[key] = (detail, future)
        while len(self._checked) > _CHECKED_ENTRIES:
            self._checked.popitem(last=False)
        return await asyncio.shield(future)


def _retrieved(future: asyncio.Future[CheckedSchema]) -> None:
    # A refusal kept for later callers is not an error nobody saw.
    if not future.cancelled():
        future.exception()


def with_trace_id(raw: bytes | bytearray, trace_id: str) -> bytes | bytearray:
    """The answer's own bytes; an object without `trace_id` gets it as its last key.

    The answer is only checked to be JSON and for a top-level `trace_id` (`top_level`: no
    Python objects built); the bytes are never re-serialised, so integers and key order stay
    as the tool wrote them. ValueError when it is not JSON.
    """
    try:
        top = top_level(raw)
    except ValueError:
        raise ValueError("the answer is not JSON") from None
    if not top.is_object or top.has_trace_id:
        return raw
    if top.empty:
        return dumps({"trace_id": trace_id})
    body = raw.rstrip(_JSON_SPACE)
    return body[:-1] + b',"trace_id":' + dumps(trace_id) + b"}"


def _invalid(tool_name: str, violations: list[ArgumentViolation]) -> InvalidArguments:
    # One line and bounded: a message or path may quote a huge key or a value with breaks.
    shown = "; ".join(clip(str(v)) for v in violations[:_SHOWN_VIOLATIONS])
    more = len(violations) - _SHOWN_VIOLATIONS
    suffix = f" (+{more} more)" if more > 0 else ""
    return InvalidArguments(
        f"arguments break the inputSchema of MCP tool {tool_name!r}: {shown}{suffix}",
        details=[
            {"path": clip(v.path), "message": clip(v.message)}
            for v in violations[:_LISTED_VIOLATIONS]
        ],
    )
