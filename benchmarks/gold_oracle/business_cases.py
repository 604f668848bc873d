"""The cases of business_gold.jsonl: SPEC §9.1 (fiscal calendars, comparison baselines, the
`query_metric` shape) and §4.1's revised festival row (official holiday runs), one row per
`POST /v1/time-window` request. Written blind to the engine: nothing under `resolver/` or
`tests/` was read or run.

Also the small `business_metric_path.jsonl` (the v2 row format, for `/v1/dynamic-params`):
§9.1 "the metric path of §4 is unchanged" — comparison words keep one window, two named
windows settle nothing.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from benchmarks.gold_oracle.answers import Params, nothing, rolling, since, span, whole
from benchmarks.gold_oracle.business import (
    Expect,
    Fiscal,
    Kind,
    Rolling,
    ToDate,
    Whole,
    bad,
    bare_official_holiday,
    compare,
    official_holiday,
    unsettled,
    window,
)
from benchmarks.gold_oracle.context_cases import SALES, TIME_MISSING, ContextCase, missing, ok
from benchmarks.gold_oracle.context_cases import Expect as ContextExpect
from benchmarks.gold_oracle.periods import (
    Clock,
    bare_month,
    bare_quarter,
    half_year,
    last,
    month,
    quarter,
    this,
    year,
)
from benchmarks.gold_oracle.time_cases import (
    DEC31,
    DEC_UTC,
    JAN20,
    JUN24,
    LEAP,
    MAR31,
    NEW_YORK,
    NEWYEAR,
    NOV,
    NY_DST,
    NY_NOV,
    OCT24,
    SHANGHAI,
    UTC_MAY,
    TimeCase,
    is_chinese,
)

BERLIN = "Europe/Berlin"
NOV_NY = Clock.at("2025-11-12T20:00:00", NEW_YORK)  # Wed; the same moment as NOV, 11 minutes on
MAR31_25 = Clock.at("2025-03-31T23:30:00", SHANGHAI)  # Mon; 30 min before an 04-01 fiscal start
APR1_25 = Clock.at("2025-04-01T00:30:00", SHANGHAI)  # Tue; 30 min after it
SEP30_NY = Clock.at("2025-09-30T23:00:00", NEW_YORK)  # Tue; 1 h before a 10-01 start (EDT)
OCT1_NY = Clock.at("2025-10-01T01:00:00", NEW_YORK)  # Wed; 1 h after it
JUN30_BER = Clock.at("2025-06-30T23:45:00", BERLIN)  # Mon; 15 min before a 07-01 start (CEST)
JUL1_BER = Clock.at("2025-07-01T00:15:00", BERLIN)  # Tue; 15 min after it
FEB14_25 = Clock.at("2025-02-14T23:00:00", SHANGHAI)  # Fri; 1 h before a 02-15 start
FEB15_25 = Clock.at("2025-02-15T00:30:00", SHANGHAI)  # Sat; 30 min after it
MAR31_UTC = Clock.at("2025-03-31T20:00:00", "UTC")  # Mon; month end after a 28-day February
MAY31 = Clock.at("2025-05-31T10:00:00", SHANGHAI)  # Sat; month end after a 30-day April
SPRING25 = Clock.at("2025-01-28T10:00:00", SHANGHAI)  # Tue; the first day of the 2025 春节 run

ENV_START = "RESOLVER_FISCAL_YEAR_START"
ENV_NAMED = "RESOLVER_FISCAL_YEAR_NAMED_BY"

# The SPEC sentences the notes cite.
S_FISCAL = (
    "SPEC §9.1: 'The window is that fiscal period; step as for the calendar unit (a fiscal"
    " quarter steps by quarter)'"
)
S_NAMED = (
    'SPEC §9.1: fiscal_year_named_by "end" default, as FY2025 = Oct 2024 – Sep 2025 with an'
    ' October start; or "start", as Japan\'s FY2025 = Apr 2025 – Mar 2026'
)
S_THIS = (
    "spec-silent: 本财年/this fiscal year/本财季 read like §4's 今年/本季度 (start of period"
    " .. now)"
)
S_TODATE = "SPEC §9.1 fiscal year to date/财年至今/本财年以来; §4: start of period .. now"
S_BARE = (
    "spec-silent: a fiscal quarter/half with no year follows the bare-month rule: this fiscal"
    " year's if it has started, else last fiscal year's"
)
S_FIRST_N = (
    "SPEC §9.1 财年前三季度; §4.1 前N季度: start of the year .. end of its Nth unit, step unit"
)
S_QUARTERS = (
    "spec-silent: fiscal quarters are the 3-month runs from the start day, halves the 6-month"
    " runs; a fiscal half steps by month (§4: 半年 = 6 months, step month)"
)
S_EN_FORM = "spec-silent: the English form of a family §9.1 lists in Chinese only"
S_FY_WORDS = (
    "spec-silent: 'fiscal year 2025' read like FY2025 (issue 31 names it among the phrases)"
)
S_PRECEDENCE = "SPEC §9.1: 'Precedence as for the clock: request > context > environment'"
S_PER_FIELD = (
    "spec-silent: precedence applies field by field (the start from one source, the naming from"
    " another)"
)
S_CONTEXT_NAMED = (
    "spec-silent: a context `fiscal_year_named_by=start` pair is read like"
    " `fiscal_year_start=04-01`"
)
S_NO_CONFIG = (
    "SPEC §9.1: 'With no fiscal start configured anywhere, a fiscal phrase settles nothing and"
    " the ask names it'"
)
S_NOT_DATE = (
    "issue 31: 'a fiscal start that is not a date (02-30 → 400 naming the field)'; spec-silent:"
    ' only the exact "MM-DD" spelling (two digits each, a real day of a leap year) is a date'
)
S_BAD_NAMED = 'spec-silent: fiscal_year_named_by other than "end"/"start" is 400 naming the field'
S_CALENDAR = (
    "a fiscal start changes only fiscal phrases: §4 calendar units (quarter Jan/Apr/Jul/Oct, year)"
    " stay calendar"
)
S_YOY = (
    "SPEC §9.1 year_over_year: 'the main window one year earlier, day for day; a calendar unit"
    " maps to the same unit a year back'"
)
S_YOY_MTD = "SPEC §9.1: '本月 MTD compares with the same days of that month last year'"
S_POP = (
    "SPEC §9.1 period_over_period: 'the window of the same length immediately before; a calendar"
    " unit maps to the previous unit'"
)
S_POP_MTD = "SPEC §9.1: 'MTD to the same days of the previous month, clipped to its length'"
S_TODATE_END = (
    "spec-silent: a to-date baseline ends at now moved back one period (or year) on the wall"
    " clock, keeping the time of day, the day clamped to the month's last"
)
S_ROLL_POP = (
    "issue 31: 'rolling windows shift by their length'; spec-silent: the baseline ends 1 ms"
    " before the main window starts"
)
S_ROLL_YOY = "spec-silent: both ends of a rolling window move one year back on the wall clock"
S_WEEK_YOY = (
    "spec-silent: a week year over year is the ISO week with the same number in the previous ISO"
    " week-year"
)
S_EXPLICIT = "SPEC §9.1 explicit: 'two named periods … — the first named is main'"
S_CMP_WORD = "spec-silent: 较上月 is period_over_period, 较去年 year_over_year"
S_CLIP_FEB = "month-end clipping: Feb has 28/29 days"
S_CMP_ALONE = (
    "SPEC §9.1: 'A comparison word with no period to compare (环比 alone) settles nothing'"
)
S_THREE = "issue 31 'No wrong 200': three periods in one comparison settle nothing"
S_HOLIDAY = (
    "SPEC §4.1 festival row (revised): the official public holiday of that year as the State"
    " Council published it"
)
S_FIXED = (
    "SPEC §4.1: 'for a year the library does not know, the fixed rule … and a warning' — a"
    " warning is expected in the answer"
)
S_HOLIDAY_SINCE = "SPEC §4.1: 'They work inside since/range' (2025年双十一以来 → day 00:00 .. now)"
S_BARE_HOLIDAY = "SPEC §4.1: bare festival → this year's if started, else last year's"
S_SHAPE = (
    "SPEC §9.1 shape query_metric: adds query_metric_time; only the window numbers are expected"
    " here (the shape is validated against the platform's schema separately)"
)
S_METRIC = (
    "SPEC §9.1: 'The metric path of §4 is unchanged (one window; comparison words do not change"
    " it; two named windows settle nothing there)'"
)


@dataclass(frozen=True, slots=True)
class BusinessCase:
    """One `POST /v1/time-window` request and its expected answer."""

    category: str
    text: str
    clock: Clock
    expect: Expect
    note: str
    fields: dict[str, Any] = field(default_factory=dict)
    env: dict[str, str] | None = None

    @property
    def lang(self) -> str:
        """zh when the text holds Chinese, else en."""
        return "zh" if is_chinese(self.text) else "en"

    def row(self, number: int) -> Params:
        """The JSON object of this case."""
        outcome = self.expect(self.clock)
        request: Params = {
            "text": self.text,
            "now_ms": self.clock.now_ms,
            "timezone": self.clock.tz_name,
        }
        for key in ("context", "fiscal_year_start", "fiscal_year_named_by", "shape"):
            if key in self.fields:
                request[key] = self.fields[key]
        row: Params = {
            "id": f"biz-{self.lang}-{self.category}-{number:03d}",
            "category": self.category,
            "lang": self.lang,
            "request": request,
            "expected": outcome.expected,
            "note": f"{outcome.expr}; now={self.clock.describe()}; {self.note}",
        }
        if self.env is not None:
            row["env"] = self.env
        return row


class Adder:
    """Adds the rows of one category."""

    def __init__(self, into: list[BusinessCase], category: str) -> None:
        self._into = into
        self._category = category

    def __call__(
        self,
        text: str,
        clock: Clock,
        expect: Expect,
        note: str,
        *,
        env: dict[str, str] | None = None,
        **fields: Any,
    ) -> None:
        """One case; `fields` are the request's optional fields."""
        self._into.append(BusinessCase(self._category, text, clock, expect, note, fields, env))


