"""Action recall on the wire (SPEC §8): the caller's request, the 200 body and its
`_dynamic_tools` entries, and the MCP proxy's arguments."""

from __future__ import annotations

from typing import Any

from pydantic import AliasChoices, BaseModel, ConfigDict, Field, model_validator

from resolver.core.envelope import Enveloped
from resolver.core.errors import BadRequest, InvalidJSON
from resolver.core.ids import Id
from resolver.core.jsonio import loads
from resolver.core.responses import ResponseBody


class ActionInfoRequest(Enveloped):
    """`POST /api/agent-retrieval/in/v1/kn/get_action_info` body.

    One object is named by `unique_identity` (alias `_instance_identity`, the Go service's
    legacy name) or by `_instance_identities` (alias `unique_identities`). Empty maps are
    dropped; the first non-empty identity of the list wins over `unique_identity`, as in the
    Go service; one of them must name the object.
    """

    model_config = ConfigDict(extra="forbid", strict=True)

    kn_id: Id
    at_id: Id
    unique_identity: dict[str, Any] | None = Field(
        default=None, validation_alias=AliasChoices("unique_identity", "_instance_identity")
    )
    instance_identities: list[dict[str, Any]] | None = Field(
        default=None,
        max_length=1000,
        validation_alias=AliasChoices("_instance_identities", "unique_identities"),
    )

    @model_validator(mode="after")
    def _names_an_object(self) -> ActionInfoRequest:
        if not self.identity():
            raise ValueError(
                "name the object: unique_identity or _instance_identities with a non-empty object"
            )
        return self

    def identity(self) -> dict[str, Any]:
        """The object whose actions are recalled (empty only before validation passed)."""
        for candidate in self.instance_identities or []:
            if candidate:
                return candidate
        return self.unique_identity or {}


class FixedParams(BaseModel):
    """Values already known for the call, by where they go in the HTTP request."""

    model_config = ConfigDict(extra="forbid")

    header: dict[str, Any] = Field(default_factory=dict)
    path: dict[str, Any] = Field(default_factory=dict)
    query: dict[str, Any] = Field(default_factory=dict)
    body: dict[str, Any] = Field(default_factory=dict)


class DynamicTool(ResponseBody):
    """One `_dynamic_tools` entry: an OpenAI function-call tool plus how to call it.

    `output_schema` (tool-box tools only, left out when unknown) is the JSON Schema of what
    the tool answers.
    """

    model_config = ConfigDict(extra="forbid")

    name: str = Field(pattern=r"^[a-zA-Z0-9_-]{1,64}$")
    description: str
    parameters: dict[str, Any]
    api_url: str
    original_schema: dict[str, Any]
    fixed_params: FixedParams
    output_schema: dict[str, Any] | None = None


class ActionInfoResponse(ResponseBody):
    """The 200 body of `get_action_info`: the tool, and the headers its execution sends."""

    model_config = ConfigDict(populate_by_name=True)

    headers: dict[str, str] = Field(
        default_factory=dict,
        description="send these with the action's execution: the W3C traceparent (and "
        "tracestate) of a child span of this request, so that the execution joins its trace",
    )
    dynamic_tools: list[DynamicTool] = Field(alias="_dynamic_tools", max_length=1)
    trace_id: str


def tool_arguments(body: bytes) -> dict[str, Any]:
    """The MCP proxy body: the flat arguments object an LLM produced (empty body: `{}`)."""
    if not body.strip():
        return {}
    try:
        arguments = loads(body)
    except ValueError as exc:
        raise InvalidJSON(f"the body is not valid JSON: {str(exc)[:200]}") from exc
    if not isinstance(arguments, dict):
        raise BadRequest(
            f"the body must be a JSON object of the tool's arguments, not {_json_type(arguments)}"
        )
    return arguments


def _json_type(value: Any) -> str:
    if isinstance(value, list):
        return "an array"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, bool):
        return "a boolean"
    if value is None:
        return "null"
    return "a number"
