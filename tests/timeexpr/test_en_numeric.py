"""English numeric and compact date forms (issue 28, docs/time-semantics.md "Numeric and
compact dates"): each family read generally — other separators, other numbers, with and
without a year, in a sentence, before a full stop — and the neighbours that must still settle
nothing (ambiguous or half-read forms)."""

from __future__ import annotations

import pytest

from resolver.timeexpr import read_window

NOW_MS = 1762996342241  # 2025-11-13T09:12:22.241+08:00, a Thursday


def expression(text: str) -> str | None:
    """The canonical expression a text settles to, or None when it settles nothing."""
    answer = read_window(text, now_ms=NOW_MS, timezone="Asia/Shanghai")
    return answer.expression if answer.settled else None


def check(text: str, expected: str | None) -> None:
    assert expression(text) == expected, text


# -- M-D-YY and M/D/YY: month first, a two-digit year (SPEC §4.2 numeric dates, §4.3) ---------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I'll go back 9-18-15", "2015-09-18"),
        ("orders of 9/18/15.", "2015-09-18"),
        ("3-7-07", "2007-03-07"),
        ("revenue on 3-7-27, please", "2027-03-07"),
        ("10-11-12", "2012-10-11"),  # month first, whatever else it may look like
        ("12/31/49", "2049-12-31"),
        ("12/31/00", "2000-12-31"),
    ],
)
def test_a_month_day_and_two_digit_year_is_that_day(text: str, expected: str) -> None:
    check(text, expected)


@pytest.mark.parametrize(
    "text",
    [
        "3-7-96",  # 1996: before 2000 (SPEC §4.3)
        "3-7-7",  # a one-digit year is none
        "13-7-07",  # no month 13
        "2-30-15",  # no February 30th
        "1-2-3-4",  # a run of numbers, no date
        "2-9-18-15",
        "9-18-15 days",  # counts of a unit
        "9-18-15 pm",
        "555-12-34",
    ],
)
def test_a_numeric_run_that_is_no_date_settles_nothing(text: str) -> None:
    check(text, None)


# -- on M-D: a dashed month-day after "on" (Duckling and Recognizers-Text read it) ------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I'll go back on 4-22", "2025-04-22"),
        ("orders on 4-22.", "2025-04-22"),
        ("sales on 10-1 by region", "2025-10-01"),
        ("on 11-22", "2024-11-22"),  # not started this year: last year's (SPEC §4.2)
        ("on 4-22-2016", "2016-04-22"),
        ("on 4/22", "2025-04-22"),
    ],
)
def test_on_a_dashed_month_day_is_that_day(text: str, expected: str) -> None:
    check(text, expected)


@pytest.mark.parametrize(
    "text",
    [
        "4-22",  # no "on": a range of numbers as much as a date
        "on 13-22",  # no month 13
        "on 4-31",  # no April 31st
        "on 3-5pm",  # hours
        "on 4-22 pm",
        "on 4-22 days",
        "on 4-22 2016",  # a date and a year apart: not one expression
        "on Monday 3-8",  # bare hours beside a weekday (SPEC §4.2)
        "on 5.12",  # 5.12: May 12th or 5:12 — the peers disagree (Duckling, chrono: a clock)
        "in 4.22",
    ],
)
def test_a_dashed_or_dotted_pair_that_may_be_no_date_settles_nothing(text: str) -> None:
    check(text, None)


# -- a year and a month with spaces around their separator (Duckling's yyyy-mm takes them) ---

SPACINGS = ("{a} - {b}", "{a}- {b}", "{a} -{b}", "{a} / {b}", "{a}/ {b}", "{a} /{b}")


@pytest.mark.parametrize("spacing", SPACINGS)
@pytest.mark.parametrize("frame", ["{}", "I'll be out {}", "Show sales for {}.", "{} 的销量"])
def test_a_year_and_month_spaced_either_way_is_that_month(spacing: str, frame: str) -> None:
    check(frame.format(spacing.format(a="2016", b="11")), "2016-11")
    check(frame.format(spacing.format(a="11", b="2016")), "2016-11")
    check(frame.format(spacing.format(a="2024", b="03")), "2024-03")