def _request_fiscal(fiscal: Fiscal, explicit_end: bool) -> Params:
    fields: Params = {"fiscal_year_start": fiscal.start}
    if fiscal.named_by == "start" or explicit_end:
        fields["fiscal_year_named_by"] = fiscal.named_by
    return fields


T = TypeVar("T")
ORDINAL_ZH = {1: "一", 2: "二", 3: "三", 4: "四"}


@dataclass(frozen=True, slots=True)
class Combo:
    """One fiscal calendar of the grid and the clocks its rows use."""

    fiscal: Fiscal
    zh_clock: Clock
    en_clock: Clock
    explicit_end: bool = False


GRID: list[Combo] = [
    Combo(Fiscal("01-01", "end"), NOV, NOV_NY),
    Combo(Fiscal("01-01", "start"), JUN24, NY_NOV),
    Combo(Fiscal("04-01", "end"), NOV, NOV_NY),
    Combo(Fiscal("04-01", "start"), JAN20, NY_DST),
    Combo(Fiscal("07-01", "end"), NOV, NOV_NY, explicit_end=True),
    Combo(Fiscal("07-01", "start"), MAR31, NY_NOV),
    Combo(Fiscal("10-01", "end"), NOV, NOV_NY),
    Combo(Fiscal("10-01", "start"), OCT24, NY_DST),
    Combo(Fiscal("02-15", "end"), NOV, NOV_NY, explicit_end=True),
    Combo(Fiscal("02-15", "start"), DEC_UTC, NY_NOV),
]


def _pick(options: list[T], i: int, count: int) -> list[T]:
    """`count` of `options`, rotating with the grid index so every one appears."""
    return [options[(i + k) % len(options)] for k in range(count)]


