"""Validated logic property definitions are kept by their JSON (params/models.py,
`_kept_definition`): the same definition in two bodies is validated once and shared, and
nothing that reads differently is ever taken for it."""

from __future__ import annotations

import json
import math
import uuid
from typing import Any

import orjson
import pytest
from pydantic import ValidationError

from resolver.params import models
from resolver.params.models import JSON_VALUES, LogicPropertyDef, ResolveRequest, kept_spec
from resolver.params.property import PropertyState
from rules.spec import InputSpec, ParamType, PropertySpec


def _definition(**fields: Any) -> dict[str, Any]:
    definition: dict[str, Any] = {
        "name": f"m_{uuid.uuid4().hex[:12]}",  # the cache is the process's: a fresh name per test
        "type": "metric",
        "parameters": [
            {"name": "start", "value_from": "input"},
            {"name": "drug_type", "type": "string", "value_from": "input", "comment": None},
        ],
    }
    definition.update(fields)
    return definition


def _body(*definitions: dict[str, Any] | str, query: str = "当前药品数量") -> bytes:
    """A body whose definitions are dicts, or JSON text spliced in as written."""
    texts = [d if isinstance(d, str) else json.dumps(d, ensure_ascii=False) for d in definitions]
    query_text = json.dumps(query, ensure_ascii=False)
    return f'{{"logic_properties":[{",".join(texts)}],"query":{query_text}}}'.encode()


def _read(definition: LogicPropertyDef) -> tuple[Any, ...]:
    return (
        definition.model_dump(),
        definition.model_fields_set,
        definition.model_extra,
        definition.has_time_dimension(),
    )


def test_the_same_definition_in_two_bodies_is_validated_once_and_reads_as_sent() -> None:
    definition = _definition(time_dimension={"property": "approved_at"}, owner="team-a")
    first = ResolveRequest.model_validate_json(_body(definition, query="最近3个月"))
    second = ResolveRequest.model_validate_json(_body(definition, query="上个月"))

    assert second.logic_properties[0] is first.logic_properties[0]
    fresh = LogicPropertyDef.model_validate(definition)
    assert _read(first.logic_properties[0]) == _read(fresh)
    assert first.logic_properties[0].parameters[1].type == "STRING"  # canonical, as before
    assert first.logic_properties[0].model_extra == {"owner": "team-a"}


def test_definitions_that_differ_in_any_way_are_not_shared() -> None:
    definition = _definition()
    reordered = dict(reversed(list(definition.items())))
    absent = _definition(name=definition["name"])
    null_dimension = {**absent, "time_dimension": None}

    requests = [
        ResolveRequest.model_validate_json(_body(d)) for d in (absent, null_dimension, reordered)
    ]

    assert requests[0].logic_properties[0].has_time_dimension() is None
    assert requests[1].logic_properties[0].has_time_dimension() is False
    assert (
        requests[2].logic_properties[0].model_dump() == requests[0].logic_properties[0].model_dump()
    )
    assert len({id(r.logic_properties[0]) for r in requests}) == 3


@pytest.mark.parametrize("token", ["NaN", "Infinity", "-Infinity", "1e999"])
def test_a_number_written_back_as_null_is_never_taken_for_null(token: str) -> None:
    """orjson writes NaN and infinities as null: such a definition must not be read as the one
    with a null in that place, in either order."""
    definition = _definition()
    with_null = {**definition, "data_source": {"x": None}}
    text = orjson.dumps({**definition, "data_source": {"x": 0}}).decode()
    with_number = text.replace('"x":0', f'"x":{token}')

    for order in ((with_null, with_number), (with_number, with_null)):
        read = [ResolveRequest.model_validate_json(_body(d)).logic_properties[0] for d in order]
        values = [d.data_source["x"] if d.data_source else None for d in read]
        nulls = [v is None for v in values]
        assert sorted(nulls) == [False, True], values
        number = next(v for v in values if v is not None)
        assert not math.isfinite(number)


def test_an_integer_beyond_64_bits_is_read_exactly() -> None:
    definition = _definition(data_source={"id": 2**70})
    request = ResolveRequest.model_validate_json(_body(definition))
    assert request.logic_properties[0].data_source == {"id": 2**70}


def test_a_large_definition_is_validated_each_time() -> None:
    definition = _definition(comment="说明" * 3000)
    first = ResolveRequest.model_validate_json(_body(definition))
    second = ResolveRequest.model_validate_json(_body(definition))
    assert first.logic_properties[0] is not second.logic_properties[0]
    assert first.logic_properties[0].model_dump() == second.logic_properties[0].model_dump()


