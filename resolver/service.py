"""Request-level resolution: frame the request, run every property, merge (SPEC §2.1)."""

from __future__ import annotations

import asyncio
import time
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from resolver import asks
from resolver.context import Context, parse_context
from resolver.errors import (
    BadRequest,
    InvalidCallerValue,
    LLMError,
    LLMTimeout,
    MissingParams,
    SchemaConversionError,
)
from resolver.fanout import fan_out
from resolver.llm.client import LLMClient
from resolver.llm.prompts import Prompts
from resolver.models import ResolveRequest
from resolver.opschema import input_schemas
from resolver.pipeline import (
    Frame,
    PropertyState,
    apply_time_rules,
    deadline_after,
    property_spec,
    report_missing,
    resolve_with_llm,
    take_caller_values,
)
from resolver.settings import Settings
from rules.spec import MAX_MS, MIN_MS


class Resolver:
    """The resolution engine behind `/v1/dynamic-params`, the pipeline endpoint and the CLI."""

    def __init__(self, settings: Settings, prompts: Prompts, llm: LLMClient | None) -> None:
        self.settings = settings
        self.prompts = prompts
        self.llm = llm

    @property
    def mode(self) -> str:
        """`llm` or `rules-only`."""
        return "rules-only" if self.llm is None else "llm"

    async def resolve(self, request: ResolveRequest) -> dict[str, Any]:
        """The 200 body (without trace_id), or raise the error that describes the failure."""
        frame = self._frame(request)
        states = [
            PropertyState(definition=d, spec=property_spec(d, self._schemas(request, d.name)))
            for d in request.logic_properties
        ]
        self._take_caller_values(states, request, frame)
        for state in states:
            apply_time_rules(state, frame)
        pending = [s for s in states if s.open_params()]
        if pending and not frame.query.strip():
            names = ", ".join(s.name for s in pending)
            raise BadRequest(
                f"query is empty but {names} still need inputs; send a query or supply "
                "every input in dynamic_params/additional_context",
                details={"open": {s.name: s.open_params() for s in pending}},
            )
        if pending and self.llm is None:
            for state in pending:
                report_missing(state, frame)
        elif pending:
            await self._run_llm(pending, frame, request)
        return self._merge(states, frame, request)

    def _frame(self, request: ResolveRequest) -> Frame:
        context = parse_context(request.additional_context)
        tz = _timezone(request.timezone or _context_str(context, "timezone"), self.settings)
        now_ms = request.now_ms if request.now_ms is not None else _context_now(context)
        options = request.options
        return Frame(
            query=request.query,
            context=context,
            now_ms=now_ms if now_ms is not None else time.time_ns() // 1_000_000,
            tz=tz,
            identities=request.unique_identities,
            language=asks.language_of(request.query, context.text),
            max_repair_rounds=options.max_repair_rounds,
            response_format=self.settings.llm_response_format,
        )

    @staticmethod
    def _schemas(request: ResolveRequest, name: str) -> dict[str, dict[str, Any]] | None:
        document = (request.operator_schemas or {}).get(name)
        if not document:
            return None
        try:
            return input_schemas(document)
        except SchemaConversionError as exc:
            # The caller sent this document, so it is a bad request, not a bad gateway.
            raise BadRequest(
                f"operator_schemas.{name} cannot be read: {exc.message}",
                details={"pointer": exc.pointer},
            ) from None

    @staticmethod
    def _take_caller_values(
        states: list[PropertyState], request: ResolveRequest, frame: Frame
    ) -> None:
        problems: list[dict[str, Any]] = []
        for state in states:
            supplied = (request.dynamic_params or {}).get(state.name)
            problems.extend(
                {
                    "property": state.name,
                    "param": violation.param,
                    "rule": violation.rule,
                    "message": str(violation),
                }
                for violation in take_caller_values(state, supplied, frame)
            )
        if problems:
            line = "; ".join(f"{p['property']}: {p['message']}" for p in problems)
            raise InvalidCallerValue(f"invalid caller values: {line}", details=problems)

    async def _run_llm(
        self, pending: list[PropertyState], frame: Frame, request: ResolveRequest
    ) -> None:
        llm = self.llm
        assert llm is not None  # noqa: S101 - only called in LLM mode
        budget = self.settings.request_timeout_s
        deadline = deadline_after(budget)
        limit = request.options.max_concurrency or self.settings.max_concurrency

        async def worker(state: PropertyState) -> PropertyState:
            return await resolve_with_llm(state, frame, llm, self.prompts, deadline)

        try:
            async with asyncio.timeout(budget):
                await fan_out(pending, worker, limit=limit)
        except TimeoutError:
            raise LLMTimeout(
                f"the request deadline of {budget:g}s passed before the LLM answered",
                details={"properties": [s.name for s in pending if s.open_params()]},
            ) from None

    def _merge(
        self, states: list[PropertyState], frame: Frame, request: ResolveRequest
    ) -> dict[str, Any]:
        debug = self._debug(states, frame) if request.options.return_debug else None
        failures = [s for s in states if s.failure is not None]
        missing: list[dict[str, Any]] = [
            {"property": s.name, "params": s.missing, "ask": s.ask}
            for s in states
            if s.missing and s.failure is None
        ]
        if failures:
            raise _combined_failure(failures, missing)
        if missing:
            line = "; ".join(
                f"missing {m['property']}: {','.join(m['params'])} | ask: {m['ask']}"
                for m in missing
            )
            error = MissingParams(line, missing=missing)
            if debug is not None:
                error.details = {"debug": debug}
            raise error
        body: dict[str, Any] = {"dynamic_params": {s.name: s.ordered_values() for s in states}}
        if debug is not None:
            body["debug"] = debug
        return body

    @staticmethod
    def _debug(states: list[PropertyState], frame: Frame) -> dict[str, Any]:
        return {
            "now_ms": frame.now_ms,
            "timezone": frame.tz.key,
            "properties": {s.name: s.debug() for s in states},
            "warnings": [],
        }


def _combined_failure(failures: list[PropertyState], missing: list[dict[str, Any]]) -> LLMError:
    first = failures[0].failure
    assert first is not None  # noqa: S101 - filtered above
    line = "; ".join(f"{s.name}: {s.failure.message}" for s in failures if s.failure)
    return type(first)(
        line,
        details={
            "failures": [
                {"property": s.name, "code": s.failure.code, "message": s.failure.message}
                for s in failures
                if s.failure
            ],
            "missing": missing,
        },
    )


def _context_str(context: Context, key: str) -> str | None:
    found, value = context.lookup(key)
    return value.strip() if found and isinstance(value, str) else None


def _context_now(context: Context) -> int | None:
    found, value = context.lookup("now_ms")
    if not found:
        return None
    if isinstance(value, str):
        text = value.strip()
        # str.isdigit() also accepts "²" and int() refuses over 4300 digits: ASCII, int64 only.
        if text.isascii() and text.isdigit() and len(text) <= 19:
            value = int(text)
    if not isinstance(value, int) or isinstance(value, bool) or not MIN_MS <= value <= MAX_MS:
        raise BadRequest(
            f"additional_context now_ms must be integer ms within [{MIN_MS}, {MAX_MS}], "
            f"got {str(value)[:40]!r}"
        )
    return value


def _timezone(name: str | None, settings: Settings) -> ZoneInfo:
    if name is None:
        return ZoneInfo(settings.default_timezone)
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, OSError):
        # OSError: a name too long for a file name, or a directory such as "America".
        raise BadRequest(
            f"unknown timezone {name[:64]!r}; use an IANA name such as Asia/Shanghai"
        ) from None