def _fiscal_grid(add: Adder) -> None:
    """Every phrase family of §9.1 in both languages for each fiscal calendar of the grid.

    Within a family the spellings rotate over the ten calendars, so each spelling appears with
    several calendars and both namings.
    """
    for i, combo in enumerate(GRID):
        fy, zc, ec = combo.fiscal, combo.zh_clock, combo.en_clock
        req = _request_fiscal(fy, combo.explicit_end)
        tag = f"fiscal {fy.start} named by {fy.named_by}; {S_NAMED}"
        quarters = f"{S_QUARTERS}; {tag}"
        zh_fy = fy.name_of(fy.fy_holding(zc.today))
        en_fy = fy.name_of(fy.fy_holding(ec.today))
        q, zq, eq = i % 4 + 1, (i + 1) % 4 + 1, (i + 2) % 4 + 1
        # 本财年/上财年/下财年/上上财年, this/last/next fiscal year
        zh_relative: list[tuple[str, Expect, str]] = [
            ("本财年的营收", window(since(fy.fy(0))), S_THIS),
            ("上财年的利润", window(whole(fy.fy(1))), S_FISCAL),
            ("下财年的预算", window(whole(fy.fy(-1))), f"{S_FISCAL}; a named period is whole"),
            ("上上财年的销售额", window(whole(fy.fy(2))), S_FISCAL),
        ]
        for text, expect, note in _pick(zh_relative, i, 3):
            add(text, zc, expect, f"{note}; {tag}", **req)
        en_relative: list[tuple[str, Expect, str]] = [
            ("revenue this fiscal year", window(since(fy.fy(0))), S_THIS),
            ("last fiscal year revenue", window(whole(fy.fy(1))), S_FISCAL),
            (
                "next fiscal year budget",
                window(whole(fy.fy(-1))),
                f"{S_FISCAL}; a named period is whole",
            ),
        ]
        for text, expect, note in _pick(en_relative, i, 2):
            add(text, ec, expect, f"{note}; {tag}", **req)
        # FY2025/FY25/FY 2025/2025财年/财年2025
        zh_named: list[Callable[[int], str]] = [
            lambda y: f"FY{y}的营收",
            lambda y: f"{y}财年的营收",
            lambda y: f"财年{y}的销售额",
            lambda y: f"FY{y % 100:02d}的利润",
            lambda y: f"FY {y}的订单量",
        ]
        number = zh_fy - i % 2
        add(
            zh_named[i % 5](number),
            zc,
            window(whole(fy.named(number))),
            f"{S_FISCAL}; {tag}",
            **req,
        )
        en_named: list[Callable[[int], str]] = [
            lambda y: f"FY{y} revenue",
            lambda y: f"revenue for FY{y % 100:02d}",
            lambda y: f"FY {y} sales",
        ]
        number = en_fy - (i + 1) % 2
        add(
            en_named[i % 3](number),
            ec,
            window(whole(fy.named(number))),
            f"{S_FISCAL}; {tag}",
            **req,
        )
        if i % 3 == 0:
            text = f"fiscal year {number} revenue"
            add(text, ec, window(whole(fy.named(number))), f"{S_FY_WORDS}; {tag}", **req)
        # fiscal Q3/财年第三季度/FY2025 Q3/FY25Q3/上个财季/本财季
        zh_quarter: list[tuple[str, Expect, str]] = [
            (f"财年第{ORDINAL_ZH[q]}季度的营收", window(whole(fy.bare_quarter(q))), S_BARE),
            ("上个财季的销售额", window(whole(fy.fq(1))), S_FISCAL),
            ("本财季的订单量", window(since(fy.fq(0))), S_THIS),
            (f"FY{zh_fy} Q{zq}的营收", window(whole(fy.named_quarter(zh_fy, zq))), S_FISCAL),
        ]
        for text, expect, note in _pick(zh_quarter, i, 3):
            add(text, zc, expect, f"{note}; {quarters}", **req)
        add(
            f"fiscal Q{q} revenue",
            ec,
            window(whole(fy.bare_quarter(q))),
            f"{S_BARE}; {quarters}",
            **req,
        )
        en_quarter: list[tuple[str, Expect, str]] = [
            (f"FY{en_fy} Q{eq} revenue", window(whole(fy.named_quarter(en_fy, eq))), S_FISCAL),
            ("last fiscal quarter sales", window(whole(fy.fq(1))), S_EN_FORM),
            (
                f"FY{(en_fy - 1) % 100:02d}Q{eq} bookings",
                window(whole(fy.named_quarter(en_fy - 1, eq))),
                S_FISCAL,
            ),
            ("this fiscal quarter orders", window(since(fy.fq(0))), f"{S_EN_FORM}; {S_THIS}"),
        ]
        for text, expect, note in _pick(en_quarter, i, 1):
            add(text, ec, expect, f"{note}; {quarters}", **req)
        # fiscal H1/财年上半年
        half = 1 if i % 2 == 0 else 2
        zh_half = "财年上半年的营收" if half == 1 else "财年下半年的营收"
        add(zh_half, zc, window(whole(fy.bare_half(half))), f"{S_BARE}; {quarters}", **req)
        en_half = f"fiscal H{3 - half} revenue"
        add(en_half, ec, window(whole(fy.bare_half(3 - half))), f"{S_BARE}; {quarters}", **req)
        # fiscal year to date/财年至今/本财年以来
        zh_td = "财年至今的营收" if i % 2 == 0 else "本财年以来的订单量"
        add(zh_td, zc, window(since(fy.fy(0))), f"{S_TODATE}; {tag}", **req)
        add("fiscal year to date revenue", ec, window(since(fy.fy(0))), f"{S_TODATE}; {tag}", **req)
        # 财年前三季度
        n = 3 if i % 2 == 0 else 2
        zh_n = "财年前三季度的营收" if n == 3 else "财年前两季度的营收"
        add(zh_n, zc, window(span(*fy.first_quarters(n))), f"{S_FIRST_N}; {quarters}", **req)
        if i % 3 == 1:
            add(
                "revenue for the first three quarters of the fiscal year",
                ec,
                window(span(*fy.first_quarters(3))),
                f"{S_EN_FORM}; {S_FIRST_N}; {quarters}",
                **req,
            )


def _fiscal_boundary(add: Adder) -> None:
    """Year boundaries: now just before and just after the fiscal start."""
    pairs = [
        (Fiscal("04-01", "end"), MAR31_25, APR1_25),
        (Fiscal("10-01", "start"), SEP30_NY, OCT1_NY),
        (Fiscal("07-01", "end"), JUN30_BER, JUL1_BER),
        (Fiscal("01-01", "start"), DEC31, NEWYEAR),
        (Fiscal("02-15", "end"), FEB14_25, FEB15_25),
    ]
    for fy, before, after in pairs:
        req = _request_fiscal(fy, False)
        tag = f"fiscal {fy.start} named by {fy.named_by}; {S_NAMED}"
        for clock, where in ((before, "just before the fiscal start"), (after, "just after it")):
            note = f"{where}; {tag}"
            if clock.tz_name == SHANGHAI:
                add("本财年的营收", clock, window(since(fy.fy(0))), f"{S_THIS}; {note}", **req)
                add("上财年的营收", clock, window(whole(fy.fy(1))), f"{S_FISCAL}; {note}", **req)
                add("上个财季的营收", clock, window(whole(fy.fq(1))), f"{S_FISCAL}; {note}", **req)
                add(
                    "财年第四季度的营收",
                    clock,
                    window(whole(fy.bare_quarter(4))),
                    f"{S_BARE}; {note}",
                    **req,
                )
            else:
                add(
                    "this fiscal year revenue",
                    clock,
                    window(since(fy.fy(0))),
                    f"{S_THIS}; {note}",
                    **req,
                )
                add(
                    "last fiscal year revenue",
                    clock,
                    window(whole(fy.fy(1))),
                    f"{S_FISCAL}; {note}",
                    **req,
                )
                add(
                    "fiscal Q4 revenue",
                    clock,
                    window(whole(fy.bare_quarter(4))),
                    f"{S_BARE}; {note}",
                    **req,
                )
                add(
                    "fiscal year to date sales",
                    clock,
                    window(since(fy.fy(0))),
                    f"{S_TODATE}; {note}",
                    **req,
                )


