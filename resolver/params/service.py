"""The dynamic-params resolution of one request (SPEC §2.1): frame it, settle each property in
code, ask the LLM for the rest (fanned out), then merge — or raise the one error that says
what is wrong or missing. Behind `/v1/dynamic-params`, the pipeline endpoint and the CLI."""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from functools import partial
from pathlib import Path
from typing import Any, NoReturn

import orjson
import structlog

from resolver.core.cache import TtlCache
from resolver.core.clip import clip
from resolver.core.deadline import Deadline
from resolver.core.errors import (
    BadRequest,
    InvalidCallerValue,
    LLMError,
    LLMTimeout,
    MissingParams,
    ModelNotAllowed,
    SchemaConversionError,
)
from resolver.core.lifecycle import Lifecycle
from resolver.core.metrics import Metrics
from resolver.core.offload import Offload
from resolver.core.settings import Settings
from resolver.llm.budget import RequestBudget
from resolver.llm.client import LLMClient
from resolver.llm.probe import LLMProbe
from resolver.llm.prompts import Prompts, load_prompts
from resolver.llm.runtime import open_llm
from resolver.params.asks import Language
from resolver.params.code_stage import apply_time_rules, take_caller_values
from resolver.params.fanout import fan_out
from resolver.params.frame import Frame, frame_of
from resolver.params.llm_stage import resolve_with_llm
from resolver.params.models import ResolveRequest
from resolver.params.property import PropertyState
from resolver.params.resolution import Resolved
from resolver.params.sources import PropertySource, summarize
from resolver.params.trace import bill, usage_total
from resolver.timeexpr.reading import MAX_TEXT
from resolver.toolschema import input_schemas

log = structlog.get_logger("resolver.params")

_SHOWN_PROBLEMS = 5
_LISTED_PROBLEMS = 50
# Converted operator documents, by digest: the pipeline sends the same few documents with
# every request (and each caller account), so each is converted once, not once a request.
_CONVERTED_ENTRIES = 256
_CONVERTED_TTL_S = 3600.0

InputSchemas = dict[str, dict[str, Any]]
# A context of more characters than a text is read for time (`timeexpr.reading.MAX_TEXT`) is
# framed off the event loop; below it the frame costs less than the hop to a thread.
OFFLOAD_CONTEXT = MAX_TEXT


def context_chars(raw: str | dict[str, Any] | None) -> int:
    """The characters of `additional_context` that are read for time: the text, or the
    top-level string values of an object (what `params/context.py` reads)."""
    if raw is None:
        return 0
    if isinstance(raw, str):
        return len(raw)
    return sum(len(value) for value in raw.values() if isinstance(value, str))


