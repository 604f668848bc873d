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
    compare,
    dated_month,
    day_number,
    day_of_month,
    day_of_relative_month,
    dekad_word,
    half_year,
    holiday,
    month,
    month_day,
    month_name_relative,
    plural,
    quarter,
    week_number,
    weekday,
    year_named,
)
from resolver.timeexpr.lang import Phrases

EN = Phrases("en")

# fmt: off
# -- English ------------------------------------------------------------------------------------
EN.add("en_compare", "COMPARE _ (?:THE _)? (?:(?P<v>VAGUE) _)? (?:OF _)? (?:(?:LAST|PREVIOUS) _ ENPERIOD|RELDAY)?", compare)
EN.add("en_compare2", "COMPARE", compare)
EN.add("en_ttm", "TTM", ttm)
EN.add("en_xtd", "(?P<x>XTD)", this_period)
EN.add("en_so_far", "SO _ THIS _ (?P<u>ENPERIOD)", this_period)
EN.add("en_today_so_far", "(?P<c>NOW) _ SO", lambda f: this("day") if f.need("c").value == "today" else None)
EN.add("en_later_this", "LATER _ THIS _ (?P<u>ENPERIOD)", rest)
EN.add("en_rest_of", "REST _ OF _ (?:THE|THIS) _ (?P<u>ENPERIOD)", rest)
EN.add("en_begin_to_date", "(?:THE _)? BEGIN _ OF _ (?:THE|THIS) _ (?P<x>XTD)", this_period)
EN.add("en_anchor", "(?:THE _)? BEGIN _ OF _ (?:THE|THIS) _ (?P<u>ENPERIOD)", anchor)
EN.add("en_week_before", "(?P<u>ENPERIOD) _ (?P<k>BEFORE) _ LAST", two_back)
EN.add("en_week_after", "(?P<u>ENPERIOD) _ (?P<k>AFTER) _ NEXT", two_back)
EN.add("en_day_before", "E_DAY _ BEFORE _ (?P<r>RELDAY)(?P<two>)", relday)
EN.add("en_day_after", "E_DAY _ AFTER _ (?P<r>RELDAY)(?P<two>)", relday)
EN.add("en_days_around", "(?P<n>CNT) _ E_DAY _ (?P<k>BEFORE|AFTER) _ (?:THE _)? (?P<r>RELDAY)", days_around)
EN.add("weekend", "(?P<r>WEEKEND_REL)", weekend)
EN.add("day_number_dash", "(?<!MONTHNAME)(?<!MONTHNAME SPACE)(?P<d>D12|ORD)(?= _ (?:DASH|THROUGH) _ (?:D12|ORD) _ (?:OF _)? MONTHNAME)", day_number)
EN.add("en_rolling_excl", "(?:LAST|PAST|PREVIOUS) _ (?P<n>CNT) _ E_DAY _ (?:COMMA _)? EXCL_TODAY", whole_days)
EN.add("en_clock_rolling", "(?:LAST|PAST|PREVIOUS|LATEST) _ (?:(?P<n>CNT|ART|HALF) _ (?:ART _)?)? (?P<u>CLK)", rolling)
EN.add("en_rolling", "(?:LAST|PAST|PREVIOUS|LATEST) _ (?P<n>CNT|ART|HALF) _ (?:ART _)? (?P<u>CAL)", rolling)
EN.add("en_rolling_one", "(?:PAST|LATEST) _ (?P<u>ENPERIOD|E_DAY)", rolling)
EN.add("en_fortnight", "(?:LAST|PAST|PREVIOUS) _ (?P<u>FORTNIGHT)", rolling)
EN.add("en_rolling_after", "(?P<n>CNT) _ (?:LAST|PAST) _ (?P<u>CAL|CLK)", lambda f: rolling(f) if plural(f) else None)
EN.add("en_ahead_after", "(?P<n>CNT) _ (?:NEXT|COMING) _ (?P<u>CAL|CLK)", lambda f: ahead(f) if plural(f) else None)
EN.add("en_ahead", "(?:NEXT|COMING) _ (?P<n>CNT|ART) _ (?P<u>CAL|CLK)", ahead)
EN.add("en_day_of_month_rel", "(?:THE _)? (?P<d>D12|ORD|ORDW) _ (?:E_DAY _)? OF _ (?:THE _)? (?P<k>NEXT|LAST|THIS|PREVIOUS|COMING|NOW) _ E_MONTH", day_of_relative_month)
EN.add("en_first_n", "(?P<en>ORDW) _ (?P<n>CNT) _ (?P<u>E_QUARTER|E_MONTH|E_DAY|E_WEEK)", lambda f: first_n(f) if f.need("en").value == 1 else None)
EN.add("en_ago", "(?P<n>CNT|ART|HALF) _ (?:ART _)? (?P<u>CAL|CLK) _ AGO", ago)
EN.add("en_later", "(?P<n>CNT|ART) _ (?P<u>CAL|CLK) _ LATER", later)
EN.add("en_in", "IN _ (?P<n>CNT|ART) _ (?P<u>CAL|CLK)(?! _ (?:AGO|LATER))", later)
EN.add("en_this_weekday", "(?P<k>THIS|LAST|NEXT|PREVIOUS|COMING) _ (?:(?P<k2>COMING) _)? (?P<wd>WEEKDAY)", weekday)
EN.add("en_month_rel", "(?P<k>LAST|THIS|NEXT|COMING) _ (?P<m>MONTHNAME)", month_name_relative)
EN.add("en_relative", "(?P<k>LAST|PREVIOUS|NEXT|COMING|THIS) _ (?P<u>ENPERIOD)", en_relative)
EN.add("en_current", "(?P<c>NOW) _ (?P<u>ENPERIOD)", lambda f: this_period(f) if f.need("c").value == "current" else None)
EN.add("en_same", "SAME _ (?P<u>E_MONTH|E_QUARTER) _ (?:OF _|IN _)? (?:LAST|PREVIOUS) _ E_YEAR", same_last_year)
EN.add("en_year_named", "(?:OTHER _)? E_YEAR _ (?:OF _)? (?P<y>Y4|ENN)", year_named)
EN.add("en_mdy_names", "(?P<m>MONTHNAME) _ DASH _ (?P<y>Y4)", dated_month)
EN.add("en_early_month", "(?P<x>EARLY|MID|LATE) _ DASH? _ (?:OF _)? (?=MONTHNAME)", dekad_word)
EN.add("en_md", "(?P<m>MONTHNAME) _ DOT? _ (?:SLASH _)? (?:COMMA _)? (?:THE _)? (?P<d>DAYN)(?! _ (?:CAL|CLK|COLON|AMPM|OCLOCK))", month_day)
EN.add("en_dm", "(?:THE _)? (?P<d>D12|ORDS) _ (?:OF _)? (?P<m>MONTHNAME)", month_day)
EN.add("en_month", "(?P<m>MONTHNAME) _ DOT?", month)
EN.add("en_quarter", "(?P<q>QLABEL)", quarter)
EN.add("en_ord_quarter", "(?:THE _)? (?P<q>ORDS) _ E_QUARTER", quarter)
EN.add("en_half", "(?P<h>HLABEL)", half_year)
EN.add("en_ord_half", "(?:THE _)? (?P<h>ORDS) _ HALF", half_year)
EN.add("en_week_no", "E_WEEK _ (?P<w>D12|ENN)", week_number)
EN.add("en_week_label", "(?P<w>WLABEL)", week_number)
EN.add("en_ord_week", "(?:THE _)? (?P<w>ORDS) _ E_WEEK(?= _ (?:OF|IN))", week_number)
EN.add("en_the_day", "THE _ (?P<d>ORD)(?! _ (?:CAL|CLK|OF|MONTHNAME))", day_of_month)
EN.add("en_holiday", "(?P<h>HOLIDAY)", holiday)
EN.add("now", "(?P<w>NOW|LATEST)", now)
EN.add("day_number", "(?<=THROUGH|TO|DASH|UNTIL|ZH_TO|AND)(?P<d>D12|ORD|ORDW)", day_number)
EN.add("day_number_between", "(?<=BETWEEN SPACE)(?:THE _)? (?P<d>D12|ORD|ORDW)(?= _ AND _ (?:THE _)? (?:D12|ORD|ORDW) _ (?:OF _)? MONTHNAME)", day_number)
EN.add("day_number_from", "(?<=FROM SPACE)(?:THE _)? (?P<d>D12|ORD|ORDW)(?= _ (?:TO|THROUGH|UNTIL|DASH) _ (?:THE _)? (?:D12|ORD|ORDW) _ (?:OF _)? MONTHNAME)", day_number)
EN.add("day_number_sp", "(?<=(?:THROUGH|TO|DASH|UNTIL|ZH_TO|AND)SPACE)(?P<d>D12|ORD|ORDW)", day_number)
EN.add("weekday", "(?P<wd>WEEKDAY) (?:DOT(?= _ (?:$|COMMA)))?", weekday)
EN.add("en_on_the_day", "(?<=ON SPACE)(?:THE _)? (?P<d>ORD|ORDW)(?! _ (?:CAL|CLK|OF|MONTHNAME|ORD|D12))", day_of_month)
EN.add("en_the_day_alone", "THE _ (?P<d>D12)(?= _ (?:$|COMMA))", day_of_month)
# fmt: on
