"""Assemble a `_dynamic_tools` entry from a recalled action and its tool's detail."""

from __future__ import annotations

import copy
from typing import Any

import structlog

from resolver.actions.fixed_params import mcp_fixed_params, tool_fixed_params
from resolver.actions.models import DynamicTool, FixedParams
from resolver.actions.urls import mcp_api_url, tool_api_url
from resolver.core.errors import SchemaConversionError
from resolver.toolschema import (
    function_description,
    function_name,
    mcp_parameters,
    openapi_parameters,
    output_schema,
)
from resolver.upstreams.models import Action, McpToolDetail, ToolDetail

log = structlog.get_logger("resolver.actions")


def build_tool(
    detail: ToolDetail,
    action: Action,
    *,
    box_id: str,
    tool_id: str,
    operator_integration_url: str,
) -> DynamicTool:
    """The entry for a tool-box tool (`action_source.type == "tool"`).

    Raises `SchemaConversionError` when the api_spec cannot be converted and
    `ValueError` when `box_id` or `tool_id` is empty.
    """
    name = function_name(detail.name, tool_id)
    fixed = tool_fixed_params(action.parameters, detail.api_spec)
    return DynamicTool(
        name=name,
        description=function_description(detail.name, detail.description, name),
        parameters=_not_requiring(openapi_parameters(detail.api_spec), action, fixed),
        api_url=tool_api_url(operator_integration_url, box_id, tool_id),
        original_schema=copy.deepcopy(detail.api_spec),
        fixed_params=fixed,
        output_schema=_output_schema(detail, tool_id),
    )


def _output_schema(detail: ToolDetail, tool_id: str) -> dict[str, Any] | None:
    """The tool's answer schema; a broken one is left out (it is advice to the model, and
    must not cost the caller a tool whose parameters are fine)."""
    try:
        return output_schema(detail.api_spec, tool=detail.name or tool_id)
    except SchemaConversionError as exc:
        log.warning("actions.output_schema_unusable", tool_id=tool_id, error=exc.message)
        return None


def build_mcp_tool(
    detail: McpToolDetail,
    action: Action,
    *,
    mcp_id: str,
    tool_name: str,
    public_url: str,
) -> DynamicTool:
    """The entry for an MCP tool (`action_source.type == "mcp"`), called through our proxy.

    Raises `SchemaConversionError` when the inputSchema cannot be converted and
    `ValueError` when `mcp_id` or `tool_name` is empty.
    """
    human = detail.name or tool_name
    name = function_name(human)
    fixed = mcp_fixed_params(action.parameters)
    return DynamicTool(
        name=name,
        description=function_description(human, detail.description, name),
        parameters=_not_requiring(mcp_parameters(detail.input_schema), action, fixed),
        api_url=mcp_api_url(public_url, mcp_id, tool_name),
        original_schema=copy.deepcopy(detail.input_schema),
        fixed_params=fixed,
    )


def _not_requiring(
    parameters: dict[str, Any], action: Action, fixed: FixedParams
) -> dict[str, Any]:
    """`parameters` without `required` entries the action already fixes.

    The model may still fill such a parameter (the caller decides which value wins), but
    it is never forced to invent one the caller already holds. Header names compare
    case-insensitively, as HTTP does.
    """
    required = parameters.get("required")
    if not required:
        return parameters
    headers = {name.lower() for name in fixed.header}
    kept = [
        name for name in required if name not in action.parameters and name.lower() not in headers
    ]
    out = {key: value for key, value in parameters.items() if key != "required"}
    if kept:
        out["required"] = kept
    return out
