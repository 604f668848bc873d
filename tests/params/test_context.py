"""`additional_context` (SPEC §3): JSON, JSON in a string, free text; coercion per type."""

from __future__ import annotations

import random
from typing import Any

import pytest

from resolver.params.context import (
    ALIASES,
    RESERVED,
    CoercionError,
    Context,
    coerce,
    parse_context,
)
from rules.spec import ParamType

SEED_TEXT = (
    "company_id=company_000001，registered_capital=2000000；registered_capital>1000000；"
    "now_ms=1762996342241，timezone=Asia/Shanghai；趋势查询step=month"
)


def test_seed_free_text() -> None:
    context = parse_context(SEED_TEXT)
    assert context.pairs == {
        "company_id": "company_000001",
        "registered_capital": "2000000",
        "now_ms": "1762996342241",
        "timezone": "Asia/Shanghai",
        "step": "month",
    }
    assert context.text == SEED_TEXT  # the LLM still sees `registered_capital>1000000`


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        pytest.param(
            "items=revenue,profit,growth", "items", "revenue,profit,growth", id="ascii-comma-stays"
        ),
        pytest.param("lang：zh-CN", "lang", "zh-CN", id="full-width-colon"),
        pytest.param("lang: en-US", "lang", "en-US", id="ascii-colon"),
        pytest.param("a=1\nlang=zh", "lang", "zh", id="newline"),
        pytest.param("a=1;lang=zh", "lang", "zh", id="ascii-semicolon"),
        pytest.param("地区=华东；x=1", "地区", "华东", id="chinese-key"),
        pytest.param(
            "start=2024-01-01T10:00:00", "start", "2024-01-01T10:00:00", id="colons-in-value"
        ),
        pytest.param("请查询step = week的数据", "step", "week的数据", id="glued-with-spaces"),
    ],
)
def test_free_text_pairs(text: str, key: str, value: str) -> None:
    assert parse_context(text).pairs[key] == value


def test_time_of_day_is_not_a_pair() -> None:
    assert parse_context("截至10:30的数据").pairs == {}


def test_json_object_and_json_string() -> None:
    as_object = parse_context({"step": "day", "instant": False})
    as_string = parse_context('{"step": "day", "instant": false}')
    assert as_object.pairs == as_string.pairs == {"step": "day", "instant": False}
    assert as_object.is_json


def test_broken_json_string_is_free_text() -> None:
    assert parse_context("{step=day").pairs == {"step": "day"}


def test_empty_context() -> None:
    assert parse_context(None).pairs == {}
    assert parse_context("").pairs == {}


COERCIONS: list[tuple[str, Any, ParamType, Any]] = [
    ("array-comma", "revenue,profit,growth", ParamType.ARRAY, ["revenue", "profit", "growth"]),
    ("array-dunhao", "华东、华南", ParamType.ARRAY, ["华东", "华南"]),
    ("array-json", '["a", 1]', ParamType.ARRAY, ["a", 1]),
    ("array-single", "revenue", ParamType.ARRAY, ["revenue"]),
    ("bool-true", "true", ParamType.BOOLEAN, True),
    ("bool-1", "1", ParamType.BOOLEAN, True),
    ("bool-shi", "是", ParamType.BOOLEAN, True),
    ("bool-fou", "否", ParamType.BOOLEAN, False),
    ("bool-False", "False", ParamType.BOOLEAN, False),
    ("integer", "2000000", ParamType.INTEGER, 2_000_000),
    ("integer-negative", "-3", ParamType.INTEGER, -3),
    ("number-float", "0.8", ParamType.NUMBER, 0.8),
    ("number-int", "3", ParamType.NUMBER, 3),
    ("object", '{"year": 2024}', ParamType.OBJECT, {"year": 2024}),
    ("string", " 华东 ", ParamType.STRING, "华东"),
    ("json-value-untouched", 5, ParamType.STRING, 5),
]


@pytest.mark.parametrize(
    ("raw", "declared", "expected"), [pytest.param(r, d, e, id=i) for i, r, d, e in COERCIONS]
)
def test_coercion(raw: Any, declared: ParamType, expected: Any) -> None:
    assert coerce(raw, declared) == expected


@pytest.mark.parametrize(
    ("raw", "declared"),
    [
        pytest.param("abc", ParamType.INTEGER, id="integer"),
        pytest.param("2.5", ParamType.INTEGER, id="integer-fraction"),
        pytest.param("maybe", ParamType.BOOLEAN, id="boolean"),
        pytest.param("x", ParamType.NUMBER, id="number"),
        pytest.param("[1,", ParamType.ARRAY, id="array-broken-json"),
        pytest.param("a=1", ParamType.OBJECT, id="object"),
        pytest.param("[1]", ParamType.OBJECT, id="object-is-array"),
    ],
)
def test_coercion_failures(raw: str, declared: ParamType) -> None:
    with pytest.raises(CoercionError):
        coerce(raw, declared)


