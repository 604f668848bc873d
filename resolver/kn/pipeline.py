"""The pipeline behind the Go-compatible endpoint (SPEC §2.2).

0./1. ontology-query: the caller's permission plan, and at once bkn-backend (or its alias
   ontology-manager): the object type; logic properties the caller may not see are dropped
   (`permissions.py`, fail closed) before the requested ones are looked up;
2. agent-operator-integration: each operator's or tool-box tool's OpenAPI schema (best effort,
   TTL-cached);
3. the `/v1/dynamic-params` resolution (`ParamsService`, held as `params/resolution.py:
   ResolvesParams`) settles `dynamic_params`
   (same 422/502/504);
4. ontology-query: the property values of every instance, in the order of the identities.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import structlog
from pydantic import ValidationError

from resolver.core.clip import clip_repr
from resolver.core.errors import ResolverError, invalid_request
from resolver.core.ids import is_usable_id
from resolver.kn.definitions import pick_properties
from resolver.kn.models import KnResolveRequest, KnResolveResponse
from resolver.kn.operator_schemas import (
    OperatorSchemas,
    SchemaResult,
    schema_source_of,
    unusable_source,
)
from resolver.kn.permissions import read_visible_object_type
from resolver.params.asks import Language
from resolver.params.models import LogicPropertyDef, ResolveRequest
from resolver.params.resolution import ResolvesParams
from resolver.params.sources import PropertySource
from resolver.upstreams.bkn_backend import ObjectType, fetch_metric_time_dimension
from resolver.upstreams.client import (
    ONTOLOGY_QUERY,
    OPERATOR_INTEGRATION,
    CallerHeaders,
    UpstreamClient,
    Upstreams,
)
from resolver.upstreams.ontology_query import query_values

log = structlog.get_logger("resolver.kn")

_OBJECT_TYPE = "an object type"


@dataclass(frozen=True, slots=True)
class PipelineResult:
    """ontology-query's values, the `dynamic_params` they were asked with, and `debug`;
    where each property's params came from, and the permission levels that applied."""

    datas: list[Any]
    dynamic_params: dict[str, dict[str, Any]]
    debug: dict[str, Any] | None
    dynamic_params_source: dict[str, PropertySource] = field(default_factory=dict)
    effective_permissions: dict[str, str] = field(default_factory=dict)
    usage: dict[str, Any] | None = None  # with `options.return_usage` (SPEC §6)

    def response(self, trace_id: str) -> KnResolveResponse:
        """The 200 body (HTTP, MCP and the CLI alike)."""
        return KnResolveResponse(
            datas=self.datas,
            dynamic_params=self.dynamic_params,
            usage=self.usage,
            dynamic_params_source=self.dynamic_params_source,
            effective_permissions=self.effective_permissions,
            debug=self.debug,
            trace_id=trace_id,
        )


class Pipeline:
    """Runs the four steps for one request; holds no per-request state."""

    def __init__(
        self, params: ResolvesParams, upstreams: Upstreams, schemas: OperatorSchemas
    ) -> None:
        self.params = params
        self.upstreams = upstreams
        self.schemas = schemas

    async def run(
        self,
        request: KnResolveRequest,
        caller: CallerHeaders,
        *,
        language: Language | None = None,
    ) -> PipelineResult:
        """The values and the params used, or raise the error that says why.

        `language` (the caller's `Accept-Language`) chooses the language of the asks.
        """
        # Both required services are checked before any call (by the first step), so 503
        # comes first and fast.
        timings: dict[str, float] = {}
        visible = await read_visible_object_type(
            self.upstreams, request.kn_id, request.ot_id, caller, timings
        )
        values = self.upstreams.get(ONTOLOGY_QUERY)
        object_type = visible.object_type
        _refuse_unreadable(visible.definitions, object_type, request.properties)
        definitions = pick_properties(visible.definitions, object_type, request.properties)
        definitions = await _with_time_dimensions(
            visible.definitions, request.kn_id, definitions, caller, timings
        )
        schemas = await self._operator_schemas(definitions, caller, timings)
        with _timed(timings, "resolve"):
            resolved = await self.params.resolve(
                _params_request(request, definitions, schemas),
                caller.deadline,
                language=language,
            )
        dynamic_params = resolved.dynamic_params
        try:
            with _timed(timings, ONTOLOGY_QUERY):
                datas = await query_values(
                    values,
                    request.kn_id,
                    request.ot_id,
                    identities=request.unique_identities,
                    properties=request.properties,
                    dynamic_params=dynamic_params,
                    caller=caller,
                )
        except ResolverError as exc:
            if request.options.return_debug:
                # The LLM's work is not lost: the caller may retry the values step alone.
                exc.details = {
                    **(exc.details if isinstance(exc.details, dict) else {}),
                    "dynamic_params": dynamic_params,
                    "debug": _debug(resolved.debug, request, object_type, schemas, timings),
                }
            raise
        value_warnings = check_values(datas, request.unique_identities)
        if value_warnings:
            log.warning(
                "kn.values_suspect",
                service=values.service,
                kn_id=request.kn_id,
                ot_id=request.ot_id,
                problems=value_warnings,
            )
        log.info(
            "kn.resolved",
            kn_id=request.kn_id,
            ot_id=request.ot_id,
            properties=len(request.properties),
            hidden=len(visible.hidden),
            datas=len(datas),
            timings_ms=timings,
        )
        debug = None
        if request.options.return_debug:
            debug = _debug(resolved.debug, request, object_type, schemas, timings)
            debug["warnings"] = [*debug["warnings"], *value_warnings]
        return PipelineResult(
            datas,
            dynamic_params,
            debug,
            dynamic_params_source=resolved.sources,
            effective_permissions=visible.effective_permissions,
            usage=resolved.usage,
        )

    async def _operator_schemas(
        self,
        definitions: list[LogicPropertyDef],
        caller: CallerHeaders,
        timings: dict[str, float],
    ) -> dict[str, SchemaResult]:
        if not any(
            schema_source_of(d.data_source) or unusable_source(d.data_source)
            for d in definitions
            if d.type == "operator"
        ):
            return {}
        with _timed(timings, OPERATOR_INTEGRATION):
            return await self.schemas.of_properties(definitions, caller)


