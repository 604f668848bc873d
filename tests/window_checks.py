"""What the time-window test modules share: the time gold cases as `/v1/time-window` requests,
the window each must give, and the window read out of any face's answer."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from benchmarks.gold import DATA, Case, load
from resolver.timeexpr import TimeWindow, read_window

GOLD_FILES = ("time_gold.jsonl", "time_gold_v2.jsonl", "time_gold_v3.jsonl")
Window = dict[str, Any] | None


@dataclass(frozen=True, slots=True)
class GoldRequest:
    """One gold case as a time-window request, and the window it must give."""

    id: str
    category: str
    body: dict[str, Any]
    expected: Window

    def library(self) -> TimeWindow:
        """The library's answer to the same request."""
        return read_window(
            self.body["text"],
            now_ms=self.body["now_ms"],
            timezone=self.body["timezone"],
            instant=self.body.get("instant"),
            step=self.body.get("step"),
        )


def expected_window(case: Case) -> Window:
    """The window a gold case must give. A case whose expected parameters are neither an
    instant nor a whole window (the caller's `instant: false` over a text without time words,
    which the metric path keeps as one settled input among open ones) is no window: 422."""
    expected = case.expected
    if expected is None or expected.get("instant") is True or "start" in expected:
        return expected
    return None


def gold_requests() -> list[GoldRequest]:
    """Every case of the three time gold sets, ids prefixed by their file's version."""
    requests = []
    for version, name in zip(("v1", "v2", "v3"), GOLD_FILES, strict=True):
        for case in load(DATA / name):
            body: dict[str, Any] = {
                "text": case.query,
                "now_ms": case.now_ms,
                "timezone": case.tz.key,
            }
            if case.instant is not None:
                body["instant"] = case.instant
            if case.step is not None:
                body["step"] = case.step
            requests.append(
                GoldRequest(f"{version}/{case.id}", case.category, body, expected_window(case))
            )
    return requests


def window_of(status: int, body: dict[str, Any]) -> Window:
    """The settled parameters of a face's answer (as the gold writes them), None for a 422."""
    if status == 422:
        assert body["error"]["code"] == "TIME_UNSETTLED", body
        return None
    assert status == 200, body
    keys = ("instant", "start", "end", "step")
    return {key: body[key] for key in keys if body[key] is not None}


def library_window(window: TimeWindow) -> Window:
    """The library's answer as the gold writes it."""
    if not window.settled:
        return None
    found = {
        "instant": window.instant,
        "start": window.start,
        "end": window.end,
        "step": window.step,
    }
    return {key: value for key, value in found.items() if value is not None}
