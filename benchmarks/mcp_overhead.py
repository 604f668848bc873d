"""`python -m benchmarks mcp-overhead`: what an MCP call costs beside the HTTP endpoint.

The same request goes to `POST /v1/dynamic-params` and, as the `resolve_dynamic_params` tool, to
`POST /api/agent-retrieval/v1/mcp` (JSON-RPC `tools/call`, `MCP-Protocol-Version: 2025-06-18`,
the session id of an `initialize`, as the KWeaver client sends it), against real
`resolver serve` processes: one rules-only (the request is settled in code) and one over the
fake LLM process (one LLM call per request, result cache off). Two measures per scenario, in
one run:

- **CPU per request** (issue 24's target: MCP ≤ 1.5× HTTP). Three faces: HTTP and MCP of the
  service, and MCP of a twin started with `RESOLVER_MCP_FAST_PATH=false` (`mcp-sdk`: every call
  through the SDK's transport, as before the fast path). The services are pinned to one core,
  the load generator and the fake LLM to the others (when there are two or more). `--rounds`
  rounds, each one segment per face (the order rotating from round to round) of
  `--cpu-requests` requests from `--clients` closed-loop clients; a segment's figure is the
  serving process's CPU (user + system) during it divided by its requests. Medians over
  rounds, and each MCP face's ratio to HTTP: the median of the per-round ratios (the faces of
  a round met the same neighbours), with the ratio of the medians beside it.
- **Latency**: `--requests` pairs one at a time (HTTP, then MCP), client-side p50/p99 of each
  and what MCP adds. Each MCP answer is checked to carry the HTTP answer's `dynamic_params`.

With `--against REV` a third service runs another commit's source tree (`git archive`, the same
venv) beside them, and its HTTP and MCP faces join the rounds (`http-against`, `mcp-against`):
before/after of a change in one run, the MCP-only work (MCP − HTTP) of each side printed.

The load average is recorded at both ends: on a shared machine the ratio is the figure to
compare, the absolute CPU moves with the neighbours.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import aiohttp
import orjson
import psutil

from benchmarks.bodies import body, llm_properties, metric
from benchmarks.load import LoadConfig, run_load, run_with_loop
from benchmarks.procs import Proc, export_tree, start_fake, start_service
from benchmarks.results_dir import add_save_flag, results_dir
from benchmarks.rulesmeasure import SATURATED, SETTLE_S
from benchmarks.wrk import load_server, lua_script, run_wrk, wrk_path

MCP_PATH = "/api/agent-retrieval/v1/mcp"
HTTP_PATH = "/v1/dynamic-params"
TOOL = "resolve_dynamic_params"
PROTOCOL = "2025-06-18"
SCENARIOS = {
    "rules-only": body([metric("approved_drug_count")], "最近3个月的药品数量趋势"),
    "fake-llm": body(llm_properties(1), "当前获批的抗肿瘤药品数量"),
}
TARGET_RATIO = 1.25  # issue 33: MCP tools/call within 1.25x the same HTTP request
_HTTP_HEADERS = {"Content-Type": "application/json"}
_MCP_HEADERS = {
    "Accept": "application/json, text/event-stream",
    "Content-Type": "application/json",
    "MCP-Protocol-Version": PROTOCOL,
}


def _call(request_id: int | str, arguments: Any) -> dict[str, Any]:
    return {
        "jsonrpc": "2.0",
        "id": request_id,
        "method": "tools/call",
        "params": {"name": TOOL, "arguments": arguments},
    }


async def _session_id(http: aiohttp.ClientSession, base_url: str) -> str:
    initialize = {
        "jsonrpc": "2.0",
        "id": 0,
        "method": "initialize",
        "params": {
            "protocolVersion": PROTOCOL,
            "capabilities": {},
            "clientInfo": {"name": "mcp-overhead", "version": "1"},
        },
    }
    async with http.post(base_url + MCP_PATH, json=initialize, headers=_MCP_HEADERS) as answer:
        await answer.read()
        return answer.headers["Mcp-Session-Id"]


# --- CPU per request ---------------------------------------------------------------------------


def _segment_config(url: str, payload: bytes, headers: dict[str, str], args: Any) -> LoadConfig:
    return LoadConfig(
        url=url,
        bodies=[payload],
        headers=headers,
        concurrency=args.clients,
        duration_s=600.0,
        max_requests=args.cpu_requests,
    )


Face = tuple[Proc, LoadConfig]
FACES = ("http", "mcp", "mcp-sdk")
AGAINST_FACES = ("http-against", "mcp-against")


def _faces(
    service: Proc,
    sdk_service: Proc,
    request: bytes,
    sessions: list[str],
    args: Any,
    *,
    against: Proc | None = None,
) -> dict[str, Face]:
    """The ways the same work is asked: HTTP and MCP of the service, MCP of its twin with the
    fast path off (`RESOLVER_MCP_FAST_PATH=false`: the SDK's transport), and HTTP and MCP of
    another commit's service (`--against`)."""
    # `{{seq}}`: every call its own JSON-RPC id (the load generator fills it in).
    call = orjson.dumps(_call(0, orjson.loads(request))).replace(b'"id":0', b'"id":{{seq}}', 1)

    def http(proc: Proc) -> Face:
        return proc, _segment_config(proc.base_url + HTTP_PATH, request, _HTTP_HEADERS, args)

    def mcp(proc: Proc, session: str) -> Face:
        headers = {**_MCP_HEADERS, "Mcp-Session-Id": session}
        return proc, _segment_config(proc.base_url + MCP_PATH, call, headers, args)

    faces = {"http": http(service), "mcp": mcp(service, sessions[0])}
    faces["mcp-sdk"] = mcp(sdk_service, sessions[1])
    if against is not None:
        faces["http-against"] = http(against)
        faces["mcp-against"] = mcp(against, sessions[2])
    return faces


def _segment(face: str, proc: Proc, config: LoadConfig, args: Any) -> tuple[float, float]:
    """One segment: the service's CPU µs per request during it, and the requests per second."""
    if args.wrk:
        return _wrk_segment(face, proc, config, args)
    before = proc.cpu_s()
    result = run_with_loop(run_load(config), uvloop=args.uvloop)
    spent = proc.cpu_s() - before
    summary = result.summary()
    if summary["status"] != {"200": summary["requests"]} or summary["errors"]:
        raise SystemExit(f"{face}: not every answer was 200: {summary['status']}")
    return spent * 1e6 / summary["requests"], float(summary["rps"])


def _wrk_segment(face: str, proc: Proc, config: LoadConfig, args: Any) -> tuple[float, float]:
    """`--wrk`: the segment driven as `run rules` drives its servers (docs/performance.md, "One
    honest measure"): wrk with 16 connections on the load core for `--wrk-seconds`, the
    service's CPU from its threads' schedstat over the requests wrk completed. The Python
    generator's 4 clients keep a server busy only part of the time, and a server that is not
    kept busy pays more CPU per request, the more so the cheaper its request."""
    headers = {k: v for k, v in config.headers.items() if k.lower() != "content-type"}
    script = lua_script(
        Path(tempfile.gettempdir()) / f"mcp-overhead-{os.getpid()}-{face}.lua",
        config.bodies,
        headers=headers,
    )
    core = sorted(psutil.Process().cpu_affinity() or [0])[0]
    # A second not counted first, as `run rules` does: measured warm, whoever ran before.
    run_wrk(config.url, script, connections=16, duration_s=SETTLE_S, core=core)
    loaded = load_server(
        proc.popen.pid, config.url, script, connections=16, duration_s=args.wrk_seconds, core=core
    )
    result = loaded.result
    if result.non_2xx or result.socket_errors or not result.requests:
        raise SystemExit(f"{face}: wrk saw {result.non_2xx} non-2xx, {result.socket_errors} errors")
    if loaded.busy < SATURATED:
        print(f"  {face}: the service was busy {loaded.busy:.2f} of the segment (not saturated)")
    return loaded.cpu_us_per_request, result.rps


def _cpu_rounds(faces: dict[str, Face], args: Any) -> dict[str, Any]:
    """Rounds of one segment per face, the order rotating; medians and side-by-side ratios."""
    for face, (proc, config) in faces.items():  # warm-up: caches, connections, the allocator
        _segment(face, proc, config, args)
    names = tuple(faces)
    cpu_us: dict[str, list[float]] = {face: [] for face in names}
    rps: dict[str, list[float]] = {face: [] for face in names}
    for index in range(args.rounds):
        order = names[index % len(names) :] + names[: index % len(names)]
        for face in order if index % 2 == 0 else reversed(order):
            proc, config = faces[face]
            cpu, per_s = _segment(face, proc, config, args)
            cpu_us[face].append(cpu)
            rps[face].append(per_s)
    median = {face: statistics.median(values) for face, values in cpu_us.items()}
    figures: dict[str, Any] = {
        f"{face}_cpu_us_per_request": round(median[face], 1) for face in names
    }
    pairs = [("mcp", "mcp", "http"), ("mcp-sdk", "mcp-sdk", "http")]
    if "mcp-against" in faces:
        pairs += [
            ("mcp-against", "mcp-against", "http-against"),
            ("mcp_to_mcp-against", "mcp", "mcp-against"),
            ("http_to_http-against", "http", "http-against"),
        ]
    for key, face, base in pairs:
        # Within a round the faces met the same neighbours: the median of those ratios is the
        # steadier figure on a shared machine; the ratio of the medians is shown beside it.
        rounds = [m / h for m, h in zip(cpu_us[face], cpu_us[base], strict=True)]
        figures[f"{key}_ratio"] = round(statistics.median(rounds), 2)
        figures[f"{key}_ratio_of_medians"] = round(median[face] / median[base], 2)
    # What MCP adds to the same work, in µs: the median over rounds of MCP − HTTP.
    extra = [("mcp", "http")]
    if "mcp-against" in faces:
        extra.append(("mcp-against", "http-against"))
    for face, base in extra:
        added = [m - h for m, h in zip(cpu_us[face], cpu_us[base], strict=True)]
        figures[f"{face}_added_cpu_us"] = round(statistics.median(added), 1)
    figures["segments_cpu_us"] = {f: [round(c, 1) for c in v] for f, v in cpu_us.items()}
    figures["rps"] = {face: round(statistics.median(v), 1) for face, v in rps.items()}
    return figures


# --- latency, one pair at a time ---------------------------------------------------------------


async def _latency_pairs(base_url: str, request: bytes, args: Any) -> dict[str, Any]:
    arguments = orjson.loads(request)
    http_ms: list[float] = []
    mcp_ms: list[float] = []
    async with aiohttp.ClientSession() as http:
        headers = {**_MCP_HEADERS, "Mcp-Session-Id": await _session_id(http, base_url)}
        for seq in range(args.warmup + args.requests):
            started = time.perf_counter()
            async with http.post(
                base_url + HTTP_PATH, data=request, headers=_HTTP_HEADERS
            ) as answer:
                direct = orjson.loads(await answer.read())
            middle = time.perf_counter()
            async with http.post(
                base_url + MCP_PATH, data=orjson.dumps(_call(seq + 1, arguments)), headers=headers
            ) as answer:
                wrapped = orjson.loads(await answer.read())
            ended = time.perf_counter()
            result = wrapped["result"]
            if result["isError"] or "dynamic_params" not in direct:
                raise SystemExit(f"unexpected answers: {direct} / {result}")
            if result["structuredContent"]["dynamic_params"] != direct["dynamic_params"]:
                raise SystemExit("the MCP answer differs from the HTTP answer")
            if seq >= args.warmup:
                http_ms.append((middle - started) * 1000)
                mcp_ms.append((ended - middle) * 1000)
    return _latency_figures(http_ms, mcp_ms)


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q / 100 * len(ordered)) - 1))
    return ordered[index]


