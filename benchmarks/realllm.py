"""`python -m benchmarks real-llm [--save]`: the service against a real LLM server.

llama.cpp (llama-cpp-python's OpenAI-compatible server) with the Gemma 3 270M GGUF, on
loopback (`make test-llm` builds both). For each response format — `json_schema` (sent as
llama-cpp-python takes it, `{"type": "json_object", "schema": …}`), `json_object`, `none` —
it runs a small labelled set and records: whether the server accepted the requests, whether
every answer fits the answer schema of its call, the usage the server reported, latency, and
accuracy against the labels. A 270M model is weak; the point is the wire contract and the
constrained decoding, and the accuracy is reported as it comes.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import jsonschema
import orjson
from aiohttp import ClientSession
from aiohttp.test_utils import TestServer

from benchmarks.bodies import operator
from benchmarks.load import write_json
from benchmarks.results_dir import add_save_flag, results_dir
from resolver.core.settings import Settings
from resolver.llm.schema import answer_schema
from resolver.params.models import LogicPropertyDef
from resolver.params.property import PropertyState
from resolver.testing.llama_server import configured, llama_server
from resolver.toolschema import input_schemas
from resolver.web.app import create_app

NOW_MS = 1_762_996_342_241  # 2025-11-13T09:12:22.241+08:00
MODES: dict[str, dict[str, Any]] = {
    "json_schema": {"llm_response_format": "json_schema", "llm_json_schema_style": "json_object"},
    "json_object": {"llm_response_format": "json_object"},
    "none": {"llm_response_format": "none"},
}
Check = Callable[[dict[str, Any]], bool]


def _metric(name: str, *business: tuple[str, str]) -> dict[str, Any]:
    params: list[dict[str, Any]] = [
        {"name": n, "value_from": "input", "if_system_generate": True}
        for n in ("instant", "start", "end", "step")
    ]
    params += [{"name": n, "type": t, "value_from": "input"} for n, t in business]
    return {"name": name, "type": "metric", "parameters": params}


RISK = operator("is_high_risk", ("threshold", "NUMBER"), ("include_reason", "BOOLEAN"))
LEVEL_SCHEMA = {
    "requestBody": {
        "content": {
            "application/json": {
                "schema": {
                    "type": "object",
                    "properties": {"level": {"type": "string", "enum": ["low", "medium", "high"]}},
                }
            }
        }
    }
}


@dataclass(frozen=True)
class Case:
    """One labelled question: the property, and what a right answer holds (or 422)."""

    name: str
    prop: dict[str, Any]
    query: str
    check: Check | None  # None: the right answer is a 422 (the input cannot be found)
    context: str | None = None
    schemas: dict[str, Any] = field(default_factory=dict)


def _values(name: str, **expected: Any) -> Check:
    def check(params: dict[str, Any]) -> bool:
        got = params.get(name, {})
        return all(_same(got.get(k), v) for k, v in expected.items())

    return check


def _same(got: Any, expected: Any) -> bool:
    if isinstance(expected, set):
        return got in expected
    if isinstance(expected, float) and isinstance(got, int | float):
        return abs(got - expected) < 1e-9
    return bool(got == expected)


CASES = [
    Case(
        "region-zh",
        _metric("drug_sales", ("region", "STRING")),
        "当前华东地区的药品销售额",
        _values("drug_sales", region={"华东", "华东地区"}),
    ),
    Case(
        "region-en",
        _metric("drug_sales", ("region", "STRING")),
        "current drug sales in East China",
        _values("drug_sales", region={"East China", "east china"}),
    ),
    Case(
        "region-context",
        _metric("drug_sales", ("region", "STRING")),
        "当前的药品销售额",
        _values("drug_sales", region={"华南", "华南地区"}),
        context="地区：华南",
    ),
    Case(
        "region-missing",
        _metric("drug_sales", ("region", "STRING")),
        "当前的药品销售额",
        None,
    ),
    Case(
        "integer",
        _metric("top_drugs", ("top_n", "INTEGER")),
        "当前销售额排名前5的药品",
        _values("top_drugs", top_n=5),
    ),
    Case(
        "drug-type",
        _metric("approved_count", ("drug_type", "STRING")),
        "当前抗肿瘤药品的获批数量",
        _values("approved_count", drug_type={"抗肿瘤", "抗肿瘤药品", "抗肿瘤药"}),
    ),
    Case(
        "vague-window",
        _metric("drug_count"),
        "近期药品数量的趋势",
        _values("drug_count", instant=False),
    ),
    Case(
        "number-boolean-zh",
        RISK,
        "判断是否为高风险企业，阈值0.8，包含原因",
        _values("is_high_risk", threshold=0.8, include_reason=True),
    ),
    Case(
        "number-boolean-en",
        RISK,
        "Is this a high-risk company? Use threshold 0.5 and do not include the reason.",
        _values("is_high_risk", threshold=0.5, include_reason=False),
    ),
    Case(
        "enum",
        operator("risk_report", ("level", "STRING")),
        "生成高风险等级的风险报告",
        _values("risk_report", level="high"),
        schemas={"risk_report": LEVEL_SCHEMA},
    ),
    Case(
        "array",
        operator("compare", ("metrics", "ARRAY")),
        "对比营收和利润两个指标",
        lambda p: set(p.get("compare", {}).get("metrics") or []) >= {"营收", "利润"},
    ),
    Case(
        "region-2024",
        _metric("drug_sales", ("region", "STRING")),
        "2024年华北地区的药品销售额",
        _values("drug_sales", region={"华北", "华北地区"}),
    ),
]


def _body(case: Case) -> dict[str, Any]:
    body: dict[str, Any] = {
        "logic_properties": [case.prop],
        "query": case.query,
        "now_ms": NOW_MS,
        "timezone": "Asia/Shanghai",
        "options": {"return_debug": True, "max_repair_rounds": 0},
    }
    if case.context is not None:
        body["additional_context"] = case.context
    if case.schemas:
        body["operator_schemas"] = case.schemas
    return body


def schema_of_call(case: Case, request: list[dict[str, str]]) -> dict[str, Any]:
    """The answer schema the service sent for this call (rebuilt from its task)."""
    task = orjson.loads(request[1]["content"])
    schemas = input_schemas(case.schemas[case.prop["name"]]) if case.schemas else None
    state = PropertyState.of(LogicPropertyDef.model_validate(case.prop), schemas)
    return answer_schema(state.spec, task["generate"])


async def run_case(session: ClientSession, url: str, case: Case) -> dict[str, Any]:
    """One request; what came back and whether it is right and schema-valid."""
    began = time.perf_counter()
    async with session.post(url, json=_body(case)) as response:
        status = response.status
        payload = orjson.loads(await response.read())
    elapsed_ms = (time.perf_counter() - began) * 1000
    debug = payload.get("debug") or (payload.get("error", {}).get("details") or {}).get("debug")
    llm = ((debug or {}).get("properties", {}).get(case.prop["name"]) or {}).get("llm") or {}
    finish = llm.get("finish_reason")
    content = llm.get("response")
    fits = None
    if content is not None and llm.get("request"):
        try:
            answer = orjson.loads(content)
        except orjson.JSONDecodeError:
            fits = False
        else:
            schema = schema_of_call(case, llm["request"])
            fits = jsonschema.Draft202012Validator(schema).is_valid(answer)
    if case.check is None:
        right = status == 422
    else:
        right = status == 200 and case.check(payload.get("dynamic_params", {}))
    return {
        "case": case.name,
        "status": status,
        "right": right,
        "schema_valid": fits,
        "latency_ms": round(elapsed_ms, 1),
        "usage": llm.get("usage"),
        "finish_reason": finish,
        "answer": content,
        "error": payload.get("_error"),
    }


async def run_mode(base_url: str, mode: str) -> dict[str, Any]:
    """The labelled set through a service in this response-format mode."""
    settings = Settings(
        llm_base_url=base_url,
        llm_model="gemma-3-270m",
        llm_timeout_s=120,
        request_timeout_s=300,
        llm_cache_ttl_s=0,
        llm_max_tokens=256,  # the longest answer the schema allows fits (digits are one token each)
        llm_system_prompt="user",  # Gemma has no system role
        **MODES[mode],
    )
    server = TestServer(create_app(settings), host="127.0.0.1")
    await server.start_server()
    try:
        async with ClientSession() as session:
            url = str(server.make_url("/v1/dynamic-params"))
            rows = [await run_case(session, url, case) for case in CASES]
    finally:
        await server.close()
    return summarise(mode, rows)


def summarise(mode: str, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Accuracy, wire acceptance, schema validity, usage and latency of one mode."""
    statuses = Counter(str(r["status"]) for r in rows)
    checked = [r for r in rows if r["schema_valid"] is not None]
    tokens = [r["usage"]["total_tokens"] for r in rows if r["usage"]]
    return {
        "mode": mode,
        "cases": len(rows),
        "right": sum(r["right"] for r in rows),
        "accuracy": round(sum(r["right"] for r in rows) / len(rows), 3),
        "statuses": dict(statuses),
        "server_refused": sum(1 for r in rows if "HTTP 4" in (r["error"] or "")),
        "schema_valid": f"{sum(bool(r['schema_valid']) for r in checked)}/{len(checked)}",
        "cut_by_max_tokens": sum(1 for r in rows if r["finish_reason"] == "length"),
        "usage_reported": f"{len(tokens)}/{sum(1 for r in rows if r['answer'] is not None)}",
        "total_tokens": sum(tokens),
        "latency_p50_ms": round(statistics.median(r["latency_ms"] for r in rows), 1),
        "rows": rows,
    }


