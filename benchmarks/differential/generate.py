"""Generated texts (deterministic: a fixed seed): BI questions that hold a window the scanner
reads with time-like material inserted (front, middle, end; with and without a connector),
and questions with no time material at all (the peer's false-positive rate)."""

from __future__ import annotations

import random
from typing import NamedTuple

SEED = 20251113
ROUNDS = 3
PLAIN_PER_LANGUAGE = 150


class Template(NamedTuple):
    """A question in three parts: what is measured, the window, and a tail (may be empty)."""

    lead: str
    window: str
    tail: str


# What is measured, the windows the scanner reads, and what may follow them.
EN_LEADS = ("sales", "revenue", "orders", "total revenue", "new customers", "average order value")
EN_WINDOWS = (
    "last month", "this year", "in Q3 2024", "last quarter", "over the last 7 days", "in 2024",
    "in March 2024", "last week", "year to date", "for the past 3 months", "this month",
    "in the first half of 2024", "last year", "this quarter", "since last March",
)  # fmt: skip
EN_TAILS = ("", "", "by region", "per store", "for the north region", "by product line")
# Time-like material dateparser recognizes.
EN_INSERTS = (
    "on March 5", "March 5", "on Friday", "Friday", "yesterday", "at 3pm", "3pm", "in 2019",
    "2019", "next week", "on Christmas", "Christmas Day", "5/6", "on 5/6", "two days ago",
    "3 days ago", "tomorrow", "last Monday", "this morning", "tonight", "at noon", "in June",
    "June 2023", "2023-05-06", "Jan 15", "on the 3rd", "next Monday", "today", "a week ago",
    "in 10 days", "the 15th", "on Thanksgiving", "New Year's Eve", "at 10:30", "Sept 2022",
    "Dec 1, 2023", "in the morning", "an hour ago", "last night", "on 12/25/2023",
    "last Friday", "this Tuesday", "in 2 weeks", "2 weeks ago", "the day before yesterday",
    "Monday morning", "March 2019", "10am", "at midnight", "2020-01-01", "01/02/2020",
    "Oct 3rd", "next month", "3 months ago", "in 2022", "5 minutes ago", "Aug 2021",
    "August 15", "15 August 2020", "2021-06", "Tuesday", "the 1st of May", "2 years ago",
)  # fmt: skip
EN_CONNECTORS = (" ", " and ", " or ", " before ", " vs ", ", ", " compared with ")

ZH_LEADS = ("销售额", "营收", "订单量", "新增客户数", "客单价", "毛利")
ZH_WINDOWS = (
    "上个月", "今年", "2024年第三季度", "上季度", "最近7天", "2024年", "2024年3月", "上周",
    "今年以来", "最近3个月", "本月", "2024年上半年", "去年", "本季度", "近一周",
)  # fmt: skip
ZH_TAILS = ("", "", "按地区", "各门店", "华东区", "按产品线")
ZH_INSERTS = (
    "3月5日", "5号", "周五", "星期五", "昨天", "下午3点", "3点", "2019年", "下周", "圣诞节",
    "国庆节", "春节", "5/6", "两天前", "3天前", "明天", "上周一", "今天上午", "中午", "6月",
    "2023年6月", "2023-05-06", "1月15日", "下周一", "今天", "一周前", "10天后", "元旦",
    "中秋节", "晚上8点", "2022年9月", "2023年12月1日", "早上", "一小时前", "昨晚", "15日",
    "去年3月", "上周五", "上个月5号", "2020年1月1日", "3个月前", "2周前", "5分钟前", "2021年",
    "8月15日", "下个月", "后天", "前天", "今年6月", "01/02/2020", "上午10点", "周一", "2天前",
    "1月", "12月31日", "星期一", "2021年3月", "本周五", "20日",
)  # fmt: skip
ZH_CONNECTORS = ("", "和", "或", "之前", "对比", "，", "以及", "与")

