"""Describe the inputs of an object type's logic properties (upstream issue #1701), so that an
agent can send caller values in `dynamic_params` directly instead of learning them from 422s.

The same reads as the pipeline's steps 0–2 — permissions and the object type (the caller sees
only the properties it may see; a named invisible property is as unknown as a missing one),
then the operator or tool-box schemas (best effort, the same cache) — and the same rules: an
input is `required` when `rules.registry.missing` would report it, `settled_in_code` when the
time scanner settles it (a metric's time inputs) or a schema default does (the same check the
resolution makes, `params/defaults.py`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from resolver.core.errors import UpstreamError
from resolver.kn.definitions import pick_properties
from resolver.kn.models import InputDescription, InputsRequest, InputsResponse, PropertyInputs
from resolver.kn.operator_schemas import OperatorSchemas, SchemaResult
from resolver.kn.permissions import read_visible_object_type
from resolver.params.models import LogicPropertyDef, ParamDef
from resolver.params.property import PropertyState
from resolver.toolschema import compact
from resolver.upstreams.client import CallerHeaders, Upstreams
from rules.spec import METRIC_TIME_PARAMS, STEPS

_TIME_DESCRIPTIONS = {
    "instant": "true for the current value; false (or leave out) for a time window",
    "start": "first millisecond of the window, epoch ms",
    "end": "last millisecond of the window, epoch ms",
    "step": "granularity of the window",
}
_REQUIRED_UNLESS = {
    "instant": "start, end and step are given (instant is then false)",
    "start": "instant is true",
    "end": "instant is true",
    "step": "instant is true",
}


@dataclass(frozen=True, slots=True)
class Described:
    """The properties' inputs, the permission levels that applied, and schema warnings."""

    properties: list[PropertyInputs]
    effective_permissions: dict[str, str]
    warnings: list[str]

    def response(self, request: InputsRequest, trace_id: str) -> InputsResponse:
        """The 200 body (HTTP and MCP alike)."""
        return InputsResponse(
            kn_id=request.kn_id,
            ot_id=request.ot_id,
            logic_properties=self.properties,
            effective_permissions=self.effective_permissions,
            warnings=self.warnings,
            trace_id=trace_id,
        )


class InputCatalog:
    """Describes logic property inputs; holds no per-request state."""

    def __init__(self, upstreams: Upstreams, schemas: OperatorSchemas) -> None:
        self.upstreams = upstreams
        self.schemas = schemas

    async def describe(self, request: InputsRequest, caller: CallerHeaders) -> Described:
        """The inputs of the named (else every visible) logic property, in order."""
        visible = await read_visible_object_type(
            self.upstreams, request.kn_id, request.ot_id, caller
        )
        warnings: list[str] = list(visible.object_type.warnings)
        if request.properties is not None:
            definitions = pick_properties(
                visible.definitions, visible.object_type, request.properties
            )
        else:
            definitions = []
            for name in visible.object_type.logic_property_names():
                try:
                    definitions += pick_properties(visible.definitions, visible.object_type, [name])
                except UpstreamError as exc:
                    # Asked for everything: one definition resolver cannot read is left out
                    # and said so, rather than hiding all the others.
                    warnings.append(exc.message)
        schemas = await self.schemas.of_properties(definitions, caller)
        warnings += [r.warning for r in schemas.values() if r.warning]
        described = [_describe(d, schemas.get(d.name)) for d in definitions]
        return Described(described, visible.effective_permissions, warnings)


def _describe(definition: LogicPropertyDef, schema: SchemaResult | None) -> PropertyInputs:
    per_input = _input_schemas(schema)
    state = PropertyState.of(definition, per_input or None)
    required = set(state.open_params())
    before = set(state.values)
    state.apply_defaults("en")  # nothing is reported missing here: the language is unused
    defaulted = set(state.values) - before
    inputs = [
        _input(
            definition,
            param,
            schema=per_input.get(param.name),
            required=required,
            defaulted=defaulted,
            state=state,
        )
        for param in definition.inputs()
    ]
    return PropertyInputs(
        name=definition.name,
        type=definition.type,
        display_name=definition.display_name,
        comment=definition.comment,
        inputs=inputs,
    )


def _input(
    definition: LogicPropertyDef,
    param: ParamDef,
    *,
    schema: Mapping[str, Any] | None,
    required: set[str],
    defaulted: set[str],
    state: PropertyState,
) -> InputDescription:
    is_time = definition.type == "metric" and param.name in METRIC_TIME_PARAMS
    declared = state.spec.implicit_type(param.name)
    kind = declared.json_type if declared is not None else None
    if kind is None and schema is not None and isinstance(schema.get("type"), str):
        kind = schema["type"]
    enum = schema.get("enum") if schema is not None else None
    if is_time and param.name == "step":
        enum = list(STEPS)
    description = param.comment or (schema or {}).get("description")
    if description is None and is_time:
        description = _TIME_DESCRIPTIONS[param.name]
    settled_by: Any = None
    if is_time:
        settled_by = "time_expression"
    elif param.name in defaulted:
        settled_by = "schema_default"
    return InputDescription(
        name=param.name,
        type=kind or "any",
        required=param.name in required,
        required_unless=_REQUIRED_UNLESS.get(param.name) if is_time else None,
        enum=enum if isinstance(enum, list) else None,
        default=state.values.get(param.name) if param.name in defaulted else None,
        description=description if isinstance(description, str) else None,
        input_schema=compact(schema) if schema is not None else None,
        settled_in_code=settled_by is not None,
        settled_by=settled_by,
    )


def _input_schemas(schema: SchemaResult | None) -> dict[str, dict[str, Any]]:
    # Converted when the document was fetched (off the event loop), not once per request.
    if schema is None or schema.inputs is None:
        return {}
    return schema.inputs
