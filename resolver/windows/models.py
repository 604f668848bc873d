"""The time-window request — the body of `POST /v1/time-window`, the arguments of the MCP tool
`resolve_time_window` and the flags of `resolver time` — and its answer (SPEC §9)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import ConfigDict, Field, StrictBool, StrictInt, StrictStr, field_validator

from resolver.core.envelope import Enveloped
from resolver.core.languages import Language
from resolver.core.responses import ResponseBody
from resolver.timeexpr.baseline import Baseline
from resolver.timeexpr.fiscal import FiscalCalendar
from resolver.timeexpr.query_metric import baseline_query_metric_time, query_metric_time
from resolver.timeexpr.result import Step
from resolver.timeexpr.timewindow import TimeWindow
from rules.spec import MAX_MS, MIN_MS

Unit = Literal["ms", "s"]
Shape = Literal["query_metric"]
NamedBy = Literal["end", "start"]
# As long as a question of /v1/dynamic-params may be; the scanner reads at most
# timeexpr.MAX_TEXT characters of it (a longer text settles nothing).
MAX_TEXT = 8192
_MS_PER: dict[Unit, int] = {"ms": 1, "s": 1000}


class TimeWindowRequest(Enveloped):
    """`POST /v1/time-window` body: a text, and optionally the clock, the zone, more context,
    the unit and language of the answer, and the caller's `instant`/`step` (and the platform's
    envelope, `bkn_context`, as every business body)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    text: StrictStr = Field(
        max_length=MAX_TEXT, description="The words to read for time, e.g. 上个季度, last month."
    )
    now_ms: Annotated[StrictInt, Field(ge=MIN_MS, le=MAX_MS)] | None = Field(
        default=None,
        description="The clock, in epoch milliseconds; default: the context's clock sentence, "
        "else the server's clock.",
    )
    timezone: Annotated[StrictStr, Field(min_length=1, max_length=128)] | None = Field(
        default=None,
        description="An IANA zone (Asia/Shanghai), a city (New York, 纽约) or an offset (UTC+8); "
        "default: the context's zone sentence, else RESOLVER_DEFAULT_TIMEZONE.",
    )
    context: Annotated[StrictStr, Field(max_length=MAX_TEXT)] | None = Field(
        default=None,
        description="More text, read as additional_context's free text is: clock and zone "
        "sentences (今天是2025年11月13日, 时区：纽约) set the clock and the zone when not given; "
        "its time words beat the text's.",
    )
    unit: Unit = Field(
        default="ms", description="The unit of start, end and now: ms (epoch ms) or s (unix s)."
    )
    language: Language | None = Field(
        default=None,
        description="The language of explanation and ask; default: Accept-Language, else the "
        "text's.",
    )
    instant: StrictBool | None = Field(
        default=None,
        description="The caller's instant, beating the text: true asks for the current value.",
    )
    step: Step | None = Field(
        default=None, description="The caller's step, beating the text's step word."
    )
    # -- business time (SPEC §9.1) ---------------------------------------------------------
    fiscal_year_start: Annotated[StrictStr, Field(max_length=16)] | None = Field(
        default=None,
        description="The first day of the fiscal year, MM-DD (04-01, 10-01): pass it when the "
        "text names fiscal periods (本财年, FY2025 Q3, fiscal year to date). Default: a context "
        "sentence (财年从4月1日开始, our fiscal year starts in October, fiscal_year_start=04-01), "
        "else RESOLVER_FISCAL_YEAR_START; none anywhere → fiscal phrases settle nothing.",
        examples=["04-01"],
    )
    fiscal_year_named_by: NamedBy | None = Field(
        default=None,
        description="How fiscal years are named: end (default; FY2025 = Oct 2024 – Sep 2025 "
        "with a 10-01 start) or start (Japan: FY2025 = Apr 2025 – Mar 2026). Default: the "
        "context's fiscal_year_named_by=…, else RESOLVER_FISCAL_YEAR_NAMED_BY, else end.",
    )
    shape: Shape | None = Field(
        default=None,
        description="query_metric: add query_metric_time, the time argument of the platform's "
        "query_metric tool (unix seconds; a series omits instant and carries step).",
    )

    @field_validator("fiscal_year_start")
    @classmethod
    def _a_day_of_every_year(cls, value: str | None) -> str | None:
        if value is not None:
            FiscalCalendar.of(value)  # ValueError: a 400 naming the field
        return value


