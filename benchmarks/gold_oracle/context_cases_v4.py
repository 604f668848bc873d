"""The cases of context_gold_v4.jsonl: SPEC §4.3's clock and zone sentences as people write them.

Each line is one `POST /v1/dynamic-params` in rules-only mode, in the format of
context_gold.jsonl. A weekday beside the clock sentence's date (`今天是2025年3月31日星期一`,
`today is Monday, March 31, 2025`) is part of the sentence: it must agree with the date, or
nothing settles. A place without the word zone (`用户在纽约`, `the user is in New York`,
`我在东京`) maps to its IANA zone; offsets with minutes (`UTC+05:30`, `GMT+5:45`) are zones. A
clock or zone sentence never becomes the window: 昨天/上周 are relative to the sentence's
clock, never the sentence's date itself. Written from the SPEC alone, blind to the engine.
"""

from __future__ import annotations

from benchmarks.gold_oracle.answers import Params, Spec, instant, whole
from benchmarks.gold_oracle.context_cases import (
    SALES,
    TIME_MISSING,
    ContextCase,
    missing,
    ok,
)
from benchmarks.gold_oracle.context_cases_v3 import _case, _moved, _on_day
from benchmarks.gold_oracle.periods import Clock, last, month
from benchmarks.gold_oracle.time_cases import NOV, SHANGHAI

NEW_YORK = "America/New_York"
TOKYO = "Asia/Tokyo"
KOLKATA = "Asia/Kolkata"  # +05:30 all year: the same numbers as the offset UTC+05:30
KATHMANDU = "Asia/Kathmandu"  # +05:45 all year: the same numbers as GMT+5:45

UTC_EVE = Clock.at("2025-11-13T19:00:00", "UTC")  # already 11-14 in Kolkata, Kathmandu, +8
DEC1 = Clock.at("2025-12-01T02:00:00", SHANGHAI)  # still 11-30 in New York and Los Angeles
NOV30 = Clock.at("2025-11-30T23:30:00", SHANGHAI)  # already 12-01 in Tokyo
UTC_NOV30 = Clock.at("2025-11-30T17:00:00", "UTC")  # already 12-01 at UTC+8

YESTERDAY, LAST_WEEK, LAST_MONTH = whole(last("day")), whole(last("week")), whole(last("month"))

WEEKDAY_OK = (
    "SPEC §4.3: the weekday beside the date is part of the clock sentence and agrees; the"
    " sentence sets now (no now_ms), never the window"
)
WEEKDAY_BAD = (
    "SPEC §4.3: the weekday disagrees with the date, so nothing settles → 422, the time inputs"
    " missing (never the sentence's date as the window)"
)
PLACE = "SPEC §4.3: a place without the word zone maps to its IANA zone ({})"
OFFSET = "SPEC §4.3: an offset with minutes is a zone; {} has that offset all year (same numbers)"
FIXED = "SPEC §3: an offset maps to the fixed-offset zone {} (v3 choice 29)"
UNMAPPED = (
    "SPEC §3/§4.3: a zone cue that cannot be mapped settles nothing → 422 (v3 choices 30–31: a"
    " 时区： value maps like a sentence; an unmappable cue is 422, not a 400)"
)
NO_WINDOW = "SPEC §3/§4.3: a clock or zone sentence never becomes the window; no time cue → 422"
KEY_OFFSET = (
    "spec-silent: a timezone: key holding an offset maps like the sentence (v3 choice 30), not a"
    " 400 for a non-IANA name"
)
FIELD = "SPEC §3: the request's {} beats the sentence"
CONTEXT_TIME = (
    "SPEC §3: the rest of free-text context is read for time like the query; 昨天 is relative"
    " to the sentence's clock"
)

Text = tuple[str, str]  # the query and the additional_context


def _dated(
    category: str, text: Text, spec: Spec, on: tuple[str, str], note: str, *, send_tz: bool = True
) -> ContextCase:
    """A date-only clock sentence (no now_ms sent): the window must not depend on the time of
    day, which `_on_day` checks."""
    clock = _on_day(*on, spec)
    return _case(category, text, ok(SALES, spec), note, clock, send_now=False, send_tz=send_tz)


