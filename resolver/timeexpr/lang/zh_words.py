"""The Chinese word table: every Chinese word the reader knows, its one class and value."""

from __future__ import annotations

from resolver.timeexpr.lang import Words
from resolver.timeexpr.result import Step

ZH = Words()  # one class per word: a second is an error (lang/__init__.py)
ZH.add("YEAR", "年")
ZH.add("YEARDU", "年度")
ZH.add("QUARTER", "季")
ZH.add("JIDU", "季度")
ZH.add("MONTH", "月")
ZH.add("WEEK", "周 星期 礼拜 周次")
ZH.add("DAY", "天")
ZH.add("RI", "日")
ZH.add("HAO", "号")
ZH.add("HOUR", "小时 钟头 个钟 个小时")
ZH.add("MINUTE", "分钟 分钟钟")
ZH.add("SECOND", "秒 秒钟")
ZH.add("XUN", "旬")
ZH.add("FORTNIGHT", "双周")
ZH.add("ERA", "年代 世纪")
ZH.add("OCLOCK", "点 点钟 时")
ZH.add("FEN", "分")
ZH.add("KE", "刻")
ZH.named(
    "DAYPART",
    "上半夜 下半夜 前半夜 后半夜 上午 下午 晚上 凌晨 早上 早晨 清晨 中午 傍晚 夜里 夜间 晚间 半夜 "
    "深夜 午夜 白天 夜晚 黎明 拂晓 破晓 黄昏 早间 午后 入夜",
)
ZH.add(
    "TODAYISH",
    "今晚 昨晚 明晚 今早 明早 昨早 今晨 昨夜 今夜 明夜 当晚 当天 当日 次日 翌日 隔天 同日",
)
ZH.add("WEEKEND", "双休日")  # weekends in general: no week named
# A weekend of a named week (SPEC §4.3): 上周末 (-1), 本周末 (0), 下周末 (+1). Bare 周末 (週末) is
# this week's, as Duckling and Recognizers-Text read it (chrono's Chinese has no 周末): §4.3's
# peers' majority, docs/time-semantics.md.
ZH["周末"] = ("WEEKEND_REL", 0)
for _head, _offset in (("上上", -2), ("上", -1), ("本", 0), ("这", 0), ("下", 1), ("下下", 2)):
    for _middle in ("", "个", "一个") if _head not in ("本",) else ("",):
        ZH[f"{_head}{_middle}周末"] = ("WEEKEND_REL", _offset)
# 上个自然月 / 上一自然周 / 本自然年 (SPEC §4.3: a calendar period, as 上个月).
_NATURAL = {"week": ("自然周",), "month": ("自然月",), "quarter": ("自然季度", "自然季"),
            "year": ("自然年", "自然年度")}  # fmt: skip
for _head, _offset in (("上", -1), ("本", 0), ("这", 0), ("当", 0), ("下", 1)):
    for _unit, _forms in _NATURAL.items():
        for _form in _forms:
            for _middle in ("", "个", "一个", "一") if _head in ("上", "下", "这") else ("",):
                ZH[_head + _middle + _form] = ("RELPERIOD", (_offset, _unit))
ZH |= {"首季度": ("QLABEL", 1), "首季": ("QLABEL", 1)}  # the first quarter (SPEC §4.3)
for _prefix in ("周", "星期", "礼拜"):
    for _index, _char in enumerate("一二三四五六"):
        ZH[_prefix + _char] = ("WEEKDAY", _index)
    ZH[_prefix + "日"] = ("WEEKDAY", 6)
    ZH[_prefix + "天"] = ("WEEKDAY", 6)
