"""Permission filtering of an object type (SPEC §2.2 step 0), failing closed.

The object type (bkn-backend) and the caller's permission plan (ontology-query) are read at
once; the object type's own failure (404, 502) outranks the plan's, and either failure fails
the request — a plan that cannot be read never means "allow".

A logic property is visible only if every `value_from = "property"` parameter it has reads a
data property whose level is exactly `full`. The data property a parameter reads is its
`value` when that is a non-empty string (the current upstream form), else its `name` when
`value` is absent (the seed-003 form, `{"name": "company_id", "value_from": "property"}`);
any other `value`, or a property without a decision in the plan, is denied. Invisible logic
properties are removed before the requested names are looked up, so they are as unknown as a
name that does not exist. Data properties stay visible at `schema`, `masked` or `full`.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Mapping
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from resolver.upstreams.bkn_backend import ObjectType, fetch_object_type, object_type_client
from resolver.upstreams.client import ONTOLOGY_QUERY, CallerHeaders, UpstreamClient, Upstreams
from resolver.upstreams.permissions import fetch_permissions

T = TypeVar("T")

FULL = "full"
# The levels under which a data property is seen at all (`none` and unknown levels hide it).
VISIBLE_LEVELS = frozenset({"schema", "masked", FULL})
PERMISSIONS_STEP = "permissions"


@dataclass(frozen=True, slots=True)
class VisibleObjectType:
    """An object type as one caller may see it, and the levels that decided it."""

    definitions: UpstreamClient  # the service the definitions came from (for its 502s)
    object_type: ObjectType  # only visible logic properties and data property names
    effective_permissions: dict[str, str]  # visible levels only, in the plan's order
    hidden: tuple[str, ...]  # logic properties the caller may not see (never shown to them)


async def read_visible_object_type(
    upstreams: Upstreams,
    kn_id: str,
    ot_id: str,
    caller: CallerHeaders,
    timings: dict[str, float] | None = None,
) -> VisibleObjectType:
    """The object type filtered by the caller's permissions; raises what either read raised.

    Both services are looked up before any call (503 `NOT_CONFIGURED` first and fast).
    """
    definitions = object_type_client(upstreams)
    query = upstreams.get(ONTOLOGY_QUERY)
    spent = timings if timings is not None else {}
    object_type, plan = await asyncio.gather(
        _timed(fetch_object_type(definitions, kn_id, ot_id, caller), spent, definitions.service),
        _timed(fetch_permissions(query, kn_id, ot_id, caller), spent, PERMISSIONS_STEP),
        return_exceptions=True,
    )
    if isinstance(object_type, BaseException):
        raise object_type
    if isinstance(plan, BaseException):
        raise plan
    return filter_object_type(definitions, object_type, plan)


def filter_object_type(
    definitions: UpstreamClient, object_type: ObjectType, plan: Mapping[str, str]
) -> VisibleObjectType:
    """What of `object_type` the plan lets its caller see."""
    visible: list[dict[str, Any]] = []
    hidden: list[str] = []
    for logic_property in object_type.logic_properties:
        if is_visible(logic_property, plan):
            visible.append(logic_property)
        else:
            hidden.append(str(logic_property.get("name")))
    shown = replace(
        object_type,
        logic_properties=visible,
        data_property_names=[
            n for n in object_type.data_property_names if plan.get(n) in VISIBLE_LEVELS
        ],
    )
    levels = {name: level for name, level in plan.items() if level in VISIBLE_LEVELS}
    return VisibleObjectType(definitions, shown, levels, tuple(hidden))


def is_visible(logic_property: Mapping[str, Any], plan: Mapping[str, str]) -> bool:
    """Whether every property parameter of the logic property reads a `full` data property."""
    parameters = logic_property.get("parameters")
    if parameters is None:
        return True
    if not isinstance(parameters, list):
        return False  # unreadable: cannot tell what it reads, so it is not shown
    for parameter in parameters:
        if not isinstance(parameter, Mapping):
            return False
        if parameter.get("value_from") != "property":
            continue
        read = reads(parameter)
        if read is None or plan.get(read) != FULL:
            return False
    return True


def reads(parameter: Mapping[str, Any]) -> str | None:
    """The data property a `value_from = "property"` parameter reads; None when unclear."""
    value = parameter.get("value")
    if value is None:
        value = parameter.get("name")
    return value if isinstance(value, str) and value.strip() else None


async def _timed(call: Awaitable[T], timings: dict[str, float], step: str) -> T:
    started = time.perf_counter()
    try:
        return await call
    finally:
        timings[step] = round((time.perf_counter() - started) * 1000, 1)