@pytest.mark.parametrize(
    "text",
    [
        "2016 - 13",  # no month 13
        "13 - 2016",
        "2016 - 11 - 05",  # a spaced day after it: not this form
        "12 - 2015 - 02 - 2016",
        "2016 - 11 months",  # a count of months
        "Jan 2016 - 11",  # a month name before: not a year-month
        "Nov 3 - 11 / 2016",
        "$ 11 - 2016",  # money
        "top 10 - 2019",  # a ranking
        "top 10-2019",
    ],
)
def test_a_spaced_pair_that_is_no_year_month_settles_nothing(text: str) -> None:
    check(text, None)


def test_spaced_year_months_join_a_range_and_years_stay_years() -> None:
    check("top 3 products 2016 - 11", "2016-11")
    check("2016 - 11 to 2017 - 02", "2016-11..2017-02")
    check("2016 - 2017", "2016..2017")
    check("2015-12 - 2016-02", "2015-12..2016-02")


# -- the month after the next, the week before the last ----------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I'll be out the month after the next", "now+2M/M"),
        ("the month after next", "now+2M/M"),
        ("the week before the last.", "now-2w/w"),
        ("the year before last", "now-2y/y"),
    ],
)
def test_two_periods_on_is_read_with_or_without_the(text: str, expected: str) -> None:
    check(text, expected)


def test_a_period_after_the_next_of_another_unit_settles_nothing() -> None:
    check("the month after the next quarter", None)


# -- a month name, a day and a year joined by one separator, in any order (SPEC §4.3) --------


@pytest.mark.parametrize(
    "text",
    [
        "I'll go back September-2020-23.",
        "2020/23/Sep",
        "i'll go back 23-2020-September",
        "Sep/2020/23",
        "23/2020/sep, thanks",
        "2020-sept-23",
        "August-23-2020".replace("August", "September"),
        "23/September/2020",
    ],
)
def test_a_month_name_day_and_year_joined_in_any_order_is_that_day(text: str) -> None:
    check(text, "2020-09-23")


@pytest.mark.parametrize(
    "text",
    [
        "September-2020-31",  # no September 31st
        "September-2020-23-05",  # a fourth part
        "2020/23/Sep/2021",
        "September-2020/23",  # two separators: not one date
    ],
)
def test_a_joined_month_name_date_that_is_none_settles_nothing(text: str) -> None:
    check(text, None)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("16. Nov. 2016", "2016-11-16"),
        ("16 Nov. 2016", "2016-11-16"),
        ("the 2nd of Aug. 2016", "2016-08-02"),
        ("orders on 16 Nov.", "2024-11-16"),  # a full stop ending the sentence
    ],
)
def test_a_dotted_month_abbreviation_after_its_day_keeps_the_date(text: str, expected: str) -> None:
    check(text, expected)


# -- a whole date inside a name: file names, paths, URLs (SPEC §4.3) ----------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("The file's name is sales_report-2002-10-09.xlsx", "2002-10-09"),
        ("www.example.com/users/12345/archive-2018-09-23-page-01", "2018-09-23"),
        ("www.example2.com/data/report-20170302.html", "2017-03-02"),
        ("open daily/2024/05/07/summary", None),  # daily: a step word glued to it
        ("rows of export-2024.03.15.csv", "2024-03-15"),
    ],
)
def test_a_whole_date_inside_a_name_is_that_day(text: str, expected: str | None) -> None:
    check(text, expected)


@pytest.mark.parametrize(
    "text",
    [
        "-2020-07-01-",  # a dash at an edge: maybe an open range (2019-)
        "-20200701-",
        "pre-2019-10-09",  # a word on one side only: pre-, post- are boundaries
        "sales-2019-10-09",
        "report-2019.xlsx",  # a year alone is no whole date
        "2019-10-09-ish",
        "report-2019-10-09-2019-10-12.csv",  # two dates
        "report-20191309.html",  # no month 13
    ],
)
def test_a_date_half_inside_a_name_settles_nothing(text: str) -> None:
    check(text, None)


