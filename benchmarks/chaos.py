"""Chaos: the attacks of the reliability review, one after the other, against a real
`resolver serve`; how much memory does it take and does `/healthz` stay fast meanwhile?

`python -m benchmarks chaos [--quick] [--rounds N] [--only PHASE] [--slow-clients N] [--save]`

`--rounds N` runs every phase N times, each round against a fresh service (and an emptied
Redis), and ends with a summary: per phase the median and the max of its worst `/healthz`
over the rounds, the failed probes and the lost requests (issue 30's figure is
`--quick --rounds 5`). `--only` runs the phases named (repeatable), for working on one attack.

Three processes: the service (`python -m resolver serve`, rules-only, started with
`ulimit -n` = `--service-nofile`, 1024 by default as in many containers), the upstream fakes
(this module with `--fakes`, so serving 30 MiB answers costs the measuring process
nothing), and this one, which attacks, samples the service's RSS every 20 ms and asks
`/healthz` every 50 ms on a fresh connection (2 s without an answer counts as a failure).

Phases (each reports peak RSS, the worst and median `/healthz` latency, failed probes, and
what the attackers got back):
- `gzip-bombs`: concurrent POSTs of a 5 MB gzip body that inflates to about 5 GB;
- `huge-tool-answers`: concurrent MCP proxy calls whose tool answers 30 MiB of JSON;
- `huge-error-bodies`: pipeline requests whose ontology-query answers a 500 or a 409 with a
  30 MiB body, or a 200 whose gzip body inflates to about 1 GB;
- `schema-bomb`: action recall of an MCP tool whose 9 KB `inputSchema` refers to its siblings
  (16 × 16, three hops: 65,536 schemas once inlined);
- `redos-pattern`: MCP proxy calls whose tool's `pattern` is `^(a+)+$`, with 26 a's and a b;
- `redis-poison`: LLM answers cached in Redis overwritten with 100 MB values and garbage
  (with `redis-server` installed; skipped otherwise);
- `toon-bomb`: MCP proxy calls asking for TOON of an 800 KB answer TOON writes slowly;
- `cost-bomb`: one `/v1/dynamic-params` request of 64 operators, 3 repair rounds and a 500 KB
  context, against a model that never answers JSON (LLM calls per request from `/metrics`);
- `unique-items` (issue 30): MCP proxy calls whose tool's `uniqueItems` array gets 4,000
  distinct objects;
- `large-input-schema`: MCP proxy calls of a tool whose `inputSchema` is about 300 KB;
- `huge-multiple`: an integer beyond a float's range against `multipleOf: 0.01`;
- `toon-3mb`: MCP proxy calls asking for TOON of a 3.4 MB answer;
- `browser`: the HTTP twins asked under a rebound `Host` with a foreign `Origin`, and POSTs
  without a Content-Type (what the attackers got: 403/415 rather than answers);
- `idle-keepalive`: 60 connections each sending a 0.8 MB body, then idling (RSS);
- `slow-headers`: `--slow-clients` connections sending their headers one byte a second;
- `stopped-worker`: another service with `--workers 2`, one worker SIGSTOPped, `/healthz` on
  fresh connections for 10 s;
- `shutdown-under-load`, `sighup-under-load` (issue 30): another service each, 24 clients
  (half keeping their connections alive) posting `/v1/time-window` while it gets SIGTERM or
  SIGHUP; `lost` counts requests sent on an established connection that got no answer.

The LLM is `resolver.testing.fake_llm` in the fakes' process: plausible answers, except for
the cost bomb's properties, which it answers with prose.

Exit status 1 when a phase got a 500, a `/healthz` probe failed (in `stopped-worker` also when
the worker was not replaced), or RSS passed `--max-rss-mb`.
`--service-root` runs the service from another checkout (for before/after figures).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import re
import resource
import shutil
import signal
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
import orjson
import psutil
from aiohttp import web

from benchmarks.procs import free_port
from benchmarks.results_dir import add_save_flag, results_dir
from resolver.testing.bombs import (
    REDOS_PATTERN,
    gzip_bomb,
    json_of_size,
    redos_subject,
    schema_bomb,
    toon_bomb,
)
from resolver.testing.fake_llm import Call, FakeLLM, Reply, plausible
from resolver.testing.fake_upstreams import (
    DEMO_KN,
    demo_mcp_tool,
    demo_object_type,
    full_access,
)

ROOT = Path(__file__).resolve().parents[1]
MB = 1 << 20
HUGE = 30 * MB
PROBE_EVERY_S = 0.05
PROBE_TIMEOUT_S = 2.0
KN_PATH = "/api/agent-retrieval/in/v1/kn/logic-property-resolver"
MCP_PATH = "/api/agent-retrieval/in/v1/mcp/proxy/mcp-huge/tools/huge/call"
PROXY = "/api/agent-retrieval/in/v1/mcp/proxy/mcp-chaos/tools/{tool}/call"
RECALL_PATH = "/api/agent-retrieval/in/v1/kn/get_action_info"
COST_PREFIX = "cost_"


# -- the fakes' process ---------------------------------------------------------------------


def _fakes(port: int, llm_port: int) -> int:
    """The upstreams, misbehaving on purpose (huge tool answers and error bodies, hostile tool
    schemas, answers TOON writes slowly), and the fake LLM on `llm_port`."""
    huge_answer = json_of_size(HUGE)
    huge_error = orjson.dumps({"description": "x" * HUGE})
    inflating = gzip_bomb(1 * MB)  # about 1 GB once inflated
    slow_toon = orjson.dumps(toon_bomb())
    base = "/api/agent-operator-integration/internal-v1"
    object_type = {"entries": [demo_object_type()]}
    tools = {
        "huge": {"name": "huge", "inputSchema": demo_mcp_tool()["inputSchema"]},
        "bomb": {"name": "bomb", "inputSchema": schema_bomb()},
        "redos": {
            "name": "redos",
            "inputSchema": {
                "type": "object",
                "properties": {"name": {"type": "string", "pattern": REDOS_PATTERN}},
            },
        },
        "toon": {"name": "toon", "inputSchema": {"type": "object"}},
        "toon3": {"name": "toon3", "inputSchema": {"type": "object"}},
        "unique": {
            "name": "unique",
            "inputSchema": {
                "type": "object",
                "properties": {"rows": {"type": "array", "uniqueItems": True}},
            },
        },
        "bigschema": {"name": "bigschema", "inputSchema": large_schema()},
        "multiple": {
            "name": "multiple",
            "inputSchema": {
                "type": "object",
                "properties": {"amount": {"type": "number", "multipleOf": 0.01}},
            },
        },
    }
    answer_3mb = orjson.dumps(
        {"result": [{"id": i, "name": f"n{i}", "tags": ["a", "b"]} for i in range(70_000)]}
    )

    async def object_types(request: web.Request) -> web.Response:
        return web.json_response(object_type)

    async def values(request: web.Request) -> web.Response:
        await request.read()
        how = request.match_info["ot_id"]
        if how == "ot_error500":
            return web.Response(status=500, body=huge_error, content_type="application/json")
        if how == "ot_error409":
            return web.Response(status=409, body=huge_error, content_type="application/json")
        return web.Response(
            body=inflating, content_type="application/json", headers={"Content-Encoding": "gzip"}
        )

    async def plan(request: web.Request) -> web.Response:
        return web.json_response({"effective_permissions": full_access(demo_object_type())})

    async def actions(request: web.Request) -> web.Response:
        await request.read()
        tool = request.match_info["at_id"].removeprefix("at_")
        return web.json_response(
            {
                "actions": [{"parameters": {}, "dynamic_params": {}}],
                "action_source": {"type": "mcp", "mcp_id": "mcp-chaos", "tool_name": tool},
            }
        )

    async def tool_list(request: web.Request) -> web.Response:
        return web.json_response({"tools": list(tools.values())})

    async def call(request: web.Request) -> web.Response:
        body = await request.json()
        if body.get("tool_name") == "toon":
            return web.Response(body=slow_toon, content_type="application/json")
        if body.get("tool_name") == "toon3":
            return web.Response(body=answer_3mb, content_type="application/json")
        if body.get("tool_name") == "huge":
            return web.Response(body=huge_answer, content_type="application/json")
        return web.json_response({"content": [{"type": "text", "text": "ok"}], "isError": False})

    app = web.Application(client_max_size=4 * MB)
    kn = "/api/ontology-query/in/v1/knowledge-networks/{kn}"
    app.router.add_get(
        "/api/ontology-manager/in/v1/knowledge-networks/{kn}/object-types/{ot_id}", object_types
    )
    app.router.add_post(kn + "/object-types/{ot_id}/properties", values)
    app.router.add_get(kn + "/object-types/{ot_id}/schema", plan)
    app.router.add_post(kn + "/action-types/{at_id}", actions)
    app.router.add_get(base + "/mcp/proxy/{mcp_id}/tools", tool_list)
    app.router.add_post(base + "/mcp/proxy/{mcp_id}/tool/call", call)

    llm = FakeLLM()

    def answer(call: Call) -> Reply:
        if (call.property_name or "").startswith(COST_PREFIX):
            return Reply(content="I would rather explain this in prose than write JSON.")
        return plausible(call)

    llm.respond(answer)

    async def serve_both() -> None:
        runners = [web.AppRunner(app, access_log=None), web.AppRunner(llm.app(), access_log=None)]
        for runner, at in zip(runners, (port, llm_port), strict=True):
            await runner.setup()
            await web.TCPSite(runner, "127.0.0.1", at).start()
        await asyncio.Event().wait()  # until SIGTERM

    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(serve_both())
    return 0


def large_schema(properties: int = 2_500) -> dict[str, Any]:
    """An `inputSchema` of about 300 KB: many plain properties."""
    return {
        "type": "object",
        "properties": {
            f"field_{i}": {
                "type": "string",
                "description": f"field number {i} of a generous upstream schema",
                "enum": [f"value_{i}_{n}" for n in range(4)],
            }
            for i in range(properties)
        },
    }


# -- measuring --------------------------------------------------------------------------------


@dataclass
class Phase:
    """What one attack did to the service."""

    name: str
    rss_before: int = 0
    rss_peak: int = 0
    latencies: list[float] = field(default_factory=list)
    failures: int = 0
    outcomes: Counter[str] = field(default_factory=Counter)
    seconds: float = 0.0
    extra: dict[str, Any] = field(default_factory=dict)

    def report(self) -> dict[str, Any]:
        """The phase's figures, in MB and ms."""
        latencies = sorted(self.latencies)
        return {
            "seconds": round(self.seconds, 1),
            "rss_before_mb": round(self.rss_before / MB, 1),
            "rss_peak_mb": round(self.rss_peak / MB, 1),
            "healthz_worst_ms": round(latencies[-1] * 1000, 1) if latencies else None,
            "healthz_p50_ms": round(statistics.median(latencies) * 1000, 1) if latencies else None,
            "healthz_probes": len(latencies) + self.failures,
            "healthz_failures": self.failures,
            "outcomes": dict(sorted(self.outcomes.items())),
            **self.extra,
        }


