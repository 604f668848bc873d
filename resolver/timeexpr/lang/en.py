"""English phrases, then the generic ones read last (now, bare day numbers, weekdays)."""

from __future__ import annotations

from resolver.timeexpr.atoms import this
from resolver.timeexpr.builders import (
    ago,
    ahead,
    anchor,
    days_around,
    en_relative,
    first_n,
    later,
    now,
    relday,
    rest,
    rolling,
    same_last_year,
    this_period,
    ttm,
    two_back,
    weekend,
    whole_days,
)
from resolver.timeexpr.dates import (
    dated_month,
    day_number,
    day_of_month,
    day_of_relative_month,
    dekad_word,
    half_year,
    last_n,
    last_week_of_month,
    last_week_of_year,
    month,
    month_day,
    month_name_relative,
    plural,
    quarter,
    recent_weekday,
    week_number,
    weekday,
    weekday_day_number,
    year_named,
)
from resolver.timeexpr.fiscal_phrases import (
    fiscal_first_quarters_named,
    fiscal_half,
    fiscal_quarter,
    fiscal_to_date,
    named_fiscal_year,
    relative_fiscal,
)
from resolver.timeexpr.lang import Phrases

EN = Phrases("en")

# fmt: off
# -- fiscal periods (SPEC §9.1; examples read with the tests' fiscal calendar, 04-01 named by
# the year it ends in) ----------------------------------------------------------------------------
EN.add("en_fiscal_first_n", "(?P<x>ORDW) _ (?P<n>CNT) _ E_QUARTER _ OF _ (?:THE _)? (?P<f>FISCAL) _ E_YEAR", fiscal_first_quarters_named, ("revenue for the first three quarters of the fiscal year", "now/FY-Q1..now/FY-Q3"))
EN.add("en_fiscal_to_date", "(?P<f>FISCAL) _ (?:E_YEAR _)? XTD", fiscal_to_date, ("fiscal year to date revenue", "now/FY..now"), ("fiscal year-to-date", "now/FY..now"))
EN.add("en_fiscal_relative", "(?P<r>THIS|LAST|NEXT) _ (?P<f>FISCAL) _ (?P<u>E_YEAR|E_QUARTER)", relative_fiscal, ("last fiscal year revenue", "now-1FY/FY"), ("this fiscal year", "now/FY..now"), ("next fiscal year", "now+1FY/FY"), ("last fiscal quarter", "now-1FQ/FQ"))
EN.add("en_fiscal_quarter", "(?P<f>FISCAL) _ (?:E_YEAR _)? (?:(?P<y>Y4|D12) _)? (?P<q>QLABEL)", fiscal_quarter, ("fiscal Q3 revenue", "FY-Q3"), ("FY2025 Q3", "FY2025-Q3"), ("FY25Q3", "FY2025-Q3"), ("fiscal year 2024 Q1", "FY2024-Q1"))
EN.add("en_fiscal_quarter_first", "(?P<q>QLABEL) _ (?:OF _)? (?P<f>FISCAL) _ (?:E_YEAR _)? (?P<y>Y4|D12)?", fiscal_quarter, ("Q3 FY2025 revenue", "FY2025-Q3"))
EN.add("en_fiscal_half", "(?P<f>FISCAL) _ (?:E_YEAR _)? (?:(?P<y>Y4|D12) _)? (?P<h>HLABEL)", fiscal_half, ("fiscal H1 revenue", "FY-H1"), ("FY2025 H2", "FY2025-H2"))
EN.add("en_fiscal_year", "(?P<f>FISCAL) _ E_YEAR _ (?P<y>Y4)", named_fiscal_year, ("fiscal year 2025 revenue", "FY2025"))
EN.add("en_fiscal_label", "(?P<f>FISCAL)(?! _ (?:E_YEAR|Y4|D12|QLABEL|HLABEL|XTD))", named_fiscal_year, ("FY2025 revenue", "FY2025"), ("FY25", "FY2025"))
# -- English ------------------------------------------------------------------------------------
EN.add("en_ttm", "TTM", ttm, ("ttm", "now-12M..now"))
EN.add("en_xtd", "(?P<x>XTD)", this_period, ("QTD sales", "now/Q..now"))
EN.add("en_so_far", "SO _ THIS _ (?P<u>ENPERIOD)", this_period, ("sales so far this year", "now/y..now"))
EN.add("en_today_so_far", "(?P<c>NOW) _ SO", lambda f: this("day") if f.need("c").value == "today" else None, ("today so far", "now/d..now"))
EN.add("en_later_this", "LATER _ THIS _ (?P<u>ENPERIOD)", rest, ("sales later this year", "now..now/y"))
EN.add("en_rest_of", "REST _ OF _ (?:THE|THIS) _ (?P<u>ENPERIOD)", rest, ("rest of the year revenue", "now..now/y"))
EN.add("en_begin_to_date", "(?:THE _)? BEGIN _ OF _ (?:THE|THIS) _ (?P<x>XTD)", this_period, ("beginning of the year to date", "now/y..now"))
EN.add("en_anchor", "(?:THE _)? BEGIN _ OF _ (?:THE|THIS) _ (?P<u>ENPERIOD)", anchor, ("since the beginning of this month", "now/M..now"))
EN.add("en_week_before", "(?P<u>ENPERIOD) _ (?P<k>BEFORE) _ (?:THE _)? LAST", two_back, ("week before last", "now-2w/w"), ("the month before the last", "now-2M/M"))
EN.add("en_week_after", "(?P<u>ENPERIOD) _ (?P<k>AFTER) _ (?:THE _)? NEXT", two_back, ("the week after next", "now+2w/w"), ("the month after the next", "now+2M/M"))
EN.add("en_day_before", "E_DAY _ BEFORE _ (?P<r>RELDAY)(?P<two>)", relday, ("the day before yesterday", "now-2d/d"))
EN.add("en_day_after", "E_DAY _ AFTER _ (?P<r>RELDAY)(?P<two>)", relday, ("the day after tomorrow", "now+2d/d"))
EN.add("en_days_around", "(?P<n>CNT) _ E_DAY _ (?P<k>BEFORE|AFTER) _ (?:THE _)? (?P<r>RELDAY)", days_around, ("two days before yesterday", "now-3d/d"))
EN.add("weekend", "(?P<r>WEEKEND_REL)", weekend, ("上周末", "2025-11-08..2025-11-09"))
EN.add("day_number_dash", "(?<!MONTHNAME)(?<!MONTHNAME SPACE)(?P<d>D12|ORD)(?= _ (?:DASH|THROUGH) _ (?:D12|ORD) _ (?:OF _)? MONTHNAME)", day_number, ("10 - 22 August 2012", "2012-08-10..2012-08-22"))
EN.add("en_last_n_of", "(?:THE _)? LAST _ (?P<n>CNT|ART) _ (?P<u>E_DAY|E_WEEK|E_MONTH|E_QUARTER)(?= _ OF _ (?:THE _)? (?:MONTHNAME|Y4|QLABEL|(?:THIS|LAST|NEXT|PREVIOUS) _ ENPERIOD))", last_n, ("the last 3 days of March 2024", "2024-03-29..2024-03-31"), ("the last 2 weeks of 2024", "2024-W52..2025-W01"))
EN.add("en_last_one_of", "(?:THE _)? LAST _ (?P<u>E_DAY|E_MONTH|E_QUARTER)(?= _ OF _ (?:THE _)? (?:MONTHNAME|Y4|QLABEL|(?:THIS|LAST|NEXT|PREVIOUS) _ ENPERIOD))", last_n, ("the last month of Q3 2024 revenue", "2024-09"), ("the last day of February 2024", "2024-02-29"))
EN.add("en_rolling_excl", "(?:LAST|PAST|PREVIOUS) _ (?P<n>CNT) _ E_DAY _ (?:COMMA _)? EXCL_TODAY", whole_days, ("last 7 days excluding today", "now-7d/d..now-1d/d"))
EN.add("en_clock_rolling", "(?:LAST|PAST|PREVIOUS|LATEST) _ (?:(?P<n>CNT|ART|HALF) _ (?:ART _)?)? (?P<u>CLK)", rolling, ("orders in the last 6 hours", "now-6h..now"))
EN.add("en_rolling", "(?:LAST|PAST|PREVIOUS|LATEST) _ (?P<n>CNT|ART|HALF) _ (?:ART _)? (?P<u>CAL)", rolling, ("last 1 day", "now-1d..now"))
EN.add("en_rolling_one", "(?:PAST|LATEST) _ (?P<u>ENPERIOD|E_DAY)", rolling, ("past week", "now-1w..now"))
EN.add("en_fortnight", "(?:LAST|PAST|PREVIOUS) _ (?P<u>FORTNIGHT)", rolling, ("orders in the past fortnight", "now-2w..now"))
EN.add("en_rolling_after", "(?P<n>CNT) _ (?:LAST|PAST) _ (?P<u>CAL|CLK)", lambda f: rolling(f) if plural(f) else None, ("3 last months", "now-3M..now"))
EN.add("en_ahead_after", "(?P<n>CNT) _ (?:NEXT|COMING) _ (?P<u>CAL|CLK)", lambda f: ahead(f) if plural(f) else None, ("3 next days", "now..now+3d"))
EN.add("en_ahead", "(?:NEXT|COMING|FOLLOWING) _ (?P<n>CNT|ART) _ (?P<u>CAL|CLK)", ahead, ("forecast for the next 7 days", "now..now+7d"))
EN.add("en_day_of_month_rel", "(?:THE _)? (?P<d>D12|ORD|ORDW) _ (?:E_DAY _)? OF _ (?:THE _)? (?P<k>NEXT|LAST|THIS|PREVIOUS|COMING|NOW) _ E_MONTH", day_of_relative_month, ("the 15th of last month", "2025-10-15"))
EN.add("en_first_n", "(?P<en>ORDW) _ (?P<n>CNT) _ (?P<u>E_QUARTER|E_MONTH|E_DAY|E_WEEK)", lambda f: first_n(f) if f.need("en").value == 1 else None, ("sales in the first 6 months of 2023", "2023-01..2023-06"))
EN.add("en_ago", "(?P<n>CNT|ART|HALF) _ (?:ART _)? (?P<u>CAL|CLK) _ AGO", ago, ("1 year ago", "now-1y"))
EN.add("en_later", "(?P<n>CNT|ART) _ (?P<u>CAL|CLK) _ LATER", later, ("3 days later", "now+3d"))
EN.add("en_in", "IN _ (?P<n>CNT|ART) _ (?P<u>CAL|CLK)(?! _ (?:AGO|LATER))", later, ("inventory in 3 days", "now+3d"))
EN.add("en_this_past_weekday", "THIS _ PAST _ (?P<wd>WEEKDAY)", recent_weekday, ("sales this past Wednesday", "2025-11-12"), ("this past Thursday", "2025-11-06"))
EN.add("en_this_weekday", "(?P<k>THIS|LAST|NEXT|PREVIOUS|COMING) _ (?:(?P<k2>COMING) _)? (?P<wd>WEEKDAY)", weekday, ("sales last Friday", "2025-11-07"))
EN.add("en_month_rel", "(?P<k>LAST|THIS|NEXT|COMING) _ (?P<m>MONTHNAME)", month_name_relative, ("sales since last March", "2025-03..now"))
EN.add("en_last_week_of_month", "(?:THE _)? LAST _ E_WEEK(?= _ OF _ (?:THE _)? (?:MONTHNAME|(?:THIS|LAST|NEXT|PREVIOUS) _ E_MONTH))", last_week_of_month, ("the last week of July 2024", "2024-W31"))
EN.add("en_last_week_of_year", "(?:THE _)? LAST _ E_WEEK(?= _ OF _ (?:THE _)? (?:Y4|(?:THIS|LAST|NEXT|PREVIOUS) _ E_YEAR))", last_week_of_year, ("last week of 2016", "2016-W52"))
EN.add("en_relative", "(?P<k>LAST|PREVIOUS|NEXT|COMING|THIS|FOLLOWING) _ (?P<u>ENPERIOD)", en_relative, ("last week", "now-1w/w"), ("the following week", "now+1w/w"))
EN.add("en_current", "(?P<c>NOW) _ (?P<u>ENPERIOD)", lambda f: this_period(f) if f.need("c").value == "current" else None, ("current month", "now/M..now"))
EN.add("en_same", "SAME _ (?P<u>E_MONTH|E_QUARTER) _ (?:OF _|IN _)? (?:LAST|PREVIOUS) _ E_YEAR", same_last_year, ("sales in the same month last year", "now-12M/M"))
EN.add("en_year_named", "(?:OTHER _)? E_YEAR _ (?:OF _)? (?P<y>Y4|ENN)", year_named, ("sales for the year 2008", "2008"))
EN.add("en_mdy_names", "(?P<m>MONTHNAME) _ (?:DASH|SLASH) _ (?P<y>Y4)", dated_month, ("Dec-2018 revenue", "2018-12"))
EN.add("en_early_month", "(?P<x>EARLY|MID|LATE) _ DASH? _ (?:OF _)? (?=MONTHNAME|(?:THIS|NEXT|LAST|PREVIOUS) _ E_MONTH)", dekad_word, ("late last month", "2025-10-21..2025-10-31"), ("early next month", "2025-12-01..2025-12-10"), ("mid March orders", "2025-03-11..2025-03-20"))
EN.add("en_md", "(?P<m>MONTHNAME) _ DOT? _ (?:SLASH _|DASH _)? (?:COMMA _)? (?:THE _)? (?P<d>DAYN)(?! _ (?:CAL|CLK|COLON|AMPM|OCLOCK))", month_day, ("Oct 2 orders", "2025-10-02"))
EN.add("en_nth_day_of", "(?:THE _)? (?P<d>ORDS) _ (?P<u>E_DAY) _ OF _ (?:THE _)? (?P<m>MONTHNAME) DOT?", lambda f: month_day(f) if f.need("u").value == "day" else None, ("the twenty third day of September", "2025-09-23"))
EN.add("en_dm", "(?:THE _)? (?P<d>D12|ORDS) DOT? _ (?:OF _)? (?P<m>MONTHNAME) DOT?", month_day, ("revenue on the 2nd of August", "2025-08-02"), ("16. Nov. 2016", "2016-11-16"))
EN.add("en_on_md_dash", "(?<=ON SPACE)(?P<m>DD) DASH (?P<d>DD)(?!(?:DASH|SLASH|DOT|COLON)(?:DD|Y4|DN))(?! _ (?:CAL|CLK|AMPM|OCLOCK|MONTHNAME|PERCENT|DASH|TO|THROUGH|D12|D0|Y4))", month_day, ("orders on 4-22", "2025-04-22"))
EN.add("en_month", "(?P<m>MONTHNAME) _ DOT?", month, ("March 2025", "2025-03"))
EN.add("en_quarter", "(?P<q>QLABEL)", quarter, ("Q1 2024", "2024-Q1"))
EN.add("en_ord_quarter", "(?:THE _)? (?P<q>ORDS) _ E_QUARTER", quarter, ("the second quarter of 2024", "2024-Q2"))
EN.add("en_ord_month", "(?:THE _)? (?P<m>ORDS) _ E_MONTH(?= _ OF)", month, ("the third month of 2021", "2021-03"))
EN.add("en_half", "(?P<h>HLABEL)", half_year, ("H2 2023 orders", "2023-07..2023-12"))
EN.add("en_ord_half", "(?:THE _)? (?P<h>ORDS) _ HALF", half_year, ("sales in the first half of 2024", "2024-01..2024-06"))
EN.add("en_week_no", "E_WEEK _ (?P<w>D12|ENN)", week_number, ("week 1 of 2025 revenue", "2025-W01"))
EN.add("en_week_label", "(?P<w>WLABEL)", week_number, ("w10", "2025-W10"))
EN.add("en_ord_week", "(?:THE _)? (?P<w>ORDS) _ E_WEEK(?= _ (?:OF|IN))", week_number, ("the second week of 2024", "2024-W02"))
EN.add("en_weekday_dot_date", "(?<=WEEKDAY SPACE)(?P<m>DD) DOT (?P<d>DD)(?! _ (?:DOT|CAL|CLK|COLON|AMPM|OCLOCK))", month_day, ("Thursday 11.13", "2025-11-13"))
EN.add("en_weekday_ordinal", "(?<=WEEKDAY SPACE)(?:THE _)? (?P<d>ORDS)(?! _ (?:CAL|CLK|OF|IN|MONTHNAME|ORDS|DAYN|COLON|AMPM|OCLOCK|DASH|SLASH|DOT))", day_of_month, ("Mon 10th", "2025-11-10"), ("Thursday the thirteenth", "2025-11-13"))
EN.add("en_weekday_number", "(?<=WEEKDAY SPACE)(?:(?P<the>THE) _)? (?P<d>D12|ENN)(?= _ (?:$|COMMA|POLITE))", weekday_day_number, ("orders on Thursday 13", "2025-11-13"), ("Tuesday the eleven", "2025-11-11"))
EN.add("en_the_day", "THE _ (?P<d>ORD)(?! _ (?:CAL|CLK|OF|MONTHNAME))", day_of_month, ("orders on the 1st", "2025-11-01"))
EN.add("now", "(?P<w>NOW|LATEST)", now, ("今天", "now"))
EN.add("day_number", "(?<=THROUGH|TO|DASH|UNTIL|ZH_TO|AND)(?P<d>D12|ORD|ORDW)", day_number, ("GPT-4 usage last week", "now-1w/w"))
EN.add("day_number_between", "(?<=BETWEEN SPACE)(?:THE _)? (?P<d>D12|ORD|ORDW)(?= _ AND _ (?:THE _)? (?:D12|ORD|ORDW) _ (?:OF _)? MONTHNAME)", day_number, ("orders between 3 and 12 of Sept", "2025-09-03..2025-09-12"))
EN.add("day_number_from", "(?<=FROM SPACE)(?:THE _)? (?P<d>D12|ORD|ORDW)(?= _ (?:TO|THROUGH|UNTIL|DASH) _ (?:THE _)? (?:D12|ORD|ORDW) _ (?:OF _)? MONTHNAME)", day_number, ("from 3 to 10 march", "2025-03-03..2025-03-10"))
EN.add("day_number_sp", "(?<=(?:THROUGH|TO|DASH|UNTIL|ZH_TO|AND)SPACE)(?P<d>D12|ORD|ORDW)", day_number, ("July 13 to 15", "2025-07-13..2025-07-15"))
EN.add("day_number_the", "(?<=(?:THROUGH|TO|UNTIL)SPACE)THE _ (?P<d>ORDW)(?! _ (?:CAL|CLK|OF|MONTHNAME))", day_number, ("from april the ninth till the seventeenth", "2025-04-09..2025-04-17"))
EN.add("weekday", "(?P<wd>WEEKDAY) (?:DOT(?= _ (?:$|COMMA)))?", weekday, ("周一的销量", "2025-11-10"))
EN.add("en_on_the_day", "(?<=ON SPACE)(?:THE _)? (?P<d>ORD|ORDW)(?! _ (?:CAL|CLK|OF|MONTHNAME|ORD|D12))", day_of_month, ("on the fifteenth", "2025-10-15"))
EN.add("en_the_day_alone", "THE _ (?P<d>D12)(?= _ (?:$|COMMA|POLITE))", day_of_month, ("the 15", "2025-10-15"))
EN.add("en_for_the_day", "(?<=FOR SPACE)THE _ (?P<d>ORDW|ENN)(?= _ (?:$|COMMA|POLITE))", day_of_month, ("orders for the second", "2025-11-02"), ("for the thirty", "2025-10-30"))
# fmt: on
