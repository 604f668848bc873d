"""The cases of context_gold.jsonl: agent-style retries in `additional_context` (SPEC §3).

Each is one `POST /v1/dynamic-params` in rules-only mode. Many retries follow the first request
of their conversation (no context → 422 naming what is missing), so a pair shows the retry
converging. Expected windows are computed at the clock the service must use: the request's
now_ms/timezone when sent, else the ones the context gives.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from zoneinfo import ZoneInfo

from benchmarks.gold_oracle.answers import (
    Params,
    Spec,
    first_n,
    instant,
    rolling,
    span,
    whole,
)
from benchmarks.gold_oracle.periods import (
    Clock,
    bare_festival,
    day,
    last,
    month,
    quarter,
    year,
)
from benchmarks.gold_oracle.time_cases import NOV, NY_NOV, OFFICIAL, SHANGHAI, is_chinese

TIME_INPUTS = ("instant", "start", "end", "step")
TIME_MISSING = ["start", "end", "step"]
FIRST = "first request: no context and no LLM → 422 naming what the retry must send"

Context = str | Params | list[Any]
Value = Spec | Params  # a metric's window (Spec) or an operator's / business inputs (dict)


def metric(name: str, *business: tuple[str, str]) -> Params:
    """A metric with the four time inputs, a property-bound company_id and business inputs."""
    parameters: list[Params] = [
        {"name": p, "value_from": "input", "if_system_generate": True} for p in TIME_INPUTS
    ]
    parameters.append({"name": "company_id", "value_from": "property"})
    parameters += [{"name": n, "type": t, "value_from": "input"} for n, t in business]
    return {"name": name, "type": "metric", "parameters": parameters}


def operator(name: str, *inputs: tuple[str, str]) -> Params:
    """An operator with typed inputs."""
    parameters = [{"name": n, "type": t, "value_from": "input"} for n, t in inputs]
    return {"name": name, "type": "operator", "parameters": parameters}


SALES = metric("drug_sales")
REGIONAL = metric("drug_sales_by_region", ("region", "STRING"), ("limit", "INTEGER"))
ITEMS = operator("compare_items", ("items", "ARRAY"), ("limit", "INTEGER"))
SCORE = operator("business_health_score", ("threshold", "NUMBER"), ("include_reason", "BOOLEAN"))
FILTER = operator("company_filter", ("filter", "OBJECT"))


@dataclass(frozen=True, slots=True)
class Expect:
    """200 with per-property values, 422 with per-property gaps, or 400."""

    status: int
    settled: tuple[tuple[Params, Value, Params], ...] = ()
    gaps: tuple[tuple[Params, list[str]], ...] = ()

    def render(self, clock: Clock) -> Params:
        """The `expected` object at the clock the service must use."""
        if self.status == 200:
            out: Params = {}
            for prop, value, extra in self.settled:
                params = value if isinstance(value, dict) else value(clock).params
                assert params is not None, f"{prop['name']}: a 200 needs settled parameters"
                out[prop["name"]] = {**params, **extra}
            return {"status": 200, "dynamic_params": out}
        if self.status == 422:
            gaps = [{"property": p["name"], "params": params} for p, params in self.gaps]
            return {"status": 422, "missing": gaps}
        return {"status": self.status}


def ok(prop: Params, value: Value, **extra: Any) -> Expect:
    """200: one property settled (`extra`: a metric's business inputs)."""
    return Expect(200, settled=((prop, value, extra),))


def missing(prop: Params, params: list[str]) -> Expect:
    """422: one property with these inputs still open."""
    return Expect(422, gaps=((prop, params),))


BAD = Expect(400)


@dataclass(frozen=True, slots=True)
class ContextCase:
    """One line of context_gold.jsonl."""

    category: str
    lang: str
    query: str
    context: Context
    clock: Clock  # the clock the service must end up using
    properties: list[Params]
    expected: Expect
    note: str
    send_now: bool = True  # the request carries now_ms (else the context or nothing sets it)
    send_tz: bool = True  # the request carries timezone

    def row(self, number: int) -> Params:
        """The JSON object of this case."""
        return {
            "id": f"ctx-{number:03d}",
            "category": self.category,
            "lang": self.lang,
            "query": self.query,
            "additional_context": self.context,
            "now_ms": self.clock.now_ms if self.send_now else None,
            "timezone": self.clock.tz_name if self.send_tz else None,
            "logic_properties": self.properties,
            "expected": self.expected.render(self.clock),
            "note": self.note,
        }


def _ms(clock: Clock, local: str) -> int:
    return clock.ms(Clock.at(local, clock.tz_name).wall)


def context_cases() -> list[ContextCase]:
    """Every case of context_gold.jsonl, in file order."""
    out: list[ContextCase] = []
    k = NOV

    def add(
        category: str,
        query: str,
        context: Context,
        expected: Expect,
        note: str,
        *,
        props: list[Params] | None = None,
        at: Clock = k,
        send_now: bool = True,
        send_tz: bool = True,
    ) -> None:
        lang = "zh" if is_chinese(query) else "en"
        properties = props or [SALES]
        out.append(
            ContextCase(
                category, lang, query, context, at, properties, expected, note, send_now, send_tz
            )
        )

    q1 = span(day(2024, 1, 1), day(2024, 3, 31), step="month")
    jan_daily = span(day(2024, 1, 1), day(2024, 1, 31), step="day")
    q1_ms = q1(k).params
    assert q1_ms is not None

    # kv: key=value pairs, their separators, and coercion to the declared type.
    add("kv", "药品销售额", "", missing(SALES, TIME_MISSING), FIRST)
    add(
        "kv",
        "药品销售额",
        "start=2024-01-01, end=2024-03-31, step=month",
        ok(SALES, q1),
        "retry: ', ' before another pair splits; a bare date is its first ms for start, its last "
        "for end",
    )
    add(
        "kv",
        "药品销售额",
        "start=2024-01-01；end=2024-03-31；step=month",
        ok(SALES, q1),
        "full-width ； separators",
    )
    add(
        "kv",
        "药品销售额",
        "start=2024-01-01，end=2024-06-30，step=quarter",
        ok(SALES, span(day(2024, 1, 1), day(2024, 6, 30), step="quarter")),
        "full-width ， separators",
    )
    add(
        "kv",
        "药品销售额",
        "start=2024-01-01;end=2024-01-31;step=day",
        ok(SALES, jan_daily),
        "ASCII ; separators",
    )
    add(
        "kv",
        "药品销售额",
        "start=2024-01-01\nend=2024-01-31\nstep=week",
        ok(SALES, span(day(2024, 1, 1), day(2024, 1, 31), step="week")),
        "newline separators",
    )
    add(
        "kv",
        "药品销售额",
        "start：2024-04-01；end：2024-06-30；step：month",
        ok(SALES, span(day(2024, 4, 1), day(2024, 6, 30), step="month")),
        "key：value (full-width colon)",
    )
    add("kv", "drug sales", "", missing(SALES, TIME_MISSING), FIRST, at=NY_NOV)
    add(
        "kv",
        "drug sales",
        "start: 2024-04-01; end: 2024-06-30; step: quarter",
        ok(SALES, span(day(2024, 4, 1), day(2024, 6, 30), step="quarter")),
        "retry: 'key: value' pairs; dates in the request timezone (New York)",
        at=NY_NOV,
    )
    regional_q = "上个月各地区的药品销售额"
    add(
        "kv",
        regional_q,
        "",
        missing(REGIONAL, ["region", "limit"]),
        FIRST + "; the query settles the time, the business inputs are open",
        props=[REGIONAL],
    )
    add(
        "kv",
        regional_q,
        "region=East China, limit=5",
        ok(REGIONAL, whole(last("month")), region="East China", limit=5),
        "retry: SPEC §3 example, two pairs; INTEGER coerced",
        props=[REGIONAL],
    )
    add("kv", "对比各项指标", "", missing(ITEMS, ["items", "limit"]), FIRST, props=[ITEMS])
    add(
        "kv",
        "对比各项指标",
        "items=revenue,profit,growth；limit=3",
        ok(ITEMS, {"items": ["revenue", "profit", "growth"], "limit": 3}),
        "retry: a comma not before a pair stays in the value; ARRAY splits on ,",
        props=[ITEMS],
    )
    add(
        "kv",
        "对比各项指标",
        "items=revenue,profit,growth, limit=3",
        ok(ITEMS, {"items": ["revenue", "profit", "growth"], "limit": 3}),
        "only the comma before limit=3 separates pairs",
        props=[ITEMS],
    )
    add(
        "kv",
        "对比各项指标",
        "items=营收、利润、增长率；limit=10",
        ok(ITEMS, {"items": ["营收", "利润", "增长率"], "limit": 10}),
        "ARRAY splits on 、",
        props=[ITEMS],
    )
    add(
        "kv",
        "最近3个月的销售额",
        "趋势查询step=week",
        ok(SALES, rolling(3, "month", "week")),
        "SPEC §3: a pair glued to words; the query's window stays, its step is replaced",
    )
    add(
        "kv",
        "最近3个月的药品数量趋势",
        "company_id=company_000001，registered_capital=2000000；registered_capital>1000000；"
        "now_ms=1762996342241，timezone=Asia/Shanghai；趋势查询step=month",
        ok(SALES, rolling(3, "month")),
        "seed 003's free-text example: the clock comes from context; keys that are not inputs "
        "are left for the LLM (none needed); start 1755047542241 as in SPEC §2.1",
        send_now=False,
        send_tz=False,
    )
    add(
        "kv",
        "药品销售额",
        f"start={q1_ms['start']}, end={q1_ms['end']}, step=month",
        ok(SALES, q1),
        "start/end as integer ms",
    )
    add(
        "kv",
        "药品销售额",
        "start=2024年1月；end=2024年3月；step=month",
        ok(SALES, span(month(2024, 1), month(2024, 3))),
        "start/end as §4 expressions: first ms of January, last ms of March",
    )
    add(
        "kv",
        "药品销售额",
        "start=2024-03-01T08:00:00, end=2024-03-01T20:00:00, step=day",
        ok(
            SALES,
            {
                "instant": False,
                "start": _ms(k, "2024-03-01T08:00:00"),
                "end": _ms(k, "2024-03-01T20:00:00"),
                "step": "day",
            },
        ),
        "ISO datetimes are exact instants in the request timezone",
    )
    add(
        "kv",
        "企业健康评分",
        "",
        missing(SCORE, ["threshold", "include_reason"]),
        FIRST,
        props=[SCORE],
    )
    add(
        "kv",
        "企业健康评分",
        "threshold=0.8；include_reason=是",
        ok(SCORE, {"threshold": 0.8, "include_reason": True}),
        "retry: NUMBER parsed, BOOLEAN 是 → true",
        props=[SCORE],
    )
    filter_q = "筛选注册资本大于一百万的企业"
    add("kv", filter_q, "", missing(FILTER, ["filter"]), FIRST, props=[FILTER])
    add(
        "kv",
        filter_q,
        'filter={"registered_capital": {"gt": 1000000}}',
        ok(FILTER, {"filter": {"registered_capital": {"gt": 1000000}}}),
        "retry: an OBJECT value is parsed as JSON",
        props=[FILTER],
    )
    add(
        "kv",
        filter_q,
        "registered_capital>1000000",
        missing(FILTER, ["filter"]),
        "SPEC §3: a filter expression is not a key of the property; it is left for the LLM, so "
        "rules-only still answers 422",
        props=[FILTER],
    )
    add(
        "kv",
        "药品销售额",
        "company_id=company_000001, start=2024-01-01, end=2024-01-31, step=day",
        ok(SALES, jan_daily),
        "company_id is not an input (value_from property): the rules skip it",
    )
    both = Expect(
        200, settled=((SALES, q1, {}), (ITEMS, {"items": ["revenue", "profit"], "limit": 2}, {}))
    )
    add(
        "kv",
        "药品销售额和指标对比",
        "start=2024-01-01, end=2024-03-31, step=month, items=revenue,profit, limit=2",
        both,
        "two properties take their own keys from one context",
        props=[SALES, ITEMS],
    )

    # json: a JSON object.
    add(
        "json",
        "药品销售额",
        {"start": "2024-01-01", "end": "2024-03-31", "step": "month"},
        ok(SALES, q1),
        "JSON object context",
    )
    add(
        "json",
        "药品销售额",
        {"start": q1_ms["start"], "end": q1_ms["end"], "step": "month"},
        ok(SALES, q1),
        "JSON integer ms",
    )
    add(
        "json",
        regional_q,
        {"region": "华东", "limit": 10},
        ok(REGIONAL, whole(last("month")), region="华东", limit=10),
        "business inputs as JSON",
        props=[REGIONAL],
    )
    add(
        "json",
        "药品销售额",
        {"时间范围": "2024年1月至3月", "step": "按月"},
        ok(SALES, span(month(2024, 1), month(2024, 3))),
        "a 时间范围 key is read for time; step takes a step word",
    )
    add(
        "json",
        "2024年第一季度的销售额",
        {"step": "Month"},
        ok(SALES, whole(quarter(2024, 1), "month")),
        "step 'Month' → month",
    )
    add("json", "库存量", {"instant": True}, ok(SALES, instant), "instant=true from context")
    add(
        "json",
        "drug sales",
        {"time range": "last quarter"},
        ok(SALES, whole(last("quarter"))),
        "a 'time range' key is read for time",
        at=NY_NOV,
    )

    # json_string: a string holding a JSON object.
    add(
        "json_string",
        "药品销售额",
        '{"start": "2024-01-01", "end": "2024-03-31", "step": "month"}',
        ok(SALES, q1),
        "a string holding JSON",
    )
    add(
        "json_string",
        "最近3个月的药品数量趋势",
        '{"now_ms": 1762996342241, "timezone": "Asia/Shanghai"}',
        ok(SALES, rolling(3, "month")),
        "the clock from a JSON string; SPEC §2.1's example answer",
        send_now=False,
        send_tz=False,
    )
    add(
        "json_string",
        "inventory level",
        '{"instant": true}',
        ok(SALES, instant),
        "instant from a JSON string",
        at=NY_NOV,
    )
    add(
        "json_string",
        "对比各项指标",
        '{"items": ["revenue", "profit"], "limit": 2}',
        ok(ITEMS, {"items": ["revenue", "profit"], "limit": 2}),
        "JSON arrays stay arrays",
        props=[ITEMS],
    )

    # free_text: read for time like the query, and beating it.
    add(
        "free_text",
        "销售额趋势",
        "",
        missing(SALES, TIME_MISSING),
        FIRST + "; a trend word alone settles nothing (docs)",
    )
    add(
        "free_text",
        "销售额趋势",
        "时间范围：2024年1月至3月，按月",
        ok(SALES, span(month(2024, 1), month(2024, 3))),
        "retry: SPEC §3 example",
    )
    add("free_text", "药品数量", "", missing(SALES, TIME_MISSING), FIRST)
    add(
        "free_text",
        "药品数量",
        "最近半年",
        ok(SALES, rolling(6, "month")),
        "retry: SPEC §3 example",
    )
    utc_jun = Clock.at("2025-06-10T09:00:00", "UTC")
    add("free_text", "drug sales", "", missing(SALES, TIME_MISSING), FIRST, at=utc_jun)
    add(
        "free_text",
        "drug sales",
        "time range: Jan to Mar 2024, monthly",
        ok(SALES, span(month(2024, 1), month(2024, 3))),
        "retry: SPEC §3 example",
        at=utc_jun,
    )
    add(
        "free_text",
        "revenue",
        "period: last quarter",
        ok(SALES, whole(last("quarter"))),
        "SPEC §3 example",
        at=NY_NOV,
    )
    add(
        "free_text",
        "最近3个月的销售额",
        "时间范围：2024年第一季度",
        ok(SALES, whole(quarter(2024, 1))),
        "the context's time beats the query's",
    )
    add(
        "free_text",
        "2024年的销量",
        "最近7天",
        ok(SALES, rolling(7, "day")),
        "the context's time beats the query's",
    )
    add(
        "free_text",
        "revenue for 2023",
        "last 30 days",
        ok(SALES, rolling(30, "day")),
        "the context's time beats the query's",
        at=NY_NOV,
    )
    add(
        "free_text",
        "订单量",
        "上个月，按周",
        ok(SALES, whole(last("month"), "week")),
        "a window and a step word",
    )
    add(
        "free_text",
        "营收",
        "2024年前三季度",
        ok(SALES, first_n(3, "quarter", 2024)),
        "a §4.1 phrase in context",
    )
    add(
        "free_text",
        "客流量",
        "春节假期",
        ok(SALES, whole(bare_festival("春节", True))),
        "a §4.1 festival holiday in context; " + OFFICIAL,
    )

    # instant: instant words in context.
    add("instant", "库存量", "", missing(SALES, TIME_MISSING), FIRST)
    add("instant", "库存量", "查询当前值", ok(SALES, instant), "retry: SPEC §3")
    add("instant", "账户余额", "当前值", ok(SALES, instant), "SPEC §3")
    add("instant", "inventory", "current value", ok(SALES, instant), "SPEC §3", at=NY_NOV)
    add(
        "instant",
        "最近3个月的库存",
        "查询当前值",
        ok(SALES, instant),
        "context beats the query's window (docs: instant=true from context)",
    )
    add("instant", "库存", "instant=true", ok(SALES, instant), "the reserved key")

    # step: step words and values in context.
    add(
        "step",
        "2024年第一季度的销售额",
        "按月",
        ok(SALES, whole(quarter(2024, 1), "month")),
        "a step word replaces the query's unit",
    )
    add(
        "step",
        "revenue in 2024",
        "monthly",
        ok(SALES, whole(year(2024), "month")),
        "a step word replaces the query's unit",
        at=NY_NOV,
    )
    add(
        "step",
        "上季度销售额",
        "step=Month",
        ok(SALES, whole(last("quarter"), "month")),
        "step 'Month' → month",
    )
    add(
        "step",
        "上个月的订单",
        "step=weekly",
        ok(SALES, whole(last("month"), "week")),
        "SPEC §3: step accepts its §4 step words",
    )
    add(
        "step",
        "销售额",
        "step=month",
        missing(SALES, ["start", "end"]),
        "spec-silent: step is settled, the window is still open; instant is not listed as "
        "missing, as in SPEC §2.1's 422 example",
    )

    # now: the clock from context.
    ny = Clock.at("2025-03-11T10:00:00", "America/New_York")
    add(
        "now",
        "最近7天的销量",
        "当前时间=2025-03-11T10:00:00；timezone=America/New_York",
        ok(SALES, rolling(7, "day")),
        "the clock from context; 7 days back crosses the DST start and keeps 10:00 local",
        at=ny,
        send_now=False,
        send_tz=False,
    )
    utc_dec = Clock.at("2024-12-28T00:00:00", "UTC")
    add(
        "now",
        "orders last week",
        "today: 2024-12-28",
        ok(SALES, whole(last("week"))),
        "today as a bare date; the answer does not depend on its time of day",
        at=utc_dec,
        send_now=False,
    )
    leap = Clock.at("2024-02-29T00:00:00", SHANGHAI)
    add(
        "now",
        "去年同月的销售额",
        "当前日期：2024-02-29",
        ok(SALES, whole(last("month", 12))),
        "当前日期 as the clock; the answer does not depend on its time of day",
        at=leap,
        send_now=False,
    )
    add(
        "now",
        "上个月的订单",
        "now=2024-01-01T00:00:00",
        ok(SALES, whole(last("month"))),
        "the request's now_ms beats the context's now (SPEC §2.1 priority)",
    )
    add(
        "now",
        "上个月的订单",
        "timezone=UTC",
        ok(SALES, whole(last("month"))),
        "the request carries now_ms only; the timezone comes from context",
        at=Clock(k.now_ms, ZoneInfo("UTC")),
        send_tz=False,
    )
    add(
        "now",
        "最近3个月的药品数量趋势",
        "now_ms=1762996342241；timezone=Asia/Shanghai",
        ok(SALES, rolling(3, "month")),
        "SPEC §2.1's context string",
        send_now=False,
        send_tz=False,
    )

    # bad: caller values that break a rule → 400.
    add(
        "bad",
        "上个月的销售额",
        "timezone=Mars/Olympus",
        BAD,
        "unknown timezone; the request sends none, so the context's is the one in force",
        send_tz=False,
    )
    add(
        "bad",
        "药品销售额",
        "start=2024-03-31, end=2024-01-01, step=month",
        BAD,
        "rule §5: start ≤ end",
    )
    add(
        "bad",
        "最近3个月的销售额",
        "step=7d",
        BAD,
        "rule 7.2.3: step must be one of day/week/month/quarter/year",
    )
    add(
        "bad",
        "药品销售额",
        "start=1990-01-01, end=1990-12-31, step=year",
        BAD,
        "rule §5: timestamps within 2000..2100",
    )
    add(
        "bad",
        regional_q,
        "region=华东；limit=abc",
        BAD,
        "spec-silent: a value that cannot be coerced to its declared type (INTEGER) is a caller "
        "value breaking a rule → 400, not dropped",
        props=[REGIONAL],
    )
    add(
        "bad",
        "药品销售额",
        ["start=2024-01-01"],
        BAD,
        "additional_context must be an object or a string (schema)",
    )
    add(
        "bad",
        "库存量",
        "instant=true；step=month",
        BAD,
        "spec-silent: rule §5 'instant=true carries no step' holds for caller values too",
    )
    return out


def context_rows() -> list[Params]:
    """The JSON objects, numbered in file order (`ctx-001`)."""
    return [case.row(n) for n, case in enumerate(context_cases(), start=1)]