def main(argv: list[str]) -> int:
    """Start the real server, run every mode, write `real-llm.json`."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks real-llm", description=__doc__)
    add_save_flag(parser)
    args = parser.parse_args(argv)
    found = configured()
    if found is None:
        print("set RESOLVER_REAL_LLM_PYTHON and RESOLVER_REAL_LLM_MODEL (make test-llm does)")
        return 2
    out = results_dir(args.save)
    started = time.perf_counter()
    modes: list[dict[str, Any]] = []
    for mode in MODES:
        # A fresh server per mode, so that one mode's crash cannot spoil the next; its log is
        # scratch, wherever the figures go.
        log = results_dir(False) / f"real-llm-server-{mode}.log"
        with llama_server(*found, log) as server:
            summary = asyncio.run(run_mode(server.base_url, mode))
            summary["server_exit_code"] = server.process.poll()
        modes.append(summary)
    result: dict[str, Any] = {
        "scenario": "real-llm",
        "server": "llama-cpp-python server (llama.cpp), Gemma 3 270M Q4_K_M, 2 threads, loopback",
        "method": (
            f"{len(CASES)} labelled questions per mode, one request each, max_repair_rounds 0, "
            "temperature 0; schema_valid = the answer fits the answer schema of its call "
            "(json_schema mode constrains decoding with it; the other modes are checked "
            "against it after the fact)."
        ),
        "wall_s": round(time.perf_counter() - started, 1),
        "modes": modes,
    }
    write_json(result, out / "real-llm.json")
    for shown in modes:
        print(
            f"{shown['mode']:12} accuracy {shown['right']}/{shown['cases']}  "
            f"schema-valid {shown['schema_valid']}  statuses {shown['statuses']}  "
            f"usage {shown['usage_reported']}  p50 {shown['latency_p50_ms']} ms  "
            f"server exit {shown['server_exit_code']}"
        )
    return 0
