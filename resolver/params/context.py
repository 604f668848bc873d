"""`additional_context`: JSON or free text read into key/value pairs, coerced per type (SPEC §3).

Besides its pairs, a context keeps the text it holds about time: its free text and the
values of its time keys (`时间范围：2024年1月至3月`, `time range: Jan to Mar 2024`), which
the code stage reads for time like the query, and which beat the query (SPEC §3).
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Callable
from dataclasses import field
from typing import Any

from resolver.core.jsonio import dumps, loads_finite
from resolver.core.records import record
from rules.spec import ParamType

# Pairs are separated by full-width/ASCII semicolons, full-width commas, newlines, and an
# ASCII comma followed by another pair (`region=East China, limit=5`); any other ASCII comma
# stays inside a value (`items=revenue,profit,growth`, `time range: Jan to Mar 2024, monthly`).
_SEGMENTS = re.compile(
    r"[；;，\n\r]+"
    r"|,(?=\s*+(?:time\s+range|date\s+range|time\s+period|time\s+window|[^\s=：:,，；;]++)\s*+[=：:])",
    re.IGNORECASE,
)
# Keys of more than one word (only these: "please use step=month" must stay `step`).
_WORDS_PAIR = re.compile(
    r"(?<![A-Za-z])(time\s+range|date\s+range|time\s+period|time\s+window)\s*[=：:]\s*(.*)$",
    re.IGNORECASE,
)
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
# ASCII digits only: `\d` also reads ٠.٣ and ０.３, which no caller means as a number here.
_INTEGER = re.compile(r"[+-]?[0-9]+")
_NUMBER = re.compile(r"[+-]?(?:[0-9]++(?:\.[0-9]*+)?|\.[0-9]++)(?:[eE][+-]?[0-9]++)?")
# Free-text contexts up to this length are read once and remembered (1,024 of them).
_MEMO_CHARS = 2048
# Python refuses to read longer integers (and says to call sys.set_int_max_str_digits()).
_MAX_DIGITS = 4300


# Keys whose values are read for time like the query (SPEC §3), compared lower-cased.
TIME_KEYS = frozenset(
    {
        "时间",
        "时间范围",
        "时间段",
        "时间区间",
        "查询时间",
        "统计时间",
        "统计周期",
        "日期",
        "日期范围",
        "time",
        "time range",
        "time_range",
        "timerange",
        "time period",
        "time window",
        "period",
        "date",
        "date range",
        "date_range",
    }
)
# Other names agents use for the reserved keys (SPEC §3), lower-cased → the reserved key.
ALIASES: dict[str, str] = {
    "步长": "step",
    "粒度": "step",
    "granularity": "step",
    "时区": "timezone",
    "tz": "timezone",
    "开始时间": "start",
    "起始时间": "start",
    "开始日期": "start",
    "start_time": "start",
    "start_date": "start",
    "结束时间": "end",
    "截止时间": "end",
    "结束日期": "end",
    "end_time": "end",
    "end_date": "end",
    "当前时间": "now",
    "当前日期": "now",
    "today": "now",
}
# Keys that configure the request or carry metric values: never read as time text.
RESERVED = frozenset(
    {"now_ms", "now", "timezone", "instant", "step", "start", "end"}
    # the fiscal calendar (SPEC §9.1): it places fiscal phrases, it is no time range
    | {"fiscal_year_start", "fiscal_year_named_by"}
)


@record
class Context:
    """The parsed context: key/value pairs, the original text the LLM sees, and its segments
    (`(key, value)`, key None for free text) for reading time."""

    pairs: dict[str, Any] = field(default_factory=dict)
    text: str = ""
    is_json: bool = False
    segments: tuple[tuple[str | None, str], ...] = ()
    # Each reserved key → the value of the first pair that names it in any case or alias,
    # built at the first look-up that needs it (a request looks up 5–10 reserved keys).
    _reserved: dict[str, Any] | None = field(default=None, compare=False, repr=False)

    def lookup(self, name: str) -> tuple[bool, Any]:
        """`(found, value)` for a key; a reserved key is also found under its aliases and in
        any letter case (`Step`, `步长`, `当前时间`): the first such pair in the context."""
        if name in self.pairs:
            return True, self.pairs[name]
        if name in RESERVED and self.pairs:
            reserved = self._reserved
            if reserved is None:
                reserved = {}
                for key, value in self.pairs.items():
                    folded = key.strip().lower()
                    target = folded if folded in RESERVED else ALIASES.get(folded)
                    if target is not None and target not in reserved:
                        reserved[target] = value
                object.__setattr__(self, "_reserved", reserved)
            if name in reserved:
                return True, reserved[name]
        return False, None

    def time_text(self, inputs: frozenset[str]) -> str:
        """What this context says in words: free text and the values of time keys and of keys
        that are neither reserved nor `inputs` (`说明：要看2024年的数据`), one per line."""
        lines = []
        for key, value in self.segments:
            if key is not None:
                folded = key.strip().lower()
                if key in inputs or folded in RESERVED or folded in ALIASES:
                    continue
                if self.is_json and folded not in TIME_KEYS:
                    continue  # a JSON value is data, not words, unless its key names a time
            lines.append(value)
        return "\n".join(lines)


_NO_CONTEXT = Context()


def parse_context(raw: str | dict[str, Any] | None) -> Context:
    """Read `additional_context` in any of its three forms."""
    if raw is None:
        return _NO_CONTEXT  # shared: nothing writes a context, and this one has no pairs
    if isinstance(raw, dict):
        return Context(dict(raw), dumps(raw).decode(), is_json=True, segments=_json_segments(raw))
    stripped = raw.strip()
    if stripped.startswith("{"):
        try:
            loaded = loads_finite(stripped)
        except ValueError:
            loaded = None
        if isinstance(loaded, dict):
            return Context(loaded, raw, is_json=True, segments=_json_segments(loaded))
    if len(raw) > _MEMO_CHARS:
        pairs, segments = _free_text(raw)
        return Context(pairs, raw, segments=segments)
    pairs, segments = _free_text_memo(raw)
    return Context(dict(pairs), raw, segments=segments)


def _json_segments(loaded: dict[str, Any]) -> tuple[tuple[str | None, str], ...]:
    return tuple((str(k), v) for k, v in loaded.items() if isinstance(v, str))


@functools.lru_cache(maxsize=1024)
def _free_text_memo(text: str) -> tuple[dict[str, Any], tuple[tuple[str | None, str], ...]]:
    """`_free_text`, once per distinct text: agents and load testers repeat their contexts (a
    three-pair text costs 18 µs). Callers copy the pairs."""
    return _free_text(text)


def _free_text(text: str) -> tuple[dict[str, Any], tuple[tuple[str | None, str], ...]]:
    pairs: dict[str, Any] = {}
    segments: list[tuple[str | None, str]] = []
    for raw_segment in _SEGMENTS.split(text):
        segment = raw_segment.strip()
        if not segment:
            continue
        match = _WORDS_PAIR.search(segment) or _ASCII_PAIR.search(segment)
        if match is not None and any(sep in segment[: match.start(1)] for sep in "=：:"):
            match = None  # T10 of 当前时间=2025-03-11T10:00 is inside a value, not a key
        match = match or _ANY_PAIR.search(segment)
        if match is not None and match.group(2).strip():
            key, value = match.group(1), match.group(2).strip()
            if _WORDS_PAIR.match(match.group(0)):
                key = " ".join(key.split())
            pairs.setdefault(key, value)
            # Words glued before the key are free text (趋势查询step=month → 趋势查询).
            before = segment[: match.start()].strip()
            if before:
                segments.append((None, before))
            segments.append((key, value))
        else:
            segments.append((None, segment))
    return pairs, tuple(segments)


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
    if not _INTEGER.fullmatch(text) or len(text.lstrip("+-")) > _MAX_DIGITS:
        return _FAILED
    return int(text)


def _coerce_number(text: str) -> Any:
    if _INTEGER.fullmatch(text):
        return _coerce_integer(text)
    if not _NUMBER.fullmatch(text) or len(text) > _MAX_DIGITS:
        return _FAILED
    value = float(text)
    return value if math.isfinite(value) else _FAILED  # 1e999 is no number JSON can carry


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
