"""bkn-backend (formerly ontology-manager): an object type and its logic property definitions
(SPEC §2.2 step 1).

bkn-backend serves the same object-type route under `/api/bkn-backend/in/v1` and, as an alias,
under `/api/ontology-manager/in/v1`. A deployment names one of them: `RESOLVER_BKN_BACKEND_URL`
is asked under the bkn-backend prefix, `RESOLVER_ONTOLOGY_MANAGER_URL` under the ontology-manager
prefix (which both an old ontology-manager and a bkn-backend answer); when both are set,
bkn-backend is used.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import structlog

from resolver.core.clip import clip_repr
from resolver.core.errors import NotConfigured, ObjectTypeNotFound, ResolverError, UpstreamError
from resolver.core.ids import segment
from resolver.upstreams.client import (
    BKN_BACKEND,
    ONTOLOGY_MANAGER,
    CallerHeaders,
    UpstreamClient,
    Upstreams,
)

log = structlog.get_logger("resolver.upstreams")

_PREFIXES = {
    BKN_BACKEND: "/api/bkn-backend/in/v1",
    ONTOLOGY_MANAGER: "/api/ontology-manager/in/v1",
}


@dataclass(frozen=True, slots=True)
class ObjectType:
    """The parts of a bkn-backend object type the pipeline needs."""

    id: str | None
    name: str | None
    logic_properties: list[dict[str, Any]]
    data_property_names: list[str]
    # Logic properties whose `parameters` cannot be read (not a list of objects): never shown
    # to a caller (the permission filter cannot tell what they read), but named to say why.
    unreadable: tuple[str, ...] = ()
    # What was wrong with the answer but could be read around, for `debug.warnings`.
    warnings: tuple[str, ...] = field(default=())

    def logic_property_names(self) -> list[str]:
        """Names of the logic properties, in the order bkn-backend lists them."""
        return [p["name"] for p in self.logic_properties if isinstance(p.get("name"), str)]


def object_type_client(upstreams: Upstreams) -> UpstreamClient:
    """bkn-backend's client, else ontology-manager's; 503 NOT_CONFIGURED naming both."""
    for service in (BKN_BACKEND, ONTOLOGY_MANAGER):
        if upstreams.configured(service):
            return upstreams.get(service)
    raise NotConfigured(
        "bkn-backend is not configured; set RESOLVER_BKN_BACKEND_URL "
        "(or RESOLVER_ONTOLOGY_MANAGER_URL for its ontology-manager alias)",
        details={"service": BKN_BACKEND},
    )


async def fetch_object_type(
    client: UpstreamClient, kn_id: str, ot_id: str, caller: CallerHeaders
) -> ObjectType:
    """The object type with its logic property definitions; 404 when there is none."""
    prefix = _PREFIXES.get(client.service, _PREFIXES[BKN_BACKEND])
    path = f"{prefix}/knowledge-networks/{segment(kn_id)}/object-types/{segment(ot_id)}"

    def not_found(_: UpstreamError) -> ResolverError:
        return _not_found(kn_id, ot_id)

    answer = await client.get_json(
        path, caller=caller, params={"include_detail": "true"}, not_found=not_found
    )
    entry = _entry_of(client, answer)
    if entry is None:
        raise _not_found(kn_id, ot_id)
    return _object_type(client, entry)


def _entry_of(client: UpstreamClient, answer: Any) -> dict[str, Any] | None:
    """`{"entries": [ObjectType]}`, or a bare ObjectType; None when nothing was found."""
    if not isinstance(answer, dict):
        raise client.unreadable(_WHAT, "the answer is not a JSON object")
    if "entries" not in answer:
        return answer if answer else None
    entries = answer["entries"]
    if entries is None or entries == []:
        return None
    if not isinstance(entries, list) or not isinstance(entries[0], dict):
        raise client.unreadable(_WHAT, "entries is not a list of object types")
    return entries[0]


def _object_type(client: UpstreamClient, entry: dict[str, Any]) -> ObjectType:
    logic = entry.get("logic_properties") or []
    data = entry.get("data_properties") or []
    if not isinstance(logic, list) or not all(isinstance(p, dict) for p in logic):
        raise client.unreadable(_WHAT, "logic_properties is not a list of objects")
    warnings: list[str] = []
    if not isinstance(data, list):
        warnings.append(
            f"{client.service} sent data_properties that is not a list "
            f"({type(data).__name__}); read as none"
        )
        log.warning("upstream.data_properties_unreadable", service=client.service)
        data = []
    data_names = [p["name"] for p in data if isinstance(p, dict) and isinstance(p.get("name"), str)]
    unreadable = tuple(
        str(p.get("name"))[:200] for p in logic if not _parameters_readable(p.get("parameters"))
    )
    if unreadable:
        log.warning(
            "upstream.logic_property_unreadable",
            service=client.service,
            properties=list(unreadable[:20]),
            count=len(unreadable),
        )
        # Said to the caller too (issue 30: `parameters: "x"` was left out in silence).
        shown = ", ".join(clip_repr(name, 80) for name in unreadable[:_SHOWN_UNREADABLE])
        more = len(unreadable) - _SHOWN_UNREADABLE
        warnings.append(
            f"{client.service} sent logic properties whose parameters resolver cannot read, "
            f"left out: {shown}" + (f" (+{more} more)" if more > 0 else "")
        )
    return ObjectType(
        id=_str_or_none(entry.get("id")),
        name=_str_or_none(entry.get("name")),
        logic_properties=logic,
        data_property_names=data_names,
        unreadable=unreadable,
        warnings=tuple(warnings),
    )


_SHOWN_UNREADABLE = 10


def _parameters_readable(parameters: Any) -> bool:
    """Whether a logic property's `parameters` can be read: absent, or a list of objects."""
    if parameters is None:
        return True
    return isinstance(parameters, list) and all(isinstance(p, Mapping) for p in parameters)


