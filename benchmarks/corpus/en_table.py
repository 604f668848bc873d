# ruff: noqa: E501  -- the table is data: one line per group of phrases, with its note
"""How resolver's SPEC reads every phrase of Duckling's English time corpus.

Written by hand from SPEC §3/§4/§4.1/§4.2 and the brief's conventions, phrase by phrase, at
Duckling's reference now (Tue 2013-02-12 04:30 at UTC−2, `Etc/GMT+2`; the ISO week is
Mon 02-11 .. Sun 02-17). One line per group of phrases that read alike:

    phrases (separated by ;) | family | reading (readings.py) | basis [single|multi] | note

`single` is derived from the reading (one day/week/month/quarter/year/holiday) unless the basis
field says `single` or `multi`. Lines starting with `#` are comments.
"""

TABLE = r"""
# ---- instant words (SPEC §4 first row) ----
now; right now | instant | now | spec multi | §4 row 1: now is an instant word
just now; at the moment; ATM | instant | now | silent multi | spec-silent synonym of now (Duckling: now, second grain): read as the instant
today | instant | now | spec single | §4 row 1: today is an instant word, not the day
at this time | instant | now | silent multi | spec-silent; Duckling reads it as today, which the SPEC makes an instant
# ---- named days relative to now ----
yesterday | past_period | day 2013-02-11 | spec | §4: yesterday = that whole day
tomorrow | future_period | day 2013-02-13 | spec | §4.2 future: 明天/tomorrow, that whole day
tomorrows | future_period | day 2013-02-13 | silent | spec-silent misspelling of tomorrow; §4.2 tomorrow's day
the day after tomorrow | future_period | day 2013-02-14 | spec | §4.2 后天 (the day after tomorrow), that day
the day before yesterday | past_period | day 2013-02-10 | spec | §4.2 前天 (the day before yesterday), that day
# ---- weekdays (SPEC §4.1: bare = this week's if started, else last week's) ----
monday; mon. | weekday | day 2013-02-11 | spec | §4.1 bare weekday: this week's Monday has started
this monday; monday of this week | weekday | day 2013-02-11 | spec | §4.1 this Friday = this ISO week's day
tuesday | weekday | day 2013-02-12 | spec | §4.1 bare weekday: today is Tuesday, it has started
tuesday of this week | weekday | day 2013-02-12 | spec | §4.1 this week's Tuesday
wednesday of this week | weekday | day 2013-02-13 | spec | §4.1 this week's Wednesday (a named day, whole even though it has not come)
thursday; thu; thu. | weekday | day 2013-02-07 | spec | §4.1 bare weekday: this week's Thursday has not started, so last week's (Duckling: the coming one)
friday; fri; fri. | weekday | day 2013-02-08 | spec | §4.1 bare weekday: last week's Friday (Duckling: the coming one)
saturday; sat; sat. | weekday | day 2013-02-09 | spec | §4.1 bare weekday: last week's Saturday (Duckling: the coming one)
sunday; sun; sun. | weekday | day 2013-02-10 | spec | §4.1 bare weekday: last week's Sunday (Duckling: the coming one)
last sunday; sunday from last week; last week's sunday | weekday | day 2013-02-10 | spec | §4.1 last Friday = that day of the previous ISO week
last tuesday | weekday | day 2013-02-05 | spec | §4.1 last Tuesday = Tuesday of the previous ISO week
next tuesday | weekday | day 2013-02-19 | spec | §4.2 next Friday mirrors last Friday: Tuesday of the next ISO week
next wednesday; wednesday of next week; wednesday next week | weekday | day 2013-02-20 | spec | §4.2 next Friday / 下周X: that day of the next ISO week
next monday | weekday | day 2013-02-18 | spec | §4.2 next Friday / 下周X: Monday of the next ISO week
next saturday | weekday | day 2013-02-23 | spec | §4.2 next Friday / 下周X: Saturday of the next ISO week
around next tuesday | approximate | none | spec-nothing single | §4.2: around/about X settles nothing
friday after next | weekday | day 2013-02-22 | silent | spec-silent; Duckling's meaning (the Friday after the coming one) converted
wednesday after next | weekday | day 2013-02-20 | silent | spec-silent; Duckling's meaning (the Wednesday after the coming one, 02-20) converted
# ---- weekday with a date: the date is read first (bare rules), then the weekday must agree ----
Monday, Feb 18; Mon, February 18 | weekday_date | none | spec-nothing single | §4.2: bare Feb 18 is 2012-02-18 (this year's has not started), a Saturday: weekday and date disagree (Duckling picks 2013)
Tuesday the 19th; Tuesday 19th | weekday_date | none | spec-nothing single | §4.2: bare 19th is 2013-01-19 (this month's has not started), a Saturday: weekday and date disagree
Thu 15th | weekday_date | none | spec-nothing single | §4.2: bare 15th is 2013-01-15, a Tuesday: weekday and date disagree (Duckling searches ahead to 2013-08-15)
Sunday, Feb 10 | weekday_date | day 2013-02-10 | spec | §4.2 month + day: 2013-02-10 has started and is a Sunday, they agree
Wed, Feb13 | weekday_date | none | spec-nothing single | §4.2: bare Feb 13 is 2012-02-13 (not started this year), a Monday: weekday and date disagree
Fri, Jul 18; Jul 18, Fri | weekday_date | none | spec-nothing single | §4.2: bare Jul 18 is 2012-07-18, a Wednesday: weekday and date disagree (Duckling searches ahead to 2014)
# ---- month + day (SPEC §4.2; no year: this year's if that day has started, else last year's) ----
the 1st of march; first of march; the first of march; march first | month_day | day 2012-03-01 | spec | §4.2 month + day; March 1 of 2013 has not started, so 2012's (Duckling: 2013)
the 2nd of march; second of march; the second of march | month_day | day 2012-03-02 | spec | §4.2 month + day, bare: last year's (this year's has not started)
march 3; the third of march | month_day | day 2012-03-03 | spec | §4.2 month + day, bare: last year's (this year's has not started)
the ides of march | month_day | day 2012-03-15 | silent | spec-silent word (ides = 15th); Duckling's March 15, with the bare-date rule: 2012
the 15th of february; 15 of february; february the 15th; february 15; 15th february; February 15 | month_day | day 2012-02-15 | spec | §4.2 month + day; Feb 15 2013 has not started (now is Feb 12), so 2012's
Aug 8 | month_day | day 2012-08-08 | spec | §4.2 month + day, bare: last year's
4th of July; 4 of july | month_day | day 2012-07-04 | spec | §4.2 month + day (also Independence Day 7/4), bare: last year's
march 3 2015; march 3rd 2015; march third 2015 | month_day | day 2015-03-03 | spec | §4.2 month + day with a year
April 14, 2015; 14april 2015 | month_day | day 2015-04-14 | spec | §4.2 month + day with a year
14th April 15 | month_day | day 2015-04-14 | silent | spec-silent two-digit year after a day-month; Duckling's 2015-04-14
20 of next month; 20th of the next month; 20th day of next month | month_day | day 2013-03-20 | spec | §4.2 day of a named month (next month), that day
20th of the current month; 20 of this month | month_day | day 2013-02-20 | spec | §4.2 day of a named month (this month), that day
20th of the previous month | month_day | day 2013-01-20 | spec | §4.2 day of a named month (last month), that day
# ---- bare day of month (SPEC §4.2: this month's if started, else last month's) ----
on the 15th | day_of_month | day 2013-01-15 | spec | §4.2 bare day: Feb 15 has not started, so January's (Duckling: Feb 15)
on the first; the 1st | day_of_month | day 2013-02-01 | spec | §4.2 bare day: this month's 1st has started (Duckling: March 1)
the 24; On 24th | day_of_month | day 2013-01-24 | spec | §4.2 bare day: Feb 24 has not started, so January's (Duckling latent: Feb 24)
# ---- numeric dates (SPEC §4/§4.2) ----
3/3/2015 | numeric_date | day 2015-03-03 | spec | §4.2 numeric date M/D/YYYY
2015-3-3; 2015-03-03 | numeric_date | day 2015-03-03 | spec | §4 2024-03-15 / §4.2 year first
3/3/15 | numeric_date | day 2015-03-03 | silent | spec-silent M/D/YY (two-digit year); Duckling's 2015-03-03
2/15; on 2/15; 2 / 15 | numeric_date | day 2012-02-15 | spec | §4.2 numeric M/D; bare: Feb 15 2013 has not started, so 2012's
2-15; 2 - 15 | numeric_date | day 2012-02-15 | silent | spec-silent M-D with a dash (could be a range 2..15); Duckling's Feb 15 with the bare-date rule: 2012
10/31/1974; 10/31/74; 10-31-74; 10.31.1974; 31/Oct/1974; 31-Oct-74; 31st Oct 1974 | numeric_date | day 1974-10-31 | spec | §4.2 numeric date / DD-Mon-YYYY; 1974 lies outside 2000..2100 (§5)
2/2013 | numeric_date | month 2013-02 | spec | §4.2 numeric month-year (MM-YYYY, here with a slash)
October 2014; 2014-10; 2014/10 | month | month 2014-10 | spec | §4 2024年3月: that whole month
# ---- months ----
March; in March; during March | month | month 2012-03 | spec | §4 bare month: March 2013 has not started, so 2012's (Duckling: 2013)
May | month | month 2012-05 | spec | §4 bare month: May 2013 has not started, so 2012's (Duckling latent: 2013-05); 'May' alone is the month, not the modal
last month | past_period | month 2013-01 | spec | §4 last month: that whole month
next month | future_period | month 2013-03 | spec | §4.2 next month: that whole month
next March | month | month 2013-03 | silent | spec-silent (mirror of 'since last March'): the first March after the current month
March after next | month | month 2014-03 | silent | spec-silent; Duckling's meaning (the March after next March)
March in 1 year; March in a year | month | month 2014-03 | silent | spec-silent; Duckling's meaning (March a year from now)
# ---- weeks ----
this week; current week | this_period | todate week | spec | §4 this week: start of the week .. now
last week; previous week | past_period | week 2013-02-04 | spec | §4 last week: the whole previous ISO week
past week | rolling | roll -1 week | spec | §4 past N weeks with N = 1: now − 1 week .. now (Duckling: the previous week)
next week; the following week; upcoming week; coming week | future_period | week 2013-02-18 | spec | §4.2 next week: the whole next ISO week
around next week | approximate | none | spec-nothing single | §4.2: around X settles nothing
all week | week | week 2013-02-11 | silent | spec-silent; Duckling's this-week interval (Mon .. Sun 00:00) read as the ISO week
the week | week | days 2013-02-12 2013-02-17 | silent | spec-silent latent phrase; Duckling's today .. end of the week, as whole days through Sunday
rest of the week | rest_of_period | rest week | spec | §4.2 rest of the week: now .. end of the week
the week of october 6th | week | week 2012-10-06 | spec | §4.2 the week of March 3: that ISO week; bare Oct 6 is 2012's (Duckling: the week of 2013-10-07)
the week of october 7th | week | week 2012-10-07 | spec | §4.2 the week of March 3: that ISO week; bare Oct 7 is 2012's
first week of october 2014 | week | week 2014-10-06 | silent | spec-silent week of a month; Duckling's week (Mon 2014-10-06)
third last week of 2018; the third last week of 2018; the 3rd last week of 2018 | week | week 2018-12-10 | silent | spec-silent; Duckling's week (Mon 2018-12-10)
2nd last week of October 2018; the second last week of October 2018 | week | week 2018-10-15 | silent | spec-silent; Duckling's week (Mon 2018-10-15)
last week of september 2014 | week | week 2014-09-22 | silent | spec-silent; Duckling's week (Mon 2014-09-22)
# ---- quarters ----
this quarter; this qtr | this_period | todate quarter | spec | §4 this quarter: start of the quarter .. now
next quarter; next qtr | future_period | quarter 2013-Q2 | spec | §4.2 next quarter: that whole quarter
third quarter; 3rd quarter; third qtr; 3rd qtr; the 3rd qtr | quarter | quarter 2012-Q3 | spec | bare quarter (brief: like a bare month): Q3 2013 has not started, so 2012's (Duckling: 2013)
4th quarter 2018; 4th qtr 2018; the 4th qtr of 2018; 2018Q4 | quarter | quarter 2018-Q4 | spec | §4 2024Q1 / 2024年第一季度: that quarter
18q4 | quarter | quarter 2018-Q4 | silent | spec-silent two-digit year with q (§4.1 has 24年Q1 in Chinese only); Duckling's 2018 Q4
# ---- years ----
last year; last yr | past_period | year 2012 | spec | §4 last year: that whole year
this year; current year; this yr | this_period | todate year | spec | §4 this year: start of the year .. now
next year; next yr | future_period | year 2014 | spec | §4.2 next year: that whole year
in 2014 | year | year 2014 | spec | §4 2024: that whole year
in 2014 A.D.; in 2014 AD | year | year 2014 | silent | spec-silent era marker; Duckling's year 2014
in 2014 B.C.; in 2014 BC | year | year -2014 | silent | spec-silent era; Duckling's year −2014 (outside 2000..2100)
in 14 a.d. | year | year 14 | silent | spec-silent era; Duckling's year 14 (outside 2000..2100)
1974 | year | year 1974 | spec | §4.2 a four-digit year; 1974 lies outside 2000..2100 (Duckling latent)
1960 - 1961 | year | years 1960 1961 | spec | §4 range X-Y of years; outside 2000..2100 (Duckling latent)
# ---- ordinal days / weekdays of a period (spec-silent; Duckling's meaning, bare months by the bare rule) ----
last Monday of March | nth_weekday | day 2012-03-26 | silent | spec-silent; bare March is 2012's (bare-month rule), its last Monday
last Sunday of March 2014 | nth_weekday | day 2014-03-30 | silent | spec-silent; Duckling's day
third day of october | nth_weekday | day 2012-10-03 | silent | spec-silent; bare October is 2012's (bare-month rule), its 3rd day
fifth last day of May; the 5th last day of May | nth_weekday | day 2012-05-27 | silent | spec-silent; bare May is 2012's (bare-month rule), its fifth last day
last day of october 2015; last day in october 2015 | nth_weekday | day 2015-10-31 | silent | spec-silent; Duckling's day
first tuesday of october; first tuesday in october | nth_weekday | day 2012-10-02 | silent | spec-silent; bare October is 2012's (bare-month rule), its first Tuesday
third tuesday of september 2014 | nth_weekday | day 2014-09-16 | silent | spec-silent; Duckling's day
first wednesday of october 2014 | nth_weekday | day 2014-10-01 | silent | spec-silent; Duckling's day
second wednesday of october 2014 | nth_weekday | day 2014-10-08 | silent | spec-silent; Duckling's day
third tuesday after christmas 2014 | nth_weekday | day 2015-01-13 | silent | spec-silent; Duckling's day
the first Monday of this month; the first Monday of the month; the first Monday in this month; first Monday in the month | nth_weekday | day 2013-02-04 | silent | spec-silent; Duckling's day
first monday of last month | nth_weekday | day 2013-01-07 | silent | spec-silent; Duckling's day
first tuesday of last month | nth_weekday | day 2013-01-01 | silent | spec-silent; Duckling's day
second monday of last month | nth_weekday | day 2013-01-14 | silent | spec-silent; Duckling's day
last friday of october; last friday in october | nth_weekday | day 2012-10-26 | silent | spec-silent; bare October is 2012's (bare-month rule), its last Friday
the closest Monday to Oct 5th | nth_weekday | day 2012-10-08 | silent | spec-silent; bare Oct 5 is 2012-10-05 (Fri), the closest Monday is 10-08
the second closest Mon to October fifth | nth_weekday | day 2012-10-01 | silent | spec-silent; bare Oct 5 is 2012-10-05 (Fri), the second closest Monday is 10-01
2 thursdays back; 2 thursdays ago | relative_weekday | day 2013-01-31 | silent | spec-silent; Duckling's day
3 fridays from now; three fridays from now | relative_weekday | day 2013-03-01 | silent | spec-silent; Duckling's day
diff:3 fridays from now; diff:three fridays from now | relative_weekday | day 2013-03-08 | silent | spec-silent; Duckling's day (its diff corpus: now = Fri 2013-02-15 04:30)
2 sundays from now; two sundays from now | relative_weekday | day 2013-02-24 | silent | spec-silent; Duckling's day
4 tuesdays from now; four tuesdays from now | relative_weekday | day 2013-03-12 | silent | spec-silent; Duckling's day
# ---- last / next N units (SPEC §4, §4.1, §4.2) ----
last 2 seconds; last two seconds | rolling | none | silent | spec-silent: seconds are finer than the §4.1 hours/minutes row
next 3 seconds; next three seconds | rolling | none | silent | spec-silent: seconds are finer than a minute
last 2 minutes; last two minutes | rolling | roll -2 minute | spec | §4.1 last N minutes: now − 2 min .. now, step day
next 3 minutes; next three minutes | rolling | roll +3 minute | spec | §4.2 future mirrors §4.1: now .. now + 3 min, step day
last 1 hour; last one hour | rolling | roll -1 hour | spec | §4.1 last N hours: now − 1 h .. now, step day
next 3 hours; next three hours | rolling | roll +3 hour | spec | §4.2 future mirrors §4.1: now .. now + 3 h, step day
last 2 days; last two days; past 2 days | rolling | roll -2 day | spec | §4 last N days: now − 2 days .. now (Duckling: the 2 whole days before today)
next 3 days; next three days | rolling | roll +3 day | spec | §4.2 next N days: now .. now + 3 days
next few days | rolling | none | spec-nothing | §4.1: 几/若干 (few) is a vague count, settle nothing
last 2 weeks; last two weeks; past 2 weeks | rolling | roll -2 week | spec | §4 last N weeks: now − 2 weeks .. now
next 3 weeks; next three weeks | rolling | roll +3 week | spec | §4.2 next N weeks: now .. now + 3 weeks
last 2 months; last two months | rolling | roll -2 month | spec | §4 last N months: now − 2 months .. now
next 3 months; next three months | rolling | roll +3 month | spec | §4.2 next N months: now .. now + 3 months
last 2 years; last two years | rolling | roll -2 year | spec | §4 last N years: now − 2 years .. now
next 3 years; next three years | rolling | roll +3 year | spec | §4.2 next N years: now .. now + 3 years
upcoming two weeks; upcoming two week; upcoming 2 weeks; upcoming 2 week; two upcoming weeks; two upcoming week; 2 upcoming weeks; 2 upcoming week | rolling | roll +2 week | spec | §4.2 next N weeks (upcoming = next): now .. now + 2 weeks (Duckling: the week two weeks ahead)
upcoming two days; upcoming two day; upcoming 2 days; upcoming 2 day; two upcoming days; two upcoming day; 2 upcoming days; 2 upcoming day | rolling | roll +2 day | spec | §4.2 next N days: now .. now + 2 days (Duckling: the day two days ahead)
upcoming two months; upcoming two month; upcoming 2 months; upcoming 2 month; two upcoming months; two upcoming month; 2 upcoming months; 2 upcoming month | rolling | roll +2 month | spec | §4.2 next N months: now .. now + 2 months (Duckling: the month two months ahead)
upcoming two quarters; upcoming two quarter; upcoming 2 quarters; upcoming 2 quarter; two upcoming quarters; two upcoming quarter; 2 upcoming quarters; 2 upcoming quarter | rolling | roll +2 quarter | spec | §4.2 next N quarters: now .. now + 2 quarters (Duckling: the quarter two ahead)
upcoming two years; upcoming two year; upcoming 2 years; upcoming 2 year; two upcoming years; two upcoming year; 2 upcoming years; 2 upcoming year | rolling | roll +2 year | spec | §4.2 next N years: now .. now + 2 years (Duckling: the year two ahead)
Within 2 weeks | rolling | roll +2 week | silent | spec-silent; Duckling's now .. two weeks ahead, read as next 2 weeks (now .. now + 2 weeks)
# ---- N units ago / in N units / hence ----
7 days ago | ago | at -7 day | spec | §4 N units ago: start = end = now − 7 days
14 days Ago | ago | at -14 day | spec | §4 N units ago: now − 14 days
a fortnight ago | ago | at -2 week | spec | §4 ago with §4.1 fortnight = 2 weeks: now − 2 weeks, step week
a week ago; one week ago; 1 week ago | ago | at -1 week | spec | §4 N units ago: now − 1 week, step week
three weeks ago | ago | at -3 week | spec | §4 N units ago: now − 3 weeks, step week
three months ago | ago | at -3 month | spec | §4 N units ago: now − 3 months, step month
two years ago | ago | at -2 year | spec | §4 N units ago: now − 2 years, step year
in 7 days; 7 days hence | in_n | at +7 day | spec | §4.2 in 3 days, the mirror of N units ago: now + 7 days
14 days hence | in_n | at +14 day | spec | §4.2 in N days (hence = from now): now + 14 days
a fortnight hence | in_n | at +2 week | spec | §4.2 in N units with fortnight = 2 weeks: now + 2 weeks
in 1 week; in a week; a week hence; one week hence; 1 week hence | in_n | at +1 week | spec | §4.2 in N units: now + 1 week, step week
three weeks hence | in_n | at +3 week | spec | §4.2 in N units: now + 3 weeks
three months hence | in_n | at +3 month | spec | §4.2 in N units: now + 3 months
two years hence | in_n | at +2 year | spec | §4.2 in N units: now + 2 years
in a day; a day from now; a day from right now | in_n | at +1 day | spec | §4.2 in N days: now + 1 day
3 years from today | in_n | at +3 year | spec | §4.2 in N units (from today): now + 3 years
in a sec; one second from now; in 1" | in_n | none | silent | spec-silent point finer than a day
in a minute; in one minute | in_n | at +1 minute | silent | docs/time-semantics.md choice 8 (revised after conversion): N hours/minutes ago or ahead is a point, like N units ago, step day
in 2 minutes; 2 minutes from now; in a couple of minutes; in a pair of minutes | in_n | at +2 minute | silent | docs/time-semantics.md choice 8 (revised after conversion): N hours/minutes ago or ahead is a point, like N units ago, step day
in three minutes | in_n | at +3 minute | silent | docs/time-semantics.md choice 8 (revised after conversion): N hours/minutes ago or ahead is a point, like N units ago, step day
in 60 minutes | in_n | at +60 minute | silent | docs/time-semantics.md choice 8 (revised after conversion): N hours/minutes ago or ahead is a point, like N units ago, step day
in 15 minutes | in_n | at +15 minute | silent | docs/time-semantics.md choice 8 (revised after conversion): N hours/minutes ago or ahead is a point, like N units ago, step day
in 1'; in 2 more minutes; in 15'; in 15 | in_n | none | silent | spec-silent point finer than a day (minutes ahead)
in a few minutes | in_n | none | spec-nothing | §4.1 vague count (few = 几); also finer than a day
in one hour | in_n | at +1 hour | silent | docs/time-semantics.md choice 8 (revised after conversion): N hours/minutes ago or ahead is a point, like N units ago, step day
in a couple hours; in a couple of hours | in_n | at +2 hour | silent | docs/time-semantics.md choice 8 (revised after conversion): N hours/minutes ago or ahead is a point, like N units ago, step day
in 24 hours | in_n | at +24 hour | silent | docs/time-semantics.md choice 8 (revised after conversion): N hours/minutes ago or ahead is a point, like N units ago, step day
in a quarter of an hour; in 1/4h; in 1/4 h; in 1/4 hour; in half an hour; in 1/2h; in 1/2 h; in 1/2 hour; in three-quarters of an hour; in 3/4h; in 3/4 h; in 3/4 hour; in 2.5 hours; in 2 and an half hours; in 1h | in_n | none | silent | spec-silent point finer than a day (hours ahead)
in a few hours; in few hours | in_n | none | spec-nothing | §4.1 vague count (few = 几); also finer than a day
in about half an hour | approximate | none | spec-nothing | §4.2 about X settles nothing
# ---- durations anchored on a date ----
for 10 days from 18th Dec; from 18th Dec for 10 days; 18th Dec for 10 days | day_range | days 2012-12-18 2012-12-27 | silent | spec-silent; Duckling's 10 days from Dec 18, bare Dec 18 being 2012's (bare-date rule)
one year After christmas; a year from Christmas | holiday | day 2013-12-25 | silent | spec-silent; bare Christmas is 2012-12-25 (SPEC), one year later
three days after Easter | holiday | day 2012-04-11 | silent | spec-silent; bare Easter is 2012-04-08 (this year's has not come), three days later
# ---- day ranges (SPEC §4.2; a bare month is last year's when this year's has not started) ----
July 13-15; July 13 to 15; July 13 thru 15; July 13 through 15; July 13 - July 15 | day_range | days 2012-07-13 2012-07-15 | spec | §4.2 day ranges, first .. last day; bare July is 2012's
from July 13-15; from 13 to 15 July; from 13th to 15th July; from the 13 to 15 July; from the 13th to 15th July; from the 13th to the 15th July; from the 13 to the 15 July | day_range | days 2012-07-13 2012-07-15 | spec | §4.2 day ranges; bare July is 2012's
from 13 to 15 of July; from 13th to 15 of July; from 13 to 15th of July; from 13th to 15th of July; from 13 to the 15 of July; from 13th to the 15 of July; from 13 to the 15th of July; from 13th to the 15th of July; from the 13 to the 15 of July; from the 13th to the 15 of July; from the 13 to the 15th of July; from the 13th to the 15th of July | day_range | days 2012-07-13 2012-07-15 | spec | §4.2 day ranges (from the 27th to the 3rd of April); bare July is 2012's
Aug 8 - Aug 12 | day_range | days 2012-08-08 2012-08-12 | spec | §4.2 day ranges; bare August is 2012's
August 27th - 29th; from August 27th - 29th | day_range | days 2012-08-27 2012-08-29 | spec | §4.2 day ranges; bare August is 2012's
23rd to 26th Oct | day_range | days 2012-10-23 2012-10-26 | spec | §4.2 day ranges; bare October is 2012's
1-8 september | day_range | days 2012-09-01 2012-09-08 | spec | §4.2 day ranges; bare September is 2012's
12 to 16 september | day_range | days 2012-09-12 2012-09-16 | spec | §4.2 day ranges; bare September is 2012's
19th To 21st aug | day_range | days 2012-08-19 2012-08-21 | spec | §4.2 day ranges; bare August is 2012's
# ---- hour ranges (SPEC §4.2: only on a named day, with am/pm or a 24-hour clock) ----
from 9:30 - 11:00 on Thursday; between 9:30 and 11:00 on thursday; between 9h30 and 11h00 on thursday; 9:30 - 11:00 on Thursday; 9h30 - 11h00 on Thursday; Thursday from 9:30 to 11:00; from 9:30 untill 11:00 on thursday; Thursday from 9:30 untill 11:00; 9:30 till 11:00 on Thursday | hour_range | span 2013-02-07T09:30 2013-02-07T11:00 | spec | §4.2 hour range on a named day, 24-hour clock: bare Thursday is last week's (02-07); 09:30 .. 1 ms before 11:00, step day
later than 9:30 but before 11:00 on Thursday | hour_range | none | silent | spec-silent 'later than … but before …' (not a §4.2 range form; before/after alone are open): finer than a day
Thursday from 9a to 11a | hour_range | span 2013-02-07T09:00 2013-02-07T11:00 | spec | §4.2 hour range on a named day with am: bare Thursday is 02-07; 09:00 .. 1 ms before 11:00, step day
this Thu 9-11am | hour_range | span 2013-02-14T09:00 2013-02-14T11:00 | spec | §4.2 hour range on a named day (this Thursday = 02-14) with am: 09:00 .. 1 ms before 11:00
1pm-2pm tomorrow | hour_range | span 2013-02-13T13:00 2013-02-13T14:00 | spec | §4.2 hour range on a named day with pm: 13:00 .. 1 ms before 14:00, step day
2015-03-28 17:00:00/2015-03-29 21:00:00 | hour_range | span 2015-03-28T17:00 2015-03-29T21:00 | spec | §4.2 hour range between named dates with a 24-hour clock: 17:00 .. 1 ms before 21:00 next day, step day
tomorrow in between 1-2:30 ish | hour_range | none | spec-nothing | §4.2: bare 1 without am/pm and 'ish' (approximately): settle nothing
around 3-4pm | hour_range | none | spec-nothing | §4.2: around X settles nothing
9:30 - 11:00; 9h30 - 11h00; 9h30 - 11h; 3-4pm; from 3 to 4 in the PM; 3:30 to 6 PM; 3:30-6 p.m.; 3:30-6:00pm; 15h30-18h; from 3:30 to six p.m.; from 3:30 to 6:00pm; between 3:30pm and 6 pm; 3pm - 6:00:00pm; 8am - 1pm; 11:30-1:30; 8am until 6 | hour_range | none | silent | spec-silent: an hour range with no named day is read only finer than a day
later than 3:30pm but before 6pm | hour_range | none | silent | spec-silent 'later than … but before …', no named day: finer than a day
9:30 - 11:00 CST; 9h30 - 11h00 CST; 9h30 - 11h CST; 15:00 GMT - 18:00 GMT; 15h00 GMT - 18h00 GMT; 15h GMT - 18h GMT | hour_range | none | silent | spec-silent: hours in another time zone, finer than a day
# ---- times of day (finer than a day) ----
at 3am; 3 in the AM; at 3 AM; 3 oclock am; at three am; this morning at 3; 3 in the morning; at 3 in the morning; early morning @ 3; this morning @ 10; this morning at 10am; 3:18am; 3:18a; 3h18; at 7 in 3 years; at 3pm; @ 3pm; 3PM; 3pm; 3 oclock pm; 3 o'clock in the afternoon; at 3p; at 3p.; 15h00; at 15h00; 15h; at 15h | time_of_day | none | silent | spec-silent time of day: finer than a day
at 15 past 3pm; a quarter past 3pm; for a quarter past 3pm; 3:15 in the afternoon; 15:15; 15h15; 3:15pm; 3:15PM; 3:15p; at 3 15; 15 minutes past 3pm; 15 minutes past 15h | time_of_day | none | silent | spec-silent time of day: finer than a day
at 20 past 3pm; 3:20 in the afternoon; 3:20 in afternoon; twenty after 3pm; 3:20p; 15h20; at three twenty; 20 minutes past 3pm; this afternoon at 3:20; tonight @ 3:20 | time_of_day | none | silent | spec-silent time of day: finer than a day
at half past three pm; half past 3 pm; 15:30; 15h30; 3:30pm; 3:30PM; 330 p.m.; 3:30 p m; 3:30; half three; 30 minutes past 3 pm | time_of_day | none | silent | spec-silent time of day: finer than a day
at 15 past noon; a quarter past noon; for a quarter past noon; 12:15 in the afternoon; 12:15; 12h15; 12:15pm; 12:15PM; 12:15p; at 12 15; 15 minutes past noon | time_of_day | none | silent | spec-silent time of day: finer than a day
nine fifty nine a m; 15:23:24; 9:01:10 AM; a quarter to noon; 11:45am; 11h45; 15 to noon; a quarter past 1pm; for a quarter past 1pm; 1:15pm; 13h15; 15 minutes from 1pm; a quarter past 2pm; for a quarter past 2pm; a quarter past 8pm; for a quarter past 8pm | time_of_day | none | silent | spec-silent time of day: finer than a day
8 tonight; tonight at 8 o'clock; eight tonight; 8 this evening; at 8 in the evening; in the evening at eight | time_of_day | none | silent | spec-silent time of day: finer than a day
at 7:30 PM on Fri, Sep 20; at 19h30 on Fri, Sep 20; 1:30 PM on Sat, Sep 21 | time_of_day | none | silent | spec-silent time of day on a date: finer than a day
at 9am on Saturday; Saturday morning at 9; on Saturday for 9am | time_of_day | none | silent | spec-silent time of day on a weekday: finer than a day
Fri, Jul 18, 2014 07:00 PM; Fri, Jul 18, 2014 19h00; Fri, Jul 18, 2014 19h | time_of_day | none | silent | spec-silent time of day on a date: finer than a day
day after tomorrow 5pm; day before yesterday 8am; xmas at 6 pm; in 7 days at 5pm; in 4 years at 5pm | time_of_day | none | silent | spec-silent time of day on a named day: finer than a day
4/25 at 4:00pm; 4/25 at 16h00; 4/25 at 16h | time_of_day | none | silent | spec-silent time of day on a date: finer than a day
4pm CET; Thursday 8:00 GMT; Thursday 8:00 gmt; Thursday 8h00 GMT; Thursday 8h00 gmt; Thursday 8h GMT; Thursday 8h gmt; Thu at 8 GMT; Thu at 8 gmt; Thursday 9 am BST; Thursday 9 am (BST) | time_of_day | none | silent | spec-silent time of day in another zone: finer than a day
Thursday 8:00 PST; Thursday 8:00 pst; Thursday 8h00 PST; Thursday 8h00 pst; Thursday 8h PST; Thursday 8h pst; Thu at 8 am PST; Thu at 8 am pst; Thursday at 9:30pm ist | time_of_day | none | silent | spec-silent time of day in another zone: finer than a day
today at 2pm; at 2pm; this afternoon at 2; this evening at 2; tonight at 2; 3pm tomorrow | time_of_day | none | silent | spec-silent time of day: finer than a day
today in one hour | time_of_day | at +1 hour | silent | docs/time-semantics.md choice 8 (revised after conversion): N hours/minutes ago or ahead is a point, like N units ago, step day
at 1:30pm; 1:30pm; at 13h30; 13h30; 10:30; at 1030; ten thirty am; at 730 in the evening; seven thirty p.m. | time_of_day | none | silent | spec-silent time of day: finer than a day
at 12pm; at noon; midday; the midday; mid day; at 12am; at midnight; this morning at 12; this evening at 12; this afternoon at 12 | time_of_day | none | silent | spec-silent time of day: finer than a day
9 tomorrow morning; 9 tomorrow; 9 tomorrow evening; tomorrow afternoon at 5; at 5 tomorrow afternoon; at 5pm tomorrow; tomorrow at 5pm; tomorrow evening at 5 | time_of_day | none | silent | spec-silent time of day tomorrow: finer than a day
tonight at 11; this evening at 11; this afternoon at 11; tonight at 11pm; at 4:23; 4:23am; four twenty-three a m; 20 minutes to 2pm tomorrow | time_of_day | none | silent | spec-silent time of day: finer than a day
7; 7a; 7p; ten thirty; ten-thirty; twelve zero three; twelve o three; twelve ou three; twelve oh three; twelve-zero-three; twelve-oh-three; tonight 815 | time_of_day | none | silent | spec-silent latent time of day (Duckling with latent on): finer than a day
3ish pm; 3pm approximately; at about 3pm; approximately 1030; around 1030; tomorrow at 150ish | approximate | none | spec-nothing | §4.2: around/about/approximately X settles nothing (and a time of day)
for 30' starting from 4pm; from 4pm for thirty minutes; 4pm for 30 mins; 16h for 30 mins | time_of_day | none | silent | spec-silent minutes from a time of day: finer than a day
# ---- parts of a day (finer than a day) ----
last night; yesterday evening; late last night; this evening; today evening; tonight; tomorrow evening; tomorrow lunch; tomorrow at lunch; monday mOrnIng; monday early in the morning; monday early morning; monday in the early hours of the morning; late tonight; late tonite | part_of_day | none | silent | spec-silent part of a day: finer than a day
february the 15th in the morning; 15 of february in the morning; morning of the 15th of february; in the afternoon; after lunch; after school; this morning; tomorrow afternoon; tomorrow afternoonish; morning; afternoon; evening; night | part_of_day | none | silent | spec-silent part of a day: finer than a day
morning of xmas; morning of christmas 2013; morning of this christmas day | part_of_day | none | silent | spec-silent part of a holiday: finer than a day
# ---- beginning / end of a period (SPEC §4.2: settled nothing alone) ----
EOM; the EOM; at the EOM; the end of the month; end of the month; at the end of month; BOM; the BOM; at the BOM; beginning of the month; the beginning of the month; at the beginning of month | part_of_period | none | spec-nothing | §4.2: end/beginning of a period alone settles nothing
end of April; at the end of April; beginning of January; at the beginning of January; end of 2012; at the end of 2012; beginning of 2017; at the beginning of 2017 | part_of_period | none | spec-nothing | §4.2: end/beginning of a period alone settles nothing
beginning of year; the beginning of the year; the BOY; BOY; EOY; the EOY; at the EOY; the end of the year; end of the year; at the end of year | part_of_period | none | spec-nothing | §4.2: end/beginning of a period alone (年底) settles nothing
beginning of this week; beginning of current week; at the beginning of this week; at the beginning of current week; beginning of coming week; at the beginning of coming week; beginning of last week; beginning of past week; beginning of previous week; at the beginning of last week; at the beginning of past week; at the beginning of previous week | part_of_period | none | spec-nothing | §4.2: beginning of a period alone settles nothing
beginning of next week; beginning of the following week; beginning of around next week; at the beginning of next week; at the beginning of the following week; at the beginning of around next week | part_of_period | none | spec-nothing | §4.2: beginning of a period alone settles nothing
end of this week; end of current week; at the end of this week; at the end of current week; end of coming week; at the end of coming week; end of last week; end of past week; end of previous week; at the end of last week; at the end of past week; at the end of previous week | part_of_period | none | spec-nothing | §4.2: end of a period alone settles nothing
end of next week; end of the following week; end of around next week; at the end of next week; at the end of the following week; at the end of around next week | part_of_period | none | spec-nothing | §4.2: end of a period alone settles nothing
by EOM; by the EOM; by end of the month; by the end of month; by the end of next month; by EOY; by the EOY; by end of the year; by the end of year | part_of_period | none | spec-nothing | §4.2: by/until X is open, and end of a period alone settles nothing
by 2:00pm; by EOD | open_interval | none | spec-nothing | §4.2: by/until X is open (and a time of day)
early March | part_of_period | days 2012-03-01 2012-03-10 | spec | §4.2 early March = 上旬: days 1–10; bare March is 2012's
mid March | part_of_period | days 2012-03-11 2012-03-20 | spec | §4.2 mid March = 中旬: days 11–20; bare March is 2012's
late March | part_of_period | days 2012-03-21 2012-03-31 | spec | §4.2 late March = 下旬: days 21–last; bare March is 2012's
# ---- open intervals (SPEC §4.2: before/after/until X settle nothing) ----
ASAP; as soon as possible | open_interval | none | spec-nothing | §4.2: an open interval from now (after now) settles nothing
until 2:00pm; through 2:00pm; sometimes before 2014; through 2014; before 11 am | open_interval | none | spec-nothing | §4.2: before/until X settles nothing
after 2 pm; from 2 pm; anytime after 2014; after 5 days | open_interval | none | spec-nothing | §4.2: after X settles nothing
since 2pm | open_interval | none | spec-nothing | §4 since X needs X before now: 2pm today is still to come, and a time of day; no valid window
since 2014 | open_interval | none | spec-nothing | §4 since X: 2014 has not started at now (2013), so start(X)..now is no window
# ---- seasons and weekends (spec-silent; Duckling's intervals as whole days) ----
this Summer; current summer | season | days 2013-06-21 2013-09-23 | silent | spec-silent season; Duckling's 2013-06-21 .. 09-24 (exclusive) as whole days
this winter | season | days 2012-12-21 2013-03-20 | silent | spec-silent season; Duckling's 2012-12-21 .. 2013-03-21 (exclusive) as whole days
this season; current seasons | season | days 2012-12-21 2013-03-18 | silent | spec-silent season; Duckling's 2012-12-21 .. 2013-03-19 (exclusive) as whole days
last season; past seasons; previous seasons | season | days 2012-09-23 2012-12-19 | silent | spec-silent season; Duckling's 2012-09-23 .. 12-20 (exclusive) as whole days
next season | season | days 2013-03-20 2013-06-19 | silent | spec-silent season; Duckling's 2013-03-20 .. 06-20 (exclusive) as whole days
this week-end | weekend | days 2013-02-16 2013-02-17 | silent | spec-silent weekend: Sat 00:00 .. Sun 23:59:59.999 (Duckling: Fri 18:00 .. Mon 00:00)
this past weekend | weekend | days 2013-02-09 2013-02-10 | silent | spec-silent weekend: last Sat .. Sun as whole days (Duckling: Fri 18:00 .. Mon 00:00)
last weekend of October; last week-end in October; last week end of October | weekend | days 2012-10-27 2012-10-28 | silent | spec-silent weekend; bare October is 2012's (bare-month rule): its last Sat .. Sun
last wkend of July | weekend | days 2012-07-28 2012-07-29 | silent | spec-silent weekend; bare July is 2012's: its last Sat .. Sun
last weekend of October 2017 | weekend | days 2017-10-28 2017-10-29 | silent | spec-silent weekend: Sat .. Sun as whole days (Duckling: Fri 18:00 .. Mon 00:00)
# ---- holidays named by the SPEC (§4.2 holidays, bare = this year's if started, else last year's) ----
xmas; christmas; christmas day | holiday | day 2012-12-25 | spec | §4.2 Christmas 12/25, bare: 2013's has not come, so 2012's (Duckling: 2013)
new year's eve; new years eve | holiday | day 2012-12-31 | spec | §4.2 New Year's Eve 12/31, bare: 2012's
new year's day; new years day | holiday | day 2013-01-01 | spec | §4.2 New Year's Day 1/1, bare: 2013's has started (Duckling: 2014)
valentine's day; valentine day | holiday | day 2012-02-14 | spec | §4.2 Valentine's Day 2/14, bare: 2013's has not come, so 2012's
halloween | holiday | day 2012-10-31 | spec | §4.2 Halloween 10/31, bare: 2012's
Halloween 2013 | holiday | day 2013-10-31 | spec | §4.2 Halloween with a year
next halloween | holiday | day 2013-10-31 | silent | spec-silent 'next' + holiday: the coming one (Duckling)
black friday | holiday | day 2012-11-23 | spec | §4.2 Black Friday (day after US Thanksgiving), bare: 2012's
black friday of this year; black friday 2013 | holiday | day 2013-11-29 | spec | §4.2 Black Friday of 2013
black friday 2017 | holiday | day 2017-11-24 | spec | §4.2 Black Friday with a year
thanksgiving day; thanksgiving | holiday | day 2012-11-22 | spec | §4.2 US Thanksgiving, bare: 2013's has not come, so 2012's (Duckling: 2013)
thanksgiving 2013 | holiday | day 2013-11-28 | spec | §4.2 US Thanksgiving with a year
this thanksgiving; next thanksgiving day; thanksgiving in 9 months; thanksgiving 9 months from now | holiday | day 2013-11-28 | silent | spec-silent relative holiday; Duckling's 2013 Thanksgiving
thanksgiving of next year; thanksgiving 2014 | holiday | day 2014-11-27 | spec | §4.2 US Thanksgiving with a year (next year = 2014)
thanksgiving in a year | holiday | day 2014-11-27 | silent | spec-silent relative holiday; Duckling's 2014 Thanksgiving
last thanksgiving; thanksgiving 3 months ago; thanksgiving 1 year ago | holiday | day 2012-11-22 | silent | spec-silent relative holiday; Duckling's 2012 Thanksgiving
thanksgiving day 2012 | holiday | day 2012-11-22 | spec | §4.2 US Thanksgiving with a year
thanksgiving 2016 | holiday | day 2016-11-24 | spec | §4.2 US Thanksgiving with a year
thanksgiving in 3 years | holiday | day 2016-11-24 | silent | spec-silent relative holiday; Duckling's 2016 Thanksgiving
thanksgiving 2017 | holiday | day 2017-11-23 | spec | §4.2 US Thanksgiving with a year
easter | holiday | day 2012-04-08 | spec | §4.2 Easter (Western computus), bare: 2013-03-31 has not come, so 2012's
easter 2013 | holiday | day 2013-03-31 | spec | §4.2 Easter with a year
easter 2010; Easter Sunday two thousand ten | holiday | day 2010-04-04 | spec | §4.2 Easter with a (spelled) year
last easter | holiday | day 2012-04-08 | silent | spec-silent 'last' + holiday: the previous Easter
st patrick's day 2013 | holiday | day 2013-03-17 | spec | §4.2 St Patrick's Day 3/17 with a year
st paddy's day; saint paddy's day; saint patricks day | holiday | day 2012-03-17 | spec | §4.2 St Patrick's Day 3/17, bare: 2012's
chinese new year; chinese lunar new year's day | holiday | day 2013-02-10 | spec | §4.1 春节 lunar 1/1 (English name), bare: 2013-02-10 has started (Duckling: 2014-01-31)
last chinese new year; last chinese lunar new year's day; last chinese new years | holiday | day 2013-02-10 | silent | spec-silent 'last' + festival: the most recent 春节
chinese new year's day 2018 | holiday | day 2018-02-16 | spec | §4.1 春节 with a year
the closest xmas to today | holiday | day 2012-12-25 | silent | spec-silent; Duckling's day
the second closest xmas to today | holiday | day 2013-12-25 | silent | spec-silent; Duckling's day
the 3rd closest xmas to today | holiday | day 2011-12-25 | silent | spec-silent; Duckling's day
# ---- holidays the SPEC does not name (spec-silent; Duckling's dates, bare = this year's if started, else last year's from Duckling's tables) ----
boss's day; boss's; boss day | holiday | day 2012-10-16 | silent | spec-silent holiday (a festival the SPEC does not know may settle nothing); bare: 2012's Boss's Day (Oct 16, a Tuesday)
next boss's day | holiday | day 2013-10-16 | silent | spec-silent holiday; Duckling's next one
boss's day 2016 | holiday | day 2016-10-17 | silent | spec-silent holiday; Duckling's day
boss's day 2021 | holiday | day 2021-10-15 | silent | spec-silent holiday; Duckling's day
MLK day; this MLK day; last MLK Jr. day; MLK day 2013 | holiday | day 2013-01-21 | silent | spec-silent holiday; 2013's MLK day (Jan 21) has started
next Martin Luther King day; next Martin Luther King's day; next Martin Luther Kings day | holiday | day 2014-01-20 | silent | spec-silent holiday; Duckling's next one
MLK day of last year; MLK day 2012; Civil Rights Day of last year | holiday | day 2012-01-16 | silent | spec-silent holiday; Duckling's day
world vegan day | holiday | day 2012-11-01 | silent | spec-silent holiday (11/1), bare: 2012's
easter mon | holiday | day 2012-04-09 | silent | spec-silent holiday (Easter + 1), bare: 2012's
Maundy Thursday; Covenant thu; Thu of Mysteries | holiday | day 2012-04-05 | silent | spec-silent holiday (Easter − 3), bare: 2012's
Pentecost | holiday | day 2012-05-27 | silent | spec-silent holiday (Easter + 49), bare: 2012's
white sunday 2013 | holiday | day 2013-05-19 | silent | spec-silent holiday; Duckling's day
whit monday; Monday of the Holy Spirit | holiday | day 2012-05-28 | silent | spec-silent holiday (Easter + 50), bare: 2012's
palm sunday | holiday | day 2012-04-01 | silent | spec-silent holiday (Easter − 7), bare: 2012's
branch sunday 2013 | holiday | day 2013-03-24 | silent | spec-silent holiday; Duckling's day
trinity sunday | holiday | day 2012-06-03 | silent | spec-silent holiday (Easter + 56), bare: 2012's
pancake day 2013 | holiday | day 2013-02-12 | silent | spec-silent holiday; Duckling's day
mardi gras | holiday | day 2013-02-12 | silent | spec-silent holiday (Easter − 47); bare: 2013's is today, it has started
lent 2018 | holiday | hdays 2018-02-14 2018-03-31 | silent | spec-silent holiday; Duckling's 2018-02-14 .. 04-01 (exclusive)
orthodox easter 2018 | holiday | day 2018-04-08 | silent | spec-silent holiday; Duckling's day
orthodox good friday 2020; orthodox great friday 2020 | holiday | day 2020-04-17 | silent | spec-silent holiday; Duckling's day
clean monday 2018; orthodox shrove monday two thousand eighteen | holiday | day 2018-02-19 | silent | spec-silent holiday; Duckling's day
lazarus saturday 2018 | holiday | day 2018-03-31 | silent | spec-silent holiday; Duckling's day
great fast 2018 | holiday | hdays 2018-02-19 2018-03-30 | silent | spec-silent holiday; Duckling's 2018-02-19 .. 03-31 (exclusive)
yom kippur 2018 | holiday | day 2018-09-18 | silent | spec-silent holiday; Duckling's day (its Jewish dates are the eve)
shemini atzeret 2018 | holiday | day 2018-09-30 | silent | spec-silent holiday; Duckling's day
simchat torah 2018 | holiday | day 2018-10-01 | silent | spec-silent holiday; Duckling's day
tisha b'av 2018 | holiday | day 2018-07-21 | silent | spec-silent holiday; Duckling's day
yom haatzmaut 2018 | holiday | day 2018-04-18 | silent | spec-silent holiday; Duckling's day
lag b'omer 2017 | holiday | day 2017-05-13 | silent | spec-silent holiday; Duckling's day
Yom Hashoah 2018; Holocaust Day 2018 | holiday | day 2018-04-11 | silent | spec-silent holiday; Duckling's day
rosh hashanah 2018; rosh hashana 2018; rosh hashanna 2018 | holiday | hdays 2018-09-09 2018-09-11 | silent | spec-silent holiday; Duckling's 2018-09-09 .. 09-12 (exclusive)
Chanukah 2018; hanukah 2018; hannukkah 2018 | holiday | hdays 2018-12-02 2018-12-09 | silent | spec-silent holiday; Duckling's 2018-12-02 .. 12-10 (exclusive)
passover 2018 | holiday | hdays 2018-03-30 2018-04-07 | silent | spec-silent holiday; Duckling's 2018-03-30 .. 04-08 (exclusive)
feast of the ingathering 2018; succos 2018 | holiday | hdays 2018-09-23 2018-10-01 | silent | spec-silent holiday; Duckling's 2018-09-23 .. 10-02 (exclusive)
shavuot 2018 | holiday | hdays 2018-05-19 2018-05-21 | silent | spec-silent holiday; Duckling's 2018-05-19 .. 05-22 (exclusive)
mawlid al-nabawi 2017 | holiday | day 2017-11-30 | silent | spec-silent holiday; Duckling's day
Eid al-Fitr 1950 | holiday | day 1950-07-16 | silent | spec-silent holiday; Duckling's day
Eid al-Fitr 1975 | holiday | day 1975-10-06 | silent | spec-silent holiday; Duckling's day
Eid al-Fitr 1988 | holiday | day 1988-05-16 | silent | spec-silent holiday; Duckling's day
Eid al-Fitr 2018 | holiday | day 2018-06-15 | silent | spec-silent holiday; Duckling's day
Eid al-Fitr 2034 | holiday | day 2034-12-12 | silent | spec-silent holiday; Duckling's day
Eid al-Fitr 2046 | holiday | day 2046-08-04 | silent | spec-silent holiday; Duckling's day
Eid al-Fitr 2050 | holiday | day 2050-06-21 | silent | spec-silent holiday; Duckling's day
Eid al-Adha 2018; id ul-adha 2018; sacrifice feast 2018; Bakr Id 2018 | holiday | day 2018-08-21 | silent | spec-silent holiday; Duckling's day
Eid al-Adha 1980; id ul-adha 1980; sacrifice feast 1980; Bakr Id 1980 | holiday | day 1980-10-19 | silent | spec-silent holiday; Duckling's day
Eid al-Adha 1966; id ul-adha 1966; sacrifice feast 1966; Bakr Id 1966 | holiday | day 1966-04-01 | silent | spec-silent holiday; Duckling's day
Eid al-Adha 1974; id ul-adha 1974; sacrifice feast 1974; Bakr Id 1974 | holiday | day 1974-01-03 | silent | spec-silent holiday; Duckling's day
laylat al kadr 2017; night of measures 2017 | holiday | day 2017-06-22 | silent | spec-silent holiday; Duckling's day
laylat al-qadr 2018; night of power 2018 | holiday | day 2018-06-11 | silent | spec-silent holiday; Duckling's day
Islamic New Year 2018; Amun Jadid 2018 | holiday | day 2018-09-11 | silent | spec-silent holiday; Duckling's day
day of Ashura 2017 | holiday | day 2017-09-30 | silent | spec-silent holiday; Duckling's day
tu bishvat 2018 | holiday | day 2018-01-30 | silent | spec-silent holiday; Duckling's day
Jamat Ul-Vida 2017; Jumu'atul-Wida 2017 | holiday | day 2017-06-23 | silent | spec-silent holiday; Duckling's day
Jamat Ul-Vida 2018; Jumu'atul-Wida 2018 | holiday | day 2018-06-08 | silent | spec-silent holiday; Duckling's day
isra and mi'raj 2018; the prophet's ascension 2018 | holiday | day 2018-04-13 | silent | spec-silent holiday; Duckling's day
the night journey 2019; ascension to heaven 2019 | holiday | day 2019-04-03 | silent | spec-silent holiday; Duckling's day
Ramadan 1950 | holiday | hdays 1950-06-17 1950-07-15 | silent | spec-silent holiday; Duckling's interval (end exclusive) as whole days
Ramadan 1977 | holiday | hdays 1977-08-15 1977-09-13 | silent | spec-silent holiday; Duckling's interval (end exclusive) as whole days
Ramadan 2018 | holiday | hdays 2018-05-16 2018-06-14 | silent | spec-silent holiday; Duckling's interval (end exclusive) as whole days
Ramadan 2034 | holiday | hdays 2034-11-12 2034-12-11 | silent | spec-silent holiday; Duckling's interval (end exclusive) as whole days
Ramadan 2046 | holiday | hdays 2046-07-05 2046-08-03 | silent | spec-silent holiday; Duckling's interval (end exclusive) as whole days
Ramadan 2050 | holiday | hdays 2050-05-22 2050-06-20 | silent | spec-silent holiday; Duckling's interval (end exclusive) as whole days
dhanatrayodashi in 2017 | holiday | day 2017-10-17 | silent | spec-silent holiday; Duckling's day
dhanteras 2019 | holiday | day 2019-10-25 | silent | spec-silent holiday; Duckling's day
kali chaudas 2019; choti diwali two thousand nineteen | holiday | day 2019-10-26 | silent | spec-silent holiday; Duckling's day
diwali 2019; Deepavali in 2019; Lakshmi Puja six years hence | holiday | day 2019-10-27 | silent | spec-silent holiday; Duckling's day
bhai dooj 2019 | holiday | day 2019-10-29 | silent | spec-silent holiday; Duckling's day
chhath 2019; dala puja 2019; Surya Shashthi in 2019 | holiday | day 2019-11-02 | silent | spec-silent holiday; Duckling's day
Maha Saptami 2021 | holiday | day 2021-10-12 | silent | spec-silent holiday; Duckling's day
Dussehra 2018; vijayadashami in five years | holiday | day 2018-10-18 | silent | spec-silent holiday; Duckling's day
navaratri 2018; durga puja in 2018 | holiday | hdays 2018-10-09 2018-10-18 | silent | spec-silent holiday; Duckling's 2018-10-09 .. 10-19 (exclusive)
karva chauth 2018; karva chauth in 2018 | holiday | day 2018-10-27 | silent | spec-silent holiday; Duckling's day
ratha-yatra 2018 | holiday | day 2018-07-14 | silent | spec-silent holiday; Duckling's day
rakhi 2018 | holiday | day 2018-08-26 | silent | spec-silent holiday; Duckling's day
mahavir jayanti 2020; mahaveer janma kalyanak 2020 | holiday | day 2020-04-06 | silent | spec-silent holiday; Duckling's day
maha shivaratri 2020 | holiday | day 2020-02-21 | silent | spec-silent holiday; Duckling's day
saraswati jayanti 2018 | holiday | day 2018-02-10 | silent | spec-silent holiday; Duckling's day
pongal 2018; makara sankranthi 2018 | holiday | day 2018-01-14 | silent | spec-silent holiday; Duckling's day
bogi pandigai 2018 | holiday | day 2018-01-13 | silent | spec-silent holiday; Duckling's day
maattu pongal 2018 | holiday | day 2018-01-15 | silent | spec-silent holiday; Duckling's day
kaanum pongal 2018; kanni pongal 2018 | holiday | day 2018-01-16 | silent | spec-silent holiday; Duckling's day
makar sankranti 2019; maghi in 2019 | holiday | day 2019-01-15 | silent | spec-silent holiday; Duckling's day
Vaisakhi 2018; baisakhi in 2018; Vasakhi 2018; vaishakhi 2018 | holiday | day 2018-04-14 | silent | spec-silent holiday; Duckling's day
onam 2018; Thiru Onam 2018; Thiruvonam 2018 | holiday | day 2018-08-24 | silent | spec-silent holiday; Duckling's day
vasant panchami in 2019; basant panchami 2019 | holiday | day 2019-02-10 | silent | spec-silent holiday; Duckling's day
chhoti holi 2019; holika dahan 2019; kamudu pyre 2019 | holiday | day 2019-03-20 | silent | spec-silent holiday; Duckling's day
krishna janmashtami 2019; gokulashtami 2019 | holiday | day 2019-08-23 | silent | spec-silent holiday; Duckling's day
holi 2019; dhulandi 2019; phagwah 2019 | holiday | day 2019-03-21 | silent | spec-silent holiday; Duckling's day
Parsi New Year 2018; Jamshedi Navroz 2018 | holiday | day 2018-08-17 | silent | spec-silent holiday; Duckling's day
jamshedi Navroz 2022; parsi new year 2022 | holiday | day 2022-08-16 | silent | spec-silent holiday; Duckling's day
GYSD 2013 | holiday | hdays 2013-04-26 2013-04-28 | silent | spec-silent holiday; Duckling's 2013-04-26 .. 04-29 (exclusive)
global youth service day | holiday | hdays 2012-04-20 2012-04-22 | silent | spec-silent holiday, bare: 2013's (04-26) has not come, so 2012's (Duckling's table: 2012-04-20, three days)
vesak; vaisakha; Buddha day; Buddha Purnima | holiday | day 2012-05-05 | silent | spec-silent holiday, bare: 2013's (05-24) has not come, so 2012's (Duckling's table: 2012-05-05)
earth hour; earth hour 2016 | holiday | none | silent | spec-silent holiday lasting one hour: finer than a day
purim | holiday | day 2012-03-07 | silent | spec-silent holiday, bare: 2013's (02-23) has not come, so 2012's (Duckling's table: 2012-03-07)
Shushan Purim | holiday | day 2012-03-08 | silent | spec-silent holiday (Purim + 1), bare: 2012's
guru gobind singh birthday; guru gobind singh jayanti; Guru Govind Singh Jayanti | holiday | day 2013-01-18 | silent | spec-silent holiday, bare: 2013's (Duckling's table: 2013-01-18) has started (Duckling: 2014-01-07)
guru gobind singh jayanti 2014 | holiday | day 2014-01-07 | silent | spec-silent holiday; Duckling's day
Koningsdag 2018; koningsdag 2018; king's day 2018; King's Day 2018 | holiday | day 2018-04-27 | silent | spec-silent holiday; Duckling's day
Koningsdag 2014; koningsdag 2014; King's Day 2014; king's day 2014 | holiday | day 2014-04-26 | silent | spec-silent holiday; Duckling's day
rabindra jayanti 2018; Rabindranath Jayanti 2018; Rabindra Jayanti 2018 | holiday | day 2018-05-09 | silent | spec-silent holiday; Duckling's day
rabindra jayanti 2019; Rabindranath Jayanti 2019; Rabindra Jayanti 2019 | holiday | day 2019-05-09 | silent | spec-silent holiday; Duckling's day
guru Ravidas jayanti 2018; Guru Ravidass birthday 2018; guru ravidass Jayanti 2018 | holiday | day 2018-01-31 | silent | spec-silent holiday; Duckling's day
Guru Ravidass Jayanti 2019; Guru Ravidas Birthday 2019; guru ravidas jayanti 2019 | holiday | day 2019-02-19 | silent | spec-silent holiday; Duckling's day
valmiki jayanti 2019; Valmiki Jayanti 2019; pargat diwas 2019 | holiday | day 2019-10-13 | silent | spec-silent holiday; Duckling's day
maharishi valmiki jayanti 2018; pargat diwas 2018; Pargat Diwas 2018 | holiday | day 2018-10-24 | silent | spec-silent holiday; Duckling's day
ganesh chaturthi 2019 | holiday | day 2019-09-02 | silent | spec-silent holiday; Duckling's day
rama navami 2020 | holiday | day 2020-04-02 | silent | spec-silent holiday; Duckling's day
Ugadi 2018; ugadi 2018; yugadi 2018; Yugadi 2018; samvatsaradi 2018; chaitra sukladi 2018; chaitra sukhladi 2018 | holiday | day 2018-03-18 | silent | spec-silent holiday; Duckling's day
# ---- negative corpus (Duckling: no time here) ----
laughing out loud; 1 adult; we are separated; 25; this is the one; this one; this past one; at single; at a couple of; at pairs; at a few; at dozens; single o'clock; dozens o'clock; Rat 6; rat 6; 3 30; three twenty; at 650.650.6500; at 650-650-6500; two sixty a m; Pay ABC 2000; 4a; 4a.; A4 A5; palm; Martin Luther King' day; two three | negative | none | spec-nothing | Duckling's negative corpus: no time; §4.2 when unsure (a number that is a time only by accident) settle nothing
"""