class TimeWindowResponse(ResponseBody):
    """The 200 body: the window (or the instant) a text means, and how it was read."""

    instant: bool = Field(
        description="true: the current value is asked for (start, end and step null unless a "
        "step word was given); false: the window start..end"
    )
    start: int | None = Field(description="The first instant of the window, in `unit`.")
    end: int | None = Field(
        description="The last instant of the window (its last millisecond or second), in `unit`."
    )
    step: Step | None = Field(description="The granularity: day, week, month, quarter or year.")
    unit: Unit
    now: int = Field(description="The clock the text was read at, in `unit`.")
    timezone: str = Field(description="The IANA zone the window was placed in.")
    start_iso: str | None = Field(description="start as ISO 8601 with the zone's offset (ms).")
    end_iso: str | None = Field(description="end as ISO 8601 with the zone's offset (ms).")
    expression: str | None = Field(
        description="The normal form: now-3M..now, now-1Q/Q, 2025-Q3, now (an instant)."
    )
    read: list[str] = Field(description="The words read for time (the context's first).")
    explanation: str = Field(description="One sentence in the answer's language.")
    baseline: dict[str, Any] | None = Field(
        default=None,
        description="Only when the text compares (同比, 环比, YoY, MoM, Q3 vs Q2): the window to "
        "compare the main one with, {start, end, step, start_iso, end_iso, expression, kind} "
        "(start/end in `unit`); kind is year_over_year (one year earlier, day for day), "
        "period_over_period (the same length immediately before) or explicit (the second "
        "period named). Query the metric once for the main window and once for this one.",
    )
    query_metric_time: dict[str, Any] | None = Field(
        default=None,
        description="Only with shape=query_metric: the `time` argument of the platform's "
        "query_metric tool for the main window — {instant: true}, or {start, end, step} in "
        "unix seconds; `baseline` then carries its own query_metric_time.",
    )
    trace_id: str

    @classmethod
    def of(
        cls,
        window: TimeWindow,
        unit: Unit,
        trace_id: str,
        *,
        baseline: Baseline | None = None,
        shape: Shape | None = None,
    ) -> TimeWindowResponse:
        """The answer of a settled window, its instants in `unit` (with its baseline and the
        `query_metric` shape when asked for)."""
        per = _MS_PER[unit]
        return cls(
            instant=bool(window.instant),
            start=None if window.start is None else window.start // per,
            end=None if window.end is None else window.end // per,
            step=window.step,
            unit=unit,
            now=window.now_ms // per,
            timezone=window.timezone,
            start_iso=window.start_iso,
            end_iso=window.end_iso,
            expression=window.expression,
            read=list(window.read),
            explanation=window.explanation,
            baseline=None if baseline is None else _baseline(window, baseline, per, shape),
            query_metric_time=None
            if shape is None
            else query_metric_time(window.instant, window.start, window.end, window.step),
            trace_id=trace_id,
        )


def _baseline(
    window: TimeWindow, baseline: Baseline, per: int, shape: Shape | None
) -> dict[str, Any]:
    body: dict[str, Any] = {
        "start": baseline.start_ms // per,
        "end": baseline.end_ms // per,
        "step": baseline.step,
        "start_iso": window.iso(baseline.start_ms),
        "end_iso": window.iso(baseline.end_ms),
        "expression": baseline.expression,
        "kind": baseline.kind,
    }
    if shape is not None:
        body["query_metric_time"] = baseline_query_metric_time(baseline)
    return body