def _fiscal_leap(add: Adder) -> None:
    """Leap years: Feb 29 inside fiscal windows, and a leap-day now."""
    f0215 = Fiscal("02-15", "end")
    f0401 = Fiscal("04-01", "end")
    f0101 = Fiscal("01-01", "end")
    f1001 = Fiscal("10-01", "start")
    leap = "leap year: Feb 29 inside the window"
    add(
        "本财季的营收",
        LEAP,
        window(since(f0215.fq(0))),
        f"{S_THIS}; now is Feb 29; {S_QUARTERS}",
        **_request_fiscal(f0215, False),
    )
    add(
        "本财年的营收",
        LEAP,
        window(since(f0215.fy(0))),
        f"{S_THIS}; now is Feb 29",
        **_request_fiscal(f0215, False),
    )
    add(
        "上个财季的营收",
        LEAP,
        window(whole(f0215.fq(1))),
        f"{S_FISCAL}; {S_QUARTERS}",
        **_request_fiscal(f0215, False),
    )
    add(
        "FY2025的营收",
        NOV,
        window(whole(f0215.named(2025))),
        f"{S_FISCAL}; {leap} (FY2025 = 2024-02-15..2025-02-14)",
        **_request_fiscal(f0215, False),
    )
    add(
        "FY2024 revenue",
        NOV,
        window(whole(f0101.named(2024))),
        f"{S_FISCAL}; {leap} (366 days)",
        **_request_fiscal(f0101, False),
    )
    add(
        "FY2024的营收",
        NOV,
        window(whole(f0401.named(2024))),
        f"{S_FISCAL}; {leap} (Apr 2023 – Mar 2024)",
        **_request_fiscal(f0401, False),
    )
    add(
        "财年第四季度的营收",
        LEAP,
        window(whole(f0401.bare_quarter(4))),
        f"{S_BARE}; {leap}; now inside it",
        **_request_fiscal(f0401, False),
    )
    add(
        "fiscal H1 revenue",
        LEAP,
        window(whole(f1001.bare_half(1))),
        f"{S_BARE}; {S_QUARTERS}; {leap}",
        **_request_fiscal(f1001, False),
    )
    add(
        "fiscal year to date revenue",
        LEAP,
        window(since(f1001.fy(0))),
        f"{S_TODATE}; now is Feb 29",
        **_request_fiscal(f1001, False),
    )
    add(
        "FY25Q1 revenue",
        NOV,
        window(whole(f0215.named_quarter(2025, 1))),
        f"{S_FISCAL}; {S_QUARTERS}; {leap}",
        **_request_fiscal(f0215, False),
    )


def _fiscal_config(add: Adder) -> None:
    """Where the fiscal calendar comes from: request > context > environment."""
    f0401, f1001, f0701 = Fiscal("04-01"), Fiscal("10-01"), Fiscal("07-01")
    f0401s, f0701s = Fiscal("04-01", "start"), Fiscal("07-01", "start")
    add(
        "本财年的营收",
        NOV,
        window(since(f0401.fy(0))),
        f"request 04-01 beats context and env; {S_PRECEDENCE}",
        env={ENV_START: "07-01"},
        context="财年从10月1日开始",
        fiscal_year_start="04-01",
    )
    add(
        "上财年的营收",
        NOV,
        window(whole(f0401.fy(1))),
        f"context beats env; {S_PRECEDENCE}",
        env={ENV_START: "10-01"},
        context="财年从4月1日开始",
    )
    add(
        "FY2025 revenue",
        NOV,
        window(whole(f1001.named(2025))),
        f"context sentence (October); {S_NAMED}",
        context="our fiscal year starts in October",
    )
    add(
        "fiscal Q3 revenue",
        NOV_NY,
        window(whole(f0401.bare_quarter(3))),
        f"context pair fiscal_year_start=04-01; {S_BARE}",
        context="fiscal_year_start=04-01",
    )
    add(
        "本财季的销售额",
        NOV,
        window(since(f1001.fq(0))),
        f"environment only; {S_THIS}",
        env={ENV_START: "10-01"},
    )
    add(
        "FY2025 revenue",
        NOV_NY,
        window(whole(f0401s.named(2025))),
        f"environment start and naming; {S_NAMED}",
        env={ENV_START: "04-01", ENV_NAMED: "start"},
    )
    add(
        "FY2025的营收",
        NOV,
        window(whole(f0401.named(2025))),
        f"request naming end beats env start; {S_PRECEDENCE}",
        env={ENV_NAMED: "start"},
        fiscal_year_start="04-01",
        fiscal_year_named_by="end",
    )
    add(
        "FY2025 Q1 revenue",
        NOV_NY,
        window(whole(f0701s.named_quarter(2025, 1))),
        f"request start 07-01, env naming start; {S_PER_FIELD}",
        env={ENV_NAMED: "start"},
        fiscal_year_start="07-01",
    )
    add(
        "last fiscal year revenue",
        NOV_NY,
        window(whole(f0701.fy(1))),
        f"context pair beats env; {S_PRECEDENCE}",
        env={ENV_START: "04-01"},
        context="fiscal_year_start=07-01",
    )
    add(
        "财年至今的订单量",
        NOV,
        window(since(f1001.fy(0))),
        f"request beats context pair; {S_PRECEDENCE}",
        context="fiscal_year_start=04-01",
        fiscal_year_start="10-01",
    )
    add(
        "财年上半年的营收",
        NOV,
        window(whole(f0701.bare_half(1))),
        f"context sentence (7月1日); {S_BARE}",
        context="财年从7月1日开始",
    )
    add(
        "FY25 revenue",
        NOV_NY,
        window(whole(f0401.named(2025))),
        f"context sentence (April); {S_NAMED}",
        context="our fiscal year starts in April",
    )
    add(
        "FY2025的营收",
        NOV,
        window(whole(f0401s.named(2025))),
        f"{S_CONTEXT_NAMED}",
        context="fiscal_year_named_by=start",
        fiscal_year_start="04-01",
    )
    add(
        "本财年的营收",
        NOV,
        window(since(Fiscal("02-15").fy(0))),
        "context sentence with an odd day (2月15日)",
        context="财年从2月15日开始",
    )
    add(
        "FY2026的营收",
        NOV,
        window(whole(f0401.named(2026))),
        f"a context clock sentence and a fiscal sentence together; {S_NAMED}",
        context="今天是2025年11月13日，财年从4月1日开始",
    )


def _fiscal_unconfigured(add: Adder) -> None:
    """No fiscal start anywhere: 422 whose ask names fiscal_year_start."""
    texts = [
        "本财年的营收",
        "上财年的利润",
        "2025财年的销售额",
        "财年第三季度的营收",
        "上个财季的订单量",
        "本财季的营收",
        "财年至今的营收",
        "财年前三季度的营收",
        "财年上半年的利润",
        "FY2025 revenue",
        "fiscal Q3 revenue",
        "FY25Q3 bookings",
        "fiscal year to date sales",
        "last fiscal year revenue",
        "fiscal H1 revenue",
    ]
    for text in texts:
        add(text, NOV if is_chinese(text) else NOV_NY, unsettled("no fiscal start"), S_NO_CONFIG)
    add(
        "上个财季的营收环比",
        NOV,
        unsettled("no fiscal start"),
        f"{S_NO_CONFIG}; a comparison does not help",
    )
    add(
        "本财年的营收",
        NOV,
        unsettled("no fiscal start"),
        f"{S_NO_CONFIG}; a context with a clock sentence only",
        context="今天是2025年11月13日",
    )


