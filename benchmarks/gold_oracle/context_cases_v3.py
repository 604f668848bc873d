"""The cases of context_gold_v3.jsonl: SPEC §3's clock and zone sentences, end to end.

Each line is one `POST /v1/dynamic-params` in rules-only mode, in the format of
context_gold.jsonl. A sentence that states the clock (`今天是2025年11月13日`, `today is
2025-11-13`) or the zone (`用户在纽约时区`, `timezone is UTC+8`) sets `now` / `timezone` when the
request has no `now_ms` / `timezone` field, and never the window. A request field beats the
sentence. A zone cue that cannot be mapped settles nothing (SPEC §3, §4.2).

A sentence that gives a date and no time of day leaves the time of day open, so every such row
uses a query whose window is the same at any time of that day; `_on_day` checks this.
"""

from __future__ import annotations

from datetime import datetime, time, timedelta
from zoneinfo import ZoneInfo

from benchmarks.gold_oracle.answers import Params, Spec, first_n, instant, rolling, since, whole
from benchmarks.gold_oracle.context_cases import (
    SALES,
    TIME_MISSING,
    ContextCase,
    Expect,
    missing,
    ok,
)
from benchmarks.gold_oracle.periods import (
    EPOCH,
    ONE_MS,
    Clock,
    bare_month,
    following,
    last,
    this,
    weekday,
)
from benchmarks.gold_oracle.time_cases import BER_JUL, NOV, NY_NOV, SHANGHAI, is_chinese

NEW_YORK = "America/New_York"
BERLIN = "Europe/Berlin"

# spec-silent: how a zone named by a city or an offset maps to IANA (README_gold.md lists it).
# Cities map to their IANA zone; an offset maps to the fixed-offset Etc zone (sign inverted).
CITY = {
    "纽约": NEW_YORK,
    "New York": NEW_YORK,
    "柏林": BERLIN,
    "Berlin": BERLIN,
    "东京": "Asia/Tokyo",
    "伦敦": "Europe/London",
    "London": "Europe/London",
    "洛杉矶": "America/Los_Angeles",
    "悉尼": "Australia/Sydney",
    "北京时间": SHANGHAI,
}
OFFSET = {"UTC+8": "Etc/GMT-8", "东八区": "Etc/GMT-8", "UTC-5": "Etc/GMT+5", "GMT+1": "Etc/GMT-1"}

CITY_NOTE = "spec-silent: a city maps to its IANA zone ({})"
OFFSET_NOTE = "spec-silent: an offset maps to the fixed-offset zone {} (Etc signs are inverted)"
NO_WINDOW = "SPEC §3: a clock or zone sentence never sets the window; no time cue → 422"
UNMAPPED = (
    "spec-silent: a zone cue that cannot be mapped settles nothing (SPEC §3), so the time inputs"
    " stay missing → 422 (a `timezone=` key that is not IANA stays a 400, as in v2's ctx-069)"
)
KEY_FORM = (
    "spec-silent: a 时区： value that names a city or an offset maps like a sentence"
    " (SPEC §3 counts 时区：America/New_York among the sentences)"
)
FIELD_NOW = "SPEC §3: the request's now_ms beats the clock sentence"
FIELD_TZ = "SPEC §3: the request's timezone beats the zone sentence"

Text = tuple[str, str]  # the query and the additional_context
Day = tuple[str, str, bool]  # a date-only sentence's day, the zone it is read in, send timezone?


def _moved(clock: Clock, tz: str) -> Clock:
    """The same instant seen from another zone."""
    return Clock(clock.now_ms, ZoneInfo(tz))


def _on_day(day: str, tz: str, spec: Spec | None = None) -> Clock:
    """The clock of a date-only sentence: that day's midnight in `tz`; with `spec`, check that
    the window is the same at the day's first and last millisecond."""
    clock = Clock.at(f"{day}T00:00:00", tz)
    if spec is not None:
        late = datetime.combine(clock.today, time()) + timedelta(days=1) - ONE_MS
        late_ms = (late.replace(tzinfo=clock.tz) - EPOCH) // ONE_MS
        assert spec(clock).params == spec(Clock(late_ms, clock.tz)).params, day
    return clock


