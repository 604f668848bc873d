"""§9.1 on the metric path, over HTTP, rules only: `benchmarks/data/business_context_gold.jsonl`
(fiscal periods placed in the calendar of additional_context or the environment, no calendar →
422 naming fiscal_year_start, comparison words keeping one window, written blind by another
engineer) and `business_metric_path.jsonl` (comparison words keep the one window, two named
windows settle nothing)."""

from __future__ import annotations

from typing import Any

import pytest

from benchmarks.gold import DATA, ContextCase, load, load_context
from tests.helpers import ClientFactory, post

CONTEXT_CASES = load_context(DATA / "business_context_gold.jsonl")
PATH_CASES = load(DATA / "business_metric_path.jsonl")


def _env_settings(row: dict[str, Any]) -> dict[str, Any]:
    env = row.get("env") or {}
    settings: dict[str, Any] = {}
    if "RESOLVER_FISCAL_YEAR_START" in env:
        settings["fiscal_year_start"] = env["RESOLVER_FISCAL_YEAR_START"]
    if "RESOLVER_FISCAL_YEAR_NAMED_BY" in env:
        settings["fiscal_year_named_by"] = env["RESOLVER_FISCAL_YEAR_NAMED_BY"]
    assert set(env) <= {"RESOLVER_FISCAL_YEAR_START", "RESOLVER_FISCAL_YEAR_NAMED_BY"}
    return settings


def test_the_sets_hold_both_outcomes() -> None:
    assert len(CONTEXT_CASES) == 14
    statuses = {case.row["expected"]["status"] for case in CONTEXT_CASES}
    assert statuses == {200, 422}
    assert len(PATH_CASES) == 12


@pytest.mark.parametrize("case", [pytest.param(c, id=c.id) for c in CONTEXT_CASES])
async def test_business_context_case(make_client: ClientFactory, case: ContextCase) -> None:
    client = await make_client(llm=False, **_env_settings(case.row))
    status, answer = await post(client, case.body())
    problem = case.check(status, answer)
    assert problem is None, (
        f"{case.row['query']!r} + {case.row.get('additional_context')!r}: {problem}"
    )
    if status == 422 and "财年" in case.row["query"] + str(case.row.get("additional_context")):
        assert "fiscal_year_start" in answer["_error"]


@pytest.mark.parametrize("case", [pytest.param(c, id=c.id) for c in PATH_CASES])
async def test_business_metric_path_case(make_client: ClientFactory, case: Any) -> None:
    client = await make_client(llm=False)
    prop = {
        "name": "sales",
        "type": "metric",
        "parameters": [
            {"name": n, "value_from": "input", "if_system_generate": True}
            for n in ("instant", "start", "end", "step")
        ],
    }
    body = {
        "logic_properties": [prop],
        "query": case.query,
        "now_ms": case.now_ms,
        "timezone": case.tz.key,
    }
    status, answer = await post(client, body)
    if case.expected is None:
        assert status == 422, answer
    else:
        assert status == 200, answer
        got = answer["dynamic_params"]["sales"]
        assert {k: got.get(k) for k in case.expected} == case.expected
