"""`python -m benchmarks mcp-overhead`: what an MCP call adds to the HTTP endpoint's latency.

The same request goes to `POST /v1/dynamic-params` and, as the `resolve_dynamic_params`
tool, to `POST /api/agent-retrieval/v1/mcp` (JSON-RPC `tools/call` in an initialized session),
alternately, one at a time, against real `resolver serve` processes: one rules-only (the
request is settled in code) and one over the fake LLM process (one LLM call per request).
Each MCP answer is checked to carry the HTTP answer's `dynamic_params`. Figures: client-side
latency p50/p99 of each, and what MCP adds (its percentile minus HTTP's).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import tempfile
import time
from pathlib import Path
from typing import Any

import aiohttp
import orjson

from benchmarks.bodies import body, llm_properties, metric
from benchmarks.procs import start_fake, start_service
from benchmarks.results_dir import add_save_flag, results_dir

MCP_PATH = "/api/agent-retrieval/v1/mcp"
HTTP_PATH = "/v1/dynamic-params"
SCENARIOS = {
    "rules-only": body([metric("approved_drug_count")], "最近3个月的药品数量趋势"),
    "fake-llm": body(llm_properties(1), "当前获批的抗肿瘤药品数量"),
}
_MCP_HEADERS = {
    "Accept": "application/json, text/event-stream",
    "Content-Type": "application/json",
    "MCP-Protocol-Version": "2025-06-18",
}


async def _session_id(http: aiohttp.ClientSession, base_url: str) -> str:
    initialize = {
        "jsonrpc": "2.0",
        "id": 0,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "mcp-overhead", "version": "1"},
        },
    }
    async with http.post(base_url + MCP_PATH, json=initialize, headers=_MCP_HEADERS) as answer:
        await answer.read()
        return answer.headers["Mcp-Session-Id"]


async def _measure(base_url: str, request: bytes, requests: int, warmup: int) -> dict[str, Any]:
    arguments = orjson.loads(request)
    http_ms: list[float] = []
    mcp_ms: list[float] = []
    async with aiohttp.ClientSession() as http:
        headers = {**_MCP_HEADERS, "Mcp-Session-Id": await _session_id(http, base_url)}
        for seq in range(warmup + requests):
            call = {
                "jsonrpc": "2.0",
                "id": seq + 1,
                "method": "tools/call",
                "params": {"name": "resolve_dynamic_params", "arguments": arguments},
            }
            started = time.perf_counter()
            async with http.post(
                base_url + HTTP_PATH, data=request, headers={"Content-Type": "application/json"}
            ) as answer:
                direct = orjson.loads(await answer.read())
            middle = time.perf_counter()
            async with http.post(
                base_url + MCP_PATH, data=orjson.dumps(call), headers=headers
            ) as answer:
                wrapped = orjson.loads(await answer.read())
            ended = time.perf_counter()
            result = wrapped["result"]
            if result["isError"] or "dynamic_params" not in direct:
                raise SystemExit(f"unexpected answers: {direct} / {result}")
            if result["structuredContent"]["dynamic_params"] != direct["dynamic_params"]:
                raise SystemExit("the MCP answer differs from the HTTP answer")
            if seq >= warmup:
                http_ms.append((middle - started) * 1000)
                mcp_ms.append((ended - middle) * 1000)
    return _figures(http_ms, mcp_ms)


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q / 100 * len(ordered)) - 1))
    return ordered[index]


def _figures(http_ms: list[float], mcp_ms: list[float]) -> dict[str, Any]:
    figures: dict[str, Any] = {"requests": len(http_ms)}
    for q in (50, 99):
        http_q, mcp_q = _percentile(http_ms, q), _percentile(mcp_ms, q)
        figures[f"http_p{q}_ms"] = round(http_q, 3)
        figures[f"mcp_p{q}_ms"] = round(mcp_q, 3)
        figures[f"added_p{q}_ms"] = round(mcp_q - http_q, 3)
    return figures


def _run(requests: int, warmup: int, logdir: Path, uvloop: bool) -> dict[str, Any]:
    figures: dict[str, Any] = {}
    with start_fake(logdir, uvloop=uvloop) as fake:
        for name, request in SCENARIOS.items():
            # Cache off: the same request repeats, and the LLM path is what is compared.
            settings = {
                "llm_base_url": fake.base_url + "/v1",
                "llm_api_key": "bench",
                "llm_cache_ttl_s": "0",
            }
            if name == "rules-only":
                settings = {}
            settings["log_level"] = "WARNING"
            with start_service(logdir, settings, uvloop=uvloop) as service:
                figures[name] = asyncio.run(_measure(service.base_url, request, requests, warmup))
    return figures


def main(argv: list[str]) -> int:
    """Print the figures and write them to mcp-overhead.json."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks mcp-overhead")
    parser.add_argument("--requests", type=int, default=1000, help="measured pairs per scenario")
    parser.add_argument("--warmup", type=int, default=100)
    parser.add_argument("--uvloop", action="store_true", help="the service and the fake on uvloop")
    add_save_flag(parser)
    args = parser.parse_args(argv)
    out = results_dir(args.save)
    with tempfile.TemporaryDirectory(prefix="resolver-bench-") as logdir:
        figures = _run(args.requests, args.warmup, Path(logdir), args.uvloop)
    print(f"{'scenario':<12} {'HTTP p50/p99 ms':>18} {'MCP p50/p99 ms':>18} {'added p50/p99':>16}")
    for name, f in figures.items():
        print(
            f"{name:<12} {f['http_p50_ms']:>8.2f} / {f['http_p99_ms']:<7.2f}"
            f" {f['mcp_p50_ms']:>8.2f} / {f['mcp_p99_ms']:<7.2f}"
            f" {f['added_p50_ms']:>6.2f} / {f['added_p99_ms']:<6.2f}"
        )
    document = {
        "command": "python -m benchmarks mcp-overhead " + " ".join(argv),
        "uvloop": args.uvloop,
        "scenarios": figures,
    }
    out.mkdir(parents=True, exist_ok=True)
    (out / "mcp-overhead.json").write_text(json.dumps(document, indent=2) + "\n")
    return 0