async def _sample_rss(
    process: psutil.Process, phase: Phase, stop: asyncio.Event, *, tree: bool = False
) -> None:
    while not stop.is_set():
        with contextlib.suppress(psutil.Error):
            members = [process, *process.children()] if tree else [process]
            phase.rss_peak = max(phase.rss_peak, *(m.memory_info().rss for m in members))
        await asyncio.sleep(0.02)


async def _probe(url: str, phase: Phase, stop: asyncio.Event) -> None:
    timeout = aiohttp.ClientTimeout(total=PROBE_TIMEOUT_S)
    connector = aiohttp.TCPConnector(force_close=True)  # a fresh connection each time
    async with aiohttp.ClientSession(timeout=timeout, connector=connector) as session:
        while not stop.is_set():
            started = time.monotonic()
            try:
                async with session.get(url + "/healthz") as response:
                    await response.read()
                    ok = response.status == 200
            except (aiohttp.ClientError, TimeoutError, OSError):
                ok = False
            if ok:
                phase.latencies.append(time.monotonic() - started)
            else:
                phase.failures += 1
            await asyncio.sleep(PROBE_EVERY_S)


async def _measured(
    name: str,
    process: psutil.Process,
    url: str,
    attack: Callable[[Phase], Awaitable[None]],
    *,
    fresh: bool = False,
) -> Phase:
    """`attack` while RSS (of `process`, with its children when `fresh`: a process tree) is
    sampled and `/healthz` probed."""
    phase = Phase(name, rss_before=process.memory_info().rss)
    phase.rss_peak = phase.rss_before
    stop = asyncio.Event()
    watchers = [
        asyncio.create_task(_sample_rss(process, phase, stop, tree=fresh)),
        asyncio.create_task(_probe(url, phase, stop)),
    ]
    started = time.monotonic()
    try:
        await attack(phase)
    finally:
        phase.seconds = time.monotonic() - started
        await asyncio.sleep(0.5)  # what the attack leaves behind counts too
        stop.set()
        await asyncio.gather(*watchers)
    print(f"  {name}: {json.dumps(phase.report(), ensure_ascii=False)}", flush=True)
    return phase