def _dated(category: str, text: Text, spec: Spec, on: Day, note: str) -> ContextCase:
    """A date-only clock sentence (no now_ms sent); `on` says whether the timezone is sent."""
    day, tz, send_tz = on
    clock = _on_day(day, tz, spec)
    return _case(category, text, ok(SALES, spec), note, clock, send_now=False, send_tz=send_tz)


def _case(
    category: str,
    text: Text,
    expected: Expect,
    note: str,
    clock: Clock,
    *,
    send_now: bool,
    send_tz: bool,
) -> ContextCase:
    """One case; `clock` is the clock the service must end up using."""
    query, context = text
    lang = "zh" if is_chinese(query) else "en"
    return ContextCase(
        category, lang, query, context, clock, [SALES], expected, note, send_now, send_tz
    )


LAST_MONTH, LAST_WEEK, YESTERDAY = whole(last("month")), whole(last("week")), whole(last("day"))
CLOCK = "SPEC §3: the clock sentence sets now (the request has no now_ms)"
ZONE = "SPEC §3: the zone sentence sets the timezone (the request has none)"
DEC1 = Clock.at("2025-12-01T02:00:00", SHANGHAI)  # still 2025-11-30 in New York


def _clock_sentences() -> list[ContextCase]:
    """The request sends its timezone and no now_ms; the sentence sets now."""
    nov13: Day = ("2025-11-13", SHANGHAI, True)
    dated: list[tuple[str, str, Spec, Day, str]] = [
        ("上个月的销售额", "今天是2025年11月13日", LAST_MONTH, nov13, ""),
        ("上个月的销售额", "当前日期为2025-11-13", LAST_MONTH, nov13, ""),
        ("sales last month", "today is 2025-11-13", LAST_MONTH, nov13, ""),
        ("sales last month", "the current date is Nov 13, 2025", LAST_MONTH, nov13, ""),
        (
            "去年的订单",
            "今天是2024年2月29日",
            whole(last("year")),
            ("2024-02-29", SHANGHAI, True),
            "a leap day",
        ),
        (
            "上周的订单",
            "今天是2026年1月1日",
            LAST_WEEK,
            ("2026-01-01", SHANGHAI, True),
            "last week spans the year end",
        ),
        (
            "昨天的客流",
            "当前日期为2024-03-01",
            YESTERDAY,
            ("2024-03-01", SHANGHAI, True),
            "yesterday is the leap day",
        ),
        (
            "last quarter revenue",
            "today is 2025-01-03",
            whole(last("quarter")),
            ("2025-01-03", "UTC", True),
            "UTC",
        ),
        (
            "orders last week",
            "the current date is Mar 11, 2025",
            LAST_WEEK,
            ("2025-03-11", NEW_YORK, True),
            "New York, the week DST began",
        ),
        (
            "下个月的排班",
            "今天是2025年1月31日",
            whole(following("month")),
            ("2025-01-31", SHANGHAI, True),
            "SPEC §4.2 future row",
        ),
        (
            "上上个月的营收",
            "当前日期为2025-01-03",
            whole(last("month", 2)),
            ("2025-01-03", SHANGHAI, True),
            "SPEC §4.2 上上个月",
        ),
        (
            "前三季度的营收",
            "今天是2025年11月13日",
            first_n(3, "quarter"),
            nov13,
            "前三季度 of the sentence's year",
        ),
        (
            "3月的销量",
            "今天是2025年2月10日",
            whole(bare_month(3)),
            ("2025-02-10", SHANGHAI, True),
            "March 2025 has not started at that date → March 2024",
        ),
        (
            "周五的订单",
            "今天是2025年11月13日",
            whole(weekday(4)),
            nov13,
            "a Thursday: Friday not started → last week's",
        ),
        (
            "yesterday's signups",
            "today is 2025-03-10",
            YESTERDAY,
            ("2025-03-10", NEW_YORK, True),
            "yesterday (03-09) has 23 hours",
        ),
    ]
    out = [
        _dated("clock_sentence", (q, c), spec, on, f"{CLOCK}; {note}" if note else CLOCK)
        for q, c, spec, on, note in dated
    ]
    timed: list[tuple[str, str, Spec, str, str]] = [
        (
            "最近7天的销售额",
            "现在是2025-11-13 10:00",
            rolling(7, "day"),
            "2025-11-13T10:00:00",
            "a datetime: now = 10:00 local",
        ),
        (
            "本月的销量",
            "现在是2024-03-31 20:00",
            since(this("month")),
            "2024-03-31T20:00:00",
            "本月 runs to now, so the sentence gives the time of day",
        ),
        (
            "最近3个月的订单",
            "现在是2025-11-13 10:00",
            rolling(3, "month"),
            "2025-11-13T10:00:00",
            "a datetime",
        ),
    ]
    for q, c, spec, local, note in timed:
        clock = Clock.at(local, SHANGHAI)
        out.append(
            _case(
                "clock_sentence",
                (q, c),
                ok(SALES, spec),
                f"{CLOCK}; {note}",
                clock,
                send_now=False,
                send_tz=True,
            )
        )
    return out


