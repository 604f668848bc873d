"""Properties of the converters on arbitrary schema-shaped input (hypothesis)."""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from resolver.core.errors import SchemaConversionError
from resolver.toolschema import mcp_parameters, openapi_parameters
from tests.actions_checks import assert_function_parameters

DEFS = ["A", "B", "C", "Missing"]

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-5, 5),
    st.floats(-2, 2),
    st.sampled_from(["x", "[", "^a$"]),
)
types = st.one_of(
    st.sampled_from(["string", "integer", "number", "boolean", "object", "array", "null", "file"]),
    st.lists(st.sampled_from(["string", "integer", "null", "bogus"]), max_size=3),
)
# Mostly resolvable refs (cycles included), sometimes a broken one.
refs = st.sampled_from(
    [f"#/$defs/{name}" for name in DEFS[:-1]] * 4 + ["#", "#/$defs/Missing", "http://x/y"]
)


def schemas(leaf: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """Schema-shaped dicts built from real keywords with well- and ill-formed values."""
    return st.recursive(
        leaf,
        lambda inner: st.one_of(
            st.booleans(),
            st.fixed_dictionaries(
                {},
                optional={
                    "type": types,
                    "$ref": refs,
                    "description": st.one_of(st.text(max_size=5), scalars),
                    "nullable": st.booleans(),
                    "readOnly": st.booleans(),
                    "enum": st.one_of(st.lists(scalars, max_size=3), scalars),
                    "default": scalars,
                    "example": scalars,
                    "minimum": scalars,
                    "exclusiveMinimum": scalars,
                    "minLength": scalars,
                    "pattern": scalars,
                    "required": st.one_of(
                        st.lists(st.sampled_from(["p", "q", 1]), max_size=3), scalars
                    ),
                    "properties": st.dictionaries(
                        st.sampled_from(["p", "q", "r/s"]), inner, max_size=3
                    ),
                    "items": st.one_of(inner, st.lists(inner, max_size=2)),
                    "additionalProperties": inner,
                    "allOf": st.lists(inner, max_size=2),
                    "anyOf": st.lists(inner, max_size=2),
                    "oneOf": st.lists(inner, max_size=2),
                    "x-extra": scalars,
                },
            ),
        ),
        max_leaves=12,
    )


leaves: st.SearchStrategy[dict[str, Any]] = st.one_of(
    st.just({}), st.fixed_dictionaries({"type": types}), st.fixed_dictionaries({"$ref": refs})
)
documents = st.fixed_dictionaries(
    {
        "type": st.sampled_from(["object"] * 9 + ["string"]),
        "properties": st.dictionaries(
            st.sampled_from(["a", "b", "c"]), schemas(leaves), min_size=1
        ),
        "$defs": st.fixed_dictionaries({name: schemas(leaves) for name in DEFS[:-1]}),
    }
)

FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FAST
@given(documents)
def test_mcp_conversion_is_valid_or_a_clear_error(document: dict[str, Any]) -> None:
    before = copy.deepcopy(document)
    try:
        result = mcp_parameters(document)
    except SchemaConversionError as exc:
        pointer = exc.pointer
        assert pointer.startswith("#")
    else:
        assert_function_parameters(result)
    assert document == before


@FAST
@given(
    documents, st.lists(st.sampled_from(["path", "query", "header", "cookie", None]), max_size=3)
)
def test_openapi_conversion_is_valid_or_a_clear_error(
    document: dict[str, Any], locations: list[str | None]
) -> None:
    spec: dict[str, Any] = {
        "parameters": [
            {"name": f"p{index}", "in": location, "schema": {"$ref": "#/components/schemas/A"}}
            for index, location in enumerate(locations)
        ],
        "requestBody": {
            "content": {"application/json": {"schema": {"properties": document["properties"]}}}
        },
        # The generated refs point at #/$defs/…; any local pointer resolves.
        "components": {"schemas": document["$defs"]},
        "$defs": document["$defs"],
    }
    before = copy.deepcopy(spec)
    try:
        result = openapi_parameters(spec)
    except SchemaConversionError as exc:
        pointer = exc.pointer
        assert pointer.startswith("#")
    else:
        assert_function_parameters(result)
    assert spec == before
