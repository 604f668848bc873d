"""Bounded echoes: what a caller, an upstream or the model sent comes back in an error message
at most `MAX_ECHO` characters long, on one line, and visibly cut.

A 300,000-character key the model invented once came back in a 900 KB error body. Every
place that quotes a foreign key, value or sentence goes through `clip` (the rules, which
import nothing of resolver, cap their own quotes the same way in `rules/violation.py`).
"""

from __future__ import annotations

MAX_ECHO = 200


def one_line(text: str) -> str:
    """Every run of whitespace (line breaks included) as one space, ends stripped."""
    return " ".join(text.split())


def clip(text: str, limit: int = MAX_ECHO) -> str:
    """`text` on one line, cut to `limit` characters with a marker saying how long it was."""
    flat = one_line(text)
    if len(flat) <= limit:
        return flat
    return f"{flat[:limit]}…[cut, {len(flat)} chars]"


def clip_repr(value: object, limit: int = MAX_ECHO) -> str:
    """`repr(value)` for a message (one line already: repr escapes line breaks), clipped."""
    if isinstance(value, str) and len(value) > limit:
        return f"{value[:limit]!r}…[cut, {len(value)} chars]"
    text = repr(value)
    return text if len(text) <= limit else f"{text[:limit]}…[cut, {len(text)} chars]"