def _clock_weekday() -> list[ContextCase]:
    """An agreeing weekday beside the date; the request sends its timezone, no now_ms."""
    mar31 = "2025-03-31"  # a Monday
    rows: list[tuple[str, str, Spec, str, str]] = [
        ("昨天的销售额", "今天是2025年3月31日星期一", YESTERDAY, mar31, "issue 28: 3/30"),
        ("上周的订单", "今天是2025年3月31日星期一", LAST_WEEK, mar31, "issue 28: 3/24–3/30"),
        ("上周的订单", "今天是2025年3月31日，星期一", LAST_WEEK, mar31, "a comma before it"),
        ("昨天的客流", "今天是2025年3月31日（星期一）", YESTERDAY, mar31, "in brackets"),
        ("上个月的销量", "今天是2025年3月31日周一", LAST_MONTH, mar31, "周一"),
        ("昨天的订单", "今天是2025年3月31日 礼拜一", YESTERDAY, mar31, "礼拜一"),
        ("上週的訂單", "今天是2025年3月31日星期一", LAST_WEEK, mar31, "traditional query"),
        ("yesterday's sales", "today is Monday, March 31, 2025", YESTERDAY, mar31, "issue 28"),
        ("sales last week", "today is Monday, March 31, 2025", LAST_WEEK, mar31, "issue 28"),
        (
            "last month revenue",
            "Today is Monday, March 31, 2025.",
            LAST_MONTH,
            mar31,
            "a full stop",
        ),
        ("orders yesterday", "today is Mon, 2025-03-31", YESTERDAY, mar31, "Mon, ISO date"),
        (
            "去年同月的销量",
            "今天是2024年2月29日星期四",
            whole(last("month", 12)),
            "2024-02-29",
            "a leap day; February 2023",
        ),
        ("上周的订单", "今天是2026年1月1日星期四", LAST_WEEK, "2026-01-01", "across the year end"),
        (
            "last week's orders",
            "today is Thursday, January 1, 2026",
            LAST_WEEK,
            "2026-01-01",
            "across the year end",
        ),
        ("药品销售额", "今天是2025年3月31日星期一，查昨天的", YESTERDAY, mar31, CONTEXT_TIME),
        (
            "drug sales",
            "today is Monday, March 31, 2025; show yesterday",
            YESTERDAY,
            mar31,
            CONTEXT_TIME,
        ),
        (
            "药品销售额",
            "今天是2025年3月31日星期一；时间范围：上周",
            LAST_WEEK,
            mar31,
            "the window from the 时间范围 key, relative to the sentence's clock",
        ),
    ]
    return [
        _dated("clock_weekday", (q, c), spec, (on, SHANGHAI), f"{WEEKDAY_OK}; {note}")
        for q, c, spec, on, note in rows
    ]


def _weekday_disagrees() -> list[ContextCase]:
    """A weekday that disagrees with its date; no now_ms is sent."""
    rows: list[tuple[str, str, str, str]] = [
        ("昨天的销售额", "今天是2025年3月31日星期二", "2025-03-31", "3/31/2025 is a Monday"),
        ("上周的订单", "今天是2025年3月31日，星期日", "2025-03-31", "3/31/2025 is a Monday"),
        ("yesterday's sales", "today is Tuesday, March 31, 2025", "2025-03-31", "a Monday"),
        ("sales last week", "today is Sunday, March 31, 2025", "2025-03-31", "a Monday"),
        ("上个月的销量", "今天是2024年2月29日星期五", "2024-02-29", "2/29/2024 is a Thursday"),
        ("药品销售额", "今天是2025年3月31日星期二，查昨天的", "2025-03-31", "a Monday"),
        ("orders yesterday", "today is Wed, 2025-03-31", "2025-03-31", "a Monday"),
    ]
    return [
        _case(
            "weekday_disagrees",
            (q, c),
            missing(SALES, TIME_MISSING),
            f"{WEEKDAY_BAD}; {why}",
            _on_day(on, SHANGHAI),
            send_now=False,
            send_tz=True,
        )
        for q, c, on, why in rows
    ]


