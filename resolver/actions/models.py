"""Upstream tool details in, `_dynamic_tools` entries out."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field


def _empty_if_null(empty: Any) -> BeforeValidator:
    return BeforeValidator(lambda value: empty() if value is None else value)


_Text = Annotated[str, _empty_if_null(str)]
_Object = Annotated[dict[str, Any], _empty_if_null(dict)]


class _Upstream(BaseModel):
    """A payload from another service: unknown fields are ignored, `null` reads as empty."""

    model_config = ConfigDict(frozen=True, extra="ignore", populate_by_name=True)


class ToolDetail(_Upstream):
    """A tool-box tool as agent-operator-integration describes it (`tool-box/{box}/tool/{id}`)."""

    name: str
    description: _Text = ""
    api_spec: _Object = Field(default_factory=dict)


class McpToolDetail(_Upstream):
    """An MCP tool as agent-operator-integration describes it (`mcp/{mcp}/tools/{name}`)."""

    name: str
    description: _Text = ""
    input_schema: _Object = Field(default_factory=dict, alias="inputSchema")
    annotations: _Object = Field(default_factory=dict)


class Action(_Upstream):
    """One element of ontology-query's `actions`: fixed values and the ones the LLM fills."""

    parameters: _Object = Field(default_factory=dict)
    dynamic_params: _Object = Field(default_factory=dict)


class FixedParams(BaseModel):
    """Values already known for the call, by where they go in the HTTP request."""

    model_config = ConfigDict(extra="forbid")

    header: dict[str, Any] = Field(default_factory=dict)
    path: dict[str, Any] = Field(default_factory=dict)
    query: dict[str, Any] = Field(default_factory=dict)
    body: dict[str, Any] = Field(default_factory=dict)


class DynamicTool(BaseModel):
    """One `_dynamic_tools` entry: an OpenAI function-call tool plus how to call it."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(pattern=r"^[a-zA-Z0-9_-]{1,64}$")
    description: str
    parameters: dict[str, Any]
    api_url: str
    original_schema: dict[str, Any]
    fixed_params: FixedParams
