"""Soak: steady load with injected faults for a while; does the service hold steady?

`python -m benchmarks soak [--duration 60] [--rps 20] [--fault-rate 0.05]`

The service runs in a child process built exactly as `resolver serve` builds it (same
`create_app`, handler cancellation, shutdown grace) plus a reporter that writes the
process's own figures once a second: RSS, asyncio tasks, tasks running resolver code, LLM
calls in flight and waiting, open TCP connections from clients and to the LLM. The parent
serves the fake LLM on loopback, with `--fault-rate` of its answers faulty (429, 5xx, hangs,
bodies cut short, garbage, slow answers), and drives an open-loop load at `--rps` in which
1% of the clients also hang up mid-request. At the end it waits for the service to go idle
and reports RSS at start and end, the tasks and connections left, and the status breakdown.
Exit status 1 if RSS grew by 20 MB or more, anything was left behind, or any answer was 500.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import signal
import socket
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import orjson
import psutil
from aiohttp import web

from resolver.testing.fake_llm import Call, FakeLLM, Reply, plausible_values

MAX_RSS_GROWTH_MB = 20.0
WARMUP_S = 5.0
HANG_UP_RATE = 0.01
API_KEY = "sk-soak-not-a-real-key"


# -- the child: the service and its reporter ----------------------------------------------


def _child(port: int) -> int:
    """Serve like `resolver serve`, and report this process's figures on stdout."""
    from resolver.core.logs import configure_logging
    from resolver.core.settings import Settings
    from resolver.web.app import create_app

    settings = Settings()
    configure_logging(settings.log_level, settings.log_format, stream=sys.stderr)
    app = create_app(settings)

    async def reporter(app: web.Application) -> Any:
        task = asyncio.create_task(_report(app, port, settings.llm_base_url or ""))
        yield
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task

    app.cleanup_ctx.append(reporter)
    web.run_app(
        app,
        host="127.0.0.1",
        port=port,
        access_log=None,
        handler_cancellation=True,
        shutdown_timeout=settings.shutdown_grace_s,
        print=None,
    )
    return 0


async def _report(app: web.Application, port: int, llm_url: str) -> None:
    from resolver.web.servicekeys import SERVICES_KEY

    process = psutil.Process()
    llm_port = int(llm_url.rsplit(":", 1)[1].split("/", 1)[0])
    me = asyncio.current_task()
    while True:
        tasks = [t for t in asyncio.all_tasks() if t is not me and not t.done()]
        resolver_tasks = [
            t
            for t in tasks
            if "/resolver/" in getattr(t.get_coro(), "cr_code", _NO_CODE).co_filename
        ]
        connections = [
            c for c in process.net_connections(kind="tcp") if c.status == psutil.CONN_ESTABLISHED
        ]
        llm = app[SERVICES_KEY].params.llm
        assert llm is not None
        limiter = llm.limiter
        figures = {
            "t": time.monotonic(),
            "rss": process.memory_info().rss,
            "tasks": len(tasks),
            "resolver_tasks": len(resolver_tasks),
            "llm_inflight": limiter.inflight,
            "llm_pending": limiter.pending,
            "client_connections": sum(1 for c in connections if c.laddr.port == port),
            "llm_connections": sum(1 for c in connections if c.raddr and c.raddr.port == llm_port),
        }
        sys.stdout.write(json.dumps(figures) + "\n")
        sys.stdout.flush()
        await asyncio.sleep(1.0)


class _NoCode:
    co_filename = ""


_NO_CODE = _NoCode()


# -- the parent: fake LLM, load, report ---------------------------------------------------

FAULTS = ("429", "500", "503", "hang", "cut", "garbage", "slow")


def faulty(rate: float, rng: random.Random, tally: Counter[str]) -> Any:
    """A fake model answering validly in 20–80 ms, and with a fault at `rate`."""

    def responder(call: Call) -> Reply:
        name = call.property_name or "unknown"
        values = plausible_values(call.task)
        values.update({k: v for k, v in WINDOW.items() if k in values})
        good = orjson.dumps({name: values}).decode()
        if rng.random() >= rate:
            tally["ok"] += 1
            return Reply(content=good, delay_s=rng.uniform(0.02, 0.08))
        fault = rng.choice(FAULTS)
        tally[fault] += 1
        return {
            "429": Reply(status=429, headers={"Retry-After": "0.1"}),
            "500": Reply(status=500),
            "503": Reply(status=503),
            "hang": Reply(hang=True),
            "cut": Reply(content=good, cut_at=30),
            "garbage": Reply(body=b"<html>bad gateway"),
            "slow": Reply(content=good, delay_s=0.8),
        }[fault]

    return responder