def _zone_sentences() -> list[ContextCase]:
    """The request sends now_ms and no timezone; the sentence sets the zone."""
    ny = CITY_NOTE.format("纽约 → America/New_York")
    rows: list[tuple[str, str, Spec, Clock, str, str]] = [
        ("上个月的销售额", "时区：America/New_York", LAST_MONTH, NOV, NEW_YORK, ZONE),
        ("上个月的销售额", "用户在纽约时区", LAST_MONTH, NOV, NEW_YORK, ny),
        ("上个月的销售额", "用户所在时区是纽约", LAST_MONTH, NOV, NEW_YORK, ny),
        (
            "上个月的销售额",
            "用户在纽约时区",
            LAST_MONTH,
            DEC1,
            NEW_YORK,
            ny + "; 2025-12-01 02:00 in Shanghai is still November in New York → October",
        ),
        (
            "sales yesterday",
            "timezone is UTC+8",
            YESTERDAY,
            NY_NOV,
            "Etc/GMT-8",
            OFFSET_NOTE.format("Etc/GMT-8") + "; the same numbers as Asia/Shanghai",
        ),
        (
            "昨天的订单",
            "用户在柏林时区",
            YESTERDAY,
            NOV,
            BERLIN,
            CITY_NOTE.format("柏林 → Europe/Berlin"),
        ),
        (
            "yesterday's orders",
            "the user's timezone is Berlin",
            YESTERDAY,
            NOV,
            BERLIN,
            CITY_NOTE.format("Berlin → Europe/Berlin"),
        ),
        (
            "上周的订单",
            "用户在东京时区",
            LAST_WEEK,
            NOV,
            "Asia/Tokyo",
            CITY_NOTE.format("东京 → Asia/Tokyo"),
        ),
        ("last month revenue", "timezone is UTC", LAST_MONTH, NOV, "UTC", ZONE),
        (
            "昨天的订单",
            "时区：UTC-5",
            YESTERDAY,
            BER_JUL,
            "Etc/GMT+5",
            OFFSET_NOTE.format("Etc/GMT+5")
            + "; in July that is not New York's −04:00"
            + "; "
            + KEY_FORM,
        ),
        (
            "yesterday's sales",
            "timezone is GMT+1",
            YESTERDAY,
            BER_JUL,
            "Etc/GMT-1",
            OFFSET_NOTE.format("Etc/GMT-1") + "; in July that is not Berlin's +02:00",
        ),
        (
            "上个月的销量",
            "时区：东八区",
            LAST_MONTH,
            DEC1,
            "Etc/GMT-8",
            OFFSET_NOTE.format("Etc/GMT-8") + " (东八区 = UTC+8)" + "; " + KEY_FORM,
        ),
        (
            "上个月的销量",
            "时区为北京时间",
            LAST_MONTH,
            DEC1,
            SHANGHAI,
            CITY_NOTE.format("北京时间 → Asia/Shanghai"),
        ),
        (
            "last week's orders",
            "the user is in the London time zone",
            LAST_WEEK,
            NOV,
            "Europe/London",
            CITY_NOTE.format("London → Europe/London"),
        ),
        (
            "上个月的订单",
            "用户所在时区是洛杉矶",
            LAST_MONTH,
            DEC1,
            "America/Los_Angeles",
            CITY_NOTE.format("洛杉矶 → America/Los_Angeles"),
        ),
        (
            "昨天的销量",
            "时区：悉尼",
            YESTERDAY,
            NOV,
            "Australia/Sydney",
            CITY_NOTE.format("悉尼 → Australia/Sydney") + "; AEDT (+11)" + "; " + KEY_FORM,
        ),
        (
            "本月的销量",
            "用户在纽约时区",
            since(this("month")),
            NOV,
            NEW_YORK,
            ny + "; 本月 starts Nov 1 in New York",
        ),
    ]
    return [
        _case(
            "zone_sentence",
            (q, c),
            ok(SALES, spec),
            note,
            _moved(now, tz),
            send_now=True,
            send_tz=False,
        )
        for q, c, spec, now, tz, note in rows
    ]


