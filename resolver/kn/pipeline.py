"""The pipeline behind the Go-compatible endpoint (SPEC §2.2).

1. ontology-manager: the object type and the definitions of the requested logic properties;
2. agent-operator-integration: each operator's OpenAPI schema (best effort, TTL-cached);
3. the `/v1/dynamic-params` resolution (`ParamsService`) settles `dynamic_params`
   (same 422/502/504);
4. ontology-query: the property values of every instance, in the order of the identities.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass
from typing import Any

import structlog
from pydantic import ValidationError

from resolver.core.errors import ResolverError, invalid_request
from resolver.core.settings import Settings
from resolver.kn.definitions import pick_properties
from resolver.kn.models import KnResolveRequest
from resolver.kn.operator_schemas import OperatorSchemas, SchemaResult, operator_id_of
from resolver.params.models import LogicPropertyDef, ResolveRequest
from resolver.params.service import ParamsService, open_params_service
from resolver.upstreams.client import (
    ONTOLOGY_MANAGER,
    ONTOLOGY_QUERY,
    OPERATOR_INTEGRATION,
    CallerHeaders,
    Upstreams,
    open_upstreams,
)
from resolver.upstreams.ontology_manager import ObjectType, fetch_object_type
from resolver.upstreams.ontology_query import query_values

log = structlog.get_logger("resolver.kn")


@dataclass(frozen=True, slots=True)
class PipelineResult:
    """ontology-query's values, the `dynamic_params` they were asked with, and `debug`."""

    datas: list[Any]
    dynamic_params: dict[str, dict[str, Any]]
    debug: dict[str, Any] | None


class Pipeline:
    """Runs the four steps for one request; holds no per-request state."""

    def __init__(
        self, params: ParamsService, upstreams: Upstreams, schemas: OperatorSchemas
    ) -> None:
        self.params = params
        self.upstreams = upstreams
        self.schemas = schemas

    async def run(self, request: KnResolveRequest, caller: CallerHeaders) -> PipelineResult:
        """The values and the params used, or raise the error that says why."""
        # Both required services are checked before any work, so 503 comes first and fast.
        manager = self.upstreams.get(ONTOLOGY_MANAGER)
        values = self.upstreams.get(ONTOLOGY_QUERY)
        timings: dict[str, float] = {}
        with _timed(timings, ONTOLOGY_MANAGER):
            object_type = await fetch_object_type(manager, request.kn_id, request.ot_id, caller)
        definitions = pick_properties(manager, object_type, request.properties)
        schemas = await self._operator_schemas(definitions, caller, timings)
        with _timed(timings, "resolve"):
            resolved = await self.params.resolve(
                _params_request(request, definitions, schemas), caller.deadline
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
        log.info(
            "kn.resolved",
            kn_id=request.kn_id,
            ot_id=request.ot_id,
            properties=len(request.properties),
            datas=len(datas),
            timings_ms=timings,
        )
        debug = None
        if request.options.return_debug:
            debug = _debug(resolved.debug, request, object_type, schemas, timings)
        return PipelineResult(datas, dynamic_params, debug)

    async def _operator_schemas(
        self,
        definitions: list[LogicPropertyDef],
        caller: CallerHeaders,
        timings: dict[str, float],
    ) -> dict[str, SchemaResult]:
        wanted = {
            d.name: operator_id
            for d in definitions
            if d.type == "operator" and (operator_id := operator_id_of(d.data_source)) is not None
        }
        if not wanted:
            return {}
        with _timed(timings, OPERATOR_INTEGRATION):
            results = await asyncio.gather(
                *(self.schemas.get(operator_id, caller) for operator_id in wanted.values())
            )
        return dict(zip(wanted, results, strict=True))


@asynccontextmanager
async def open_pipeline(settings: Settings) -> AsyncIterator[Pipeline]:
    """The pipeline with its own params service and upstream sessions, for one-shot use."""
    async with (
        open_params_service(settings) as (params, _),
        open_upstreams(settings) as upstreams,
    ):
        yield Pipeline(
            params, upstreams, OperatorSchemas(upstreams, settings.operator_schema_ttl_s)
        )


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
            }
        )
    except ValidationError as exc:
        raise invalid_request(exc) from exc


def _debug(
    engine_debug: dict[str, Any] | None,
    request: KnResolveRequest,
    object_type: ObjectType,
    schemas: dict[str, SchemaResult],
    timings: dict[str, float],
) -> dict[str, Any]:
    debug = dict(engine_debug or {})
    warnings = [*debug.get("warnings", []), *(r.warning for r in schemas.values() if r.warning)]
    if request.llm_model:
        warnings.append(
            f"llm_model {request.llm_model[:64]!r} is ignored: this deployment chooses the model"
        )
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
