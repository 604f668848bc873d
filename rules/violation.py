"""A rule violation: which rule, which parameter, and what was wrong."""

from __future__ import annotations

from dataclasses import dataclass

import orjson

_MAX_SHOWN = 60


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
