"""Phrases of both languages: clock times (read only inside an hour range on a named day) and
numeric dates."""

from __future__ import annotations

from resolver.timeexpr.dates import (
    clock,
    dated_day,
    dated_month,
    holiday,
    iso_week,
    month_day,
    noon,
    year,
    year_quarter,
)
from resolver.timeexpr.lang import Phrases

COMMON = Phrases("common")

# fmt: off
# -- clock times (read only inside an hour range on a named day) --------------------------------
COMMON.add("zh_clock", "(?P<part>DAYPART)? _ (?P<h>NUM12) _ (?P<oc>OCLOCK) _ (?:(?P<min>NUM12) _ FEN?|(?P<half>HALF)|(?P<ke>NUM12 _ KE))?", clock)
COMMON.add("colon_clock", "(?P<h>DD) (?P<colon>COLON) (?P<min>DD) _ (?P<ampm>AMPM)?", clock)
COMMON.add("noon", "(?P<w>DAYPART)", noon)
COMMON.add("en_clock", "(?P<h>D12|ENN) _ (?:(?P<oc>OCLOCK)|(?P<ampm>AMPM))", clock)
COMMON.add("en_clock_before_ampm", "(?P<h>D12|ENN)(?= _ (?:TO|DASH|UNTIL|THROUGH) _ (?:D12|ENN) _ (?:COLON _ DD _)? AMPM)", clock)
# -- numeric dates ----------------------------------------------------------------------------
COMMON.add("ymd_spaced", "(?P<y>Y4) SPACE (?P<m>DD) SPACE (?P<d>DD)(?! _ (?:CAL|CLK|COLON|AMPM|OCLOCK|DASH|SLASH|DOT))", dated_day)
COMMON.add("ymd_names", "(?P<y>Y4) (?P<s>DASH|SLASH) (?P<m>MONTHNAME) (?P=s) (?P<d>DD)", dated_day)
COMMON.add("mdy_joined", "(?P<m>MONTHNAME) (?P<s>DASH|SLASH) (?P<d>DD) (?P=s) (?P<y>Y4)", dated_day)
COMMON.add("dmy_joined", "(?P<d>DD) (?P<s>DASH|SLASH) (?P<m>MONTHNAME) (?P=s) (?P<y>Y4)", dated_day)
COMMON.add("quarter_dash_year", "(?P<q>QLABEL) _ DASH _ (?P<y>Y4)", year_quarter)
COMMON.add("iso_date", "(?P<y>Y4) (?P<s>DASH|SLASH|DOT) (?P<m>DD) (?P=s) (?P<d>DD)", dated_day)
COMMON.add("iso_week", "(?P<y>Y4) _ DASH? _ (?P<w>WLABEL)", iso_week)
COMMON.add("iso_quarter", "(?P<y>Y4) _ (?:YU _)? (?:DASH|SLASH)? _ (?P<q>QLABEL)", year_quarter)
COMMON.add("iso_month", "(?P<y>Y4) (?:DASH|SLASH|DOT) (?P<m>DD)(?!(?:DASH|SLASH|DOT)DD)", dated_month)
COMMON.add("compact_date", "(?P<c>D8)", dated_day)
COMMON.add("us_date", "(?P<m>DD) (?P<s>SLASH|DASH) (?P<d>DD) (?P=s) (?P<y>Y4)", dated_day)
COMMON.add("us_date_yy", "DD SLASH DD SLASH DD", lambda f: None)
COMMON.add("dmy_names", "(?P<d>DD) _ DASH _ (?P<m>MONTHNAME) _ DASH _ (?P<y>Y4)", dated_day)
COMMON.add("month_year_num", "(?P<m>DD) (?:DASH|SLASH) (?P<y>Y4)", dated_month)
COMMON.add("us_md", "(?P<m>DD) _ SLASH _ (?P<d>DD)", month_day)
COMMON.add("bare_year", "(?P<y>Y4)", year)
COMMON.add("holiday_618", "(?P<h>DN)(?<=DN)", lambda f: holiday(f) if f.need("h").value == 618 else None)
# fmt: on
