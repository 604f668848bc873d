"""Microsoft Recognizers-Text DateTime spec cases, as data.

`load_cases(read, path)` reads one spec file (`Specs/DateTime/<Language>/<Name>.json`) through
`read(path) -> text` and returns its cases: the input sentence, the reference time and the
peer's results (text, type, timex, mod and its candidate values). Two spec shapes exist:
the model specs (`Results[].Resolution.values[]`: `timex`, `Mod`, `value` or `start`/`end`)
and the parser specs (`Results[].Value`: `Timex`, `Mod`, `PastResolution` and
`FutureResolution`). No Recognizers-Text code is used; only the JSON is read.

A candidate is the peer's own window, in local wall time, as `(start, end)` ISO strings with
`end` exclusive (a date's end is the next midnight), or `None` for a point, an open range or
a value it leaves unresolved (`not resolved`, a duration, a set).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

Window = tuple[str, str]


@dataclass(frozen=True, slots=True)
class Result:
    """One expression the peer found."""

    text: str
    type: str
    timex: str
    mod: str
    values: tuple[str, ...]  # the peer's values, compact (`2016-11-04..2016-11-22`, `value 10800`)
    windows: tuple[Window | None, ...]  # one per value (None: no closed window)


@dataclass(frozen=True, slots=True)
class Case:
    """One spec case."""

    source: str  # `English/DateTimeModel`
    index: int
    text: str
    reference: str | None  # `2016-11-07T00:00:00` (wall clock), None when the spec has none
    results: tuple[Result, ...]

    def compact(self) -> str:
        """The peer's reading, short: `daterange "next 3 days" (…,P3D) 2016-11-08..2016-11-11`."""
        if not self.results:
            return "no result"
        parts = []
        for r in self.results:
            mod = f" mod={r.mod}" if r.mod else ""
            parts.append(f'{r.type} "{r.text}" {r.timex}{mod} {" | ".join(r.values)}'.rstrip())
        return " ; ".join(parts)


def _day_after(text: str) -> str:
    return (date.fromisoformat(text[:10]) + timedelta(days=1)).isoformat()


def _is_date(text: str) -> bool:
    return len(text) == 10 and text[4] == "-"


def _is_datetime(text: str) -> bool:
    return len(text) == 19 and text[4] == "-" and text[10] == " "


def _iso(text: str) -> str:
    return text.replace(" ", "T")


def _model_value(kind: str, raw: dict[str, Any]) -> tuple[str, Window | None]:  # noqa: PLR0911
    """A model spec's value → (compact text, window)."""
    if "value" in raw:
        value = str(raw["value"])
        if kind == "date" and _is_date(value):
            return value, (value, _day_after(value))
        if kind == "datetime" and _is_datetime(value):
            return value, None  # a point
        return f"value {value}", None
    start, end = raw.get("start"), raw.get("end")
    compact = f"{start or ''}..{end or ''}"
    if start is None or end is None:
        return compact, None
    if _is_date(start) and _is_date(end):
        return compact, (start, end)
    if _is_datetime(start) and _is_datetime(end):
        return compact, (_iso(start), _iso(end))
    return compact, None  # a time of day with no date


def _parser_value(kind: str, raw: dict[str, Any]) -> tuple[str, Window | None]:
    """A parser spec's resolution (`{"date": …}` or `{"startDate", "endDate"}`)."""
    if not raw:
        return "not resolved", None
    if "date" in raw:
        one = str(raw["date"])
        if _is_date(one):
            return one, (one, _day_after(one))
        return f"value {one}", None
    start, end = raw.get("startDate"), raw.get("endDate")
    if start and end and _is_date(start) and _is_date(end):
        return f"{start}..{end}", (start, end)
    return f"{start or ''}..{end or ''}", None


def _result(raw: dict[str, Any]) -> Result:
    if "Resolution" in raw:  # model spec
        kind = str(raw.get("TypeName") or raw.get("Typename") or "").replace("datetimeV2.", "")
        pairs = [_model_value(kind, v) for v in raw["Resolution"].get("values", [])]
        first = raw["Resolution"].get("values", [{}])[0] if pairs else {}
        timex, mod = str(first.get("timex", "")), str(first.get("Mod", ""))
    else:  # parser spec
        kind = str(raw.get("Type", ""))
        value = raw.get("Value", {})
        timex, mod = str(value.get("Timex", "")), str(value.get("Mod", ""))
        seen: list[tuple[str, Window | None]] = []
        for key in ("PastResolution", "FutureResolution"):
            pair = _parser_value(kind, value.get(key) or {})
            if pair not in seen:
                seen.append(pair)
        pairs = seen
    values = tuple(p[0] for p in pairs)
    windows = tuple(p[1] for p in pairs)
    return Result(str(raw["Text"]), kind, timex, mod, values, windows)


def load_cases(read: Any, path: str) -> list[Case]:
    """Every case of one spec file, in file order."""
    source = path.removeprefix("Specs/DateTime/").removesuffix(".json")
    data = json.loads(read(path).lstrip("\ufeff"))
    cases = []
    for index, raw in enumerate(data):
        reference = (raw.get("Context") or {}).get("ReferenceDateTime")
        if reference:
            reference = datetime.fromisoformat(reference[:19]).isoformat()
        results = tuple(_result(r) for r in raw.get("Results", []))
        cases.append(Case(source, index, str(raw["Input"]), reference, results))
    return cases