ZH["周七"] = ("WEEKDAY", 6)
ZH.add("CALENDAR", "农历 阴历 公历 阳历 旧历 闰 闰月 夏历")
ZH.add(
    "ERANAME",
    "康熙 乾隆 雍正 嘉庆 道光 咸丰 同治 光绪 宣统 顺治 万历 洪武 永乐 贞观 开元 民国 上世纪 "
    "本世纪 昭和 平成 令和 明治 大正 公元 公元前",
)
ZH.add("SEASON", "春天 夏天 秋天 冬天 春季 夏季 秋季 冬季 旺季 淡季 季节")
ZH.add("SEASONWEAK", "春 夏 秋 冬")
ZH.add("FISCAL", "财年 财务年度 会计年度 会计期间 财报季 财月")
ZH.add("FISCAL", "财季", "quarter")  # a fiscal quarter (上个财季), SPEC §9.1
ZH.add(
    "VAGUE",
    "近期 近来 近日 近段 近些 日前 一段时间 这段时间 那段时间 段时间 一阵子 这阵子 这些天 那些天 "
    "此前 此后 以往 往年 往期 历年 本期 下期 当期 前期 后期 早期 晚期 "
    "期初 期末 不久 "
    "多年 多月 多日 当年 那年 那时 当时 彼时 往日 平日 日后",
)
# The period a comparison names without naming it (同比去年同期): vague alone, read after 同比.
ZH.add("VAGUE", "同期 上期 历史同期 去年同期 上年同期", "compared")
ZH.add(
    "OTHERDAY",
    "",
)
ZH.add(
    "OTHERDAY",
    "节假日 节日 寒假 暑假 工作日 交易日 营业日 休息日 周年 "
    "大促 店庆 年货节 购物节 狂欢节 女神节 女王节 五四 国际青年节 护士节 "
    "中元 中元节 龙抬头 开斋节 泼水节 跨年 双旦 双节 节前 节后 八一 建党节 七一 "
    "植树节 寒食 寒食节 小年 "
    "立春 雨水 惊蛰 春分 谷雨 立夏 小满 芒种 夏至 小暑 大暑 立秋 处暑 白露 秋分 寒露 霜降 "
    "立冬 小雪 大雪 冬至 小寒 大寒 三伏 伏天 入伏 出伏 数九 三九 "
    "圣周 圣周一 圣周二 圣周三 圣周四 圣周五 圣周六 圣周日 圣灰星期三 圣灰日 沈默周五 沉默周五 "
    "神圣周六 神圣星期四 神圣星期六 神圣周四 黑色星期六 东正教 复活节星期一 棕枝主日 圣枝主日 "
    "耶稣受难日 耶稣升天节 降临节 主显节 五旬节 圣诞节前夕 万圣夜 诸圣节 亡灵节 "
    "光明节 修殿节 献殿节 烛光节 哈努卡节 逾越节 住棚节 赎罪日 犹太新年 普珥节 七七节 "
    "开斋节 古尔邦节 宰牲节 斋月 斋期 大斋期 四旬期 排灯节 洒红节 灯节 宋干节 感恩节周末 "
    "国际劳动妇女节 拉匝路 拉撒路 受难日",
)
# After a festival, its public holiday's days (国庆黄金周, 春节假期); alone, no period read.
ZH.add("OTHERDAY", "假日 假期 长假 小长假 黄金周", "span")
# 放假 "to be off": after a festival its public holiday (国庆放假), after one day that day
# (29日你放假吗, 明天放假吗: merge.py); after anything else (上周放假) it is left unread.
ZH.add("OTHERDAY", "放假", "off")
# Festivals and holidays the grammar reads (SPEC §4.1, §4.2): name → holiday key.
ZH_HOLIDAYS = {
    "元旦": "new_year", "元旦节": "new_year", "阳历新年": "new_year",
    "春节": "spring", "农历新年": "spring", "大年初一": "spring", "新春": "spring",
    "元宵": "lantern", "元宵节": "lantern", "正月十五": "lantern",
    "劳动节": "labour", "五一": "labour", "五一节": "labour", "五一劳动节": "labour",
    "五一国际劳动节": "labour", "国际劳动节": "labour",
    "端午": "dragon_boat", "端午节": "dragon_boat",
    "七夕": "qixi", "七夕节": "qixi",
    "中秋": "mid_autumn", "中秋节": "mid_autumn",
    "国庆": "national", "国庆节": "national",
    "六一八": "618", "双十一": "double_11", "双11": "double_11",
    "双十二": "double_12", "双12": "double_12",
    "清明": "qingming", "清明节": "qingming",
    "除夕": "chuxi", "大年夜": "chuxi", "大年三十": "chuxi",
    "重阳": "chongyang", "重阳节": "chongyang", "腊八": "laba", "腊八节": "laba",
    "平安夜": "christmas_eve", "圣诞": "christmas", "圣诞节": "christmas",
    "情人节": "valentine", "妇女节": "women", "三八节": "women", "三八妇女节": "women",
    "国际妇女节": "women", "儿童节": "children", "六一": "children", "六一儿童节": "children",
    "国际儿童节": "children", "教师节": "teacher", "万圣节": "halloween", "万圣": "halloween",
    "复活节": "easter", "感恩节": "thanksgiving", "母亲节": "mother", "父亲节": "father",
    "黑五": "black_friday", "黑色星期五": "black_friday",
    # SPEC §4.3's peers' majority (Duckling and Recognizers-Text give the same day):
    "愚人节": "fools", "建军节": "army", "八一建军节": "army", "青年节": "youth",
    "五四青年节": "youth", "光棍节": "double_11",
}  # fmt: skip
ZH |= {name: ("HOLIDAY", key) for name, key in ZH_HOLIDAYS.items()}
ZH["十一"] = ("HOLIDAY", "national")  # only with a holiday word: see tokens.py
ZH.add("DI", "第")
ZH.add("GE", "个")
ZH.add("HALF", "半")
ZH.add("FEW", "几 若干 好几 数 多 些 一些 几个 几十 十几 上百 几百")
ZH.named(
    "NOW",
    "当前 现在 目前 今天 今日 实时 此刻 当下 眼下 如今 此时 截至目前 截止目前 截至现在 截止到目前 "
    "截至今天 截至今日 截止今日 截止今天 到目前为止 迄今为止 至今为止",
)
ZH.add("LATEST", "最新")
ZH.add("ZH_LAST", "上 上一 上一个")
ZH.add("ZH_LAST2", "上上 上上个")
ZH.add("ZH_NEXT", "下 下一 下一个")
ZH.add("ZH_NEXT2", "下下 下下个")
ZH.add("ZH_THIS", "本 这 这个 这一 当 今 今个 这一个 当前这个")
ZH.add("ZH_RECENT", "最近 近 过去 最近的 过去的 近的 往前 往前推 前推")
ZH.add("ZH_FUTURE", "未来 接下来 今后 往后 后面 接下去 将来 随后")
ZH.add("ZH_QIAN", "前")
ZH.add("ZH_HOU", "后")
ZH.add("ZH_BEFORE", "以前 之前")
ZH.add("ZH_AFTER", "以后 之后")
ZH.add(
    "ZH_SINCE",
    "以来 迄今 到今天 到今日 到现在 到目前 至现在 至目前 至今天 至今日 起至今 起到现在 开始到现在 "
    "开始至今 以后至今",
)
ZH.add("ZH_TONOW", "至今")
ZH.add("ZH_ASOF", "截至 截止 截止到 截止至 截到 截至到")
ZH.add("ZH_UNTIL", "为止")
ZH.add("ZH_AROUND", "左右 前后 上下 前夕 附近 上下浮动")
ZH.add("ZH_ABOUT", "大约 大概 约 将近 接近 差不多")
ZH.add("ZH_EDGE", "初 初期 头 伊始 之初", "start")
ZH.add("ZH_EDGE", "底 末 终 尾 末期", "end")
ZH.add("ZH_MID", "中 中期")
ZH.add("ZH_HALF", "上半 前半", 1)
ZH.add("ZH_HALF", "下半 后半", 2)
ZH.named("ZH_FROM", "从 自 由 自从 打从 始于")
ZH.add("ZH_TO", "到 至 一直到 直到 一直至 截止到至")
ZH.add("ZH_AND", "和 与 及 以及 跟 、")
ZH.add("ZH_SAME", "同")
ZH.add("ZH_OR", "或 或者 还是")
ZH.add("ZH_QI", "起 开始")
ZH.add(
    "ZH_HARMLESS", "全年 整年 全月 整月 全天 整天 全周 整周 整季 全季 当中 里 那天 那一天 当天那天"
)
ZH.add("ZH_WITHIN", "之内 以内 内")
ZH.add("ZH_FINAL", "最后 最末 最终")
ZH.add(
    "EXCL_TODAY",
    "不含今天 不包括今天 不包含今天 不计今天 不算今天 除去今天 不含今日 不包括今日 不含当天 "
    "不包括当天 排除今天",
)
ZH.add("ZH_FIRST", "首")
ZH.add(
    "NEGATION",
    "除了 除去 除开 不含 不包括 不包含 不计 不算 排除 剔除 扣除 不是 并非 而非 去掉 去除",
)
ZH.add("ZH_HARMLESS", "期间", "span")
ZH.add("ZH_REMAIN", "剩余 剩下 余下 剩下的 剩余的 余下的")
ZH.add("ZH_EVERY", "每 各 逐 每个 每一")  # 分 is the clock minute (FEN); 分月 a step
ZH.add("ZH_DE", "的")
ZH.add("ZH_BIGGER", "大于 小于 超过 不到 晚于 早于 不早于 不晚于 不超过 至少 最多 最早 最晚")
ZH.add(
    "ZH_ORLATER",
    "以上 以下 之上 之下 或更早 或更晚 或以后 或以前 及以后 及以前 及之后 及之前 或之后 或之前",
)
ZH.add("COMPARE", "同比 环比 相比 相较 较 比 较上 相比于 较之")
ZH.add("COMPARE_ONLY", "对比 比较 对照")
ZH.add("TREND", "趋势 变化 走势 变动 波动")
# Step words (SPEC §4): 按月, 每月, 各月, 分月, 逐月, 月度, 每个月 … and finer than a day.
for _step, _chars in (
    ("day", "天日"),
    ("week", "周"),
    ("month", "月"),
    ("quarter", "季"),
    ("year", "年"),
):
    for _char in _chars:
        for _head in ("按", "每", "逐", "各", "分", "每个", "按个"):
            ZH[_head + _char] = ("STEP", _step)
