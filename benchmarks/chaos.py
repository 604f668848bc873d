"""Chaos: the attacks of the reliability review, one after the other, against a real
`resolver serve`; how much memory does it take and does `/healthz` stay fast meanwhile?

`python -m benchmarks chaos [--quick] [--slow-clients 1000] [--save]`

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
- `slow-headers`: `--slow-clients` connections sending their headers one byte a second.

Exit status 1 when a phase got a 500, a `/healthz` probe failed, or RSS passed `--max-rss-mb`.
`--service-root` runs the service from another checkout (for before/after figures).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import resource
import signal
import statistics
import sys
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
from resolver.testing.bombs import gzip_bomb, json_of_size
from resolver.testing.fake_upstreams import (
    DEMO_KN,
    demo_mcp_tool,
    demo_object_type,
)

ROOT = Path(__file__).resolve().parents[1]
MB = 1 << 20
HUGE = 30 * MB
PROBE_EVERY_S = 0.05
PROBE_TIMEOUT_S = 2.0
KN_PATH = "/api/agent-retrieval/in/v1/kn/logic-property-resolver"
MCP_PATH = "/api/agent-retrieval/in/v1/mcp/proxy/mcp-huge/tools/huge/call"


# -- the fakes' process ---------------------------------------------------------------------


def _fakes(port: int) -> int:
    """The upstreams, misbehaving on purpose: huge tool answers and huge error bodies."""
    huge_answer = json_of_size(HUGE)
    huge_error = orjson.dumps({"description": "x" * HUGE})
    inflating = gzip_bomb(1 * MB)  # about 1 GB once inflated
    base = "/api/agent-operator-integration/internal-v1"
    object_type = {"entries": [demo_object_type()]}

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

    async def tool(request: web.Request) -> web.Response:
        return web.json_response(demo_mcp_tool())

    async def call(request: web.Request) -> web.Response:
        await request.read()
        return web.Response(body=huge_answer, content_type="application/json")

    app = web.Application(client_max_size=4 * MB)
    app.router.add_get(
        "/api/ontology-manager/in/v1/knowledge-networks/{kn}/object-types/{ot_id}", object_types
    )
    app.router.add_post(
        "/api/ontology-query/in/v1/knowledge-networks/{kn}/object-types/{ot_id}/properties", values
    )
    app.router.add_get(base + "/mcp/{mcp_id}/tools/{tool_name}", tool)
    app.router.add_post(base + "/mcp/{mcp_id}/tools/call", call)
    web.run_app(app, host="127.0.0.1", port=port, access_log=None, print=None)
    return 0


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
        }


async def _sample_rss(process: psutil.Process, phase: Phase, stop: asyncio.Event) -> None:
    while not stop.is_set():
        with contextlib.suppress(psutil.Error):
            phase.rss_peak = max(phase.rss_peak, process.memory_info().rss)
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
    name: str, process: psutil.Process, url: str, attack: Callable[[Phase], Awaitable[None]]
) -> Phase:
    phase = Phase(name, rss_before=process.memory_info().rss)
    phase.rss_peak = phase.rss_before
    stop = asyncio.Event()
    watchers = [
        asyncio.create_task(_sample_rss(process, phase, stop)),
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
            b"POST /v1/dynamic-params HTTP/1.1\r\nHost: chaos\r\nContent-Type: application/json"
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


async def _slow_headers(url: str, phase: Phase, clients: int, hold_s: float) -> None:
    host, port = url.removeprefix("http://").split(":")
    writers: list[asyncio.StreamWriter] = []
    for _ in range(clients):
        try:
            _, writer = await asyncio.open_connection(host, int(port))
        except OSError as exc:
            phase.outcomes[f"connect {type(exc).__name__}"] += 1
            continue
        writer.write(b"POST /v1/dynamic-params HTTP/1.1\r\nHost: chaos\r\nX-Slow: ")
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


async def _run(args: argparse.Namespace) -> dict[str, Any]:
    fakes_port, port = free_port(), free_port()
    fakes = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "benchmarks", "chaos", "--fakes", str(fakes_port), cwd=ROOT
    )
    fakes_url = f"http://127.0.0.1:{fakes_port}"
    env = {k: v for k, v in os.environ.items() if not k.startswith("RESOLVER_")}
    env.update(
        RESOLVER_ONTOLOGY_MANAGER_URL=fakes_url,
        RESOLVER_ONTOLOGY_QUERY_URL=fakes_url,
        RESOLVER_OPERATOR_INTEGRATION_URL=fakes_url,
        RESOLVER_PUBLIC_URL="http://resolver.chaos",
        RESOLVER_LOG_LEVEL="WARNING",
        RESOLVER_UPSTREAM_TIMEOUT_S="60",
        RESOLVER_REQUEST_TIMEOUT_S="60",
    )
    root: Path = args.service_root or ROOT
    service = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "resolver",
        "serve",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        cwd=root,
        env={**env, "PYTHONPATH": str(root)},
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.DEVNULL,
        preexec_fn=_raise_nofile(args.service_nofile),  # the child's own limit
    )
    # This process opens the slow clients: it needs more descriptors than the service has.
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(
        resource.RLIMIT_NOFILE, (max(soft, min(hard, args.slow_clients + 512)), hard)
    )
    url = f"http://127.0.0.1:{port}"
    phases: list[Phase] = []
    try:
        await _wait_up(url + "/healthz")
        await _wait_up(fakes_url + "/nowhere")
        process = psutil.Process(service.pid)
        rounds = 1 if args.quick else 3
        plan: list[tuple[str, Callable[[Phase], Awaitable[None]]]] = [
            ("idle", lambda phase: asyncio.sleep(2.0)),
            ("gzip-bombs", lambda phase: _gzip_bombs(url, phase, args.bombs, rounds)),
            (
                "huge-tool-answers",
                lambda phase: _posts(
                    url,
                    MCP_PATH,
                    {"company_id": "c1", "channel": "email", "message": {"title": "t"}},
                    phase,
                    concurrent=12,
                    rounds=rounds,
                ),
            ),
            ("huge-error-bodies", lambda phase: _huge_error_bodies(url, phase, 12, rounds)),
            (
                "slow-headers",
                lambda phase: _slow_headers(
                    url, phase, args.slow_clients, 5.0 if args.quick else 15.0
                ),
            ),
        ]
        print(f"chaos against {root} (ulimit -n {args.service_nofile}):", flush=True)
        for name, attack in plan:
            phases.append(await _measured(name, process, url, attack))
            await asyncio.sleep(1.0)
    finally:
        for child in (service, fakes):
            if child.returncode is None:
                child.send_signal(signal.SIGTERM)
        for child in (service, fakes):
            try:
                await asyncio.wait_for(child.wait(), 15)
            except TimeoutError:
                child.kill()
                await child.wait()
    return {
        "service_root": str(root),
        "service_nofile": args.service_nofile,
        "slow_clients": args.slow_clients,
        "bombs_per_round": args.bombs,
        "rounds": 1 if args.quick else 3,
        "load_avg_at_end": [round(v, 2) for v in os.getloadavg()],
        "phases": {phase.name: phase.report() for phase in phases},
    }


def _problems(report: dict[str, Any], max_rss_mb: float) -> list[str]:
    problems = []
    for name, phase in report["phases"].items():
        if phase["healthz_failures"]:
            problems.append(f"{name}: {phase['healthz_failures']} /healthz probes failed")
        if phase["rss_peak_mb"] > max_rss_mb:
            problems.append(f"{name}: RSS peaked at {phase['rss_peak_mb']} MB")
        if any(key.startswith("500") for key in phase["outcomes"]):
            problems.append(f"{name}: answers were 500")
    return problems


def main(argv: list[str]) -> int:
    """Run the chaos phases and print the report (JSON); exit 1 when the service did not hold."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks chaos")
    parser.add_argument(
        "--quick", action="store_true", help="one round per attack, 5 s of slow clients"
    )
    parser.add_argument("--bombs", type=int, default=8, help="gzip bombs sent at once")
    parser.add_argument("--slow-clients", type=int, default=1000)
    parser.add_argument("--service-nofile", type=int, default=1024, help="the service's ulimit -n")
    parser.add_argument("--max-rss-mb", type=float, default=400.0)
    parser.add_argument("--service-root", help=argparse.SUPPRESS)
    parser.add_argument("--fakes", type=int, help=argparse.SUPPRESS)
    add_save_flag(parser)
    args = parser.parse_args(argv)
    if args.service_root:
        args.service_root = Path(args.service_root).resolve()
    if args.fakes is not None:
        return _fakes(args.fakes)
    report = asyncio.run(_run(args))
    report["problems"] = _problems(report, args.max_rss_mb)
    text = json.dumps(report, indent=2, ensure_ascii=False)
    out = results_dir(args.save)
    out.mkdir(parents=True, exist_ok=True)
    (out / "chaos.json").write_text(text + "\n", encoding="utf-8")
    print(text)
    return 1 if report["problems"] else 0