def _fiscal_bad(add: Adder) -> None:
    """A fiscal start that is not a date, a naming that is neither end nor start: 400."""
    for value in [
        "02-30",
        "13-01",
        "04-31",
        "00-10",
        "4-1",
        "04/01",
        "0401",
        "",
        "2025-04-01",
        "04-1",
    ]:
        add("本财年的营收", NOV, bad("fiscal_year_start"), S_NOT_DATE, fiscal_year_start=value)
    add(
        "FY2025 revenue",
        NOV_NY,
        bad("fiscal_year_start"),
        f"{S_NOT_DATE}; a number, not a string",
        fiscal_year_start=401,
    )
    add(
        "last month revenue",
        NOV_NY,
        bad("fiscal_year_start"),
        f"{S_NOT_DATE}; a bad caller value is 400 even when no fiscal word needs it",
        fiscal_year_start="02-30",
    )
    add(
        "FY2025 revenue",
        NOV_NY,
        bad("fiscal_year_named_by"),
        S_BAD_NAMED,
        fiscal_year_start="04-01",
        fiscal_year_named_by="middle",
    )
    add(
        "本财年的营收",
        NOV,
        bad("fiscal_year_named_by"),
        S_BAD_NAMED,
        fiscal_year_start="04-01",
        fiscal_year_named_by="begin",
    )


def _calendar_untouched(add: Adder) -> None:
    """A fiscal calendar configured, calendar words in the text: calendar windows."""
    req: Params = {"fiscal_year_start": "04-01"}
    add("上个季度的营收", NOV, window(whole(last("quarter"))), S_CALENDAR, **req)
    add("今年的销售额", NOV, window(since(this("year"))), S_CALENDAR, fiscal_year_start="10-01")
    add(
        "Q3 revenue",
        NOV_NY,
        window(whole(bare_quarter(3))),
        f"{S_CALENDAR}; bare Q3 follows the bare-month rule",
        fiscal_year_start="07-01",
    )
    add("2025年的营收", NOV, window(whole(year(2025))), S_CALENDAR, **req)
    add(
        "last year revenue",
        NOV_NY,
        window(whole(last("year"))),
        S_CALENDAR,
        fiscal_year_start="10-01",
        fiscal_year_named_by="start",
    )
    add(
        "上半年的营收",
        NOV,
        window(whole(half_year(2025, 1))),
        f"{S_CALENDAR}; 上半年 = Jan–Jun, step month",
        **req,
    )


def _comparison_yoy(add: Adder) -> None:
    """year_over_year: 同比/YoY (and 较去年)."""
    yoy: Kind = "year_over_year"
    add("上个月的销售额同比", NOV, compare(Whole(last("month")), yoy), S_YOY)
    add("本月销售额同比", NOV, compare(ToDate(this("month")), yoy), f"{S_YOY_MTD}; {S_TODATE_END}")
    add("上季度营收同比增长多少", NOV, compare(Whole(last("quarter")), yoy), S_YOY)
    add(
        "今年以来的营收同比",
        NOV,
        compare(ToDate(this("year")), yoy),
        f"{S_YOY}; YTD; {S_TODATE_END}",
    )
    add("去年的利润同比", NOV, compare(Whole(last("year")), yoy), S_YOY)
    add("昨天的订单量同比", NOV, compare(Whole(last("day")), yoy), S_YOY)
    add("上周的订单量同比", NOV, compare(Whole(last("week")), yoy), f"{S_YOY}; {S_WEEK_YOY}")
    add("最近30天的访问量同比", NOV, compare(Rolling(30, "day"), yoy), f"{S_YOY}; {S_ROLL_YOY}")
    add(
        "2024年2月的销量同比",
        NOV,
        compare(Whole(month(2024, 2)), yoy),
        f"{S_YOY}; {S_CLIP_FEB} (29 → 28 days)",
    )
    add(
        "本月销售额同比",
        LEAP,
        compare(ToDate(this("month")), yoy),
        f"{S_YOY_MTD}; now Feb 29 → Feb 28 2023 at the same time; {S_TODATE_END}",
    )
    add(
        "本季度营收同比",
        MAR31,
        compare(ToDate(this("quarter")), yoy),
        f"{S_YOY}; QTD; {S_TODATE_END}",
    )
    add(
        "最近3个月的营收同比",
        LEAP,
        compare(Rolling(3, "month"), yoy),
        f"{S_YOY}; {S_ROLL_YOY}; now Feb 29 → Feb 28",
    )
    add("2025年第三季度营收同比", NOV, compare(Whole(quarter(2025, 3)), yoy), S_YOY)
    add("本月销售额较去年", NOV, compare(ToDate(this("month")), yoy), f"{S_CMP_WORD}; {S_YOY_MTD}")
    add("last month revenue YoY", NOV_NY, compare(Whole(last("month")), yoy), S_YOY)
    add("revenue last quarter year over year", NY_NOV, compare(Whole(last("quarter")), yoy), S_YOY)
    add(
        "MTD sales YoY", NOV_NY, compare(ToDate(this("month")), yoy), f"{S_YOY_MTD}; {S_TODATE_END}"
    )
    add(
        "YTD revenue YoY",
        NY_DST,
        compare(ToDate(this("year")), yoy),
        f"{S_YOY}; YTD across DST; {S_TODATE_END}",
    )
    add(
        "orders in the last 30 days YoY",
        NOV_NY,
        compare(Rolling(30, "day"), yoy),
        f"{S_YOY}; {S_ROLL_YOY}",
    )
    add(
        "revenue in February 2024 year over year",
        NOV_NY,
        compare(Whole(month(2024, 2)), yoy),
        f"{S_YOY}; {S_CLIP_FEB}",
    )
    add("last year revenue YoY", DEC_UTC, compare(Whole(last("year")), yoy), S_YOY)