for _word in (
    "按季度",
    "每季度",
    "各季度",
    "分季度",
    "逐季度",
    "每个季度",
    "按星期",
    "每星期",
    "各星期",
    "每个星期",
    "每礼拜",
    "按礼拜",
    "按日期",
    "逐天",
    "月度",
    "每个月份",
    "按月份",
    "各月份",
    "分月份",
    "按年度",
    "各年度",
    "逐年度",
    "分年度",
    "每年度",
):
    _step = (
        "quarter"
        if "季" in _word
        else "week"
        if "星期" in _word or "礼拜" in _word
        else "day"
        if "天" in _word or "日" in _word
        else "month"
        if "月" in _word
        else "year"
    )
    ZH[_word] = ("STEP", _step)
ZH.add(
    "STEPFINE",
    "按小时 每小时 逐小时 各小时 分小时 按分钟 每分钟 逐分钟 按秒 每秒 小时级 分钟级 每时",
)
# One-word relative days and periods: 昨天 (-1 day), 本月 (0 month), 上上个季度 (-2 quarter).
ZH_RELDAYS = {
    "昨天": -1, "昨日": -1, "前天": -2, "前日": -2, "大前天": -3, "大前日": -3, "大大前天": -4,
    "大大前日": -4, "大大后天": 4, "大大后日": 4, "明天": 1,
    "明日": 1, "后天": 2, "后日": 2, "大后天": 3, "大后日": 3, "寻日": -1, "听日": 1,
}  # fmt: skip
ZH |= {word: ("RELDAY", offset) for word, offset in ZH_RELDAYS.items()}
_UNIT_WORDS: dict[Step, tuple[str, ...]] = {
    "week": ("周", "星期", "礼拜"),
    "month": ("月", "月份"),
    "quarter": ("季度", "季"),
    "year": ("年", "年度"),
}
for _head, _offset in (
    ("上上", -2),
    ("上", -1),
    ("下下", 2),
    ("下", 1),
    ("本", 0),
    ("这", 0),
    ("当", 0),
):
    for _unit, _forms in _UNIT_WORDS.items():
        for _form in _forms:
            for _middle in ("", "个", "一个", "一"):
                if _head in ("本", "当") and _middle:
                    continue  # 本个月 is no word
                if _unit == "year" and (_middle in ("个", "一个") or _head in ("当", "这")):
                    continue  # 上个年, 这年 are no words; 上一年, 这一年 are
                ZH[_head + _middle + _form] = ("RELPERIOD", (_offset, _unit))