WINDOW = {"start": "2025-08-01", "end": "2025-10-31"}


def bodies() -> list[dict[str, Any]]:
    """A handful of request shapes: 1 to 4 properties, metrics and operators."""

    def op(name: str) -> dict[str, Any]:
        return {
            "name": name,
            "type": "operator",
            "parameters": [
                {"name": "threshold", "type": "NUMBER", "value_from": "input"},
                {"name": "items", "type": "ARRAY", "value_from": "input"},
            ],
        }

    def metric(name: str) -> dict[str, Any]:
        params = [
            {"name": n, "value_from": "input", "if_system_generate": True}
            for n in ("instant", "start", "end", "step")
        ]
        params.append({"name": "region", "type": "STRING", "value_from": "input"})
        return {"name": name, "type": "metric", "parameters": params}

    base = {"now_ms": 1_762_996_342_241, "timezone": "Asia/Shanghai"}
    return [
        {**base, "logic_properties": [op("risk")], "query": "风险阈值0.8，看营收和利润"},
        {**base, "logic_properties": [metric("drugs")], "query": "华东的药品数量趋势"},
        {
            **base,
            "logic_properties": [op("a"), op("b"), metric("c")],
            "query": "三个指标",
            "options": {"max_concurrency": 3},
        },
        {
            **base,
            "logic_properties": [op(f"p{i}") for i in range(4)],
            "query": "四个算子",
            "options": {"max_concurrency": 2},
        },
    ]


@dataclass
class Soak:
    """What the parent learns while the soak runs."""

    figures: list[dict[str, Any]] = field(default_factory=list)
    reporting: asyncio.Event = field(default_factory=asyncio.Event)
    statuses: Counter[str] = field(default_factory=Counter)
    latencies: list[float] = field(default_factory=list)

    def latest(self) -> dict[str, Any]:
        return self.figures[-1] if self.figures else {}


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def _read_figures(stream: asyncio.StreamReader, soak: Soak) -> None:
    while line := await stream.readline():
        with contextlib.suppress(ValueError):
            soak.figures.append(json.loads(line))
            soak.reporting.set()


async def _one(
    session: aiohttp.ClientSession,
    url: str,
    body: dict[str, Any],
    soak: Soak,
    hang_up_after: float | None,
) -> None:
    started = time.monotonic()
    try:
        async with asyncio.timeout(hang_up_after), session.post(url, json=body) as response:
            await response.read()
    except TimeoutError:
        soak.statuses["client hung up" if hang_up_after else "client timeout"] += 1
        return
    except aiohttp.ClientError as exc:
        soak.statuses[f"client error {type(exc).__name__}"] += 1
        return
    soak.statuses[str(response.status)] += 1
    soak.latencies.append(time.monotonic() - started)


async def _wait_idle(soak: Soak, within_s: float) -> bool:
    deadline = time.monotonic() + within_s
    while time.monotonic() < deadline:
        latest = soak.latest()
        if latest and not any(
            latest[k]
            for k in (
                "resolver_tasks",
                "llm_inflight",
                "llm_pending",
                "client_connections",
                "llm_connections",
            )
        ):
            return True
        await asyncio.sleep(0.5)
    return False


