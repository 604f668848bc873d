"""Resolution of one property: caller values → context → rules → LLM → validation (SPEC §1)."""

from __future__ import annotations

import datetime as dt
import time
from dataclasses import dataclass, field
from typing import Any, Literal, cast
from zoneinfo import ZoneInfo

from resolver import asks
from resolver.context import CoercionError, Context, coerce
from resolver.errors import LLMError, LLMOutputInvalid
from resolver.llm.client import Completion, LLMClient, Message
from resolver.llm.output import read_answer
from resolver.llm.prompts import Prompts, repair_message, user_message
from resolver.models import LogicPropertyDef
from resolver.opschema import compact
from resolver.timeexpr import Step, TimeResolution, resolve_time, to_epoch_ms
from rules import registry
from rules.spec import METRIC_TIME_PARAMS, STEPS, InputSpec, PropertySpec
from rules.violation import Violation

Source = Literal["caller", "context", "rule", "llm", "default"]


@dataclass(frozen=True, slots=True)
class Frame:
    """What every property of one request shares."""

    query: str
    context: Context
    now_ms: int
    tz: ZoneInfo
    identities: list[dict[str, Any]] | None
    language: asks.Language
    max_repair_rounds: int
    response_format: Literal["json_object", "json_schema", "none"]
    # Metric properties of one request share the query: read it once per override pair.
    time_cache: dict[tuple[bool | None, str | None], TimeResolution | None] = field(
        default_factory=dict, compare=False
    )


@dataclass(slots=True)
class PropertyState:
    """One property on its way through the pipeline."""

    definition: LogicPropertyDef
    spec: PropertySpec
    values: dict[str, Any] = field(default_factory=dict)
    sources: dict[str, Source] = field(default_factory=dict)
    time_expr: str | None = None
    missing: list[str] = field(default_factory=list)
    ask: str | None = None
    llm: dict[str, Any] | None = None
    failure: LLMError | None = None

    @property
    def name(self) -> str:
        """The property name."""
        return self.spec.name

    def settle(self, name: str, value: Any, source: Source) -> None:
        """Record a value and where it came from."""
        self.values[name] = value
        self.sources[name] = source

    def open_params(self) -> list[str]:
        """Inputs still needed, in declared order."""
        return registry.missing(self.spec, self.values)

    def ordered_values(self) -> dict[str, Any]:
        """The settled values in the property's declared order."""
        return {n: self.values[n] for n in self.spec.input_names() if n in self.values}

    def debug(self) -> dict[str, Any]:
        """The per-property debug block."""
        return {
            "type": self.spec.kind,
            "source": {n: self.sources[n] for n in self.spec.input_names() if n in self.sources},
            "time_expr": self.time_expr,
            "llm": self.llm,
        }


def property_spec(
    definition: LogicPropertyDef, schemas: dict[str, dict[str, Any]] | None
) -> PropertySpec:
    """The rules' view of a property definition."""
    inputs = tuple(
        InputSpec(p.name, p.param_type, (schemas or {}).get(p.name)) for p in definition.inputs()
    )
    return PropertySpec(definition.name, definition.type, inputs)


def take_caller_values(
    state: PropertyState, supplied: dict[str, Any] | None, frame: Frame
) -> list[Violation]:
    """Stage 1: values from `dynamic_params`, then `additional_context`; return their violations."""
    violations: list[Violation] = []
    for name, value in (supplied or {}).items():
        state.settle(name, value, "caller")
    for name in state.spec.input_names():
        if name in state.values:
            continue
        found, raw = frame.context.lookup(name)
        if not found:
            continue
        try:
            value = _context_value(state.spec, name, raw, frame)
        except ValueError as exc:
            rule = "7.2.2" if name in ("start", "end") else "7.3.2"
            violations.append(Violation(rule, f"additional_context {name}: {exc}", name))
            continue
        state.settle(name, value, "context")
    violations.extend(registry.validate(state.spec, state.values))
    return violations


def _context_value(spec: PropertySpec, name: str, raw: Any, frame: Frame) -> Any:
    if spec.kind == "metric" and name in ("start", "end") and isinstance(raw, str):
        edge: Literal["start", "end"] = "start" if name == "start" else "end"
        if not raw.strip().isdigit():
            return to_epoch_ms(raw.strip(), edge=edge, now_ms=frame.now_ms, tz=frame.tz)
    try:
        return coerce(raw, spec.implicit_type(name))
    except CoercionError as exc:
        raise ValueError(str(exc)) from None


def apply_time_rules(state: PropertyState, frame: Frame) -> None:
    """Stage 2 (metrics): time expressions and step/instant words, settled in code."""
    declared = [n for n in METRIC_TIME_PARAMS if state.spec.get(n) is not None]
    if state.spec.kind != "metric" or not declared:
        return
    instant = state.values.get("instant")
    step = state.values.get("step")
    overrides = (
        instant if isinstance(instant, bool) else None,
        cast("Step", step) if step in STEPS else None,
    )
    if overrides in frame.time_cache:
        resolution = frame.time_cache[overrides]
    else:
        resolution = frame.time_cache[overrides] = resolve_time(
            frame.query,
            now_ms=frame.now_ms,
            tz=frame.tz,
            instant=overrides[0],
            step=overrides[1],
        )
    if resolution is not None:
        state.time_expr = resolution.expr
        for name, value in resolution.params().items():
            if name in declared and name not in state.values:
                state.settle(name, value, "rule")
    window = ("start", "end", "step")
    if (
        "instant" in declared
        and "instant" not in state.values
        and all(n in state.values for n in window if n in declared)
        and any(n in declared for n in window)
    ):
        # A complete window given by the caller is a trend query by definition.
        state.settle("instant", False, "rule")


