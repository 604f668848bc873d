"""The platform's `query_metric` tool, as published, for checking resolver's
`query_metric_time` (SPEC §9.1).

`data/query_metric.json` is a verbatim copy of openbkn-ai/bkn-foundry
`adp/context-loader/agent-retrieval/server/driveradapters/mcp/schemas/query_metric.json` at commit
faf74f54c397d666b1934c68ac048733613ce257 (the file's last change; the snapshot read was
8122b3e88ac02725dddfe68dadfdfc411bc615bc). `time_rule_violation` restates the time rules of
`validateMetricQueryRequest` (adp/bkn/ontology-query/server/driveradapters/validate_metric.go,
commit 04cb2e7da8031d67f288fc20024d3b9610d5a6f3): start and end both or neither; start <= end;
a trend query (instant omitted or false) needs a calendar step (day, week, month, quarter,
year; case-insensitive).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema

PUBLISHED = json.loads((Path(__file__).parent / "data" / "query_metric.json").read_text("utf-8"))
INPUT_SCHEMA: dict[str, Any] = PUBLISHED["input_schema"]
TIME_FIELDS = frozenset(INPUT_SCHEMA["properties"]["time"]["properties"])
_VALIDATOR = jsonschema.Draft202012Validator(INPUT_SCHEMA)
_CALENDAR_STEPS = ("day", "week", "month", "quarter", "year")


def time_rule_violation(time: dict[str, Any]) -> str | None:
    """The rule of `validateMetricQueryRequest` a `time` argument breaks, None if none."""
    start, end = time.get("start"), time.get("end")
    if (start is None) != (end is None):
        return "time.start and time.end must both be set when either is set"
    if start is not None and end is not None and start > end:
        return "time.start must be <= time.end"
    if time.get("instant") is not True:  # a trend query
        step = time.get("step")
        if not isinstance(step, str) or not step.strip():
            return "trend query requires time.step (calendar interval only)"
        if step.strip().lower() not in _CALENDAR_STEPS:
            return "step must be a calendar interval"
    return None


def check_query_metric_time(time: dict[str, Any]) -> None:
    """Assert `time` is a `query_metric` time argument the tool accepts: valid against the
    published input schema (inside a call with its required fields), no key the schema does
    not define, unix seconds (not ms), and none of the Go validation's rules broken."""
    _VALIDATOR.validate({"kn_id": "kn_demo", "metric_id": "metric_demo", "time": time})
    assert set(time) <= TIME_FIELDS, sorted(set(time) - TIME_FIELDS)
    for key in ("start", "end"):
        if key in time:
            assert 946_684_800 - 86_400 <= time[key] <= 4_102_444_800 + 86_400, (key, time)
    assert time_rule_violation(time) is None, (time_rule_violation(time), time)
