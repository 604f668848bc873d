"""The agent retry loop converges (SPEC §3): after a time `_error`, each retry an agent
naturally writes in additional_context settles the property in code — over HTTP, with an LLM
configured that is never called for it."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import orjson
import pytest

from resolver.params import asks
from resolver.testing.fake_llm import FakeLLM, Reply
from tests.helpers import ClientFactory, metric, post, request_body

SH = ZoneInfo("Asia/Shanghai")  # NOW_MS is 2025-11-13T09:12:22.241+08:00
NOW = "2025-11-13T09:12:22.241"


def at(local: str) -> int:
    moment = datetime.fromisoformat(local).replace(tzinfo=SH)
    return (moment - datetime(1970, 1, 1, tzinfo=UTC)) // timedelta(milliseconds=1)


def win(start: str, end: str, step: str) -> dict[str, Any]:
    return {"instant": False, "start": at(start), "end": at(end), "step": step}


Q1_MONTHLY = win("2024-01-01T00:00", "2024-03-31T23:59:59.999", "month")
HALF_YEAR = win("2025-05-13T09:12:22.241", NOW, "month")
LAST_3M = win("2025-08-13T09:12:22.241", NOW, "month")
INSTANT = {"instant": True}

RETRIES: list[tuple[str, str, Any, dict[str, Any]]] = [
    ("zh-free-range-and-step", "药品数量", "时间范围：2024年1月至3月，按月", Q1_MONTHLY),
    ("zh-free-half-year", "药品数量", "最近半年", HALF_YEAR),
    ("en-free-range-and-step", "drug count", "time range: Jan to Mar 2024, monthly", Q1_MONTHLY),
    (
        "kv-ascii-comma",
        "药品数量",
        "start=2024-01-01, end=2024-03-31, step=month",
        Q1_MONTHLY,
    ),
    ("kv-full-width-comma", "药品数量", "start=2024-01-01，end=2024-03-31，step=month", Q1_MONTHLY),
    ("kv-semicolon", "药品数量", "start=2024-01-01；end=2024-03-31；step=month", Q1_MONTHLY),
    (
        "kv-ascii-semicolon",
        "drug count",
        "start=2024-01-01; end=2024-03-31; step=month",
        Q1_MONTHLY,
    ),
    ("kv-newlines", "药品数量", "start=2024-01-01\nend=2024-03-31\nstep=month", Q1_MONTHLY),
    (
        "json-object",
        "药品数量",
        {"start": "2024-01-01", "end": "2024-03-31", "step": "month"},
        Q1_MONTHLY,
    ),
    (
        "json-string",
        "drug count",
        '{"start": "2024-01-01", "end": "2024-03-31", "step": "Month"}',
        Q1_MONTHLY,
    ),
    (
        "json-time-key",
        "药品数量",
        {"时间范围": "2024年第一季度", "step": "按月"},
        Q1_MONTHLY,
    ),
    ("zh-instant-query-current", "药品数量", "查询当前值", INSTANT),
    ("zh-instant-current", "药品数量", "当前值", INSTANT),
    ("en-instant", "drug count", "current value", INSTANT),
    ("kv-instant", "drug count", "instant=true", INSTANT),
    (
        "kv-expressions",
        "药品数量",
        "start=2024年1月；end=2024年3月；step=按月",
        Q1_MONTHLY,
    ),
    (
        "kv-epoch-ms",
        "药品数量",
        f"start={at('2024-01-01T00:00')}, end={at('2024-03-31T23:59:59.999')}, step=monthly",
        Q1_MONTHLY,
    ),
    (
        "en-period-key",
        "drug count",
        "period: last quarter",
        win("2025-07-01T00:00", "2025-09-30T23:59:59.999", "quarter"),
    ),
    (
        "zh-time-key-previous-month",
        "药品数量",
        "时间：上个月",
        win("2025-10-01T00:00", "2025-10-31T23:59:59.999", "month"),
    ),
    (
        "zh-quarters-in-a-year",
        "药品数量",
        "2024年Q1到Q3，按月",
        win("2024-01-01T00:00", "2024-09-30T23:59:59.999", "month"),
    ),
    (
        "en-iso-range-then-step-pair",
        "drug count",
        "time range: 2024-01-01 to 2024-03-31, step: month",
        Q1_MONTHLY,
    ),
    # A query whose own time the scanner refused (最近几个月): the context clarifies it.
    ("zh-clarifies-a-vague-query", "最近几个月的药品数量", "最近3个月", LAST_3M),
    ("en-clarifies-a-vague-query", "drug count over the last few months", "last 3 months", LAST_3M),
]

# The examples the time ask names (SPEC §4.1), each a retry that must converge.
ASK_EXAMPLES: list[tuple[str, str, str, dict[str, Any]]] = [
    ("zh", "药品数量", "最近3个月", LAST_3M),
    ("zh", "药品数量", "2024年1月至3月", Q1_MONTHLY),
    ("zh", "药品数量", "start=2024-01-01；end=2024-03-31；step=month", Q1_MONTHLY),
    ("zh", "药品数量", "instant=true", INSTANT),
    ("en", "drug count", "last 3 months", LAST_3M),
    ("en", "drug count", "January to March 2024", Q1_MONTHLY),
    ("en", "drug count", "start=2024-01-01; end=2024-03-31; step=month", Q1_MONTHLY),
    ("en", "drug count", "instant=true", INSTANT),
]


def model_says_missing(fake: FakeLLM) -> None:
    """The LLM answers the first request the way a careful model does: it cannot tell."""
    error = "missing approved_drug_count: start,end,step | ask: 请说明时间范围"
    fake.push(Reply(content=orjson.dumps({"_error": error}).decode()))


async def converge(
    make_client: ClientFactory, fake_llm: FakeLLM, query: str, context: Any
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The first request (422) and the retry (must be 200 with no LLM call)."""
    client = await make_client()
    model_says_missing(fake_llm)
    status, first = await post(client, request_body(metric(), query=query))
    assert status == 422, first
    assert first["missing"][0]["params"] == ["start", "end", "step"]
    calls = len(fake_llm.calls)
    retry = request_body(
        metric(), query=query, additional_context=context, options={"return_debug": True}
    )
    status, second = await post(client, retry)
    assert status == 200, second
    assert len(fake_llm.calls) == calls, "the retry called the LLM"
    return first, second