# -- SPEC §3 v2: pairs split by an ASCII comma before another pair; words read for time ------


@pytest.mark.parametrize(
    ("text", "pairs"),
    [
        pytest.param(
            "region=East China, limit=5",
            {"region": "East China", "limit": "5"},
            id="comma-before-a-pair-splits",
        ),
        pytest.param(
            "start=2024-01-01, end=2024-03-31, step=month",
            {"start": "2024-01-01", "end": "2024-03-31", "step": "month"},
            id="comma-separated-time-keys",
        ),
        pytest.param(
            "start=2024-01-01T10:00:00, end=2024-03-01T10:00:00",
            {"start": "2024-01-01T10:00:00", "end": "2024-03-01T10:00:00"},
            id="colons-in-values-and-a-comma",
        ),
        pytest.param(
            "time range: Jan to Mar 2024, monthly",
            {"time range": "Jan to Mar 2024, monthly"},
            id="comma-before-words-stays",
        ),
        pytest.param(
            "当前时间=2025-03-11T10:00:00；timezone=America/New_York",
            {"当前时间": "2025-03-11T10:00:00", "timezone": "America/New_York"},
            id="time-of-day-in-a-value-is-no-key",
        ),
    ],
)
def test_pairs_v2(text: str, pairs: dict[str, Any]) -> None:
    assert parse_context(text).pairs == pairs


@pytest.mark.parametrize(
    ("raw", "inputs", "words"),
    [
        pytest.param(
            "时间范围：2024年1月至3月，按月", set(), "2024年1月至3月\n按月", id="time-key"
        ),
        pytest.param("最近半年", set(), "最近半年", id="free-text"),
        pytest.param("趋势查询step=month", set(), "趋势查询", id="words-glued-before-a-pair"),
        pytest.param(
            "now_ms=1762996342241；timezone=Asia/Shanghai；Step=月；步长=月",
            set(),
            "",
            id="reserved",
        ),
        pytest.param("region=华东，说明：看2024年", {"region"}, "看2024年", id="inputs-left-out"),
        pytest.param(
            {"时间范围": "2024年第一季度", "region": "华东", "note": "2023年"},
            set(),
            "2024年第一季度",
            id="json-reads-only-time-keys",
        ),
    ],
)
def test_time_text(raw: Any, inputs: set[str], words: str) -> None:
    assert parse_context(raw).time_text(frozenset(inputs)) == words


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        pytest.param("Step=month", "step", "month", id="letter-case"),
        pytest.param("步长：月", "step", "月", id="zh-alias"),
        pytest.param("当前日期=2025-03-15", "now", "2025-03-15", id="now-alias"),
        pytest.param("today: 2025-03-15", "now", "2025-03-15", id="today"),
        pytest.param("开始时间=2024-01-01", "start", "2024-01-01", id="start-alias"),
    ],
)
def test_reserved_keys_under_aliases(text: str, key: str, value: str) -> None:
    assert parse_context(text).lookup(key) == (True, value)


def test_a_remembered_text_gives_each_request_its_own_pairs() -> None:
    text = "region=华东；top_n=5"
    first = parse_context(text)
    first.pairs["region"] = "changed by a caller of the first"
    second = parse_context(text)
    assert second.pairs == {"region": "华东", "top_n": "5"}
    assert second.segments == first.segments


def _first_reserved(pairs: dict[str, Any], name: str) -> tuple[bool, Any]:
    """The look-up as SPEC §3 states it: the key itself, else the first pair whose key names
    the reserved key in another case, with spaces around, or by an alias."""
    if name in pairs:
        return True, pairs[name]
    if name in RESERVED:
        for key, value in pairs.items():
            folded = key.strip().lower()
            if folded == name or ALIASES.get(folded) == name:
                return True, value
    return False, None


def test_reserved_look_ups_find_the_first_pair_naming_each_key() -> None:
    # Every reserved key and alias in several spellings, some twice: each look-up (in any
    # order, repeated) answers what a scan of the pairs in order answers.
    rng = random.Random(33)  # noqa: S311 - a reproducible sample, not a secret
    spellings = [*RESERVED, *ALIASES, "region", "top_n", "Step ", " TZ", "Now_MS", "步长"]
    for _ in range(300):
        keys = rng.sample(spellings, rng.randint(0, 8))
        keys = [rng.choice([k, k.upper(), f" {k} "]) for k in keys]
        pairs = {key: f"v{index}" for index, key in enumerate(keys)}
        context = Context(dict(pairs), "")
        names = [*RESERVED, "region", "Step", "tz"]
        rng.shuffle(names)
        for name in names * 2:
            assert context.lookup(name) == _first_reserved(pairs, name), (pairs, name)
