"""The five tools: what an LLM reads about each, its schemas (from the HTTP API's models) and
its run — parse → call → render, exactly like the HTTP handler of the same operation.

A tool run raises the same errors as the HTTP endpoint; `server.py` turns them into tool
errors. `kn_id` may be left out: the transport supplies it (the `X-Kn-ID` header over HTTP,
`--kn-id` over stdio); an argument wins over it. Every tool also takes `response_format`
(`json`, the default, or `toon`: the text of the result; `server.py` reads it).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from resolver.actions.models import ActionInfoRequest, ActionInfoResponse
from resolver.core.errors import BadRequest, invalid_request
from resolver.core.responses import ResponseBody
from resolver.kn.models import InputsRequest, InputsResponse, KnResolveRequest, KnResolveResponse
from resolver.mcp.exchange import CallContext
from resolver.mcp.results import Body, Written
from resolver.mcp.schemas import input_schema, output_schema
from resolver.params.models import JSON_VALUES, ResolveRequest, ResolveResponse
from resolver.services import Services
from resolver.windows.models import TimeWindowRequest, TimeWindowResponse

M = TypeVar("M", bound=BaseModel)


Run = Callable[[Services, dict[str, Any], CallContext], Awaitable[Body]]


@dataclass(frozen=True, slots=True)
class ToolSpec:
    """One tool as `tools/list` shows it, and how a call runs."""

    name: str
    title: str
    description: str
    input_schema: dict[str, Any]
    output_schema: dict[str, Any]
    run: Run
    # Every tool only reads. Its domain is the knowledge network (ontology-query, bkn-backend,
    # operator-integration: the platform's own services), the deployment's LLM or the clock:
    # bounded, not an open world of external entities (SPEC §8; docs/mcp.md).
    read_only: bool = True
    open_world: bool = False


def validated(model: type[M], arguments: dict[str, Any]) -> M:
    """The arguments as the HTTP endpoint's request model; a tool error naming each bad field.
    The arguments are JSON values (the call's message was JSON), so the definitions in them are
    kept as an HTTP body's are (`JSON_VALUES`)."""
    try:
        return model.model_validate(arguments, context=JSON_VALUES)
    except ValidationError as exc:
        raise invalid_request(exc) from exc


def _with_kn_id(arguments: dict[str, Any], context: CallContext) -> dict[str, Any]:
    if "kn_id" in arguments:
        return arguments
    if context.kn_id is None:
        raise BadRequest(
            "kn_id is required: pass it as an argument or send the X-Kn-ID header",
            details=[{"loc": "kn_id", "msg": "Field required", "type": "missing"}],
        )
    return {**arguments, "kn_id": context.kn_id}


async def _resolve(services: Services, arguments: dict[str, Any], context: CallContext) -> Body:
    request = validated(ResolveRequest, arguments)
    resolved = await services.params.resolve(
        request, context.caller.deadline, language=context.language
    )
    # The HTTP endpoint's own bytes (`Resolved.to_json`), not a response model to dump.
    return Written(resolved.to_json(context.trace_id))


async def _values(
    services: Services, arguments: dict[str, Any], context: CallContext
) -> ResponseBody:
    request = validated(KnResolveRequest, _with_kn_id(arguments, context))
    result = await services.pipeline.run(request, context.caller, language=context.language)
    return result.response(context.trace_id)


async def _inputs(
    services: Services, arguments: dict[str, Any], context: CallContext
) -> ResponseBody:
    request = validated(InputsRequest, _with_kn_id(arguments, context))
    described = await services.inputs.describe(request, context.caller)
    return described.response(request, context.trace_id)


async def _actions(
    services: Services, arguments: dict[str, Any], context: CallContext
) -> ResponseBody:
    request = validated(ActionInfoRequest, _with_kn_id(arguments, context))
    return await services.recall.answer(request, context.caller, public_url=context.public_url)


async def _window(
    services: Services, arguments: dict[str, Any], context: CallContext
) -> ResponseBody:
    request = validated(TimeWindowRequest, arguments)
    return services.windows.answer(request, context.trace_id, language=context.language)


_ADDITIONAL_CONTEXT = (
    "What the question leaves out; it is read before the question. key=value pairs separated "
    "by ； or new lines (start=2024-01-01；end=2024-03-31；step=month, instant=true for the "
    "current value, or a business input such as region=华东), free text "
    "(时间范围：2024年1月至3月，按月), or a JSON object. After a MISSING_INPUT_PARAMS error, "
    "put here what its hints ask for and call again with otherwise the same arguments."
)
_QUERY = "The user's question in their own words, e.g. 最近3个月的药品数量趋势."
_IDENTITIES = (
    'The object instances, each by its primary key values, e.g. [{"company_id": "c1"}] '
    "(as the instance query tools return them in _instance_identity)."
)
_DYNAMIC_PARAMS = (
    'Values you already know, per property and parameter, e.g. {"p1": {"step": "month"}}; '
    "used as given, checked by the same rules."
)
_OPTIONS = (
    "Rarely needed: max_concurrency (1-16 LLM calls at once), return_debug (add a debug "
    "block showing where each value came from), max_repair_rounds (0-3), return_usage (add "
    "usage: the LLM calls, tokens and cost of the request)."
)
_LLM_MODEL = (
    "Rarely needed: the LLM model to use, one the deployment allows (else an error names "
    "them); ignored when the deployment allows no choice."
)
_NOW_MS = "The current time in epoch milliseconds; default: the server clock."
_TIMEZONE = "IANA timezone of the question, e.g. Asia/Shanghai (the default)."
_KN_ID = (
    "Knowledge network id. Leave it out to use the connection's knowledge network "
    "(the X-Kn-ID header)."
)
_RESPONSE_FORMAT = (
    "The format of the result's text: json (the default) or toon (the same values in TOON, "
    "fewer tokens). structuredContent is always the JSON object."
)
_INSTRUCTIONS = (
    "resolver answers questions about knowledge-network objects. get_logic_properties_values "
    "fetches metric and operator values of object instances for a question; "
    "get_logic_property_inputs lists what each logic property needs, so you can send known "
    "values in dynamic_params; get_action_info turns an instance's action into a callable "
    "function tool; resolve_dynamic_params only works out the parameters. When a call fails "
    "with error_code MISSING_INPUT_PARAMS, ask the user (or decide) what the hints name, put "
    "it in additional_context and call again. resolve_time_window turns time words (上个季度, "
    "last week) into exact timestamps: use it instead of computing dates yourself."
)


def _with_response_format(schema: dict[str, Any]) -> dict[str, Any]:
    """`schema` with the `response_format` argument every tool takes."""
    properties = {
        **schema["properties"],
        "response_format": {
            "type": "string",
            "enum": ["json", "toon"],
            "default": "json",
            "description": _RESPONSE_FORMAT,
        },
    }
    return {**schema, "properties": properties}


RESOLVE = ToolSpec(
    name="resolve_dynamic_params",
    title="Resolve dynamic parameters",
    description=(
        "Work out the dynamic_params (time window, step, business inputs) of knowledge-network "
        "logic properties from a natural-language question, without fetching any value. Use it "
        "when you already hold the property definitions; to get an object's property values "
        "use get_logic_properties_values instead. Time words (最近3个月, 2024年Q1, last month, "
        "since March) are computed exactly in code; only inputs code cannot settle go to an "
        "LLM. Returns {dynamic_params: {<property>: {<param>: value}}, trace_id}; times are "
        "epoch milliseconds. If inputs are missing the result is an error with error_code "
        "MISSING_INPUT_PARAMS listing, per property, each missing param with a hint: call "
        "again with the same arguments and what the hints ask for in additional_context."
    ),
    input_schema=_with_response_format(
        input_schema(
            ResolveRequest,
            descriptions={
                "logic_properties": (
                    "The logic property definitions as ontology-manager gives them: name, type "
                    "(metric or operator) and parameters; only parameters with "
                    "value_from=input are resolved."
                ),
                "query": _QUERY,
                "unique_identities": _IDENTITIES,
                "_instance_identities": "The same as unique_identities; send one of them.",
                "additional_context": _ADDITIONAL_CONTEXT,
                "dynamic_params": _DYNAMIC_PARAMS,
                "operator_schemas": (
                    "Per operator property, its OpenAPI document, so that its inputs are typed "
                    "and checked by it."
                ),
                "now_ms": _NOW_MS,
                "timezone": _TIMEZONE,
                "options": _OPTIONS,
                "llm_model": _LLM_MODEL,
            },
            aliases={"_instance_identities": "unique_identities"},
        )
    ),
    output_schema=output_schema(ResolveResponse),
    run=_resolve,
)

VALUES = ToolSpec(
    name="get_logic_properties_values",
    title="Get logic property values",
    description=(
        "Get the values of logic properties (metrics and operator results) of object "
        "instances in a knowledge network, e.g. a company's approved-drug count over the last "
        "3 months. Give the object type (ot_id), the instances (_instance_identities), the "
        "property names and the user's question as query: the tool works out each property's "
        "parameters (time window, step, business inputs) from the question and returns "
        "{datas: per instance its property values, dynamic_params: the parameters used, "
        "trace_id}. If inputs are missing the result is an error with error_code "
        "MISSING_INPUT_PARAMS listing, per property, each missing param with a hint: call "
        "again with the same arguments and what the hints ask for in additional_context. "
        "dynamic_params_source says per property whether its parameters were yours "
        "(caller), worked out (generated) or both (merged); effective_permissions your "
        "permission level per data property."
    ),
    input_schema=_with_response_format(
        input_schema(
            KnResolveRequest,
            descriptions={
                "kn_id": _KN_ID,
                "ot_id": "Object type id of the instances, e.g. ot_company.",
                "query": _QUERY,
                "_instance_identities": _IDENTITIES,
                "properties": 'Names of the logic properties to get, e.g. ["approved_drug_count"].',
                "additional_context": _ADDITIONAL_CONTEXT,
                "dynamic_params": _DYNAMIC_PARAMS,
                "options": _OPTIONS,
                "llm_model": _LLM_MODEL,
                "now_ms": _NOW_MS,
                "timezone": _TIMEZONE,
            },
            optional=("kn_id",),
        )
    ),
    output_schema=output_schema(KnResolveResponse),
    run=_values,
)

ACTIONS = ToolSpec(
    name="get_action_info",
    title="Get an object's action as a function tool",
    description=(
        "Find the action an object instance offers for an action type, as a ready-to-call "
        "OpenAI function tool. Give the action type (at_id) and the instance "
        "(_instance_identity). Returns {_dynamic_tools: [] or one tool {name, description, "
        "parameters: JSON Schema of the values still to fill, api_url: where to send the "
        "call, fixed_params: values already known, by HTTP location, original_schema}, "
        "trace_id}. An empty list means the instance has no action of that type."
    ),
    input_schema=_with_response_format(
        input_schema(
            ActionInfoRequest,
            descriptions={
                "kn_id": _KN_ID,
                "at_id": "Action type id, e.g. at_assess_risk.",
                "_instance_identity": (
                    'The object instance by its primary key values, e.g. {"company_id": "c1"}.'
                ),
                "unique_identity": "The same as _instance_identity; send one of them.",
                "_instance_identities": (
                    "Instances as a list; the first non-empty one is used (instead of "
                    "_instance_identity)."
                ),
            },
            aliases={"_instance_identity": "unique_identity"},
            optional=("kn_id",),
        )
    ),
    output_schema=output_schema(ActionInfoResponse),
    run=_actions,
)

INPUTS = ToolSpec(
    name="get_logic_property_inputs",
    title="Describe logic property inputs",
    description=(
        "List what the logic properties of an object type need before you ask for their "
        "values: per property its inputs with name, type, required, enum, default and "
        "whether resolver settles the input itself (settled_in_code: time inputs from time "
        "words of the question, inputs with a schema default). Send the values you know in "
        "get_logic_properties_values' dynamic_params ({<property>: {<input>: value}}) and "
        "no question-guessing is needed for them. Give ot_id and, optionally, properties "
        "(all you may see when left out). Times are epoch milliseconds; step is one of "
        "day/week/month/quarter/year."
    ),
    input_schema=_with_response_format(
        input_schema(
            InputsRequest,
            descriptions={
                "kn_id": _KN_ID,
                "ot_id": "Object type id, e.g. ot_company.",
                "properties": (
                    "Names of the logic properties to describe; leave out for every one you "
                    "may see."
                ),
            },
            optional=("kn_id",),
        )
    ),
    output_schema=output_schema(InputsResponse),
    run=_inputs,
)

WINDOW = ToolSpec(
    name="resolve_time_window",
    title="Resolve a time window",
    description=(
        "Turn time words into exact timestamps: the window a text such as 上个季度, 最近3个月, "
        "last week, since March or 2024年Q1 means at a clock in a timezone, computed in code "
        "(calendar weeks, quarters, month ends, holidays, DST) rather than guessed. Call it "
        "whenever you need the start and end of a period, and never compute dates yourself: "
        '"last week" is the previous calendar week, not the past 7 days. Returns {instant, '
        "start, end (the window's last millisecond or second), step, unit, now, timezone, "
        "start_iso, end_iso, expression, read, explanation, trace_id}; instant=true (当前, now) "
        "means the current value, with start and end null. Pass unit=s when the next tool "
        "takes unix seconds, now_ms and timezone when the user's clock or zone differs from "
        "the server's. If the text settles no window the result is an error with error_code "
        "TIME_UNSETTLED naming the unread words: never guess then — ask the user, or call again "
        "with the range stated in context (e.g. 2024年1月至3月, 2024-01-01 to 2024-03-31) or "
        "with instant=true for the current value. Fiscal periods (本财年, FY2025 Q3, fiscal "
        "year to date, 财年前三季度): pass fiscal_year_start (MM-DD, e.g. 04-01) and, if years "
        "are named by the year they start in, fiscal_year_named_by=start — without a fiscal "
        "start the result is TIME_UNSETTLED asking for it. Comparisons (同比, 环比, YoY, MoM, "
        "Q3 vs Q2): the result adds baseline {start, end, step, start_iso, end_iso, expression, "
        "kind}, the window to compare with (kind year_over_year, period_over_period or "
        "explicit); query the metric once for the main window and once for baseline. Pass "
        "shape=query_metric to get query_metric_time (and baseline.query_metric_time): the "
        "time argument of the platform's query_metric tool, ready to pass on."
    ),
    input_schema=_with_response_format(
        input_schema(
            TimeWindowRequest,
            descriptions={
                "text": "The time words as the user wrote them, e.g. 上个季度 or sales last week.",
                "now_ms": (
                    "The current time in epoch milliseconds; default: a clock sentence of "
                    "context (今天是2025年11月13日), else the server clock."
                ),
                "timezone": (
                    "The user's timezone: IANA (Asia/Shanghai, the default), a city (New York, "
                    "纽约) or an offset (UTC+8)."
                ),
                "context": (
                    "More text from the conversation: a clock or zone sentence, or the time "
                    "range the user stated after a TIME_UNSETTLED error; its time words beat "
                    "text's."
                ),
                "unit": "ms (epoch milliseconds, the default) or s (unix seconds).",
                "language": "zh or en: the language of explanation; default: the text's.",
                "instant": "true: the user wants the current value, not a period.",
                "step": "The granularity you need (day/week/month/quarter/year), beating the text.",
                "fiscal_year_start": (
                    "The first day of the user's fiscal year, MM-DD (04-01, 10-01): pass it "
                    "whenever the text names a fiscal period and you know the company's."
                ),
                "fiscal_year_named_by": (
                    "end (default: FY2025 ends in 2025) or start (FY2025 starts in 2025)."
                ),
                "shape": "query_metric: add query_metric_time for the query_metric tool.",
            },
        )
    ),
    output_schema=output_schema(TimeWindowResponse),
    run=_window,
)

TOOLS: tuple[ToolSpec, ...] = (VALUES, INPUTS, ACTIONS, RESOLVE, WINDOW)
BY_NAME = {tool.name: tool for tool in TOOLS}
INSTRUCTIONS = _INSTRUCTIONS