@pytest.mark.parametrize(
    ("query", "context", "expected"), [pytest.param(*r[1:], id=r[0]) for r in RETRIES]
)
async def test_retry_settles_with_no_llm_call(
    make_client: ClientFactory,
    fake_llm: FakeLLM,
    query: str,
    context: Any,
    expected: dict[str, Any],
) -> None:
    _, second = await converge(make_client, fake_llm, query, context)
    assert second["dynamic_params"] == {"approved_drug_count": expected}
    sources = second["debug"]["properties"]["approved_drug_count"]["source"]
    assert set(sources.values()) <= {"context", "rule"}


def test_there_are_at_least_twenty_phrasings_in_both_languages() -> None:
    assert len(RETRIES) >= 20
    assert {r[0].split("-")[0] for r in RETRIES} >= {"zh", "en", "kv", "json"}


@pytest.mark.parametrize("case", [pytest.param(e, id=f"{e[0]}-{e[2]}") for e in ASK_EXAMPLES])
async def test_every_example_of_the_time_ask_converges(
    make_client: ClientFactory,
    fake_llm: FakeLLM,
    case: tuple[asks.Language, str, str, dict[str, Any]],
) -> None:
    language, query, example, expected = case
    # The ask a rules-only service gives names the example, in the query's language ...
    status, rules_only = await post(
        await make_client(llm=False), request_body(metric(), query=query)
    )
    assert status == 422
    ask = rules_only["missing"][0]["ask"]
    assert ask == asks.ask_for(["start", "end", "step"], language)
    assert example in ask
    # ... and sending it back converges with no LLM call.
    _, second = await converge(make_client, fake_llm, query, example)
    assert second["dynamic_params"] == {"approved_drug_count": expected}