class ParamsService:
    """Resolves the `dynamic_params` of one request's logic properties; holds no request state."""

    def __init__(
        self,
        settings: Settings,
        prompts: Prompts,
        llm: LLMClient | None,
        offload: Offload | None = None,
    ) -> None:
        self.settings = settings
        self.prompts = prompts
        self.llm = llm
        self._offload = offload
        self._converted: TtlCache[str, InputSchemas] = TtlCache(max_entries=_CONVERTED_ENTRIES)

    @property
    def mode(self) -> str:
        """`llm` or `rules-only`."""
        return "rules-only" if self.llm is None else "llm"

    async def resolve(
        self,
        request: ResolveRequest,
        deadline: Deadline | None = None,
        *,
        language: Language | None = None,
    ) -> Resolved:
        """Every property resolved, or raise the error that describes the failure.

        `deadline` is the request's (`RESOLVER_REQUEST_TIMEOUT_S` from when it arrived); the
        LLM stage never outlives it. Without one (the CLI), the budget starts now. `language`
        (the caller's `Accept-Language`) chooses the language of the asks; without it the
        query's language does.
        """
        if deadline is None:
            deadline = Deadline.after(self.settings.request_timeout_s)
        model, warnings = self._model_of(request)
        # Each stage is awaited only when it has work: a coroutine that returns at once still
        # costs its creation and a frame (a rules-only request has none of these).
        if self._offload is None or context_chars(request.additional_context) <= OFFLOAD_CONTEXT:
            frame = frame_of(request, self.settings, language=language, llm_model=model)
        else:
            frame = await self._frame_offloaded(request, language, model)
        schemas = await self._operator_inputs(request) if request.operator_schemas else {}
        states = [PropertyState.of(d, schemas.get(d.name)) for d in request.logic_properties]
        _take_caller_values(states, request, frame)
        for state in states:
            apply_time_rules(state, frame)
        # A property already missing (a metric with no time dimension asked for a period) is
        # settled as missing: no LLM is asked for a window that cannot exist.
        pending = [s for s in states if not s.is_missing and s.open_params()]
        if pending:
            await self._settle_the_rest(pending, frame, request, deadline)
        if language is not None:
            _asks_in(states, language)
        return _merge(states, frame, request, warnings)

    async def _frame_offloaded(
        self, request: ResolveRequest, language: Language | None, model: str | None
    ) -> Frame:
        """The request's frame read on a worker thread, for a long context: reading a context
        for time is linear, ~1 µs a character (a 500 KB context: ~190 ms), which on the event
        loop would be every other request's wait (`/healthz` included); below
        `OFFLOAD_CONTEXT` characters the frame costs less than the hop to a thread."""
        assert self._offload is not None  # noqa: S101 - only called with an offload
        return await self._offload.run(
            frame_of, request, self.settings, language=language, llm_model=model
        )

    def _model_of(self, request: ResolveRequest) -> tuple[str | None, list[str]]:
        """The model the request chose (`llm_model`), and what to say about it (SPEC §6):
        listed in RESOLVER_LLM_ALLOWED_MODELS → it; not listed → 400 MODEL_NOT_ALLOWED naming
        the allowed ones; no list configured → ignored, said in a warning and the log."""
        wanted = request.llm_model
        if wanted is None:
            return None, []
        allowed = self.settings.allowed_models()
        shown = clip(wanted, 64)
        if not allowed:
            log.warning("params.llm_model_ignored", llm_model=shown)
            return None, [
                (
                    f"llm_model {shown!r} is ignored: this deployment lists no "
                    "RESOLVER_LLM_ALLOWED_MODELS, so it chooses the model"
                )
            ]
        if wanted not in allowed:
            raise ModelNotAllowed(
                f"llm_model {shown!r} is not allowed here; choose one of: {', '.join(allowed)}",
                details={"llm_model": shown, "allowed": list(allowed)},
            )
        return wanted, []

    async def _operator_inputs(self, request: ResolveRequest) -> dict[str, InputSchemas]:
        """Each operator document's per-input schemas, by property name: converted off the
        event loop (a document's `$ref`s can take a fraction of a second to inline), once per
        distinct document."""
        documents = request.operator_schemas or {}
        names = {d.name for d in request.logic_properties}
        out: dict[str, InputSchemas] = {}
        for name, document in documents.items():
            if name in names and document:
                out[name] = await self._converted_inputs(name, document)
        return out

    async def _converted_inputs(self, name: str, document: dict[str, Any]) -> InputSchemas:
        digest = _digest(document)

        async def convert() -> InputSchemas:
            if self._offload is None:
                return _schemas(name, document)
            return await self._offload.run(_schemas, name, document)

        converted, _ = await self._converted.get(digest, convert, lambda _: _CONVERTED_TTL_S)
        return converted

    async def _settle_the_rest(
        self,
        pending: list[PropertyState],
        frame: Frame,
        request: ResolveRequest,
        deadline: Deadline,
    ) -> None:
        """Stages 3 and 4 for what code did not settle: the LLM, then schema defaults."""
        if not frame.query.strip():
            # Nothing for the LLM to read: schema defaults fill what they can (SPEC §1 step 4).
            for state in pending:
                state.apply_defaults(frame.language)
            pending = [s for s in pending if s.open_params()]
            if pending:
                names = ", ".join(s.name for s in pending)
                raise BadRequest(
                    f"query is empty but {names} still need inputs; send a query or supply "
                    "every input in dynamic_params/additional_context",
                    details={"open": {s.name: s.open_params() for s in pending}},
                )
        if not pending:
            return
        if self.llm is None:
            for state in pending:
                state.apply_defaults(frame.language)
                if state.open_params():
                    state.report_missing(frame.language)
            return
        # The LLM may read an input from the query; a default fills it only if still open.
        await self._ask_llm(pending, frame, request, deadline)
        for state in pending:
            if state.failure is None:
                state.apply_defaults(frame.language)

    async def _ask_llm(
        self,
        pending: list[PropertyState],
        frame: Frame,
        request: ResolveRequest,
        deadline: Deadline,
    ) -> None:
        llm = self.llm
        assert llm is not None  # noqa: S101 - only called in LLM mode
        limit = request.options.max_concurrency or self.settings.max_concurrency

        inputs = {d.name: {p.name for p in d.inputs()} for d in request.logic_properties}
        budget = RequestBudget(
            max_calls=self.settings.llm_max_calls_per_request,
            max_prompt_bytes=self.settings.llm_max_prompt_bytes_per_request,
        )

        async def worker(state: PropertyState) -> PropertyState:
            # Context pairs that only other properties take are left out of this prompt.
            others = set().union(*(v for k, v in inputs.items() if k != state.name))
            foreign = frozenset(others - inputs[state.name])
            return await resolve_with_llm(
                state, frame, llm, self.prompts, deadline.at, foreign_keys=foreign, budget=budget
            )

        try:
            # An expired deadline (the body or the upstreams took it all) times out at once.
            async with asyncio.timeout(deadline.remaining()):
                await fan_out(pending, worker, limit=limit)
        except TimeoutError as exc:
            raise LLMTimeout(
                f"the request deadline of {deadline.budget_s:g}s passed before the LLM answered",
                details={
                    "phase": "llm",
                    "properties": [s.name for s in pending if s.open_params()],
                },
            ) from exc


