"""Phrases of both languages: clock times (read only inside an hour range on a named day) and
numeric dates."""

from __future__ import annotations

from resolver.timeexpr.dates import (
    clock,
    dated_day,
    dated_day_yy,
    dated_month,
    holiday,
    iso_week,
    month_day,
    noon,
    year,
    year_half,
    year_quarter,
)
from resolver.timeexpr.lang import Phrases

COMMON = Phrases("common")

# fmt: off
# -- clock times (read only inside an hour range on a named day) --------------------------------
COMMON.add("zh_clock", "(?P<part>DAYPART)? _ (?P<h>NUM12) _ (?P<oc>OCLOCK) _ (?:(?P<min>NUM12) _ FEN?|(?P<half>HALF)|(?P<ke>NUM12 _ KE))?", clock, ("orders between 8 o'clock and now", "2025-11-13T08:00..now"))
COMMON.add("colon_clock", "(?P<h>DD) (?P<colon>COLON) (?P<min>DD) _ (?P<ampm>AMPM)?", clock, ("昨天15:00到17:00", "2025-11-12T15:00..2025-11-12T17:00"))
COMMON.add("noon", "(?P<w>DAYPART)", noon, ("from 10am to noon today", "2025-11-13T10:00..2025-11-13T12:00"))
COMMON.add("en_clock", "(?P<h>D12|ENN) _ (?:(?P<oc>OCLOCK)|(?P<ampm>AMPM))", clock, ("from 10am to noon today", "2025-11-13T10:00..2025-11-13T12:00"))
COMMON.add("en_clock_before_ampm", "(?P<h>D12|ENN)(?= _ (?:TO|DASH|UNTIL|THROUGH) _ (?:D12|ENN) _ (?:COLON _ DD _)? AMPM)", clock, ("this Thu 9-11am", "2025-11-13T09:00..2025-11-13T11:00"))
# -- numeric dates ----------------------------------------------------------------------------
COMMON.add("ymd_spaced", "(?P<y>Y4) SPACE (?P<m>DD) SPACE (?P<d>DD)(?! _ (?:CAL|CLK|COLON|AMPM|OCLOCK|DASH|SLASH|DOT))", dated_day, ("2022 11 23", "2022-11-23"))
COMMON.add("ymd_names", "(?P<y>Y4) (?P<s>DASH|SLASH) (?P<m>MONTHNAME) (?P=s) (?P<d>DD)", dated_day, ("2019-aug-01", "2019-08-01"))
COMMON.add("mdy_joined", "(?P<m>MONTHNAME) (?P<s>DASH|SLASH) (?P<d>DD) (?P=s) (?P<y>Y4)", dated_day, ("August-10-2012", "2012-08-10"))
COMMON.add("dmy_joined", "(?P<d>DD) (?P<s>DASH|SLASH) (?P<m>MONTHNAME) (?P=s) (?P<y>Y4)", dated_day, ("10/August/2012", "2012-08-10"))
COMMON.add("myd_joined", "(?P<m>MONTHNAME) (?P<s>DASH|SLASH) (?P<y>Y4) (?P=s) (?P<d>DD)(?!(?:DASH|SLASH|DOT)DD)", dated_day, ("September-2020-23", "2020-09-23"))
COMMON.add("ydm_names", "(?P<y>Y4) (?P<s>DASH|SLASH) (?P<d>DD) (?P=s) (?P<m>MONTHNAME)", dated_day, ("2020/23/Sep", "2020-09-23"))
COMMON.add("dym_joined", "(?<!DASH)(?<!SLASH)(?P<d>DD) (?P<s>DASH|SLASH) (?P<y>Y4) (?P=s) (?P<m>MONTHNAME)", dated_day, ("23-2020-September", "2020-09-23"))
COMMON.add("quarter_dash_year", "(?P<q>QLABEL) _ DASH _ (?P<y>Y4)", year_quarter, ("q1-2019", "2019-Q1"))
COMMON.add("iso_date", "(?P<y>Y4) (?P<s>DASH|SLASH|DOT) (?P<m>DD) (?P=s) (?P<d>DD)", dated_day, ("2025-12-25", "2025-12-25"))
COMMON.add("iso_week", "(?P<y>Y4) _ DASH? _ (?P<w>WLABEL)", iso_week, ("2024-W10 revenue", "2024-W10"))
COMMON.add("iso_quarter", "(?P<y>Y4) (?:_ YU)? (?:DASH|SLASH|_) (?P<q>QLABEL)", year_quarter, ("2025Q4销售额", "2025-Q4"), ("2024/Q1 orders", "2024-Q1"))
COMMON.add("iso_half", "(?P<y>Y4) _ DASH? _ (?P<h>HLABEL)", year_half, ("2019-H2", "2019-07..2019-12"))
COMMON.add("iso_month", "(?P<y>Y4) (?:DASH|SLASH|DOT) (?P<m>DD)(?!(?:DASH|SLASH|DOT)DD)", dated_month, ("2024-03", "2024-03"))
COMMON.add("ym_spaced", "(?<!MONTHNAME SPACE)(?<!DASH)(?<!SLASH)(?<!DOT)(?<!DASH SPACE)(?<!SLASH SPACE)(?P<y>Y4) _ (?:DASH|SLASH) _ (?P<m>DD)(?!(?:DASH|SLASH|DOT|COLON)(?:DD|Y4))(?! _ (?:DASH|SLASH|CAL|CLK|AMPM|OCLOCK|MONTHNAME|PERCENT|D12|D0|Y4|ORD))", dated_month, ("2016 - 11", "2016-11"), ("sales for 2016/ 11.", "2016-11"))
COMMON.add("compact_date", "(?P<c>D8)", dated_day, ("20240315的销量", "2024-03-15"))
COMMON.add("us_date", "(?P<m>DD) (?P<s>SLASH|DASH) (?P<d>DD) (?P=s) (?P<y>Y4)", dated_day, ("12/25/2023的销量", "2023-12-25"))
COMMON.add("us_date_dot", "(?<!DOT)(?<!OTHER)(?<!DASH)(?<!SLASH)(?P<m>DD) DOT (?P<d>DD) DOT (?P<y>Y4)(?!DOT(?:DD|Y4|DN))", dated_day, ("12.25.2023", "2023-12-25"))
COMMON.add("dmy_names", "(?P<d>DD) _ DASH _ (?P<m>MONTHNAME) _ DASH _ (?P<y>Y4)", dated_day, ("05 - aug - 2016", "2016-08-05"))
COMMON.add("month_year_num", "(?P<m>DD) (?:DASH|SLASH) (?P<y>Y4)", dated_month, ("06-2024的订单", "2024-06"))
COMMON.add("my_spaced", "(?<!MONTHNAME SPACE)(?<!MONTHNAME)(?<!DASH)(?<!SLASH)(?<!DOT)(?<!COLON)(?<!DASH SPACE)(?<!SLASH SPACE)(?<!MONEY)(?<!MONEY SPACE)(?P<m>DD) _ (?:DASH|SLASH) _ (?P<y>Y4)(?!(?:DASH|SLASH|DOT)(?:DD|Y4))(?! _ (?:DASH|SLASH|CAL|CLK|MONTHNAME|D12|D0|Y4))", dated_month, ("11 - 2016", "2016-11"), ("orders in 11 /2016.", "2016-11"))
COMMON.add("us_date_yy", "(?<!DASH)(?<!SLASH)(?<!DOT)(?P<m>DD) (?P<s>SLASH|DASH) (?P<d>DD) (?P=s) (?P<y>DD)(?!(?:DASH|SLASH|DOT|COLON)(?:DD|Y4|DN))(?! _ (?:CAL|CLK|AMPM|OCLOCK|PERCENT))", dated_day_yy, ("12/12/30", "2030-12-12"), ("orders of 9-18-15", "2015-09-18"), ("3-7-07", "2007-03-07"))
COMMON.add("us_md", "(?P<m>DD) _ SLASH _ (?P<d>DD)", month_day, ("3/4的销量", "2025-03-04"))
COMMON.add("bare_year", "(?P<y>Y4)", year, ("2023-2024年", "2023..2024"))
COMMON.add("holiday_618", "(?P<h>DN)(?<=DN)", lambda f: holiday(f) if f.need("h").value == 618 else None, ("618的GMV", "2025-06-18"))
# fmt: on
