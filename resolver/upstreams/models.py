"""Answers of the upstream services as resolver reads them: unknown fields are ignored, `null`
reads as empty (Go services write absent fields as null), ids may come as numbers."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field

SourceKind = Literal["tool", "mcp"]


def _empty_if_null(empty: Any) -> BeforeValidator:
    return BeforeValidator(lambda value: empty() if value is None else value)


def _id_text(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return value


_Text = Annotated[str, _empty_if_null(str)]
_IdText = Annotated[str, BeforeValidator(_id_text)]  # ids may come as numbers
_Object = Annotated[dict[str, Any], _empty_if_null(dict)]


class _Upstream(BaseModel):
    """A payload from another service."""

    model_config = ConfigDict(frozen=True, extra="ignore", populate_by_name=True)


class ToolDetail(_Upstream):
    """A tool-box tool as agent-operator-integration describes it (`tool-box/{box}/tool/{id}`)."""

    name: str
    description: _Text = ""
    api_spec: _Object = Field(default_factory=dict)


class McpToolDetail(_Upstream):
    """An MCP tool as agent-operator-integration lists it (`mcp/proxy/{mcp_id}/tools`)."""

    name: str
    description: _Text = ""
    input_schema: _Object = Field(default_factory=dict, alias="inputSchema")
    annotations: _Object = Field(default_factory=dict)


class Action(_Upstream):
    """One element of ontology-query's `actions`: fixed values and the ones the LLM fills."""

    parameters: _Object = Field(default_factory=dict)
    dynamic_params: _Object = Field(default_factory=dict)


class ActionSource(_Upstream):
    """Where ontology-query says the action is implemented."""

    type: _IdText = ""
    box_id: _IdText = ""
    tool_id: _IdText = ""
    mcp_id: _IdText = ""
    tool_name: _IdText = ""

    def is_empty(self) -> bool:
        """`{}` (or every field null): no source at all."""
        return not any((self.type, self.box_id, self.tool_id, self.mcp_id, self.tool_name))

    def kind(self) -> SourceKind | None:
        """`tool` or `mcp` (case and surrounding spaces ignored); None for anything else."""
        kind = self.type.strip().lower()
        if kind == "tool":
            return "tool"
        if kind == "mcp":
            return "mcp"
        return None


class ActionQuery(_Upstream):
    """ontology-query's answer for an action type and one object."""

    actions: Annotated[list[Action], _empty_if_null(list)] = Field(default_factory=list)
    action_source: ActionSource | None = None

    def source(self) -> ActionSource | None:
        """The source, or None when there is none (absent, null or `{}`)."""
        if self.action_source is None or self.action_source.is_empty():
            return None
        return self.action_source
