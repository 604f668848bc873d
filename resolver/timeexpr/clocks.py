"""Sentences that state the clock or the zone (SPEC §3): `今天是2025年11月13日`, `当前日期为
2025-11-13`, `现在是2025-11-13 10:00`, `today is 2025-11-13`, `the current date is Nov 13,
2025`, `时区：America/New_York`, `用户在纽约时区`, `timezone is UTC+8`.

They set `now` and the zone (when the request gives none), never the window: `told` finds
them and `blank` hides them from the time reading. A zone named by a city or an offset maps to
its IANA zone (`zone_of`); a zone cue that maps to nothing is reported, and the text that holds
it settles nothing (the window could not be placed in a zone the caller did not give).
"""

from __future__ import annotations

import re
from datetime import date, datetime
from functools import cache
from itertools import islice
from typing import NamedTuple
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from resolver.timeexpr.lexicon import EN_MONTHS, normalize, zh_digits, zh_number

# Cities and regions people name a zone by (Chinese and English, lower-case) → IANA.
_CITIES: dict[str, str] = {
    "北京": "Asia/Shanghai", "上海": "Asia/Shanghai", "中国": "Asia/Shanghai",
    "北京时间": "Asia/Shanghai", "东八区": "Etc/GMT-8", "香港": "Asia/Hong_Kong",
    "台北": "Asia/Taipei", "东京": "Asia/Tokyo", "日本": "Asia/Tokyo", "首尔": "Asia/Seoul",
    "新加坡": "Asia/Singapore", "曼谷": "Asia/Bangkok", "迪拜": "Asia/Dubai",
    "孟买": "Asia/Kolkata", "新德里": "Asia/Kolkata", "印度": "Asia/Kolkata",
    "莫斯科": "Europe/Moscow", "伦敦": "Europe/London", "英国": "Europe/London",
    "巴黎": "Europe/Paris", "柏林": "Europe/Berlin", "德国": "Europe/Berlin",
    "法兰克福": "Europe/Berlin", "马德里": "Europe/Madrid", "罗马": "Europe/Rome",
    "阿姆斯特丹": "Europe/Amsterdam", "纽约": "America/New_York", "华盛顿": "America/New_York",
    "美东": "America/New_York", "芝加哥": "America/Chicago", "丹佛": "America/Denver",
    "洛杉矶": "America/Los_Angeles", "旧金山": "America/Los_Angeles",
    "西雅图": "America/Los_Angeles", "美西": "America/Los_Angeles", "多伦多": "America/Toronto",
    "温哥华": "America/Vancouver", "墨西哥城": "America/Mexico_City",
    "圣保罗": "America/Sao_Paulo", "悉尼": "Australia/Sydney", "墨尔本": "Australia/Melbourne",
    "奥克兰": "Pacific/Auckland", "协调世界时": "UTC", "格林尼治": "Etc/GMT",
    "beijing": "Asia/Shanghai", "shanghai": "Asia/Shanghai", "china": "Asia/Shanghai",
    "hong kong": "Asia/Hong_Kong", "taipei": "Asia/Taipei", "tokyo": "Asia/Tokyo",
    "japan": "Asia/Tokyo", "seoul": "Asia/Seoul", "singapore": "Asia/Singapore",
    "bangkok": "Asia/Bangkok", "dubai": "Asia/Dubai", "mumbai": "Asia/Kolkata",
    "india": "Asia/Kolkata", "moscow": "Europe/Moscow", "london": "Europe/London",
    "uk": "Europe/London", "paris": "Europe/Paris", "berlin": "Europe/Berlin",
    "frankfurt": "Europe/Berlin", "germany": "Europe/Berlin", "madrid": "Europe/Madrid",
    "rome": "Europe/Rome", "amsterdam": "Europe/Amsterdam", "new york": "America/New_York",
    "nyc": "America/New_York", "washington": "America/New_York",
    "us eastern": "America/New_York", "eastern": "America/New_York",
    "eastern time": "America/New_York", "chicago": "America/Chicago",
    "central time": "America/Chicago", "denver": "America/Denver",
    "mountain time": "America/Denver", "los angeles": "America/Los_Angeles",
    "san francisco": "America/Los_Angeles", "seattle": "America/Los_Angeles",
    "pacific": "America/Los_Angeles", "pacific time": "America/Los_Angeles",
    "us pacific": "America/Los_Angeles", "toronto": "America/Toronto",
    "vancouver": "America/Vancouver", "mexico city": "America/Mexico_City",
    "sao paulo": "America/Sao_Paulo", "sydney": "Australia/Sydney",
    "melbourne": "Australia/Melbourne", "auckland": "Pacific/Auckland", "utc": "UTC",
    "gmt": "Etc/GMT", "zulu": "UTC",
}  # fmt: skip
# UTC+8, GMT-5, UTC+05:30, 东八区, 西五区: a fixed offset (IANA's Etc zones invert the sign).
_OFFSET = re.compile(r"(?:utc|gmt)\s*([+-])\s*([0-9]{1,2})(?::?([0-9]{2}))?")
_ZH_OFFSET = re.compile(r"([东西])([一二三四五六七八九十]{1,3})区")


