"""`python -m benchmarks run llm`: what each request costs, and how much of its prompts a
provider's prompt cache can serve (SPEC §6, issue 29).

The service and the fake LLM run in this process on loopback sockets. The fake answers
`usage.prompt_tokens_details.cached_tokens` as a provider's automatic prompt cache does
(`PromptCache`: the longest prefix a prompt shares with a recent one, 4 characters a token, in
64-token blocks, nothing below 64 tokens — DeepSeek's unit; OpenAI's minimum is 1024 tokens,
which prompts of this size never reach). The service prices calls by `PRICES` (gpt-4o-mini's
list prices per million tokens) and answers `usage` (`options.return_usage`).

Each request asks two properties that need the LLM (a metric's business input, an operator's
typed inputs) with its own question, so that every call is asked (the result cache is off).
Printed per request: prompt tokens, cached tokens and their share, completion tokens, cost.

The prefix figures: the leading bytes (UTF-8, system prompt then user message, as the fake's
cache sees them) that are identical between the two properties' prompts of one request
("across two properties") and between one property's prompts in two requests ("across two
requests"), beside the prompts' lengths.
"""

from __future__ import annotations

import asyncio
import statistics
from typing import Any

import orjson
from aiohttp import ClientSession
from aiohttp.test_utils import TestServer

from resolver.core.settings import Settings
from resolver.testing.fake_llm import Call, FakeLLM, PromptCache, prompt_text
from resolver.web.app import create_app

NOW_MS = 1_762_996_342_241
MODEL = "gpt-4o-mini"
PRICES = {MODEL: {"input": 0.15, "cached_input": 0.075, "output": 0.6}}
REGIONS = ("华东", "华南", "华北", "西南", "西北", "东北", "华中", "港澳")
PROPERTIES: list[dict[str, Any]] = [
    {
        "name": "drug_sales",
        "type": "metric",
        "comment": "药品销售额（万元），按地区统计",
        "parameters": [
            *(
                {"name": n, "value_from": "input", "if_system_generate": True}
                for n in ("instant", "start", "end", "step")
            ),
            {"name": "region", "type": "STRING", "value_from": "input", "comment": "销售地区"},
            {"name": "company_id", "value_from": "property"},
        ],
    },
    {
        "name": "risk_score",
        "type": "operator",
        "comment": "企业经营风险评分",
        "parameters": [
            {"name": "region", "type": "STRING", "value_from": "input", "comment": "地区"},
            {"name": "threshold", "type": "NUMBER", "value_from": "input", "comment": "阈值"},
            {"name": "include_reason", "type": "BOOLEAN", "value_from": "input"},
        ],
    },
]


def body(index: int) -> dict[str, Any]:
    """Request `index`: both properties, a question of its own."""
    region = REGIONS[index % len(REGIONS)]
    months, threshold = 3 + index, index % 9 + 1
    return {
        "logic_properties": PROPERTIES,
        "query": f"{region}地区最近{months}个月的药品销售额，以及阈值0.{threshold}的风险评分和原因",
        "unique_identities": [{"company_id": f"company_{index:06d}"}],
        "now_ms": NOW_MS,
        "timezone": "Asia/Shanghai",
        "options": {"return_usage": True, "max_concurrency": 1},
    }


def common_prefix_bytes(a: bytes, b: bytes) -> int:
    """How many leading bytes two prompts share."""
    limit = min(len(a), len(b))
    for index in range(limit):
        if a[index] != b[index]:
            return index
    return limit


def prefix_figures(calls: list[Call]) -> dict[str, Any]:
    """The shared-prefix figures of the first two requests' four calls (two per request, in
    property order: max_concurrency 1)."""
    prompts = [prompt_text(call.body).encode() for call in calls[:4]]
    first_a, first_b, second_a, _ = prompts
    return {
        "prompt_bytes": [len(p) for p in prompts],
        "across_two_properties": common_prefix_bytes(first_a, first_b),
        "across_two_requests": common_prefix_bytes(first_a, second_a),
    }


async def measure(requests: int) -> dict[str, Any]:
    """Run the requests one after another; per-request usage and the prefix figures."""
    fake = FakeLLM(prompt_cache=PromptCache(block_tokens=64, min_tokens=64))
    fake_server = TestServer(fake.app(), host="127.0.0.1")
    await fake_server.start_server()
    settings = Settings(
        llm_base_url=str(fake_server.make_url("/v1")),
        llm_model=MODEL,
        llm_prices=orjson.dumps(PRICES).decode(),
        llm_cache_ttl_s=0,
    )
    service = TestServer(create_app(settings), host="127.0.0.1")
    await service.start_server()
    rows: list[dict[str, Any]] = []
    try:
        async with ClientSession() as session:
            url = str(service.make_url("/v1/dynamic-params"))
            for index in range(requests):
                async with session.post(url, json=body(index)) as response:
                    answer = await response.json()
                    if response.status != 200:
                        raise RuntimeError(f"request {index}: {response.status} {answer}")
                usage = answer["usage"]
                share = usage["cached_tokens"] / usage["prompt_tokens"]
                rows.append({**usage, "cached_share": round(share, 3)})
    finally:
        await service.close()
        await fake_server.close()
    return {"requests": rows, "prefix": prefix_figures(fake.calls)}


def summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Means over the requests after the first (the first finds the cache cold)."""
    warm = rows[1:] or rows
    return {
        "cost_per_request_first": rows[0]["cost"],
        "cost_per_request_mean_warm": round(statistics.fmean(r["cost"] for r in warm), 9),
        "cached_share_mean_warm": round(statistics.fmean(r["cached_share"] for r in warm), 3),
        "prompt_tokens_mean": round(statistics.fmean(r["prompt_tokens"] for r in rows), 1),
    }


def llm_bill(ctx: Any) -> dict[str, Any]:
    """The `llm` scenario of `python -m benchmarks run`."""
    requests = 6 if ctx.quick else 20
    measured = asyncio.run(measure(requests))
    print("| request | prompt tokens | cached | cached share | completion | cost |")
    print("|---|---|---|---|---|---|")
    for index, row in enumerate(measured["requests"]):
        print(
            f"| {index} | {row['prompt_tokens']} | {row['cached_tokens']} | "
            f"{row['cached_share']:.1%} | {row['completion_tokens']} | {row['cost']:.8f} |"
        )
    prefix = measured["prefix"]
    print(
        f"shared prefix: across two properties {prefix['across_two_properties']} bytes, "
        f"across two requests {prefix['across_two_requests']} bytes "
        f"(prompts {prefix['prompt_bytes']} bytes)",
        flush=True,
    )
    return {
        "method": __doc__,
        "prices_per_million": PRICES,
        **measured,
        "summary": summary(measured["requests"]),
    }


def rows(result: dict[str, Any]) -> list[str]:
    """The headline rows of `python -m benchmarks run`."""
    figures, prefix = result["summary"], result["prefix"]
    first, warm = figures["cost_per_request_first"], figures["cost_per_request_mean_warm"]
    share = figures["cached_share_mean_warm"]
    across = prefix["across_two_properties"], prefix["across_two_requests"]
    cost = f"first {first:.8f}, warm mean {warm:.8f}; cached share {share:.1%}"
    prefix_line = f"{across[0]} B across properties, {across[1]} B across requests"
    return [
        f"| llm | cost per request | {cost} | |",
        f"| llm | shared prompt prefix | {prefix_line} | |",
    ]
