"""What a MISSING_INPUT_PARAMS tool error tells an agent about each missing parameter: its type
and a hint saying what to add to `additional_context`, in the language of the 422's ask.

The shape is the one the KWeaver context-loader client reads:
`{"property", "params": [{"name", "type", "hint"}]}`, here with the property's `ask` kept.
"""

from __future__ import annotations

from typing import Any

from resolver.core.errors import MissingParams
from resolver.params.asks import Language, language_of
from rules.spec import ParamType

_TIME_HINTS: dict[Language, dict[str, str]] = {
    "zh": {
        "instant": "查询当前值：在 additional_context 中写 instant=true；查询一段时间则写时间范围",
        "start": (
            "在 additional_context 中写 start=开始日期（如 start=2024-01-01），"
            "或写时间范围（如 时间范围：2024年1月至3月，按月）"
        ),
        "end": (
            "在 additional_context 中写 end=结束日期（如 end=2024-03-31），"
            "或写时间范围（如 时间范围：2024年1月至3月，按月）"
        ),
        "step": (
            "在 additional_context 中写 step=day/week/month/quarter/year（如 step=month），"
            "或写 按月"
        ),
    },
    "en": {
        "instant": (
            "for the current value add instant=true to additional_context; for a period "
            "add its time range"
        ),
        "start": (
            "add start=<first day> to additional_context (e.g. start=2024-01-01), or a time "
            "range (e.g. time range: Jan to Mar 2024, monthly)"
        ),
        "end": (
            "add end=<last day> to additional_context (e.g. end=2024-03-31), or a time range "
            "(e.g. time range: Jan to Mar 2024, monthly)"
        ),
        "step": (
            "add step=day/week/month/quarter/year to additional_context (e.g. step=month), "
            "or say monthly"
        ),
    },
}

_EXAMPLES = {
    "string": "…",
    "integer": "10",
    "number": "0.5",
    "boolean": "true",
    "object": '{"key": "value"}',
    "array": "a,b",
}


def json_type(declared: str | None) -> str:
    """A declared parameter type as a JSON Schema type name, which an LLM knows best (`any`
    when undeclared)."""
    return ParamType(declared).json_type if declared else "any"


def missing_inputs(error: MissingParams) -> list[dict[str, Any]]:
    """Per property: the missing params with their type and hint, and the property's ask."""
    entries = []
    for item in error.missing:
        name, ask = item["property"], item["ask"]
        language = language_of(ask)
        types = error.param_types.get(name, {})
        params = [
            {"name": p, "type": (kind := json_type(types.get(p))), "hint": _hint(p, kind, language)}
            for p in item["params"]
        ]
        entries.append({"property": name, "params": params, "ask": ask})
    return entries


def _hint(param: str, kind: str, language: Language) -> str:
    time_hint = _TIME_HINTS[language].get(param)
    if time_hint is not None:
        return time_hint
    example = _EXAMPLES.get(kind, "…")
    if language == "zh":
        return f"在 additional_context 中写 {param}={example}（{kind}）"
    return f"add {param}={example} ({kind}) to additional_context"
