"""The frame of one request: what every property of it shares (query, context, clock, zone)."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from resolver.core.errors import BadRequest
from resolver.core.settings import Settings
from resolver.params import asks
from resolver.params.context import Context, parse_context
from resolver.params.models import ResolveRequest
from resolver.timeexpr import Step, TimeResolution
from rules.spec import MAX_MS, MIN_MS


@dataclass(frozen=True, slots=True)
class Frame:
    """What every property of one request shares."""

    query: str
    context: Context
    now_ms: int
    tz: ZoneInfo
    identities: list[dict[str, Any]] | None
    language: asks.Language
    max_repair_rounds: int
    response_format: Literal["json_object", "json_schema", "none"]
    # Metric properties of one request share the query: read it once per override pair.
    time_cache: dict[tuple[bool | None, Step | None], TimeResolution | None] = field(
        default_factory=dict, compare=False
    )


def frame_of(request: ResolveRequest, settings: Settings) -> Frame:
    """The request's frame: the context read, the clock and timezone settled (400 if bad)."""
    context = parse_context(request.additional_context)
    tz = _timezone(request.timezone or _context_str(context, "timezone"), settings)
    now_ms = request.now_ms if request.now_ms is not None else _context_now(context)
    return Frame(
        query=request.query,
        context=context,
        now_ms=now_ms if now_ms is not None else time.time_ns() // 1_000_000,
        tz=tz,
        identities=request.unique_identities,
        language=asks.language_of(request.query, context.text),
        max_repair_rounds=request.options.max_repair_rounds,
        response_format=settings.llm_response_format,
    )


def _context_str(context: Context, key: str) -> str | None:
    found, value = context.lookup(key)
    return value.strip() if found and isinstance(value, str) else None


def _context_now(context: Context) -> int | None:
    found, value = context.lookup("now_ms")
    if not found:
        return None
    if isinstance(value, str):
        text = value.strip()
        # str.isdigit() also accepts "²" and int() refuses over 4300 digits: ASCII, int64 only.
        if text.isascii() and text.isdigit() and len(text) <= 19:
            value = int(text)
    if not isinstance(value, int) or isinstance(value, bool) or not MIN_MS <= value <= MAX_MS:
        raise BadRequest(
            f"additional_context now_ms must be integer ms within [{MIN_MS}, {MAX_MS}], "
            f"got {str(value)[:40]!r}"
        )
    return value


def _timezone(name: str | None, settings: Settings) -> ZoneInfo:
    if name is None:
        return ZoneInfo(settings.default_timezone)
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, OSError) as exc:
        # OSError: a name too long for a file name, or a directory such as "America".
        raise BadRequest(
            f"unknown timezone {name[:64]!r}; use an IANA name such as Asia/Shanghai"
        ) from exc
