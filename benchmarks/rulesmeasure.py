"""The rules scenario of `python -m benchmarks run rules`: requests settled in code, measured
the way an outside load tester measures them (docs/performance.md → "One honest measure").

Three servers (four with `--against REV`), each a process pinned to the first core:
- `service`: `resolver serve` as shipped — rules-only, JSON logs, the access log on, its default
  event loop (uvloop, a core dependency; `--uvloop` does not matter here);
- `echo`: a bare aiohttp app on uvloop with orjson and no middleware (`benchmarks/floor.py`);
- `floor`: the same answer by the least work (`benchmarks/floor.py`), checked byte-equal to
  the service's apart from the trace id before anything is timed;
- `against`: the service of another commit (`git archive`), when asked for.

wrk, pinned to the other core, drives each in turn with 16 keep-alive connections cycling
through the five rules bodies; a round runs every server once, and the order rotates from
round to round; each segment starts with a second of the same load that is not counted, so
that no server is measured while its caches still hold its predecessor's work (with the
order only rotated, the service followed `--against`'s service in most rounds and read ~10%
dearer than when it ran first). A server's CPU is the sum over
its threads of `/proc/PID/task/*/schedstat` across its segment, divided by the requests wrk
completed. A round counts only if every server was saturated (CPU ≥ 90% of the segment's
wall time: a load generator that cannot keep a server busy makes a cheap server look dearer,
which compresses the ratios) and answered only 2xx; the figures are medians of per-round
ratios.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import statistics
import urllib.request
from pathlib import Path
from typing import Any

import orjson

from benchmarks import bodies
from benchmarks.procs import Proc, export_tree, start_floor
from benchmarks.scenarios import ENDPOINT, Context
from benchmarks.wrk import load_server, lua_script, pin, run_wrk, wrk_path
from resolver.core.loops import uvloop_factory

CONNECTIONS = 16
SATURATED = 0.90
# The load each segment starts with, not counted, so that every server is measured warm.
SETTLE_S = 1.0


def _post(url: str, body: bytes) -> tuple[int, dict[str, Any]]:
    request = urllib.request.Request(  # noqa: S310 - loopback only
        url, data=body, headers={"Content-Type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(request, timeout=10) as response:  # noqa: S310
        return response.status, orjson.loads(response.read())


def same_answers(service_url: str, floor_url: str, payloads: list[bytes]) -> list[str]:
    """The bodies whose answers differ between the service and the floor (trace id aside)."""
    differing = []
    for index, payload in enumerate(payloads):
        answers = []
        for url in (service_url, floor_url):
            status, document = _post(url, payload)
            document.pop("trace_id", None)
            answers.append((status, orjson.dumps(document, option=orjson.OPT_SORT_KEYS)))
        if answers[0] != answers[1]:
            differing.append(f"body {index}: service {answers[0]!r} != floor {answers[1]!r}")
    return differing


def _segment(
    proc: Proc, url: str, script: Path, duration_s: float, core: int | None
) -> dict[str, Any]:
    loaded = load_server(
        proc.popen.pid, url, script, connections=CONNECTIONS, duration_s=duration_s, core=core
    )
    result = loaded.result
    return {
        "requests": result.requests,
        "rps": round(result.rps, 1),
        "cpu_us_per_request": round(loaded.cpu_us_per_request, 1),
        "saturation": round(loaded.busy, 3),
        "non_2xx": result.non_2xx,
        "socket_errors": result.socket_errors,
        "p50_ms": result.p50_ms,
        "p99_ms": result.p99_ms,
    }


def rules(ctx: Context) -> dict[str, Any]:
    """CPU per rules-only request of the service beside the echo and the floor (and another
    commit's service with `--against`), by wrk over pinned cores."""
    if wrk_path() is None:
        raise RuntimeError("the rules measure needs wrk: `make wrk` installs Debian's package")
    rounds, segment_s, warmup_s = (3, 2.0, 1.0) if ctx.quick else (5, 4.0, 2.0)
    cores = sorted(os.sched_getaffinity(0))
    server_core, load_core = (cores[0], cores[1]) if len(cores) > 1 else (None, None)
    payloads = [b for _, _, b in bodies.RULES_BODIES]
    script = lua_script(ctx.logdir / "rules-bodies.lua", payloads)
    # The service as shipped: RESOLVER_EVENT_LOOP=auto, uvloop when installed (it is a core
    # dependency) — as the echo and the floor run. `--uvloop` is the other scenarios' switch;
    # without it they run asyncio's loop, which measured the service on another loop than
    # the two servers it is divided by.
    ctx = dataclasses.replace(ctx, uvloop=uvloop_factory() is not None)
    with contextlib.ExitStack() as stack:
        service = stack.enter_context(ctx.service(None))
        echo = stack.enter_context(start_floor(ctx.logdir, "echo"))
        floor = stack.enter_context(start_floor(ctx.logdir, "floor"))
        targets: dict[str, tuple[Proc, str]] = {
            "service": (service, service.base_url + ENDPOINT),
            "echo": (echo, echo.base_url + "/echo"),
            "floor": (floor, floor.base_url + ENDPOINT),
        }
        if ctx.against:
            other = stack.enter_context(ctx.rules_service_at(export_tree(ctx.against, ctx.logdir)))
            targets["against"] = (other, other.base_url + ENDPOINT)
        differing = same_answers(targets["service"][1], targets["floor"][1], payloads)
        if differing:
            raise RuntimeError(
                "the floor's answers differ from the service's: " + "; ".join(differing)
            )
        if server_core is not None:
            for proc, _ in targets.values():
                pin(proc.popen.pid, server_core)
        for proc, url in targets.values():
            _segment(proc, url, script, warmup_s, load_core)
        names = list(targets)
        rows: list[dict[str, dict[str, Any]]] = []
        for index in range(rounds):
            order = names[index % len(names) :] + names[: index % len(names)]
            row = {}
            for name in order:
                proc, url = targets[name]
                # Not counted: the server measured just before evicted this one's caches (the
                # service right after --against's, most rounds, read ~10% dearer than first).
                run_wrk(url, script, connections=CONNECTIONS, duration_s=SETTLE_S, core=load_core)
                row[name] = _segment(proc, url, script, segment_s, load_core)
                if ctx.progress:
                    _show(index, name, row[name])
            rows.append(row)
    result = _figures(rows, rounds=rounds, segment_s=segment_s, against=ctx.against)
    result["service_loop"] = "uvloop" if ctx.uvloop else "asyncio"
    return result


def _show(index: int, name: str, seg: dict[str, Any]) -> None:
    cpu, rps, busy = seg["cpu_us_per_request"], seg["rps"], seg["saturation"]
    print(f"  round {index + 1} {name:8} {rps:>9.1f} req/s {cpu:>7.1f} µs/req busy {busy:.2f}")


def _figures(
    rows: list[dict[str, dict[str, Any]]], *, rounds: int, segment_s: float, against: str | None
) -> dict[str, Any]:
    counted = [
        row
        for row in rows
        if all(s["saturation"] >= SATURATED and s["non_2xx"] == 0 for s in row.values())
    ]
    pairs = [("service", "echo"), ("service", "floor"), ("floor", "echo")]
    if against:
        pairs += [("against", "echo"), ("service", "against")]
    ratios: dict[str, float | None] = {}
    per_round: dict[str, list[float]] = {}
    for top, bottom in pairs:
        values = [
            round(r[top]["cpu_us_per_request"] / r[bottom]["cpu_us_per_request"], 3)
            for r in counted
            if r[bottom]["cpu_us_per_request"]
        ]
        per_round[f"{top}_to_{bottom}"] = values
        ratios[f"{top}_to_{bottom}"] = round(statistics.median(values), 2) if values else None
    medians = {
        name: {
            "cpu_us_per_request": statistics.median(r[name]["cpu_us_per_request"] for r in rows),
            "rps": statistics.median(r[name]["rps"] for r in rows),
            "saturation": [r[name]["saturation"] for r in rows],
        }
        for name in rows[0]
    }
    service_echo = ratios["service_to_echo"]
    service_floor = ratios["service_to_floor"]
    return {
        "method": (
            f"wrk -t1 -c{CONNECTIONS} on its own core, {rounds} rounds of {segment_s:g} s per "
            f"server after {SETTLE_S:g} s not counted, the order rotated each round; servers "
            "pinned to one core; CPU from "
            "/proc/PID/task/*/schedstat over completed requests; a round counts only if every "
            f"server was ≥ {SATURATED:.0%} busy and answered only 2xx; medians of per-round ratios"
        ),
        "rounds": rows,
        "rounds_counted": len(counted),
        "rounds_refused": len(rows) - len(counted),
        "servers": medians,
        "ratios": ratios,
        "ratios_per_round": per_round,
        "against": against,
        "targets": {
            "<=3.5x the echo (median of per-round ratios)": service_echo is not None
            and service_echo <= 3.5,
            "<=1.25x the floor (median of per-round ratios)": service_floor is not None
            and service_floor <= 1.25,
        },
    }


def rows(result: dict[str, Any]) -> list[str]:
    """The headline rows of `python -m benchmarks run`."""
    out = [
        f"| rules | {name} | {s['rps']} req/s, {s['cpu_us_per_request']} µs CPU/req, "
        f"busy {min(s['saturation']):.2f}–{max(s['saturation']):.2f} | |"
        for name, s in result["servers"].items()
    ]
    ratios = ", ".join(f"{name} ×{value}" for name, value in result["ratios"].items())
    counted = f"{result['rounds_counted']} of {len(result['rounds'])} rounds counted"
    out.append(f"| rules | CPU ratios ({counted}) | {ratios} | ≤ 3.5× echo, ≤ 1.25× floor |")
    return out