def _clock_and_zone() -> list[ContextCase]:
    """Neither field is sent; both sentences are read together."""
    rows: list[tuple[str, str, Spec, Day, str]] = [
        (
            "上个月的订单",
            "今天是2025年12月1日，用户在纽约时区",
            LAST_MONTH,
            ("2025-12-01", NEW_YORK, False),
            "the date is read in the sentence's zone; "
            + CITY_NOTE.format("纽约 → America/New_York"),
        ),
        (
            "last week's orders",
            "today is 2025-03-11; timezone is America/New_York",
            LAST_WEEK,
            ("2025-03-11", NEW_YORK, False),
            "both sentences",
        ),
        (
            "昨天的客流",
            "当前日期为2025-10-27；时区：Europe/Berlin",
            YESTERDAY,
            ("2025-10-27", BERLIN, False),
            "both sentences; yesterday (10-26) has 25 hours",
        ),
        (
            "去年同月的销量",
            "today is 2024-02-29; timezone is UTC+8",
            whole(last("month", 12)),
            ("2024-02-29", "Etc/GMT-8", False),
            "both sentences; " + OFFSET_NOTE.format("Etc/GMT-8"),
        ),
        (
            "上周的销量",
            "今天是2025年1月3日，用户在伦敦时区",
            LAST_WEEK,
            ("2025-01-03", "Europe/London", False),
            "both sentences; " + CITY_NOTE.format("伦敦 → Europe/London"),
        ),
    ]
    out = [_dated("clock_and_zone", (q, c), spec, on, note) for q, c, spec, on, note in rows]
    out.append(
        _case(
            "clock_and_zone",
            ("最近7天的订单", "现在是2025-03-11 10:00，时区：America/New_York"),
            ok(SALES, rolling(7, "day")),
            "both sentences; 7 days back crosses the DST start and keeps 10:00 local",
            Clock.at("2025-03-11T10:00:00", NEW_YORK),
            send_now=False,
            send_tz=False,
        )
    )
    return out


def _zone_unmapped() -> list[ContextCase]:
    """A zone cue nobody can map; the request sends now_ms and no timezone."""
    out = []
    for query, context in (
        ("上个月的销售额", "用户在火星时区"),
        ("sales last month", "the user is in the Mars time zone"),
        ("昨天的订单", "用户所在时区是月球标准时间"),
        ("last week's orders", "timezone is Atlantis"),
        ("yesterday's revenue", "timezone is UTC+15"),
        ("最近3个月的销量", "用户所在时区是中土世界"),
    ):
        note = UNMAPPED + ("; UTC+15 is no offset in use" if "+15" in context else "")
        out.append(
            _case(
                "zone_unmapped",
                (query, context),
                missing(SALES, TIME_MISSING),
                note,
                NOV,
                send_now=True,
                send_tz=False,
            )
        )
    return out