# -- the attacks --------------------------------------------------------------------------------


async def _gzip_bombs(url: str, phase: Phase, concurrent: int, rounds: int) -> None:
    bomb = gzip_bomb(5 * MB)
    host, port = url.removeprefix("http://").split(":")

    async def one() -> None:
        try:
            reader, writer = await asyncio.open_connection(host, int(port))
        except OSError as exc:
            phase.outcomes[f"connect {type(exc).__name__}"] += 1
            return
        writer.write(
            b"POST /v1/dynamic-params HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json"
            b"\r\nContent-Encoding: gzip\r\nContent-Length: "
            + str(len(bomb)).encode()
            + b"\r\n\r\n"
        )

        async def send() -> None:
            with contextlib.suppress(ConnectionError):
                for at in range(0, len(bomb), 1 << 16):
                    writer.write(bomb[at : at + (1 << 16)])
                    await writer.drain()

        sending = asyncio.create_task(send())
        try:
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 20)
            phase.outcomes[head.split(b" ", 2)[1].decode()] += 1
            await asyncio.wait_for(reader.read(), 30)  # until the service hangs up
        except (TimeoutError, ConnectionError, asyncio.IncompleteReadError) as exc:
            phase.outcomes[type(exc).__name__] += 1
        finally:
            sending.cancel()
            writer.close()

    for _ in range(rounds):
        await asyncio.gather(*(one() for _ in range(concurrent)))


async def _posts(
    url: str, path: str, body: Any, phase: Phase, *, concurrent: int, rounds: int
) -> None:
    timeout = aiohttp.ClientTimeout(total=120)
    async with aiohttp.ClientSession(timeout=timeout) as session:

        async def one() -> None:
            try:
                async with session.post(url + path, json=body) as response:
                    size = len(await response.read())
                    phase.outcomes[f"{response.status} ({size // MB} MB)"] += 1
            except (aiohttp.ClientError, TimeoutError) as exc:
                phase.outcomes[type(exc).__name__] += 1

        for _ in range(rounds):
            await asyncio.gather(*(one() for _ in range(concurrent)))


def _kn_body(ot_id: str) -> dict[str, Any]:
    return {
        "kn_id": DEMO_KN,
        "ot_id": ot_id,
        "query": "当前的获批药品数量",
        "_instance_identities": [{"company_id": "c1"}],
        "properties": ["approved_drug_count"],
    }


async def _huge_error_bodies(url: str, phase: Phase, concurrent: int, rounds: int) -> None:
    for ot_id in ("ot_error500", "ot_error409", "ot_inflating200"):
        await _posts(url, KN_PATH, _kn_body(ot_id), phase, concurrent=concurrent, rounds=rounds)


