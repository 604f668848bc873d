"""The texts the differential runs: every query and free-text context of the gold files, each
with the clock its file gives (or the fixed clock when it gives none)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple
from zoneinfo import ZoneInfo

from resolver.timeexpr import blank, now_ms_of, told

DATA = Path(__file__).resolve().parent.parent / "data"
# Thu 2025-11-13 09:12:22.241 in Shanghai: the clock of most gold cases, used wherever a text
# comes with none (generated texts, contexts whose clock is a sentence the scanner reads).
FIXED_NOW_MS = 1762996342241
FIXED_ZONE = "Asia/Shanghai"

QUERY_FILES = ("time_gold.jsonl", "time_gold_v2.jsonl", "time_gold_v3.jsonl")
CONTEXT_FILES = ("context_gold.jsonl", "context_gold_v3.jsonl")
TEXT_FILES = ("duckling_en.jsonl", "duckling_zh.jsonl")


class Text(NamedTuple):
    """One text to run, where it comes from, and the clock it is read at."""

    source: str  # "time_gold_v3.jsonl:en-future-003", "generated:mixed", ...
    text: str
    now_ms: int = FIXED_NOW_MS
    timezone: str = FIXED_ZONE
    insert: str = ""  # generated texts: the time material inserted, and where
    insert_at: int = -1


def corpus(data: Path = DATA) -> list[Text]:
    """Every query/text of the gold files and the free text of their contexts, deduplicated
    (the same text at the same clock runs once)."""
    seen: set[tuple[str, int, str]] = set()
    texts: list[Text] = []
    for item in _all(data):
        key = (item.text, item.now_ms, item.timezone)
        if item.text.strip() and key not in seen:
            seen.add(key)
            texts.append(item)
    return texts


def _all(data: Path) -> Iterator[Text]:
    for name in QUERY_FILES:
        for row in _rows(data / name):
            yield Text(f"{name}:{row['id']}", row["query"], *_clock(row))
    for name in CONTEXT_FILES:
        for row in _rows(data / name):
            now_ms, zone = _clock(row)
            yield Text(f"{name}:{row['id']}", row["query"], now_ms, zone)
            context = row.get("additional_context")
            if isinstance(context, str) and not context.lstrip().startswith("{"):
                yield _context_text(f"{name}:{row['id']}:context", context, row)
    for name in TEXT_FILES:
        for row in _rows(data / name):
            yield Text(f"{name}:{row['id']}", row["text"], *_clock(row))


def _context_text(source: str, context: str, row: dict[str, Any]) -> Text:
    """A context's words as the service reads them for time (SPEC §3): its free text and the
    values of its time keys, other `key=value` pairs left out, clock and zone sentences blanked
    (the clock they state is used when the row gives none)."""
    words = free_text(context)
    now_ms, zone = _clock(row)
    if row.get("now_ms") is None:
        now_ms = now_ms_of(told(context), ZoneInfo(zone)) or FIXED_NOW_MS
    return Text(source, blank(words, told(words).spans), now_ms, zone)


# SPEC §3: pairs are separated by ；;， and newlines, or by an ASCII comma before another pair.
_SEGMENTS = re.compile(r"[；;，\n\r]+|,(?=\s*[^\s=：:,，；;]+\s*[=：:])")
_TIME_KEY = re.compile(
    r"\s*(?:时间|时间范围|时间段|日期|日期范围|time|time range|date range|time period|period)"
    r"\s*[=：:]\s*(.*)",
    re.IGNORECASE,
)
# A key glued to the words before it (趋势查询step=month), else any word before = or ：
# (地区=华东).
_ASCII_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_.]*\s*[=：:]")
_ANY_KEY = re.compile(r"[^\s=：:]+\s*[=：]")


def free_text(context: str) -> str:
    """The words of a free-text context that are read for time: free text and time-key values,
    one segment a line (the values of other keys are data: `start=2024-01-01`, `limit=5`)."""
    lines = []
    for segment in _SEGMENTS.split(context):
        if (value := _TIME_KEY.fullmatch(segment)) is not None:
            lines.append(value.group(1).strip())
        elif (key := _ASCII_KEY.search(segment) or _ANY_KEY.search(segment)) is not None:
            lines.append(segment[: key.start()].strip())
        else:
            lines.append(segment.strip())
    return "\n".join(line for line in lines if line)


def _clock(row: dict[str, Any]) -> tuple[int, str]:
    now_ms = row.get("now_ms")
    zone = row.get("timezone")
    return (
        now_ms if isinstance(now_ms, int) else FIXED_NOW_MS,
        zone if isinstance(zone, str) else FIXED_ZONE,
    )


def _rows(path: Path) -> Iterator[dict[str, Any]]:
    with path.open(encoding="utf-8") as lines:
        for line in lines:
            if line.strip():
                row: dict[str, Any] = json.loads(line)
                yield row