def _field_beats() -> list[ContextCase]:
    """A request field beats the sentence."""
    both = f"{FIELD_NOW}; {FIELD_TZ}"
    rows: list[tuple[str, str, Spec, Clock, bool, str]] = [
        ("上个月的销售额", "今天是2024年6月18日", LAST_MONTH, NOV, True, FIELD_NOW),
        ("sales last month", "today is 2024-06-18", LAST_MONTH, NOV, True, FIELD_NOW),
        ("昨天的订单", "时区：America/New_York", YESTERDAY, NOV, True, FIELD_TZ),
        (
            "yesterday's orders",
            "用户在纽约时区",
            YESTERDAY,
            _moved(NOV, "UTC"),
            True,
            FIELD_TZ + " (UTC)",
        ),
        (
            "最近7天的订单",
            "现在是2024-03-31 20:00，时区：Europe/Berlin",
            rolling(7, "day"),
            NOV,
            True,
            both,
        ),
        (
            "上个月的订单",
            "今天是2024年6月18日，用户在纽约时区",
            LAST_MONTH,
            _moved(DEC1, NEW_YORK),
            False,
            FIELD_NOW + "; the zone sentence still sets the zone (no timezone field)",
        ),
    ]
    out = [
        _case("field_beats", (q, c), ok(SALES, spec), note, clock, send_now=True, send_tz=send_tz)
        for q, c, spec, clock, send_tz, note in rows
    ]
    out.append(
        _dated(
            "field_beats",
            ("上个月的订单", "今天是2025年12月1日，时区：Asia/Tokyo"),
            LAST_MONTH,
            ("2025-12-01", NEW_YORK, True),
            FIELD_TZ + "; the clock sentence still sets now (no now_ms), read in New York",
        )
    )
    return out


def _no_window() -> list[ContextCase]:
    """The sentences set the clock or the zone, never the window."""
    nov13 = _on_day("2025-11-13", SHANGHAI)
    out = [
        _case(
            "no_window",
            (q, c),
            missing(SALES, TIME_MISSING),
            NO_WINDOW + "; 今天/today inside a clock sentence is not the instant word",
            nov13,
            send_now=False,
            send_tz=True,
        )
        for q, c in (
            ("药品销售额", "今天是2025年11月13日"),
            ("drug sales", "today is 2025-11-13"),
            ("药品销售额", "当前日期为2025-11-13"),
            ("drug sales", "the current date is Nov 13, 2025"),
            ("销售额", "现在是2025-11-13 10:00"),
        )
    ]
    out.append(
        _case(
            "no_window",
            ("库存量", "用户在纽约时区"),
            missing(SALES, TIME_MISSING),
            NO_WINDOW,
            _moved(NOV, NEW_YORK),
            send_now=True,
            send_tz=False,
        )
    )
    out.append(
        _case(
            "no_window",
            ("当前库存量", "今天是2025年11月13日"),
            ok(SALES, instant),
            "the query's instant word settles instant; the sentence only sets now",
            nov13,
            send_now=False,
            send_tz=True,
        )
    )
    on: Day = ("2025-11-13", SHANGHAI, True)
    out.append(
        _dated(
            "no_window",
            ("药品销售额", "今天是2025年11月13日；时间范围：上个月"),
            LAST_MONTH,
            on,
            "the window comes from the 时间范围 key, now from the sentence",
        )
    )
    out.append(
        _dated(
            "no_window",
            ("drug sales", "today is 2025-11-13; time range: last month"),
            LAST_MONTH,
            on,
            "the window comes from the time range key, now from the sentence",
        )
    )
    return out


def context_cases_v3() -> list[ContextCase]:
    """Every case of context_gold_v3.jsonl, in file order."""
    return (
        _clock_sentences()
        + _zone_sentences()
        + _clock_and_zone()
        + _zone_unmapped()
        + _field_beats()
        + _no_window()
    )


def context_rows_v3() -> list[Params]:
    """The JSON objects, numbered in file order (`ctx3-001`)."""
    return [
        {**case.row(n), "id": f"ctx3-{n:03d}"} for n, case in enumerate(context_cases_v3(), start=1)
    ]