async def _schema_bomb(url: str, phase: Phase, rounds: int) -> None:
    body = {"kn_id": DEMO_KN, "at_id": "at_bomb", "unique_identity": {"company_id": "c1"}}
    await _posts(url, RECALL_PATH, body, phase, concurrent=4, rounds=rounds)


async def _redos(url: str, phase: Phase, rounds: int) -> None:
    body = {"name": redos_subject(26)}
    await _posts(url, PROXY.format(tool="redos"), body, phase, concurrent=4, rounds=rounds)


async def _raw_posts(
    url: str, path: str, body: bytes, phase: Phase, headers: dict[str, str], *, count: int
) -> None:
    timeout = aiohttp.ClientTimeout(total=120)
    async with aiohttp.ClientSession(timeout=timeout) as session:

        async def one() -> None:
            try:
                async with session.post(
                    url + path, data=body, headers=headers, skip_auto_headers=["Content-Type"]
                ) as response:
                    await response.read()
                    phase.outcomes[str(response.status)] += 1
            except (aiohttp.ClientError, TimeoutError) as exc:
                phase.outcomes[type(exc).__name__] += 1

        await asyncio.gather(*(one() for _ in range(count)))


async def _unique_items(url: str, phase: Phase, rounds: int) -> None:
    rows = [{"id": i, "tags": ["a", {"k": i % 7}]} for i in range(4_000)]
    body = orjson.dumps({"rows": rows})
    for _ in range(rounds):
        await _raw_posts(url, PROXY.format(tool="unique"), body, phase, _JSON, count=2)


async def _large_input_schema(url: str, phase: Phase, rounds: int) -> None:
    body = orjson.dumps({"field_1": "value_1_2"})
    for _ in range(rounds * 4):
        await _raw_posts(url, PROXY.format(tool="bigschema"), body, phase, _JSON, count=1)


async def _huge_multiple(url: str, phase: Phase, rounds: int) -> None:
    body = b'{"amount": 1' + b"0" * 400 + b"}"
    for _ in range(rounds):
        await _raw_posts(url, PROXY.format(tool="multiple"), body, phase, _JSON, count=4)


async def _toon_3mb(url: str, phase: Phase, rounds: int) -> None:
    path = PROXY.format(tool="toon3") + "?response_format=toon"
    for _ in range(rounds):
        await _raw_posts(url, path, b"{}", phase, _JSON, count=4)


async def _browser(url: str, phase: Phase) -> None:
    body = orjson.dumps({"text": "上个季度"})
    rebound = {"Host": "rebound.attacker.example", "Origin": "http://rebound.attacker.example"}
    rebound.update(_JSON)
    for path in ("/v1/time-window", KN_PATH, RECALL_PATH):
        await _raw_posts(url, path, body, phase, rebound, count=2)
        await _raw_posts(url, path, body, phase, {}, count=2)  # no Content-Type: no CORS preflight


async def _idle_keepalive(url: str, phase: Phase, connections: int = 60) -> None:
    host, port = url.removeprefix("http://").split(":")
    body = orjson.dumps({"text": "上个季度", "pad": "x" * 800_000})
    idle = []
    try:
        for _ in range(connections):
            reader, writer = await asyncio.open_connection(host, int(port))
            writer.write(
                b"POST /v1/time-window HTTP/1.1\r\nHost: localhost\r\n"
                b"Content-Type: application/json\r\nContent-Length: "
                + str(len(body)).encode()
                + b"\r\n\r\n"
                + body
            )
            head = await reader.readuntil(b"\r\n\r\n")
            phase.outcomes[head.split(b" ", 2)[1].decode()] += 1
            length = next(
                int(line.split(b":", 1)[1])
                for line in head.split(b"\r\n")
                if line.lower().startswith(b"content-length:")
            )
            await reader.readexactly(length)
            idle.append(writer)
        await asyncio.sleep(1.0)
    finally:
        for writer in idle:
            writer.close()


_JSON = {"Content-Type": "application/json"}


async def _toon_bomb(url: str, phase: Phase, rounds: int) -> None:
    path = PROXY.format(tool="toon") + "?response_format=toon"
    await _posts(url, path, {}, phase, concurrent=4, rounds=rounds)


