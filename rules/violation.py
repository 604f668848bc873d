"""A rule violation: which rule, which parameter, and what was wrong."""

from __future__ import annotations

from dataclasses import dataclass

import orjson

_MAX_SHOWN = 60
# A key or name quoted in a message (rules import nothing of resolver: this mirrors
# resolver.core.clip, which caps every other echo the same way).
_MAX_NAMED = 200


@dataclass(frozen=True, slots=True)
class Violation:
    """One broken rule; `str()` gives `rule 7.2.3: step must be …, got "7d"`."""

    rule: str
    message: str
    param: str | None = None

    def __str__(self) -> str:
        return f"rule {self.rule}: {self.message}"


def shown(value: object) -> str:
    """A short JSON rendering of a value for messages (never the whole of a large value)."""
    try:
        text = orjson.dumps(value).decode()
    except TypeError:
        text = repr(value)
    if len(text) > _MAX_SHOWN:
        text = text[: _MAX_SHOWN - 1] + "…"
    return text


def named(key: str) -> str:
    """A key quoted for a message (`repr`), cut at 200 characters with a marker."""
    if len(key) > _MAX_NAMED:
        return f"{key[:_MAX_NAMED]!r}…[cut, {len(key)} chars]"
    return repr(key)
