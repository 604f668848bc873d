"""Fiscal calendars (resolver/timeexpr/fiscal.py, SPEC §9.1): years, quarters, halves, to-date
and first-N-quarter windows for both namings, year boundaries, leap years, bad starts."""

from __future__ import annotations

from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest

from resolver.timeexpr.fiscal import (
    FiscalCalendar,
    FiscalNamingInvalid,
    FiscalStartInvalid,
    Span,
    fiscal_first_quarters,
    fiscal_half,
    fiscal_quarter,
    fiscal_year,
    latest_year_of,
    relative_quarter,
    relative_year,
    year_to_date,
)

SH = ZoneInfo("Asia/Shanghai")
NY = ZoneInfo("America/New_York")


def ms(tz: ZoneInfo, year: int, month: int, day: int, hour: int = 0, *rest: int) -> int:
    minute, second = (*rest, 0, 0)[:2]
    return int(datetime(year, month, day, hour, minute, second, tzinfo=tz).timestamp() * 1000)


def days(span: Span, tz: ZoneInfo = SH) -> tuple[str, str]:
    """The span as its first and last local day."""
    first = datetime.fromtimestamp(span.start_ms / 1000, tz)
    last = datetime.fromtimestamp(span.end_ms / 1000, tz)
    assert first.time().isoformat() == "00:00:00"
    assert last.time().isoformat(timespec="milliseconds") == "23:59:59.999"
    return first.date().isoformat(), last.date().isoformat()


@pytest.mark.parametrize(
    ("start", "named_by", "year", "first", "last"),
    [
        ("10-01", "end", 2025, "2024-10-01", "2025-09-30"),  # US federal
        ("10-01", "start", 2025, "2025-10-01", "2026-09-30"),
        ("04-01", "start", 2025, "2025-04-01", "2026-03-31"),  # Japan
        ("04-01", "end", 2025, "2024-04-01", "2025-03-31"),  # India FY2024-25 named 2025
        ("07-01", "end", 2025, "2024-07-01", "2025-06-30"),  # Australia
        ("01-01", "end", 2025, "2025-01-01", "2025-12-31"),  # the calendar year either way
        ("01-01", "start", 2025, "2025-01-01", "2025-12-31"),
        ("04-06", "start", 2025, "2025-04-06", "2026-04-05"),  # UK tax year
        ("03-01", "end", 2024, "2023-03-01", "2024-02-29"),  # ends on a leap day
        ("03-01", "end", 2025, "2024-03-01", "2025-02-28"),
    ],
)
def test_fiscal_year_is_a_year_from_its_start_named_by_end_or_start(
    start: str, named_by: str, year: int, first: str, last: str
) -> None:
    span = fiscal_year(FiscalCalendar.of(start, named_by), year, SH)
    assert days(span) == (first, last)
    assert (span.step, span.expression) == ("year", f"FY{year}")


def test_year_of_names_the_fiscal_year_holding_a_day_on_both_sides_of_the_start() -> None:
    october = FiscalCalendar.of("10-01", "end")
    assert october.year_of(date(2024, 9, 30)) == 2024
    assert october.year_of(date(2024, 10, 1)) == 2025
    assert october.year_of(date(2025, 9, 30)) == 2025
    april = FiscalCalendar.of("04-01", "start")
    assert april.year_of(date(2026, 3, 31)) == 2025
    assert april.year_of(date(2026, 4, 1)) == 2026
    assert FiscalCalendar.of("01-01", "end").year_of(date(2025, 1, 1)) == 2025


@pytest.mark.parametrize(
    ("start", "named_by", "quarter", "first", "last"),
    [
        ("10-01", "end", 1, "2024-10-01", "2024-12-31"),
        ("10-01", "end", 3, "2025-04-01", "2025-06-30"),
        ("10-01", "end", 4, "2025-07-01", "2025-09-30"),
        ("04-01", "start", 3, "2025-10-01", "2025-12-31"),
        ("04-01", "start", 4, "2026-01-01", "2026-03-31"),
        ("07-01", "end", 2, "2024-10-01", "2024-12-31"),
        ("02-01", "end", 1, "2024-02-01", "2024-04-30"),
        ("12-01", "end", 1, "2024-12-01", "2025-02-28"),  # across a year end, no leap day
        (
            "12-01",
            "end",
            1,
            "2023-12-01",
            "2024-02-29",
        ),
    ],
)
def test_fiscal_quarters_are_runs_of_three_months_from_the_start(
    start: str, named_by: str, quarter: int, first: str, last: str
) -> None:
    year = int(last[:4]) if named_by == "end" and start == "12-01" else 2025
    span = fiscal_quarter(FiscalCalendar.of(start, named_by), year, quarter, SH)
    assert days(span) == (first, last)
    assert span.step == "quarter"
    assert span.expression == f"FY{year}-Q{quarter}"


