"""The business-time gold (`benchmarks/data/business_gold.jsonl`, written blind from SPEC §9.1 by
another engineer) through every face: the library (`read_business_window`), HTTP
(`POST /v1/time-window` of `resolver serve`), the MCP tool over Streamable HTTP and over stdio
(`resolver mcp`, the official `mcp` client) and the command line (`resolver time --jsonl`).
Rows with an `env` run in processes started with it.

Every face gives the same answer, and it is the gold's — window, baseline, status, the 400's
field — for every row (401 of 401). Every 200 asked for in `query_metric` shape validates
against the platform's published schema and rules (tests/windows/query_metric_checks.py).
"""

from __future__ import annotations

import asyncio
import json
import sys
import tempfile
from collections import defaultdict
from typing import Any

import aiohttp
import orjson
import pytest
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client

from benchmarks.gold import DATA
from resolver.testing.fake_llm import FakeLLM
from resolver.timeexpr.business import read_business_window
from resolver.timeexpr.query_metric import baseline_query_metric_time
from tests.helpers import ROOT, clean_env, serve
from tests.mcp_checks import result_json, sdk_client
from tests.windows.query_metric_checks import check_query_metric_time

pytestmark = pytest.mark.slow

ROWS: list[dict[str, Any]] = [
    json.loads(line)
    for line in (DATA / "business_gold.jsonl").read_text("utf-8").splitlines()
    if line.strip()
]
TOOL = "resolve_time_window"
Answer = tuple[int, dict[str, Any]]


def env_key(row: dict[str, Any]) -> str:
    return json.dumps(row.get("env") or {}, sort_keys=True)


def library_answer(row: dict[str, Any]) -> Answer:
    """The library's answer as the faces write it (status and the fields the gold holds)."""
    request = dict(row["request"])
    env = row.get("env") or {}
    text = request.pop("text")
    try:
        business = read_business_window(
            text,
            fiscal_year_start=request.get("fiscal_year_start"),
            fiscal_year_named_by=request.get("fiscal_year_named_by"),
            default_fiscal_year_start=env.get("RESOLVER_FISCAL_YEAR_START"),
            default_fiscal_year_named_by=env.get("RESOLVER_FISCAL_YEAR_NAMED_BY"),
            context=request.get("context"),
            now_ms=request["now_ms"],
            timezone=request["timezone"],
        )
    except (ValueError, TypeError) as exc:
        return 400, {"error": {"message": str(exc)}}
    if not business.settled:
        return 422, {"error": {"code": "TIME_UNSETTLED"}}
    window = business.window
    body: dict[str, Any] = {
        "instant": window.instant,
        "start": window.start,
        "end": window.end,
        "step": window.step,
    }
    if business.baseline is not None:
        base = business.baseline
        body["baseline"] = {
            "start": base.start_ms,
            "end": base.end_ms,
            "step": base.step,
            "kind": base.kind,
        }
        if request.get("shape") == "query_metric":
            body["baseline"]["query_metric_time"] = baseline_query_metric_time(base)
    if request.get("shape") == "query_metric":
        body["query_metric_time"] = business.query_metric_time()
    return 200, body


def matches(row: dict[str, Any], answer: Answer) -> bool:
    """Whether a face's answer is the gold's."""
    status, body = answer
    expected = row["expected"]
    if status != expected["status"]:
        return False
    if status == 400:
        return str(expected["field"]) in orjson.dumps(body).decode()
    if status != 200:
        return bool(body["error"]["code"] == "TIME_UNSETTLED")
    window = {key: body.get(key) for key in ("instant", "start", "end", "step")}
    if window != {key: expected[key] for key in ("instant", "start", "end", "step")}:
        return False
    baseline = body.get("baseline")
    if "baseline" not in expected:
        return baseline is None
    return baseline is not None and all(
        baseline.get(key) == value for key, value in expected["baseline"].items()
    )


def shape_checked(row: dict[str, Any], answer: Answer) -> None:
    status, body = answer
    if status == 200 and row["request"].get("shape") == "query_metric":
        check_query_metric_time(body["query_metric_time"])
        if body.get("baseline") is not None:
            check_query_metric_time(body["baseline"]["query_metric_time"])


def tool_answer(result: Any) -> Answer:
    body: dict[str, Any] = result_json(result)
    if result.is_error:
        return body["status"], body
    return 200, body


async def over_http(url: str, rows: list[dict[str, Any]]) -> list[Answer]:
    answers = []
    async with aiohttp.ClientSession() as session:
        for row in rows:
            async with session.post(f"{url}/v1/time-window", json=row["request"]) as response:
                answers.append((response.status, orjson.loads(await response.read())))
    return answers


async def over_mcp(client: Client, rows: list[dict[str, Any]]) -> list[Answer]:
    return [tool_answer(await client.call_tool(TOOL, row["request"])) for row in rows]


async def over_mcp_http(url: str, rows: list[dict[str, Any]]) -> list[Answer]:
    async with sdk_client(f"{url}/mcp") as client:
        return await over_mcp(client, rows)


async def over_mcp_stdio(env: dict[str, str], rows: list[dict[str, Any]]) -> list[Answer]:
    parameters = StdioServerParameters(
        command=sys.executable, args=["-m", "resolver", "mcp"], env=clean_env(**env), cwd=ROOT
    )
    with tempfile.TemporaryFile("w+") as stderr:
        async with Client(stdio_client(parameters, errlog=stderr), mode="legacy") as client:
            return await over_mcp(client, rows)


async def over_cli(env: dict[str, str], rows: list[dict[str, Any]]) -> list[Answer]:
    process = await asyncio.create_subprocess_exec(
        *(sys.executable, "-m", "resolver", "time", "--jsonl", "-"),
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        env=clean_env(**env),
        cwd=ROOT,
    )
    out, err = await process.communicate(
        b"".join(orjson.dumps(row["request"]) + b"\n" for row in rows)
    )
    bodies = [orjson.loads(line) for line in out.splitlines()]
    assert len(bodies) == len(rows), err
    return [
        (200 if "error" not in body else 422 if body["error"]["code"] == "TIME_UNSETTLED" else 400,
         body)
        for body in bodies
    ]  # fmt: skip


async def test_the_business_gold_through_every_face(fake: FakeLLM) -> None:
    groups: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in ROWS:
        groups[env_key(row)].append(row)
    faces: dict[str, dict[str, Answer]] = defaultdict(dict)
    for key, rows in groups.items():
        env: dict[str, str] = json.loads(key)
        async with serve(fake, RESOLVER_LOG_LEVEL="WARNING", **env) as service:
            http = await over_http(service.url, rows)
            mcp_http = await over_mcp_http(service.url, rows)
        mcp_stdio, cli = await asyncio.gather(over_mcp_stdio(env, rows), over_cli(env, rows))
        for face, answers in (
            ("http", http), ("mcp-http", mcp_http), ("mcp-stdio", mcp_stdio), ("cli", cli),
        ):  # fmt: skip
            for row, answer in zip(rows, answers, strict=True):
                faces[face][row["id"]] = answer
    wrong: list[Any] = []
    for row in ROWS:
        got = {"library": library_answer(row)} | {f: a[row["id"]] for f, a in faces.items()}
        for answer in got.values():
            shape_checked(row, answer)
        differing = {face: answer for face, answer in got.items() if not matches(row, answer)}
        if differing:
            wrong.append((row["id"], row["request"], row["expected"], differing))
    assert not wrong, wrong[:8]
    assert len(ROWS) == 401
    assert sum(row["request"].get("shape") == "query_metric" for row in ROWS) == 10
    assert not fake.calls
