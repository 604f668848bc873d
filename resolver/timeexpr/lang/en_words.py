"""The English word tables: words (EN) and multi-word phrases (EN_PHRASES), each with its one
class and value."""

from __future__ import annotations

from resolver.timeexpr.lang import Words
from resolver.timeexpr.lang.numerals import EN_CARDINALS, EN_ORDINALS, EN_SCALES
from resolver.timeexpr.result import STEPS

# Holidays of the world the grammar does not read (SPEC §4.2 (a): holiday names are time-like;
# a text naming one settles nothing). Names of one word go into EN, of several into phrases.
WORLD_HOLIDAYS = """
diwali, deepavali, holi, onam, navratri, navaratri, dussehra, dasara, durga puja, ganesh chaturthi,
janmashtami, raksha bandhan, rakhi, makar sankranti, pongal, ugadi, yugadi, vaisakhi, baisakhi,
lohri, bihu, chhath, karva chauth, mahashivratri, maha shivaratri, ram navami, rama navami,
mahavir jayanti, buddha purnima, vesak, gandhi jayanti, guru nanak jayanti, guru purnima,
vasant panchami, basant panchami, holika dahan, chhoti holi, dhanteras, bhai dooj, govardhan puja,
eid, eid al-fitr, eid ul-fitr, eid al-adha, eid ul-adha, bakrid, muharram, ashura, mawlid,
ramadan, ramazan, laylat al-qadr, isra and miraj, nowruz, navroz, norouz,
hanukkah, chanukah, passover, pesach, rosh hashanah, yom kippur, sukkot, shavuot, purim,
simchat torah, shemini atzeret, tu bishvat, lag baomer, tisha bav, yom haatzmaut,
lent, ash wednesday, palm sunday, maundy thursday, holy thursday, holy saturday, holy week,
easter monday, pentecost, whitsun, whit monday, ascension day, corpus christi, all saints,
all saints' day, all souls' day, advent, epiphany, candlemas, shrove tuesday, pancake day,
mardi gras, carnival, orthodox easter, orthodox christmas, good friday, boxing day,
kwanzaa, juneteenth, cinco de mayo, bastille day, canada day, australia day, anzac day,
waitangi day, guy fawkes, bonfire night, victoria day, remembrance day, armistice day,
veterans day, memorial day weekend, presidents day, president's day, columbus day,
indigenous peoples day, martin luther king day, mlk day, flag day, patriots day, tax day,
earth day, arbor day, groundhog day, april fools, april fool's day, koningsdag, king's day,
queen's birthday, emancipation day, heritage day, youth day, freedom day, workers day,
labour day weekend, bank holiday, oktoberfest, thanksgiving weekend, black saturday,
small business saturday, cyber monday, giving tuesday, prime day, singles day sale,
world cup, super bowl, olympics, chinese valentine, dragon boat, obon, golden week,
tet, songkran, chuseok, seollal, vesak day, hari raya, deepavali, trinity sunday, whitsunday,
assumption day, annunciation, transfiguration, great fast, great lent, yom hashoah, yom hazikaron,
tisha b'av, lag b'omer, hanuka, succot, sukkos, feast of tabernacles, feast of the ingathering,
sacrifice feast, bakr id, bakra eid, id ul-adha, laylat al kadr, night of power, amun jadid,
islamic new year, hijri new year, jamat ul-vida, jumu'atul-wida, isra and mi'raj,
lailat al miraj, prophet's birthday, the prophet's ascension, ascension to heaven, lakshmi puja,
kali puja, dala puja, chhath puja, surya shashthi, maha saptami, maha ashtami, maha navami,
vijayadashami, ratha-yatra, rath yatra, mahaveer janma kalyanak, saraswati jayanti,
saraswati puja, makara sankranthi, bogi pandigai, maghi, vasakhi, vaishakhi, thiruvonam,
thiru onam, kamudu pyre, gokulashtami, dhulandi, phagwah, gysd, global youth service day,
samvatsaradi, chaitra sukladi, chaitra sukhladi, dhanatrayodashi, kali chaudas, jamshedi navroz,
holy spirit, covenant thursday, thursday of mysteries
"""
# Words that head holiday names the lexicon cannot list one by one (rabindra jayanti, durga
# puja, maha navami, rosh hashana): any such word is time-like.
HOLIDAY_HEADS = (
    "jayanti puja diwas purnima navami ashtami chaturthi sankranti sankranthi saptami dashami "
    "dashmi shashthi panchami ekadashi amavasya chaudas trayodashi mela yatra utsav pandigai "
    "kalyanak diwali holi eid navroz nowruz hashana hashanah hashanna rosh yom hanukkah hanukah "
    "hannukkah chanukah purim shavuot sukkot succos ramadan ramzan muharram mawlid lent "
    "pentecost whitsun epiphany advent trinity shrovetide lohri bihu pongal onam covenant "
    "mysteries ascension"
)
# English words.
EN = Words()
EN.named("E_YEAR", "year years yr yrs")
EN.named("E_QUARTER", "quarter quarters qtr qtrs")
EN.named("E_MONTH", "month months")
EN.named("E_WEEK", "week weeks wk wks")
EN.named("E_DAY", "day days")
EN.named("E_HOUR", "hour hours hr hrs")
EN.named("E_MINUTE", "minute minutes min mins")
EN.add("SECOND", "seconds sec secs")
EN.add("FORTNIGHT", "fortnight fortnights")
EN.add("ERA", "decade decades century centuries millennium")
EN.add("OCLOCK", "o'clock oclock")
EN.named("AMPM", "am pm")
EN.named(
    "DAYPART",
    "morning mornings afternoon afternoons evening evenings night nights tonight tonite noon "
    "midnight dawn dusk overnight lunchtime lunch breakfast dinner brunch daytime nighttime "
    "dinnertime suppertime bedtime teatime breakfasttime "
    "sunrise sunset eod cob",
)
EN.add("WEEKEND", "weekends wkends week-ends")  # weekends in general: no week named
EN.add(
    "TZWORD",
    "gmt utc cet cest est edt pst pdt cst cdt mst mdt bst ist jst kst aest hkt sgt timezone",
)
EN.add("ERA", "bce")
EN.add("POLITE", "please thanks thx")
EN.add("NEGATION", "excluding exclude excludes excluded except excepting not without besides")
EN.add("ERAWEAK", "bc ad ce")
EN.add("HOURWEAK", "h hs")
EN_MONTHS = {
    "january": 1, "jan": 1, "february": 2, "feb": 2, "march": 3, "mar": 3, "april": 4,
    "apr": 4, "may": 5, "june": 6, "jun": 6, "july": 7, "jul": 7, "august": 8, "aug": 8,
    "september": 9, "sep": 9, "sept": 9, "october": 10, "oct": 10, "november": 11,
    "nov": 11, "december": 12, "dec": 12,
}  # fmt: skip
EN |= {word: ("MONTHNAME", value) for word, value in EN_MONTHS.items()}
EN_WEEKDAYS = {
    "monday": 0, "mon": 0, "tuesday": 1, "tue": 1, "tues": 1, "wednesday": 2, "wed": 2,
    "thursday": 3, "thu": 3, "thur": 3, "thurs": 3, "friday": 4, "fri": 4, "saturday": 5,
    "sat": 5, "sun": 6, "sunday": 6, "mondays": 0, "tuesdays": 1, "wednesdays": 2,
    "thursdays": 3, "fridays": 4, "saturdays": 5, "sundays": 6,
}  # fmt: skip
EN |= {word: ("WEEKDAY", value) for word, value in EN_WEEKDAYS.items()}
EN.add(
    "SEASON",
    "summer summers winter winters autumn autumns springtime summertime wintertime season seasons "
    "seasonal",
)
EN.add("SEASONWEAK", "spring fall")
EN.add("FISCAL", "fiscal fy financial")
EN.add(
    "VAGUE",
    "recently lately nowadays soon shortly meanwhile formerly previously someday "
    "eventually whenever",
)
EN.add(
    "OTHERDAY",
    "holiday holidays festival festivals feast feasts semester semesters term terms vacation "
    "vacations anniversary birthday "
    + HOLIDAY_HEADS
    + " "
    + " ".join(word for name in WORLD_HOLIDAYS.split(",") if (word := name.strip()).isalpha()),
)
EN |= {"yesterday": ("RELDAY", -1), "tomorrow": ("RELDAY", 1), "tmrw": ("RELDAY", 1)}
EN.named("NOW", "now today currently current realtime real-time")
EN.add("LATEST", "latest")
EN.add("TTM", "ttm ltm")
EN |= {
    "ytd": ("XTD", "year"),
    "mtd": ("XTD", "month"),
    "qtd": ("XTD", "quarter"),
    "wtd": ("XTD", "week"),
}
EN |= {
    "daily": ("STEP", "day"), "weekly": ("STEP", "week"), "monthly": ("STEP", "month"),
    "quarterly": ("STEP", "quarter"), "yearly": ("STEP", "year"), "annual": ("STEP", "year"),
    "annually": ("STEP", "year"), "biweekly": ("STEPFINE", None), "hourly": ("STEPFINE", None),
}  # fmt: skip
EN.add("TREND", "trend trends trending")
EN.add("COMPARE", "yoy mom qoq wow vs versus compared against")
EN.add("LAST", "last")
EN.add("PREVIOUS", "previous prior preceding")
EN.add("NEXT", "next")
EN.add("THIS", "this")
EN.add("COMING", "coming upcoming forthcoming")
EN.add("FOLLOWING", "following")  # the following Friday: this week's or next? (peers differ)
EN.add("PAST", "past recent trailing")
EN.add("AGO", "ago back")
EN.add("LATER", "later hence")
EN.add("EARLIER", "earlier")
EN.add("BEFORE", "before prior-to")
EN.add("AFTER", "after afterwards")
EN.add("UNTIL", "until till til")
EN.add("THROUGH", "through thru throughout")
EN.add("SINCE", "since")
EN.add("FROM", "from")
EN.add("TO", "to")
EN.add("BETWEEN", "between")
EN.add("AND", "and")
EN.add("OR", "or")
EN.add("BY", "by per each every")
EN.add(
    "AROUND",
    "around about approximately approx roughly circa near nearly almost closest nearest",
)
EN.add("ORLATER", "ish")
EN.add("MID", "mid middle")
EN.add("EARLY", "early")
EN.add("LATE", "late")
EN.add("END", "end ending close")
EN.add("BEGIN", "beginning start starting begin")
EN.add("REST", "rest remainder")
EN.add("OF", "of")
EN.add("THE", "the")
EN.add("IN", "in")
EN.add("ON", "on")
EN.add("AT", "at")
EN.add("WITHIN", "within during")
EN.add("FOR", "for")
EN.add("OVER", "over")
EN.add("AS", "as")
EN.add("SO", "so")
EN.add("FAR", "far")
EN.add("DATE", "date present")
EN.add("ONWARDS", "onwards onward")
EN.add("FEW", "few several many couple")
EN.add("SAME", "same")
EN.add("HALF", "half")
EN.add("ART", "a an")
EN |= {word: ("ENN", value) for word, value in EN_CARDINALS.items()}
EN |= {word: ("ENN", value) for word, value in EN_SCALES.items()}
EN |= {word: ("ORDW", value) for word, value in EN_ORDINALS.items()}
# English holidays (SPEC §4.1, §4.2), written with single spaces between words.
EN_HOLIDAYS = {
    "new year's day": "new_year", "new years day": "new_year", "new year day": "new_year",
    "new year's eve": "new_years_eve", "new years eve": "new_years_eve",
    "spring festival": "spring", "chinese new year": "spring", "lunar new year": "spring",
    "lantern festival": "lantern", "may day": "labour", "labour day": "labour",
    "international workers' day": "labour", "dragon boat festival": "dragon_boat",
    "qixi festival": "qixi", "qixi": "qixi", "mid-autumn festival": "mid_autumn",
    "mid autumn festival": "mid_autumn", "moon festival": "mid_autumn",
    "national day": "national", "singles' day": "double_11", "singles day": "double_11",
    "single's day": "double_11", "double 11": "double_11", "double eleven": "double_11",
    "double 12": "double_12", "double twelve": "double_12", "qingming festival": "qingming",
    "tomb-sweeping day": "qingming", "tomb sweeping day": "qingming",
    "christmas": "christmas", "xmas": "christmas", "christmas day": "christmas",
    "christmas eve": "christmas_eve", "xmas eve": "christmas_eve",
    "valentine's day": "valentine", "valentines day": "valentine", "valentine day": "valentine",
    "st valentine's day": "valentine", "saint valentine's day": "valentine",
    "halloween": "halloween", "independence day": "independence",
    "fourth of july": "independence", "4th of july": "independence",
    "st patrick's day": "st_patrick", "st. patrick's day": "st_patrick",
    "saint patrick's day": "st_patrick", "st patricks day": "st_patrick",
    "saint patricks day": "st_patrick", "st paddy's day": "st_patrick",
    "saint paddy's day": "st_patrick", "st. paddy's day": "st_patrick",
    "saint patrick": "st_patrick", "st patrick": "st_patrick", "st. patrick": "st_patrick",
    "saint patricks": "st_patrick", "st patricks": "st_patrick", "st. patricks": "st_patrick",
    "saint patrick's": "st_patrick", "st patrick's": "st_patrick",
    "chinese new year's day": "spring", "chinese lunar new year's day": "spring",
    "chinese lunar new year": "spring", "lunar new year's day": "spring",
    "easter": "easter", "easter sunday": "easter", "easter day": "easter",
    "thanksgiving": "thanksgiving", "thanksgiving day": "thanksgiving",
    "black friday": "black_friday", "memorial day": "memorial", "labor day": "us_labor",
    "mother's day": "mother", "mothers day": "mother", "mother day": "mother",
    "father's day": "father", "fathers day": "father", "father day": "father",
    "women's day": "women", "international women's day": "women", "children's day": "children",
    "teachers' day": "teacher", "teacher's day": "teacher", "teachers day": "teacher",
    "double ninth festival": "chongyang", "chinese valentine's day": "qixi",
}  # fmt: skip
EN_OTHERDAYS = (
    "cyber monday",
    "boxing day",
    "good friday",
    "ash wednesday",
    "palm sunday",
    "martin luther king day",
    "mlk day",
    "presidents day",
    "presidents' day",
    "columbus day",
    "veterans day",
    "earth day",
    "april fools",
    "april fool's day",
    "groundhog day",
    "new year",
    "new years",
    "new year's",
    "spring break",
    "back to school",
    "prime day",
    "super bowl",
    "golden week",
    "year end",
    "year-end",
    "month end",
    "month-end",
    "quarter end",
    "quarter-end",
    "week end",
)
EN_PHRASES = Words()
EN_PHRASES |= {name: ("HOLIDAY", key) for name, key in EN_HOLIDAYS.items()}
EN_PHRASES |= dict.fromkeys(EN_OTHERDAYS, ("OTHERDAY", None))
EN_PHRASES |= {
    name.strip(): ("OTHERDAY", None)
    for name in WORLD_HOLIDAYS.split(",")
    if not name.strip().isalpha() and name.strip() not in EN_PHRASES
}
EN_PHRASES |= {
    "b.c.": ("ERA", None),
    "a.d.": ("ERA", None),
    "b.c": ("ERA", None),
    "a.d": ("ERA", None),
    "ides of march": ("OTHERDAY", None),
    "the ides": ("OTHERDAY", None),
}
EN_PHRASES |= {
    "a.m.": ("AMPM", "am"), "p.m.": ("AMPM", "pm"), "a.m": ("AMPM", "am"),
    "p.m": ("AMPM", "pm"), "right now": ("NOW", "now"), "as of now": ("NOW", "now"),
    "as of today": ("NOW", "now"), "at present": ("NOW", "now"),
    "at the moment": ("NOW", "now"), "real time": ("NOW", "now"), "as of": ("ASOF", None),
    "as at": ("ASOF", None), "same period": ("VAGUE", "compared"),
    "excluding today": ("EXCL_TODAY", None), "not counting today": ("EXCL_TODAY", None),
    "not including today": ("EXCL_TODAY", None), "except today": ("EXCL_TODAY", None),
    "excluding the current day": ("EXCL_TODAY", None),
    "more than": ("CMP", None), "less than": ("CMP", None), "fewer than": ("CMP", None),
    "at least": ("CMP", None), "at most": ("CMP", None), "no more than": ("CMP", None),
    "as late as": ("CMP", None), "as early as": ("CMP", None), "as soon as": ("CMP", None),
    **dict.fromkeys(
        (f"{verb} back" for verb in (
            "go", "goes", "going", "went", "gone", "be", "been", "being", "is", "am", "are", "was",
            "were", "come", "comes", "coming", "came", "get", "gets", "getting", "got", "head",
            "fly", "flying", "flew", "move", "moving", "moved", "call", "called", "write",
            "wrote", "get", "report", "reported", "pay", "paid", "i'll be", "travel", "return",
        )),
        ("OTHER", None),
    ),  # I'll go back tomorrow: the verb, not "3 days back"
    "go back past": ("VAGUE", None), "going back past": ("VAGUE", None),
    "every other": ("VAGUE", None), "a week starting": ("VAGUE", None),
    "a week beginning": ("VAGUE", None), "school year": ("OTHERDAY", None),
    "academic year": ("OTHERDAY", None), "sy": ("OTHERDAY", None),
    "not counting": ("NEGATION", None), "not including": ("NEGATION", None),
    "other than": ("NEGATION", None), "apart from": ("NEGATION", None),
    "except for": ("NEGATION", None), "leaving out": ("NEGATION", None),
    "last weekend": ("WEEKEND_REL", -1), "past weekend": ("WEEKEND_REL", -1),
    "this past weekend": ("WEEKEND_REL", -1), "previous weekend": ("WEEKEND_REL", -1),
    "this weekend": ("WEEKEND_REL", 0), "next weekend": ("WEEKEND_REL", 1),
    # A bare weekend is this week's, as bare 周末 (zh_words): SPEC §4.3 names no week, Duckling
    # and Recognizers-Text read the current week's, chrono the closest Saturday: the majority.
    **dict.fromkeys(("weekend", "week-end", "wkend", "wknd"), ("WEEKEND_REL", 0)),
    "weekend after next": ("WEEKEND_REL", 2), "weekend after the next": ("WEEKEND_REL", 2),
    "weekend before last": ("WEEKEND_REL", -2), "weekend before the last": ("WEEKEND_REL", -2),
    **{
        f"{which} {word}": ("WEEKEND_REL", offset)
        for which, offset in (("last", -1), ("past", -1), ("previous", -1), ("this", 0),
                              ("next", 1))
        for word in ("week-end", "wkend", "wknd")
    },  # this week-end, last wkend: the weekend of that week
    "full week": ("E_WEEK", "week"), "full month": ("E_MONTH", "month"),
    "calendar week": ("E_WEEK", "week"), "calendar month": ("E_MONTH", "month"),
    "calendar year": ("E_YEAR", "year"), "calendar quarter": ("E_QUARTER", "quarter"),
    "complete week": ("E_WEEK", "week"), "complete month": ("E_MONTH", "month"),
    "new york time": ("TZWORD", None), "beijing time": ("TZWORD", None),
    "london time": ("TZWORD", None), "tokyo time": ("TZWORD", None),
    "local time": ("TZWORD", None), "pacific time": ("TZWORD", None),
    "eastern time": ("TZWORD", None), "central time": ("TZWORD", None),
    "mountain time": ("TZWORD", None), "paris time": ("TZWORD", None),
    "berlin time": ("TZWORD", None), "sydney time": ("TZWORD", None),
    "singapore time": ("TZWORD", None), "china time": ("TZWORD", None),
    "shanghai time": ("TZWORD", None), "hong kong time": ("TZWORD", None),
    "up to date": ("OTHER", None), "up-to-date": ("OTHER", None),
    "so far": ("SO", None), "to date": ("DATE", "to date"), "up to": ("UNTIL", None),
    "prior to": ("BEFORE", None), "earlier than": ("BEFORE", None),
    "later than": ("AFTER", None), "no later than": ("BEFORE", None),
    "no earlier than": ("AFTER", None), "or later": ("ORLATER", None),
    "or earlier": ("ORLATER", None), "or after": ("ORLATER", None),
    "or before": ("ORLATER", None), "and later": ("ORLATER", None),
    "and after": ("ORLATER", None), "and earlier": ("ORLATER", None),
    "and beyond": ("ORLATER", None), "or so": ("ORLATER", None), "-ish": ("ORLATER", None),
    "or more": ("OTHER", None), "as well as": ("AND", None), "how about": ("OTHER", None),
    "what about": ("OTHER", None),
    "compared to": ("COMPARE", None), "compared with": ("COMPARE", None),
    "year over year": ("COMPARE", None), "year-over-year": ("COMPARE", None),
    "month over month": ("COMPARE", None), "month-over-month": ("COMPARE", None),
    "quarter over quarter": ("COMPARE", None), "quarter-over-quarter": ("COMPARE", None),
    "week over week": ("COMPARE", None), "week-over-week": ("COMPARE", None),
    "w/c": ("WEEKOF", None), "week commencing": ("WEEKOF", None),
    "week beginning": ("WEEKOF", None), "week starting": ("WEEKOF", None),
    "a few": ("FEW", None), "a couple of": ("ENN", 2), "a couple": ("ENN", 2),
    "a pair of": ("ENN", 2), "a dozen": ("ENN", 12), "a while": ("VAGUE", None),
    "some time": ("VAGUE", None), "the other day": ("VAGUE", None),
    "most recent": ("PAST", None), "the latest": ("LATEST", None),
    "from now": ("LATER", None), "in the future": ("VAGUE", None),
    "year to date": ("XTD", "year"), "year-to-date": ("XTD", "year"),
    "month to date": ("XTD", "month"), "month-to-date": ("XTD", "month"),
    "quarter to date": ("XTD", "quarter"), "quarter-to-date": ("XTD", "quarter"),
    "week to date": ("XTD", "week"), "week-to-date": ("XTD", "week"),
    "per hour": ("STEPFINE", None), "per minute": ("STEPFINE", None),
    "by hour": ("STEPFINE", None), "by the hour": ("STEPFINE", None),
    "every hour": ("STEPFINE", None), "each hour": ("STEPFINE", None),
    "by minute": ("STEPFINE", None), "every minute": ("STEPFINE", None),
    "day over day": ("COMPARE", None), "day-over-day": ("COMPARE", None),
}  # fmt: skip
for _unit in STEPS:
    for _by in ("by", "per", "each", "every", "by the", "for each", "for every"):
        EN_PHRASES[f"{_by} {_unit}"] = ("STEP", _unit)
        # every 2 weeks: a step nobody can give
for _unit in STEPS:
    EN_PHRASES[f"{_unit} by {_unit}"] = ("STEP", _unit)
    EN_PHRASES[f"{_unit}-by-{_unit}"] = ("STEP", _unit)
    EN_PHRASES[f"{_unit}-on-{_unit}"] = ("COMPARE", None)
    EN_PHRASES[f"{_unit} on {_unit}"] = ("COMPARE", None)

# Words after which "may" is the month (sales in may), not the verb (what may happen).
MAY_AFTER = frozenset(
    [
        "in",
        "since",
        "from",
        "to",
        "until",
        "till",
        "through",
        "of",
        "between",
        "and",
        "during",
        "by",
        "before",
        "after",
        "early",
        "late",
        "mid",
        "last",
        "this",
        "next",
        "since",
        "for",
        "on",
    ]
)
