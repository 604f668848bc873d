# ruff: noqa: E501  -- the table is data: one line per group of phrases, with its note
"""How resolver's SPEC reads every phrase of Duckling's Chinese time corpus.

Same format and clock as `en_table.py` (Duckling's now: Tue 2013-02-12 04:30 at UTC−2, the
ISO week Mon 02-11 .. Sun 02-17). Cantonese and literary forms that the SPEC does not list
(今個, 尋日, 聽日, 宜家, 晏晝 …) are spec-silent with the reading of their Mandarin twin.
"""

TABLE = r"""
# ---- instant words (SPEC §4 first row) ----
现在; 此刻; 当前; 現在; 當前 | instant | now | spec multi | §4 row 1: 现在/当前/此刻 are instant words
此时; 此時 | instant | now | silent multi | spec-silent synonym of 此刻 (Duckling: now): read as the instant
宜家; 而家; 依家 | instant | now | silent multi | spec-silent Cantonese 'now' (Duckling: now): read as the instant
今天; 今日 | instant | now | spec single | §4 row 1: 今天/今日 are instant words, not the day
# ---- named days ----
昨天; 昨日 | past_period | day 2013-02-11 | spec | §4 昨天: that whole day
尋日 | past_period | day 2013-02-11 | silent | spec-silent Cantonese 昨天; that day
明天; 明日 | future_period | day 2013-02-13 | spec | §4.2 明天: that whole day
聽日 | future_period | day 2013-02-13 | silent | spec-silent Cantonese 明天; that day
后天; 後天 | future_period | day 2013-02-14 | spec | §4.2 后天: that whole day
後日 | future_period | day 2013-02-14 | silent | spec-silent literary/Cantonese 后天; that day
大後日; 大後天 | future_period | day 2013-02-15 | silent | spec-silent 大后天 (mirror of §4.2 大前天); Duckling's day
前天 | past_period | day 2013-02-10 | spec | §4.2 前天: that whole day
前日 | past_period | day 2013-02-10 | silent | spec-silent literary 前天; that day
# ---- weekdays (SPEC §4.1: bare = this week's if started, else last week's) ----
星期一; 礼拜一; 周一; 禮拜一; 週一 | weekday | day 2013-02-11 | spec | §4.1 bare 周X: this week's Monday has started (Duckling: 02-18)
星期二; 礼拜二; 周二; 禮拜二; 週二 | weekday | day 2013-02-12 | spec | §4.1 bare 周X: today is Tuesday, it has started (Duckling: 02-19)
星期三; 礼拜三; 周三; 禮拜三; 週三 | weekday | day 2013-02-06 | spec | §4.1 bare 周X: this week's Wednesday has not started, so last week's (Duckling: 02-13)
星期四; 礼拜四; 周四; 禮拜四; 週四 | weekday | day 2013-02-07 | spec | §4.1 bare 周X: last week's Thursday (Duckling: 02-14)
星期五; 礼拜五; 周五; 禮拜五; 週五 | weekday | day 2013-02-08 | spec | §4.1 bare 周X: last week's Friday (Duckling: 02-15)
星期六; 礼拜六; 周六; 禮拜六; 週六 | weekday | day 2013-02-09 | spec | §4.1 bare 周X: last week's Saturday (Duckling: 02-16)
星期日; 星期天; 礼拜天; 周日; 禮拜天; 週日 | weekday | day 2013-02-10 | spec | §4.1 bare 周X: last week's Sunday (Duckling: 02-17)
上周日; 上星期天; 上礼拜天; 上週日; 上禮拜天; 上禮拜日 | weekday | day 2013-02-10 | spec | §4.1 上周X: that day of the previous ISO week
上周二; 上礼拜二; 上週二; 上禮拜二; 上星期二 | weekday | day 2013-02-05 | spec | §4.1 上周X: Tuesday of the previous ISO week
下周二; 下週二; 下星期二; 下禮拜二; 下礼拜二 | weekday | day 2013-02-19 | spec | §4.2 下周X: Tuesday of the next ISO week
下周三; 下礼拜三; 下週三; 下禮拜三; 下星期三 | weekday | day 2013-02-20 | spec | §4.2 下周X: Wednesday of the next ISO week (Duckling's corpus says 02-13, this week's)
这周三; 这礼拜三; 這週三; 這禮拜三 | weekday | day 2013-02-13 | spec | §4.1 这周X: this ISO week's Wednesday
今個星期三; 今個礼拜三; 今個禮拜三 | weekday | day 2013-02-13 | silent | spec-silent Cantonese 这周三: this ISO week's Wednesday
这周一; 这礼拜一; 這週一; 這禮拜一 | weekday | day 2013-02-11 | spec | §4.1 这周X: this ISO week's Monday (Duckling: 02-18)
今個星期一; 今個礼拜一; 今個禮拜一 | weekday | day 2013-02-11 | silent | spec-silent Cantonese 这周一: this ISO week's Monday (Duckling: 02-18)
这周二; 这礼拜二; 這週二; 這禮拜二 | weekday | day 2013-02-12 | spec | §4.1 这周X: this ISO week's Tuesday
今個星期二; 今個礼拜二; 今個禮拜二; 今星期二; 今礼拜二; 今禮拜二 | weekday | day 2013-02-12 | silent | spec-silent Cantonese 这周二: this ISO week's Tuesday
周日, 二月十号; 星期天, 二月十号; 礼拜天, 二月十号; 週日, 二月十號; 星期天, 二月十號; 禮拜天, 二月十號; 禮拜日, 二月十號 | weekday_date | day 2013-02-10 | spec | §4.2 month + day: 2013-02-10 has started and is a Sunday, weekday and date agree
十月第一个星期一; 十月的第一个星期一; 十月第一個星期一; 十月的第一個星期一 | nth_weekday | day 2012-10-01 | silent | spec-silent nth weekday of a month; bare 十月 is 2012's (bare-month rule), its first Monday (Duckling: 2013-10-07)
# ---- weeks, months, years ----
这周; 这一周; 这礼拜; 这一礼拜; 這週; 這一周; 這禮拜; 這一禮拜 | this_period | todate week | spec | §4 本周/这周: start of the week .. now
今個星期; 今個礼拜; 今個禮拜 | this_period | todate week | silent | spec-silent Cantonese 这周: start of the week .. now
上周; 上週; 上個星期; 上個礼拜; 上個禮拜 | past_period | week 2013-02-04 | spec | §4 上周: the whole previous ISO week
下周; 下週; 下星期; 下礼拜; 下禮拜 | future_period | week 2013-02-18 | spec | §4.2 下周: the whole next ISO week
上月; 上个月; 上個月 | past_period | month 2013-01 | spec | §4 上个月 / §4.2 上月: the whole previous month
下月; 下个月; 下個月 | future_period | month 2013-03 | spec | §4.2 下个月: the whole next month
3月; 3月份; 三月 | month | month 2012-03 | spec | §4 bare month: March 2013 has not started, so 2012's (Duckling: 2013-03)
今個月二十號; 今個月20号; 今個月廿號 | month_day | day 2013-02-20 | silent | spec-silent Cantonese 这个月 + day: the 20th of this month
下個月二十號; 下個月20号; 下個月廿號 | month_day | day 2013-03-20 | spec | §4.2 month + day in a named month (下个月): that day
去年 | past_period | year 2012 | spec | §4 去年: that whole year
上年 | past_period | year 2012 | silent | spec-silent synonym of 去年: that whole year
今年 | this_period | todate year | spec | §4 今年: start of the year .. now
这一年; 這一年 | this_period | todate year | silent | spec-silent 'this one year', read as 今年: start of the year .. now
明年 | future_period | year 2014 | spec | §4.2 明年: that whole year
下年 | future_period | year 2014 | silent | spec-silent synonym of 明年: that whole year
明年九月 | month | month 2014-09 | spec | §4.2 明年 + month: that whole month
下年9月 | month | month 2014-09 | silent | spec-silent 下年 (= 明年) + month: that whole month
# ---- dates ----
三月一号; 三月一日; 三月一號 | month_day | day 2012-03-01 | spec | §4.2 month + day (八月十五日), bare: March 1 2013 has not started, so 2012's
2015年3月3号; 2015年3月三号; 2015年三月3号; 2015年三月三号; 2015年3月3號; 2015年3月三號; 2015年三月3號; 2015年三月三號 | month_day | day 2015-03-03 | spec | §4 / §4.2 a dated day: that whole day
二零一五年三月三號 | month_day | day 2015-03-03 | spec | §4.2 spelled years (二零零四年): that day
3/3/2015 | numeric_date | day 2015-03-03 | spec | §4.2 numeric date M/D/YYYY
3/3/15 | numeric_date | day 2015-03-03 | silent | spec-silent M/D/YY (two-digit year); Duckling's 2015-03-03
2015-3-3; 2015-03-03 | numeric_date | day 2015-03-03 | spec | §4 2024-03-15 / §4.2 year first
2013年2月15号; 2013年二月十五号; 2013年2月15號; 2013年二月十五號 | month_day | day 2013-02-15 | spec | §4 / §4.2 a dated day: that whole day (even though it is still to come)
二零一三年二月十五號 | month_day | day 2013-02-15 | spec | §4.2 spelled years: that day
2月15号; 二月十五号; 2月15號; 二月十五號 | month_day | day 2012-02-15 | spec | §4.2 month + day, bare: Feb 15 2013 has not started (now is Feb 12), so 2012's (Duckling: 2013)
2/15 | numeric_date | day 2012-02-15 | spec | §4.2 numeric M/D, bare: 2012's (this year's has not started)
10/31/1974; 10/31/74 | numeric_date | day 1974-10-31 | spec | §4.2 numeric date; 1974 lies outside 2000..2100 (§5)
2015年4月14号; 2015年4月14號 | month_day | day 2015-04-14 | spec | §4 / §4.2 a dated day
# ---- last / next N units (SPEC §4, §4.1, §4.2; 上/前 N = 最近 N; 下/后 N mirror them) ----
上两秒; 上二秒; 前两秒; 前二秒; 上兩秒; 前兩秒; 兩秒前; 兩秒之前 | rolling | none | silent | spec-silent: seconds are finer than the §4.1 hours/minutes row
下三秒; 后三秒; 後三秒; 三秒後; 三秒之後 | rolling | none | silent | spec-silent: seconds are finer than a minute
上两分钟; 上二分钟; 前两分钟; 前二分钟; 上兩分鐘; 上二分鐘; 前兩分鐘; 前二分鐘 | rolling | roll -2 minute | spec | §4.1 最近/近 N 分钟 (上/前 N = 最近 N): now − 2 min .. now, step day
兩分鐘前; 兩分鐘之前 | ago | at -2 minute | silent | docs/time-semantics.md choice 8 (revised after conversion): N hours/minutes ago or ahead is a point, like N units ago, step day
下三分钟; 后三分钟; 下三分鐘; 後三分鐘 | rolling | roll +3 minute | spec | §4.2 future mirrors §4.1: now .. now + 3 min, step day
三分鐘後; 三分鐘之後 | in_n | at +3 minute | silent | docs/time-semantics.md choice 8 (revised after conversion): N hours/minutes ago or ahead is a point, like N units ago, step day
上两小时; 上二小时; 前两小时; 前二小时; 上兩小時; 上二小時; 前兩小時; 前二小時 | rolling | roll -2 hour | spec | §4.1 最近 N 小时 (上/前 N = 最近 N): now − 2 h .. now, step day
兩小時之前; 兩個鐘之前; 兩小時前; 兩個鐘前 | ago | at -2 hour | silent | docs/time-semantics.md choice 8 (revised after conversion): N hours/minutes ago or ahead is a point, like N units ago, step day
下三小时; 后三小时; 下三小時; 後三小時 | rolling | roll +3 hour | spec | §4.2 future mirrors §4.1: now .. now + 3 h, step day
三小時之後; 三個鐘之後; 三小時後; 三個鐘後 | in_n | at +3 hour | silent | docs/time-semantics.md choice 8 (revised after conversion): N hours/minutes ago or ahead is a point, like N units ago, step day
上两天; 前两天; 上兩天; 前兩天 | rolling | roll -2 day | spec | §4 / §4.1 前N天 with no year = 最近 N天: now − 2 days .. now (Duckling: the 2 whole days before today)
兩天前; 兩天之前; 兩日前; 兩日之前 | ago | at -2 day | spec | §4 N天前: start = end = now − 2 days (Duckling: the interval of the last 2 days)
下三天; 后三天; 後三天 | rolling | roll +3 day | spec | §4.2 未来N天 mirrors 最近N天: now .. now + 3 days
三天後; 三天之後; 三日後; 三日之後 | in_n | at +3 day | spec | §4.2 in 3 days, the mirror of N天前: start = end = now + 3 days
上两周; 上二周; 上兩週; 上二週 | rolling | roll -2 week | spec | §4 最近 N 周 (上 N = 最近 N): now − 2 weeks .. now
兩星期前; 兩星期之前; 兩個禮拜前; 兩個禮拜之前 | ago | at -2 week | spec | §4 N周前: start = end = now − 2 weeks
下三周; 下三个周; 下三週; 下三個週 | rolling | roll +3 week | spec | §4.2 接下来N周: now .. now + 3 weeks
三星期後; 三星期之後; 三個禮拜後; 三個禮拜之後 | in_n | at +3 week | spec | §4.2 in N weeks (mirror of N周前): now + 3 weeks
上两个月; 上二个月; 前两个月; 前二个月; 前两月; 上兩個月; 上二個月; 前兩個月; 前二個月; 前兩月 | rolling | roll -2 month | spec | §4.1 前N个月 with no year = 最近 N个月: now − 2 months .. now
兩個月前; 兩個月之前 | ago | at -2 month | spec | §4 N个月前: start = end = now − 2 months
下三个月; 后三个月; 後三個月 | rolling | roll +3 month | spec | §4.2 next N months: now .. now + 3 months
三個月後; 三個月之後 | in_n | at +3 month | spec | §4.2 in N months (mirror of N个月前): now + 3 months
前两年; 前兩年 | rolling | roll -2 year | spec | §4.1 前N units with no year = 最近 N: now − 2 years .. now
兩年前; 兩年之前 | ago | at -2 year | spec | §4 N年前: start = end = now − 2 years
下三年 | rolling | roll +3 year | spec | §4.2 next N years: now .. now + 3 years
三年後; 三年之後 | in_n | at +3 year | spec | §4.2 in N years (mirror of N年前): now + 3 years
# ---- times of day (finer than a day) ----
三点; 三點; 3pm; 下午三點; 晏晝三點; 下午三時 | time_of_day | none | silent | spec-silent time of day: finer than a day
下午三点十五; 下午3:15; 15:15; 3:15pm; 3:15PM; 3:15p; 下午三點十五; 晏晝三點十五; 下午三点十五分; 下午三點十五分; 晏晝三點十五分; 晏晝三點三; 晏晝三點踏三; 晏晝三點搭三; 晏晝三點三個字 | time_of_day | none | silent | spec-silent time of day: finer than a day
下午三点零五; 下午3:05; 15:05; 3:05pm; 3:05PM; 3:05p; 下午三點零五; 晏晝三點零五; 下午三点零五分; 下午三點零五分; 晏晝三點零五分; 晏晝三點一; 晏晝三點踏一; 晏晝三點搭一; 晏晝三點一個字 | time_of_day | none | silent | spec-silent time of day: finer than a day
下午三点半; 下午3:30; 15:30; 3:30pm; 3:30PM; 3:30p; 下午三點半; 晏晝三點半; 下午三点三十分; 下午三點三十分; 晏晝三點三十分; 晏晝三點踏半; 晏晝三點搭半 | time_of_day | none | silent | spec-silent time of day: finer than a day
4pm CET | time_of_day | none | silent | spec-silent time of day in another zone: finer than a day
今晚8点; 今晚八点; 今晚8點; 今晚八點 | time_of_day | none | silent | spec-silent time of day tonight: finer than a day
周一早上; 周一早晨; 礼拜一早上; 礼拜一早晨; 週一早上; 週一早晨; 禮拜一早上; 禮拜一早晨 | part_of_day | none | silent | spec-silent part of a day: finer than a day
二月十五号早上; 二月十五号早晨; 2月15号早上; 2月15号早晨; 二月十五號早上; 二月十五號早晨; 2月15號早上; 2月15號早晨 | part_of_day | none | silent | spec-silent part of a day: finer than a day
儿童节下午三点十五; 兒童節下午三點十五 | time_of_day | none | silent | spec-silent time of day on a festival: finer than a day
情人节晚上; 情人節晚上 | part_of_day | none | silent | spec-silent part of a festival day: finer than a day
这周末; 這週末 | weekend | days 2013-02-16 2013-02-17 | silent | spec-silent weekend: Sat 00:00 .. Sun 23:59:59.999 (Duckling: Fri 18:00 .. Mon 00:00)
# ---- festivals the SPEC names (§4.1 / §4.2; bare = this year's if started, else last year's) ----
元旦; 元旦节; 元旦節 | holiday | day 2013-01-01 | spec | §4.1 元旦 1/1, bare: 2013's has started (Duckling: 2014)
阳历新年 | holiday | day 2013-01-01 | silent | spec-silent name of 元旦 (Gregorian New Year), bare: 2013's has started
妇女节; 婦女節 | holiday | day 2012-03-08 | spec | §4.2 妇女节 3/8, bare: 2013's has not come, so 2012's
劳动节; 勞動節; 五一国际劳动节 | holiday | day 2012-05-01 | spec | §4.1 劳动节 5/1 (one day without 假期), bare: 2012's
儿童节; 兒童節; 国际儿童节 | holiday | day 2012-06-01 | spec | §4.2 儿童节 6/1, bare: 2012's
圣诞; 聖誕; 圣诞节; 聖誕節 | holiday | day 2012-12-25 | spec | §4.2 圣诞 12/25, bare: 2012's
万圣节; 萬聖節 | holiday | day 2012-10-31 | spec | §4.2 万圣节 10/31, bare: 2012's
情人节; 情人節 | holiday | day 2012-02-14 | spec | §4.2 情人节 2/14, bare: 2013's is two days ahead, so 2012's
圣瓦伦丁节 | holiday | day 2012-02-14 | silent | spec-silent name of 情人节 (St Valentine's), bare: 2012's
春节; 农历新年 | holiday | day 2013-02-10 | spec | §4.1 春节 lunar 1/1, bare: 2013-02-10 has started (Duckling: 2014-01-31)
新春; 正月正时; 正月朔日; 正月正時 | holiday | day 2013-02-10 | silent | spec-silent name of 春节 (lunar 1/1), bare: 2013-02-10 has started
复活节; 復活節 | holiday | day 2012-04-08 | spec | §4.2 Easter (Western computus), bare: 2013-03-31 has not come, so 2012's
主復活日 | holiday | day 2012-04-08 | silent | spec-silent name of Easter, bare: 2012's
# ---- festivals the SPEC does not name (spec-silent; Duckling's dates; bare = this year's if started, else last year's) ----
建军节; 八一建軍節; 建軍節 | holiday | day 2012-08-01 | silent | spec-silent festival (8/1), bare: 2012's
愚人节; 愚人節 | holiday | day 2012-04-01 | silent | spec-silent festival (4/1), bare: 2012's
澳门回归纪念日; 澳門回歸紀念日 | holiday | day 2012-12-20 | silent | spec-silent festival (12/20), bare: 2012's
国际消费者权益日; 国际消費者權益日; 三一五 | holiday | day 2012-03-15 | silent | spec-silent festival (3/15), bare: 2012's
赎罪日; 贖罪日 | holiday | day 2012-09-25 | silent | spec-silent festival (Yom Kippur, Duckling dates it by its eve), bare: 2013's (09-13) has not come, so the eve of 10 Tishri 5773 = 2012-09-25 (Duckling's Rosh Hashanah table has 2012-09-18, two days late)
大斋首日; 聖灰星期三; 灰日; 圣灰礼仪日; 圣灰日 | holiday | day 2012-02-22 | silent | spec-silent festival (Ash Wednesday = Easter − 46): 2013's is tomorrow, so 2012's
阿舒拉節 | holiday | day 2012-11-24 | silent | spec-silent festival (Ashura = 1 Muharram + 9, Duckling's table), bare: 2012's
克哈特普迦节 | holiday | day 2012-11-19 | silent | spec-silent festival (Chhath = Dhanteras + 8, Duckling's table), bare: 2012's
基督聖體节; 基督聖體聖血瞻礼; 基督聖體聖血節 | holiday | day 2012-06-07 | silent | spec-silent festival (Corpus Christi = Easter + 60), bare: 2012's
万灯节; 印度燈節; 排灯节 | holiday | day 2012-11-13 | silent | spec-silent festival (Diwali = Dhanteras + 2, Duckling's table), bare: 2012's
复活节星期一; 復活節星期一 | holiday | day 2012-04-09 | silent | spec-silent festival (Easter Monday), bare: 2012's
古尔邦节; 古爾邦節; 宰牲节 | holiday | day 2012-10-26 | silent | spec-silent festival (Eid al-Adha, Duckling's table), bare: 2012's
开斋节; 開齋節; 肉孜节; 尔代节; 爾代節 | holiday | day 2012-08-19 | silent | spec-silent festival (Eid al-Fitr, Duckling's table), bare: 2012's
主受难日; 主受难节; 沈默周五; 聖週五; 耶穌受難日 | holiday | day 2012-04-06 | silent | spec-silent festival (Good Friday = Easter − 2), bare: 2012's
侯丽节; 荷麗节; 洒红节; 灑紅节; 欢悦节; 五彩節; 胡里节; 好利节; 霍利節 | holiday | day 2012-03-07 | silent | spec-silent festival (Holi = Vasant Panchami + 39, Duckling's rule), bare: 2012's
神圣周六; 聖週六; 耶稣受难日翌日; 主受難節翌日; 復活節前夜; 黑色星期六 | holiday | day 2012-04-07 | silent | spec-silent festival (Holy Saturday = Easter − 1), bare: 2012's
伊斯兰新年; 伊斯兰教新年; 伊斯兰历新年 | holiday | day 2012-11-15 | silent | spec-silent festival (1 Muharram, Duckling's table), bare: 2012's
登霄节; 夜行登霄節 | holiday | day 2012-06-17 | silent | spec-silent festival (Isra and Mi'raj = 1 Rajab + 26, Duckling's table), bare: 2012's
印度丰收节第四天; 龐格爾節第四天; 庞格尔节第四天 | holiday | day 2013-01-16 | silent | spec-silent festival (Kaanum Pongal = Thai Pongal + 2, Duckling's table): 2013's has started (Duckling: 2014)
篝火节; 犹太教篝火节; 猶太教篝火節 | holiday | day 2012-05-09 | silent | spec-silent festival (Lag BaOmer, Duckling's table), bare: 2012's
法令之夜; 权力之夜 | holiday | day 2012-08-15 | silent | spec-silent festival (Laylat al-Qadr = 1 Ramadan + 26, Duckling's table), bare: 2012's
拉撒路聖週六; 拉匝路周六 | holiday | day 2012-04-07 | silent | spec-silent festival (Lazarus Saturday = Orthodox Easter − 8), bare: 2012's
印度丰收节第三天; 龐格爾節第三天; 庞格尔节第三天 | holiday | day 2013-01-15 | silent | spec-silent festival (Mattu Pongal = Thai Pongal + 1): 2013's has started (Duckling: 2014)
濯足節; 神聖星期四; 圣周星期四; 圣周四; 設立聖餐日 | holiday | day 2012-04-05 | silent | spec-silent festival (Maundy Thursday = Easter − 3), bare: 2012's
圣纪节; 聖紀節 | holiday | day 2013-01-24 | silent | spec-silent festival (Mawlid, Duckling's table): 2013's has started (Duckling: 2014-01-13)
东正教复活节星期一; 東正教復活節星期一 | holiday | day 2012-04-16 | silent | spec-silent festival (Orthodox Easter + 1), bare: 2012's
東正教神聖週六; 東正教聖週六; 東正教耶稣受难日翌日; 東正教主受難節翌日; 東正教复活节前夜 | holiday | day 2012-04-14 | silent | spec-silent festival (Orthodox Easter − 1), bare: 2012's
東正教耶穌受难日; 东正教主受难节; 东正教圣周五; 東正教聖週五; 東正教沈默週五 | holiday | day 2012-04-13 | silent | spec-silent festival (Orthodox Easter − 2), bare: 2012's
东正教棕枝主日; 东正教圣枝主日; 东正教聖樹主日; 東正教基督苦難主日 | holiday | day 2012-04-08 | silent | spec-silent festival (Orthodox Easter − 7), bare: 2012's
棕枝主日; 圣枝主日; 聖樹主日; 基督苦難主日 | holiday | day 2012-04-01 | silent | spec-silent festival (Palm Sunday = Easter − 7), bare: 2012's
五旬节; 圣灵降临节; 聖靈降臨日 | holiday | day 2012-05-27 | silent | spec-silent festival (Pentecost = Easter + 49), bare: 2012's
印度兄妹节; 拉克沙班丹節 | holiday | day 2012-08-02 | silent | spec-silent festival (Raksha Bandhan, Duckling's table), bare: 2012's
圣会节; 聖会節 | holiday | day 2012-10-07 | silent | spec-silent festival (Shemini Atzeret, by its eve), bare: the eve of 22 Tishri 5773 = 2012-10-07 (Duckling's 2012 Rosh Hashanah entry is two days late)
忏悔節; 忏悔火曜日; 煎餅星期二 | holiday | day 2013-02-12 | silent | spec-silent festival (Shrove Tuesday = Easter − 47): 2013's is today, it has started
西赫托拉节; 西赫妥拉节; 诵经节; 誦經节; 转经节; 轉經節; 律法節; 歡慶聖法節 | holiday | day 2012-10-08 | silent | spec-silent festival (Simchat Torah, by its eve), bare: the eve of 23 Tishri 5773 = 2012-10-08 (Duckling's 2012 Rosh Hashanah entry is two days late)
印度丰收节; 淡米爾豐收節; 淡米尔丰收节 | holiday | day 2013-01-14 | silent | spec-silent festival (Thai Pongal, Duckling's table): 2013's has started (Duckling: 2014)
欧南节; 欧南節 | holiday | day 2012-08-29 | silent | spec-silent festival (Onam, Duckling's table), bare: 2012's
圣殿被毁日; 禁食日; 聖殿被毁日 | holiday | day 2012-07-28 | silent | spec-silent festival (Tisha B'Av, Duckling's table), bare: 2012's
圣三一主日; 天主三一主日; 天主聖三一节; 聖三主日; 圣三节 | holiday | day 2012-06-03 | silent | spec-silent festival (Trinity Sunday = Easter + 56), bare: 2012's
十勝節; 凯旋节; 圣母节 | holiday | day 2012-10-25 | silent | spec-silent festival (Vijayadashami = Navaratri + 9, Duckling's rule), bare: 2012's
犹太植树节; 猶太植樹節; 图比舍巴特节; 圖比舍巴特節; 树木新年; 樹木新年 | holiday | day 2013-01-25 | silent | spec-silent festival (Tu BiShvat, Duckling's table): 2013's has started (Duckling: 2014-01-15)
卫塞节; 衛塞節; 威瑟节; 比萨宝蕉节; 比薩寶蕉節 | holiday | day 2012-05-05 | silent | spec-silent festival (Vesak, Duckling's table), bare: 2012's
以色列独立日; 以色列獨立日; 以色列国庆节; 以色列國慶節 | holiday | day 2012-04-25 | silent | spec-silent festival (Yom Ha'atzmaut, Duckling's table), bare: 2012's
圣灵节庆日; 聖靈節慶日 | holiday | day 2012-05-28 | silent | spec-silent festival (Whit Monday = Easter + 50), bare: 2012's
老板节; 老闆節 | holiday | day 2012-10-16 | silent | spec-silent festival (Boss's Day), bare: 2012's
全球青年服务日; 全球青年服務日 | holiday | hdays 2012-04-20 2012-04-22 | silent | spec-silent festival (Global Youth Service Day, Duckling's table), bare: 2012's three days
2018年四旬节; 2018年四旬節 | holiday | hdays 2018-02-19 2018-03-30 | silent | spec-silent festival with a year; Duckling's 2018-02-19 .. 03-31 (exclusive)
2018年光明节; 2018年修殿节; 2018年献殿节; 2018年獻殿节; 2018年烛光节; 2018年哈努卡节; 2018年馬加比節 | holiday | hdays 2018-12-02 2018-12-09 | silent | spec-silent festival with a year; Duckling's 2018-12-02 .. 12-10 (exclusive)
2018年大斋期; 2018年大齋節; 2018年大斋节 | holiday | hdays 2018-02-14 2018-03-31 | silent | spec-silent festival with a year; Duckling's 2018-02-14 .. 04-01 (exclusive)
2018年九夜节; 2018年难近母节; 2018年難近母節 | holiday | hdays 2018-10-09 2018-10-18 | silent | spec-silent festival with a year; Duckling's 2018-10-09 .. 10-19 (exclusive)
2018年逾越节; 2018年逾越節 | holiday | hdays 2018-03-30 2018-04-07 | silent | spec-silent festival with a year; Duckling's 2018-03-30 .. 04-08 (exclusive)
2034年斋月; 2034年穆斯林斋月; 2034年穆斯林齋月 | holiday | hdays 2034-11-12 2034-12-11 | silent | spec-silent festival with a year; Duckling's 2034-11-12 .. 12-12 (exclusive)
2018年犹太新年; 2018年猶太新年 | holiday | hdays 2018-09-09 2018-09-11 | silent | spec-silent festival with a year; Duckling's 2018-09-09 .. 09-12 (exclusive)
2018年七七节; 2018年沙夫幼特节; 2018年週日節; 2018年收获节; 2018年新果实节; 2018年新果實節; 2018年收穫節 | holiday | hdays 2018-05-19 2018-05-21 | silent | spec-silent festival with a year; Duckling's 2018-05-19 .. 05-22 (exclusive)
2018年住棚节; 2018年住棚節 | holiday | hdays 2018-09-23 2018-10-01 | silent | spec-silent festival with a year; Duckling's 2018-09-23 .. 10-02 (exclusive)
2016年地球一小时; 2016年地球一小時 | holiday | none | silent | spec-silent festival lasting one hour: finer than a day
"""