async def _run(args: argparse.Namespace) -> dict[str, Any]:
    rng = random.Random(args.seed)
    tally: Counter[str] = Counter()
    fake = FakeLLM(responder=faulty(args.fault_rate, rng, tally))
    fake_runner = web.AppRunner(fake.app(), handler_cancellation=True)
    await fake_runner.setup()
    await web.TCPSite(fake_runner, "127.0.0.1", 0).start()
    llm_port = int(fake_runner.addresses[0][1])

    port = _free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("RESOLVER_")}
    env.update(
        RESOLVER_LLM_BASE_URL=f"http://127.0.0.1:{llm_port}/v1",
        RESOLVER_LLM_API_KEY=API_KEY,
        RESOLVER_LLM_TIMEOUT_S="1.0",
        RESOLVER_REQUEST_TIMEOUT_S="3.0",
        RESOLVER_LLM_MAX_INFLIGHT="32",
        RESOLVER_MAX_PENDING="64",
        RESOLVER_LOG_LEVEL="WARNING",
    )
    child = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "benchmarks",
        "soak",
        "--child",
        str(port),
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL,
    )
    soak = Soak()
    assert child.stdout is not None
    reader = asyncio.create_task(_read_figures(child.stdout, soak))
    url = f"http://127.0.0.1:{port}/v1/dynamic-params"
    shapes = bodies()
    try:
        async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=10)) as session:
            for _ in range(200):
                with contextlib.suppress(aiohttp.ClientError):
                    async with session.get(f"http://127.0.0.1:{port}/healthz") as response:
                        if response.status == 200:
                            break
                await asyncio.sleep(0.05)
            await soak.reporting.wait()
            idle_start = soak.latest()
            started = time.monotonic()
            interval = 1.0 / args.rps
            pending: set[asyncio.Task[None]] = set()
            warm: dict[str, Any] = {}
            sent = 0
            while (now := time.monotonic()) < started + args.duration:
                if not warm and now - started >= WARMUP_S:
                    warm = soak.latest()
                body = rng.choice(shapes)
                hang_up = rng.uniform(0.01, 0.2) if rng.random() < HANG_UP_RATE else None
                task = asyncio.create_task(_one(session, url, body, soak, hang_up))
                pending.add(task)
                task.add_done_callback(pending.discard)
                sent += 1
                await asyncio.sleep(max(0.0, started + sent * interval - time.monotonic()))
            if pending:
                await asyncio.wait(pending)
        idle = await _wait_idle(soak, within_s=15.0)
        end = soak.latest()
    finally:
        if child.returncode is None:
            child.send_signal(signal.SIGTERM)
        code = await asyncio.wait_for(child.wait(), timeout=30)
        reader.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await reader
        await fake_runner.cleanup()

    latencies = sorted(soak.latencies)
    mb = 1 << 20
    return {
        "duration_s": args.duration,
        "rps": args.rps,
        "fault_rate": args.fault_rate,
        "requests": sent,
        "statuses": dict(sorted(soak.statuses.items())),
        "llm_calls": dict(sorted(tally.items())),
        "latency_ms": {
            "p50": round(latencies[len(latencies) // 2] * 1000, 1) if latencies else None,
            "p99": round(latencies[int(len(latencies) * 0.99)] * 1000, 1) if latencies else None,
        },
        "rss_mb": {
            "idle_before_load": round(idle_start["rss"] / mb, 1),
            "after_warmup": round(warm.get("rss", idle_start["rss"]) / mb, 1),
            "end": round(end["rss"] / mb, 1),
            "growth_after_warmup": round((end["rss"] - warm.get("rss", idle_start["rss"])) / mb, 1),
        },
        "at_end": {
            "idle": idle,
            "resolver_tasks": end["resolver_tasks"],
            "asyncio_tasks": end["tasks"],
            "asyncio_tasks_before_load": idle_start["tasks"],
            "llm_inflight": end["llm_inflight"],
            "llm_pending": end["llm_pending"],
            "client_connections": end["client_connections"],
            "llm_connections": end["llm_connections"],
        },
        "exit_code": code,
    }


def _verdict(report: dict[str, Any]) -> list[str]:
    problems = []
    if report["rss_mb"]["growth_after_warmup"] >= MAX_RSS_GROWTH_MB:
        problems.append(f"RSS grew by {report['rss_mb']['growth_after_warmup']} MB")
    left = report["at_end"]
    problems.extend(
        f"{key} = {left[key]} at the end"
        for key in (
            "resolver_tasks",
            "llm_inflight",
            "llm_pending",
            "client_connections",
            "llm_connections",
        )
        if left[key]
    )
    if left["asyncio_tasks"] > left["asyncio_tasks_before_load"]:
        problems.append(
            f"{left['asyncio_tasks']} asyncio tasks at the end, "
            f"{left['asyncio_tasks_before_load']} before the load"
        )
    if report["statuses"].get("500"):
        problems.append(f"{report['statuses']['500']} answers were 500")
    if report["exit_code"] != 0:
        problems.append(f"the service exited {report['exit_code']}")
    return problems


def main(argv: list[str]) -> int:
    """Run the soak and print its report (JSON); exit 1 when the service did not hold."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks soak")
    parser.add_argument("--duration", type=float, default=60.0, help="seconds of load")
    parser.add_argument("--rps", type=float, default=20.0, help="requests per second")
    parser.add_argument("--fault-rate", type=float, default=0.05, help="share of faulty answers")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", help="also write the report to this file")
    parser.add_argument("--child", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child is not None:
        return _child(args.child)
    report = asyncio.run(_run(args))
    problems = _verdict(report)
    report["problems"] = problems
    text = json.dumps(report, indent=2, ensure_ascii=False)
    print(text)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            out.write(text + "\n")
    return 1 if problems else 0
