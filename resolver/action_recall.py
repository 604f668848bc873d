"""Action recall (SPEC §8): which action an object offers, as a ready OpenAI function-call tool.

1. ontology-query: the action type's actions for the object, and where they are implemented;
2. agent-operator-integration: the tool-box tool's api_spec or the MCP tool's inputSchema;
3. the converter (`resolver.actions`) builds the `_dynamic_tools` entry from `actions[0]`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import structlog
from pydantic import ValidationError

from resolver.action_models import ActionInfoRequest, ActionQuery, ActionSource
from resolver.actions import Action, DynamicTool, build_mcp_tool, build_tool
from resolver.errors import ActionTypeNotFound, UnsupportedActionType, UpstreamError
from resolver.mcp_tool_cache import McpToolCache
from resolver.operator_tools import fetch_tool_detail
from resolver.upstream import (
    ONTOLOGY_QUERY,
    OPERATOR_INTEGRATION,
    CallerHeaders,
    UpstreamClient,
    Upstreams,
)
from resolver.upstream import segment as seg

log = structlog.get_logger("resolver.actions")


class ActionRecall:
    """Runs the three steps for one request; holds no per-request state."""

    def __init__(self, upstreams: Upstreams, mcp_tools: McpToolCache) -> None:
        self.upstreams = upstreams
        self.mcp_tools = mcp_tools

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
            tool = await self._tool(operators, source, action, caller)
        elif kind == "mcp":
            tool = await self._mcp_tool(source, action, caller, public_url)
        else:
            raise UnsupportedActionType(
                f"action type {request.at_id!r} is implemented by a {source.type[:64]!r} source;"
                " only tool and mcp sources can be recalled",
                details={"action_source": source.model_dump()},
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
        source: ActionSource,
        action: Action,
        caller: CallerHeaders,
    ) -> DynamicTool:
        box_id, tool_id = _ids(source, "box_id", "tool_id")
        detail = await fetch_tool_detail(operators, box_id, tool_id, caller)
        return build_tool(
            detail,
            action,
            box_id=box_id,
            tool_id=tool_id,
            operator_integration_url=operators.base_url,
        )

    async def _mcp_tool(
        self,
        source: ActionSource,
        action: Action,
        caller: CallerHeaders,
        public_url: Callable[[], str],
    ) -> DynamicTool:
        mcp_id, tool_name = _ids(source, "mcp_id", "tool_name")
        base_url = public_url()
        detail = await self.mcp_tools.get(mcp_id, tool_name, caller)
        return build_mcp_tool(
            detail, action, mcp_id=mcp_id, tool_name=tool_name, public_url=base_url
        )


async def query_actions(
    client: UpstreamClient,
    kn_id: str,
    at_id: str,
    identity: dict[str, Any],
    caller: CallerHeaders,
) -> ActionQuery:
    """Step 1: the action type's actions for one object; 404 when there is no such type."""
    path = f"/api/ontology-query/in/v1/knowledge-networks/{seg(kn_id)}/action-types/{seg(at_id)}"
    try:
        answer = await client.post_json(path, {"unique_identities": [identity]}, caller=caller)
    except UpstreamError as exc:
        if exc.upstream_status == 404:
            raise ActionTypeNotFound(
                f"action type {at_id!r} not found in knowledge network {kn_id!r}",
                details={"kn_id": kn_id, "at_id": at_id, "service": ONTOLOGY_QUERY},
            ) from None
        raise
    if not isinstance(answer, dict):
        raise _unreadable("the answer is not a JSON object")
    try:
        return ActionQuery.model_validate(answer)
    except ValidationError as exc:
        first = exc.errors(include_url=False, include_input=False)[0]
        where = ".".join(str(p) for p in first["loc"]) or "answer"
        raise _unreadable(f"{where}: {first['msg']}") from None


def _ids(source: ActionSource, *names: str) -> list[str]:
    """The source's ids that name the tool; a missing or unusable one is ontology-query's fault."""
    values = [getattr(source, name) for name in names]
    for name, value in zip(names, values, strict=True):
        if not value.strip() or value.strip() in (".", ".."):
            raise _unreadable(f"action_source of type {source.type!r} has no usable {name}")
    return values


def _unreadable(reason: str) -> UpstreamError:
    return UpstreamError(
        f"{ONTOLOGY_QUERY} answered with actions resolver cannot read: {reason}",
        service=ONTOLOGY_QUERY,
        details={"service": ONTOLOGY_QUERY, "upstream_status": None},
    )