# -- a ratio is no clock: 1:1, 16:9 (a clock's minutes have two digits) --------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("schedule me a 1:1 meeting on 14 nov", "2024-11-14"),
        ("schedule me a 1:1 meeting 14 nov 2023", "2023-11-14"),
        ("16:9 screens sold last month", "now-1M/M"),
        ("yesterday 15:00-17:00", "2025-11-12T15:00..2025-11-12T17:00"),  # clocks stay clocks
    ],
)
def test_a_ratio_beside_a_date_is_plain(text: str, expected: str) -> None:
    check(text, expected)


@pytest.mark.parametrize("text", ["yesterday 9:5 to 10:30", "10:30"])
def test_a_clock_range_with_a_ratio_in_it_settles_nothing(text: str) -> None:
    check(text, None)


# -- the Nth day of a month -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("We will come back on the twenty third day of September", "2025-09-23"),
        ("the 23rd day of September 2019", "2019-09-23"),
        ("first day of March.", "2025-03-01"),
        ("the third day of next month", "2025-12-03"),
    ],
)
def test_the_nth_day_of_a_month_is_that_day(text: str, expected: str) -> None:
    check(text, expected)


@pytest.mark.parametrize(
    "text",
    [
        "the first days of March",  # days: a stretch, not a day
        "the 31st day of September",  # no such day
        "the twenty third day of the month",  # which month?
        "23 day of September",
    ],
)
def test_a_day_of_a_month_that_is_none_settles_nothing(text: str) -> None:
    check(text, None)


# -- CY and =: a calendar year (as FY25 is a fiscal one), an equals sign before a year ------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Show sales in the cy18", "2018"),
        ("CY2018 revenue", "2018"),
        ("cy2019 orders", "2019"),  # a labelled year counts nothing
        ("cy18 q1", "2018-Q1"),
        ("=2019", "2019"),
        ("year = 2019".replace("year ", "period "), "2019"),
        ("date = 2019-10-09", "2019-10-09"),
    ],
)
def test_a_calendar_year_label_and_an_equals_sign_read_the_year(text: str, expected: str) -> None:
    check(text, expected)


@pytest.mark.parametrize(
    "text",
    [
        "cy96",  # 1996: before 2000
        "cy180",
        "cy18q1",
        "<=2019",  # comparisons are open (SPEC §4.2)
        ">= 2019",
        "> = 2019",
        "< =2019",
        "!=2019",  # not 2019: a negation
        "! = 2019",
        "≠2019",
        "==2019",
        "=<2019",
    ],
)
def test_a_comparison_or_an_unreadable_label_settles_nothing(text: str) -> None:
    check(text, None)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I bought it for $ 12 December 27", "2024-12-27"),  # $ 12: an amount, spaced or not
        ("I bought it for $12 December 27", "2024-12-27"),
        ("$ 12 last month", "now-1M/M"),
        ("# 3 last week", "now-1w/w"),
        ("$ 12/25", None),  # an amount, and no date left
    ],
)
def test_an_amount_after_a_spaced_money_sign_is_no_time(text: str, expected: str | None) -> None:
    check(text, expected)


# -- M.D.YYYY: month first, as M/D/YYYY (Duckling's mm.dd.yyyy, chrono) --------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("12.25.2023", "2023-12-25"),
        ("on 3.7.2027.", "2027-03-07"),
        ("12.25.2023的销量", "2023-12-25"),
        ("2024.3.15", "2024-03-15"),  # a year first is read year first
    ],
)
def test_a_dotted_month_day_year_is_that_day(text: str, expected: str) -> None:
    check(text, expected)


@pytest.mark.parametrize(
    "text",
    ["25.12.2023", "v1.2.2024", "10.1.3.2024", "3.5.2023.4", "2.30.2024"],
)
def test_a_dotted_run_that_is_no_month_first_date_settles_nothing(text: str) -> None:
    check(text, None)