ZH |= {
    "去年": ("RELPERIOD", (-1, "year")), "去年度": ("RELPERIOD", (-1, "year")),
    "前年": ("RELPERIOD", (-2, "year")), "大前年": ("RELPERIOD", (-3, "year")),
    "今年": ("RELPERIOD", (0, "year")), "今年度": ("RELPERIOD", (0, "year")),
    "本年": ("RELPERIOD", (0, "year")), "本年度": ("RELPERIOD", (0, "year")),
    "这一年": ("RELPERIOD", (0, "year")), "当年度": ("RELPERIOD", (0, "year")),
    "明年": ("RELPERIOD", (1, "year")), "明年度": ("RELPERIOD", (1, "year")),
    "后年": ("RELPERIOD", (2, "year")), "大后年": ("RELPERIOD", (3, "year")),
    "上年": ("RELPERIOD", (-1, "year")), "上一年": ("RELPERIOD", (-1, "year")),
    "上一年度": ("RELPERIOD", (-1, "year")), "下年": ("RELPERIOD", (1, "year")),
    "下一年": ("RELPERIOD", (1, "year")), "当月": ("RELPERIOD", (0, "month")),
    "当季": ("RELPERIOD", (0, "quarter")), "当季度": ("RELPERIOD", (0, "quarter")),
    "当周": ("RELPERIOD", (0, "week")), "今个月": ("RELPERIOD", (0, "month")),
    "今个星期": ("RELPERIOD", (0, "week")), "今个礼拜": ("RELPERIOD", (0, "week")),
    "今星期": ("RELPERIOD", (0, "week")), "今礼拜": ("RELPERIOD", (0, "week")),
}  # fmt: skip
# Words holding a time character that are no time (the longest word wins in the tokenizer).
ZH.add(
    "OK_WORD",
    "天猫 天津 天然 天气 天下 天空 天使 天地 天才 天花板 天天 每天天 今日头条 日本 日元 日志 日常 "
    "日用 日化 日均 日活 日报 日程 日期 日历 日照 月薪 月饼 月光 月均 月活 月球 月亮 月报 年轻 "
    "年龄 "
    "年纪 年薪 年费 年化 年均 年报 年货 年限 周转 周边 周围 周到 周杰伦 周期 周岁 周长 周均 "
    "周报 季军 季报 分析 分类 分布 分数 分公司 分店 分组 分区 部分 分别 分配 分成 分享 分行 "
    "分部 百分 点击 一点 重点 地点 特点 点赞 观点 点评 时间 时候 时尚 时段 同时 及时 小时候 "
    "时长 时效 时代 时期 有时 临时 准时 按时 时刻 立刻 深刻 刻意 秒杀 秒懂 号码 型号 账号 编号 "
    "信号 口号 挂号 序号 符号 称号 代号 旬邑 上市 上海 上线 上升 上涨 上游 上级 上方 上述 "
    "以上年 下降 下单 下载 下线 下属 下游 下方 下述 本身 本地 本科 本金 本人 本次 本店 本公司 "
    "本品 这些 这样 当地 当然 前台 前端 前景 前列 后台 后端 后续 后果 中国 中心 中间 其中 "
    "中的 底部 底层 末尾 期货 期权 期望 星巴克 春装 秋装 冬装 夏装 青春 一天到晚 "
    "明星 明细 明确 春晚 现在时 过去时 将来时 过去式 数量 数据 数字 数额 数目 多少 多个 多家 "
    "到货 到账 到店 到达 到位 到手 按年龄 年龄段 上月份额 一级 二级 三级 一下 相比之下 总之 "
    "以下简称 如下 以下是 上下游 以上是 以上的 上述 "
    # number words inside ordinary words, and names holding calendar characters (SPEC §4.3)
    "统一 唯一 明日方舟 星期天超市 今日说法 今日关注 明日之后 周年庆",
)
# 月份, 年份: the nouns "the month", "the year" (2018年12月的月份, 一个年份), as plain as 日期 and
# 时间 — right after a number they are its unit (3月份 is 3月 + 份: see `tokens._zh_word`).
ZH.add("OK_WORD", "月份 年份")
# An age (18周岁: 18 full years of age): whole after a number, never 18周 + 岁.
WHOLE_AFTER_NUMBER = ("周岁",)
# Ordinary words that begin with a number word (SPEC §4.3: 一共, 一下, 万一 are plain): a run of
# numerals stops before them (上周二一共 is 上周二 + 一共) and a weekday does not take their first
# character (近一周一共 is 近一周 + 一共).
PLAIN_NUMBER_WORDS = [
    "一共",
    "一起",
    "万一",
    "一般",
    "一样",
    "一致",
    "一定",
    "一切",
    "一再",
    "一律",
    "一些些",
    "一直",
    "一旦",
    "一边",
    "一番",
    "一次性",
    "一下子",
    "一会儿",
    "一下",
]
ZH.add("OK_WORD", " ".join(word for word in PLAIN_NUMBER_WORDS if word != "一下"))
# A zone named in the text (昨天（北京时间）): it governs the expression (SPEC §4.3); read as a
# zone word, so an expression beside it is never settled in another zone.
ZH.add(
    "TZWORD",
    "北京时间 东京时间 纽约时间 伦敦时间 巴黎时间 柏林时间 悉尼时间 香港时间 台北时间 新加坡时间 "
    "首尔时间 莫斯科时间 美东时间 美西时间 美国东部时间 美国西部时间 太平洋时间 东部时间 中部时间 "
    "山地时间 当地时间 本地时间 格林尼治时间 格林威治时间 协调世界时 世界时 东八区 西五区 东九区 "
    "零时区 洛杉矶时间 旧金山时间 芝加哥时间 迪拜时间 印度时间 日本时间 中国时间",
)
