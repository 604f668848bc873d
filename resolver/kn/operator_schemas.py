"""Operator schemas from agent-operator-integration (SPEC §2.2 step 2), best effort, TTL-cached.

Two kinds of source: an operator property's `data_source.id` names an operator-market record
(`…/operator/market/{id}`), a tool-box property's `data_source.box_id`/`tool_id` a tool-box
tool (`…/tool-box/{box_id}/tool/{tool_id}`, the current upstream form). Either answer holds an
OpenAPI operation (parameters, request body, components) — under `metadata.api_spec` or
`api_spec`, sometimes as a JSON string, sometimes as a whole OpenAPI document with `paths`.
`operator_document` digs out the operation in the form `resolver.toolschema.input_schemas`
reads, so the rules enforce enums, required nested keys and item types, and the prompt gets the
compact form, never the raw record. A failed fetch is a warning, never an error: the property
is resolved without its schema.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any, Literal

import structlog

from resolver.core.cache import TtlCache
from resolver.core.clip import clip_repr
from resolver.core.errors import ResolverError, SchemaConversionError
from resolver.core.ids import is_usable_id
from resolver.core.jsonio import loads
from resolver.core.offload import Offload
from resolver.params.models import LogicPropertyDef
from resolver.toolschema.inputs import input_schemas
from resolver.upstreams.client import OPERATOR_INTEGRATION, CallerHeaders, Upstreams
from resolver.upstreams.operator_integration import fetch_operator, fetch_tool_record

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
class SchemaSource:
    """Where a property's schema lives: an operator-market record or a tool-box tool."""

    kind: Literal["operator", "tool"]
    ids: tuple[str, ...]  # (operator_id,) or (box_id, tool_id)

    def label(self) -> str:
        """How warnings name it: `operator schema of op-1`, `tool schema of box-1/tool-1`."""
        return f"{self.kind} schema of {'/'.join(self.ids)}"

    def debug(self) -> dict[str, str]:
        """The ids, named as the data source names them."""
        names = ("operator_id",) if self.kind == "operator" else ("box_id", "tool_id")
        return dict(zip(names, self.ids, strict=True))


