"""Business time on the time-window faces (SPEC §9.1): `shape: "query_metric"`, the fiscal
configuration (request > context sentence > environment; a start that is no day → 400 naming
the field), the ask when a fiscal period is named with no fiscal start, the answer's documents
— over a loopback socket, the MCP tool, the command and the library."""

from __future__ import annotations

from typing import Any

import orjson
import pytest
from aiohttp.test_utils import TestClient
from pydantic import ValidationError

from resolver.core.settings import Settings
from resolver.timeexpr.business import read_business_window
from resolver.timeexpr.fiscal import FiscalCalendar, FiscalStartInvalid
from resolver.windows.command import TimeFlags, run
from resolver.windows.service import TimeWindows
from tests.helpers import NOW_MS, ClientFactory, assert_error_shape
from tests.mcp_checks import error_body, ok_body, sdk_client
from tests.windows.query_metric_checks import check_query_metric_time, time_rule_violation

PATH = "/v1/time-window"
FISCAL_ASK_ZH = "请说明财年起始日，如 fiscal_year_start=04-01"


async def ask(client: TestClient[Any, Any], body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    response = await client.post(PATH, json=body)
    return response.status, orjson.loads(await response.read())


@pytest.fixture
async def client(make_client: ClientFactory) -> TestClient[Any, Any]:
    return await make_client(llm=False)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("上个季度", {"start": 1_751_299_200, "end": 1_759_247_999, "step": "quarter"}),
        ("最近3个月按周", {"start": 1_755_047_542, "end": 1_762_996_342, "step": "week"}),
        ("当前库存", {"instant": True}),
        ("last week", {"start": 1_762_704_000, "end": 1_763_308_799, "step": "week"}),
    ],
)
async def test_query_metric_time_is_the_platform_tools_time_argument(
    client: TestClient[Any, Any], text: str, expected: dict[str, Any]
) -> None:
    for unit in ("ms", "s"):
        body = {"text": text, "now_ms": NOW_MS, "shape": "query_metric", "unit": unit}
        if text == "last week":
            body["timezone"] = "UTC"
        status, answer = await ask(client, body)
        assert status == 200, answer
        time = answer["query_metric_time"]
        if text == "last week":  # 2025-11-03 .. 2025-11-09 in UTC
            expected = {"start": 1_762_128_000, "end": 1_762_732_799, "step": "week"}
        assert time == expected  # unix seconds whatever the answer's unit
        check_query_metric_time(time)
        if not answer["instant"]:
            per = 1 if unit == "s" else 1000
            assert (answer["start"] // per, answer["end"] // per) == (time["start"], time["end"])


async def test_without_shape_the_answer_is_as_before(client: TestClient[Any, Any]) -> None:
    status, answer = await ask(client, {"text": "上个季度", "now_ms": NOW_MS})
    assert status == 200
    assert "query_metric_time" not in answer
    assert "baseline" not in answer


def test_the_checks_refuse_what_the_platform_refuses() -> None:
    assert time_rule_violation({"start": 1_751_299_200}) is not None
    assert time_rule_violation({"start": 2, "end": 1, "step": "day"}) is not None
    assert time_rule_violation({"start": 1, "end": 2}) is not None  # a series needs a step
    assert time_rule_violation({"instant": False, "step": "hour"}) is not None
    assert time_rule_violation({"start": 1, "end": 2, "step": "Month"}) is None  # any case
    with pytest.raises(AssertionError):
        check_query_metric_time(
            {"start": 1_751_299_200_000, "end": 1_759_247_999_999, "step": "quarter"}
        )  # ms are no unix seconds
    with pytest.raises(AssertionError):
        check_query_metric_time({"instant": True, "now": 1})  # a key the schema lacks
    with pytest.raises(Exception, match="is not of type"):
        check_query_metric_time({"start": "1", "end": 2, "step": "day"})


@pytest.mark.parametrize(
    ("text", "language", "words"),
    [
        ("本财年的销售额", "zh", FISCAL_ASK_ZH),
        ("FY2025 Q3 revenue", "en", "fiscal_year_start=04-01"),
        ("last fiscal year", "en", "fiscal_year_start=04-01"),
    ],
)
async def test_a_fiscal_period_with_no_fiscal_start_asks_for_it(
    client: TestClient[Any, Any], text: str, language: str, words: str
) -> None:
    status, answer = await ask(client, {"text": text, "now_ms": NOW_MS})
    assert status == 422, answer
    assert_error_shape(answer, "TIME_UNSETTLED")
    assert words in answer["ask"]
    assert answer["unread"]
    assert answer["_error"] == answer["ask"]
    if language == "zh":
        assert "财年" in "".join(answer["unread"])


@pytest.mark.parametrize(
    ("body", "loc"),
    [
        ({"fiscal_year_start": "02-30"}, "fiscal_year_start"),
        ({"fiscal_year_start": "13-01"}, "fiscal_year_start"),
        ({"fiscal_year_start": "april"}, "fiscal_year_start"),
        ({"fiscal_year_named_by": "middle"}, "fiscal_year_named_by"),
        ({"context": "财年从2月30日开始"}, "context.fiscal_year_start"),
        ({"context": "fiscal_year_start=02-30"}, "context.fiscal_year_start"),
        ({"context": "fiscal_year_named_by=both"}, "context.fiscal_year_named_by"),
        ({"shape": "metric"}, "shape"),
    ],
)
async def test_a_fiscal_start_that_is_no_day_is_a_400_naming_the_field(
    client: TestClient[Any, Any], body: dict[str, Any], loc: str
) -> None:
    status, answer = await ask(client, {"text": "上个月", "now_ms": NOW_MS, **body})
    assert status == 400, answer
    assert_error_shape(answer, "BAD_REQUEST")
    assert loc in [detail["loc"] for detail in answer["error"]["details"]]
    assert loc.rsplit(".", 1)[-1] in answer["_error"]


def test_a_bad_fiscal_start_in_the_environment_stops_the_service() -> None:
    with pytest.raises(ValidationError, match="fiscal_year_start"):
        Settings(fiscal_year_start="02-30")
    with pytest.raises(ValidationError, match="fiscal_year_named_by"):
        Settings(fiscal_year_named_by="middle")
    settings = Settings(fiscal_year_start="04-01", fiscal_year_named_by="start")
    windows = TimeWindows.of(settings)
    assert (windows.fiscal_year_start, windows.fiscal_year_named_by) == ("04-01", "start")


@pytest.mark.parametrize(
    ("context", "start"),
    [
        ("财年从4月1日开始", "04-01"),
        ("公司的财年始于十月", "10-01"),
        ("财年起始日为7月1日；今天是2025年11月13日", "07-01"),
        ("our fiscal year starts in October", "10-01"),
        ("The fiscal year begins on April 6th.", "04-06"),
        ("fiscal_year_start=04-01", "04-01"),
    ],
)
async def test_a_fiscal_sentence_in_context_states_the_calendar_not_the_window(
    client: TestClient[Any, Any], context: str, start: str
) -> None:
    status, answer = await ask(client, {"text": "上个月", "now_ms": NOW_MS, "context": context})
    assert status == 200, answer
    assert answer["expression"] == "now-1M/M"
    assert answer["read"] == ["上个月"] or "今天是" in context
    business = read_business_window("上个月", now_ms=NOW_MS, context=context)
    assert business.calendar is not None
    assert business.calendar.start == start


def test_precedence_request_then_context_then_environment() -> None:
    def calendar(**options: Any) -> FiscalCalendar | None:
        return read_business_window("上个月", now_ms=NOW_MS, **options).calendar

    env = {"default_fiscal_year_start": "07-01", "default_fiscal_year_named_by": "end"}
    said = "财年从10月1日开始；fiscal_year_named_by=start"
    assert calendar(**env) == FiscalCalendar(7, 1, "end")
    assert calendar(context=said, **env) == FiscalCalendar(10, 1, "start")
    assert calendar(context=said, fiscal_year_start="04-01", **env) == FiscalCalendar(4, 1, "start")
    assert calendar(
        context=said, fiscal_year_start="04-01", fiscal_year_named_by="end", **env
    ) == FiscalCalendar(4, 1, "end")
    assert calendar() is None
    with pytest.raises(FiscalStartInvalid):
        calendar(fiscal_year_start="02-29")


async def test_the_documents_describe_the_business_fields(client: TestClient[Any, Any]) -> None:
    spec = orjson.loads(await (await client.get("/openapi.json")).read())
    text = orjson.dumps(spec).decode()
    for word in ("fiscal_year_start", "fiscal_year_named_by", "query_metric_time", "baseline"):
        assert word in text, word


def test_the_command_takes_the_business_flags(capsys: pytest.CaptureFixture[str]) -> None:
    windows = TimeWindows("Asia/Shanghai")
    flags = TimeFlags(text="上个季度", now=str(NOW_MS), shape="query_metric", json=True)
    assert run(windows, flags) == 0
    body = orjson.loads(capsys.readouterr().out)
    assert body["query_metric_time"] == {
        "start": 1_751_299_200,
        "end": 1_759_247_999,
        "step": "quarter",
    }
    assert run(windows, TimeFlags(text="上财年", now=str(NOW_MS))) == 2
    assert FISCAL_ASK_ZH in capsys.readouterr().err
    assert run(windows, TimeFlags(text="上个月", fiscal_year_start="02-30")) == 1
    assert "fiscal_year_start" in capsys.readouterr().err


async def test_the_mcp_tool_takes_the_business_arguments(make_client: ClientFactory) -> None:
    client = await make_client(llm=False)
    async with sdk_client(str(client.make_url("/mcp"))) as mcp:
        listed = {tool.name: tool for tool in (await mcp.list_tools()).tools}
        shaped = await mcp.call_tool(
            "resolve_time_window",
            {
                "text": "上个季度",
                "now_ms": NOW_MS,
                "shape": "query_metric",
                "fiscal_year_start": "04-01",
            },
        )
        unconfigured = await mcp.call_tool(
            "resolve_time_window", {"text": "本财年", "now_ms": NOW_MS}
        )
        bad = await mcp.call_tool(
            "resolve_time_window", {"text": "上个月", "fiscal_year_start": "02-30"}
        )
    tool = listed["resolve_time_window"]
    for field in ("fiscal_year_start", "fiscal_year_named_by", "shape"):
        assert field in tool.input_schema["properties"], field
    description = tool.description or ""
    assert "fiscal_year_start" in description
    assert "baseline" in description
    assert "query_metric_time" in description
    body = ok_body(shaped)
    check_query_metric_time(body["query_metric_time"])
    assert body["query_metric_time"]["step"] == "quarter"
    failed = error_body(unconfigured)
    assert FISCAL_ASK_ZH in failed["ask"]
    assert "fiscal_year_start" in orjson.dumps(error_body(bad)).decode()


async def test_a_comparison_adds_the_baseline_in_the_answers_unit_and_shape(
    client: TestClient[Any, Any],
) -> None:
    body = {"text": "上个月的销售额环比", "now_ms": NOW_MS, "shape": "query_metric", "unit": "s"}
    status, answer = await ask(client, body)
    assert status == 200, answer
    assert (answer["start"], answer["end"]) == (1_759_248_000, 1_761_926_399)  # 2025-10
    assert answer["baseline"] == {
        "start": 1_756_656_000,  # 2025-09-01 +08:00
        "end": 1_759_247_999,
        "step": "month",
        "start_iso": "2025-09-01T00:00:00.000+08:00",
        "end_iso": "2025-09-30T23:59:59.999+08:00",
        "expression": "2025-09",
        "kind": "period_over_period",
        "query_metric_time": {"start": 1_756_656_000, "end": 1_759_247_999, "step": "month"},
    }
    check_query_metric_time(answer["baseline"]["query_metric_time"])
    status, answer = await ask(client, {"text": "MTD sales YoY", "now_ms": NOW_MS})
    assert status == 200, answer
    assert answer["baseline"]["kind"] == "year_over_year"
    assert answer["baseline"]["start_iso"] == "2024-11-01T00:00:00.000+08:00"
    assert answer["baseline"]["end"] == answer["end"] - 365 * 86_400_000  # day for day
    assert "query_metric_time" not in answer["baseline"]


@pytest.mark.parametrize(
    ("text", "unread"),
    [
        ("环比", None),  # no period to compare: the reader's own 422
        ("YoY", None),
        ("1月、2月和3月的销售额对比", ["对比"]),  # three periods
        ("2023年、2024年和2025年营收对比", ["对比"]),
        ("当前库存同比", ["同比"]),  # an instant has no window to compare
        ("本月销售额同比环比", ["同比", "环比"]),  # two kinds at once
    ],
)
async def test_a_comparison_it_cannot_settle_is_a_422_never_a_wrong_200(
    client: TestClient[Any, Any], text: str, unread: list[str] | None
) -> None:
    status, answer = await ask(client, {"text": text, "now_ms": NOW_MS})
    assert status == 422, answer
    assert_error_shape(answer, "TIME_UNSETTLED")
    if unread is not None:
        assert answer["unread"] == unread
        assert all(word in answer["ask"] for word in unread)


async def test_words_that_only_look_like_comparisons_change_nothing(
    client: TestClient[Any, Any],
) -> None:
    for text in ("上个月比较好的门店", "last month's top moms", "上个月的销售额", "今年销售额对比"):
        status, answer = await ask(client, {"text": text, "now_ms": NOW_MS})
        assert status == 200, (text, answer)
        assert "baseline" not in answer


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ({"text": "FY2025 Q3 revenue", "fiscal_year_start": "10-01"}, ("FY2025-Q3",
         "2025-04-01", "2025-06-30", "quarter")),
        ({"text": "上财年的营收", "fiscal_year_start": "04-01", "fiscal_year_named_by": "start"},
         ("now-1FY/FY", "2024-04-01", "2025-03-31", "year")),
        ({"text": "上个财季", "context": "财年从7月1日开始"}, ("now-1FQ/FQ",
         "2025-07-01", "2025-09-30", "quarter")),
        ({"text": "财年上半年", "context": "our fiscal year starts in October"}, ("FY-H1",
         "2025-10-01", "2026-03-31", "month")),
    ],
)  # fmt: skip
async def test_fiscal_phrases_are_read_in_the_calendar_given(
    client: TestClient[Any, Any], body: dict[str, Any], expected: tuple[str, str, str, str]
) -> None:
    expression, first_day, last_day, step = expected
    status, answer = await ask(client, {"now_ms": NOW_MS, **body})
    assert status == 200, answer
    assert answer["expression"] == expression
    assert answer["start_iso"].startswith(first_day + "T00:00:00.000")
    assert answer["end_iso"].startswith(last_day + "T23:59:59.999")
    assert answer["step"] == step


