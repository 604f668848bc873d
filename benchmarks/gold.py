"""The gold sets, written independently from the SPEC (benchmarks/data/README_gold.md).

- `time_gold.jsonl` (v1, SPEC §4) and `time_gold_v2.jsonl` (§4.1 families and the guard
  rule): scanner cases, one per line, read by `load` into `Case`.
- `context_gold.jsonl`: end-to-end `POST /v1/dynamic-params` cases in rules-only mode, read by
  `load_context` into `ContextCase`; `ContextCase.body()` is the request, `check()` compares an
  answer with the expected one.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from resolver.timeexpr import Step, TimeResolution, resolve_time

DATA = Path(__file__).parent / "data"
GOLD_PATH = DATA / "time_gold.jsonl"
GOLD_V2_PATH = DATA / "time_gold_v2.jsonl"
CONTEXT_GOLD_PATH = DATA / "context_gold.jsonl"


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
        """Resolve this case with our scanner."""
        return resolve_time(
            self.query, now_ms=self.now_ms, tz=self.tz, instant=self.instant, step=self.step
        )

    def passes(self, result: TimeResolution | None) -> bool:
        """Exact match: the settled keys and values equal the expected ones (None: nothing)."""
        got = None if result is None else result.params()
        return got == self.expected


def load(path: Path = GOLD_PATH) -> list[Case]:
    """Read every case of one scanner gold file."""
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


def load_all() -> list[Case]:
    """Read every scanner gold file (v1 then v2). Both files use ids like zh-trend-001, so
    the v2 ids are prefixed `v2/` (the files themselves are never edited)."""
    cases = load(GOLD_PATH)
    cases += [replace(case, id=f"v2/{case.id}") for case in load(GOLD_V2_PATH)]
    return cases


@dataclass(frozen=True, slots=True)
class ContextCase:
    """One end-to-end case: a request built from the line, and the answer it must get."""

    id: str
    category: str
    lang: str
    row: dict[str, Any]

    def body(self) -> dict[str, Any]:
        """The request: query, context as given, properties; now/timezone unless null."""
        body: dict[str, Any] = {
            "logic_properties": self.row["logic_properties"],
            "query": self.row["query"],
        }
        if "additional_context" in self.row:
            body["additional_context"] = self.row["additional_context"]
        for key in ("now_ms", "timezone"):
            if self.row.get(key) is not None:
                body[key] = self.row[key]
        return body

    def check(self, status: int, answer: dict[str, Any]) -> str | None:
        """None when the answer matches the expected one, else what differs."""
        expected = self.row["expected"]
        if status != expected["status"]:
            return f"status {status} != {expected['status']}: {answer.get('_error')}"
        if status == 200:
            got = answer.get("dynamic_params")
            if got != expected["dynamic_params"] or list(got) != list(expected["dynamic_params"]):
                return f"dynamic_params {got} != {expected['dynamic_params']}"
        if status == 422:
            got_missing = [
                {"property": m["property"], "params": m["params"]} for m in answer["missing"]
            ]
            if got_missing != expected["missing"]:
                return f"missing {got_missing} != {expected['missing']}"
        return None


def load_context(path: Path = CONTEXT_GOLD_PATH) -> list[ContextCase]:
    """Read every case of the context gold file."""
    with path.open(encoding="utf-8") as lines:
        rows = [json.loads(line) for line in lines if line.strip()]
    return [ContextCase(r["id"], r["category"], r["lang"], r) for r in rows]
