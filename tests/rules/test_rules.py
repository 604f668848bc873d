"""Every rule of SPEC §5, as tables: what passes, what breaks which rule."""

from __future__ import annotations

from typing import Any

import pytest

from rules import registry
from rules.spec import InputSpec, ParamType, PropertySpec

T0 = 1_755_047_542_241
T1 = 1_762_996_342_241

METRIC = PropertySpec(
    "approved_drug_count",
    "metric",
    (
        InputSpec("instant"),
        InputSpec("start"),
        InputSpec("end"),
        InputSpec("step"),
        InputSpec("region", ParamType.STRING),
    ),
)

OPERATOR = PropertySpec(
    "business_health_score",
    "operator",
    (
        InputSpec("include_details", ParamType.BOOLEAN),
        InputSpec("lang", ParamType.STRING, {"type": "string", "enum": ["zh-CN", "en-US"]}),
        InputSpec(
            "filter",
            ParamType.OBJECT,
            {
                "type": "object",
                "required": ["year_range", "regions"],
                "properties": {
                    "year_range": {"type": "array", "items": {"type": "integer"}},
                    "regions": {"type": "array", "items": {"type": "string"}},
                },
            },
        ),
        InputSpec("items", ParamType.ARRAY),
        InputSpec("threshold", ParamType.NUMBER),
        InputSpec("top_n", ParamType.INTEGER),
    ),
)

GOOD_OPERATOR: dict[str, Any] = {
    "include_details": False,
    "lang": "zh-CN",
    "filter": {"year_range": [2023, 2024], "regions": ["华东", "华南"]},
    "items": ["revenue", "profit"],
    "threshold": 0.8,
    "top_n": 5,
}

METRIC_CASES: list[tuple[str, dict[str, Any], list[str]]] = [
    ("trend-ok", {"instant": False, "start": T0, "end": T1, "step": "month"}, []),
    ("instant-ok", {"instant": True}, []),
    ("instant-with-window-ok", {"instant": True, "start": T0, "end": T1}, []),
    ("instant-string", {"instant": "false"}, ["7.2.1"]),
    ("instant-null", {"instant": None}, ["7.2.1"]),
    ("instant-int", {"instant": 0}, ["7.2.1"]),
    (
        "start-string",
        {"instant": False, "start": "1755047542241", "end": T1, "step": "day"},
        ["7.2.2"],
    ),
    (
        "start-float",
        {"instant": False, "start": 1755047542241.5, "end": T1, "step": "day"},
        ["7.2.2"],
    ),
    ("start-bool", {"instant": False, "start": True, "end": T1, "step": "day"}, ["7.2.2"]),
    ("start-seconds", {"instant": False, "start": 1755047542, "end": T1, "step": "day"}, ["7.2.2"]),
    (
        "end-after-2100",
        {"instant": False, "start": T0, "end": 4_102_444_800_001, "step": "day"},
        ["7.2.2"],
    ),
    ("start-after-end", {"instant": False, "start": T1, "end": T0, "step": "day"}, ["7.2.2"]),
    ("start-equals-end-ok", {"instant": False, "start": T1, "end": T1, "step": "day"}, []),
    (
        "range-edges-ok",
        {"instant": False, "start": 946_684_800_000, "end": 4_102_444_800_000, "step": "year"},
        [],
    ),
    ("step-7d", {"instant": False, "start": T0, "end": T1, "step": "7d"}, ["7.2.3"]),
    ("step-upper", {"instant": False, "start": T0, "end": T1, "step": "Month"}, ["7.2.3"]),
    ("step-number", {"instant": False, "start": T0, "end": T1, "step": 2}, ["7.2.3"]),
    ("instant-with-step", {"instant": True, "step": "day"}, ["7.2.4"]),
    ("instant-bad-window", {"instant": True, "start": "x"}, ["7.2.2"]),
    ("business-wrong-type", {"instant": True, "region": 3}, ["7.3.2"]),
    ("undeclared-key", {"instant": True, "company_id": "c1"}, ["3.1.1"]),
    ("grouped", {"instant": True, "query": {"region": "x"}}, ["5.1.2"]),
]


