"""The `/v1/dynamic-params` request (validated at the edge) and its responses (SPEC §2.1)."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from typing import Annotated, Any, Literal

import orjson
from pydantic import (
    AliasChoices,
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
    ValidationError,
    ValidationInfo,
    ValidatorFunctionWrapHandler,
    WrapValidator,
    field_validator,
    model_validator,
)

from resolver.core.clip import clip_repr
from resolver.core.envelope import Enveloped
from resolver.core.jsonio import all_finite, check_finite
from resolver.core.responses import ResponseBody
from rules.spec import MAX_MS, MIN_MS, ParamType, PropertySpec

MAX_PROPERTIES = 64
_PARAM_TYPES = {t.value: t for t in ParamType}
_SHOWN_KEYS = 5

Name = Annotated[StrictStr, Field(min_length=1, max_length=256, pattern=r"\S")]


class ParamDef(BaseModel):
    """A parameter of a logic property; extra fields from ontology-manager are kept."""

    model_config = ConfigDict(extra="allow", strict=True)

    name: Name
    type: StrictStr | None = None
    value_from: Literal["input", "property", "const"]
    value: Any = None
    if_system_generate: StrictBool = False
    comment: StrictStr | None = None

    @field_validator("type")
    @classmethod
    def _known_type(cls, value: str | None) -> str | None:
        if value in _PARAM_TYPES:
            return value  # already canonical (most definitions): no enum call
        if value is None or value == "":
            return None
        try:
            return ParamType.parse(value).value
        except ValueError:
            known = "/".join(t.value for t in ParamType)
            raise ValueError(
                f"unknown parameter type {clip_repr(value)} (known: {known})"
            ) from None

    @property
    def param_type(self) -> ParamType | None:
        """The declared type as an enum."""
        return None if self.type is None else _PARAM_TYPES[self.type]


class LogicPropertyDef(BaseModel):
    """A logic property definition (seed 003 §11.1); `tool` is read as `operator`."""

    model_config = ConfigDict(extra="allow", strict=True)

    name: Name
    type: Literal["metric", "operator"]
    display_name: StrictStr | None = None
    comment: StrictStr | None = None
    data_source: dict[str, Any] | None = None
    parameters: list[ParamDef] = Field(default_factory=list)
    time_dimension: dict[str, Any] | None = Field(
        default=None,
        description="Metrics only: the metric definition's time dimension, "
        '{"property": "<data property>", "default_range_policy"?: "…"}. null or {} (or no '
        "property) says the metric has none: its only window is the current value "
        "(instant=true), and a question naming a period is a 422. Absent: unknown, as before.",
    )

    @field_validator("type", mode="before")
    @classmethod
    def _tool_is_operator(cls, value: object) -> object:
        return "operator" if value == "tool" else value

    @field_validator("parameters")
    @classmethod
    def _unique_param_names(cls, value: list[ParamDef]) -> list[ParamDef]:
        seen: set[str] = set()
        for param in value:
            if param.name in seen:
                raise ValueError(f"duplicate parameter name {param.name!r}")
            seen.add(param.name)
        return value

    def has_time_dimension(self) -> bool | None:
        """Whether the metric has a time dimension: None when the definition does not say
        (`time_dimension` absent), False for null, {} or no property (SPEC §9.1)."""
        if "time_dimension" not in self.model_fields_set:
            return None
        dimension = self.time_dimension or {}
        named = dimension.get("property")
        return isinstance(named, str) and bool(named.strip())

    def inputs(self) -> list[ParamDef]:
        """The `value_from="input"` parameters, in declared order."""
        return [p for p in self.parameters if p.value_from == "input"]


# Validated definitions kept by their JSON (issue 33): a caller sends the same definitions with
# every question about an object type, and building the models was 40% of validating a body.
_KEPT_DEFINITIONS = 256
_KEPT_BYTES = 8192


class _Entry:
    """A kept definition and its spec, once built."""

    __slots__ = ("definition", "spec")

    def __init__(self, definition: LogicPropertyDef) -> None:
        self.definition = definition
        self.spec: PropertySpec | None = None


class _Kept:
    """The kept definitions: validated definitions by their JSON, the `_KEPT_DEFINITIONS` used
    last, each with its rules' view (`PropertySpec`) once a request has asked for it.

    The spec is found by the definition's identity (`spec_of`): a kept definition is the one
    object every request that sends it shares, and what is derived from it never changes. An
    entry holds its definition, so an identity found here is that definition's, never a
    later object's that reuses a freed one's id. Safe without a lock: a race at worst keeps an
    entry of a definition no longer kept, which the identity check still holds true.
    """

    __slots__ = ("_by_id", "_by_json")

    def __init__(self) -> None:
        self._by_json: OrderedDict[bytes, _Entry] = OrderedDict()
        self._by_id: dict[int, _Entry] = {}

    def definition(self, document: bytes) -> LogicPropertyDef:
        """The definition this JSON validates to (ValidationError when it does not)."""
        entry = self._by_json.get(document)
        if entry is not None:
            try:  # noqa: SIM105 - suppress() costs an object and two calls a definition
                self._by_json.move_to_end(document)
            except KeyError:
                pass  # evicted meanwhile by another thread: still a valid definition
            return entry.definition
        definition = LogicPropertyDef.model_validate_json(document)
        entry = self._by_json[document] = _Entry(definition)
        self._by_id[id(definition)] = entry
        while len(self._by_json) > _KEPT_DEFINITIONS:
            _, gone = self._by_json.popitem(last=False)
            if self._by_id.get(id(gone.definition)) is gone:
                del self._by_id[id(gone.definition)]
        return definition

    def spec_of(
        self, definition: LogicPropertyDef, build: Callable[[LogicPropertyDef], PropertySpec]
    ) -> PropertySpec:
        """`build(definition)`, built once for a kept definition and every time for another."""
        entry = self._by_id.get(id(definition))
        if entry is None or entry.definition is not definition:
            return build(definition)
        spec = entry.spec
        if spec is None:
            spec = entry.spec = build(definition)
        return spec


_kept = _Kept()


def kept_spec(
    definition: LogicPropertyDef, build: Callable[[LogicPropertyDef], PropertySpec]
) -> PropertySpec:
    """The rules' view of a definition: `build(definition)`, kept with the definition when it
    is a kept one (`params/property.py` builds it)."""
    return _kept.spec_of(definition, build)


# The validation context that says a Python document holds only what a JSON parser makes
# (an MCP call's arguments): its definitions are kept as a JSON body's are.
JSON_VALUES: dict[str, bool] = {"json_values": True}


def _kept_definition(
    value: Any, handler: ValidatorFunctionWrapHandler, info: ValidationInfo
) -> LogicPropertyDef:
    """A definition of a JSON body (or of a document validated with `JSON_VALUES`),
    validated once per distinct definition.

    The key is the definition written back as JSON, which tells apart any two JSON
    definitions that read differently, except a NaN or infinite number (written as null):
    a definition whose key holds a null is kept only when all its numbers are finite. A
    definition too large to keep, one that is not JSON, or one that does not validate goes
    through the validator as before, so its errors are unchanged. The models kept are shared
    by the requests that send them: nothing changes a definition once validated.
    """
    if (info.mode == "json" or info.context is JSON_VALUES) and type(value) is dict:
        document = _key(value)
        if document is not None:
            try:
                return _kept.definition(document)
            except ValidationError:
                pass  # validated again below, for the errors' places in the body
    validated: LogicPropertyDef = handler(value)
    return validated


def _key(value: dict[str, Any]) -> bytes | None:
    try:
        document = orjson.dumps(value)
    except TypeError:  # an integer beyond 64 bits
        return None
    if len(document) > _KEPT_BYTES:
        return None
    if b"null" in document and not all_finite(value):
        return None
    return document


KeptDefinition = Annotated[LogicPropertyDef, WrapValidator(_kept_definition)]


class ResolveOptions(BaseModel):
    """Per-request options."""

    # Frozen: every request that sends no options shares one instance (`no_options`).
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    max_concurrency: Annotated[StrictInt, Field(ge=1, le=16)] | None = None
    return_debug: StrictBool = False
    max_repair_rounds: Annotated[StrictInt, Field(ge=0, le=3)] = 1
    return_usage: StrictBool = False


_NO_OPTIONS = ResolveOptions()


def no_options() -> ResolveOptions:
    """The options of a request that sends none: one shared instance, not a model built per
    request (a `default_factory`, so the JSON Schema shows no default object)."""
    return _NO_OPTIONS


class ResolveRequest(Enveloped):
    """`POST /v1/dynamic-params` body."""

    model_config = ConfigDict(extra="forbid", strict=True, populate_by_name=True)

    logic_properties: Annotated[
        list[KeptDefinition], Field(min_length=1, max_length=MAX_PROPERTIES)
    ]
    query: StrictStr = Field(max_length=8192)
    unique_identities: list[dict[str, Any]] | None = Field(
        default=None, validation_alias=AliasChoices("unique_identities", "_instance_identities")
    )
    additional_context: StrictStr | dict[str, Any] | None = None
    dynamic_params: dict[str, dict[str, Any]] | None = None
    operator_schemas: dict[str, dict[str, Any]] | None = None
    now_ms: Annotated[StrictInt, Field(ge=MIN_MS, le=MAX_MS)] | None = None
    timezone: StrictStr | None = None
    options: ResolveOptions = Field(default_factory=no_options)
    llm_model: StrictStr | None = Field(default=None, min_length=1, max_length=256)

    @field_validator(
        "unique_identities", "additional_context", "dynamic_params", "operator_schemas"
    )
    @classmethod
    def _finite(cls, value: Any) -> Any:
        check_finite(value)
        return value

    @model_validator(mode="after")
    def _consistent(self) -> ResolveRequest:
        # Every request pays for this: what most send (one property, no dynamic_params, no
        # operator_schemas) is checked without building anything.
        properties = self.logic_properties
        if len(properties) > 1 and len({p.name for p in properties}) != len(properties):
            names = [p.name for p in properties]
            duplicates = sorted({n for n in names if names.count(n) > 1})
            raise ValueError(f"duplicate logic property names: {', '.join(duplicates)}")
        if not self.dynamic_params and not self.operator_schemas:
            return self
        by_name = {p.name: p for p in properties}
        for name, values in (self.dynamic_params or {}).items():
            prop = by_name.get(name)
            if prop is None:
                raise ValueError(
                    f"dynamic_params names {clip_repr(name)}, which is not a requested property"
                )
            inputs = {p.name for p in prop.inputs()}
            if inputs.issuperset(values):
                continue
            unknown = [k for k in values if k not in inputs]
            shown = ", ".join(map(clip_repr, unknown[:_SHOWN_KEYS]))
            if len(unknown) > _SHOWN_KEYS:
                shown += f" (+{len(unknown) - _SHOWN_KEYS} more)"
            raise ValueError(
                f"rule 3.1.1: dynamic_params.{name} has {shown}, "
                f"not inputs of {name} (inputs: {', '.join(sorted(inputs)) or 'none'})"
            )
        for name in self.operator_schemas or {}:
            prop = by_name.get(name)
            if prop is None or prop.type != "operator":
                raise ValueError(
                    f"operator_schemas names {clip_repr(name)}, which is not a requested operator"
                )
        return self


# `usage` (with `options.return_usage`, SPEC §6): what the LLM stage of the request cost.
USAGE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "llm_calls": {"type": "integer", "description": "calls answered by a provider"},
        "prompt_tokens": {"type": "integer"},
        "cached_tokens": {
            "type": "integer",
            "description": "prompt tokens the provider served from its prompt cache",
        },
        "completion_tokens": {"type": "integer"},
        "cost": {
            "type": ["number", "null"],
            "description": "by RESOLVER_LLM_PRICES; null when a call's model has no price",
        },
    },
    "required": ["llm_calls", "prompt_tokens", "cached_tokens", "completion_tokens", "cost"],
}


def usage_schema(schema: dict[str, Any]) -> None:
    """The JSON Schema of `usage`: the object above (left out of the body when not asked
    for, so never null)."""
    description = schema.get("description")
    schema.clear()
    schema.update(USAGE_SCHEMA)
    if description is not None:
        schema["description"] = description


USAGE_DESCRIPTION = (
    "With options.return_usage: the request's LLM calls, tokens (cached prompt tokens among "
    "them) and cost"
)


class ResolveResponse(ResponseBody):
    """The 200 body of `/v1/dynamic-params`."""

    dynamic_params: dict[str, dict[str, Any]]
    # A plain dict (not a model), so the body keeps orjson's fast path (core/responses.py).
    usage: dict[str, Any] | None = Field(
        default=None, description=USAGE_DESCRIPTION, json_schema_extra=usage_schema
    )
    trace_id: str
    debug: dict[str, Any] | None = None
