"""Function names OpenAI accepts, and descriptions that keep the human name."""

from __future__ import annotations

import re

import pytest

from resolver.toolschema.naming import function_description, function_name, slugify

VALID = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")

NAMES = [
    pytest.param("search_object_instance", "id-1", "search_object_instance", id="valid-name-kept"),
    pytest.param("get-Weather_2", "", "get-Weather_2", id="valid-with-dash-and-digit"),
    pytest.param("a" * 64, "", "a" * 64, id="exactly-64-kept"),
    pytest.param("a" * 70, "", "a" * 64, id="too-long-cut"),
    pytest.param("github.create_issue", "", "github_create_issue", id="dot-becomes-underscore"),
    pytest.param("  get weather!  ", "", "get_weather", id="spaces-and-punctuation"),
    pytest.param("查询企业风险 risk level", "t1", "risk_level", id="ascii-part-of-a-mixed-name"),
    pytest.param(
        "查询企业风险", "7acb8add-ecd0-45cf", "7acb8add-ecd0-45cf", id="chinese-uses-tool-id"
    ),
    pytest.param("查询企业风险", "tool/42", "tool_42", id="tool-id-slugged"),
    pytest.param("_ - _", "", None, id="no-letter-or-digit-is-no-slug"),
    pytest.param("查询企业风险", "", None, id="chinese-without-id-hashes"),
    pytest.param("查询企业风险", "编号", None, id="chinese-id-hashes-too"),
    pytest.param("", "", None, id="empty-hashes"),
]


@pytest.mark.parametrize(("name", "tool_id", "expected"), NAMES)
def test_function_name(name: str, tool_id: str, expected: str | None) -> None:
    result = function_name(name, tool_id)
    assert VALID.match(result)
    if expected is None:
        assert re.fullmatch(r"tool_[0-9a-f]{8}", result)
    else:
        assert result == expected


def test_hash_fallback_is_stable_and_tells_tools_apart() -> None:
    assert function_name("查询企业风险") == function_name("查询企业风险")
    assert function_name("查询企业风险") != function_name("查询企业信息")
    assert function_name("查询", "编号一") != function_name("查询", "编号二")
    # Stable across processes and releases, not just within one run (no hash()).
    assert function_name("查询企业风险") == "tool_9821cbb9"


def test_slug_trims_after_cutting() -> None:
    assert slugify("a" * 63 + "!b") == "a" * 63


DESCRIPTIONS = [
    pytest.param(
        "risk", "Looks up risk.", "risk", "Looks up risk.", id="name-kept-description-as-is"
    ),
    pytest.param(
        "查询企业风险",
        "按企业查询风险。",
        "tool_9821cbb9",
        "查询企业风险: 按企业查询风险。",
        id="human-name-leads",
    ),
    pytest.param("查询企业风险", "", "t1", "查询企业风险", id="human-name-alone"),
    pytest.param("查询企业风险", None, "t1", "查询企业风险", id="null-description"),
    pytest.param(
        "get weather", "  Weather.  ", "get_weather", "get weather: Weather.", id="slugged"
    ),
    pytest.param("", "Only this.", "tool_x", "Only this.", id="no-human-name"),
]


@pytest.mark.parametrize(("name", "description", "used", "expected"), DESCRIPTIONS)
def test_function_description(name: str, description: str | None, used: str, expected: str) -> None:
    assert function_description(name, description, used) == expected
