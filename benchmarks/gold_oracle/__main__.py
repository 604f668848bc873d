"""`python -m benchmarks.gold_oracle [--check | --show]`: write, compare or show the gold files.

It writes the v2 files, the v3 files (time_gold_v3.jsonl, context_gold_v3.jsonl) and the
business-time files (business_gold.jsonl, business_metric_path.jsonl,
business_context_gold.jsonl).
`--show` prints each time case (v2, then v3) with its window on the local wall clock, for a
reviewer.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path
from zoneinfo import ZoneInfo

from benchmarks.gold_oracle.answers import Params
from benchmarks.gold_oracle.business_cases import (
    business_rows,
    metric_context_rows,
    metric_path_rows,
)
from benchmarks.gold_oracle.context_cases import context_rows
from benchmarks.gold_oracle.context_cases_v3 import context_rows_v3
from benchmarks.gold_oracle.periods import EPOCH, ONE_MS
from benchmarks.gold_oracle.time_cases import time_rows
from benchmarks.gold_oracle.time_cases_v3 import time_rows_v3

DATA = Path(__file__).resolve().parent.parent / "data"
TIME_GOLD_V2 = DATA / "time_gold_v2.jsonl"
CONTEXT_GOLD = DATA / "context_gold.jsonl"
TIME_GOLD_V3 = DATA / "time_gold_v3.jsonl"
CONTEXT_GOLD_V3 = DATA / "context_gold_v3.jsonl"
BUSINESS_GOLD = DATA / "business_gold.jsonl"
BUSINESS_METRIC_PATH = DATA / "business_metric_path.jsonl"
BUSINESS_CONTEXT = DATA / "business_context_gold.jsonl"


def render() -> dict[Path, list[Params]]:
    """The rows of every gold file the oracle writes."""
    return {
        TIME_GOLD_V2: time_rows(),
        CONTEXT_GOLD: context_rows(),
        TIME_GOLD_V3: time_rows_v3(),
        CONTEXT_GOLD_V3: context_rows_v3(),
        BUSINESS_GOLD: business_rows(),
        BUSINESS_METRIC_PATH: metric_path_rows(),
        BUSINESS_CONTEXT: metric_context_rows(),
    }


def to_text(rows: list[Params]) -> str:
    """One JSON object per line, UTF-8 kept readable."""
    return "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)


def _local(ms: int, tz: str) -> str:
    return (EPOCH + ms * ONE_MS).astimezone(ZoneInfo(tz)).isoformat(timespec="milliseconds")


def show(rows: list[Params]) -> None:
    """Print each time case's window as local wall-clock times."""
    for row in rows:
        tz, expected = row["timezone"], row["expected"]
        if expected is None:
            settled = "nothing"
        elif expected["instant"]:
            settled = "instant"
        else:
            start, end = _local(expected["start"], tz), _local(expected["end"], tz)
            settled = f"{start} .. {end} step={expected['step']}"
        context = f" context={row['context']}" if row["context"] else ""
        print(f"{row['id']:30} {row['query']}  | now={_local(row['now_ms'], tz)}{context}")
        print(f"{'':30} -> {settled}")


def main(argv: list[str]) -> int:
    """Write every file (or with --check exit 1 when one differs) and print their counts."""
    if "--show" in argv:
        show(time_rows() + time_rows_v3())
        return 0
    check = "--check" in argv
    stale = []
    for path, rows in render().items():
        ids = [row["id"] for row in rows]
        assert len(ids) == len(set(ids)), f"{path.name}: duplicate ids"
        text = to_text(rows)
        if not check:
            path.write_text(text, encoding="utf-8")
        elif not path.exists() or path.read_text(encoding="utf-8") != text:
            stale.append(path.name)
        print(f"{path.name}: {len(rows)} cases")
        counts = Counter((row["category"], row["lang"]) for row in rows)
        for (category, lang), n in sorted(counts.items()):
            print(f"  {category:24} {lang} {n:3d}")
    if stale:
        print(f"stale: {', '.join(stale)}; run python -m benchmarks.gold_oracle")
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
