"""Action recall (SPEC §8): which action an object offers, as a ready OpenAI function-call tool.

1. ontology-query: the action type's actions for the object, and where they are implemented;
2. agent-operator-integration: the tool-box tool's api_spec or the MCP tool's inputSchema;
3. the converter (`resolver.actions`) builds the `_dynamic_tools` entry from `actions[0]`;
the answer's `headers` carry the trace context the action's execution continues.
"""

from __future__ import annotations

from collections.abc import Callable

import structlog

from resolver.actions.mcp_tools import McpToolCache
from resolver.actions.models import ActionInfoRequest, ActionInfoResponse, DynamicTool
from resolver.actions.tools import build_mcp_tool, build_tool
from resolver.core import tracing
from resolver.core.clip import clip, clip_repr
from resolver.core.errors import UnsupportedActionType
from resolver.core.ids import is_usable_id
from resolver.core.offload import Offload
from resolver.upstreams.client import (
    ONTOLOGY_QUERY,
    OPERATOR_INTEGRATION,
    CallerHeaders,
    UpstreamClient,
    Upstreams,
)
from resolver.upstreams.models import Action, ActionSource
from resolver.upstreams.ontology_query import query_actions
from resolver.upstreams.operator_integration import fetch_tool_detail

log = structlog.get_logger("resolver.actions")

# The span the action's execution is a child of (upstream names the operation
# `ontology.action.execute`).
HANDOFF_SPAN = "action.execute handoff"


class ActionRecall:
    """Runs the three steps for one request; holds no per-request state."""

    def __init__(self, upstreams: Upstreams, mcp_tools: McpToolCache, offload: Offload) -> None:
        self.upstreams = upstreams
        self.mcp_tools = mcp_tools
        # Converting a tool's schema is pure CPU work, bounded but a fraction of a second for
        # a hostile one: off the event loop.
        self.offload = offload

    async def answer(
        self,
        request: ActionInfoRequest,
        caller: CallerHeaders,
        *,
        public_url: Callable[[], str],
    ) -> ActionInfoResponse:
        """The 200 body: the recalled tools and the trace headers for their execution."""
        tools = await self.recall(request, caller, public_url=public_url)
        return ActionInfoResponse(
            headers=execution_headers(caller), dynamic_tools=tools, trace_id=caller.trace_id
        )

    async def recall(
        self,
        request: ActionInfoRequest,
        caller: CallerHeaders,
        *,
        public_url: Callable[[], str],
    ) -> list[DynamicTool]:
        """The `_dynamic_tools` list: one entry, or none when the object has no action.

        `public_url` tells how callers reach this service (MCP tools are called through its
        proxy endpoint); it is asked only when the action is an MCP tool.
        """
        # Both services are checked before any work, so 503 comes first and fast.
        query = self.upstreams.get(ONTOLOGY_QUERY)
        operators = self.upstreams.get(OPERATOR_INTEGRATION)
        answer = await query_actions(
            query, request.kn_id, request.at_id, request.identity(), caller
        )
        source = answer.source()
        if not answer.actions or source is None:
            log.info(
                "actions.none",
                kn_id=request.kn_id,
                at_id=request.at_id,
                actions=len(answer.actions),
                source=source is not None,
            )
            return []
        # Only the first action counts: the request names one object (SPEC §8 step 1).
        action = answer.actions[0]
        kind = source.kind()
        if kind == "tool":
            box_id, tool_id = _ids(query, source, "box_id", "tool_id")
            tool = await self._tool(operators, box_id, tool_id, action, caller)
        elif kind == "mcp":
            mcp_id, tool_name = _ids(query, source, "mcp_id", "tool_name")
            tool = await self._mcp_tool(mcp_id, tool_name, action, caller, public_url)
        else:
            raise UnsupportedActionType(
                f"action type {request.at_id!r} is implemented by a {clip_repr(source.type, 64)} "
                "source; only tool and mcp sources can be recalled",
                details={"action_source": {k: clip(v) for k, v in source.model_dump().items()}},
            )
        log.info(
            "actions.recalled",
            kn_id=request.kn_id,
            at_id=request.at_id,
            source=kind,
            actions=len(answer.actions),
            tool=tool.name,
        )
        return [tool]

    async def _tool(
        self,
        operators: UpstreamClient,
        box_id: str,
        tool_id: str,
        action: Action,
        caller: CallerHeaders,
    ) -> DynamicTool:
        detail = await fetch_tool_detail(operators, box_id, tool_id, caller)
        return await self.offload.run(
            build_tool,
            detail,
            action,
            box_id=box_id,
            tool_id=tool_id,
            operator_integration_url=operators.base_url,
        )

    async def _mcp_tool(
        self,
        mcp_id: str,
        tool_name: str,
        action: Action,
        caller: CallerHeaders,
        public_url: Callable[[], str],
    ) -> DynamicTool:
        base_url = public_url()
        detail = await self.mcp_tools.get(mcp_id, tool_name, caller)
        return await self.offload.run(
            build_mcp_tool, detail, action, mcp_id=mcp_id, tool_name=tool_name, public_url=base_url
        )


def execution_headers(caller: CallerHeaders) -> dict[str, str]:
    """The W3C `traceparent` (and `tracestate`) of a child span of this request, for the agent
    to send with the action's execution so that it joins the caller's trace (SPEC §8)."""
    return tracing.handoff_headers(
        HANDOFF_SPAN, caller.traceparent, caller.tracestate, caller.trace_id
    )


def _ids(query: UpstreamClient, source: ActionSource, *names: str) -> list[str]:
    """The source's ids that name the tool; an unusable one is ontology-query's fault (502)."""
    values = [getattr(source, name) for name in names]
    for name, value in zip(names, values, strict=True):
        if not is_usable_id(value):
            raise query.unreadable(
                "actions", f"action_source of type {clip_repr(source.type)} has no usable {name}"
            )
    return values