def _cost_body(properties: int, context_bytes: int) -> dict[str, Any]:
    return {
        "logic_properties": [
            {
                "name": f"{COST_PREFIX}{i}",
                "type": "operator",
                "parameters": [{"name": "target", "type": "STRING", "value_from": "input"}],
            }
            for i in range(properties)
        ],
        "query": "分析这些指标",
        "additional_context": "说明：" + "很长的背景" * (context_bytes // 15),
        "now_ms": 1_762_996_342_241,
        "timezone": "Asia/Shanghai",
        "options": {"max_repair_rounds": 3},
    }


async def _metric_sum(url: str, name: str) -> float:
    """A counter of the service's /metrics, summed over its labels."""
    async with aiohttp.ClientSession() as session, session.get(url + "/metrics") as response:
        text = (await response.read()).decode()
    pattern = rf"^{re.escape(name)}(?:\{{[^}}]*\}})? ([0-9.e+]+)$"
    return sum(float(match.group(1)) for match in re.finditer(pattern, text, re.M))


async def _cost_bomb(url: str, phase: Phase, rounds: int) -> None:
    before = await _metric_sum(url, "resolver_llm_calls_total")
    body = _cost_body(64, 500_000)
    await _posts(url, "/v1/dynamic-params", body, phase, concurrent=1, rounds=rounds)
    after = await _metric_sum(url, "resolver_llm_calls_total")
    phase.extra["llm_calls_per_request"] = round((after - before) / rounds, 1)


async def _redis_poison(url: str, redis_url: str | None, phase: Phase, rounds: int) -> None:
    if redis_url is None:
        phase.outcomes["skipped: no redis-server"] += 1
        return
    import redis.asyncio

    body = {
        "logic_properties": [
            {
                "name": "risk_score",
                "type": "operator",
                "parameters": [{"name": "company_id", "type": "STRING", "value_from": "input"}],
            }
        ],
        "query": "企业c1的风险评分",
        "now_ms": 1_762_996_342_241,
    }
    client = redis.asyncio.Redis.from_url(redis_url, socket_timeout=10)
    errors_before = await _metric_sum(url, "resolver_redis_errors_total")
    try:
        for _ in range(rounds):
            # A huge value, then garbage: each read by every replica for the whole TTL.
            for poison in (b"x" * (100 * MB), b'{"content": 42, "usage": "lots"}'):
                await _posts(url, "/v1/dynamic-params", body, Phase("warm"), concurrent=1, rounds=1)
                for key in [key async for key in client.scan_iter("*llm-cache*")]:
                    await client.set(key, poison, px=300_000)
                await _posts(url, "/v1/dynamic-params", body, phase, concurrent=6, rounds=1)
    finally:
        await client.aclose()
    errors = await _metric_sum(url, "resolver_redis_errors_total") - errors_before
    phase.extra["redis_errors"] = round(errors)


async def _slow_headers(url: str, phase: Phase, clients: int, hold_s: float) -> None:
    host, port = url.removeprefix("http://").split(":")
    writers: list[asyncio.StreamWriter] = []
    for _ in range(clients):
        try:
            _, writer = await asyncio.open_connection(host, int(port))
        except OSError as exc:
            phase.outcomes[f"connect {type(exc).__name__}"] += 1
            continue
        writer.write(b"POST /v1/dynamic-params HTTP/1.1\r\nHost: localhost\r\nX-Slow: ")
        writers.append(writer)
    phase.outcomes["connected"] = len(writers)
    ended = time.monotonic() + hold_s
    while time.monotonic() < ended:
        await asyncio.sleep(1.0)
        for writer in writers:
            if not writer.is_closing():
                writer.write(b"a")
    phase.outcomes["closed by the service"] = sum(
        1 for w in writers if w.is_closing() or w.transport.get_extra_info("socket") is None
    )
    for writer in writers:
        writer.close()


# -- running it -----------------------------------------------------------------------------------


def _raise_nofile(limit: int | None) -> Callable[[], None]:
    def apply() -> None:
        if limit is not None:
            resource.setrlimit(resource.RLIMIT_NOFILE, (limit, limit))

    return apply


async def _wait_up(url: str, within_s: float = 30.0) -> None:
    deadline = time.monotonic() + within_s
    async with aiohttp.ClientSession() as session:
        while time.monotonic() < deadline:
            with contextlib.suppress(aiohttp.ClientError):
                async with session.get(url) as response:
                    if response.status < 500:
                        return
            await asyncio.sleep(0.1)
    raise RuntimeError(f"{url} did not come up")


async def _start_service(
    root: Path, port: int, env: dict[str, str], nofile: int | None, *extra: str
) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "resolver",
        "serve",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        *extra,
        cwd=root,
        env={**env, "PYTHONPATH": str(root)},
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.DEVNULL,
        preexec_fn=_raise_nofile(nofile),  # the child's own limit
    )


@contextlib.asynccontextmanager
async def _redis() -> Any:
    """A redis-server on a loopback port for the run (None without one installed)."""
    binary = shutil.which("redis-server")
    if binary is None:
        yield None
        return
    port = free_port()
    with tempfile.TemporaryDirectory(prefix="chaos-redis-") as directory:
        process = await asyncio.create_subprocess_exec(
            binary,
            *("--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"),
            *("--dir", directory, "--loglevel", "warning", "--maxmemory", "1gb"),
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.DEVNULL,
        )
        await asyncio.sleep(0.5)
        try:
            yield f"redis://127.0.0.1:{port}/0"
        finally:
            process.kill()
            await process.wait()


async def _stopped_worker(root: Path, env: dict[str, str], seconds: float) -> Phase:
    """Another service, `--workers 2`; one worker SIGSTOPped; `/healthz` on fresh connections."""
    port = free_port()
    service = await _start_service(
        root, port, {**env, "RESOLVER_WORKER_HEARTBEAT_TIMEOUT_S": "2"}, None, "--workers", "2"
    )
    url = f"http://127.0.0.1:{port}"
    victim: psutil.Process | None = None
    try:
        await _wait_up(url + "/healthz")
        tree = psutil.Process(service.pid)
        for _ in range(100):
            if len(tree.children()) == 2:
                break
            await asyncio.sleep(0.1)
        await asyncio.sleep(1.0)
        victim = tree.children()[0]
        os.kill(victim.pid, signal.SIGSTOP)
        phase = await _measured(
            "stopped-worker", tree, url, lambda phase: asyncio.sleep(seconds), fresh=True
        )
        phase.extra["victim_replaced"] = victim.pid not in {c.pid for c in tree.children()}
        return phase
    finally:
        if victim is not None and victim.is_running():
            with contextlib.suppress(psutil.Error, ProcessLookupError):
                os.kill(victim.pid, signal.SIGKILL)
        service.send_signal(signal.SIGTERM)
        try:
            await asyncio.wait_for(service.wait(), 15)
        except TimeoutError:
            service.kill()
            await service.wait()


