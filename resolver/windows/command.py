"""`resolver time`: the time-window request from the command line's flags, answered as the HTTP
face answers it — a human line (the explanation, then the numbers), or the body with --json,
or one body per line for --jsonl — and its exit: 0 settled, 2 unsettled, 1 an error."""

from __future__ import annotations

import contextlib
import sys
import uuid
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, BinaryIO
from zoneinfo import ZoneInfo

from pydantic import ValidationError

from resolver.core.envelope import detach
from resolver.core.errors import (
    BadRequest,
    PayloadTooLarge,
    ResolverError,
    TimeUnsettled,
    invalid_request,
)
from resolver.core.failures import ErrorResponse
from resolver.core.jsonio import loads_finite
from resolver.timeexpr.clocks import zone_of
from resolver.windows.models import TimeWindowRequest, TimeWindowResponse
from resolver.windows.service import TimeWindows

SETTLED, ERROR, UNSETTLED = 0, 1, 2
_WORST_LAST = (SETTLED, UNSETTLED, ERROR)


@dataclass(frozen=True, slots=True)
class TimeFlags:
    """What `resolver time` was given: one text or a --jsonl source, the request's fields as
    flags (None: not given), and --json."""

    text: str | None = None
    jsonl: str | None = None
    now: str | None = None
    tz: str | None = None
    context: str | None = None
    unit: str | None = None
    language: str | None = None
    step: str | None = None
    instant: bool | None = None
    json: bool = False
    # The longest --jsonl line read (RESOLVER_MAX_BODY_BYTES, as for a body over HTTP).
    max_line_bytes: int = 1 << 20
    fiscal_year_start: str | None = None
    fiscal_year_named_by: str | None = None
    shape: str | None = None


def run(windows: TimeWindows, flags: TimeFlags) -> int:
    """Answer one text (stdout: the line or the body; an unsettled text's ask and any error go
    to stderr without --json) or every --jsonl line; the exit status."""
    if (flags.text is None) == (flags.jsonl is None):
        sys.stderr.write("resolver time: give a text, or --jsonl FILE|- (not both)\n")
        return ERROR
    try:
        fields = request_fields(flags, windows.default_timezone)
    except ValueError as exc:
        sys.stderr.write(f"resolver time: {exc}\n")
        return ERROR
    if flags.jsonl is not None:
        try:
            with contextlib.ExitStack() as stack:
                source = (
                    sys.stdin.buffer
                    if flags.jsonl == "-"
                    else stack.enter_context(Path(flags.jsonl).open("rb"))
                )
                lines = bounded_lines(source, flags.max_line_bytes)
                return _answer_lines(windows, fields, lines)
        except OSError as exc:
            sys.stderr.write(f"resolver time: cannot read {flags.jsonl}: {exc.strerror}\n")
            return ERROR
    status, body = answer(windows, {"text": flags.text, **fields})
    if flags.json:
        sys.stdout.write(body.to_json().decode() + "\n")
    elif isinstance(body, TimeWindowResponse):
        sys.stdout.write(human_line(body) + "\n")
    else:
        prefix = "" if status == UNSETTLED else "resolver time: "
        sys.stderr.write(f"{prefix}{body.error_line}\n")
    return status


def request_fields(flags: TimeFlags, default_zone: str) -> dict[str, Any]:
    """The request fields the flags give (ValueError for a --now that is no clock)."""
    fields: dict[str, Any] = {
        "timezone": flags.tz,
        "context": flags.context,
        "unit": flags.unit,
        "language": flags.language,
        "step": flags.step,
        "instant": flags.instant,
        "fiscal_year_start": flags.fiscal_year_start,
        "fiscal_year_named_by": flags.fiscal_year_named_by,
        "shape": flags.shape,
    }
    if flags.now is not None:
        fields["now_ms"] = now_ms_of(flags.now, zone_of(flags.tz or "") or default_zone)
    return {key: value for key, value in fields.items() if value is not None}