def _place_zone() -> list[ContextCase]:
    """A place without the word zone; the request sends now_ms and no timezone."""
    rows: list[tuple[str, str, Spec, Clock, str, str]] = [
        ("上个月的销售额", "用户在纽约", LAST_MONTH, DEC1, NEW_YORK, "still November there"),
        ("sales last month", "the user is in New York", LAST_MONTH, DEC1, NEW_YORK, "November"),
        ("上个月的订单", "我在东京", LAST_MONTH, NOV30, TOKYO, "already December there"),
        ("昨天的订单", "我在东京", YESTERDAY, NOV, TOKYO, ""),
        ("yesterday's orders", "I'm in Tokyo", YESTERDAY, NOV30, TOKYO, "already 12-01 there"),
        ("昨天的客流", "用户在柏林", YESTERDAY, NOV, "Europe/Berlin", "still 11-13 02:12 there"),
        ("昨天的订单", "用户在伦敦", YESTERDAY, UTC_EVE, "Europe/London", ""),
        ("last week's orders", "the user is in Berlin", LAST_WEEK, NOV, "Europe/Berlin", ""),
        ("上个月的订单", "用户位于纽约", LAST_MONTH, DEC1, NEW_YORK, "位于"),
        ("上个月的销量", "我在洛杉矶", LAST_MONTH, DEC1, "America/Los_Angeles", ""),
        ("上個月的銷售額", "用戶在紐約", LAST_MONTH, DEC1, NEW_YORK, "traditional"),
        (
            "sales yesterday",
            "the user is based in London",
            YESTERDAY,
            UTC_EVE,
            "Europe/London",
            "based in",
        ),
    ]
    out = []
    for q, c, spec, now, tz, why in rows:
        note = PLACE.format(tz) + (f"; {why}" if why else "")
        moved = _moved(now, tz)
        out.append(
            _case("place_zone", (q, c), ok(SALES, spec), note, moved, send_now=True, send_tz=False)
        )
    return out


def _offset_zone() -> list[ContextCase]:
    """Offsets (with minutes); the request sends now_ms and no timezone."""
    rows: list[tuple[str, str, Spec, Clock, str, str]] = [
        ("昨天的订单", "UTC+05:30", YESTERDAY, UTC_EVE, KOLKATA, OFFSET.format(KOLKATA)),
        (
            "yesterday's sales",
            "timezone: UTC+05:30",
            YESTERDAY,
            UTC_EVE,
            KOLKATA,
            OFFSET.format(KOLKATA) + "; " + KEY_OFFSET,
        ),
        ("昨天的销量", "时区：GMT+5:45", YESTERDAY, UTC_EVE, KATHMANDU, OFFSET.format(KATHMANDU)),
        ("yesterday's orders", "GMT+5:45", YESTERDAY, UTC_EVE, KATHMANDU, OFFSET.format(KATHMANDU)),
        (
            "sales yesterday",
            "timezone is UTC+8",
            YESTERDAY,
            UTC_EVE,
            "Etc/GMT-8",
            FIXED.format("Etc/GMT-8"),
        ),
        (
            "上个月的销量",
            "用户时区为UTC+08:00",
            LAST_MONTH,
            UTC_NOV30,
            "Etc/GMT-8",
            FIXED.format("Etc/GMT-8") + "; already December at +08:00",
        ),
        ("昨天的订单", "用户在UTC+05:30时区", YESTERDAY, UTC_EVE, KOLKATA, OFFSET.format(KOLKATA)),
        (
            "last week's orders",
            "timezone is UTC-3",
            LAST_WEEK,
            NOV,
            "Etc/GMT+3",
            FIXED.format("Etc/GMT+3"),
        ),
        ("上周的订单", "时区：UTC+9", LAST_WEEK, NOV, "Etc/GMT-9", FIXED.format("Etc/GMT-9")),
    ]
    return [
        _case(
            "offset_zone",
            (q, c),
            ok(SALES, spec),
            note,
            _moved(now, tz),
            send_now=True,
            send_tz=False,
        )
        for q, c, spec, now, tz, note in rows
    ]


def _zone_unmapped() -> list[ContextCase]:
    """An offset no zone has; the request sends now_ms and no timezone."""
    rows = [
        ("上个月的销售额", "时区：UTC+25", "no offset +25"),
        ("yesterday's sales", "timezone is UTC+05:75", "no minute 75"),
        ("昨天的订单", "用户在GMT+14:30时区", "no offset +14:30"),
    ]
    return [
        _case(
            "zone_unmapped",
            (q, c),
            missing(SALES, TIME_MISSING),
            f"{UNMAPPED}; {why}",
            NOV,
            send_now=True,
            send_tz=False,
        )
        for q, c, why in rows
    ]


