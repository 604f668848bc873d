"""Chinese phrases: comparisons, periods relative to now, periods of a year left open."""

from __future__ import annotations

from resolver.timeexpr.builders import (
    ago,
    ahead,
    anchor,
    first_n,
    later,
    latest,
    relday,
    relperiod,
    rest,
    rolling,
    same_last_year,
    this_period,
    week_of_relperiod,
    whole_days,
)
from resolver.timeexpr.dates import (
    clock,
    compare,
    day_of_month,
    dekad,
    half_month,
    half_year,
    holiday,
    last_n,
    last_week_of_month,
    last_week_of_year,
    month,
    month_day,
    nth_weekday,
    quarter,
    step_word,
    week_number,
    year,
)
from resolver.timeexpr.fiscal_phrases import (
    fiscal_first_quarters,
    fiscal_half,
    fiscal_quarter,
    fiscal_to_date,
    named_fiscal_year,
    relative_fiscal,
)
from resolver.timeexpr.found import count
from resolver.timeexpr.lang import Phrases

ZH = Phrases("zh")

# fmt: off
# -- fiscal periods (SPEC §9.1; examples read with the tests' fiscal calendar, 04-01 named by
# the year it ends in: FY2026 = 2025-04-01 .. 2026-03-31 at the tests' clock) -------------------
_REL = "ZH_THIS|ZH_LAST|ZH_NEXT|ZH_LAST2|ZH_NEXT2"
ZH.add("zh_fiscal_first_n", f"(?:(?P<r>{_REL}) _ (?:GE _)?)? (?:(?P<y>Y4) _ (?:YEAR _)?)? (?P<f>FISCAL) _ (?:ZH_DE _)? ZH_QIAN _ (?P<n>NUM12) _ (?:GE _)? QU", fiscal_first_quarters, ("财年前三季度的营收", "now/FY-Q1..now/FY-Q3"), ("2025财年前两季度", "FY2025-Q1..FY2025-Q2"))
ZH.add("zh_fiscal_quarter", "(?:(?P<y>Y4) _ (?:YEAR _)?)? (?P<f>FISCAL) _ (?:ZH_DE _)? (?:DI _)? (?P<q>NUM12) _ (?:GE _)? QU", fiscal_quarter, ("财年第三季度的营收", "FY-Q3"), ("2025财年第一季度", "FY2025-Q1"), ("FY2025第三季度", "FY2025-Q3"))
ZH.add("zh_fiscal_half", "(?:(?P<y>Y4) _ (?:YEAR _)?)? (?P<f>FISCAL) _ (?:ZH_DE _)? (?P<h>ZH_HALF) _ YU", fiscal_half, ("财年上半年的营收", "FY-H1"), ("2025财年下半年", "FY2025-H2"))
ZH.add("zh_fiscal_to_date", "(?:ZH_THIS _)? (?P<f>FISCAL) _ (?:ZH_TONOW|ZH_SINCE)", fiscal_to_date, ("财年至今的营收", "now/FY..now"), ("本财年以来", "now/FY..now"))
ZH.add("zh_fiscal_relative", f"(?P<r>{_REL}) _ (?:GE _)? (?P<f>FISCAL)", relative_fiscal, ("本财年的营收", "now/FY..now"), ("上财年", "now-1FY/FY"), ("上上财年", "now-2FY/FY"), ("下财年", "now+1FY/FY"), ("上个财季", "now-1FQ/FQ"), ("本财季", "now/FQ..now"))
ZH.add("zh_fiscal_year", "(?P<y>Y4) _ (?:YEAR _)? (?P<f>FISCAL)", named_fiscal_year, ("2025财年的营收", "FY2025"), ("2024年财年", "FY2024"))
ZH.add("zh_fiscal_year_after", "(?P<f>FISCAL) _ (?P<y>Y4)(?! _ (?:QLABEL|HLABEL))", named_fiscal_year, ("财年2025的营收", "FY2025"), ("FY 2025", "FY2025"), ("fiscal 2024", "FY2024"))
ZH.add("zh_compare_unit", "COMPARE _ (?:GE _)? (?:WEEK|MONTH|QU|YU|DAY|RI)(?! _ (?:ZH_DE _)? ZH_SAME)", compare, ("本月销售额较上月", "now/M..now"), ("上周订单较上周", "now-1w/w"))
# -- comparison phrases: the period they compare with is no window -----------------------------
ZH.add("compare", "COMPARE _ (?:ZH_DE _)? (?:THE _)? (?:(?P<v>VAGUE) _)? (?:OF _)? (?:(?:RELPERIOD|RELDAY)(?! _ (?:ZH_DE _)? ZH_SAME)|(?:LAST|PREVIOUS) _ ENPERIOD)?", compare, ("上个月同比去年", "now-1M/M"))
ZH.add("zh_unit_trend", "(?<!D12|D0|ZHN|DI|GE)(?P<u>RI|DAY|WEEK|MONTH|QUARTER|JIDU|YEAR|YEARDU) TREND", step_word, ("今年的月趋势", "now/y..now"))
ZH.add("zh_now_period", "(?P<c>NOW) _ (?:GE _)? (?P<u>WEEK|MONTH|QU|YU)", lambda f: this_period(f) if f.need("c").value in ("当前", "目前") else None, ("当前月", "now/M..now"))
# -- a part of the day before a clock written with a colon (晚上7:00到8:00: 19:00-20:00) ----------
ZH.add("zh_part_colon_clock", "(?P<part>DAYPART) _ (?P<h>DD) (?P<colon>COLON) (?P<min>DD)", clock, ("昨天晚上7:00到8:00", "2025-11-12T19:00..2025-11-12T20:00"), ("昨天下午3:30-5:00", "2025-11-12T15:30..2025-11-12T17:00"))
# -- Chinese, relative to now ------------------------------------------------------------------
ZH.add("zh_week_day", "(?P<r>RELPERIOD) _ (?P<d>ZHN|RI|DAY)(?! _ (?:GE|CAL|CLK))", week_of_relperiod, ("上周三的订单", "2025-11-05"))
ZH.add("zh_same", "(?P<r>RELPERIOD) _ (?:ZH_DE _)? ZH_SAME _ (?P<u>MONTH|QU)", same_last_year, ("去年同月的订单", "now-12M/M"), ("前年同季度", "now-8Q/Q"))
ZH.add("zh_same_current", "(?P<r>RELPERIOD) _ (?:ZH_DE _)? (?P<t>RELPERIOD)", same_last_year, ("去年本月的订单", "now-12M/M"), ("去年这个季度", "now-4Q/Q"))
ZH.add("zh_rest", "(?P<r>RELPERIOD) _ (?:ZH_DE _)? ZH_REMAIN", rest, ("本周剩余的排班", "now..now/w"))
ZH.add("zh_anchor_r", "(?:RELPERIOD _)? (?P<u>YEAR|MONTH|QU|WEEK) (?P<e>ZH_EDGE)(?= _ (?:ZH_SINCE|ZH_TONOW|ZH_TO|ZH_QI|DASH))", anchor, ("年初以来的订单", "now/y..now"))
ZH.add("zh_anchor", "(?P<r>RELPERIOD) (?P<e>ZH_EDGE)(?= _ (?:ZH_SINCE|ZH_TONOW|ZH_TO|ZH_QI|DASH))", anchor, ("今年初以来", "now/y..now"))
ZH.add("zh_relperiod", "(?P<r>RELPERIOD)", relperiod, ("上周", "now-1w/w"))
ZH.add("zh_relday", "(?P<r>RELDAY)", relday, ("昨天", "now-1d/d"))
ZH.add("zh_excl_rolling", "EXCL_TODAY _ (?:ZH_DE _)? ZH_RECENT _ (?:ZH_DE _)? (?P<n>CNT) _ (?:GE _)? (?:DAY|RI)", whole_days, ("不包括今天的最近7天", "now-7d/d..now-1d/d"))
ZH.add("zh_rolling_excl", "ZH_RECENT _ (?:ZH_DE _)? (?P<n>CNT) _ (?:GE _)? (?:DAY|RI) _ (?:ZH_WITHIN _)? (?:COMMA _)? EXCL_TODAY _ COMMA?", whole_days, ("最近7天不含今天", "now-7d/d..now-1d/d"))
ZH.add("zh_clock_rolling", "(?:NOW _)? ZH_RECENT _ (?:ZH_DE _)? (?:ZH_THIS _)? (?P<n>CNT|HALF)? _ (?P<ge>GE)? _ (?P<u>CLK) _ (?P<half>HALF)? _ (?:ZH_SINCE|ZH_HARMLESS|ZH_WITHIN)?", rolling, ("最近3小时的订单", "now-3h..now"))
ZH.add("zh_rolling", "(?:NOW _)? ZH_RECENT _ (?:ZH_DE _)? (?:ZH_THIS _)? (?P<n>CNT|HALF) _ (?P<ge>GE)? _ (?P<u>CAL) _ (?P<half>HALF)? _ (?:ZH_SINCE|ZH_HARMLESS|ZH_WITHIN)?", rolling, ("近一周", "now-1w..now"))
ZH.add("zh_fortnight", "ZH_RECENT _ (?:ZH_DE _)? (?:ZH_THIS _)? (?:(?P<n>CNT) _ (?:GE _)?)? (?P<u>FORTNIGHT)", rolling, ("最近双周的访问量", "now-2w..now"))
ZH.add("zh_last_n", "ZH_LAST _ (?P<n>CNT) _ (?P<ge>GE)? _ (?P<u>CAL|CLK)", rolling, ("上3个月", "now-3M..now"))
ZH.add("zh_before_now", "(?:NOW _)? ZH_BEFORE _ (?P<n>CNT|HALF) _ (?P<ge>GE)? _ (?P<u>CAL)", rolling, ("今天之前30天的客流", "now-30d..now"))
ZH.add("zh_latest", "LATEST _ (?:ZH_DE _)? (?P<n>CNT)? _ (?P<ge>GE)? _ (?P<u>MONTH|QU|YU|WEEK)", latest, ("最新一年的营收", "now-1y..now"))
ZH.add("zh_ahead", "(?:ZH_FUTURE|ZH_NEXT|ZH_HOU) _ (?:ZH_DE _)? (?P<n>CNT|HALF) _ (?P<ge>GE)? _ (?P<u>CAL|CLK) _ (?P<half>HALF)?", ahead, ("未來7天的訂單", "now..now+7d"))
ZH.add("zh_first_n", "ZH_QIAN _ (?P<n>CNT) _ (?P<ge>GE)? _ (?P<u>QU|MONTH|DAY|RI|WEEK)(?! _ (?:ZH_BEFORE|ZH_QIAN))", first_n, ("前7天的订单", "now-7d..now"))
ZH.add("zh_first_n_clock", "(?<!NOW|RELDAY|TODAYISH|WEEKDAY|RI|HAO|DAYPART|ZH_DE|DAY)ZH_QIAN _ (?P<n>CNT) _ (?P<ge>GE)? _ (?P<u>CLK)(?! _ (?:ZH_BEFORE|ZH_QIAN))", rolling, ("前两小时的订单", "now-2h..now"), ("前30分钟", "now-30min..now"))
ZH.add("zh_ago", "(?P<n>CNT|HALF) _ (?P<ge>GE)? _ (?P<u>CAL|CLK) _ (?P<half>HALF)? _ (?:ZH_QIAN(?! _ (?:CNT|HALF|DI|QLABEL))|ZH_BEFORE)", ago, ("3天前", "now-3d"))
ZH.add("zh_later", "(?P<n>CNT|HALF) _ (?P<ge>GE)? _ (?P<u>CAL|CLK) _ (?P<half>HALF)? _ (?:ZH_HOU|ZH_AFTER)(?! _ (?:CAL|CNT))", later, ("3天后的库存", "now+3d"))
# -- Chinese periods, the year left open ---------------------------------------------------------
ZH.add("zh_year_first", "(?P<y>ZHN)(?= _ RANGE_TO _ (?:ZHN|Y4) _ YU)", year, ("二零二三到二零二四年", "2023..2024"))
ZH.add("zh_year", "(?P<y>Y4|ZHN) _ (?:YU|ZH_HARMLESS)", year, ("2024年", "2024"))
ZH.add("zh_year2", "(?P<y>D12) _ YU(?= _ (?:ZH_DE _ )?(?:NUM12 _ MONTH|DI|NUM12 _ QU|QLABEL|ZH_HALF|HOLIDAY|ZH_QIAN|RANGE_TO _ D12 _ YU|ZH_AND _ D12 _ YU))", year, ("23年Q4的订单", "2023-Q4"))
ZH.add("zh_year2_end", "(?<=(?:RANGE_TO|ZH_AND))(?P<y>D12) _ YU", year, ("2023年和24年", "2023..2024"))
ZH.add("zh_md_span", "(?P<m>NUM12) _ MONTH _ (?P<d>NUM12) _ (?:RI|HAO)? _ RANGE_TO _ (?P<d2>NUM12) _ (?:RI|HAO)", month_day, ("3月1日至15日的销量", "2025-03-01..2025-03-15"))
ZH.add("zh_md", "(?P<m>NUM12) _ MONTH _ (?P<d>NUM12) _ (?:RI|HAO|(?=$|ZH_DE|COMMA|SPACE|RANGE_TO|ZH_AND|ZH_HARMLESS|ZH_SINCE|ZH_TONOW|ZH_QI|ZH_UNTIL|BAR))", month_day, ("十月二號的銷量", "2025-10-02"))
ZH.add("zh_month_span", "(?P<m>NUM12) _ (?:MONTH _)? RANGE_TO _ (?P<m2>NUM12) _ MONTH", month, ("3月到5月的销量", "2025-03..2025-05"))
ZH.add("zh_final_n", "(?<=MONTH|YEAR|YEARDU|RELPERIOD|QUARTER|JIDU|QLABEL)(?:ZH_DE _)? ZH_FINAL _ (?P<n>CNT) _ (?:GE _)? (?P<u>DAY|RI|MONTH|QU)", last_n, ("今年最后一个月", "2025-12"), ("2024年3月最后3天", "2024-03-29..2024-03-31"), ("上季度最后一个月的销量", "2025-09"), ("本周最后两天", "2025-11-15..2025-11-16"))
ZH.add("zh_last_week_of_month", "(?<=MONTH)(?:ZH_DE _)? ZH_FINAL _ (?P<n>ZHN)? _ (?:GE _)? WEEK", lambda f: last_week_of_month(f) if count(f.tok("n")) in (None, 1) else None, ("2024年3月最后一周", "2024-W13"))
ZH.add("zh_last_week_of_year", "(?<=YEAR)(?:ZH_DE _)? ZH_FINAL _ (?P<n>ZHN)? _ (?:GE _)? WEEK", lambda f: last_week_of_year(f) if count(f.tok("n")) in (None, 1) else None, ("2024年最后一周", "2025-W01"))
ZH.add("zh_last_week_in", "(?<=RELPERIOD|QUARTER|JIDU|QLABEL)(?:ZH_DE _)? ZH_FINAL _ (?P<n>ZHN)? _ (?:GE _)? WEEK", lambda f: last_week_of_month(f) if count(f.tok("n")) in (None, 1) else None, ("本月最后一周的排班", "2025-W48"), ("上季度最后一周", "2025-W40"), ("今年最后一周", "2026-W01"))
ZH.add("zh_final_weeks", "(?<=MONTH|YEAR|YEARDU|RELPERIOD|QUARTER|JIDU|QLABEL)(?:ZH_DE _)? ZH_FINAL _ (?P<n>CNT) _ (?:GE _)? (?P<u>WEEK)", last_n, ("今年的最后3周", "2025-W51..2026-W01"), ("本月最后两周", "2025-W47..2025-W48"))
ZH.add("zh_nth_weekday", "(?<=MONTH|RELPERIOD)(?:ZH_DE _)? (?:DI _ (?P<n>NUM12)|(?P<last>ZH_FINAL) _ (?P<n1>ZHN)?) _ GE _ (?P<wd>WEEKDAY)", nth_weekday, ("十月第一个星期一", "2025-10-06"), ("四月的最后一个星期一", "2025-04-28"), ("上个月的第二个周五", "2025-10-10"))
ZH.add("zh_nth_month", "DI _ (?P<m>NUM12) _ GE _ MONTH", month, ("2021年的第三个月", "2021-03"))
ZH.add("zh_year0", "(?P<y>D0) _ YU", year, ("08年的奥运会", "2008"))
ZH.add("zh_month", "(?P<m>NUM12) _ MONTH", month, ("1月的营收", "2025-01"))
ZH.add("zh_quarter_span", "(?:DI _)? (?P<q>NUM12) _ (?:QU _)? RANGE_TO _ (?:DI _)? (?P<q2>NUM12) _ QU", quarter, ("2025年第一季度到第三季度", "2025-Q1..2025-Q3"))
ZH.add("zh_quarter", "(?:DI _)? (?P<q>NUM12) _ (?:JIDU|(?<=DI)QUARTER|QUARTER(?= _ (?:ZH_DE|RANGE_TO|ZH_AND|COMMA|$)))", quarter, ("2024年第一季度", "2024-Q1"))
ZH.add("zh_week", "DI _ (?P<w>NUM12) _ (?:GE _)? WEEK", week_number, ("第10周的销量", "2025-W10"))
ZH.add("zh_half_year", "(?P<h>ZH_HALF) _ YU", half_year, ("上半年的订单", "2025-01..2025-06"))
ZH.add("zh_half_month", "(?P<h>ZH_HALF) _ (?:GE _)? MONTH", half_month, ("3月上半月", "2025-03-01..2025-03-15"))
ZH.add("zh_dekad", "(?P<x>ZH_LAST|ZH_MID|ZH_NEXT) _ XUN", dekad, ("3月上旬", "2025-03-01..2025-03-10"))
ZH.add("zh_day_span", "(?P<d>NUM12) _ (?:RI|HAO)? _ RANGE_TO _ (?P<d2>NUM12) _ (?:RI|HAO)", day_of_month, ("1到5号", "2025-11-01..2025-11-05"))
ZH.add("zh_dom", "(?P<d>NUM12) _ (?:RI|HAO)(?! _ ZH_WITHIN)", day_of_month, ("3号的订单", "2025-11-03"))
ZH.add("holiday", "(?P<h>HOLIDAY) _ (?:ZH_DE _)? (?P<s>OTHERDAY|ZH_HARMLESS)?", holiday, ("christmas 2024", "2024-12-25"))
# fmt: on