def now_ms_of(value: str, zone: str) -> int:
    """`--now`: epoch ms, or an ISO date (its first ms) or datetime, read in `zone` unless it
    carries an offset."""
    text = value.strip()
    if text.isascii() and text.isdigit() and len(text) <= 19:
        return int(text)
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise ValueError(
            f"--now {value[:40]!r} is neither epoch ms nor an ISO date or datetime "
            "(1762996342241, 2025-11-13, 2025-11-13T09:12:22+08:00)"
        ) from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=ZoneInfo(zone))
    return (moment - datetime(1970, 1, 1, tzinfo=UTC)) // timedelta(milliseconds=1)


def answer(
    windows: TimeWindows, fields: dict[str, Any]
) -> tuple[int, TimeWindowResponse | ErrorResponse]:
    """One request's exit status and body, as the HTTP face would answer it."""
    trace_id = uuid.uuid4().hex
    try:
        try:
            request = TimeWindowRequest.model_validate(fields)
        except ValidationError as exc:
            raise invalid_request(exc) from exc
        detach(request)  # the platform's envelope: no log line here to record its ids on
        return SETTLED, windows.answer(request, trace_id)
    except TimeUnsettled as exc:
        return UNSETTLED, ErrorResponse.of(exc, trace_id)
    except ResolverError as exc:
        return ERROR, ErrorResponse.of(exc, trace_id)


def human_line(body: TimeWindowResponse) -> str:
    """The explanation, then the numbers in their unit."""
    if body.instant:
        line = f"{body.explanation}  now={body.now} unit={body.unit}"
    else:
        line = f"{body.explanation}  start={body.start} end={body.end} unit={body.unit}"
    if body.baseline is not None:
        base = body.baseline
        line += f"  baseline({base['kind']})={base['start']}..{base['end']} {base['expression']}"
    return line


class LineTooLong(bytes):
    """A --jsonl line cut at the limit (the rest of it read and dropped)."""


def bounded_lines(source: BinaryIO, limit: int) -> Iterator[bytes]:
    """The lines of `source`, each read to at most `limit` bytes: a longer one is a
    `LineTooLong` holding its first `limit` bytes, the rest read in bounded pieces and
    dropped. Memory stays bounded by the limit, whatever the input (issue 30)."""
    while line := source.readline(limit + 1):
        if len(line) <= limit or (line.endswith(b"\n") and len(line.rstrip(b"\r\n")) <= limit):
            yield line
            continue
        while not line.endswith(b"\n") and (line := source.readline(limit + 1)):
            pass
        yield LineTooLong(b"")


def _answer_lines(windows: TimeWindows, fields: dict[str, Any], lines: Iterable[bytes]) -> int:
    """--jsonl: one answer line per request line (blank lines skipped); what a line leaves out
    the flags give. The worst exit of all."""
    worst = SETTLED
    for line in lines:
        if isinstance(line, LineTooLong):
            too_long = PayloadTooLarge(
                "the line is longer than RESOLVER_MAX_BODY_BYTES, the limit of a "
                "/v1/time-window body; it was not read"
            )
            refused = ErrorResponse.of(too_long, uuid.uuid4().hex)
            sys.stdout.write(refused.to_json().decode() + "\n")
            worst = max(worst, ERROR, key=_WORST_LAST.index)
            continue
        if not line.strip():
            continue
        try:
            given = loads_finite(line)
        except ValueError:
            given = None
        if isinstance(given, dict):
            status, body = answer(windows, {**fields, **given})
        else:
            failed = BadRequest("each line must be one JSON object: a /v1/time-window body")
            status, body = ERROR, ErrorResponse.of(failed, uuid.uuid4().hex)
        sys.stdout.write(body.to_json().decode() + "\n")
        worst = max(worst, status, key=_WORST_LAST.index)
    return worst