@dataclass(frozen=True, slots=True)
class SchemaResult:
    """What step 2 found for one schema source."""

    source: SchemaSource
    outcome: Outcome
    document: dict[str, Any] | None = None
    warning: str | None = None
    # The document's per-input schemas, converted once when it was fetched.
    inputs: dict[str, dict[str, Any]] | None = None

    def debug(self) -> dict[str, Any]:
        """The per-property debug entry."""
        return {**self.source.debug(), "outcome": self.outcome}


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
        offload: Offload | None = None,
    ) -> None:
        self._upstreams = upstreams
        self._ttl_s = ttl_s
        self._offload = offload
        self._cache: TtlCache[tuple[str, ...], SchemaResult] = TtlCache(
            max_entries=max_entries, clock=clock
        )

    async def of_properties(
        self, definitions: Iterable[LogicPropertyDef], caller: CallerHeaders
    ) -> dict[str, SchemaResult]:
        """The schema of each operator or tool-box property that names one, by property name."""
        operators = [d for d in definitions if d.type == "operator"]
        wanted = {
            d.name: source
            for d in operators
            if (source := schema_source_of(d.data_source)) is not None
        }
        results = await asyncio.gather(*(self.fetch(source, caller) for source in wanted.values()))
        found = dict(zip(wanted, results, strict=True))
        for definition in operators:
            if definition.name not in found:
                refused = unusable_source(definition.data_source)
                if refused is not None:
                    log.warning("operator_schema.unusable_id", property=definition.name)
                    found[definition.name] = refused
        return found

    async def get(self, operator_id: str, caller: CallerHeaders) -> SchemaResult:
        """The operator's document, or a result saying why there is none (never raises)."""
        return await self.fetch(SchemaSource("operator", (operator_id,)), caller)

    async def fetch(self, source: SchemaSource, caller: CallerHeaders) -> SchemaResult:
        """The source's document, or a result saying why there is none (never raises)."""
        if not self._upstreams.configured(OPERATOR_INTEGRATION):
            return SchemaResult(
                source,
                "not_configured",
                warning=f"{source.label()} not fetched: "
                "RESOLVER_OPERATOR_INTEGRATION_URL is not set",
            )
        key = (source.kind, *source.ids, caller.account_id or "", caller.account_type or "")
        shared = replace(caller, deadline=None)  # one fetch for every waiter: its own timeout
        try:
            result, cached = await self._cache.get_within(
                caller.deadline, key, lambda: self._fetch(source, shared), self._ttl_of
            )
        except TimeoutError:
            return SchemaResult(
                source,
                "failed",
                warning=f"{source.label()} not fetched: the request deadline passed first",
            )
        if cached and result.document is not None:
            return replace(result, outcome="cached")
        return result

    def _ttl_of(self, result: SchemaResult) -> float:
        if result.outcome == "not_configured":
            return 0.0
        return self._ttl_s if result.document is not None else min(self._ttl_s, _FAILURE_TTL_S)

    async def _fetch(self, source: SchemaSource, caller: CallerHeaders) -> SchemaResult:
        client = self._upstreams.get(OPERATOR_INTEGRATION)
        try:
            if source.kind == "operator":
                answer = await fetch_operator(client, source.ids[0], caller)
            else:
                answer = await fetch_tool_record(client, source.ids[0], source.ids[1], caller)
        except ResolverError as exc:
            # Service and status only: an upstream's 4xx message may quote the caller's token.
            log.warning(
                "operator_schema.failed",
                **source.debug(),
                code=exc.code,
                upstream_status=getattr(exc, "upstream_status", None),
            )
            return SchemaResult(
                source, "failed", warning=f"{source.label()} not fetched: {exc.message}"
            )
        document = operator_document(answer)
        problem = "it has no parameters or request body"
        if document is not None:
            try:
                # Off the event loop: a document's $refs can take a fraction of a second.
                inputs = (
                    await self._offload.run(input_schemas, document)
                    if self._offload is not None
                    else input_schemas(document)
                )
                if inputs:
                    return SchemaResult(source, "fetched", document, inputs=inputs)
            except SchemaConversionError as exc:
                problem = exc.message
        log.warning("operator_schema.unusable", **source.debug(), problem=problem)
        return SchemaResult(
            source,
            "unusable",
            warning=f"{source.label()} is unusable ({problem}); resolved without it",
        )


def schema_source_of(data_source: Mapping[str, Any] | None) -> SchemaSource | None:
    """Where a logic property's `data_source` says its schema lives, if it names one.

    `box_id` and `tool_id` (a tool-box tool) win over `id` (an operator-market record).
    """
    if not data_source:
        return None
    box_id, tool_id = _id(data_source.get("box_id")), _id(data_source.get("tool_id"))
    if box_id is not None and tool_id is not None:
        return SchemaSource("tool", (box_id, tool_id))
    operator_id = _id(data_source.get("id"))
    return None if operator_id is None else SchemaSource("operator", (operator_id,))


def unusable_source(data_source: Mapping[str, Any] | None) -> SchemaResult | None:
    """A result saying why a `data_source` that names ids names none usable (`.`, `..`, blank,
    not printable), or None when it names no id at all."""
    if not data_source:
        return None
    for key in ("id", "box_id", "tool_id"):
        value = data_source.get(key)
        if value is not None and _id(value) is None:
            shown = clip_repr(value, 40)
            return SchemaResult(
                SchemaSource("operator", (str(value)[:40],)),
                "unusable",
                warning=f"data_source.{key} {shown} is not a usable id; resolved without its "
                "schema",
            )
    return None


def operator_id_of(data_source: Mapping[str, Any] | None) -> str | None:
    """The operator id of a logic property's `data_source`, if it names a usable one."""
    if not data_source:
        return None
    return _id(data_source.get("id"))


def _id(value: Any) -> str | None:
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
