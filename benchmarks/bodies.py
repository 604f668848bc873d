"""Request bodies of the benchmark scenarios (`/v1/dynamic-params`), as JSON bytes.

Queries may carry `MARK`: the load generator puts each request's number there, and the fake
LLM sees it in the task's query, which pairs a request with the LLM call it caused. The number
sits behind nine digits so that it never reads as a year or a date (`#1930` is the year 1930
to the time scanner, a window the rules refuse).
"""

from __future__ import annotations

from typing import Any

import orjson

MARK = "#100000000{{seq}}"

NOW_MS = 1_762_996_342_241  # 2025-11-13T09:12:22.241+08:00, fixed so runs are comparable
TIME_PARAMS = ("instant", "start", "end", "step")


def metric(name: str, *business: tuple[str, str]) -> dict[str, Any]:
    """A metric with the four time inputs, a property-bound id and typed business inputs."""
    params: list[dict[str, Any]] = [
        {"name": n, "value_from": "input", "if_system_generate": True} for n in TIME_PARAMS
    ]
    params.append({"name": "company_id", "value_from": "property"})
    params += [
        {"name": n, "type": t, "value_from": "input", "comment": f"{n} of the metric"}
        for n, t in business
    ]
    return {
        "name": name,
        "type": "metric",
        "display_name": name.replace("_", " "),
        "comment": "benchmark metric",
        "parameters": params,
    }


def operator(name: str, *inputs: tuple[str, str]) -> dict[str, Any]:
    """An operator with typed inputs."""
    return {
        "name": name,
        "type": "operator",
        "parameters": [{"name": n, "type": t, "value_from": "input"} for n, t in inputs],
    }


def body(properties: list[dict[str, Any]], query: str, **fields: Any) -> bytes:
    """A request with a fixed clock, timezone and identity."""
    document: dict[str, Any] = {
        "logic_properties": properties,
        "query": query,
        "unique_identities": [{"company_id": "company_000001"}],
        "now_ms": NOW_MS,
        "timezone": "Asia/Shanghai",
    }
    document.update(fields)
    return orjson.dumps(document)


def llm_properties(count: int) -> list[dict[str, Any]]:
    """`count` metrics whose time the rules settle ("当前") and whose business input the LLM
    must supply: one LLM call each."""
    return [metric(f"drug_count_{i}", ("drug_type", "STRING")) for i in range(count)]


def overhead_body() -> bytes:
    """One property, one LLM call (the business input); the time is an instant word."""
    return body(llm_properties(1), f"当前获批的抗肿瘤药品数量 {MARK}")


def fanout_body(count: int, max_concurrency: int) -> bytes:
    """`count` properties, one LLM call each, at most `max_concurrency` at once."""
    return body(
        llm_properties(count),
        f"当前各类获批药品的数量 {MARK}",
        options={"max_concurrency": max_concurrency},
    )


# Rules-only requests, every one settled in code: (name, needs the time scanner, body). The
# ones that need the scanner answered 422 while resolver/timeexpr was a placeholder.
RULES_BODIES: list[tuple[str, bool, bytes]] = [
    (
        "instant-word",
        False,
        body([metric("approved_drug_count")], "当前获批药品数量"),
    ),
    (
        "caller-values",
        False,
        body(
            [
                metric("approved_drug_count", ("drug_type", "STRING")),
                operator("health_score", ("weights", "OBJECT"), ("threshold", "NUMBER")),
            ],
            "药品数量与经营健康度",
            dynamic_params={
                "approved_drug_count": {
                    "instant": False,
                    "start": 1_755_047_542_241,
                    "end": NOW_MS,
                    "step": "month",
                    "drug_type": "抗肿瘤",
                },
                "health_score": {"weights": {"revenue": 0.5, "growth": 0.5}, "threshold": 0.8},
            },
        ),
    ),
    (
        "context-text",
        False,
        body(
            [
                metric("approved_drug_count", ("drug_type", "STRING")),
                operator("rank_items", ("items", "ARRAY"), ("top_n", "INTEGER")),
            ],
            "现在各类药品排名",
            additional_context="drug_type=抗肿瘤；items=revenue,profit,growth；top_n=5",
        ),
    ),
    (
        "last-3-months",
        True,
        body([metric("approved_drug_count")], "最近3个月的药品数量趋势"),
    ),
    (
        "quarter-by-month",
        True,
        body(
            [metric("approved_drug_count"), metric("revenue")],
            "2024年第一季度按月的药品数量和营收",
        ),
    ),
]