def test_a_bad_definition_fails_the_same_way_every_time() -> None:
    good = _definition()
    bad = _definition(parameters=[{"name": "x", "type": "DECIMALS", "value_from": "input"}])
    errors = []
    for _ in range(3):
        with pytest.raises(ValidationError) as caught:
            ResolveRequest.model_validate_json(_body(good, bad))
        errors.append(
            [(e["loc"], e["msg"], e["type"]) for e in caught.value.errors(include_url=False)]
        )
    assert errors[0] == errors[1] == errors[2]
    [(loc, msg, kind)] = errors[0]
    assert loc == ("logic_properties", 1, "parameters", 0, "type")
    assert kind == "value_error"
    assert "unknown parameter type 'DECIMALS'" in msg


def test_a_non_object_definition_keeps_the_json_error() -> None:
    with pytest.raises(ValidationError) as caught:
        ResolveRequest.model_validate_json(_body('"not an object"'))
    [error] = caught.value.errors(include_url=False)
    assert error["loc"] == ("logic_properties", 0)
    assert error["msg"] == "Input should be an object"


def test_python_input_is_validated_each_time() -> None:
    """Only JSON bodies share definitions: a Python caller's dicts may hold anything."""
    document = orjson.loads(_body(_definition()))
    first = ResolveRequest.model_validate(document)
    second = ResolveRequest.model_validate(document)
    assert first.logic_properties[0] is not second.logic_properties[0]


def test_json_values_validated_in_python_are_shared_too() -> None:
    """An MCP call's arguments are JSON values: validated with `JSON_VALUES`, their
    definitions are kept as a body's are, and read the same."""
    definition = _definition(data_source={"rate": 0.25, "id": 2**40})
    document = orjson.loads(_body(definition))
    first = ResolveRequest.model_validate(document, context=JSON_VALUES)
    second = ResolveRequest.model_validate(document, context=JSON_VALUES)
    from_body = ResolveRequest.model_validate_json(_body(definition))
    assert first.logic_properties[0] is second.logic_properties[0] is from_body.logic_properties[0]
    fresh = ResolveRequest.model_validate(document)
    assert _read(fresh.logic_properties[0]) == _read(first.logic_properties[0])


def test_json_values_with_a_non_finite_number_are_not_taken_for_null() -> None:
    definition = _definition(data_source={"x": None})
    ResolveRequest.model_validate(orjson.loads(_body(definition)), context=JSON_VALUES)
    with_inf = {**definition, "data_source": {"x": math.inf}}
    request = ResolveRequest.model_validate(
        {"logic_properties": [with_inf], "query": "q"}, context=JSON_VALUES
    )
    assert request.logic_properties[0].data_source == {"x": math.inf}


def _counting_build() -> tuple[list[LogicPropertyDef], Any]:
    built: list[LogicPropertyDef] = []

    def build(definition: LogicPropertyDef) -> PropertySpec:
        built.append(definition)
        return PropertySpec(definition.name, definition.type)

    return built, build


def test_a_kept_definition_keeps_its_spec_and_a_fresh_one_builds_it_each_time() -> None:
    definition = _definition()
    kept = ResolveRequest.model_validate_json(_body(definition)).logic_properties[0]
    built, build = _counting_build()

    first = kept_spec(kept, build)
    assert kept_spec(kept, build) is first
    assert built == [kept]

    fresh = LogicPropertyDef.model_validate(definition)  # Python mode: not kept
    kept_spec(fresh, build)
    kept_spec(fresh, build)
    assert built == [kept, fresh, fresh]


def test_a_definition_no_longer_kept_loses_its_spec_with_it() -> None:
    kept = ResolveRequest.model_validate_json(_body(_definition())).logic_properties[0]
    built, build = _counting_build()
    kept_spec(kept, build)
    for _ in range(models._KEPT_DEFINITIONS):  # pushes it out of the kept ones
        ResolveRequest.model_validate_json(_body(_definition()))
    assert id(kept) not in models._kept._by_id
    kept_spec(kept, build)
    assert built == [kept, kept]  # built again, not taken from a forgotten entry


def test_states_of_a_kept_definition_read_as_those_of_a_fresh_one() -> None:
    definition = _definition(
        parameters=[
            {"name": "instant", "value_from": "input"},
            {"name": "drug_type", "type": "string", "value_from": "input"},
            {"name": "company_id", "value_from": "property"},
        ]
    )
    kept = ResolveRequest.model_validate_json(_body(definition)).logic_properties[0]
    fresh = LogicPropertyDef.model_validate(definition)
    for _ in range(2):
        assert PropertyState.of(kept, None).spec == PropertyState.of(fresh, None).spec
    schemas = {"drug_type": {"type": "string", "enum": ["a"]}}
    with_schemas = PropertyState.of(kept, schemas).spec
    assert with_schemas.get("drug_type") == InputSpec(
        "drug_type", ParamType.STRING, schemas["drug_type"]
    )
    assert PropertyState.of(kept, None).spec.get("drug_type") == InputSpec(
        "drug_type", ParamType.STRING
    )
