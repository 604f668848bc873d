"""Festivals (SPEC §4.1): their day in a given year, and the days of their public holiday.

Lunar festivals (春节, 元宵, 端午, 七夕, 中秋) are converted with `lunar-python` (see the README's
Dependencies): the Chinese calendar follows the new moons and solar terms, which no short
formula reproduces. Conversions are cached per year: the first one of a year costs ~3 ms.
"""

from __future__ import annotations

from datetime import date, timedelta
from functools import lru_cache

from lunar_python import Lunar

# Canonical festival → (month, day, is_lunar).
_DATES: dict[str, tuple[int, int, bool]] = {
    "new_year": (1, 1, False),
    "spring": (1, 1, True),
    "lantern": (1, 15, True),
    "labour": (5, 1, False),
    "dragon_boat": (5, 5, True),
    "qixi": (7, 7, True),
    "mid_autumn": (8, 15, True),
    "national": (10, 1, False),
    "618": (6, 18, False),
    "double_11": (11, 11, False),
    "double_12": (12, 12, False),
}
# With 期间/假期/黄金周/长假 (holiday): the festival's day and the days after it. The others
# stay one day (SPEC §4.1).
_HOLIDAY_DAYS: dict[str, int] = {"spring": 7, "national": 7, "labour": 5}

# How festivals are written (normalised text: lower case) → canonical name.
NAMES: dict[str, str] = {
    "元旦": "new_year",
    "春节": "spring",
    "农历新年": "spring",
    "大年初一": "spring",
    "元宵节": "lantern",
    "元宵": "lantern",
    "五一劳动节": "labour",
    "劳动节": "labour",
    "五一节": "labour",
    "五一": "labour",
    "端午节": "dragon_boat",
    "端午": "dragon_boat",
    "七夕节": "qixi",
    "七夕": "qixi",
    "中秋节": "mid_autumn",
    "中秋": "mid_autumn",
    "国庆节": "national",
    "国庆": "national",
    "十一": "national",  # only with a holiday word (十一黄金周): alone it is eleven
    "618": "618",
    "六一八": "618",
    "双十一": "double_11",
    "双11": "double_11",
    "双十二": "double_12",
    "双12": "double_12",
    "new year's day": "new_year",
    "new years day": "new_year",
    "new year day": "new_year",
    "spring festival": "spring",
    "chinese new year": "spring",
    "lunar new year": "spring",
    "lantern festival": "lantern",
    "may day": "labour",
    "labor day": "labour",
    "labour day": "labour",
    "dragon boat festival": "dragon_boat",
    "qixi festival": "qixi",
    "qixi": "qixi",
    "mid-autumn festival": "mid_autumn",
    "mid autumn festival": "mid_autumn",
    "moon festival": "mid_autumn",
    "national day": "national",
    "singles' day": "double_11",
    "singles day": "double_11",
    "single's day": "double_11",
    "double 11": "double_11",
    "double eleven": "double_11",
    "double 12": "double_12",
    "double twelve": "double_12",
}


def festival_days(name: str, year: int, *, holiday: bool) -> tuple[date, date]:
    """Return the first and last day of a festival (or of its holiday) in `year`.

    ValueError when the calendar cannot place it (a lunar date outside the library's range).
    """
    month, day, lunar = _DATES[name]
    first = _lunar_to_solar(year, month, day) if lunar else date(year, month, day)
    length = _HOLIDAY_DAYS.get(name, 1) if holiday else 1
    return first, first + timedelta(days=length - 1)


@lru_cache(maxsize=512)
def _lunar_to_solar(year: int, month: int, day: int) -> date:
    if not 1900 <= year <= 2200:  # far outside what a metric asks; keeps the cache honest
        raise ValueError(f"lunar year {year} is out of range")
    solar = Lunar.fromYmd(year, month, day).getSolar()
    return date(solar.getYear(), solar.getMonth(), solar.getDay())
