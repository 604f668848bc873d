"""Rules shared by every property's inputs: declared keys, flat output, types, schemas."""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from rules.schema import check_schema
from rules.spec import LOCATION_GROUPS, PropertySpec
from rules.types import check_type, matches
from rules.violation import Violation, named


def check_declared(spec: PropertySpec, params: Mapping[str, object]) -> Iterator[Violation]:
    """Rules 3.1.1 and 5.1.2: only declared inputs, never grouped by location."""
    for key, value in params.items():
        if spec.declares(key):
            continue
        if key.lower() in LOCATION_GROUPS and isinstance(value, dict):
            yield Violation(
                "5.1.2",
                f"output must be flat per property, not grouped under {named(key)}; "
                f"put its keys ({', '.join(named(k) for k in sorted(value)[:8])}) at the top level",
                key,
            )
        else:
            allowed = ", ".join(spec.input_names()) or "none"
            yield Violation(
                "3.1.1", f"{named(key)} is not an input of {spec.name} (inputs: {allowed})", key
            )


def check_types(spec: PropertySpec, params: Mapping[str, object]) -> Iterator[Violation]:
    """Rules 7.3.2/7.3.3: every present input has its declared type (a metric's time params
    aside: the metric rules give these precise messages)."""
    for item in spec.typed_inputs():
        if item.name not in params or item.type is None:
            continue
        violation = check_type(item.name, item.type, params[item.name])
        if violation is not None:
            yield violation


def check_schemas(spec: PropertySpec, params: Mapping[str, object]) -> Iterator[Violation]:
    """Rule 5.3.2: values satisfy the operator schema when one is known."""
    for item in spec.schema_inputs():
        if item.schema is None or item.name not in params:
            continue
        value = params[item.name]
        if item.type is not None and not matches(item.type, value):
            continue  # check_types already named the wrong type
        yield from check_schema(value, item.schema, item.name)