def _latency_figures(http_ms: list[float], mcp_ms: list[float]) -> dict[str, Any]:
    figures: dict[str, Any] = {"requests": len(http_ms)}
    for q in (50, 99):
        http_q, mcp_q = _percentile(http_ms, q), _percentile(mcp_ms, q)
        figures[f"http_p{q}_ms"] = round(http_q, 3)
        figures[f"mcp_p{q}_ms"] = round(mcp_q, 3)
        figures[f"added_p{q}_ms"] = round(mcp_q - http_q, 3)
    return figures


# --- the run -----------------------------------------------------------------------------------


def _pin(services: list[Proc], others: list[Proc]) -> dict[str, Any] | None:
    """The services on the last core (one is loaded at a time), this process (the load
    generator) and `others` on the rest; None when there is one core."""
    cores = sorted(psutil.Process().cpu_affinity() or [])
    if len(cores) < 2:  # one core for the service, one for the rest
        return None
    for service in services:
        service.ps.cpu_affinity([cores[-1]])
    rest = cores[:-1]
    for proc in others:
        proc.ps.cpu_affinity(rest)
    psutil.Process().cpu_affinity(rest)
    return {"service": [cores[-1]], "load_generator": rest}


def _run(args: Any, logdir: Path) -> dict[str, Any]:
    figures: dict[str, Any] = {}
    everything = psutil.Process().cpu_affinity()
    against_root = export_tree(args.against, logdir) if args.against else None
    with start_fake(logdir, uvloop=args.uvloop) as fake:
        for name, request in SCENARIOS.items():
            settings = {"log_level": args.log_level}
            if name == "fake-llm":
                # Cache off: the same request repeats, and the LLM path is what is compared.
                settings |= {
                    "llm_base_url": fake.base_url + "/v1",
                    "llm_api_key": "bench",
                    "llm_cache_ttl_s": "0",
                }
            sdk_settings = {**settings, "mcp_fast_path": "false"}
            with contextlib.ExitStack() as stack:
                service = stack.enter_context(start_service(logdir, settings, uvloop=args.uvloop))
                sdk_service = stack.enter_context(
                    start_service(logdir, sdk_settings, uvloop=args.uvloop)
                )
                against = None
                if against_root is not None:
                    against = stack.enter_context(
                        start_service(logdir, settings, uvloop=args.uvloop, root=against_root)
                    )
                served = [service, sdk_service] + ([against] if against else [])
                pinned = _pin(served, [fake])
                try:
                    sessions = [run_with_loop(_open_session(s.base_url)) for s in served]
                    faces = _faces(service, sdk_service, request, sessions, args, against=against)
                    figures[name] = {
                        "cpu": _cpu_rounds(faces, args),
                        "latency": asyncio.run(_latency_pairs(service.base_url, request, args)),
                        "pinned": pinned,
                    }
                finally:
                    psutil.Process().cpu_affinity(everything)
    return figures


