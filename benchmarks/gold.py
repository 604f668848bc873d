"""The time gold set: `benchmarks/data/time_gold.jsonl`, one case per line."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from resolver.timeexpr import Step, TimeResolution, resolve_time

GOLD_PATH = Path(__file__).parent / "data" / "time_gold.jsonl"


@dataclass(frozen=True, slots=True)
class Case:
    """One gold case: a query, its now/timezone/overrides, and the expected parameters."""

    id: str
    category: str
    lang: str
    query: str
    now_ms: int
    tz: ZoneInfo
    instant: bool | None
    step: Step | None
    expected: dict[str, Any] | None

    def run(self) -> TimeResolution | None:
        """Resolve this case with our engine."""
        return resolve_time(
            self.query, now_ms=self.now_ms, tz=self.tz, instant=self.instant, step=self.step
        )

    def passes(self, result: TimeResolution | None) -> bool:
        """Exact match: the settled keys and values equal the expected ones (None: nothing)."""
        got = None if result is None else result.params()
        return got == self.expected


def load(path: Path = GOLD_PATH) -> list[Case]:
    """Read every case of the gold file."""
    zones: dict[str, ZoneInfo] = {}
    cases = []
    with path.open(encoding="utf-8") as lines:
        for line in lines:
            if not line.strip():
                continue
            row = json.loads(line)
            name = row["timezone"]
            tz = zones.setdefault(name, ZoneInfo(name))
            context = row.get("context") or {}
            cases.append(
                Case(
                    id=row["id"],
                    category=row["category"],
                    lang=row["lang"],
                    query=row["query"],
                    now_ms=row["now_ms"],
                    tz=tz,
                    instant=context.get("instant"),
                    step=context.get("step"),
                    expected=row["expected"],
                )
            )
    return cases