# Abbreviations people write for a zone, read as the zone they name (with its daylight time):
# EST in January and in July is New York. CST (China or US Central) and IST (India, Israel or
# Ireland) name more than one: not mapped.
_ABBREVIATIONS: dict[str, str] = {
    "est": "America/New_York", "edt": "America/New_York", "et": "America/New_York",
    "cdt": "America/Chicago", "ct": "America/Chicago",
    "mst": "America/Denver", "mdt": "America/Denver", "mt": "America/Denver",
    "pst": "America/Los_Angeles", "pdt": "America/Los_Angeles", "pt": "America/Los_Angeles",
    "bst": "Europe/London", "cet": "Europe/Paris", "cest": "Europe/Paris",
    "jst": "Asia/Tokyo", "kst": "Asia/Seoul", "hkt": "Asia/Hong_Kong", "sgt": "Asia/Singapore",
    "aest": "Australia/Sydney", "aedt": "Australia/Sydney", "z": "UTC",
}  # fmt: skip
# Offsets with minutes (UTC+05:30, GMT+5:45): no Etc zone has them, so the zone that keeps that
# offset all year (none of these has daylight time).
_MINUTE_OFFSETS = {
    "+05:30": "Asia/Kolkata", "+05:45": "Asia/Kathmandu", "+06:30": "Asia/Yangon",
    "+04:30": "Asia/Kabul", "+03:30": "Asia/Tehran", "+09:30": "Australia/Darwin",
    "+08:45": "Australia/Eucla", "-09:30": "Pacific/Marquesas",
}  # fmt: skip
# A bare offset: +08:00, -0500, +8.
_BARE_OFFSET = re.compile(r"([+-])([0-9]{1,2})(?::?([0-9]{2}))?")


def zone_of(name: str) -> str | None:
    """The IANA zone a name means (Asia/Shanghai, asia/shanghai, 纽约, New York, UTC+8, +08:00,
    东八区, PST), or None."""
    text = " ".join(normalize(name).strip().split())
    if not text:
        return None
    if (text.isascii() and "/" in text) or text in ("utc", "gmt"):
        iana = _iana(name.strip()) or _iana_folded().get(text)
        if iana is not None:
            return iana
    if text in _CITIES:
        return _CITIES[text]
    if text in _ABBREVIATIONS:
        return _ABBREVIATIONS[text]
    if (found := _BARE_OFFSET.fullmatch(text)) is not None:
        return _fixed(*found.groups())
    stripped = re.sub(r"(?:时区|时间|标准时间|time\s*zone|timezone|time)$", "", text).strip()
    if stripped in _CITIES:
        return _CITIES[stripped]
    if (found := _OFFSET.fullmatch(stripped)) is not None:
        return _fixed(*found.groups())
    if (found := _ZH_OFFSET.fullmatch(stripped)) is not None:
        hours = zh_number(found.group(2))
        if hours is None or not 1 <= hours <= 12:
            return None
        return f"Etc/GMT{'-' if found.group(1) == '东' else '+'}{hours}"
    return None


def _fixed(sign: str, hours: str, minutes: str | None) -> str | None:
    """The fixed-offset IANA zone of UTC±hours (IANA's Etc zones invert the sign)."""
    if minutes not in (None, "00"):
        return _MINUTE_OFFSETS.get(f"{sign}{int(hours):02d}:{minutes}")
    if int(hours) > 14:
        return None  # UTC+15 is no zone on Earth
    if int(hours) == 0:
        return "UTC"
    return f"Etc/GMT{'-' if sign == '+' else '+'}{int(hours)}"


@cache
def _iana_folded() -> dict[str, str]:
    """Every IANA zone name by its lower case (asia/shanghai → Asia/Shanghai)."""
    return {zone.lower(): zone for zone in available_timezones()}


def _iana(name: str) -> str | None:
    """An IANA zone name as given — only a listed zone: `posixrules`, `localtime` and other
    files of a zoneinfo directory are no zone a caller names (refused alike in a context and
    on /v1/time-window)."""
    if _iana_folded().get(name.lower()) != name:
        return None
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, OSError):
        return None
    return name


class Told(NamedTuple):
    """What a text says about the clock and the zone, and where it says it."""

    today: date | None = None  # 今天是2025年11月13日
    clock: tuple[int, int] | None = None  # 现在是… 10:00: hour and minute
    zone: str | None = None  # the IANA zone named
    unmapped: str | None = None  # a zone cue that maps to no zone (用户在火星时区)
    spans: tuple[tuple[int, int], ...] = ()  # the sentences, to hide from the time reading


