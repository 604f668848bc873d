"""Hand-read exceptions to the general rules of `rt_rules` / `rt_periods`, one per case.

Key: `<Language>/<SpecFile>#<index>` (the case's position in the spec file). Each line says
why the general rule does not fit that input.
"""

from __future__ import annotations

from benchmarks.corpus.rt_rules import Verdict, nothing, peer, spec

OVERRIDES: dict[str, Verdict] = {}

EN = "English/DateTimeModel#"
ZH = "Chinese/DateTimeModel#"
LIST = "§4.1 lists X and Y: start of the earliest .. end of the latest, step the finest unit"
OVERRIDES.update(
    {
        EN + "187": spec("list", "years 2007 2009", LIST),
        EN + "707": spec("list", "years 2007 2009", LIST),
        EN + "703": spec("list", "years 2015 2016", LIST + " ('from 2015 and 2016')"),
        EN + "577": spec("list", "window 2019-07-01 2020-03-31 quarter", LIST),
        EN + "244": spec(
            "day_range",
            "days 2018-07-21 2018-07-23",
            "§4.2 day ranges with bare days (this month's if started, else last month's)",
        ),
        EN + "245": spec(
            "day_of_month",
            "day 2018-07-21",
            "§4.2 bare day: the 21st has not started, so last month's",
        ),
        EN + "230": spec("holiday", "day 2018-07-04", "§4.2 Independence Day of this year"),
        EN + "284": spec(
            "hour_range",
            "window-utc 2018-06-04T16:30 2018-06-04T23:30",
            "§4.2 hour range 9.30-4.30pm on bare 6/4 (2018's); §4.3 the zone written governs "
            "(PST → America/Los_Angeles, PDT in June)",
        ),
        EN + "434": nothing(
            "weekday_date", "§4.3 'this Friday' is 2019-05-24, not 7/6: weekday and date disagree"
        ),
        EN + "437": nothing(
            "weekday_date", "§4.3 'this friday 5/12': 2019-05-12 is a Sunday, this Friday is 05-24"
        ),
        EN + "438": nothing("weekday_date", "§4.3 'next friday 5/12': 2019-05-12 is a Sunday"),
        EN + "443": nothing(
            "weekday_date",
            "§4.3 'this friday 5/12' and 'next sunday 5/20' disagree with their dates",
        ),
        EN + "675": spec(
            "since",
            "since 2016-03-01 month",
            "§4 X至今 (from March to date): start(X) .. now, step month",
        ),
        EN + "680": peer(
            "hour_range", "'next evening' is no named day (no SPEC row): finer than a day"
        ),
        EN + "906": spec(
            "hour_range",
            "span 2016-11-07T14:00 2016-11-08T16:30",
            "§4.2 from 2pm (today) till tomorrow 4:30pm (the peer's end is 14:30)",
        ),
        EN + "860": spec(
            "last_n_of",
            "weeks 2019-12-16 2020-01-05",
            "§4.3 the last N weeks of a named period: the last is the week holding 12-31",
        ),
        EN + "861": spec(
            "last_n_of", "months 2021-09 2021-12", "§4.3 the last N months of a named period"
        ),
        EN + "928": spec(
            "day_range",
            "days 2016-03-27 2016-04-03",
            "§4.2 from the 27th to the 3rd of April (the SPEC's own example)",
        ),
        EN + "376": nothing(
            "weekday_date", "§4.3 the 31st (bare: Dec 31 2018, a Monday) disagrees with Sunday"
        ),
        EN + "377": nothing(
            "weekday_date", "§4.3 the 31st (bare: Jan 31 2019, a Thursday) disagrees with Friday"
        ),
        ZH + "12": spec(
            "day_of_month", "day 2017-03-12", "§4.2 bare day 15号: this month's if started"
        ),
        ZH + "99": spec("list", "years 2015 2018", LIST + " (2023年和2024年)"),
        ZH + "101": spec("list", "months 2018-03 2018-05", LIST + " (3月和4月)"),
        ZH + "109": spec(
            "list", "months 2017-10 2018-05", LIST + " (bare 10月 not started: 2017's)"
        ),
    }
)
OVERRIDES.update(
    {
        EN + "866": peer(
            "date_arith",
            "'in 3 days on Friday': an offset and a weekday (no SPEC row; the peer's day)",
        ),
        EN + "905": spec(
            "hour_range",
            "from 2016-11-07T08:00",
            "§4.2 between 8 o'clock and now: 08:00 .. now, step day",
        ),
    }
)
ZHP = "Chinese/DatePeriodParser#"
ZHD = "Chinese/DateParser#"
OVERRIDES.update(
    {
        ZH + "11": nothing(
            "vague", "§4.1 最近 alone (近期, 最近几个月): a vague period settles nothing"
        ),
        ZH + "36": nothing(
            "hour_range", "§4.2 明天四点 is a bare hour without 上午/下午: ambiguous"
        ),
        ZH + "209": spec(
            "day_range",
            "days 2017-10-01 2017-11-02",
            "§4.2 numeric dates month first: 10/1/2017-11/2/2017",
        ),
        ZHP + "70": spec(
            "day_range",
            "days 2018-10-01 2018-10-07",
            "§4.2 numeric dates month first: 10/1/2018-10/7/2018",
        ),
        ZHP + "50": peer("range", "2010年之后2018年之前: two open ends joined (no SPEC row)"),
        ZHD + "56": nothing(
            "numeric_date",
            "§4.2 a first number over 12 is no month (27-7-3); no year-first rule for two digits",
        ),
        ZH + "256": spec(
            "last_n_of",
            "weeks 2019-12-16 2020-01-05",
            "§4.3 最后N周 of a named period: the last is the week holding 12-31",
        ),
        ZH + "257": spec("last_n_of", "months 2021-09 2021-12", "§4.3 最后N个月 of a named period"),
    }
)
OVERRIDES.update(
    {
        EN + "380": spec(
            "since", "since 2018-07-21 day", "§4 since X with X = late July (§4.2 下旬: the 21st)"
        ),
        EN + "616": spec(
            "holiday", "day 2020-05-01", "§4.1 劳动节 5/1 under its English name, bare: this year's"
        ),
        EN + "787": spec(
            "rolling",
            "roll -2 week step=day",
            "§4 past N units (§4.1 fortnight = 2 weeks) with the step word daily",
        ),
        EN + "644": nothing(
            "trap",
            "'shouldn't last two hours': last is a verb; a duration, no window (§4.2 when unsure)",
        ),
        ZHD + "12": Verdict(
            "holiday",
            "day 2017-01-28",
            "spec",
            "§4.1 春节 (lunar 1/1) as 大年初一; bare: this year's (2017-01-28)",
        ),
        ZHD + "13": Verdict(
            "holiday",
            "day 2017-01-27",
            "spec",
            "§4.2 除夕 (eve of 春节) as 大年三十; bare: this year's (2017-01-27)",
        ),
    }
)
OVERRIDES.update(
    {
        EN + "158": nothing(
            "hour_range", "§4.2 'from 10:30 to 3': the end is a bare number without am/pm"
        ),
    }
)
OVERRIDES.update(
    {
        EN + "531": nothing("multiple", "'this or next week': two windows joined by or (§4.1)"),
        EN + "553": nothing("multiple", "'last week or this': two windows joined by or (§4.1)"),
    }
)
OVERRIDES.update(
    {
        EN + "455": nothing(
            "named_day", "§4.3 'earth day 2010' settles nothing (the SPEC's own example)"
        ),
    }
)
ENP = "English/DatePeriodParser#"
RANGE = "§4 from X to Y: start(X) .. end(Y), step the finest unit of X, Y"
OVERRIDES.update(
    {
        ENP + "145": spec("in_n", "at +2 day", "§4.2 in N units (N days hence): the point now + N"),
        ENP + "183": spec(
            "day_range", "window 2015-01-01 2018-02-28 day", RANGE + " (Y = Feb 2018)"
        ),
        ENP + "185": spec(
            "day_range", "window 2019-02-01 2019-03-31 day", RANGE + " (Y = March 2019)"
        ),
        ENP + "186": spec(
            "day_range", "window 2019-02-01 2019-03-31 day", RANGE + " (Y = March 2019)"
        ),
        ENP + "188": spec(
            "month_range", "window 2015-05-01 2018-12-31 month", RANGE + " (Y = 2018)"
        ),
        ENP + "189": spec(
            "month_range", "window 2015-05-01 2018-12-31 month", RANGE + " (Y = 2018)"
        ),
        ENP + "209": peer("range", "'less than 2 weeks from today' (no SPEC row)"),
    }
)
OVERRIDES.update(
    {
        ENP + "26": spec(
            "in_n",
            "at +2 week",
            "§4.2 in N units: the point now + N (the peer's parser spec has no result)",
        ),
        ENP + "60": spec(
            "in_n",
            "at +3 year",
            "§4.2 in N units: the point now + N (the peer's parser spec has no result)",
        ),
        ENP + "161": spec(
            "in_n", "at +2 week", "§4.2 in N units with (a) couple of = 2 (§4.2 number words)"
        ),
        ENP + "80": spec(
            "half_year", "months 2016-07 2016-12", "§4.2 H2, no year named: this year's (started)"
        ),
        ENP + "62": spec(
            "rolling", "roll -3 year", "§4 last N years ('last 3year'): now−3 years .. now"
        ),
        ENP + "181": spec(
            "day_range", "days 2016-01-01 2016-04-05", RANGE + " (bare: this year's, started)"
        ),
    }
)
OVERRIDES.update(
    {
        ENP + "3": nothing(
            "weekday_date",
            "§4.3 the bare 11th (Oct 11, a Tuesday) disagrees with Friday: nothing settles",
        ),
        ENP + "194": spec(
            "week_range",
            "weeks 2017-07-31 2017-08-28",
            RANGE + "; week numbers with no year: the bare rule (2017's)",
        ),
        ENP + "195": spec(
            "week_range",
            "weeks 2017-07-31 2017-08-28",
            RANGE + "; week numbers with no year: the bare rule (2017's)",
        ),
    }
)
