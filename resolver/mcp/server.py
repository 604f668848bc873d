"""The MCP server: the SDK's low-level `Server` listing the five tools and running one call —
counted, logged under the call's trace id, every failure a tool error in the HTTP shape, by
the failure policy the HTTP middleware uses (`core/failures.py`).

One server per transport; both share the application's services. The transport says what a
call knows besides its arguments (`ContextOf`): over HTTP the context the aiohttp handler put
into the request, over stdio the process's defaults.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import mcp_types as types
import structlog
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import Server
from mcp.shared.exceptions import MCPError

from resolver.core import envelope, tracing
from resolver.core.failures import failure_of
from resolver.core.logs import access_log, context_var
from resolver.core.metrics import Metrics
from resolver.core.toon import parse_format
from resolver.mcp import results
from resolver.mcp.exchange import CallContext
from resolver.mcp.info import SERVER_NAME, server_version
from resolver.mcp.tools import BY_NAME, INSTRUCTIONS, TOOLS, ToolSpec
from resolver.services import Services

log = structlog.get_logger("resolver.mcp")

ContextOf = Callable[[ServerRequestContext[Any, Any]], CallContext]


def annotations_of(tool: ToolSpec) -> types.ToolAnnotations:
    """A tool's hints, by the MCP specification and upstream's policy (bkn-foundry
    `driveradapters/mcp/annotations_test.go`, SPEC §8): `readOnlyHint` stated either way; a
    read-only tool carries neither `destructiveHint` nor `idempotentHint` (they are defined only
    for tools that write), and one whose domain is the knowledge network or the clock carries
    `openWorldHint: false`. A writing tool would have to state both write hints."""
    if tool.read_only:
        return types.ToolAnnotations(
            title=tool.title, read_only_hint=True, open_world_hint=tool.open_world
        )
    raise ValueError(f"{tool.name}: a writing tool must state destructiveHint and idempotentHint")


LISTED = types.ListToolsResult(
    tools=[
        types.Tool(
            name=tool.name,
            title=tool.title,
            description=tool.description,
            input_schema=tool.input_schema,
            output_schema=tool.output_schema,
            annotations=annotations_of(tool),
        )
        for tool in TOOLS
    ]
)


def build_server(services: Services, metrics: Metrics, context_of: ContextOf) -> Server[Any]:
    """The SDK server of the tools over these services."""

    async def list_tools(
        ctx: ServerRequestContext[Any, Any], params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return LISTED

    async def call_tool(
        ctx: ServerRequestContext[Any, Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        tool = BY_NAME.get(params.name)
        if tool is None:
            metrics.observe_mcp_call("unknown", "unknown_tool", 0.0)
            # An unknown tool is a protocol error (MCP spec), not a tool error.
            raise MCPError(
                types.INVALID_PARAMS,
                f"unknown tool {params.name[:64]!r}; this server has " + ", ".join(sorted(BY_NAME)),
            )
        return await run_call(tool, services, params.arguments or {}, context_of(ctx), metrics)

    return Server(
        SERVER_NAME,
        version=server_version(),
        title="resolver",
        instructions=INSTRUCTIONS,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
    )


async def run_call(
    tool: ToolSpec,
    services: Services,
    arguments: dict[str, Any],
    context: CallContext,
    metrics: Metrics,
) -> types.CallToolResult:
    """One tool call in a task of its own (the SDK's, stdio's): its result, or a tool error
    carrying the HTTP error body (`run_outcome`), as the SDK's result model."""
    with in_call_context(context):
        outcome = await run_outcome(tool, services, arguments, context, metrics)
    return outcome.result()


@contextmanager
def in_call_context(context: CallContext) -> Iterator[None]:
    """The block under the call's trace context and with its trace id on every log line: what
    a task other than the HTTP request's (which has both already) needs to run the call."""
    with (
        tracing.attached(context.trace_context),
        structlog.contextvars.bound_contextvars(trace_id=context.trace_id),
    ):
        yield


_TRACE_ID = context_var("trace_id")


def bound_trace_id() -> str | None:
    """The trace id on this task's log lines (the request edge binds the request's): read
    from structlog's variable itself, not from a copy of the whole context."""
    trace_id = _TRACE_ID.get(None)
    return None if trace_id is Ellipsis else trace_id  # structlog's mark of an unbound key


async def run_outcome(
    tool: ToolSpec,
    services: Services,
    arguments: dict[str, Any],
    context: CallContext,
    metrics: Metrics,
) -> results.Outcome:
    """One tool call: its result, or a tool error carrying the HTTP error body. It runs in a
    task whose context is the call's: the HTTP request's own (the fast path), or `run_call`'s.

    Every tool's arguments pass here first: the platform's envelope (`bkn_context`) is taken
    off (`core/envelope.py`; a wrong shape is a tool error) and its ids noted on the call's log
    lines; `response_format` is read here too: the text of the result is JSON (the default) or
    TOON; errors are always JSON. The call runs under the HTTP request's trace context.
    """
    started = time.perf_counter()
    try:
        arguments, carried = envelope.take(arguments)
        context.seen.envelope = carried
        envelope.note(carried)
        wanted = None
        if "response_format" in arguments:
            arguments = dict(arguments)  # the tool's own arguments, without the format
            wanted = arguments.pop("response_format")
        fmt = (
            "json"
            if wanted is None
            else parse_format(wanted if isinstance(wanted, str) else str(wanted))
        )
        body = await tool.run(services, arguments, context)
    except Exception as exc:  # noqa: BLE001 - failure_of logs it (a bug: with its traceback)
        failure = failure_of(
            exc,
            context.trace_id,
            context.language,
            log,
            failed="mcp.tool_failed",
            crashed="mcp.tool_crashed",
            tool=tool.name,
        )
        outcome = failure.code
        result = results.failure(failure)
    else:
        outcome = "ok"
        # TOON is pure CPU work (bounded, but up to a fraction of a second): off the loop.
        result = (
            await services.offload.run(results.success, body, fmt)
            if fmt == "toon"
            else results.success(body, fmt)
        )
    elapsed = time.perf_counter() - started
    metrics.observe_mcp_call(tool.name, outcome, elapsed)
    # Written like the access line (`core/logs.py`): structlog's line, not its chain.
    access_log.info(
        "resolver.mcp",
        "mcp.tool_call",
        {"tool": tool.name, "outcome": outcome, "latency_ms": round(elapsed * 1000, 2)},
    )
    if not context.in_request_task:
        # In the HTTP request's own task the ids stay for its access line, and end with it.
        envelope.forget()
    return result
