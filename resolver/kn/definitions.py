"""Choosing the requested logic properties of an object type and reading their definitions."""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from resolver.core.clip import clip, clip_repr
from resolver.core.errors import InvalidProperty
from resolver.params.models import LogicPropertyDef
from resolver.upstreams.bkn_backend import ObjectType
from resolver.upstreams.client import UpstreamClient

_SHOWN_NAMES = 50
_LISTED_NAMES = 500


def pick_properties(
    manager: UpstreamClient, object_type: ObjectType, names: list[str]
) -> list[LogicPropertyDef]:
    """The definitions of the requested logic properties, in request order (400 if unknown).

    `manager` is the ontology-manager client the object type came from: a definition it sent
    that resolver cannot use is its fault (502), not the caller's.
    """
    by_name = {p["name"]: p for p in object_type.logic_properties if isinstance(p.get("name"), str)}
    unknown = [n for n in names if n not in by_name]
    if unknown:
        every = object_type.logic_property_names()
        # Names an upstream sent: each clipped, the list bounded.
        available = [clip(n) for n in every[:_LISTED_NAMES]]
        shown = ", ".join(available[:_SHOWN_NAMES]) or "none"
        if len(every) > _SHOWN_NAMES:
            shown += f", … ({len(every)} in all)"
        data = [n for n in unknown if n in object_type.data_property_names]
        note = f"; {', '.join(data)} are data properties, not logic properties" if data else ""
        raise InvalidProperty(
            f"properties not found or not logic properties: {', '.join(unknown)}"
            f" (available logic properties: {shown}){note}",
            details={"unknown": unknown, "available": available},
        )
    return [_definition(manager, by_name[n]) for n in names]


def _definition(manager: UpstreamClient, raw: dict[str, Any]) -> LogicPropertyDef:
    try:
        return LogicPropertyDef.model_validate(_without_nulls(raw))
    except ValidationError as exc:
        first = exc.errors(include_url=False, include_input=False)[0]
        where = ".".join(str(p) for p in first["loc"]) or "definition"
        raise manager.unreadable(
            "an object type",
            f"logic property {clip_repr(raw.get('name'))} has a definition resolver cannot use "
            f"({where}: {first['msg']})",
        ) from exc


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