async def _open_session(base_url: str) -> str:
    async with aiohttp.ClientSession() as http:
        return await _session_id(http, base_url)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m benchmarks mcp-overhead")
    parser.add_argument("--rounds", type=int, default=6, help="HTTP/MCP segment pairs (CPU)")
    parser.add_argument("--cpu-requests", type=int, default=2000, help="requests per segment")
    parser.add_argument("--clients", type=int, default=4, help="closed-loop clients (CPU)")
    parser.add_argument("--requests", type=int, default=1000, help="latency pairs per scenario")
    parser.add_argument("--warmup", type=int, default=100, help="latency pairs not counted")
    parser.add_argument("--uvloop", action="store_true", help="the service and the fake on uvloop")
    parser.add_argument(
        "--wrk",
        action="store_true",
        help="drive the CPU segments with wrk (16 connections, pinned), as `run rules` does",
    )
    parser.add_argument("--wrk-seconds", type=float, default=2.0, help="a wrk segment's length")
    parser.add_argument(
        "--against", metavar="REV", help="also measure this commit's service, side by side"
    )
    parser.add_argument(
        "--log-level",
        default="WARNING",
        help="the services' RESOLVER_LOG_LEVEL (INFO: the access and tool-call lines written)",
    )
    add_save_flag(parser)
    return parser