def _digest(document: dict[str, Any]) -> str:
    """A document's identity, whatever its key order; integers of any size exact."""
    try:
        canonical = orjson.dumps(document, option=orjson.OPT_SORT_KEYS)
    except TypeError:  # an integer beyond 64 bits: the standard library writes it exactly
        canonical = json.dumps(document, sort_keys=True, ensure_ascii=False).encode()
    return hashlib.sha256(canonical).hexdigest()


def _schemas(name: str, document: dict[str, Any]) -> InputSchemas:
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
    given = request.dynamic_params or {}
    for state in states:
        violations = take_caller_values(state, given.get(state.name), frame)
        if violations:
            problems.extend(
                {
                    "property": state.name,
                    "param": clip(violation.param) if violation.param is not None else None,
                    "rule": violation.rule,
                    "message": str(violation),
                }
                for violation in violations
            )
    if problems:
        line = "; ".join(f"{p['property']}: {p['message']}" for p in problems[:_SHOWN_PROBLEMS])
        if len(problems) > _SHOWN_PROBLEMS:
            line += f" (+{len(problems) - _SHOWN_PROBLEMS} more)"
        raise InvalidCallerValue(
            f"invalid caller values: {line}", details=problems[:_LISTED_PROBLEMS]
        )


def _asks_in(states: list[PropertyState], language: Language) -> None:
    """An ask the LLM wrote in another language than the caller asked for is replaced."""
    for state in states:
        state.ask_in(language)


def _merge(
    states: list[PropertyState], frame: Frame, request: ResolveRequest, warnings: list[str]
) -> Resolved:
    options = request.options
    shown = _debug(states, frame, warnings) if options.return_debug else None
    for state in states:
        if state.failure is not None or state.is_missing:
            _raise_unsettled(states, shown)
    usage = bill([s.llm for s in states if s.llm is not None]) if options.return_usage else None
    params = {state.name: state.ordered_values() for state in states}
    # Where each property's values came from is worked out only when asked (the pipeline's
    # `dynamic_params_source`): a /v1/dynamic-params answer never says it.
    return Resolved(params, shown, usage, partial(_sources, states, request.dynamic_params))


def _sources(
    states: list[PropertyState], supplied: dict[str, Any] | None
) -> dict[str, PropertySource]:
    """Each property's one-word source (`sources.py`)."""
    given = supplied or {}
    return {s.name: summarize(s.sources, has_entry=s.name in given) for s in states}


def _raise_unsettled(states: list[PropertyState], shown: dict[str, Any] | None) -> NoReturn:
    """The one error of a request some of whose properties failed or miss inputs."""
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
        types = {
            s.name: {p: _type_name(s, p) for p in s.missing}
            for s in states
            if s.missing and s.failure is None
        }
        error = MissingParams(line, missing=missing, param_types=types)
        if shown is not None:
            error.details = {"debug": shown}
        raise error
    raise AssertionError("_raise_unsettled called with every property settled")


def _type_name(state: PropertyState, param: str) -> str | None:
    """The declared type of an input (a metric's time inputs have theirs by SPEC §5)."""
    declared = state.spec.implicit_type(param)
    return None if declared is None else declared.value


def _debug(states: list[PropertyState], frame: Frame, warnings: list[str]) -> dict[str, Any]:
    shown: dict[str, Any] = {
        "now_ms": frame.now_ms,
        "timezone": frame.tz.key,
        "properties": {s.name: s.debug() for s in states},
        "warnings": list(warnings),
    }
    traces = [s.llm for s in states if s.llm is not None]
    # What the request's LLM stage cost, always (SPEC §6), as `usage` would say it.
    shown["usage"] = bill(traces)
    if traces:
        shown["llm_usage"] = usage_total(traces)
    return shown


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
    offload: Offload | None = None,
) -> AsyncIterator[tuple[ParamsService, LLMProbe | None]]:
    """The service with its prompts and LLM resources, and the LLM probe; closed on exit."""
    prompts = load_prompts(prompts_dir)
    async with open_llm(settings, metrics, lifecycle) as runtime:
        if runtime is None:
            log.info("resolver.started", mode="rules-only", prompts=str(prompts.directory))
            yield ParamsService(settings, prompts, None, offload), None
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
        yield ParamsService(settings, prompts, runtime.client, offload), runtime.probe
