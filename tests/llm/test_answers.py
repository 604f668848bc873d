"""Reading the model's answer: JSON found in fences or prose; shapes checked (seed 003 §6)."""

from __future__ import annotations

import pytest

from resolver.llm.answers import read_answer

NAME = "p"


@pytest.mark.parametrize(
    "content",
    [
        pytest.param('{"p": {"a": 1}}', id="plain"),
        pytest.param('```json\n{"p": {"a": 1}}\n```', id="fenced"),
        pytest.param('```\n{"p": {"a": 1}}\n```', id="fenced-no-lang"),
        pytest.param('Here you go: {"p": {"a": 1}} — done.', id="prose"),
        pytest.param('Sure! {broken} then {"p": {"a": 1}}', id="prose-after-broken"),
        pytest.param('  \n{"p": {"a": 1}}\n', id="whitespace"),
    ],
)
def test_values_recovered(content: str) -> None:
    answer = read_answer(content, NAME)
    assert answer.violations == []
    assert answer.values == {"a": 1}


@pytest.mark.parametrize(
    ("content", "rule"),
    [
        pytest.param(None, "6.1.1", id="null-content"),
        pytest.param("", "6.1.1", id="empty"),
        pytest.param("I cannot help", "6.1.1", id="no-json"),
        pytest.param('{"p": 3}', "6.1.2", id="value-not-object"),
        pytest.param('{"p": {"a": 1}, "q": {}}', "6.1.3", id="two-properties"),
        pytest.param('{"a": 1}', "6.1.3", id="unwrapped"),
        pytest.param('{"query": {"a": 1}, "body": {"b": 2}}', "5.1.2", id="grouped"),
        pytest.param('{"_error": "missing p: a", "p": {}}', "6.1.4", id="error-plus-values"),
        pytest.param('{"_error": 3}', "6.1.4", id="error-not-string"),
        pytest.param('{"_error": "I do not know"}', "6.2.1", id="error-free-form"),
    ],
)
def test_shape_violations(content: str | None, rule: str) -> None:
    answer = read_answer(content, NAME)
    assert [v.rule for v in answer.violations] == [rule]


def test_missing_answer_parsed() -> None:
    answer = read_answer(
        '{"_error": "missing p: region, drug_category | ask: 请明确地区和药品类别"}', NAME
    )
    assert answer.violations == []
    assert answer.missing == ["region", "drug_category"]
    assert answer.ask == "请明确地区和药品类别"


def test_missing_answer_without_ask() -> None:
    answer = read_answer('{"_error": "missing p: start,end"}', NAME)
    assert answer.missing == ["start", "end"]
    assert answer.ask is None