def _field_beats() -> list[ContextCase]:
    """A request field beats the sentence."""
    return [
        _case(
            "field_beats",
            ("昨天的订单", "用户在纽约"),
            ok(SALES, YESTERDAY),
            FIELD.format("timezone"),
            NOV,
            send_now=True,
            send_tz=True,
        ),
        _case(
            "field_beats",
            ("yesterday's orders", "today is Monday, March 31, 2025"),
            ok(SALES, YESTERDAY),
            FIELD.format("now_ms") + "; the weekday agrees, so the sentence is valid",
            NOV,
            send_now=True,
            send_tz=True,
        ),
        _case(
            "field_beats",
            ("上周的订单", "今天是2025年3月31日星期一，我在东京"),
            ok(SALES, LAST_WEEK),
            FIELD.format("now_ms and timezone"),
            NOV,
            send_now=True,
            send_tz=True,
        ),
        _case(
            "field_beats",
            ("sales last month", "the user is in New York"),
            ok(SALES, LAST_MONTH),
            FIELD.format("timezone") + "; 2025-12-01 in Shanghai → November",
            DEC1,
            send_now=True,
            send_tz=True,
        ),
    ]


def _no_window() -> list[ContextCase]:
    """The sentences set the clock or the zone, never the window."""
    mar31 = _on_day("2025-03-31", SHANGHAI)
    rows: list[tuple[str, str, Clock, bool, bool]] = [
        ("药品销售额", "今天是2025年3月31日星期一", mar31, False, True),
        ("drug sales", "today is Monday, March 31, 2025", mar31, False, True),
        ("药品销售额", "用户在纽约", _moved(NOV, NEW_YORK), True, False),
        ("drug sales", "the user is in New York", _moved(NOV, NEW_YORK), True, False),
        ("药品销售额", "UTC+05:30", _moved(NOV, KOLKATA), True, False),
        ("drug sales", "GMT+5:45", _moved(NOV, KATHMANDU), True, False),
    ]
    out = [
        _case(
            "no_window",
            (q, c),
            missing(SALES, TIME_MISSING),
            NO_WINDOW,
            clock,
            send_now=send_now,
            send_tz=send_tz,
        )
        for q, c, clock, send_now, send_tz in rows
    ]
    out.append(
        _dated(
            "no_window",
            ("2024年3月的销量", "今天是2025年3月31日星期一"),
            whole(month(2024, 3)),
            ("2025-03-31", SHANGHAI),
            "the query's window, never the sentence's date",
        )
    )
    out.append(
        _case(
            "no_window",
            ("当前库存", "今天是2025年3月31日星期一"),
            ok(SALES, instant),
            "the query's instant word; the sentence only sets now",
            mar31,
            send_now=False,
            send_tz=True,
        )
    )
    return out


def _clock_and_place() -> list[ContextCase]:
    """Both sentences and neither field: the date is read in the place's zone."""
    rows: list[tuple[str, str, Spec, str, str, str]] = [
        (
            "昨天的订单",
            "今天是2025年3月31日星期一，用户在纽约",
            YESTERDAY,
            "2025-03-31",
            NEW_YORK,
            "",
        ),
        (
            "last week's orders",
            "today is Monday, March 31, 2025; the user is in New York",
            LAST_WEEK,
            "2025-03-31",
            NEW_YORK,
            "",
        ),
        (
            "上个月的订单",
            "今天是2025年12月1日星期一，我在东京",
            LAST_MONTH,
            "2025-12-01",
            TOKYO,
            "",
        ),
        (
            "yesterday's sales",
            "today is Monday, March 31, 2025, timezone UTC+05:30",
            YESTERDAY,
            "2025-03-31",
            KOLKATA,
            OFFSET.format(KOLKATA),
        ),
    ]
    return [
        _dated(
            "clock_and_place",
            (q, c),
            spec,
            (on, tz),
            f"{WEEKDAY_OK}; {why or PLACE.format(tz)}",
            send_tz=False,
        )
        for q, c, spec, on, tz, why in rows
    ]


def context_cases_v4() -> list[ContextCase]:
    """Every case of context_gold_v4.jsonl, in file order."""
    return (
        _clock_weekday()
        + _weekday_disagrees()
        + _place_zone()
        + _offset_zone()
        + _zone_unmapped()
        + _field_beats()
        + _no_window()
        + _clock_and_place()
    )


def context_rows_v4() -> list[Params]:
    """The JSON objects, numbered in file order (`ctx4-001`)."""
    return [
        {**case.row(n), "id": f"ctx4-{n:03d}"} for n, case in enumerate(context_cases_v4(), start=1)
    ]
