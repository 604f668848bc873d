"""Holidays and festivals (SPEC §4.1, §4.2): their day in a given year, and the days of a
public holiday.

The official public holidays of mainland China (国庆假期, 春节期间, 五一假期: the run of days off
the State Council published) come from `chinesecalendar` (docs/dependencies.md). Lunar
festivals (春节, 元宵, 端午, 七夕, 中秋, 重阳, 腊八, 除夕) and the solar term 清明 come
from `lunar-python` (see docs/dependencies): the Chinese calendar follows the new moons and
solar terms, which no short formula reproduces. Easter is the Western computus (the
anonymous Gregorian algorithm); US holidays are the Nth weekday of their month. Conversions
are cached per year.
"""

from __future__ import annotations

from datetime import date, timedelta
from functools import lru_cache

import chinese_calendar
from lunar_python import Lunar, Solar

# Fixed days: key → (month, day).
_SOLAR: dict[str, tuple[int, int]] = {
    "new_year": (1, 1),
    "valentine": (2, 14),
    "women": (3, 8),
    "st_patrick": (3, 17),
    "fools": (4, 1),  # 愚人节, 建军节, 五四青年节: Duckling and Recognizers-Text agree (SPEC §4.3)
    "youth": (5, 4),
    "army": (8, 1),
    "labour": (5, 1),
    "children": (6, 1),
    "618": (6, 18),
    "independence": (7, 4),
    "teacher": (9, 10),
    "national": (10, 1),
    "halloween": (10, 31),
    "double_11": (11, 11),
    "double_12": (12, 12),
    "christmas_eve": (12, 24),
    "christmas": (12, 25),
    "new_years_eve": (12, 31),
}
# Lunar days: key → (lunar month, lunar day).
_LUNAR: dict[str, tuple[int, int]] = {
    "spring": (1, 1),
    "lantern": (1, 15),
    "dragon_boat": (5, 5),
    "qixi": (7, 7),
    "mid_autumn": (8, 15),
    "chongyang": (9, 9),
    "laba": (12, 8),
}
# The Nth weekday of a month: key → (month, weekday (Monday 0), n; -1 is the last).
_NTH_WEEKDAY: dict[str, tuple[int, int, int]] = {
    "mother": (5, 6, 2),
    "father": (6, 6, 3),
    "memorial": (5, 0, -1),
    "us_labor": (9, 0, 1),
    "thanksgiving": (11, 3, 4),
}
# With 期间/假期/黄金周/长假: the public holiday's length in days. The others stay one day.
_SPAN_DAYS: dict[str, int] = {"spring": 7, "national": 7, "labour": 5}
KEYS = frozenset((*_SOLAR, *_LUNAR, *_NTH_WEEKDAY, "easter", "black_friday", "qingming", "chuxi"))


def holiday_days(key: str, year: int, *, span: bool) -> tuple[date, date]:
    """Return the first and last day of a holiday (or of its public holiday) in `year`.

    The public holiday (span) of a mainland festival is the official run of consecutive days
    off holding the festival's day, as the State Council published it (`chinese_calendar`);
    for a year that library does not know, the fixed rule of SPEC §4.1 (`official_known`
    tells which, for the warning). ValueError when the calendar cannot place it.
    """
    first = _day(key, year)
    if span and key in _OFFICIAL:
        run = _official_run(first)
        if run is not None:
            return run
    length = _SPAN_DAYS.get(key, 1) if span else 1
    return first, first + timedelta(days=length - 1)


# Festivals with an official public holiday in mainland China (chinese_calendar's names).
_OFFICIAL = frozenset(
    ("new_year", "spring", "qingming", "labour", "dragon_boat", "mid_autumn", "national")
)


def official_known(key: str, year: int) -> bool:
    """Whether the official public holiday of `key` in `year` is known (else the fixed rule)."""
    if key not in _OFFICIAL:
        return True  # no official run: one day, no rule to fall back on
    try:
        return _official_run(_day(key, year)) is not None
    except ValueError:
        return False


@lru_cache(maxsize=256)
def _official_run(day: date) -> tuple[date, date] | None:
    """The run of consecutive days off holding `day`, or None when the calendar does not know
    that year or `day` is no day off. Weekends joined to it are in (端午 2024 is 6/8–6/10,
    "与周末连休"); make-up workdays are out."""
    try:
        if not chinese_calendar.is_holiday(day):
            return None
        first, last = day, day
        while chinese_calendar.is_holiday(first - _ONE_DAY):
            first -= _ONE_DAY
        while chinese_calendar.is_holiday(last + _ONE_DAY):
            last += _ONE_DAY
    except NotImplementedError:  # a year the library has no data for
        return None
    return first, last


_ONE_DAY = timedelta(days=1)


def _day(key: str, year: int) -> date:
    if key in _SOLAR:
        return date(year, *_SOLAR[key])
    if key in _LUNAR:
        return _lunar_to_solar(year, *_LUNAR[key])
    if key in _NTH_WEEKDAY:
        return _nth_weekday(year, *_NTH_WEEKDAY[key])
    if key == "black_friday":
        return _nth_weekday(year, *_NTH_WEEKDAY["thanksgiving"]) + timedelta(days=1)
    if key == "easter":
        return _easter(year)
    if key == "chuxi":  # the eve of 春节
        return _lunar_to_solar(year, 1, 1) - timedelta(days=1)
    if key == "qingming":
        return _solar_term(year, "清明")
    raise ValueError(f"unknown holiday {key!r}")


def _nth_weekday(year: int, month: int, weekday: int, n: int) -> date:
    if n > 0:
        first = date(year, month, 1)
        return first + timedelta(days=(weekday - first.weekday()) % 7 + 7 * (n - 1))
    following = date(year + month // 12, month % 12 + 1, 1)
    last = following - timedelta(days=1)
    return last - timedelta(days=(last.weekday() - weekday) % 7)


def _easter(year: int) -> date:
    """Western Easter Sunday (the anonymous Gregorian computus)."""
    a, b, c = year % 19, year // 100, year % 100
    d, e = divmod(b, 4)
    g = (8 * b + 13) // 25
    h = (19 * a + b - d - g + 15) % 30
    i, k = divmod(c, 4)
    l = (32 + 2 * e + 2 * i - h - k) % 7  # noqa: E741 - the algorithm's own name
    m = (a + 11 * h + 19 * l) // 433
    month = (h + l - 7 * m + 90) // 25
    return date(year, month, (h + l - 7 * m + 33 * month + 19) % 32)


@lru_cache(maxsize=512)
def _lunar_to_solar(year: int, month: int, day: int) -> date:
    if not 1900 <= year <= 2200:  # far outside what a metric asks; keeps the cache honest
        raise ValueError(f"lunar year {year} is out of range")
    solar = Lunar.fromYmd(year, month, day).getSolar()
    return date(solar.getYear(), solar.getMonth(), solar.getDay())


@lru_cache(maxsize=512)
def _solar_term(year: int, name: str) -> date:
    if not 1900 <= year <= 2200:
        raise ValueError(f"solar-term year {year} is out of range")
    term = Solar.fromYmd(year, 4, 1).getLunar().getJieQiTable()[name]
    return date(term.getYear(), term.getMonth(), term.getDay())