def _comparison_pop(add: Adder) -> None:
    """period_over_period: 环比/MoM/QoQ/WoW (and 较上月)."""
    pop: Kind = "period_over_period"
    add("上个月的销售额环比", NOV, compare(Whole(last("month")), pop), S_POP)
    add("本月销售额环比", NOV, compare(ToDate(this("month")), pop), f"{S_POP_MTD}; {S_TODATE_END}")
    add(
        "本月销售额环比",
        MAR31,
        compare(ToDate(this("month")), pop),
        f"{S_POP_MTD}; Mar 31 → Feb 29 (leap); {S_TODATE_END}",
    )
    add(
        "本月销售额环比",
        MAY31,
        compare(ToDate(this("month")), pop),
        f"{S_POP_MTD}; May 31 → Apr 30; {S_TODATE_END}",
    )
    add("上季度营收环比", NOV, compare(Whole(last("quarter")), pop), S_POP)
    add(
        "本季度营收环比",
        NOV,
        compare(ToDate(this("quarter")), pop),
        f"{S_POP}; QTD; {S_TODATE_END}",
    )
    add(
        "本季度营收环比",
        MAY31,
        compare(ToDate(this("quarter")), pop),
        f"{S_POP}; QTD; May 31 → Feb 28; {S_TODATE_END}",
    )
    add("上周的订单量环比", NOV, compare(Whole(last("week")), pop), S_POP)
    add(
        "本周订单量环比",
        NOV,
        compare(ToDate(this("week")), pop),
        f"{S_POP}; a partial week: last Monday .. now − 7 days; {S_TODATE_END}",
    )
    add("昨天的订单量环比", NOV, compare(Whole(last("day")), pop), S_POP)
    add(
        "最近7天的访问量环比",
        NOV,
        compare(Rolling(7, "day"), pop),
        f"issue 31: '最近7天 环比 → the 7 days before'; {S_ROLL_POP}",
    )
    add("最近3个月的营收环比", NOV, compare(Rolling(3, "month"), pop), S_ROLL_POP)
    add("去年的利润环比", NOV, compare(Whole(last("year")), pop), S_POP)
    add(
        "今年以来的营收环比",
        NOV,
        compare(ToDate(this("year")), pop),
        f"{S_POP}; YTD; {S_TODATE_END}",
    )
    add(
        "2024年3月的销量环比",
        NOV,
        compare(Whole(month(2024, 3)), pop),
        f"{S_POP}; {S_CLIP_FEB} (Feb 2024, 29 days)",
    )
    add(
        "2025年3月的销量环比",
        NOV,
        compare(Whole(month(2025, 3)), pop),
        f"{S_POP}; {S_CLIP_FEB} (Feb 2025, 28 days)",
    )
    add("本月销售额较上月", NOV, compare(ToDate(this("month")), pop), f"{S_CMP_WORD}; {S_POP_MTD}")
    add("last month revenue MoM", NOV_NY, compare(Whole(last("month")), pop), S_POP)
    add(
        "MTD revenue MoM",
        MAR31_UTC,
        compare(ToDate(this("month")), pop),
        f"{S_POP_MTD}; Mar 31 → Feb 28; {S_TODATE_END}",
    )
    add("QoQ revenue growth last quarter", NY_NOV, compare(Whole(last("quarter")), pop), S_POP)
    add(
        "signups this week WoW",
        NOV_NY,
        compare(ToDate(this("week")), pop),
        f"{S_POP}; a partial week; {S_TODATE_END}",
    )
    add("orders last week WoW", DEC_UTC, compare(Whole(last("week")), pop), S_POP)
    add(
        "revenue in the last 7 days period over period",
        NOV_NY,
        compare(Rolling(7, "day"), pop),
        S_ROLL_POP,
    )
    add(
        "last 30 days sales MoM",
        NY_DST,
        compare(Rolling(30, "day"), pop),
        f"{S_ROLL_POP}; across DST (wall clock)",
    )


def _comparison_explicit(add: Adder) -> None:
    """explicit: two named periods, the first named is main."""
    ex: Kind = "explicit"
    add(
        "Q3 vs Q2 revenue",
        NOV_NY,
        compare(Whole(bare_quarter(3)), ex, bare_quarter(2)),
        f"{S_EXPLICIT}; bare quarters follow the bare-month rule",
    )
    add(
        "上个月和去年同期对比",
        NOV,
        compare(Whole(last("month")), ex, last("month", 13)),
        f"{S_EXPLICIT}; 去年同期 = the same month a year back",
    )
    add("2025 compared with 2024", NOV_NY, compare(Whole(year(2025)), ex, year(2024)), S_EXPLICIT)
    add(
        "2025年第三季度对比2024年第三季度的营收",
        NOV,
        compare(Whole(quarter(2025, 3)), ex, quarter(2024, 3)),
        S_EXPLICIT,
    )
    add(
        "10月和9月的销售额对比",
        NOV,
        compare(Whole(bare_month(10)), ex, bare_month(9)),
        f"{S_EXPLICIT}; bare months",
    )
    add(
        "上周和上上周的订单量对比",
        NOV,
        compare(Whole(last("week")), ex, last("week", 2)),
        S_EXPLICIT,
    )
    add(
        "2025年上半年相比2024年上半年",
        NOV,
        compare(Whole(half_year(2025, 1)), ex, half_year(2024, 1)),
        f"{S_EXPLICIT}; 上半年 steps by month",
    )
    add(
        "October versus September sales",
        NOV_NY,
        compare(Whole(bare_month(10)), ex, bare_month(9)),
        S_EXPLICIT,
    )
    add("revenue in 2024 vs 2023", DEC_UTC, compare(Whole(year(2024)), ex, year(2023)), S_EXPLICIT)
    add(
        "2024年2月对比2023年2月",
        NOV,
        compare(Whole(month(2024, 2)), ex, month(2023, 2)),
        f"{S_EXPLICIT}; {S_CLIP_FEB}",
    )
    add(
        "Q2 vs Q1",
        JUN24,
        compare(Whole(bare_quarter(2)), ex, bare_quarter(1)),
        f"{S_EXPLICIT}; now inside Q2 2024: a named period is whole",
    )
    add(
        "2024年国庆假期对比2023年国庆假期",
        NOV,
        compare(Whole(official_holiday("国庆", 2024)), ex, official_holiday("国庆", 2023)),
        f"{S_EXPLICIT}; {S_HOLIDAY}",
    )


def _comparison_fiscal(add: Adder) -> None:
    """Comparisons of fiscal windows (a fiscal calendar in the request)."""
    f0401, f0215, f1001s = Fiscal("04-01"), Fiscal("02-15"), Fiscal("10-01", "start")
    r0401: Params = {"fiscal_year_start": "04-01"}
    r0215: Params = {"fiscal_year_start": "02-15"}
    r1001s: Params = {"fiscal_year_start": "10-01", "fiscal_year_named_by": "start"}
    yoy: Kind = "year_over_year"
    pop: Kind = "period_over_period"
    ex: Kind = "explicit"
    add(
        "本财年营收同比",
        NOV,
        compare(ToDate(f0401.fy(0)), yoy),
        f"{S_YOY}; {S_TODATE_END}",
        **r0401,
    )
    add("上个财季营收同比", NOV, compare(Whole(f0401.fq(1)), yoy), S_YOY, **r0401)
    add(
        "上个财季营收环比",
        NOV,
        compare(Whole(f0215.fq(1)), pop),
        f"{S_POP}; a fiscal quarter maps to the previous one; {S_QUARTERS}",
        **r0215,
    )
    add(
        "本财季营收环比",
        NOV,
        compare(ToDate(f0215.fq(0)), pop),
        f"{S_POP}; {S_TODATE_END}; {S_QUARTERS}",
        **r0215,
    )
    add("上财年营收环比", NOV, compare(Whole(f0401.fy(1)), pop), S_POP, **r0401)
    add(
        "FY2025 vs FY2024 revenue",
        NOV_NY,
        compare(Whole(f0401.named(2025)), ex, f0401.named(2024)),
        f"{S_EXPLICIT}; {S_NAMED}",
        **r0401,
    )
    add(
        "FY2024 Q3 vs FY2024 Q2",
        NOV_NY,
        compare(Whole(f1001s.named_quarter(2024, 3)), ex, f1001s.named_quarter(2024, 2)),
        S_EXPLICIT,
        **r1001s,
    )
    add(
        "fiscal year to date revenue YoY",
        NOV_NY,
        compare(ToDate(f1001s.fy(0)), yoy),
        f"{S_YOY}; {S_TODATE_END}",
        **r1001s,
    )
    add(
        "last fiscal quarter QoQ",
        NOV_NY,
        compare(Whole(f1001s.fq(1)), pop),
        f"{S_POP}; {S_EN_FORM}",
        **r1001s,
    )
    add(
        "本财年营收同比",
        LEAP,
        compare(ToDate(f0401.fy(0)), yoy),
        f"{S_YOY}; now Feb 29 → Feb 28 2023; {S_TODATE_END}",
        **r0401,
    )
    add(
        "财年上半年营收环比",
        NOV,
        compare(Whole(f0401.bare_half(1), (6, "month")), pop),
        f"{S_POP}; a fiscal half maps to the previous half; {S_QUARTERS}",
        **r0401,
    )