@pytest.mark.parametrize(
    ("params", "rules"), [pytest.param(p, r, id=i) for i, p, r in METRIC_CASES]
)
def test_metric_rules(params: dict[str, Any], rules: list[str]) -> None:
    violations = registry.validate(METRIC, params)
    assert [v.rule for v in violations] == rules
    for violation in violations:
        assert str(violation).startswith(f"rule {violation.rule}: ")


OPERATOR_CASES: list[tuple[str, dict[str, Any], list[str]]] = [
    ("all-ok", {}, []),
    ("number-as-string", {"threshold": "0.8"}, ["7.3.2"]),
    ("number-as-bool", {"threshold": True}, ["7.3.2"]),
    ("number-int-ok", {"threshold": 1}, []),
    ("number-nan", {"threshold": float("nan")}, ["7.3.2"]),
    ("integer-as-float", {"top_n": 5.0}, ["7.3.2"]),
    ("integer-as-bool", {"top_n": True}, ["7.3.2"]),
    ("integer-as-string", {"top_n": "5"}, ["7.3.2"]),
    ("boolean-as-string", {"include_details": "true"}, ["7.3.2"]),
    ("boolean-as-int", {"include_details": 1}, ["7.3.2"]),
    ("string-as-number", {"lang": 1}, ["7.3.2"]),
    ("array-as-csv", {"items": "revenue,profit"}, ["7.3.3"]),
    ("object-as-string", {"filter": "year_range=2023,2024"}, ["7.3.3"]),
    ("enum-miss", {"lang": "fr-FR"}, ["5.3.2"]),
    ("nested-required-missing", {"filter": {"year_range": [2023]}}, ["5.3.2"]),
    ("item-type", {"filter": {"year_range": ["2023"], "regions": []}}, ["5.3.2"]),
    ("extra-key", {"color": "red"}, ["3.1.1"]),
    ("grouped-body", {"body": {"lang": "zh-CN"}}, ["5.1.2"]),
]


@pytest.mark.parametrize(
    ("change", "rules"), [pytest.param(c, r, id=i) for i, c, r in OPERATOR_CASES]
)
def test_operator_rules(change: dict[str, Any], rules: list[str]) -> None:
    params = {**GOOD_OPERATOR, **change}
    violations = registry.validate(OPERATOR, params)
    assert [v.rule for v in violations] == rules


def test_violation_message_names_rule_and_value() -> None:
    [violation] = registry.validate(METRIC, {"instant": False, "step": "7d"})
    assert str(violation) == (
        'rule 7.2.3: step must be one of day/week/month/quarter/year, got "7d"'
    )


MISSING_CASES: list[tuple[str, PropertySpec, dict[str, Any], list[str]]] = [
    ("metric-nothing", METRIC, {}, ["instant", "start", "end", "step", "region"]),
    ("metric-instant-true", METRIC, {"instant": True}, ["region"]),
    ("metric-instant-false", METRIC, {"instant": False, "region": "x"}, ["start", "end", "step"]),
    (
        "metric-complete",
        METRIC,
        {"instant": False, "start": T0, "end": T1, "step": "day", "region": "x"},
        [],
    ),
    ("operator-nothing", OPERATOR, {}, list(GOOD_OPERATOR)),
    ("operator-complete", OPERATOR, GOOD_OPERATOR, []),
]


@pytest.mark.parametrize(
    ("spec", "params", "expected"),
    [pytest.param(s, p, e, id=i) for i, s, p, e in MISSING_CASES],
)
def test_missing_inputs(spec: PropertySpec, params: dict[str, Any], expected: list[str]) -> None:
    assert registry.missing(spec, params) == expected