_WINDOW = orjson.dumps({"text": "最近3个月", "now_ms": 1762996342241})


async def _load_client(
    port: int, keep_alive: bool, stop: asyncio.Event, tally: Counter[str]
) -> None:
    request = (
        b"POST /v1/time-window HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
        + (b"" if keep_alive else b"Connection: close\r\n")
        + b"Content-Length: "
        + str(len(_WINDOW)).encode()
        + b"\r\n\r\n"
        + _WINDOW
    )
    reader = writer = None
    while not stop.is_set():
        if writer is None:
            try:
                reader, writer = await asyncio.open_connection("127.0.0.1", port)
            except OSError:
                tally["refused"] += 1
                await asyncio.sleep(0.005)
                continue
        assert reader is not None
        closes = True
        try:
            writer.write(request)
            await writer.drain()
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
            lines = head.lower().split(b"\r\n")
            length = next(
                int(x.split(b":", 1)[1]) for x in lines if x.startswith(b"content-length")
            )
            await reader.readexactly(length)
            tally["answered"] += 1
            closes = b"connection: close" in lines
        except (OSError, asyncio.IncompleteReadError, TimeoutError):
            tally["lost"] += 1
        if closes or not keep_alive:
            writer.close()
            reader = writer = None


async def _stop_under_load(
    root: Path, env: dict[str, str], name: str, sig: signal.Signals, workers: int
) -> Phase:
    """Another service under load from 24 clients gets `sig`; requests lost at the boundary."""
    port = free_port()
    service = await _start_service(
        root, port, {**env, "RESOLVER_DRAIN_S": "0.5"}, None, "--workers", str(workers)
    )
    url = f"http://127.0.0.1:{port}"
    phase = Phase(name)
    tally: Counter[str] = Counter()
    stop = asyncio.Event()
    try:
        await _wait_up(url + "/healthz")
        await asyncio.sleep(1.0)
        clients = [
            asyncio.create_task(_load_client(port, index % 2 == 0, stop, tally))
            for index in range(24)
        ]
        started = time.monotonic()
        while tally["answered"] < 300 and time.monotonic() - started < 20:  # noqa: ASYNC110
            await asyncio.sleep(0.05)
        service.send_signal(sig)
        try:
            code = await asyncio.wait_for(service.wait(), 20)
        except TimeoutError:
            code = None
        await asyncio.sleep(0.3)
        stop.set()
        await asyncio.gather(*clients)
        phase.outcomes.update(tally)
        phase.extra.update(lost=tally["lost"], exit_code=code, workers=workers)
        print(f"  {name}: {json.dumps(phase.report(), ensure_ascii=False)}", flush=True)
        return phase
    finally:
        stop.set()
        if service.returncode is None:
            service.kill()
            await service.wait()


async def _run(args: argparse.Namespace) -> dict[str, Any]:
    async with _redis() as redis_url:
        return await _run_with(args, redis_url)


# The phases that start a service of their own, after those of the shared service.
_OWN_SERVICE = ("stopped-worker", "shutdown-under-load", "sighup-under-load")


def phase_names() -> list[str]:
    """Every phase, in the order they run."""
    return [*_SHARED_PHASES, *_OWN_SERVICE]


_SHARED_PHASES = (
    "idle",
    "gzip-bombs",
    "huge-tool-answers",
    "huge-error-bodies",
    "schema-bomb",
    "redos-pattern",
    "redis-poison",
    "toon-bomb",
    "cost-bomb",
    "unique-items",
    "large-input-schema",
    "huge-multiple",
    "toon-3mb",
    "browser",
    "idle-keepalive",
    "slow-headers",
)


