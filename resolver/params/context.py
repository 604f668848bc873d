"""`additional_context`: JSON or free text read into key/value pairs, coerced per type (SPEC §3)."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from resolver.core.jsonio import dumps, loads_finite
from rules.spec import ParamType

# Pairs are separated by full-width/ASCII semicolons, full-width commas or newlines; an ASCII
# comma stays inside a value (`items=revenue,profit,growth`).
_SEGMENTS = re.compile(r"[；;，\n\r]+")
# An ASCII identifier glued right before `=`, `：` or `:` is the key, whatever precedes it
# (`趋势查询step=month` → `step`); failing that, any word before `=`/`：` (`地区=华东`).
# The lookbehinds start a key only where a run of key characters starts, and the possessive
# quantifiers never give characters back: a long run without a separator is scanned once, not
# once per starting position (quadratic: 10 KB of "a." took 15 s on the event loop).
_ASCII_PAIR = re.compile(
    r"(?<![A-Za-z0-9_.\-])[0-9.\-]*+([A-Za-z_][A-Za-z0-9_.\-]*+)\s*+[=：:]\s*(.*)$"
)
_ANY_PAIR = re.compile(r"(?<![^\s=：:])([^\s=：:]++)\s*+[=：]\s*(.*)$")
_ARRAY_SEPARATOR = re.compile(r"[,、]")
_TRUE = frozenset({"true", "1", "是", "yes"})
_FALSE = frozenset({"false", "0", "否", "no"})
_INTEGER = re.compile(r"[+-]?\d+")
_NUMBER = re.compile(r"[+-]?(?:\d++(?:\.\d*+)?|\.\d++)(?:[eE][+-]?\d++)?")


@dataclass(frozen=True, slots=True)
class Context:
    """The parsed context: key/value pairs plus the original text the LLM sees."""

    pairs: dict[str, Any] = field(default_factory=dict)
    text: str = ""
    is_json: bool = False

    def lookup(self, name: str) -> tuple[bool, Any]:
        """`(found, value)` for a key."""
        if name in self.pairs:
            return True, self.pairs[name]
        return False, None


def parse_context(raw: str | dict[str, Any] | None) -> Context:
    """Read `additional_context` in any of its three forms."""
    if raw is None:
        return Context()
    if isinstance(raw, dict):
        return Context(pairs=dict(raw), text=dumps(raw).decode(), is_json=True)
    stripped = raw.strip()
    if stripped.startswith("{"):
        try:
            loaded = loads_finite(stripped)
        except ValueError:
            loaded = None
        if isinstance(loaded, dict):
            return Context(pairs=loaded, text=raw, is_json=True)
    return Context(pairs=_free_text_pairs(raw), text=raw)


def _free_text_pairs(text: str) -> dict[str, Any]:
    pairs: dict[str, Any] = {}
    for raw_segment in _SEGMENTS.split(text):
        segment = raw_segment.strip()
        match = _ASCII_PAIR.search(segment) or _ANY_PAIR.search(segment)
        if match is not None and match.group(2).strip():
            pairs.setdefault(match.group(1), match.group(2).strip())
    return pairs


class CoercionError(ValueError):
    """A context value cannot be read as the parameter's declared type."""


def coerce(value: Any, declared: ParamType | None) -> Any:
    """Turn a context value into the declared type; JSON values must already match it."""
    if declared is None or not isinstance(value, str):
        return value
    text = value.strip()
    result = _COERCERS[declared](text)
    if result is _FAILED:
        raise CoercionError(f"cannot read {text[:40]!r} as {declared.value}")
    return result


_FAILED = object()


def _coerce_integer(text: str) -> Any:
    return int(text) if _INTEGER.fullmatch(text) else _FAILED


def _coerce_number(text: str) -> Any:
    if _INTEGER.fullmatch(text):
        return int(text)
    return float(text) if _NUMBER.fullmatch(text) else _FAILED


def _coerce_boolean(text: str) -> Any:
    lowered = text.lower()
    if lowered in _TRUE:
        return True
    return False if lowered in _FALSE else _FAILED


def _coerce_object(text: str) -> Any:
    try:
        loaded = loads_finite(text)
    except ValueError:
        return _FAILED
    return loaded if isinstance(loaded, dict) else _FAILED


def _coerce_array(text: str) -> Any:
    if text.startswith("["):
        try:
            loaded = loads_finite(text)
        except ValueError:
            return _FAILED
        return loaded if isinstance(loaded, list) else _FAILED
    return [item.strip() for item in _ARRAY_SEPARATOR.split(text) if item.strip()]


_COERCERS: dict[ParamType, Callable[[str], Any]] = {
    ParamType.STRING: lambda text: text,
    ParamType.INTEGER: _coerce_integer,
    ParamType.NUMBER: _coerce_number,
    ParamType.BOOLEAN: _coerce_boolean,
    ParamType.OBJECT: _coerce_object,
    ParamType.ARRAY: _coerce_array,
}