async def _with_time_dimensions(
    client: UpstreamClient,
    kn_id: str,
    definitions: list[LogicPropertyDef],
    caller: CallerHeaders,
    timings: dict[str, float],
) -> list[LogicPropertyDef]:
    """Each metric property backed by a metric definition (`data_source.id`) with the time
    dimension that definition declares (SPEC §9.1), fetched from bkn-backend once per metric;
    a definition it cannot read leaves the property as it was (unknown)."""
    wanted = {
        index: source["id"]
        for index, d in enumerate(definitions)
        if d.type == "metric"
        and d.has_time_dimension() is None
        and isinstance(source := d.data_source, dict)
        and is_usable_id(source.get("id"))  # "." or ".." is no metric to GET: unknown
    }
    if not wanted:
        return definitions
    ids = sorted(set(wanted.values()))
    with _timed(timings, "metric-definitions"):
        found = await asyncio.gather(
            *(fetch_metric_time_dimension(client, kn_id, metric_id, caller) for metric_id in ids)
        )
    by_id = dict(zip(ids, found, strict=True))
    out = list(definitions)
    for index, metric_id in wanted.items():
        known, dimension = by_id[metric_id]
        if known:
            out[index] = out[index].model_copy(update={"time_dimension": dimension})
    return out


def _refuse_unreadable(
    definitions: UpstreamClient, object_type: ObjectType, names: list[str]
) -> None:
    """A requested property whose parameters bkn-backend sent unreadable is its fault (502):
    telling the caller that the name does not exist would be wrong."""
    broken = [name for name in names if name in object_type.unreadable]
    if broken:
        raise definitions.unreadable(
            _OBJECT_TYPE,
            f"logic property {clip_repr(broken[0])} has parameters resolver cannot read "
            "(not a list of objects), so it cannot be resolved",
        )


def check_values(datas: list[Any], identities: list[dict[str, Any]] | None) -> list[str]:
    """What is wrong with ontology-query's values, for `debug.warnings` and the log."""
    problems = []
    bad = [index for index, entry in enumerate(datas) if not isinstance(entry, dict)]
    if bad:
        problems.append(
            f"ontology-query sent {len(bad)} value entr{'y' if len(bad) == 1 else 'ies'} that "
            f"{'is' if len(bad) == 1 else 'are'} not an object (null or another type) at "
            f"datas[{', '.join(str(i) for i in bad[:5])}{', …' if len(bad) > 5 else ''}]"
        )
    expected = len(identities or [])
    if expected and len(datas) != expected:
        problems.append(
            f"ontology-query sent {len(datas)} value entries for {expected} identities: "
            "they cannot be matched by position"
        )
    return problems


def _params_request(
    request: KnResolveRequest,
    definitions: list[LogicPropertyDef],
    schemas: dict[str, SchemaResult],
) -> ResolveRequest:
    """The `/v1/dynamic-params` request for these definitions; caller mistakes are 400."""
    documents = {n: r.document for n, r in schemas.items() if r.document is not None}
    try:
        return ResolveRequest.model_validate(
            {
                "logic_properties": definitions,
                "query": request.query,
                "unique_identities": request.unique_identities,
                "additional_context": request.additional_context,
                "dynamic_params": request.dynamic_params,
                "operator_schemas": documents or None,
                "now_ms": request.now_ms,
                "timezone": request.timezone,
                "options": request.options,
                "llm_model": request.llm_model,
            }
        )
    except ValidationError as exc:
        raise invalid_request(exc) from exc


def _debug(
    params_debug: dict[str, Any] | None,
    request: KnResolveRequest,
    object_type: ObjectType,
    schemas: dict[str, SchemaResult],
    timings: dict[str, float],
) -> dict[str, Any]:
    debug = dict(params_debug or {})
    warnings = [
        *debug.get("warnings", []),
        *object_type.warnings,
        *(r.warning for r in schemas.values() if r.warning),
    ]
    debug["warnings"] = warnings
    debug["object_type"] = {"id": object_type.id, "name": object_type.name}
    debug["operator_schemas"] = {name: r.debug() for name, r in schemas.items()}
    debug["timings_ms"] = timings
    return debug


@contextmanager
def _timed(timings: dict[str, float], step: str) -> Iterator[None]:
    started = time.perf_counter()
    try:
        yield
    finally:
        timings[step] = round((time.perf_counter() - started) * 1000, 1)