async def _run_with(args: argparse.Namespace, redis_url: str | None) -> dict[str, Any]:
    fakes_port, llm_port = free_port(), free_port()
    fakes = await asyncio.create_subprocess_exec(
        sys.executable,
        *("-m", "benchmarks", "chaos", "--fakes", str(fakes_port), "--llm", str(llm_port)),
        cwd=ROOT,
    )
    fakes_url = f"http://127.0.0.1:{fakes_port}"
    env = {k: v for k, v in os.environ.items() if not k.startswith("RESOLVER_")}
    env.update(
        RESOLVER_ONTOLOGY_MANAGER_URL=fakes_url,
        RESOLVER_ONTOLOGY_QUERY_URL=fakes_url,
        RESOLVER_OPERATOR_INTEGRATION_URL=fakes_url,
        RESOLVER_PUBLIC_URL="http://resolver.chaos",
        RESOLVER_LLM_BASE_URL=f"http://127.0.0.1:{llm_port}/v1",
        RESOLVER_LLM_API_KEY="sk-chaos",
        RESOLVER_LOG_LEVEL="WARNING",
        RESOLVER_UPSTREAM_TIMEOUT_S="60",
        RESOLVER_REQUEST_TIMEOUT_S="60",
    )
    if redis_url is not None:
        env.update(RESOLVER_REDIS_URL=redis_url, RESOLVER_LLM_CACHE_TTL_S="300")
    root: Path = args.service_root or ROOT
    # This process opens the slow clients: it needs more descriptors than the service has.
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(
        resource.RLIMIT_NOFILE, (max(soft, min(hard, args.slow_clients + 512)), hard)
    )
    rounds: list[dict[str, dict[str, Any]]] = []
    try:
        await _wait_up(fakes_url + "/nowhere")
        print(f"chaos against {root} (ulimit -n {args.service_nofile}):", flush=True)
        for number in range(1, args.rounds + 1):
            if args.rounds > 1:
                print(f" round {number} of {args.rounds}:", flush=True)
            await _flush_redis(redis_url)  # each round starts from an empty cache
            phases = await _one_round(args, root, env, fakes_url, redis_url)
            rounds.append({phase.name: phase.report() for phase in phases})
    finally:
        await _stop_child(fakes)
    report: dict[str, Any] = {
        "service_root": str(root),
        "service_nofile": args.service_nofile,
        "slow_clients": args.slow_clients,
        "bombs_per_round": args.bombs,
        "attack_repeats": _repeats(args),
        "rounds": args.rounds,
        "redis": redis_url is not None,
        "load_avg_at_end": [round(v, 2) for v in os.getloadavg()],
        "summary": summarize(rounds),
    }
    if len(rounds) == 1:
        report["phases"] = rounds[0]
    else:
        report["rounds_phases"] = rounds
    return report


async def _stop_child(child: asyncio.subprocess.Process) -> None:
    """SIGTERM, then SIGKILL after 15 s."""
    if child.returncode is None:
        child.send_signal(signal.SIGTERM)
    try:
        await asyncio.wait_for(child.wait(), 15)
    except TimeoutError:
        child.kill()
        await child.wait()


def _repeats(args: argparse.Namespace) -> int:
    """How many times each attack is sent within a phase (`--quick`: once)."""
    return 1 if args.quick else 3


async def _flush_redis(redis_url: str | None) -> None:
    if redis_url is None:
        return
    import redis.asyncio

    client = redis.asyncio.Redis.from_url(redis_url, socket_timeout=10)
    try:
        await client.flushall()
    finally:
        await client.aclose()


async def _one_round(
    args: argparse.Namespace,
    root: Path,
    env: dict[str, str],
    fakes_url: str,
    redis_url: str | None,
) -> list[Phase]:
    """Every chosen phase once: a fresh service for the shared phases, then the phases that
    start their own."""
    wanted = set(args.only or phase_names())
    repeats = _repeats(args)
    phases: list[Phase] = []
    if wanted & set(_SHARED_PHASES):
        port = free_port()
        url = f"http://127.0.0.1:{port}"
        service = await _start_service(root, port, env, args.service_nofile)
        try:
            await _wait_up(url + "/healthz")
            process = psutil.Process(service.pid)
            plan = _shared_plan(args, url, redis_url, repeats)
            for name in _SHARED_PHASES:
                if name in wanted:
                    phases.append(await _measured(name, process, url, plan[name]))
                    await asyncio.sleep(1.0)
        finally:
            await _stop_child(service)
    if "stopped-worker" in wanted:
        phases.append(await _stopped_worker(root, env, 4.0 if args.quick else 10.0))
    if "shutdown-under-load" in wanted:
        phases.append(await _stop_under_load(root, env, "shutdown-under-load", signal.SIGTERM, 2))
    if "sighup-under-load" in wanted:
        phases.append(await _stop_under_load(root, env, "sighup-under-load", signal.SIGHUP, 2))
    return phases


def _shared_plan(
    args: argparse.Namespace, url: str, redis_url: str | None, repeats: int
) -> dict[str, Callable[[Phase], Awaitable[None]]]:
    """The attack of each phase run against the shared service at `url`."""
    return {
        "idle": lambda phase: asyncio.sleep(2.0),
        "gzip-bombs": lambda phase: _gzip_bombs(url, phase, args.bombs, repeats),
        "huge-tool-answers": lambda phase: _posts(
            url,
            MCP_PATH,
            {"company_id": "c1", "channel": "email", "message": {"title": "t"}},
            phase,
            concurrent=12,
            rounds=repeats,
        ),
        "huge-error-bodies": lambda phase: _huge_error_bodies(url, phase, 12, repeats),
        "schema-bomb": lambda phase: _schema_bomb(url, phase, repeats),
        "redos-pattern": lambda phase: _redos(url, phase, repeats),
        "redis-poison": lambda phase: _redis_poison(url, redis_url, phase, repeats),
        "toon-bomb": lambda phase: _toon_bomb(url, phase, repeats),
        "cost-bomb": lambda phase: _cost_bomb(url, phase, repeats),
        "unique-items": lambda phase: _unique_items(url, phase, repeats),
        "large-input-schema": lambda phase: _large_input_schema(url, phase, repeats),
        "huge-multiple": lambda phase: _huge_multiple(url, phase, repeats),
        "toon-3mb": lambda phase: _toon_3mb(url, phase, repeats),
        "browser": lambda phase: _browser(url, phase),
        "idle-keepalive": lambda phase: _idle_keepalive(url, phase),
        "slow-headers": lambda phase: _slow_headers(
            url, phase, args.slow_clients, 5.0 if args.quick else 15.0
        ),
    }


