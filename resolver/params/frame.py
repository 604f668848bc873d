"""The frame of one request: what every property of it shares (query, context, clock, zone)."""

from __future__ import annotations

import re
import time
from dataclasses import field
from datetime import UTC, datetime, timedelta
from typing import Any, Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from resolver.core.errors import BadRequest
from resolver.core.records import record
from resolver.core.settings import Settings
from resolver.params import asks
from resolver.params.context import Context, parse_context
from resolver.params.models import ResolveRequest
from resolver.timeexpr.clocks import blank, now_ms_of, stated, zone_of
from resolver.timeexpr.context import read_context
from resolver.timeexpr.fiscal import FiscalCalendar
from resolver.timeexpr.fiscal_config import fiscal_calendar, fiscal_told
from resolver.timeexpr.reading import Reading, read
from resolver.timeexpr.result import Step
from resolver.timeexpr.settle import Settled
from rules.spec import MAX_MS, MIN_MS

_ISO = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}(?:[T ][0-9:.]+(?:Z|[+-][0-9]{2}:?[0-9]{2})?)?")


@record
class Frame:
    """What every property of one request shares."""

    query: str
    context: Context
    now_ms: int
    tz: ZoneInfo
    identities: list[dict[str, Any]] | None
    # The caller's `Accept-Language`, if it named one (`language` says which one is used).
    asked_language: asks.Language | None
    max_repair_rounds: int
    response_format: Literal["json_object", "json_schema", "none"]
    # What the query and the context say about time, read once (SPEC §3, §4).
    query_time: Reading = field(compare=False)
    context_time: Reading = field(compare=False)
    # Metric properties of one request share the query: settle it once per override pair.
    time_cache: dict[tuple[bool | None, Step | None], Settled] = field(
        default_factory=dict, compare=False
    )
    # The model the request chose (`llm_model`, allowed by RESOLVER_LLM_ALLOWED_MODELS);
    # None: the configured one.
    llm_model: str | None = None
    # The fiscal calendar fiscal phrases are placed in (SPEC §9.1): additional_context's
    # fiscal_year_start/fiscal_year_named_by or a sentence, else RESOLVER_FISCAL_YEAR_*.
    fiscal: FiscalCalendar | None = None

    @property
    def language(self) -> asks.Language:
        """The language of asks and prompts: the caller's, else the one of the query's words
        (worked out when asked: a request settled in code never asks)."""
        return self.asked_language or asks.language_of(self.query, self.context.text)


def frame_of(
    request: ResolveRequest,
    settings: Settings,
    *,
    language: asks.Language | None = None,
    llm_model: str | None = None,
) -> Frame:
    """The request's frame: the context read, the clock and timezone settled (400 if bad).
    `language` (the caller's `Accept-Language`) beats the one of the query's words.

    The zone: the request's `timezone`, else the context's `timezone` key (an IANA name, a
    city or an offset), else a zone sentence of its text, else the default. The clock: the
    request's `now_ms`, else the context's `now_ms`, its `now`, a clock sentence, the server's.
    """
    context = parse_context(request.additional_context)
    # The inputs matter only to a context's keyed words (most requests have none).
    inputs = (
        frozenset(p.name for d in request.logic_properties for p in d.inputs())
        if context.pairs
        else frozenset()
    )
    key_zone = _context_str(context, "timezone")
    words = context.time_text(inputs)
    fiscal: FiscalCalendar | None = None  # no calendar anywhere (most requests)
    if context.pairs or words or settings.fiscal_year_start is not None:
        fiscal, said_fiscal = _fiscal(context, words, settings)
        if said_fiscal.spans:  # a fiscal sentence states the calendar, not a time range
            words = blank(words, said_fiscal.spans)
    context_time, said = read_context(
        words, zone_given=request.timezone is not None or key_zone is not None
    )
    if request.timezone is not None:
        tz = _timezone(request.timezone)
    elif key_zone is not None:
        mapped = zone_of(key_zone)  # the same gate as /v1/time-window (posixrules: no zone)
        if mapped is None and _zone_sentence(context):
            # 时区：UTC+25 — a zone sentence (SPEC §3) whose zone cannot be mapped settles
            # nothing (422 naming it), as on /v1/time-window; the reserved key is a 400.
            context_time = Reading(words, unread=(key_zone,))
            mapped = settings.default_timezone
        if mapped is None:
            raise BadRequest(
                f"unknown timezone {key_zone[:64]!r}; use an IANA name such as Asia/Shanghai"
            )
        tz = _timezone(mapped)
    else:
        tz = ZoneInfo(said.zone or settings.default_timezone)
    now_ms = request.now_ms
    if now_ms is None:
        now_ms = _context_now(context, tz)
    if now_ms is None:
        now_ms = now_ms_of(said, tz)
        if now_ms is not None and not MIN_MS <= now_ms <= MAX_MS:
            raise BadRequest(f"the context's clock sentence is outside 2000..2100 ({now_ms} ms)")
    if now_ms is None:
        now_ms = time.time_ns() // 1_000_000
    # In the fields' order, not by keyword: binding 12 keywords cost 0.36 µs of the 0.64 the
    # frame took to make, on every request (mypy checks each argument's type).
    return Frame(
        request.query,  # query
        context,
        now_ms,
        tz,
        request.unique_identities,  # identities
        language,  # asked_language
        request.options.max_repair_rounds,
        settings.llm_response_format,  # response_format
        read(request.query),  # query_time
        context_time,
        {},  # time_cache
        llm_model,
        fiscal,
    )


