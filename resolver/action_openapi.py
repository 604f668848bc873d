"""The action-recall and MCP-proxy operations of /openapi.json (SPEC §8)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pydantic import BaseModel

from resolver.action_handlers import MCP_PROXY_PATH, PRIVATE_PATH, PUBLIC_PATH
from resolver.action_models import ActionInfoRequest, ActionInfoResponse

ErrorResponse = Callable[[str], dict[str, Any]]

MODELS: tuple[type[BaseModel], ...] = (ActionInfoRequest, ActionInfoResponse)


def action_paths(error: ErrorResponse) -> dict[str, Any]:
    """The paths of both endpoints; `error` describes an error response in the document."""
    recall = _recall_operation(error)
    return {
        PRIVATE_PATH: {"post": recall},
        PUBLIC_PATH: {"post": recall},
        MCP_PROXY_PATH: {"post": _proxy_operation(error)},
    }


def _json(schema: dict[str, Any], description: str) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def _recall_operation(error: ErrorResponse) -> dict[str, Any]:
    return {
        "summary": "An object's action as an OpenAI function-call tool (Go-compatible)",
        "requestBody": {
            "required": True,
            "content": {
                "application/json": {"schema": {"$ref": "#/components/schemas/ActionInfoRequest"}}
            },
        },
        "responses": {
            "200": _json(
                {"$ref": "#/components/schemas/ActionInfoResponse"},
                "the tool built from actions[0]; `[]` when the object has no action",
            ),
            "400": error("bad request, or a source type other than tool/mcp"),
            "404": error("action type, tool-box tool or MCP tool not found"),
            "502": error("an upstream failed, or the tool's schema cannot be converted"),
            "503": error("RESOLVER_ONTOLOGY_QUERY_URL or RESOLVER_OPERATOR_INTEGRATION_URL unset"),
        },
    }


def _proxy_operation(error: ErrorResponse) -> dict[str, Any]:
    ids = [
        {"name": name, "in": "path", "required": True, "schema": {"type": "string"}}
        for name in ("mcp_id", "tool_name")
    ]
    return {
        "summary": "Call an MCP tool with the flat arguments an LLM produced",
        "parameters": ids,
        "requestBody": {
            "required": False,
            "content": {
                "application/json": {
                    "schema": {
                        "type": "object",
                        "description": "the tool's arguments, checked against its inputSchema",
                        "additionalProperties": True,
                    }
                }
            },
        },
        "responses": {
            "200": _json({}, "the tool's JSON answer as agent-operator-integration gave it"),
            "400": error("body not a JSON object, or arguments breaking the inputSchema"),
            "404": error("MCP tool not found"),
            "502": error("agent-operator-integration failed, or the inputSchema is unusable"),
            "503": error("RESOLVER_OPERATOR_INTEGRATION_URL unset"),
        },
    }
