"""Operator schemas from agent-operator-integration (SPEC §2.2 step 2), best effort, TTL-cached.

The operator market answers with the operator's record; its OpenAPI operation (parameters,
request body, components) sits under `metadata.api_spec`, sometimes as a JSON string, sometimes
as a whole OpenAPI document with `paths`. `operator_document` digs out the operation in the
form `resolver.opschema.input_schemas` reads, so the engine's rules enforce enums, required
nested keys and item types, and the prompt gets the compact form, never the raw record.
A failed fetch is a warning, never an error: the property is resolved without its schema.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any, Literal

import structlog

from resolver.core.cache import TtlCache
from resolver.core.errors import ResolverError, SchemaConversionError
from resolver.core.ids import is_usable_id
from resolver.core.jsonio import loads
from resolver.toolschema.inputs import input_schemas
from resolver.upstreams.client import OPERATOR_INTEGRATION, CallerHeaders, Upstreams
from resolver.upstreams.operator_integration import fetch_operator

log = structlog.get_logger("resolver.operator_schemas")

Outcome = Literal["fetched", "cached", "failed", "unusable", "not_configured"]

_WRAPPERS = ("data", "metadata", "api_spec", "apiSpec", "openapi", "spec", "schema")
_MAX_DEPTH = 4
_HTTP_METHODS = ("get", "post", "put", "patch", "delete")
# A failed fetch is remembered briefly, so an upstream that is down costs one timeout per
# operator and window, not one per request.
_FAILURE_TTL_S = 30.0
_MAX_ENTRIES = 1024


@dataclass(frozen=True, slots=True)
class SchemaResult:
    """What step 2 found for one operator."""

    operator_id: str
    outcome: Outcome
    document: dict[str, Any] | None = None
    warning: str | None = None

    def debug(self) -> dict[str, Any]:
        """The per-operator debug entry."""
        return {"operator_id": self.operator_id, "outcome": self.outcome}


class OperatorSchemas:
    """Fetches operator OpenAPI documents; cached per operator and caller account with a TTL.

    The account is part of the key because the market may answer per account. Concurrent
    requests for the same key share one fetch.
    """

    def __init__(
        self,
        upstreams: Upstreams,
        ttl_s: float,
        *,
        clock: Callable[[], float] = time.monotonic,
        max_entries: int = _MAX_ENTRIES,
    ) -> None:
        self._upstreams = upstreams
        self._ttl_s = ttl_s
        self._cache: TtlCache[tuple[str, str, str], SchemaResult] = TtlCache(
            max_entries=max_entries, clock=clock
        )

    async def get(self, operator_id: str, caller: CallerHeaders) -> SchemaResult:
        """The operator's document, or a result saying why there is none (never raises)."""
        if not self._upstreams.configured(OPERATOR_INTEGRATION):
            return SchemaResult(
                operator_id,
                "not_configured",
                warning=f"operator schema of {operator_id} not fetched: "
                "RESOLVER_OPERATOR_INTEGRATION_URL is not set",
            )
        key = (operator_id, caller.account_id or "", caller.account_type or "")
        # The fetch is shared by every request waiting for this key, so it runs under the
        # upstream's own timeout; each request waits only as long as its own deadline allows.
        shared = replace(caller, deadline=None)
        deadline = caller.deadline
        try:
            async with asyncio.timeout(deadline.remaining() if deadline is not None else None):
                result, cached = await self._cache.get(
                    key, lambda: self._fetch(operator_id, shared), self._ttl_of
                )
        except TimeoutError:
            return SchemaResult(
                operator_id,
                "failed",
                warning=f"operator schema of {operator_id} not fetched: the request deadline "
                "passed first",
            )
        if cached and result.document is not None:
            return SchemaResult(operator_id, "cached", result.document)
        return result

    def _ttl_of(self, result: SchemaResult) -> float:
        if result.outcome == "not_configured":
            return 0.0
        return self._ttl_s if result.document is not None else min(self._ttl_s, _FAILURE_TTL_S)

    async def _fetch(self, operator_id: str, caller: CallerHeaders) -> SchemaResult:
        client = self._upstreams.get(OPERATOR_INTEGRATION)
        try:
            answer = await fetch_operator(client, operator_id, caller)
        except ResolverError as exc:
            log.warning("operator_schema.failed", operator_id=operator_id, error=exc.message)
            return SchemaResult(
                operator_id,
                "failed",
                warning=f"operator schema of {operator_id} not fetched: {exc.message}",
            )
        document = operator_document(answer)
        problem = "it has no parameters or request body"
        if document is not None:
            try:
                if input_schemas(document):
                    return SchemaResult(operator_id, "fetched", document)
            except SchemaConversionError as exc:
                problem = exc.message
        log.warning("operator_schema.unusable", operator_id=operator_id, problem=problem)
        return SchemaResult(
            operator_id,
            "unusable",
            warning=f"operator schema of {operator_id} is unusable ({problem}); "
            "resolved without it",
        )


def operator_id_of(data_source: Mapping[str, Any] | None) -> str | None:
    """The operator id of a logic property's `data_source`, if it names a usable one."""
    if not data_source:
        return None
    value = data_source.get("id")
    if isinstance(value, int) and not isinstance(value, bool):
        value = str(value)
    return value if isinstance(value, str) and is_usable_id(value) else None


def operator_document(answer: Any) -> dict[str, Any] | None:
    """The OpenAPI operation inside an operator-market answer, with its components; or None."""
    return _find(answer, None, 0)


def _find(node: Any, components: Any, depth: int) -> dict[str, Any] | None:
    if isinstance(node, str | bytes) and depth > 0:
        try:
            node = loads(node.encode() if isinstance(node, str) else node)
        except ValueError:
            return None
    if not isinstance(node, Mapping) or depth > _MAX_DEPTH:
        return None
    components = node.get("components", components)
    if _is_operation(node):
        document = {k: node[k] for k in ("parameters", "requestBody", "request_body") if k in node}
        if isinstance(components, Mapping):
            document["components"] = components
        return document
    paths = node.get("paths")
    if isinstance(paths, Mapping):
        operation = _single_operation(paths, node)
        if operation is not None:
            return _find(operation, components, depth + 1)
    for key in _WRAPPERS:
        if key in node:
            found = _find(node[key], components, depth + 1)
            if found is not None:
                return found
    return None


def _is_operation(node: Mapping[str, Any]) -> bool:
    body = node.get("requestBody", node.get("request_body"))
    return isinstance(node.get("parameters"), list) or isinstance(body, Mapping)


def _single_operation(paths: Mapping[str, Any], owner: Mapping[str, Any]) -> Any:
    """The operation the record names by path and method, else the only one there is."""
    operations = [
        (path, method, item[method])
        for path, item in paths.items()
        if isinstance(item, Mapping)
        for method in _HTTP_METHODS
        if isinstance(item.get(method), Mapping)
    ]
    wanted_path, wanted_method = owner.get("path"), str(owner.get("method", "")).lower()
    for path, method, operation in operations:
        if path == wanted_path and method == wanted_method:
            return operation
    return operations[0][2] if len(operations) == 1 else None
