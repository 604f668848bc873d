"""Stage 3 of a property (SPEC §1, §6): ask the LLM for what is still open, read and check its
answer, and re-ask with the rule violations up to `max_repair_rounds`."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from resolver.core.clip import clip
from resolver.core.errors import LLMError, LLMOutputInvalid
from resolver.llm.answers import read_answer
from resolver.llm.budget import RequestBudget
from resolver.llm.client import LLMClient
from resolver.llm.completion import Message
from resolver.llm.prompts import Prompts, repair_message, user_message
from resolver.llm.schema import answer_schema
from resolver.params.frame import Frame
from resolver.params.property import PropertyState
from resolver.timeexpr.convert import to_epoch_ms
from resolver.toolschema import compact
from rules import registry
from rules.spec import METRIC_TIME_PARAMS
from rules.violation import Violation

_LISTED_VIOLATIONS = 20
# What a repair prompt repeats of the answer it corrects: enough to show the mistake; a model
# (or a poisoned cache) answering megabytes must not have them sent back on every round.
_ECHOED_ANSWER_CHARS = 4000
# Identities a prompt lists: the model needs an example of what the request is about, not a
# list of thousands repeated in every prompt.
_PROMPT_IDENTITIES = 3


async def resolve_with_llm(
    state: PropertyState,
    frame: Frame,
    llm: LLMClient,
    prompts: Prompts,
    deadline: float,
    *,
    foreign_keys: frozenset[str] = frozenset(),
    budget: RequestBudget | None = None,
) -> PropertyState:
    """Stage 3: ask the LLM for the open params, re-asking with violations up to the limit.

    `foreign_keys` are inputs of the request's other properties only: context pairs naming
    them are values for those properties, and are left out of this prompt (and its cache key).
    `budget` is the request's: every call spends from it (`LLMBudgetExceeded` past it).
    """
    generate = state.open_params()
    messages: list[Message] = [
        {"role": "system", "content": prompts.system(state.spec.kind)},
        {"role": "user", "content": user_message(_task(state, frame, generate, foreign_keys))},
    ]
    state.begin_llm()
    response_format = _response_format(state, frame, generate)
    try:
        for round_no in range(frame.max_repair_rounds + 1):
            if budget is not None:
                budget.spend(messages)
            completion = await llm.complete(
                messages,
                deadline=deadline,
                response_format=response_format,
                purpose="first" if round_no == 0 else "repair",
                model=frame.llm_model,
            )
            state.count_llm_call(completion, messages)
            violations, omitted = _take_answer(state, frame, completion.content, generate)
            if violations:
                await llm.forget(completion)
            if not violations and not omitted:
                return state
            if round_no == frame.max_repair_rounds or llm.draining:
                if not violations:
                    state.report_missing(frame.language)
                    return state
                # No property name here: the merged error puts it in front of each failure.
                raise LLMOutputInvalid(
                    f"the LLM answer still breaks the rules after "
                    f"{round_no} repair round(s): {violations[0]}",
                    details={"violations": [str(v) for v in violations[:_LISTED_VIOLATIONS]]},
                )
            state.count_repair_round(round_no + 1)
            wanted = violations + [
                Violation("3.1.2", f"generate {name} or answer _error naming it", name)
                for name in omitted
            ]
            messages = [
                *messages,
                {"role": "assistant", "content": _echoed(completion.content)},
                {"role": "user", "content": repair_message(prompts, state.name, generate, wanted)},
            ]
    except LLMError as exc:
        state.fail(exc)
    return state


def _echoed(content: str | None) -> str:
    """The previous answer as a repair round repeats it: at most `_ECHOED_ANSWER_CHARS`."""
    text = content or ""
    if len(text) <= _ECHOED_ANSWER_CHARS:
        return text
    return f"{text[:_ECHOED_ANSWER_CHARS]}…[cut, {len(text)} chars]"


def _take_answer(
    state: PropertyState, frame: Frame, content: str | None, generate: list[str]
) -> tuple[list[Violation], list[str]]:
    """Merge a valid answer into the state; otherwise return its violations and omissions."""
    answer = read_answer(content, state.name)
    if answer.violations:
        return answer.violations, []
    if answer.values is None:
        named = [p for p in answer.missing if p in generate]
        state.report_missing(frame.language, answer.ask, named=named)
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
                violations.append(Violation("7.2.2", f"{edge}: {clip(str(exc))}", edge))
    candidate = {**state.values, **proposed}
    violations.extend(registry.validate(state.spec, candidate))
    if violations:
        return violations, []
    for name, value in proposed.items():
        state.settle(name, value, "llm")
    return [], state.needed_params()  # one left open with a schema default gets the default


def _task(
    state: PropertyState, frame: Frame, generate: list[str], foreign_keys: frozenset[str]
) -> dict[str, Any]:
    """The user message's task. What is the property's own (its definition, its schema, the
    zone, what is to be generated) leads, what is the request's (the question, the context,
    the identities, the clock, what was settled) follows: a provider's prompt cache serves the
    longest prefix it has seen, so one property's prompts share everything up to the question
    across requests (docs/llm.md)."""
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
    }
    schemas = {i.name: compact(i.schema) for i in state.spec.inputs if i.schema is not None}
    if schemas:
        task["schema"] = schemas
    task.update(
        {
            "timezone": frame.tz.key,
            "generate": generate,
            "query": frame.query,
            "additional_context": _context_text(frame, foreign_keys),
            **_identities(frame.identities),
            **_clock(state, frame, generate),
            "fixed": state.ordered_values(),
        }
    )
    return task


def _identities(identities: list[dict[str, Any]] | None) -> dict[str, Any]:
    """The first few identities, and how many there are when that is more."""
    if identities is None:
        return {"unique_identities": None}
    shown: dict[str, Any] = {"unique_identities": identities[:_PROMPT_IDENTITIES]}
    if len(identities) > _PROMPT_IDENTITIES:
        shown["unique_identities_total"] = len(identities)
    return shown


def _clock(state: PropertyState, frame: Frame, generate: list[str]) -> dict[str, str]:
    """The request's time as the model needs it: `now` to the minute when it must produce
    time values, else only `today`. Anything finer would make each prompt (and so each cache
    key) unique for no better answer: time values are converted in code from the exact clock.
    """
    moment = dt.datetime.fromtimestamp(frame.now_ms / 1000, frame.tz)
    if state.spec.kind == "metric" and any(p in METRIC_TIME_PARAMS for p in generate):
        return {"now": moment.replace(second=0, microsecond=0).isoformat(timespec="minutes")}
    return {"today": moment.date().isoformat()}


def _context_text(frame: Frame, foreign_keys: frozenset[str]) -> str:
    """The context as the model sees it, less the clock (given separately) and the pairs
    meant for the request's other properties."""
    context = frame.context
    dropped = {"now_ms", *foreign_keys} & context.pairs.keys()
    if not dropped:
        return context.text
    if context.is_json:
        kept = {k: v for k, v in context.pairs.items() if k not in dropped}
        return user_message(kept) if kept else ""
    names = "|".join(re.escape(k) for k in sorted(dropped))
    pair = re.compile(rf"(?<![A-Za-z0-9_])(?:{names})\s*[=:：]\s*[^；;，,\n]*[；;，,\n]?\s*")
    return pair.sub("", context.text).strip()


def _response_format(
    state: PropertyState, frame: Frame, generate: list[str]
) -> dict[str, Any] | None:
    if frame.response_format == "none":
        return None
    if frame.response_format == "json_object":
        return {"type": "json_object"}
    return {
        "type": "json_schema",
        "json_schema": {
            "name": "dynamic_params",
            "strict": True,
            "schema": answer_schema(state.spec, generate),
        },
    }
