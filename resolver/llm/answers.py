"""Reading the model's answer: find the JSON object, then check its shape (seed 003 §6)."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from resolver.core.clip import clip, clip_repr
from resolver.core.jsonio import loads_finite
from rules.spec import LOCATION_GROUPS
from rules.violation import Violation

_FENCE = re.compile(r"```(?:json|JSON)?\s*\n?(.*?)```", re.DOTALL)
_DECODER = json.JSONDecoder()
# A prose answer holds its object near the start. Trying every "{" of a long hostile answer
# is quadratic (each failed raw_decode counts the lines before its position): 200k braces
# took 16 s on the event loop. Likewise the `_error` pattern on a long string.
_MAX_CANDIDATES = 32
# The longest integer the JSON reader takes (Python's own limit on int from text).
MAX_NUMBER_DIGITS = 4300
# Runs of digits, each matched once from its first digit: linear in the answer (a bounded
# repeat such as `\d{4301,}` would rescan every shorter run from each of its positions).
_DIGITS = re.compile(r"[0-9]+")
_MAX_ERROR_CHARS = 2000
# Possessive, with no two parts able to take the same whitespace: the lazy original
# backtracked cubically ("missing" and 2000 spaces took 31 s). Groups keep the whitespace
# around them; the reader strips it.
_MISSING = re.compile(
    r"missing\s(?P<prop>[^:：|]++)[:：](?P<params>[^|]*+)(?:\|\s*+ask\s*+[:：](?P<ask>.*))?$",
    re.DOTALL,
)


@dataclass(frozen=True, slots=True)
class ModelAnswer:
    """What the model said for one property: values, or the params it could not find."""

    values: dict[str, Any] | None = None
    missing: list[str] = field(default_factory=list)
    ask: str | None = None
    violations: list[Violation] = field(default_factory=list)


def find_json_object(text: str) -> dict[str, Any] | None:
    """The JSON object in `text`: the whole text, a fenced block, or the first one in prose."""
    stripped = text.strip()
    try:
        loaded = loads_finite(stripped)
    except ValueError:
        loaded = None
    if isinstance(loaded, dict):
        return loaded
    for block in _FENCE.findall(text):
        try:
            loaded = loads_finite(block.strip())
        except ValueError:
            continue
        if isinstance(loaded, dict):
            return loaded
    position = text.find("{")
    for _ in range(_MAX_CANDIDATES):
        if position == -1:
            break
        # raw_decode only finds where the object ends: it accepts NaN and lone surrogates and
        # recurses without bound, so the span is read again as strictly as the rest.
        try:
            _, end = _DECODER.raw_decode(text, position)
            loaded = loads_finite(text[position:end])
        except (ValueError, RecursionError):
            loaded = None
        if isinstance(loaded, dict):
            return loaded
        position = text.find("{", position + 1)
    return None


def read_answer(content: str | None, property_name: str) -> ModelAnswer:
    """Check the answer's shape: `{"<name>": {...}}` or `{"_error": "missing …"}` only."""
    if content is None or not content.strip():
        return ModelAnswer(violations=[Violation("6.1.1", "the answer was empty")])
    found = find_json_object(content)
    if found is None:
        return ModelAnswer(violations=[_no_object(content)])
    if "_error" in found:
        return _read_error(found)
    if set(found) == {property_name} and isinstance(found[property_name], dict):
        return ModelAnswer(values=found[property_name])
    return ModelAnswer(violations=[_shape_violation(found, property_name)])


def _no_object(content: str) -> Violation:
    """Why no JSON object could be read: a number too long to read, named as such (the re-ask
    once said "no JSON object" of a well-formed object holding a 5,000-digit integer)."""
    longest = max((match.end() - match.start() for match in _DIGITS.finditer(content)), default=0)
    if longest > MAX_NUMBER_DIGITS:
        return Violation(
            "6.1.1",
            f"the answer holds a number of {longest} digits; numbers of more than "
            f"{MAX_NUMBER_DIGITS} digits cannot be read: answer with values in range",
        )
    return Violation("6.1.1", "the answer holds no JSON object; answer JSON only")


def _read_error(found: dict[str, Any]) -> ModelAnswer:
    error = found["_error"]
    if len(found) != 1 or not isinstance(error, str) or len(error) > _MAX_ERROR_CHARS:
        return ModelAnswer(
            violations=[
                Violation(
                    "6.1.4",
                    "a missing-parameter answer holds only the string `_error`, "
                    f"at most {_MAX_ERROR_CHARS} characters",
                )
            ]
        )
    match = _MISSING.search(error.strip())
    if match is None:
        return ModelAnswer(
            violations=[
                Violation(
                    "6.2.1", "`_error` must read `missing <property>: <p1>,<p2> | ask: <sentence>`"
                )
            ]
        )
    params = [p.strip() for p in re.split(r"[,，、\s]+", match.group("params")) if p.strip()]
    # The model's sentence goes to an agent as is: one line, bounded, visibly cut.
    ask = clip(match.group("ask") or "") or None
    return ModelAnswer(missing=params, ask=ask)


def _shape_violation(found: dict[str, Any], property_name: str) -> Violation:
    keys = list(found)
    if property_name in found and not isinstance(found[property_name], dict):
        return Violation("6.1.2", f"the value of {property_name!r} must be a JSON object")
    if property_name in found:
        extra = ", ".join(clip_repr(k) for k in keys[:6] if k != property_name)
        return Violation("6.1.3", f"the top level holds only {property_name!r}; drop {extra}")
    groups = [clip(k) for k in keys if k.lower() in LOCATION_GROUPS]
    if groups:
        return Violation(
            "5.1.2",
            f"output must be flat under {property_name!r}, not grouped by {', '.join(groups)}",
        )
    return Violation(
        "6.1.3",
        f"the top level must be exactly {{{property_name!r}: {{...}}}}, "
        f"got keys [{', '.join(clip_repr(k) for k in keys[:6])}]",
    )