# A date as sentences write it: 2025年11月13日, 2025-11-13, 2025/11/13, Nov 13, 2025, 13 Nov 2025.
_EN_MONTH = "|".join(sorted(EN_MONTHS, key=len, reverse=True))
_DATE = (
    r"(?P<y>[0-9]{4}|[〇零一二三四五六七八九]{4})\s*年\s*(?P<m>[0-9]{1,2}|[一二三四五六七八九十]{1,3})\s*月"
    r"\s*(?P<d>[0-9]{1,2}|[一二三四五六七八九十]{1,3})\s*[日号]?"
    r"|(?P<y2>[0-9]{4})[-/.](?P<m2>[0-9]{1,2})[-/.](?P<d2>[0-9]{1,2})"
    rf"|(?P<mn>{_EN_MONTH})\.?\s+(?P<d3>[0-9]{{1,2}})(?:st|nd|rd|th)?,?\s+(?P<y3>[0-9]{{4}})"
    rf"|(?P<d4>[0-9]{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<mn2>{_EN_MONTH})\.?,?\s+(?P<y4>[0-9]{{4}})"
)
_TIME = (
    r"(?:(?:\s*+t|\s)\s*+(?P<hh>[0-2]?[0-9])\s*[:：点]\s*(?P<mm>[0-5][0-9])?"
    r"(?:\s*[:：]\s*[0-5][0-9])?)?"
)
_EN_WEEKDAY = (
    "monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tues|tue|wed|thurs|thu|fri"
    "|sat|sun"
)
# A weekday beside the date (今天是2025年3月31日星期一, today is Monday, March 31, 2025) is part
# of the sentence: it must agree with the date (SPEC §4.3).
_WEEKDAY_AFTER = (
    r"(?:\s*[,，(（]?\s*(?P<wa>(?:星期|周|礼拜)[一二三四五六日天]"
    rf"|(?:{_EN_WEEKDAY})\b\.?)\s*[)）]?)?"
)
_CLOCK = re.compile(
    r"(?:(?:今天|今日|当前日期|当前时间|当前|现在|目前|此刻|今天的日期)\s*(?:是|为|：|:|=)\s*"
    r"|\b(?:today|the\s+current\s+date|current\s+date|the\s+date\s+today|the\s+current\s+time"
    r"|current\s+time|it|now)\s+is\s+(?:now\s+)?)"
    rf"(?:(?P<wb>{_EN_WEEKDAY})\b\.?,?\s+)?"
    rf"(?:{_DATE}){_TIME}{_WEEKDAY_AFTER}"
)
_WEEKDAY_NUMBER = {
    **{name: index for index, name in enumerate(("monday", "tuesday", "wednesday", "thursday",
                                                 "friday", "saturday", "sunday"))},
    "mon": 0, "tue": 1, "tues": 1, "wed": 2, "thu": 3, "thurs": 3, "fri": 4, "sat": 5,
    "sun": 6,
    **{char: index for index, char in enumerate("一二三四五六")}, "日": 6, "天": 6,
}  # fmt: skip


def _weekday_agrees(found: re.Match[str], day: date) -> bool:
    """Whether the weekday written beside the date (if any) is that date's."""
    for group in ("wb", "wa"):
        word = found.group(group)
        if word:
            key = word.rstrip(".")
            key = key[-1] if not key.isascii() else key
            if _WEEKDAY_NUMBER.get(key) != day.weekday():
                return False
    return True


# Zone sentences: 用户在纽约时区, 用户所在时区是纽约, 时区为北京时间, 时区：东八区, timezone is
# UTC+8, the user's timezone is Berlin, the user is in the London time zone. Each alternative
# starts at its cue word (never at optional words or spaces): a run of spaces is not scanned
# once per position in it (quadratic: 4,000 spaces took 0.8 s).
_ZONE = re.compile(
    r"(?:在|位于|处于)\s*+(?P<a>[^\s，,。；;：]{1,12}?)\s*(?:的)?时区"
    r"|(?:所在)?时区\s*+(?:是|为|：|:|=)\s*+(?P<b>[^\s，,。；;]{1,32})"
    r"|\b(?:time\s*zone|tz)\s*+(?:is|:|=)?\s*+(?P<c>[a-z_/+\-:0-9]+(?:\s+[a-z_/+\-:0-9]+)?)"
    r"|\b(?:user|customer|we|i)\s++(?:is|are|am)\s++in\s++(?:the\s+)?"
    r"(?P<d>[a-z][a-z .+\-0-9]{0,30}?)\s+time\s*zone"
    r"|(?<![a-z0-9])(?P<e>(?:utc|gmt)\s*[+-]\s*[0-9]{1,2}(?::?[0-9]{2})?)(?![0-9:])"
)
# A place without the word zone (用户在纽约, 我在东京, the user is in New York): a zone only when
# the place is one `zone_of` knows — 用户在北京买了什么 names no zone for an unknown place.
_PLACE = re.compile(
    r"(?:用户|我们|我|客户|公司|团队)\s*+(?:在|位于|身在|人在)\s*+"
    r"(?P<p>[\u4e00-\u9fff]{2,5}?)(?=$|[\s，,。；;！？!?）)]|时间)"
    r"|\b(?:(?:the\s+)?(?:user|customer|client)\s+is|i'm|we're|i\s+am|we\s+are)\s++"
    r"(?:based\s+)?in\s++"
    r"(?P<q>[a-z][a-z .]{1,24}?)(?=$|\s*[,.;!?)]|\s+(?:and|but|so|now|today)\b)"
)