def summarize(rounds: list[dict[str, dict[str, Any]]]) -> dict[str, dict[str, Any]]:
    """Per phase over the rounds: the median and the max of its worst `/healthz`, the failed
    probes and the lost requests summed (the issue's figure: the median of 5 rounds)."""
    summary: dict[str, dict[str, Any]] = {}
    for name in phase_names():
        reports = [phases[name] for phases in rounds if name in phases]
        if not reports:
            continue
        worst = [r["healthz_worst_ms"] for r in reports if r["healthz_worst_ms"] is not None]
        row: dict[str, Any] = {
            "rounds": len(reports),
            "healthz_worst_ms_median": round(statistics.median(worst), 1) if worst else None,
            "healthz_worst_ms_max": max(worst) if worst else None,
            "healthz_worst_ms_each": worst,
            "healthz_failures": sum(r["healthz_failures"] for r in reports),
        }
        if any("lost" in r for r in reports):
            row["lost"] = sum(r.get("lost", 0) for r in reports)
        summary[name] = row
    return summary


def summary_table(summary: dict[str, dict[str, Any]]) -> str:
    """The summary as aligned text, one phase a line."""
    head = f"{'phase':<22}{'rounds':>7}{'worst /healthz ms: median':>27}{'max':>9}"
    lines = [head + f"{'failed probes':>15}{'lost':>6}"]
    for name, row in summary.items():
        median, most = row["healthz_worst_ms_median"], row["healthz_worst_ms_max"]
        lines.append(
            f"{name:<22}{row['rounds']:>7}{'-' if median is None else median:>27}"
            f"{'-' if most is None else most:>9}{row['healthz_failures']:>15}"
            f"{row.get('lost', '-'):>6}"
        )
    return "\n".join(lines)


def _problems(report: dict[str, Any], max_rss_mb: float) -> list[str]:
    problems: list[str] = []
    rounds = report.get("rounds_phases") or [report["phases"]]
    for number, phases in enumerate(rounds, start=1):
        where = f" (round {number})" if len(rounds) > 1 else ""
        for name, phase in phases.items():
            problems.extend(f"{name}{where}: {p}" for p in _phase_problems(name, phase, max_rss_mb))
    return problems


def _phase_problems(name: str, phase: dict[str, Any], max_rss_mb: float) -> list[str]:
    if name.endswith("-under-load"):
        if phase["lost"] or phase["exit_code"] != 0:
            return [f"{phase['lost']} requests lost, exit {phase['exit_code']}"]
        return []
    problems = []
    if name == "stopped-worker" and not phase.get("victim_replaced"):
        problems.append("the stopped worker was never replaced")
    # (stopped-worker: the workers share one accept queue, so no probe waits for the stopped
    # one; with a socket per worker, those hashed to it failed until it was replaced.)
    if phase["healthz_failures"]:
        problems.append(f"{phase['healthz_failures']} /healthz probes failed")
    if phase["rss_peak_mb"] > max_rss_mb:
        problems.append(f"RSS peaked at {phase['rss_peak_mb']} MB")
    if any(key.startswith("500") for key in phase["outcomes"]):
        problems.append("answers were 500")
    return problems


def main(argv: list[str]) -> int:
    """Run the chaos phases and print the report (JSON); exit 1 when the service did not hold."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks chaos")
    parser.add_argument(
        "--quick", action="store_true", help="each attack sent once per phase, 5 s of slow clients"
    )
    parser.add_argument(
        "--rounds",
        type=int,
        default=1,
        help="run every phase this many times, each round against a fresh service; the summary "
        "gives each phase's median and max worst /healthz (the issue-30 figure: --rounds 5)",
    )
    parser.add_argument(
        "--only",
        action="append",
        choices=phase_names(),
        metavar="PHASE",
        help="run only this phase (repeatable): " + ", ".join(phase_names()),
    )
    parser.add_argument("--bombs", type=int, default=8, help="gzip bombs sent at once")
    parser.add_argument("--slow-clients", type=int, default=1000)
    parser.add_argument("--service-nofile", type=int, default=1024, help="the service's ulimit -n")
    parser.add_argument("--max-rss-mb", type=float, default=400.0)
    parser.add_argument("--service-root", help=argparse.SUPPRESS)
    parser.add_argument("--fakes", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--llm", type=int, help=argparse.SUPPRESS)
    add_save_flag(parser)
    args = parser.parse_args(argv)
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    if args.service_root:
        args.service_root = Path(args.service_root).resolve()
    if args.fakes is not None:
        return _fakes(args.fakes, args.llm or free_port())
    report = asyncio.run(_run(args))
    report["problems"] = _problems(report, args.max_rss_mb)
    text = json.dumps(report, indent=2, ensure_ascii=False)
    out = results_dir(args.save)
    out.mkdir(parents=True, exist_ok=True)
    (out / "chaos.json").write_text(text + "\n", encoding="utf-8")
    print(text)
    print(summary_table(report["summary"]))
    return 1 if report["problems"] else 0