def main(argv: list[str]) -> int:
    """Print the figures and write them to mcp-overhead.json."""
    args = _parser().parse_args(argv)
    if args.wrk and wrk_path() is None:
        print("--wrk needs wrk: `make wrk` installs Debian's package")
        return 1
    out = results_dir(args.save)
    load_before = [round(x, 2) for x in os.getloadavg()]
    with tempfile.TemporaryDirectory(prefix="resolver-bench-") as logdir:
        figures = _run(args, Path(logdir))
    load_after = [round(x, 2) for x in os.getloadavg()]
    print(f"load average: {load_before} → {load_after}")
    print(
        f"{'scenario':<12} {'CPU µs/req: HTTP':>17} {'MCP':>7} {'ratio':>6}"
        f" {'MCP via SDK':>12} {'ratio':>6}   latency p50 ms"
    )
    for name, f in figures.items():
        cpu, lat = f["cpu"], f["latency"]
        print(
            f"{name:<12} {cpu['http_cpu_us_per_request']:>17.1f}"
            f" {cpu['mcp_cpu_us_per_request']:>7.1f} {cpu['mcp_ratio']:>6.2f}"
            f" {cpu['mcp-sdk_cpu_us_per_request']:>12.1f} {cpu['mcp-sdk_ratio']:>6.2f}"
            f"   HTTP {lat['http_p50_ms']:.2f}, MCP {lat['mcp_p50_ms']:.2f}"
            f" (+{lat['added_p50_ms']:.2f}; p99 +{lat['added_p99_ms']:.2f})"
        )
        print(f"{'':<12} MCP adds {cpu['mcp_added_cpu_us']:.1f} µs of CPU per request")
        if args.against:
            print(
                f"{'':<12} {args.against}: HTTP {cpu['http-against_cpu_us_per_request']:.1f},"
                f" MCP {cpu['mcp-against_cpu_us_per_request']:.1f}"
                f" (×{cpu['mcp-against_ratio']:.2f},"
                f" adds {cpu['mcp-against_added_cpu_us']:.1f} µs);"
                f" MCP here / there ×{cpu['mcp_to_mcp-against_ratio']:.2f},"
                f" HTTP ×{cpu['http_to_http-against_ratio']:.2f}"
            )
    document = {
        "command": " ".join(["python -m benchmarks mcp-overhead", *argv]),
        "method": (
            f"The same request to {HTTP_PATH} and as the {TOOL} tool to {MCP_PATH} "
            f"(tools/call, MCP-Protocol-Version {PROTOCOL}, a session id from initialize), "
            "per scenario against two resolver serve processes (log level WARNING): one as "
            "configured (HTTP and MCP, the fast path on) and its twin with "
            "RESOLVER_MCP_FAST_PATH=false (mcp-sdk: the SDK's transport). CPU: "
            f"{args.rounds} rounds of one segment per face (order rotating) of "
            f"{args.cpu_requests} requests from {args.clients} closed-loop clients after a "
            "warm-up segment of each; cpu_us_per_request = the serving process's CPU "
            "(user+sys) in a segment / its requests, medians over rounds; <face>_ratio = the "
            "median over rounds of the face's CPU / HTTP's in the same round "
            "(<face>_ratio_of_medians beside it); the services pinned to one core, the load "
            "generator and the fake LLM to the other(s). Latency: "
            f"{args.requests} HTTP/MCP pairs one at a time after {args.warmup} not counted, "
            "client side."
        ),
        "uvloop": args.uvloop,
        "against": args.against,
        "log_level": args.log_level,
        "cores": os.cpu_count(),
        "load_average": {"before": load_before, "after": load_after},
        "scenarios": figures,
        "targets": {
            f"MCP CPU per request <= {TARGET_RATIO}x HTTP ({name})": f["cpu"]["mcp_ratio"]
            <= TARGET_RATIO
            for name, f in figures.items()
        },
    }
    out.mkdir(parents=True, exist_ok=True)
    (out / "mcp-overhead.json").write_text(json.dumps(document, indent=2) + "\n")
    return 0