PLAIN_NUMBERS = (3, 5, 10, 12, 20, 50, 100)
EN_QUALIFIERS = ("", "in the east region", "for product line A", "excluding returns", "online only")
ZH_QUALIFIERS = ("", "华东区", "线上渠道", "不含退货", "A产品线")
EN_PLAIN = (
    "top {n} stores by revenue",
    "show revenue by region",
    "which product line has the highest margin",
    "average order value per customer",
    "list the {n} best-selling products in the east region",
    "compare sales of product A and product B",
    "stores with more than {n} employees",
    "revenue of store {n}",
    "how many customers bought model X{n}",
    "the second best region by profit",
    "products that may be discontinued",
    "units sold per sales rep",
    "rank regions by gross margin",
    "top {n} customers by lifetime value",
    "orders with a discount above {n} percent",
    "what is the return rate of SKU {n}",
    "show me inventory levels by warehouse",
    "customers who sat in the loyalty tier",
    "profit per unit for category {n}",
    "which {n} suppliers deliver the most",
)
ZH_PLAIN = (
    "前{n}名的门店", "按产品线的销售额", "华东地区销售额最高的{n}个产品", "单价大于{n}的订单",
    "各门店的客单价", "下单量排名", "每个销售代表的业绩", "毛利率最高的品类",
    "库存少于{n}件的商品", "退货率超过{n}%的商品", "会员等级分布", "各地区的客户数量",
    "按渠道统计订单量", "复购率最高的{n}个城市", "供应商交付准时率", "第二大区域的利润",
    "评分高于{n}分的门店", "转化率排名前{n}的活动", "平均折扣率", "各品牌的市场份额",
)  # fmt: skip


class Mixed(NamedTuple):
    """A generated question and the time material inserted into it, with where it is."""

    text: str
    insert: str
    at: int


def _place(parts: Template, insert: str, connector: str, where: int, *, zh: bool) -> Mixed:
    """The template with `insert` joined by `connector` at the front (0), after the lead (1),
    after the window (2) or at the end (3)."""
    space = "" if zh else " "
    lead, window, tail = parts
    # Chinese puts the window first: 上个月 的 销售额 按地区.
    pieces = [window + "的", lead, tail] if zh else [lead, window, tail]
    pieces = [piece for piece in pieces if piece]
    where = min(where, len(pieces))
    if where == 0:
        return Mixed(insert + connector + space.join(pieces), insert, 0)
    if where == len(pieces):
        head = space.join(pieces) + connector
        return Mixed(head + insert, insert, len(head))
    head = space.join(pieces[:where]) + connector
    return Mixed(head + insert + space + space.join(pieces[where:]), insert, len(head))


def mixed(seed: int = SEED, rounds: int = ROUNDS) -> list[Mixed]:
    """BI questions with a readable window and inserted time material, both languages: every
    insert with every connector at every position, `rounds` times, each time with a lead,
    window and tail drawn at random."""
    rng = random.Random(seed)
    texts: list[Mixed] = []
    seen: set[str] = set()
    for zh in (False, True):
        leads, windows, tails = (
            (ZH_LEADS, ZH_WINDOWS, ZH_TAILS) if zh else (EN_LEADS, EN_WINDOWS, EN_TAILS)
        )
        inserts, connectors = (ZH_INSERTS, ZH_CONNECTORS) if zh else (EN_INSERTS, EN_CONNECTORS)
        for _ in range(rounds):
            for insert in inserts:
                for connector in connectors:
                    for where in range(4):
                        parts = Template(rng.choice(leads), rng.choice(windows), rng.choice(tails))
                        made = _place(parts, insert, connector, where, zh=zh)
                        if made.text not in seen:
                            seen.add(made.text)
                            texts.append(made)
    return texts


def plain(seed: int = SEED, per_language: int = PLAIN_PER_LANGUAGE) -> list[str]:
    """Questions with no time material: products, regions, rankings, thresholds."""
    rng = random.Random(seed + 1)
    texts: list[str] = []
    for patterns, qualifiers, space in (
        (EN_PLAIN, EN_QUALIFIERS, " "),
        (ZH_PLAIN, ZH_QUALIFIERS, ""),
    ):
        every = sorted(
            {
                (qualifier + space + pattern if space == "" else pattern + space + qualifier)
                .strip()
                .format(n=n)
                for pattern in patterns
                for qualifier in qualifiers
                for n in PLAIN_NUMBERS
            }
        )
        texts.extend(rng.sample(every, per_language))
    return texts
