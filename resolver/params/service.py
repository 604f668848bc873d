"""The dynamic-params resolution of one request (SPEC §2.1): frame it, settle each property in
code, ask the LLM for the rest (fanned out), then merge — or raise the one error that says
what is wrong or missing. Behind `/v1/dynamic-params`, the pipeline endpoint and the CLI."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import structlog

from resolver.core.errors import (
    BadRequest,
    InvalidCallerValue,
    LLMError,
    LLMTimeout,
    MissingParams,
    SchemaConversionError,
)
from resolver.core.lifecycle import Lifecycle
from resolver.core.metrics import Metrics
from resolver.core.settings import Settings
from resolver.llm.client import LLMClient
from resolver.llm.probe import LLMProbe
from resolver.llm.prompts import Prompts, load_prompts
from resolver.llm.runtime import open_llm
from resolver.params.code_stage import apply_time_rules, take_caller_values
from resolver.params.fanout import fan_out
from resolver.params.frame import Frame, frame_of
from resolver.params.llm_stage import resolve_with_llm
from resolver.params.models import ResolveRequest
from resolver.params.property import PropertyState
from resolver.toolschema import input_schemas

log = structlog.get_logger("resolver.params")


@dataclass(frozen=True, slots=True)
class Resolved:
    """Every property resolved: the merged `dynamic_params`, and `debug` when asked for."""

    dynamic_params: dict[str, dict[str, Any]]
    debug: dict[str, Any] | None


class ParamsService:
    """Resolves the `dynamic_params` of one request's logic properties; holds no request state."""

    def __init__(self, settings: Settings, prompts: Prompts, llm: LLMClient | None) -> None:
        self.settings = settings
        self.prompts = prompts
        self.llm = llm

    @property
    def mode(self) -> str:
        """`llm` or `rules-only`."""
        return "rules-only" if self.llm is None else "llm"

    async def resolve(self, request: ResolveRequest) -> Resolved:
        """Every property resolved, or raise the error that describes the failure."""
        frame = frame_of(request, self.settings)
        states = [PropertyState.of(d, _schemas(request, d.name)) for d in request.logic_properties]
        _take_caller_values(states, request, frame)
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
                state.report_missing(frame.language)
        elif pending:
            await self._ask_llm(pending, frame, request)
        return _merge(states, frame, debug=request.options.return_debug)

    async def _ask_llm(
        self, pending: list[PropertyState], frame: Frame, request: ResolveRequest
    ) -> None:
        llm = self.llm
        assert llm is not None  # noqa: S101 - only called in LLM mode
        budget = self.settings.request_timeout_s
        deadline = time.monotonic() + budget
        limit = request.options.max_concurrency or self.settings.max_concurrency

        inputs = {d.name: {p.name for p in d.inputs()} for d in request.logic_properties}

        async def worker(state: PropertyState) -> PropertyState:
            # Context pairs that only other properties take are left out of this prompt.
            others = set().union(*(v for k, v in inputs.items() if k != state.name))
            foreign = frozenset(others - inputs[state.name])
            return await resolve_with_llm(
                state, frame, llm, self.prompts, deadline, foreign_keys=foreign
            )

        try:
            async with asyncio.timeout(budget):
                await fan_out(pending, worker, limit=limit)
        except TimeoutError as exc:
            raise LLMTimeout(
                f"the request deadline of {budget:g}s passed before the LLM answered",
                details={"properties": [s.name for s in pending if s.open_params()]},
            ) from exc


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
        ) from exc


def _take_caller_values(states: list[PropertyState], request: ResolveRequest, frame: Frame) -> None:
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


def _merge(states: list[PropertyState], frame: Frame, *, debug: bool) -> Resolved:
    shown = _debug(states, frame) if debug else None
    failures = [s for s in states if s.failure is not None]
    missing: list[dict[str, Any]] = [
        {"property": s.name, "params": s.missing, "ask": s.ask}
        for s in states
        if s.missing and s.failure is None
    ]
    if failures:
        failure = _combined_failure(failures, missing)
        if shown is not None and isinstance(failure.details, dict):
            failure.details["debug"] = shown  # what the model said, as for a 422
        raise failure
    if missing:
        line = "; ".join(
            f"missing {m['property']}: {','.join(m['params'])} | ask: {m['ask']}" for m in missing
        )
        error = MissingParams(line, missing=missing)
        if shown is not None:
            error.details = {"debug": shown}
        raise error
    return Resolved({s.name: s.ordered_values() for s in states}, shown)


def _debug(states: list[PropertyState], frame: Frame) -> dict[str, Any]:
    shown: dict[str, Any] = {
        "now_ms": frame.now_ms,
        "timezone": frame.tz.key,
        "properties": {s.name: s.debug() for s in states},
        "warnings": [],
    }
    traces = [s.llm for s in states if s.llm is not None]
    if traces:
        shown["llm_usage"] = _usage_total(traces)
    return shown


def _usage_total(traces: list[dict[str, Any]]) -> dict[str, int]:
    """The request's LLM usage: calls, cache hits, retries, repair rounds and tokens."""
    total = {"calls": 0, "cached_calls": 0, "retries": 0, "repair_rounds": 0}
    tokens = {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0}
    for trace in traces:
        for key in total:
            total[key] += trace.get(key, 0)
        for key in tokens:
            tokens[key] += trace.get("usage", {}).get(key, 0)
    return {**total, **tokens}


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


@asynccontextmanager
async def open_params_service(
    settings: Settings,
    prompts_dir: Path | None = None,
    metrics: Metrics | None = None,
    lifecycle: Lifecycle | None = None,
) -> AsyncIterator[tuple[ParamsService, LLMProbe | None]]:
    """The service with its prompts and LLM resources, and the LLM probe; closed on exit."""
    prompts = load_prompts(prompts_dir)
    async with open_llm(settings, metrics, lifecycle) as runtime:
        if runtime is None:
            log.info("resolver.started", mode="rules-only", prompts=str(prompts.directory))
            yield ParamsService(settings, prompts, None), None
            return
        log.info(
            "resolver.started",
            mode="llm",
            llm_base_url=settings.llm_base_url,
            llm_model=settings.llm_model,
            prompts=str(prompts.directory),
            max_concurrency=settings.max_concurrency,
            llm_max_inflight=settings.llm_max_inflight,
            llm_qps=settings.llm_qps,
        )
        yield ParamsService(settings, prompts, runtime.client), runtime.probe
