"""Action recall: an object's action (OpenAPI tool or MCP tool) as an OpenAI function-call tool.

Pure and I/O-free; the HTTP endpoints fetch the action and the tool detail and call
`build_tool` / `build_mcp_tool`, and the MCP proxy calls `validate_arguments`.
"""

from resolver.actions.arguments import ArgumentViolation, validate_arguments
from resolver.actions.fixed_params import mcp_fixed_params, tool_fixed_params
from resolver.actions.mcp import mcp_parameters
from resolver.actions.models import Action, DynamicTool, FixedParams, McpToolDetail, ToolDetail
from resolver.actions.naming import function_description, function_name
from resolver.actions.openapi import openapi_parameters
from resolver.actions.refs import RefLookup, document_lookup
from resolver.actions.schema import MAX_REF_DEPTH, resolve_schema
from resolver.actions.tools import build_mcp_tool, build_tool
from resolver.actions.urls import mcp_api_url, tool_api_url
from resolver.errors import SchemaConversionError

__all__ = [
    "MAX_REF_DEPTH",
    "Action",
    "ArgumentViolation",
    "DynamicTool",
    "FixedParams",
    "McpToolDetail",
    "RefLookup",
    "SchemaConversionError",
    "ToolDetail",
    "build_mcp_tool",
    "build_tool",
    "document_lookup",
    "function_description",
    "function_name",
    "mcp_api_url",
    "mcp_fixed_params",
    "mcp_parameters",
    "openapi_parameters",
    "resolve_schema",
    "tool_api_url",
    "tool_fixed_params",
    "validate_arguments",
]