_WHAT = "an object type"


def _not_found(kn_id: str, ot_id: str) -> ObjectTypeNotFound:
    return ObjectTypeNotFound(
        f"object type {ot_id!r} not found in knowledge network {kn_id!r}",
        details={"kn_id": kn_id, "ot_id": ot_id},
    )


def _str_or_none(value: Any) -> str | None:
    return value if isinstance(value, str) else None


async def fetch_metric_time_dimension(
    client: UpstreamClient, kn_id: str, metric_id: str, caller: CallerHeaders
) -> tuple[bool, dict[str, Any] | None]:
    """(known, time_dimension) of a metric definition (SPEC §9.1): `GET {prefix}/knowledge-
    networks/{kn_id}/metrics/{metric_id}` → `{"entries": [MetricDefinition]}`, whose
    `time_dimension` is `{"property", "default_range_policy"?}` or absent (bkn-foundry
    adp/bkn/ontology-query/server/interfaces/metric.go `MetricDefinition`). A metric it cannot
    read — any error, no entry, an answer of another shape — is unknown (False, None): the
    window is then resolved as before, never refused on a guess."""
    prefix = _PREFIXES.get(client.service, _PREFIXES[BKN_BACKEND])
    path = f"{prefix}/knowledge-networks/{segment(kn_id)}/metrics/{segment(metric_id)}"
    try:
        answer = await client.get_json(path, caller=caller)
    except ResolverError as exc:
        log.warning("upstream.metric_definition_unread", service=client.service, code=exc.code)
        return False, None
    entries = answer.get("entries") if isinstance(answer, dict) else None
    entry = entries[0] if isinstance(entries, list) and entries else None
    if not isinstance(entry, dict):
        log.warning("upstream.metric_definition_unreadable", service=client.service)
        return False, None
    dimension = entry.get("time_dimension")
    if dimension is not None and not isinstance(dimension, dict):
        log.warning("upstream.metric_time_dimension_unreadable", service=client.service)
        return False, None
    return True, dimension
