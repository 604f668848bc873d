"""ontology-manager (object types and their logic property definitions) and ontology-query
(property values), as the pipeline endpoint uses them (SPEC §2.2 steps 1 and 4)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from resolver.errors import InvalidProperty, ObjectTypeNotFound, UpstreamError
from resolver.models import LogicPropertyDef
from resolver.upstream import ONTOLOGY_MANAGER, ONTOLOGY_QUERY, CallerHeaders, UpstreamClient
from resolver.upstream import segment as seg

_SHOWN_NAMES = 50


@dataclass(frozen=True, slots=True)
class ObjectType:
    """The parts of an ontology-manager object type the pipeline needs."""

    id: str | None
    name: str | None
    logic_properties: list[dict[str, Any]]
    data_property_names: list[str]

    def logic_property_names(self) -> list[str]:
        """Names of the logic properties, in the order ontology-manager lists them."""
        return [p["name"] for p in self.logic_properties if isinstance(p.get("name"), str)]


async def fetch_object_type(
    client: UpstreamClient, kn_id: str, ot_id: str, caller: CallerHeaders
) -> ObjectType:
    """Step 1: the object type with its logic property definitions; 404 when there is none."""
    path = f"/api/ontology-manager/in/v1/knowledge-networks/{seg(kn_id)}/object-types/{seg(ot_id)}"
    try:
        answer = await client.get_json(path, caller=caller, params={"include_detail": "true"})
    except UpstreamError as exc:
        if exc.upstream_status == 404:
            raise _not_found(kn_id, ot_id) from None
        raise
    entry = _entry_of(answer)
    if entry is None:
        raise _not_found(kn_id, ot_id)
    return _object_type(entry)


def _entry_of(answer: Any) -> dict[str, Any] | None:
    """`{"entries": [ObjectType]}`, or a bare ObjectType; None when nothing was found."""
    if not isinstance(answer, dict):
        raise _unreadable("the answer is not a JSON object")
    if "entries" not in answer:
        return answer if answer else None
    entries = answer["entries"]
    if entries is None or entries == []:
        return None
    if not isinstance(entries, list) or not isinstance(entries[0], dict):
        raise _unreadable("entries is not a list of object types")
    return entries[0]


def _object_type(entry: dict[str, Any]) -> ObjectType:
    logic = entry.get("logic_properties") or []
    data = entry.get("data_properties") or []
    if not isinstance(logic, list) or not all(isinstance(p, dict) for p in logic):
        raise _unreadable("logic_properties is not a list of objects")
    data_names = [p["name"] for p in data if isinstance(p, dict) and isinstance(p.get("name"), str)]
    return ObjectType(
        id=_str_or_none(entry.get("id")),
        name=_str_or_none(entry.get("name")),
        logic_properties=logic,
        data_property_names=data_names if isinstance(data, list) else [],
    )


def pick_properties(object_type: ObjectType, names: list[str]) -> list[LogicPropertyDef]:
    """The definitions of the requested logic properties, in request order (400 if unknown)."""
    by_name = {p["name"]: p for p in object_type.logic_properties if isinstance(p.get("name"), str)}
    unknown = [n for n in names if n not in by_name]
    if unknown:
        available = object_type.logic_property_names()
        shown = ", ".join(available[:_SHOWN_NAMES]) or "none"
        if len(available) > _SHOWN_NAMES:
            shown += f", … ({len(available)} in all)"
        data = [n for n in unknown if n in object_type.data_property_names]
        note = f"; {', '.join(data)} are data properties, not logic properties" if data else ""
        raise InvalidProperty(
            f"properties not found or not logic properties: {', '.join(unknown)}"
            f" (available logic properties: {shown}){note}",
            details={"unknown": unknown, "available": available},
        )
    return [_definition(by_name[n]) for n in names]


def _definition(raw: dict[str, Any]) -> LogicPropertyDef:
    try:
        return LogicPropertyDef.model_validate(_without_nulls(raw))
    except ValidationError as exc:
        first = exc.errors(include_url=False, include_input=False)[0]
        where = ".".join(str(p) for p in first["loc"]) or "definition"
        raise _unreadable(
            f"logic property {raw.get('name')!r} has a definition resolver cannot use "
            f"({where}: {first['msg']})"
        ) from None


def _without_nulls(raw: dict[str, Any]) -> dict[str, Any]:
    """Go services write absent optional fields as null; read them as absent."""
    cleaned = {k: v for k, v in raw.items() if v is not None}
    params = cleaned.get("parameters")
    if isinstance(params, list):
        cleaned["parameters"] = [
            {k: v for k, v in p.items() if v is not None} if isinstance(p, dict) else p
            for p in params
        ]
    return cleaned


async def query_values(
    client: UpstreamClient,
    kn_id: str,
    ot_id: str,
    *,
    identities: list[dict[str, Any]],
    properties: list[str],
    dynamic_params: dict[str, dict[str, Any]],
    caller: CallerHeaders,
) -> list[Any]:
    """Step 4: the property values of each instance, in the order of the identities."""
    path = (
        f"/api/ontology-query/in/v1/knowledge-networks/{seg(kn_id)}"
        f"/object-types/{seg(ot_id)}/properties"
    )
    body = {
        "_instance_identities": identities,
        "properties": properties,
        "dynamic_params": dynamic_params,
    }
    answer = await client.post_json(
        path, body, caller=caller, headers={"x-http-method-override": "GET"}
    )
    datas = answer.get("datas") if isinstance(answer, dict) else None
    if not isinstance(datas, list):
        raise UpstreamError(
            f"{ONTOLOGY_QUERY} answered without a datas list",
            service=ONTOLOGY_QUERY,
            details={"service": ONTOLOGY_QUERY, "upstream_status": None},
        )
    return datas


def _not_found(kn_id: str, ot_id: str) -> ObjectTypeNotFound:
    return ObjectTypeNotFound(
        f"object type {ot_id!r} not found in knowledge network {kn_id!r}",
        details={"kn_id": kn_id, "ot_id": ot_id},
    )


def _unreadable(reason: str) -> UpstreamError:
    return UpstreamError(
        f"{ONTOLOGY_MANAGER} answered with an object type resolver cannot read: {reason}",
        service=ONTOLOGY_MANAGER,
        details={"service": ONTOLOGY_MANAGER, "upstream_status": None},
    )


def _str_or_none(value: Any) -> str | None:
    return value if isinstance(value, str) else None
