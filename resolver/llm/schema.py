"""The JSON Schema of one property's answer, for `response_format: json_schema`.

It admits exactly what the rules accept (SPEC §5, §6): either `{"<name>": {...}}` holding
exactly the still-open inputs, each typed from its declaration, or `{"_error": "missing
<name>: <open params> | ask: <one line>"}`. A decoder that enforces it (vLLM, llama.cpp,
SGLang and Ollama compile it to a grammar) cannot produce an answer the rules reject, save
for what a schema cannot say (`start <= end`, a date that does not exist).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rules.spec import METRIC_TIME_PARAMS, STEPS, ParamType, PropertySpec

# What `timeexpr.to_epoch_ms` reads besides integer ms: `now` with an optional offset and
# rounding (`now-3M/M`), a year, a month, a day, or a datetime with an optional offset.
TIME_VALUE_PATTERN = (
    r"^(now([+-][0-9]{1,4}[dwMQy])?(/[dwMQy])?"
    r"|[0-9]{4}(-[0-9]{2}(-[0-9]{2}([T ][0-9]{2}:[0-9]{2}(:[0-9]{2})?"
    r"(Z|[+-][0-9]{2}:[0-9]{2})?)?)?)?)$"
)
# One line of ask, bounded: a decoder held to an unbounded string can loop inside it until
# max_tokens cuts the answer (Gemma 270M did, with "1000…"), and a cut answer is unreadable.
_ASK_PATTERN = r"[^\n|]{1,160}"
_JSON_TYPE = {
    ParamType.STRING: "string",
    ParamType.INTEGER: "integer",
    ParamType.NUMBER: "number",
    ParamType.BOOLEAN: "boolean",
    ParamType.OBJECT: "object",
    ParamType.ARRAY: "array",
}
# The operator-schema keywords the rules enforce (rule 5.3.2) and decoders understand.
_KEPT = ("type", "enum", "properties", "required", "items")
_MAX_DEPTH = 8
_REGEX_SPECIALS = frozenset("\\^$.|?*+()[]{}/")


def answer_schema(spec: PropertySpec, generate: Sequence[str]) -> dict[str, Any]:
    """The schema of an answer that generates `generate` for the property `spec`."""
    values = _values_schema(spec, generate)
    error = {"type": "string", "pattern": _error_pattern(spec, generate)}
    return {
        "anyOf": [
            _exact_object({spec.name: values}),
            _exact_object({"_error": error}),
        ]
    }


def _exact_object(properties: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": properties,
        "required": list(properties),
        "additionalProperties": False,
    }


def _values_schema(spec: PropertySpec, generate: Sequence[str]) -> dict[str, Any]:
    """Exactly the `generate` keys, typed; for a metric whose `instant` is open, two shapes:
    `instant: true` alone (rule 7.2.4: no step) or `instant: false` with the window."""
    typed = {name: _input_schema(spec, name) for name in generate}
    if spec.kind != "metric" or "instant" not in generate:
        return _exact_object(typed)
    window = [n for n in ("start", "end", "step") if n in typed]
    if not window:
        return _exact_object(typed)
    rest = {n: s for n, s in typed.items() if n not in METRIC_TIME_PARAMS}
    now = _exact_object({"instant": {"const": True}, **rest})
    series = _exact_object({"instant": {"const": False}, **{n: typed[n] for n in window}, **rest})
    return {"anyOf": [now, series]}


def _input_schema(spec: PropertySpec, name: str) -> dict[str, Any]:
    if spec.kind == "metric" and name in METRIC_TIME_PARAMS:
        if name == "instant":
            return {"type": "boolean"}
        if name == "step":
            return {"type": "string", "enum": list(STEPS)}
        return {"type": "string", "pattern": TIME_VALUE_PATTERN}
    item = spec.get(name)
    declared = _JSON_TYPE.get(item.type) if item is not None and item.type else None
    operator = _kept(item.schema, 0) if item is not None and item.schema else {}
    if declared is None:
        return operator or {}
    # The declared type wins (the rules check it strictly); enum values must fit it.
    merged = {**operator, "type": declared}
    enum = operator.get("enum")
    if isinstance(enum, list):
        allowed = [v for v in enum if _fits(declared, v)]
        if allowed:
            merged["enum"] = allowed
        else:
            merged.pop("enum")
    return merged


def _kept(schema: Mapping[str, Any], depth: int) -> dict[str, Any]:
    """The enforceable part of an operator schema: type, enum, nested properties, required
    keys and item types; the rest (formats, bounds, descriptions) is advice in the prompt."""
    if depth > _MAX_DEPTH:
        return {}
    kept: dict[str, Any] = {}
    for key in _KEPT:
        if key not in schema:
            continue
        value = schema[key]
        if key == "type" and (isinstance(value, str) or _strings(value)):
            kept[key] = value
        elif (key == "enum" and isinstance(value, list) and value) or (
            key == "required" and _strings(value)
        ):
            kept[key] = list(value)
        elif key == "properties" and isinstance(value, Mapping):
            kept[key] = {
                str(k): _kept(v, depth + 1) for k, v in value.items() if isinstance(v, Mapping)
            }
        elif key == "items" and isinstance(value, Mapping):
            kept[key] = _kept(value, depth + 1)
    return kept


def _strings(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def _fits(json_type: str, value: Any) -> bool:
    if json_type == "string":
        return isinstance(value, str)
    if json_type == "boolean":
        return isinstance(value, bool)
    if json_type == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if json_type == "number":
        return isinstance(value, int | float) and not isinstance(value, bool)
    return True


def _error_pattern(spec: PropertySpec, generate: Sequence[str]) -> str:
    """`missing <name>: p1,p2 | ask: …` naming only the open params."""
    names = "|".join(_literal(n) for n in generate) or "[^,|]+"
    param = f"({names})"
    more = f"{{0,{max(0, len(generate) - 1)}}}"  # at most every open param once
    return f"^missing {_literal(spec.name)}: {param}(,{param}){more} \\| ask: {_ASK_PATTERN}$"


def _literal(text: str) -> str:
    """`text` as a regex literal that every regex dialect reads alike. Not `re.escape`: its
    `\\-` is an invalid escape in ECMAScript-style regexes (the JSON Schema `pattern` dialect)."""
    return "".join(f"\\{c}" if c in _REGEX_SPECIALS else c for c in text)