def _comparison_guard(add: Adder) -> None:
    """No window to compare, or three periods: nothing settled."""
    for text in [
        "环比",
        "同比增长了多少",
        "销售额环比",
        "去年同期对比",
        "YoY",
        "MoM growth",
        "revenue year over year",
    ]:
        add(
            text,
            NOV if is_chinese(text) else NOV_NY,
            unsettled("comparison with no period"),
            S_CMP_ALONE,
        )
    three = [
        ("Q1 vs Q2 vs Q3 revenue", NOV_NY),
        ("1月、2月和3月的销售额对比", NOV),
        ("2023年、2024年和2025年营收对比", NOV),
        ("本月、上月和去年同期对比", NOV),
        ("2025 compared with 2024 and 2023", NOV_NY),
    ]
    for text, clock in three:
        add(text, clock, unsettled("three periods"), S_THREE)


def _official_holiday(add: Adder) -> None:
    """The State Council's holiday runs for 2023–2025, the fixed rule for 2030."""
    rows = [
        ("2023年春节期间的销量", "春节", 2023),
        ("2024年春节期间的销量", "春节", 2024),
        ("2025年春节假期的客流", "春节", 2025),
        ("2023年国庆假期的客流", "国庆", 2023),
        ("2024年国庆假期的客流", "国庆", 2024),
        ("2025年国庆假期的客流", "国庆", 2025),
        ("2023年国庆黄金周的销售额", "国庆", 2023),
        ("2024年国庆黄金周的订单", "国庆", 2024),
        ("2025年国庆长假的营收", "国庆", 2025),
        ("2023年五一假期的订单量", "劳动节", 2023),
        ("2024年五一假期的订单量", "劳动节", 2024),
        ("2025年劳动节假期的客流", "劳动节", 2025),
        ("2023年端午假期的销量", "端午", 2023),
        ("2024年端午假期的销量", "端午", 2024),
        ("2025年端午假期的销量", "端午", 2025),
        ("2023年中秋假期的客流", "中秋", 2023),
        ("2024年中秋假期的客流", "中秋", 2024),
        ("2024年五一放假期间的营收", "劳动节", 2024),
    ]
    for text, name, in_year in rows:
        add(text, NOV, window(whole(official_holiday(name, in_year))), S_HOLIDAY)
    fixed = [
        ("2030年春节期间的销量", "春节"),
        ("2030年国庆假期的客流", "国庆"),
        ("2030年国庆黄金周的订单", "国庆"),
        ("2030年五一假期的订单量", "劳动节"),
        ("2030年端午假期的销量", "端午"),
    ]
    for text, name in fixed:
        add(
            text, NOV, window(whole(official_holiday(name, 2030))), f"{S_FIXED}; named period whole"
        )
    bare = [
        ("国庆假期的客流", "国庆", NOV, "2025's run has started"),
        ("春节期间的销量", "春节", JAN20, "2025's run (Jan 28) has not started → 2024's"),
        ("春节期间的销量", "春节", SPRING25, "the first day of 2025's run"),
        ("五一假期的订单量", "劳动节", UTC_MAY, "now inside 2025's run (UTC)"),
        ("端午假期的销量", "端午", NOV, "2025's run has started"),
        ("国庆黄金周的销售额", "国庆", OCT24, "now inside 2024's run"),
    ]
    for text, name, clock, why in bare:
        add(
            text,
            clock,
            window(whole(bare_official_holiday(name))),
            f"{S_HOLIDAY}; {S_BARE_HOLIDAY}: {why}",
        )
    add(
        "2025年国庆假期以来的销量",
        NOV,
        window(since(official_holiday("国庆", 2025))),
        f"{S_HOLIDAY_SINCE}; {S_HOLIDAY}",
    )
    add(
        "2024年春节假期至今的订单",
        NOV,
        window(since(official_holiday("春节", 2024))),
        f"{S_HOLIDAY_SINCE}; {S_HOLIDAY}",
    )
    add(
        "2024年国庆假期到2025年春节期间的营收",
        NOV,
        window(span(official_holiday("国庆", 2024), official_holiday("春节", 2025))),
        f"§4 range; {S_HOLIDAY}",
    )


def _shape(add: Adder) -> None:
    """`shape: "query_metric"`: the same window numbers."""
    qm: Params = {"shape": "query_metric"}
    add("上个季度的营收", NOV, window(whole(last("quarter"))), S_SHAPE, **qm)
    add("最近7天的订单量", NOV, window(rolling(7, "day")), S_SHAPE, **qm)
    add("revenue last month", NOV_NY, window(whole(last("month"))), S_SHAPE, **qm)
    add(
        "本财年的营收",
        NOV,
        window(since(Fiscal("04-01").fy(0))),
        f"{S_SHAPE}; {S_THIS}",
        fiscal_year_start="04-01",
        **qm,
    )
    add(
        "FY2025 Q3 revenue",
        NOV_NY,
        window(whole(Fiscal("10-01").named_quarter(2025, 3))),
        S_SHAPE,
        fiscal_year_start="10-01",
        **qm,
    )
    add(
        "上个月的销售额环比",
        NOV,
        compare(Whole(last("month")), "period_over_period"),
        f"{S_SHAPE}; baseline in the same shape",
        **qm,
    )
    add(
        "Q3 vs Q2 revenue",
        NOV_NY,
        compare(Whole(bare_quarter(3)), "explicit", bare_quarter(2)),
        f"{S_SHAPE}; baseline in the same shape",
        **qm,
    )
    add(
        "MTD sales YoY",
        NOV_NY,
        compare(ToDate(this("month")), "year_over_year"),
        f"{S_SHAPE}; {S_TODATE_END}",
        **qm,
    )
    add(
        "2025年国庆假期的客流",
        NOV,
        window(whole(official_holiday("国庆", 2025))),
        f"{S_SHAPE}; {S_HOLIDAY}",
        **qm,
    )
    add(
        "2024年每月的营收",
        NOV,
        window(whole(year(2024), "month")),
        f"{S_SHAPE}; a series carries step",
        **qm,
    )


