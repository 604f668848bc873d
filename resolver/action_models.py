"""Action recall on the wire (SPEC §8): the caller's request, ontology-query's answer, the
MCP proxy's arguments, and the 200 body."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    AliasChoices,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StrictStr,
    model_validator,
)

from resolver.actions import Action, DynamicTool
from resolver.errors import BadRequest, InvalidJSON
from resolver.jsonio import loads

SourceKind = Literal["tool", "mcp"]


def usable_id(value: str) -> str:
    """An id that can be one URL path segment: printable, not blank, not `.` or `..`."""
    if not value.strip():
        raise ValueError("must not be blank")
    if not value.isprintable() or value.strip() in (".", ".."):
        raise ValueError("must be a printable id, not a path segment")
    return value


Id = Annotated[StrictStr, Field(min_length=1, max_length=256), AfterValidator(usable_id)]


class ActionInfoRequest(BaseModel):
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


def _text(value: Any) -> Any:
    """Go services write absent strings as null; ids may come as numbers."""
    if value is None:
        return ""
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return value


_Text = Annotated[str, BeforeValidator(_text)]


class ActionSource(BaseModel):
    """Where ontology-query says the action is implemented."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    type: _Text = ""
    box_id: _Text = ""
    tool_id: _Text = ""
    mcp_id: _Text = ""
    tool_name: _Text = ""

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


class ActionQuery(BaseModel):
    """ontology-query's answer for an action type and one object."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    actions: Annotated[list[Action], BeforeValidator(lambda v: [] if v is None else v)] = Field(
        default_factory=list
    )
    action_source: ActionSource | None = None

    def source(self) -> ActionSource | None:
        """The source, or None when there is none (absent, null or `{}`)."""
        if self.action_source is None or self.action_source.is_empty():
            return None
        return self.action_source


class ActionInfoResponse(BaseModel):
    """The 200 body of `get_action_info` (for /openapi.json)."""

    model_config = ConfigDict(populate_by_name=True)

    dynamic_tools: list[DynamicTool] = Field(alias="_dynamic_tools", max_length=1)
    trace_id: str


def tool_arguments(body: bytes) -> dict[str, Any]:
    """The MCP proxy body: the flat arguments object an LLM produced (empty body: `{}`)."""
    if not body.strip():
        return {}
    try:
        arguments = loads(body)
    except ValueError as exc:
        raise InvalidJSON(f"the body is not valid JSON: {str(exc)[:200]}") from None
    if not isinstance(arguments, dict):
        raise BadRequest(
            f"the body must be a JSON object of the tool's arguments, not {_json_type(arguments)}"
        )
    return arguments


def path_id(value: str, what: str) -> str:
    """An id taken from the URL path, checked like a body id (400 when unusable)."""
    try:
        return usable_id(value)
    except ValueError as exc:
        raise BadRequest(f"{what} {exc}", details=[{"loc": what, "msg": str(exc)}]) from None


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