def test_a_start_day_past_28_clamps_in_short_months() -> None:
    calendar = FiscalCalendar.of("08-31", "start")
    assert days(fiscal_quarter(calendar, 2025, 1, SH)) == ("2025-08-31", "2025-11-29")
    assert days(fiscal_quarter(calendar, 2025, 2, SH)) == ("2025-11-30", "2026-02-27")
    assert days(fiscal_quarter(calendar, 2025, 3, SH)) == ("2026-02-28", "2026-05-30")


def test_halves_step_by_month_and_first_quarters_run_from_the_year_start() -> None:
    calendar = FiscalCalendar.of("04-01", "end")
    h1, h2 = fiscal_half(calendar, 2025, 1, SH), fiscal_half(calendar, 2025, 2, SH)
    assert days(h1) == ("2024-04-01", "2024-09-30")
    assert days(h2) == ("2024-10-01", "2025-03-31")
    assert (h1.step, h1.expression) == ("month", "FY2025-H1")
    first3 = fiscal_first_quarters(calendar, 2025, 3, SH)
    assert days(first3) == ("2024-04-01", "2024-12-31")
    assert (first3.step, first3.expression) == ("quarter", "FY2025-Q1..FY2025-Q3")
    assert fiscal_first_quarters(calendar, 2025, 1, SH).expression == "FY2025-Q1"


def test_relative_years_this_one_runs_to_now_others_are_whole() -> None:
    calendar = FiscalCalendar.of("10-01", "end")
    now = ms(SH, 2025, 11, 13, 9, 12, 22)  # in FY2026
    this = relative_year(calendar, 0, now, SH)
    assert this == year_to_date(calendar, now, SH)
    assert (this.start_ms, this.end_ms, this.step) == (ms(SH, 2025, 10, 1), now, "year")
    assert this.expression == "now/FY..now"
    assert days(relative_year(calendar, -1, now, SH)) == ("2024-10-01", "2025-09-30")
    assert days(relative_year(calendar, -2, now, SH)) == ("2023-10-01", "2024-09-30")
    assert days(relative_year(calendar, 1, now, SH)) == ("2026-10-01", "2027-09-30")
    assert relative_year(calendar, -1, now, SH).expression == "FY2025"


def test_relative_quarters_cross_fiscal_year_boundaries() -> None:
    calendar = FiscalCalendar.of("04-01", "start")
    now = ms(SH, 2025, 4, 15, 8)  # FY2025 Q1
    this = relative_quarter(calendar, 0, now, SH)
    assert (this.start_ms, this.end_ms, this.step, this.expression) == (
        ms(SH, 2025, 4, 1),
        now,
        "quarter",
        "now/FQ..now",
    )
    last = relative_quarter(calendar, -1, now, SH)
    assert days(last) == ("2025-01-01", "2025-03-31")
    assert last.expression == "FY2024-Q4"
    assert relative_quarter(calendar, 4, now, SH).expression == "FY2026-Q1"


def test_the_fiscal_year_of_now_is_placed_in_the_zone() -> None:
    calendar = FiscalCalendar.of("10-01", "end")
    # 2025-09-30 20:00 in New York is already 10-01 in Shanghai.
    now = ms(NY, 2025, 9, 30, 20)
    assert relative_year(calendar, 0, now, NY).start_ms == ms(NY, 2024, 10, 1)
    assert relative_year(calendar, 0, now, SH).start_ms == ms(SH, 2025, 10, 1)


def test_a_bare_part_is_this_years_once_started_else_last_years() -> None:
    calendar = FiscalCalendar.of("10-01", "end")
    now = ms(SH, 2025, 11, 13)  # FY2026 Q1
    assert latest_year_of(calendar, now, SH, 0) == 2026  # fiscal Q1: started
    assert latest_year_of(calendar, now, SH, 6) == 2025  # fiscal Q3 of FY2026 starts 2026-04
    assert latest_year_of(calendar, ms(SH, 2026, 4, 1), SH, 6) == 2026


def test_dst_zones_keep_local_midnight() -> None:
    calendar = FiscalCalendar.of("03-10", "start")  # 2024-03-10 is the US spring-forward day
    span = fiscal_year(calendar, 2024, NY)
    assert days(span, NY) == ("2024-03-10", "2025-03-09")


@pytest.mark.parametrize(
    "start",
    ["02-30", "02-29", "13-01", "00-10", "04-31", "4/1", "", "0401", "4-1", "04-1", " 04-01"],
)
def test_a_start_that_is_no_day_of_every_year_is_refused(start: str) -> None:
    with pytest.raises(FiscalStartInvalid, match="fiscal_year_start"):
        FiscalCalendar.of(start)


def test_a_naming_other_than_end_or_start_is_refused() -> None:
    with pytest.raises(FiscalNamingInvalid, match="fiscal_year_named_by"):
        FiscalCalendar.of("04-01", "middle")
    assert FiscalCalendar.of("04-01").start == "04-01"


def test_parts_out_of_range_are_refused() -> None:
    calendar = FiscalCalendar.of("04-01")
    with pytest.raises(ValueError, match="quarter 5"):
        fiscal_quarter(calendar, 2025, 5, SH)
    with pytest.raises(ValueError, match="half 3"):
        fiscal_half(calendar, 2025, 3, SH)