CATEGORIES: list[tuple[str, Callable[[Adder], None]]] = [
    ("fiscal", _fiscal_grid),
    ("fiscal_boundary", _fiscal_boundary),
    ("fiscal_leap", _fiscal_leap),
    ("fiscal_config", _fiscal_config),
    ("fiscal_unconfigured", _fiscal_unconfigured),
    ("fiscal_bad", _fiscal_bad),
    ("calendar_untouched", _calendar_untouched),
    ("comparison_yoy", _comparison_yoy),
    ("comparison_pop", _comparison_pop),
    ("comparison_explicit", _comparison_explicit),
    ("comparison_fiscal", _comparison_fiscal),
    ("comparison_guard", _comparison_guard),
    ("official_holiday", _official_holiday),
    ("shape_query_metric", _shape),
]


def business_cases() -> list[BusinessCase]:
    """Every case of business_gold.jsonl, category by category."""
    cases: list[BusinessCase] = []
    for name, build in CATEGORIES:
        build(Adder(cases, name))
    return cases


def business_rows() -> list[Params]:
    """The JSON objects, numbered per language and category (`biz-zh-fiscal-003`)."""
    seen: Counter[tuple[str, str]] = Counter()
    rows = []
    for case in business_cases():
        seen[case.lang, case.category] += 1
        rows.append(case.row(seen[case.lang, case.category]))
    return rows


def metric_path_rows() -> list[Params]:
    """business_metric_path.jsonl: comparison words on the metric path (v2 row format)."""
    cases = [
        ("上个月的销售额环比", whole(last("month")), NOV),
        ("本月销售额同比", since(this("month")), NOV),
        ("最近7天的访问量环比", rolling(7, "day"), NOV),
        ("上季度营收同比增长多少", whole(last("quarter")), NOV),
        ("本月销售额较上月", since(this("month")), NOV),
        ("last month revenue YoY", whole(last("month")), NOV_NY),
        ("QoQ revenue growth last quarter", whole(last("quarter")), NY_NOV),
        ("signups this week WoW", since(this("week")), NOV_NY),
        ("Q3 vs Q2 revenue", nothing("two named windows"), NOV_NY),
        ("上个月和去年同期对比", nothing("two named windows"), NOV),
        ("2025 compared with 2024", nothing("two named windows"), NOV_NY),
        ("环比", nothing("comparison word alone"), NOV),
    ]
    rows = []
    seen: Counter[str] = Counter()
    for query, spec, clock in cases:
        case = TimeCase("metric_path", query, clock, spec, S_METRIC)
        seen[case.lang] += 1
        rows.append(case.row(seen[case.lang]))
    return rows


S_METRIC_FISCAL = (
    "SPEC §9.1: fiscal periods are read 'in the metric path of §4 as well', the calendar from a"
    " context sentence or the environment"
)
NOV_DAY = Clock.at("2025-11-13T00:00:00", SHANGHAI)  # a date-only clock sentence's day


def _metric_context_cases() -> list[tuple[ContextCase, dict[str, str] | None]]:
    """Fiscal words and comparisons on `POST /v1/dynamic-params` (rules only, `drug_sales`)."""
    f0401, f1001, f0701, f0215 = Fiscal("04-01"), Fiscal("10-01"), Fiscal("07-01"), Fiscal("02-15")
    out: list[tuple[ContextCase, dict[str, str] | None]] = []

    def add(
        query: str,
        context: str,
        expected: ContextExpect,
        note: str,
        *,
        at: Clock = NOV,
        env: dict[str, str] | None = None,
        send_now: bool = True,
    ) -> None:
        lang = "zh" if is_chinese(query) else "en"
        case = ContextCase(
            "metric_fiscal", lang, query, context, at, [SALES], expected, note, send_now
        )
        out.append((case, env))

    fiscal, cmp_note = S_METRIC_FISCAL, S_METRIC
    add(
        "本财年的药品销售额",
        "财年从4月1日开始",
        ok(SALES, since(f0401.fy(0))),
        f"{fiscal}; {S_THIS}",
    )
    add(
        "drug sales last fiscal year",
        "our fiscal year starts in October",
        ok(SALES, whole(f1001.fy(1))),
        fiscal,
        at=NOV_NY,
    )
    add("FY2025的销售额", "fiscal_year_start=04-01", ok(SALES, whole(f0401.named(2025))), fiscal)
    add(
        "财年第三季度的销售额",
        "财年从7月1日开始",
        ok(SALES, whole(f0701.bare_quarter(3))),
        f"{fiscal}; {S_BARE}",
    )
    add(
        "上个财季的销售额",
        "",
        ok(SALES, whole(f1001.fq(1))),
        f"{fiscal}; environment",
        env={ENV_START: "10-01"},
    )
    add(
        "上财年的销售额",
        "财年从4月1日开始",
        ok(SALES, whole(f0401.fy(1))),
        f"{fiscal}; {S_PRECEDENCE}",
        env={ENV_START: "10-01"},
    )
    add(
        "财年至今的销售额",
        "财年从2月15日开始",
        ok(SALES, since(f0215.fy(0))),
        f"{fiscal}; {S_TODATE}",
    )
    add(
        "上财年的销售额",
        "今天是2025年11月13日，财年从4月1日开始",
        ok(SALES, whole(f0401.fy(1))),
        f"{fiscal}; a clock sentence (no now_ms) and a fiscal sentence",
        at=NOV_DAY,
        send_now=False,
    )
    add("本财年的销售额", "", missing(SALES, TIME_MISSING), S_NO_CONFIG)
    add("FY2025 drug sales", "", missing(SALES, TIME_MISSING), S_NO_CONFIG, at=NOV_NY)
    add(
        "本财年销售额同比",
        "财年从4月1日开始",
        ok(SALES, since(f0401.fy(0))),
        f"{cmp_note}; {fiscal}",
    )
    add(
        "上个财季销售额环比",
        "财年从4月1日开始",
        ok(SALES, whole(f0401.fq(1))),
        f"{cmp_note}; {fiscal}",
    )
    add(
        "FY2025 vs FY2024 drug sales",
        "fiscal_year_start=04-01",
        missing(SALES, TIME_MISSING),
        f"{cmp_note}; two named windows settle nothing",
        at=NOV_NY,
    )
    add(
        "2025年国庆假期的销售额",
        "",
        ok(SALES, whole(official_holiday("国庆", 2025))),
        "SPEC §4.1 festival row (revised): the official run",
    )
    return out


def metric_context_rows() -> list[Params]:
    """business_context_gold.jsonl: the context_gold.jsonl format, plus `env` where used."""
    rows = []
    for n, (case, env) in enumerate(_metric_context_cases(), start=1):
        row = {**case.row(n), "id": f"bizctx-{n:03d}"}
        if env is not None:
            row["env"] = env
        rows.append(row)
    return rows