def _fiscal(context: Context, words: str, settings: Settings) -> tuple[FiscalCalendar | None, Any]:
    """The fiscal calendar: additional_context's keys, else its sentences (财年从4月1日开始),
    else the environment; 400 naming the key for a start that is no day."""
    said = fiscal_told(words)
    start = _context_str(context, "fiscal_year_start")
    named_by = _context_str(context, "fiscal_year_named_by")
    try:
        return fiscal_calendar(
            start=start,
            named_by=named_by,
            said=said,
            default_start=settings.fiscal_year_start,
            default_named_by=settings.fiscal_year_named_by,
        ), said
    except ValueError as exc:
        field_name = "fiscal_year_named_by" if "named_by" in str(exc) else "fiscal_year_start"
        raise BadRequest(
            f"additional_context {exc}",
            details=[
                {"loc": f"additional_context.{field_name}", "msg": str(exc), "type": "value_error"}
            ],
        ) from exc


def _zone_sentence(context: Context) -> bool:
    """Whether the context's zone is written as a sentence (`时区：纽约`, SPEC §3's own example
    of a zone sentence) rather than with the reserved key (`timezone`, or `tz`)."""
    return not any(str(key).strip().lower() in ("timezone", "tz") for key in context.pairs)


def _context_str(context: Context, key: str) -> str | None:
    if not context.pairs:
        return None
    found, value = context.lookup(key)
    return value.strip() if found and isinstance(value, str) else None


def _context_now(context: Context, tz: ZoneInfo) -> int | None:
    found, value = context.lookup("now_ms")
    if not found:
        return _context_clock(context, tz)
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


def _context_clock(context: Context, tz: ZoneInfo) -> int | None:
    """`now` (当前时间, 当前日期, today): an ISO date (its first ms) or datetime, read in the
    request timezone unless it carries an offset; or a date as people write it (2025年11月13日,
    Nov 13, 2025)."""
    found, value = context.lookup("now")
    if not found:
        return None
    text = value.strip() if isinstance(value, str) else ""
    moment = None
    if _ISO.fullmatch(text):
        try:
            moment = datetime.fromisoformat(text)
        except ValueError:  # 2025-02-30, hour 25
            moment = None
    if moment is None:
        now_ms = now_ms_of(stated(text), tz)
        if now_ms is None:
            raise BadRequest(
                f"additional_context now must be an ISO date or datetime, got {str(value)[:40]!r}"
            )
    else:
        if moment.tzinfo is None:
            moment = moment.replace(tzinfo=tz)
        now_ms = (moment - datetime(1970, 1, 1, tzinfo=UTC)) // timedelta(milliseconds=1)
    if not MIN_MS <= now_ms <= MAX_MS:
        raise BadRequest(f"additional_context now {text!r} is outside 2000..2100")
    return now_ms


def _timezone(name: str) -> ZoneInfo:
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, OSError) as exc:
        # OSError: a name too long for a file name, or a directory such as "America".
        raise BadRequest(
            f"unknown timezone {name[:64]!r}; use an IANA name such as Asia/Shanghai"
        ) from exc