# Nobody states the clock or the zone more often than this in one text: the sentences past it
# are not looked at (their time words stay in the reading, which then settles nothing).
MAX_SENTENCES = 16


_TOLD_NOTHING = Told()


def told(text: str) -> Told:
    """The clock and zone sentences of a text (a context's free text)."""
    if not text:
        return _TOLD_NOTHING
    normal = normalize(text)
    today = clock = zone = unmapped = None
    spans: list[tuple[int, int]] = []
    for found in islice(_CLOCK.finditer(normal), MAX_SENTENCES):
        day = _day(found)
        if day is None or not _weekday_agrees(found, day):
            continue  # left in the text: its date and weekday then settle nothing
        today = day
        if found.group("hh") is not None:
            clock = (int(found.group("hh")), int(found.group("mm") or 0))
            if clock[0] > 23:
                clock = None
        spans.append(found.span())
    for found in islice(_ZONE.finditer(normal), MAX_SENTENCES):
        words = next(g for g in (found.group(n) for n in "abcde") if g is not None)
        name = text[found.start(found.lastgroup or "a") : found.end(found.lastgroup or "a")]
        mapped = zone_of(name) or zone_of(words)
        if mapped is None:
            unmapped = words
        else:
            zone = mapped
        spans.append(found.span())
    if zone is None:
        for found in islice(_PLACE.finditer(normal), MAX_SENTENCES):
            mapped = zone_of(found.group(found.lastgroup or "p"))
            if mapped is not None:
                zone = mapped
                spans.append(found.span())
    return Told(today, clock, zone, unmapped, tuple(spans))


_STATED = re.compile(rf"(?:{_DATE}){_TIME}\s*")


def stated(value: str) -> Told:
    """A value that is only a date, as clock sentences write it (`2025年11月13日`, `Nov 13, 2025
    10:00`): the `now` of a context key that is no ISO date."""
    found = _STATED.fullmatch(normalize(value).strip())
    day = None if found is None else _day(found)
    if found is None or day is None:
        return Told()
    clock = None
    if found.group("hh") is not None and int(found.group("hh")) <= 23:
        clock = (int(found.group("hh")), int(found.group("mm") or 0))
    return Told(day, clock)


def blank(text: str, spans: tuple[tuple[int, int], ...]) -> str:
    """The text with these spans replaced by spaces (its indices kept)."""
    if not spans:
        return text
    chars = list(text)
    for start, end in spans:
        chars[start:end] = " " * (end - start)
    return "".join(chars)


def _day(found: re.Match[str]) -> date | None:
    try:
        if found.group("y") is not None:
            year = _number(found.group("y"), digits=True)
            return date(year, _number(found.group("m")), _number(found.group("d")))
        if found.group("y2") is not None:
            return date(int(found.group("y2")), int(found.group("m2")), int(found.group("d2")))
        if found.group("y3") is not None:
            month = EN_MONTHS[found.group("mn")]
            return date(int(found.group("y3")), month, int(found.group("d3")))
        month = EN_MONTHS[found.group("mn2")]
        return date(int(found.group("y4")), month, int(found.group("d4")))
    except (ValueError, KeyError, TypeError):
        return None


def _number(text: str, *, digits: bool = False) -> int:
    if text.isdigit():
        return int(text)
    value = zh_digits(text) if digits else zh_number(text)
    if value is None:
        raise ValueError(text)
    return value


def now_ms_of(told_: Told, tz: ZoneInfo) -> int | None:
    """The epoch ms the clock sentence states, in `tz` (a date alone is its first ms)."""
    if told_.today is None:
        return None
    hour, minute = told_.clock or (0, 0)
    day = told_.today
    wall = datetime(day.year, day.month, day.day, hour, minute, tzinfo=tz)
    return int(wall.timestamp() * 1000)
