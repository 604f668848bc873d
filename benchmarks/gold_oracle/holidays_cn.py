"""Mainland China's official public-holiday runs (SPEC §4.1's festival row, revised by issue 31).

With 期间/假期/黄金周/长假/放假 a festival means the official public holiday of that year: the run
of consecutive days off holding the festival's day, weekends inside it included, make-up workdays
excluded, as the State Council published it (国务院办公厅关于2023/2024/2025年部分节假日安排的通知).
The runs are data here, cross-checked once (outside the project) against `chinesecalendar` 1.11.0.
A year not listed takes the SPEC's fixed rule: 春节 lunar 1/1 + 6 days, 国庆 10/1–10/7, 五一
5/1–5/5, the others one day (and the service is expected to warn).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, timedelta

from borax.calendars.lunardate import LunarDate

OFFICIAL_RUNS: dict[tuple[str, int], tuple[date, date]] = {
    ("春节", 2023): (date(2023, 1, 21), date(2023, 1, 27)),
    ("春节", 2024): (date(2024, 2, 10), date(2024, 2, 17)),
    ("春节", 2025): (date(2025, 1, 28), date(2025, 2, 4)),
    ("劳动节", 2023): (date(2023, 4, 29), date(2023, 5, 3)),
    ("劳动节", 2024): (date(2024, 5, 1), date(2024, 5, 5)),
    ("劳动节", 2025): (date(2025, 5, 1), date(2025, 5, 5)),
    ("端午", 2023): (date(2023, 6, 22), date(2023, 6, 24)),
    ("端午", 2024): (date(2024, 6, 8), date(2024, 6, 10)),
    ("端午", 2025): (date(2025, 5, 31), date(2025, 6, 2)),
    ("中秋", 2023): (date(2023, 9, 29), date(2023, 10, 6)),
    ("中秋", 2024): (date(2024, 9, 15), date(2024, 9, 17)),
    ("国庆", 2023): (date(2023, 9, 29), date(2023, 10, 6)),
    ("国庆", 2024): (date(2024, 10, 1), date(2024, 10, 7)),
    ("国庆", 2025): (date(2025, 10, 1), date(2025, 10, 8)),
}
# The fixed rule for a year with no published run: (first day, number of days).
FIXED_RULE: dict[str, Callable[[int], tuple[date, int]]] = {
    "春节": lambda y: (LunarDate(y, 1, 1).to_solar_date(), 7),
    "国庆": lambda y: (date(y, 10, 1), 7),
    "劳动节": lambda y: (date(y, 5, 1), 5),
    "端午": lambda y: (LunarDate(y, 5, 5).to_solar_date(), 1),
    "中秋": lambda y: (LunarDate(y, 8, 15).to_solar_date(), 1),
}


def holiday_run(name: str, in_year: int) -> tuple[date, date] | None:
    """First and last day of `name`'s official holiday in `in_year` (the fixed rule where no run
    is listed); None for a festival that is no public holiday (双十一, 七夕 …: one day)."""
    if (name, in_year) in OFFICIAL_RUNS:
        return OFFICIAL_RUNS[name, in_year]
    if name not in FIXED_RULE:
        return None
    first, length = FIXED_RULE[name](in_year)
    return first, first + timedelta(days=length - 1)
