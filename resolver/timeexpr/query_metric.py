"""A window in the platform's `query_metric` `time` shape (bkn-foundry
driveradapters/mcp/schemas/query_metric.json): what `/v1/time-window` answers beside the
window, for an agent to pass on as is.

    >>> query_metric_time(False, 1751299200000, 1759247999999, "quarter")
    {'start': 1751299200, 'end': 1759247999, 'step': 'quarter'}
    >>> query_metric_time(True, None, None, None)
    {'instant': True}
"""

from __future__ import annotations

from typing import Any

from resolver.timeexpr.baseline import Baseline
from resolver.timeexpr.result import Step


def query_metric_time(
    instant: bool | None, start_ms: int | None, end_ms: int | None, step: Step | None
) -> dict[str, Any]:
    """The `time` argument of the platform's `query_metric` tool (bkn-foundry
    driveradapters/mcp/schemas/query_metric.json): `{"instant": true}` for the current value;
    a series omits `instant` and carries unix-second `start`/`end` (the end its last second)
    and `step`."""
    if instant or start_ms is None or end_ms is None or step is None:
        return {"instant": True}
    return {"start": start_ms // 1000, "end": end_ms // 1000, "step": step}


def baseline_query_metric_time(baseline: Baseline) -> dict[str, Any]:
    """A baseline in the `query_metric` `time` shape."""
    return query_metric_time(False, baseline.start_ms, baseline.end_ms, baseline.step)