def report_missing(state: PropertyState, frame: Frame, ask: str | None = None) -> None:
    """Mark the open params missing; `instant` is implied when the window is missing too."""
    missing = state.open_params()
    if "instant" in missing and any(n in missing for n in ("start", "end", "step")):
        missing.remove("instant")
    state.missing = missing
    state.ask = ask or asks.ask_for(missing, frame.language)


async def resolve_with_llm(
    state: PropertyState, frame: Frame, llm: LLMClient, prompts: Prompts, deadline: float
) -> PropertyState:
    """Stage 3: ask the LLM for the open params, re-asking with violations up to the limit."""
    generate = state.open_params()
    messages: list[Message] = [
        {"role": "system", "content": prompts.system(state.spec.kind)},
        {"role": "user", "content": user_message(_task(state, frame, generate))},
    ]
    trace: dict[str, Any] = {"attempts": 0, "repair_rounds": 0, "latency_ms": 0.0}
    state.llm = trace
    try:
        for round_no in range(frame.max_repair_rounds + 1):
            completion = await llm.complete(
                messages, deadline=deadline, response_format=_response_format(state, frame)
            )
            _account(trace, completion, messages)
            violations, omitted = _take_answer(state, frame, completion.content, generate)
            if not violations and not omitted:
                return state
            if round_no == frame.max_repair_rounds:
                if not violations:
                    report_missing(state, frame)
                    return state
                raise LLMOutputInvalid(
                    f"{state.name}: the LLM answer still breaks the rules after "
                    f"{round_no} repair round(s): {violations[0]}",
                    details={"violations": [str(v) for v in violations]},
                )
            trace["repair_rounds"] = round_no + 1
            wanted = violations + [
                Violation("3.1.2", f"generate {name} or answer _error naming it", name)
                for name in omitted
            ]
            messages = [
                *messages,
                {"role": "assistant", "content": completion.content or ""},
                {"role": "user", "content": repair_message(prompts, state.name, generate, wanted)},
            ]
    except LLMError as exc:
        state.failure = exc
    return state


def _account(trace: dict[str, Any], completion: Completion, messages: list[Message]) -> None:
    trace["attempts"] += completion.attempts
    trace["latency_ms"] = round(trace["latency_ms"] + completion.latency_ms, 1)
    trace["request"] = messages
    trace["response"] = completion.content


def _take_answer(
    state: PropertyState, frame: Frame, content: str | None, generate: list[str]
) -> tuple[list[Violation], list[str]]:
    """Merge a valid answer into the state; otherwise return its violations and omissions."""
    answer = read_answer(content, state.name)
    if answer.violations:
        return answer.violations, []
    if answer.values is None:
        named = [p for p in answer.missing if p in generate]
        report_missing(state, frame, answer.ask)
        if named:
            state.missing = [p for p in state.missing if p in named] or state.missing
        return [], []
    # The model fills what it was asked for, nothing else: settled values stay, a declared
    # input it was not asked for (a window on an instant query) is dropped, and undeclared
    # keys are kept so that rule 3.1.1 names them.
    declared = state.spec.input_names()
    proposed = {k: v for k, v in answer.values.items() if k in generate or k not in declared}
    violations: list[Violation] = []
    for edge in ("start", "end"):
        if state.spec.kind == "metric" and edge in proposed and edge in generate:
            try:
                proposed[edge] = to_epoch_ms(
                    proposed[edge],
                    edge="start" if edge == "start" else "end",
                    now_ms=frame.now_ms,
                    tz=frame.tz,
                )
            except ValueError as exc:
                violations.append(Violation("7.2.2", f"{edge}: {exc}", edge))
    candidate = {**state.values, **proposed}
    violations.extend(registry.validate(state.spec, candidate))
    if violations:
        return violations, []
    for name, value in proposed.items():
        state.settle(name, value, "llm")
    return [], state.open_params()


def _task(state: PropertyState, frame: Frame, generate: list[str]) -> dict[str, Any]:
    definition = state.definition
    task: dict[str, Any] = {
        "logic_property": {
            "name": definition.name,
            "type": definition.type,
            "display_name": definition.display_name,
            "comment": definition.comment,
            "parameters": [
                {"name": p.name, "type": p.type, "comment": p.comment} for p in definition.inputs()
            ],
        },
        "query": frame.query,
        "additional_context": frame.context.text,
        "unique_identities": frame.identities,
        "now": _iso(frame.now_ms, frame.tz),
        "timezone": frame.tz.key,
        "fixed": state.ordered_values(),
        "generate": generate,
    }
    schemas = {i.name: compact(i.schema) for i in state.spec.inputs if i.schema is not None}
    if schemas:
        task["schema"] = schemas
    return task


def _iso(now_ms: int, tz: ZoneInfo) -> str:
    moment = dt.datetime.fromtimestamp(now_ms / 1000, tz)
    return moment.isoformat(timespec="milliseconds")


def _response_format(state: PropertyState, frame: Frame) -> dict[str, Any] | None:
    if frame.response_format == "none":
        return None
    if frame.response_format == "json_object":
        return {"type": "json_object"}
    return {
        "type": "json_schema",
        "json_schema": {
            "name": "dynamic_params",
            "schema": {
                "type": "object",
                "properties": {
                    state.name: {"type": "object"},
                    "_error": {"type": "string"},
                },
            },
        },
    }


def deadline_after(seconds: float) -> float:
    """A monotonic deadline `seconds` from now."""
    return time.monotonic() + seconds
