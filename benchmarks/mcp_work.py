"""`python -m benchmarks mcp-work [--against REV ...]`: the CPU of the MCP endpoint's own work
per `tools/call`, in one process, no sockets — for an A/B of a change to the fast path that is
steadier than a loaded machine lets `mcp-overhead` be.

A rules-only app is started in-process (JSON logs at INFO into a null stream, so the tool-call
line is written); the same `resolve_dynamic_params` request of `mcp-overhead` is run, in
alternating segments, (a) as the tool alone (`ToolSpec.run` and its body's JSON) and (b) as a
whole POST's answer (`StreamableHttp.answer`: parsing, the fast path's checks, the call with
its envelope, metrics and log line, the answer's bytes). The MCP-only work is (b) − (a), the
median over rounds; process CPU time. What it leaves out: the aiohttp handler's context and
the larger bodies on the socket (`mcp-overhead` measures those, end to end).

`--against REV`: each revision's source tree (`git archive`) is measured in a subprocess of its
own, alternating with this tree's, `--runs` times; medians printed side by side.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import importlib
import importlib.util
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, TextIO

import orjson

from benchmarks.bodies import body, metric
from benchmarks.procs import export_tree

_HEADERS = (
    (b"Host", b"127.0.0.1:8080"),
    (b"Accept", b"application/json, text/event-stream"),
    (b"Content-Type", b"application/json"),
    (b"MCP-Protocol-Version", b"2025-06-18"),
    (b"Mcp-Session-Id", b"0123456789abcdef0123456789abcdef"),
)
_TRACE = "0af7651916cd43dd8448eb211c80319c"


async def _measure(null: TextIO, requests: int, rounds: int) -> dict[str, float]:
    import structlog
    from aiohttp.test_utils import TestServer

    from resolver.core.logs import configure_logging
    from resolver.core.settings import Settings
    from resolver.mcp.tools import RESOLVE
    from resolver.upstreams.caller import CallerHeaders
    from resolver.web.app import create_app
    from resolver.web.servicekeys import MCP_SERVER_KEY, SERVICES_KEY

    # One call as data lives in mcp/exchange.py since issue 32's split; older revisions (the
    # --against trees) keep it in mcp/http.py and mcp/tools.py.
    new = importlib.util.find_spec("resolver.mcp.exchange") is not None
    exchange = importlib.import_module("resolver.mcp.exchange" if new else "resolver.mcp.http")
    calls = importlib.import_module("resolver.mcp.exchange" if new else "resolver.mcp.tools")

    configure_logging("INFO", "json", stream=null)
    app = create_app(Settings(llm_cache_ttl_s=0))
    server = TestServer(app)
    await server.start_server()
    try:
        endpoint, services = app[MCP_SERVER_KEY], app[SERVICES_KEY]
        arguments = orjson.loads(body([metric("approved_drug_count")], "最近3个月的药品数量趋势"))
        call = {"name": RESOLVE.name, "arguments": arguments}
        message = orjson.dumps({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": call})
        structlog.contextvars.bind_contextvars(trace_id=_TRACE)  # as the request edge does

        def context() -> Any:
            caller = CallerHeaders(trace_id=_TRACE)
            context = calls.CallContext(trace_id=_TRACE, caller=caller, kn_id=None, public_url=str)
            # As the aiohttp handler builds it (the trace id is bound above, as the middleware
            # does); older trees have no such field.
            if "in_request_task" in {f.name for f in dataclasses.fields(context)}:
                context = dataclasses.replace(context, in_request_task=True)
            return context

        async def tool() -> None:
            (await RESOLVE.run(services, dict(arguments), context())).to_json()

        async def mcp() -> None:
            await endpoint.answer(
                exchange.Exchange("POST", "/mcp", b"", _HEADERS, message, context())
            )

        answer = await endpoint.answer(
            exchange.Exchange("POST", "/mcp", b"", _HEADERS, message, context())
        )
        if answer.status != 200 or b'"isError":false' not in answer.body:
            raise SystemExit(f"unexpected answer: {answer.body[:300]!r}")
        for work in (tool, mcp):  # warm-up
            for _ in range(requests // 4):
                await work()
        cpu: dict[str, list[float]] = {"tool": [], "mcp": []}
        for index in range(rounds):
            pair = [("tool", tool), ("mcp", mcp)]
            for name, work in pair if index % 2 else reversed(pair):
                started = time.process_time()
                for _ in range(requests):
                    await work()
                cpu[name].append((time.process_time() - started) / requests * 1e6)
        added = [m - t for m, t in zip(cpu["mcp"], cpu["tool"], strict=True)]
        return {
            "tool_us": statistics.median(cpu["tool"]),
            "mcp_us": statistics.median(cpu["mcp"]),
            "mcp_only_us": statistics.median(added),
        }
    finally:
        await server.close()


def _run_tree(root: Path | None, args: Any) -> dict[str, float]:
    """One measurement in a fresh process, of `root`'s resolver (None: this tree's)."""
    env = dict(os.environ)
    if root is not None:
        # `-m` puts the working directory first on sys.path: that tree's resolver is imported.
        env["PYTHONPATH"] = str(root)
    argv = [sys.executable, "-m", "benchmarks", "mcp-work", "--child"]
    argv += ["--requests", str(args.requests), "--rounds", str(args.rounds)]
    done = subprocess.run(argv, capture_output=True, check=True, cwd=root, env=env)
    figures: dict[str, float] = orjson.loads(done.stdout.splitlines()[-1])
    return figures


def main(argv: list[str]) -> int:
    """Print the MCP-only CPU per call of this tree (and of each `--against` revision)."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks mcp-work", description=__doc__)
    parser.add_argument("--requests", type=int, default=1500, help="calls per segment")
    parser.add_argument("--rounds", type=int, default=9, help="segment pairs per process")
    parser.add_argument("--runs", type=int, default=3, help="processes per tree")
    parser.add_argument("--against", action="append", default=[], metavar="REV")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        with Path(os.devnull).open("w") as null:
            figures = asyncio.run(_measure(null, args.requests, args.rounds))
        print(orjson.dumps(figures).decode())
        return 0
    with tempfile.TemporaryDirectory(prefix="resolver-mcp-work-") as scratch:
        trees: dict[str, Path | None] = {"this tree": None}
        for revision in args.against:
            trees[revision] = export_tree(revision, Path(scratch))
        runs: dict[str, list[dict[str, float]]] = {name: [] for name in trees}
        for _ in range(args.runs):
            for name, root in trees.items():
                runs[name].append(_run_tree(root, args))
    print(f"{'tree':<12} {'tool µs':>8} {'answer µs':>10} {'MCP-only µs':>12}   (each run)")
    for name, measured in runs.items():
        medians = {k: statistics.median(f[k] for f in measured) for k in measured[0]}
        each = ", ".join(f"{f['mcp_only_us']:.1f}" for f in measured)
        print(
            f"{name:<12} {medians['tool_us']:>8.1f} {medians['mcp_us']:>10.1f}"
            f" {medians['mcp_only_us']:>12.1f}   ({each})"
        )
    return 0
