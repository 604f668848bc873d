"""English word forms of days and weeks (issue 28, SPEC §4.1–4.3; the choices where the SPEC is
silent are in docs/time-semantics.md): a weekday with its day, this past Friday, early/late of a
relative month, a week's day written after it with "on", the weekend after next, a calendar
year, a 1:1 that is a meeting — each with neighbours, and the forms that must still settle
nothing (ambiguous, disagreeing or half read).

The clock is 2025-11-13 09:12:22.241 in Asia/Shanghai (a Thursday)."""

from __future__ import annotations

import pytest

from tests.timeexpr_checks import (
    LAST_MONTH,
    NOTHING,
    NOW,
    Expected,
    day,
    window,
)


def weeks(first: str, last: str) -> Expected:
    return (f"{first}T00:00:00.000", f"{last}T23:59:59.999", "week")


def months(first: str, last: str) -> Expected:
    return (f"{first}T00:00:00.000", f"{last}T23:59:59.999", "month")


def quarters(first: str, last: str) -> Expected:
    return (f"{first}T00:00:00.000", f"{last}T23:59:59.999", "quarter")


# Plain words and punctuation around a text (SPEC §4.3 framing): the window stays.
FRAMES = (
    ("Please show orders ", "."), ("", "?"), ("", "!"), ('"', '"'), ("(", ")"),
    ("Can you tell me revenue ", "?"), ("", ", thanks"), ("", "，谢谢"), ("show me ", " please."),
    ("", "..."), ("[", "]"), ("Hi, what were sales ", "? Thx"),
)  # fmt: skip
Q2_2024 = ("2024-04-01T00:00:00.000", "2024-06-30T23:59:59.999", "quarter")

