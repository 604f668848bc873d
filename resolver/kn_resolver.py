"""The full pipeline behind the Go-compatible endpoint (SPEC §2.2).

1. ontology-manager: the object type and the definitions of the requested logic properties;
2. agent-operator-integration: each operator's OpenAPI schema (best effort, TTL-cached);
3. the same engine as `/v1/dynamic-params` resolves `dynamic_params` (same 422/502/504);
4. ontology-query: the property values of every instance, in the order of the identities.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from typing import Any

import structlog
from pydantic import ValidationError

from resolver.bodies import invalid_request
from resolver.engine import open_resolver
from resolver.kn_models import KnResolveRequest
from resolver.models import LogicPropertyDef, ResolveRequest
from resolver.ontology import ObjectType, fetch_object_type, pick_properties, query_values
from resolver.operator_schemas import OperatorSchemas, SchemaResult, operator_id_of
from resolver.service import Resolver
from resolver.settings import Settings
from resolver.upstream import (
    ONTOLOGY_MANAGER,
    ONTOLOGY_QUERY,
    OPERATOR_INTEGRATION,
    CallerHeaders,
    Upstreams,
    open_upstreams,
)

log = structlog.get_logger("resolver.kn")


class KnResolver:
    """Runs the four steps for one request; holds no per-request state."""

    def __init__(self, engine: Resolver, upstreams: Upstreams, schemas: OperatorSchemas) -> None:
        self.engine = engine
        self.upstreams = upstreams
        self.schemas = schemas

    async def resolve(self, request: KnResolveRequest, caller: CallerHeaders) -> dict[str, Any]:
        """The 200 body (`datas`, `dynamic_params`, `debug`?) or raise the error that says why."""
        # Both required services are checked before any work, so 503 comes first and fast.
        manager = self.upstreams.get(ONTOLOGY_MANAGER)
        values = self.upstreams.get(ONTOLOGY_QUERY)
        timings: dict[str, float] = {}
        with _timed(timings, ONTOLOGY_MANAGER):
            object_type = await fetch_object_type(manager, request.kn_id, request.ot_id, caller)
        definitions = pick_properties(object_type, request.properties)
        schemas = await self._operator_schemas(definitions, caller, timings)
        with _timed(timings, "resolve"):
            resolved = await self.engine.resolve(_engine_request(request, definitions, schemas))
        dynamic_params: dict[str, dict[str, Any]] = resolved["dynamic_params"]
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
        log.info(
            "kn.resolved",
            kn_id=request.kn_id,
            ot_id=request.ot_id,
            properties=len(request.properties),
            datas=len(datas),
            timings_ms=timings,
        )
        body: dict[str, Any] = {"datas": datas, "dynamic_params": dynamic_params}
        if request.options.return_debug:
            body["debug"] = _debug(resolved.get("debug"), request, object_type, schemas, timings)
        return body

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
async def open_kn_resolver(settings: Settings) -> AsyncIterator[KnResolver]:
    """The pipeline with its own engine and upstream sessions, for one-shot use (the CLI)."""
    async with open_resolver(settings) as (engine, _), open_upstreams(settings) as upstreams:
        yield KnResolver(
            engine, upstreams, OperatorSchemas(upstreams, settings.operator_schema_ttl_s)
        )


def _engine_request(
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
        raise invalid_request(exc) from None


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