async def test_two_named_periods_compare_explicitly(client: TestClient[Any, Any]) -> None:
    status, answer = await ask(client, {"text": "10月和9月的销售额对比", "now_ms": NOW_MS})
    assert status == 200, answer
    assert answer["expression"] == "2025-10"
    assert answer["baseline"]["kind"] == "explicit"
    assert answer["baseline"]["expression"] == "2025-09"
    status, answer = await ask(client, {"text": "上个月和去年同期对比", "now_ms": NOW_MS})
    assert status == 200, answer
    assert answer["baseline"]["kind"] == "explicit"
    assert answer["baseline"]["start_iso"].startswith("2024-10-01")
    status, answer = await ask(client, {"text": "Q1 vs Q2 vs Q3 revenue", "now_ms": NOW_MS})
    assert status == 422, answer


def test_the_comparison_prefilter_lets_every_comparison_word_through() -> None:
    from benchmarks.gold import DATA
    from resolver.timeexpr import business

    words = [
        "versus", "vs", "vs.", "compared with", "compared to", "against", "YoY", "year over year",
        "year-on-year", "MoM", "QoQ", "WoW", "DoD", "month over month", "period over period",
        "same period last year", "同比", "环比", "对比", "相比", "相较于", "较上月", "去年同期",
    ]  # fmt: skip
    rows = (DATA / "business_gold.jsonl").read_text("utf-8").splitlines()
    texts = [orjson.loads(row)["request"]["text"] for row in rows if row.strip()]
    patterns = (
        business._YEAR_OVER_YEAR,
        business._PERIOD_OVER_PERIOD,
        business._COMPARING,
        business._BETWEEN,
    )
    for text in [f"Q3 {word} Q2" for word in words] + texts:
        if any(pattern.search(text) for pattern in patterns):
            assert business._may_compare(text), text
    assert not business._may_compare("上个季度的药品数量")