CASES: list[tuple[str, Expected]] = [
    # a weekday with its day of the month: the bare day (this month's if started, else last
    # month's), which must fall on that weekday
    ("Thursday 13", day("2025-11-13")),
    ("orders on Thursday 13!", day("2025-11-13")),
    ("Monday 13", NOTHING),  # the 13th (today) is a Thursday
    ("Monday 10", NOTHING),  # a number up to 12 may be an hour (meet Monday 9)
    ("Monday the 10th", day("2025-11-10")),
    ("Mon 10th", day("2025-11-10")),
    ("Wed 12th revenue", day("2025-11-12")),
    ("Thursday the thirteenth", day("2025-11-13")),
    ("Tuesday the eleven.", day("2025-11-11")),
    ("Wednesday the twenty second", day("2025-10-22")),  # the 22nd: October's, a Wednesday
    ("Monday 11", NOTHING),  # the 11th is a Tuesday
    ("Wed 13th", NOTHING),  # the 13th is a Thursday
    ("Friday the fourteenth", NOTHING),  # the 14th has not come: October's 14th is a Tuesday
    ("Thursday 13 stores", NOTHING),  # 13 stores or the 13th? unsure
    ("Thursday 13 14", NOTHING),
    ("Thursday 11.13", day("2025-11-13")),  # a dotted month.day (SPEC §4.3 5.12)
    ("Friday 11.13", NOTHING),
    ("Thursday-Nov-13", day("2025-11-13")),  # glued to its date: that date's day
    ("Friday-Nov-13", NOTHING),
    ("this Friday-Jun-15", NOTHING),  # this Friday is no June 15th: never a range to it
    ("Mon-Fri last week", day("2025-11-03", "2025-11-07")),  # two weekdays stay a range
    # the day alone after "for"
    ("orders for the second", day("2025-11-02")),
    ("sales for the twenty first", day("2025-10-21")),
    ("for the thirty", day("2025-10-30")),
    ("orders dropped for the second time", NOTHING),  # no time at all
    ("for the second quarter of 2024", Q2_2024),
    # this past <weekday>: the last one before today
    ("sales this past Wednesday", day("2025-11-12")),
    ("this past Thursday", day("2025-11-06")),  # today is Thursday: a week back
    ("this past Friday?", day("2025-11-07")),
    ("last Wednesday", day("2025-11-05")),  # last <weekday> stays the previous week's (SPEC)
    # early/mid/late of a relative month (= 上旬/中旬/下旬)
    ("late this month", day("2025-11-21", "2025-11-30")),
    ("early next month", day("2025-12-01", "2025-12-10")),
    ("meetings mid last month", day("2025-10-11", "2025-10-20")),
    ("late last month.", day("2025-10-21", "2025-10-31")),
    ("early next year", NOTHING),  # no dekad of a year
    ("mid next week", NOTHING),
    # a day written after its week or month with "on"
    ("next week on Friday", day("2025-11-21")),
    ("last week on Monday", day("2025-11-03")),
    ("last month on the 15th", day("2025-10-15")),
    ("next week on friday 3pm", NOTHING),  # a time of day: not read
    ("sunday from last week", day("2025-11-09")),
    ("friday from next week", day("2025-11-21")),
    ("monday from 2024", NOTHING),
    # the weekend of the week named (SPEC §4.3): after next, before last
    ("the weekend after next", day("2025-11-29", "2025-11-30")),
    ("I'll be out the weekend after the next", day("2025-11-29", "2025-11-30")),
    ("weekend before last", day("2025-11-01", "2025-11-02")),
    ("this week-end", day("2025-11-15", "2025-11-16")),
    ("last wkend", day("2025-11-08", "2025-11-09")),
    # a bare weekend is this week's (the peers' majority, as bare 周末)
    ("the week-end", day("2025-11-15", "2025-11-16")),
    ("the weekend", day("2025-11-15", "2025-11-16")),
    ("my weekend", day("2025-11-15", "2025-11-16")),
    ("on weekend", day("2025-11-15", "2025-11-16")),
    ("on weekends", NOTHING),  # weekends in general: no week named
    ("every weekend", NOTHING),
    # calendar year / quarter as year / quarter
    ("this calendar year", ("2025-01-01T00:00:00.000", NOW, "year")),
    ("last calendar quarter", ("2025-07-01T00:00:00.000", "2025-09-30T23:59:59.999", "quarter")),
    ("calendar year 2008", ("2008-01-01T00:00:00.000", "2008-12-31T23:59:59.999", "year")),
    # a 1:1 (a ratio, a meeting) is no clock: a clock's minutes have two digits
    ("schedule me a 1:1 on monday", day("2025-11-10")),
    ("16:9 screens sold last month", LAST_MONTH),
    ("at 3:5 yesterday", NOTHING),  # after "at": a clock written badly, never dropped
    ("yesterday 10:30", NOTHING),  # a time of day stays unread
    ("yesterday 9:5", NOTHING),  # beside a day: a clock written badly, never a ratio
    ("9:5 pm yesterday", NOTHING),
    ("1:1:1 last week", NOTHING),
    ("1:1 meetings last week", ("2025-11-03T00:00:00.000", "2025-11-09T23:59:59.999", "week")),
    # "sometime" is plain: sometime X is X
    ("sometime next week", ("2025-11-17T00:00:00.000", "2025-11-23T23:59:59.999", "week")),
    ("sometime soon", NOTHING),
    # gold v4's EN rows and the issue's BI phrases, with neighbours
    ("from april the ninth till the seventeenth", day("2025-04-09", "2025-04-17")),
    ("from april the ninth to the seventeenth.", day("2025-04-09", "2025-04-17")),
    ("april 9th through the seventeenth", day("2025-04-09", "2025-04-17")),
    ("from june the tenth to the thirty first", NOTHING),  # no June 31st
    ("last month to the seventeenth", NOTHING),
    ("Q1 of 2017 - Q3 of 2018 revenue", quarters("2017-01-01", "2018-09-30")),
    ("Q1 2017 - Q3 2018", quarters("2017-01-01", "2018-09-30")),
    ("from Q1 of 2017 until Q3 of 2018", quarters("2017-01-01", "2018-09-30")),
    ("2024/Q1 orders", quarters("2024-01-01", "2024-03-31")),
    ("the last 2 weeks of 2024 revenue", weeks("2024-12-23", "2025-01-05")),
    ("the last 2 weeks of March 2024", weeks("2024-03-18", "2024-03-31")),
    ("the last 2 weeks of 2026", weeks("2026-12-21", "2027-01-03")),  # 2026 has a W53
    ("last 2 weeks of last month", weeks("2025-10-20", "2025-11-02")),
    ("the last month of Q3 2024 revenue", months("2024-09-01", "2024-09-30")),
    ("the last 2 months of Q3 2024", months("2024-08-01", "2024-09-30")),
    ("the last month of last quarter", months("2025-09-01", "2025-09-30")),
    ("last month of 2024", months("2024-12-01", "2024-12-31")),
    ("the last quarter of 2024", quarters("2024-10-01", "2024-12-31")),
    ("the last 4 months of Q3 2024", NOTHING),  # a quarter has three
    ("the last day of Q3 2024", day("2024-09-30")),  # the last N days of any bigger period
    ("last 2 weeks", ("2025-10-30T09:12:22.241", NOW, "week")),  # alone: rolling (SPEC §4)
    ("today - next friday", day("2025-11-13", "2025-11-21")),
    ("from today to next friday", day("2025-11-13", "2025-11-21")),
    ("今天到下周五", day("2025-11-13", "2025-11-21")),
    ("today - yesterday", NOTHING),  # runs backwards
    ("today and next friday", NOTHING),
    ("first week of Jan 2015", NOTHING),  # the peers differ (first full week or ISO week 1)
    ("w/c Feb 4", weeks("2025-02-03", "2025-02-09")),
    ("two days before yesterday", day("2025-11-10")),
    ("from 5 to 6pm of April 22", ("2025-04-22T17:00:00.000", "2025-04-22T17:59:59.999", "day")),
]


@pytest.mark.parametrize(("text", "expected"), CASES, ids=[text for text, _ in CASES])
def test_reads_exactly_or_settles_nothing(text: str, expected: Expected) -> None:
    assert window(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [case for case in CASES if case[1] is not None],
    ids=[text for text, expected in CASES if expected is not None],
)
def test_a_frame_of_plain_words_keeps_thewindow(text: str, expected: Expected) -> None:
    for before, after in FRAMES:
        assert window(f"{before}{text}{after}") == expected, f"{before}{text}{after}"
