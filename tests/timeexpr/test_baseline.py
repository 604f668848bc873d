"""Comparison baselines (resolver/timeexpr/baseline.py, SPEC §9.1): year over year, period over
period and explicit, for whole, to-date, rolling and ranged windows, with month-end clipping."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from resolver.timeexpr.baseline import (
    Baseline,
    Main,
    Shape,
    explicit,
    period_over_period,
    shape_of,
    year_over_year,
)
from resolver.timeexpr.result import Step

SH = ZoneInfo("Asia/Shanghai")
NY = ZoneInfo("America/New_York")


def ms(text: str, tz: ZoneInfo = SH) -> int:
    """Epoch ms of a local `YYYY-MM-DDTHH:MM:SS.fff` (or a date)."""
    return int(datetime.fromisoformat(text).replace(tzinfo=tz).timestamp() * 1000)


def local(value: int, tz: ZoneInfo = SH) -> str:
    return datetime.fromtimestamp(value / 1000, tz).isoformat(timespec="milliseconds")[:23]


def bounds(baseline: Baseline | None, tz: ZoneInfo = SH) -> tuple[str, str, str]:
    assert baseline is not None
    return local(baseline.start_ms, tz), local(baseline.end_ms, tz), baseline.expression


END = "T23:59:59.999"
NOW = "2025-11-13T09:12:22.241"  # a Thursday, ISO week 46


@pytest.mark.parametrize(
    ("expression", "shape"),
    [
        ("now/M..now", Shape("to_date", "M")),
        ("now/FY..now", Shape("to_date", "FY")),
        ("now/FQ..now", Shape("to_date", "FQ")),
        ("now-3M..now", Shape("rolling", "M", 3)),
        ("now-24h..now", Shape("rolling", "h", 24)),
        ("now-1M/M", Shape("whole", "M")),
        ("now-1w/w", Shape("whole", "w")),
        ("2025-Q3", Shape("whole", "Q")),
        ("2024-01..2024-03", Shape("whole", "M")),
        ("2024-W09", Shape("whole", "w")),
        ("2024-03-15..2024-04-20", Shape("whole", "d")),
        ("FY2025-Q3", Shape("whole", "FQ")),
        ("FY2025-Q1..FY2025-Q3", Shape("whole", "FQ")),
        ("FY2025-H1", Shape("whole", "FH")),
        ("2025-03-15..now", Shape("range")),
        ("2024-01..2024-03-15", Shape("range")),
        ("now-3M", Shape("range")),
    ],
)
def test_shape_of_reads_the_normal_form(expression: str, shape: Shape) -> None:
    assert shape_of(expression) == shape


YOY: list[tuple[str, str, str, Step, str, tuple[str, str, str]]] = [
    # main start, main end, expression, step, now → baseline start, end, expression
    (
        "2025-10-01",
        "2025-10-31" + END,
        "now-1M/M",
        "month",
        NOW,
        ("2024-10-01T00:00:00.000", "2024-10-31" + END, "2024-10"),
    ),
    (
        "2025-07-01",
        "2025-09-30" + END,
        "2025-Q3",
        "quarter",
        NOW,
        ("2024-07-01T00:00:00.000", "2024-09-30" + END, "2024-Q3"),
    ),
    (
        "2024-02-01",
        "2024-02-29" + END,
        "2024-02",
        "month",
        NOW,  # leap February → 28 days
        ("2023-02-01T00:00:00.000", "2023-02-28" + END, "2023-02"),
    ),
    (
        "2024-02-29",
        "2024-02-29" + END,
        "2024-02-29",
        "day",
        NOW,  # a leap day clips
        ("2023-02-28T00:00:00.000", "2023-02-28" + END, "2023-02-28"),
    ),
    (
        "2025-11-01",
        NOW,
        "now/M..now",
        "month",
        NOW,  # MTD: the same days last year
        (
            "2024-11-01T00:00:00.000",
            "2024-11-13T09:12:22.241",
            "2024-11-01..2024-11-13T09:12:22.241",
        ),
    ),
    (
        "2024-02-01",
        "2024-02-29T10:00:00.000",
        "now/M..now",
        "month",
        "2024-02-29T10:00:00.000",
        ("2023-02-01T00:00:00.000", "2023-02-28T10:00:00.000", "2023-02-01..2023-02-28T10:00"),
    ),
    (
        "2025-01-01",
        NOW,
        "now/y..now",
        "year",
        NOW,
        (
            "2024-01-01T00:00:00.000",
            "2024-11-13T09:12:22.241",
            "2024-01-01..2024-11-13T09:12:22.241",
        ),
    ),
    (
        "2025-11-10",
        NOW,
        "now/w..now",
        "week",
        NOW,  # WTD: ISO week 46, the same weekday
        (
            "2024-11-11T00:00:00.000",
            "2024-11-14T09:12:22.241",
            "2024-11-11..2024-11-14T09:12:22.241",
        ),
    ),
    (
        "2025-11-03",
        "2025-11-09" + END,
        "now-1w/w",
        "week",
        NOW,
        ("2024-11-04T00:00:00.000", "2024-11-10" + END, "2024-W45"),
    ),
    (
        "2020-12-28",
        "2021-01-03" + END,
        "2020-W53",
        "week",
        NOW,  # W53 → W52 (2019 has 52)
        ("2019-12-23T00:00:00.000", "2019-12-29" + END, "2019-W52"),
    ),
    (
        "2025-08-13T09:12:22.241",
        NOW,
        "now-3M..now",
        "month",
        NOW,  # rolling: day for day
        (
            "2024-08-13T09:12:22.241",
            "2024-11-13T09:12:22.241",
            "2024-08-13T09:12:22.241..2024-11-13T09:12:22.241",
        ),
    ),
    (
        "2024-03-15",
        "2024-04-20" + END,
        "2024-03-15..2024-04-20",
        "day",
        NOW,
        ("2023-03-15T00:00:00.000", "2023-04-20" + END, "2023-03-15..2023-04-20"),
    ),
    (
        "2024-01-01",
        "2024-03-31" + END,
        "2024-01..2024-03",
        "month",
        NOW,
        ("2023-01-01T00:00:00.000", "2023-03-31" + END, "2023-01..2023-03"),
    ),
    (
        "2025-04-01",
        "2025-06-30" + END,
        "FY2025-Q3",
        "quarter",
        NOW,
        ("2024-04-01T00:00:00.000", "2024-06-30" + END, "FY2024-Q3"),
    ),
    (
        "2024-10-01",
        "2025-06-30" + END,
        "FY2025-Q1..FY2025-Q3",
        "quarter",
        NOW,
        ("2023-10-01T00:00:00.000", "2024-06-30" + END, "FY2024-Q1..FY2024-Q3"),
    ),
]


@pytest.mark.parametrize("case", YOY)
def test_year_over_year(case: tuple[str, str, str, Step, str, tuple[str, str, str]]) -> None:
    start, end, expression, step, _now, expected = case
    baseline = year_over_year(Main(ms(start), ms(end), step, expression), SH)
    assert bounds(baseline) == expected
    assert baseline is not None
    assert (baseline.kind, baseline.step) == ("year_over_year", step)


POP: list[tuple[str, str, str, Step, str, tuple[str, str, str]]] = [
    (
        "2025-10-01",
        "2025-10-31" + END,
        "now-1M/M",
        "month",
        NOW,
        ("2025-09-01T00:00:00.000", "2025-09-30" + END, "2025-09"),
    ),
    (
        "2025-07-01",
        "2025-09-30" + END,
        "2025-Q3",
        "quarter",
        NOW,
        ("2025-04-01T00:00:00.000", "2025-06-30" + END, "2025-Q2"),
    ),
    (
        "2025-01-01",
        "2025-09-30" + END,
        "2025-Q1..2025-Q3",
        "quarter",
        NOW,  # the same length
        ("2024-04-01T00:00:00.000", "2024-12-31" + END, "2024-Q2..2024-Q4"),
    ),
    (
        "2024-01-01",
        "2024-03-31" + END,
        "2024-01..2024-03",
        "month",
        NOW,
        ("2023-10-01T00:00:00.000", "2023-12-31" + END, "2023-10..2023-12"),
    ),
    (
        "2025-11-12",
        "2025-11-12" + END,
        "now-1d/d",
        "day",
        NOW,
        ("2025-11-11T00:00:00.000", "2025-11-11" + END, "2025-11-11"),
    ),
    (
        "2024-03-04",
        "2024-03-10" + END,
        "2024-W10",
        "week",
        NOW,
        ("2024-02-26T00:00:00.000", "2024-03-03" + END, "2024-W09"),
    ),
    (
        "2025-11-01",
        NOW,
        "now/M..now",
        "month",
        NOW,  # MTD → the same days of last month
        (
            "2025-10-01T00:00:00.000",
            "2025-10-13T09:12:22.241",
            "2025-10-01..2025-10-13T09:12:22.241",
        ),
    ),
    (
        "2025-03-01",
        "2025-03-31T10:00:00.000",
        "now/M..now",
        "month",
        "2025-03-31T10:00:00.000",
        ("2025-02-01T00:00:00.000", "2025-02-28T10:00:00.000", "2025-02-01..2025-02-28T10:00"),
    ),
    (
        "2025-10-01",
        NOW,
        "now/Q..now",
        "quarter",
        NOW,
        (
            "2025-07-01T00:00:00.000",
            "2025-08-13T09:12:22.241",
            "2025-07-01..2025-08-13T09:12:22.241",
        ),
    ),
    (
        "2025-08-13T09:12:22.241",
        NOW,
        "now-3M..now",
        "month",
        NOW,  # rolling: by its length
        (
            "2025-05-13T09:12:22.241",
            "2025-08-13T09:12:22.240",
            "2025-05-13T09:12:22.241..2025-08-13T09:12:22.240",
        ),
    ),
    (
        "2025-11-06T09:12:22.241",
        NOW,
        "now-7d..now",
        "day",
        NOW,
        (
            "2025-10-30T09:12:22.241",
            "2025-11-06T09:12:22.240",
            "2025-10-30T09:12:22.241..2025-11-06T09:12:22.240",
        ),
    ),
    (
        "2025-11-12T09:12:22.241",
        NOW,
        "now-24h..now",
        "day",
        NOW,
        (
            "2025-11-11T09:12:22.241",
            "2025-11-12T09:12:22.240",
            "2025-11-11T09:12:22.241..2025-11-12T09:12:22.240",
        ),
    ),
    (
        "2024-03-15",
        "2024-04-20" + END,
        "2024-03-15..2024-04-20",
        "day",
        NOW,  # 37 days before
        ("2024-02-07T00:00:00.000", "2024-03-14" + END, "2024-02-07..2024-03-14"),
    ),
    (
        "2025-04-01",
        "2025-06-30" + END,
        "FY2025-Q3",
        "quarter",
        NOW,
        ("2025-01-01T00:00:00.000", "2025-03-31" + END, "FY2025-Q2"),
    ),
    (
        "2024-10-01",
        "2024-12-31" + END,
        "FY2025-Q1",
        "quarter",
        NOW,  # across fiscal years
        ("2024-07-01T00:00:00.000", "2024-09-30" + END, "FY2024-Q4"),
    ),
    (
        "2024-10-01",
        "2025-09-30" + END,
        "FY2025",
        "year",
        NOW,
        ("2023-10-01T00:00:00.000", "2024-09-30" + END, "FY2024"),
    ),
]


@pytest.mark.parametrize("case", POP)
def test_period_over_period(case: tuple[str, str, str, Step, str, tuple[str, str, str]]) -> None:
    start, end, expression, step, _now, expected = case
    baseline = period_over_period(Main(ms(start), ms(end), step, expression), SH)
    assert bounds(baseline) == expected
    assert baseline is not None
    assert (baseline.kind, baseline.step) == ("period_over_period", step)


def test_a_range_off_day_boundaries_shifts_by_its_length_in_ms() -> None:
    start, end = ms("2025-03-15"), ms(NOW)
    baseline = period_over_period(Main(start, end, "day", "2025-03-15..now"), SH)
    assert baseline is not None
    assert baseline.end_ms == start - 1
    assert baseline.end_ms - baseline.start_ms == end - start


def test_a_point_or_an_instant_has_nothing_to_compare() -> None:
    point = ms("2025-08-13T09:12:22.241")
    assert year_over_year(Main(point, point, "month", "now-3M"), SH) is None
    assert period_over_period(Main(point, point, "month", "now-3M"), SH) is None


def test_baselines_keep_local_midnight_across_daylight_saving() -> None:
    # March 2024 in New York holds the spring-forward day; its baseline February does not.
    main = Main(ms("2024-03-01", NY), ms("2024-03-31" + END, NY), "month", "2024-03")
    baseline = period_over_period(main, NY)
    assert bounds(baseline, NY) == ("2024-02-01T00:00:00.000", "2024-02-29" + END, "2024-02")


def test_explicit_is_the_second_named_window_as_given() -> None:
    baseline = explicit(Main(1, 2, "quarter", "2025-Q2"))
    assert baseline == Baseline(1, 2, "quarter", "2025-Q2", "explicit")
