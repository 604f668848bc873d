"""The service scenarios of `python -m benchmarks run`: overhead, fanout, gateway
(`rulesmeasure.py`, `scaleout.py` and `timewindow.py` hold the others).

Each starts the fake LLM and the service as subprocesses on free loopback ports, drives them
with the load generator in this process, and returns its JSON figures; PNGs go next to them.
"""

from __future__ import annotations

import math
import re
import statistics
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmarks import bodies
from benchmarks.load import (
    LoadConfig,
    LoadResult,
    plot,
    run_load,
    run_with_loop,
)
from benchmarks.procs import Proc, start_fake, start_service
from resolver.core.loops import uvloop_factory

LLM_LATENCY_MS = 200
ENDPOINT = "/v1/dynamic-params"
_SEQ_IN_QUERY = re.compile(r"#(\d+)\s*$")


@dataclass
class Context:
    """Where results and logs go, and how hard and how long to push."""

    out: Path
    logdir: Path
    quick: bool
    uvloop: bool = False
    progress: bool = True
    # A git revision whose service the rules scenario runs beside this one (`--against`).
    against: str | None = None
    # The load generator shares the 2 cores with the service: on uvloop (when installed) it
    # needs about a third of the CPU per request, which leaves more to the service.
    loadgen_uvloop: bool = field(default_factory=lambda: uvloop_factory() is not None)

    def load(self, proc: Proc, **fields: Any) -> LoadResult:
        """Run one load against the service's endpoint."""
        config = LoadConfig(url=proc.base_url + ENDPOINT, progress=self.progress, **fields)
        return self.drive(config)

    def drive(self, config: LoadConfig) -> LoadResult:
        """Run one load."""
        return run_with_loop(run_load(config), uvloop=self.loadgen_uvloop)

    def service(self, fake: Proc | None, **settings: str) -> Proc:
        """The service, wired to the fake when one is given, logging at INFO as in production.

        The LLM result cache is off: the scenarios measure the path of an LLM call, and their
        request numbers start again at 0 every run, so a cache would answer the repeats
        (`python -m benchmarks cache-hits` measures the cache).
        """
        values = {"log_level": "INFO", "llm_cache_ttl_s": "0", **settings}
        if fake is not None:
            values |= {"llm_base_url": fake.base_url + "/v1", "llm_api_key": "sk-bench"}
        return start_service(self.logdir, values, uvloop=self.uvloop)

    def rules_service_at(self, root: Path) -> Proc:
        """A rules-only service run from another source tree (`procs.export_tree`)."""
        values = {"log_level": "INFO", "llm_cache_ttl_s": "0"}
        return start_service(self.logdir, values, uvloop=self.uvloop, root=root)

    def fake(self, *args: str) -> Proc:
        """The fake LLM, seeded."""
        return start_fake(self.logdir, "--seed", "7", *args, uvloop=self.uvloop)


def nearest_rank(values: list[float], q: float) -> float | None:
    """The q-th percentile (nearest rank) of the values."""
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q / 100 * len(ordered)) - 1))]


def _ms(value: float | None) -> float | None:
    return None if value is None else round(value, 3)


# The default process cap of 16 LLM calls in flight would queue 50 clients behind it (16 calls
# per 200 ms = 80/s); this scenario measures the service's own cost, so the cap is raised.
OVERHEAD_MAX_INFLIGHT = 64


OVERHEAD_LEVELS = (1, 10, 50)
OVERHEAD_SEGMENTS = 2

Segment = tuple[LoadResult, dict[str, Any], float]


def overhead(ctx: Context) -> dict[str, Any]:
    """Service latency minus the fake's own, for one LLM property at 1/10/50 clients."""
    segment, warmup = (2.0, 1.0) if ctx.quick else (4.0, 1.5)
    parts: dict[int, list[Segment]] = {c: [] for c in OVERHEAD_LEVELS}
    with (
        ctx.fake("--latency-ms", str(LLM_LATENCY_MS)) as fake,
        ctx.service(fake, llm_max_inflight=str(OVERHEAD_MAX_INFLIGHT)) as service,
    ):
        # Levels alternate segment by segment, so that a noisy minute hits all of them.
        for _ in range(OVERHEAD_SEGMENTS):
            for clients in OVERHEAD_LEVELS:
                fake.post("/_fake/reset")
                cpu_before = service.cpu_s()
                result = ctx.load(
                    service,
                    bodies=[bodies.overhead_body()],
                    concurrency=clients,
                    duration_s=segment,
                    warmup_s=warmup,
                    ramp_s=LLM_LATENCY_MS / 1000,
                    label=f"{clients} clients",
                )
                cpu = service.cpu_s() - cpu_before
                parts[clients].append((result, fake.get_json("/_fake/stats?timings=1"), cpu))
    levels: list[dict[str, Any]] = []
    overheads: dict[str, list[float]] = {}
    for clients, segments in parts.items():
        figures, overheads[f"{clients} clients"] = _overhead_level(segments, clients)
        levels.append(figures)
    _plot_overhead(overheads, [p[0][0] for p in parts.values()], ctx.out / "overhead.png")
    at_50 = levels[-1]
    return {
        "method": (
            "Each request carries its sequence number in the query; the fake records, per "
            "call, the query and its own handling time (request read to response built). "
            "overhead = client-observed latency - the fake's time for that request's call, "
            "so it covers the load generator's client, loopback I/O both ways, the service's "
            "parsing/validation/rules/prompt building, the openai SDK and the response. "
            f"{OVERHEAD_SEGMENTS} segments of {segment:g} s per level (after {warmup:g} s of "
            "warm-up each, clients ramped over 200 ms), levels alternating; samples pooled. "
            "vs_fixed_p50_ms = client p50 - 200 ms, for comparison."
        ),
        "llm_latency_ms": LLM_LATENCY_MS,
        "settings": {"RESOLVER_LLM_MAX_INFLIGHT": OVERHEAD_MAX_INFLIGHT},
        "levels": levels,
        "targets": {
            "overhead_p50_ms<=3 at 50 clients": _le(at_50["overhead_p50_ms"], 3.0),
            "overhead_p99_ms<=15 at 50 clients": _le(at_50["overhead_p99_ms"], 15.0),
        },
    }


def _le(value: float | None, limit: float) -> bool:
    return value is not None and value <= limit


def _pair(result: LoadResult, stats: dict[str, Any]) -> tuple[list[float], list[float]]:
    """Overheads of the segment's answered requests, and the fake's own times."""
    fake_ms: dict[int, float] = {}
    for query, handled_ms in stats["timings"]:
        match = _SEQ_IN_QUERY.search(query or "")
        if match:
            fake_ms[int(match.group(1))] = handled_ms
    measured = [s for s in result.measured() if s.error is None and s.status == 200]
    return (
        [s.latency_s * 1000 - fake_ms[s.seq] for s in measured if s.seq in fake_ms],
        list(fake_ms.values()),
    )


def _overhead_level(segments: list[Segment], clients: int) -> tuple[dict[str, Any], list[float]]:
    overheads: list[float] = []
    fake_times: list[float] = []
    for result, stats, _ in segments:
        paired, times = _pair(result, stats)
        overheads += paired
        fake_times += times
    latencies = [
        s.latency_s * 1000
        for result, _, _ in segments
        for s in result.measured()
        if s.error is None and s.status == 200
    ]
    pairing = "per request"
    if not overheads:
        # The task no longer carries the query verbatim: fall back to the fixed latency.
        overheads = [v - LLM_LATENCY_MS for v in latencies]
        pairing = f"fixed {LLM_LATENCY_MS} ms (no request matched a call)"
    summaries = [result.summary() for result, _, _ in segments]
    requests = sum(s["requests"] for s in summaries)
    window = sum(s["window_s"] for s in summaries)
    status: Counter[str] = Counter()
    for summary in summaries:
        status.update(summary["status"])
    p50 = nearest_rank(latencies, 50)
    figures = {
        "clients": clients,
        "requests": requests,
        "ok": len(latencies),
        "rps": round(requests / window, 2) if window else 0.0,
        "p50_ms": _ms(p50),
        "p99_ms": _ms(nearest_rank(latencies, 99)),
        "fake_p50_ms": _ms(nearest_rank(fake_times, 50)),
        "overhead_p50_ms": _ms(nearest_rank(overheads, 50)),
        "overhead_p90_ms": _ms(nearest_rank(overheads, 90)),
        "overhead_p99_ms": _ms(nearest_rank(overheads, 99)),
        "overhead_max_ms": _ms(max(overheads, default=None)),
        "overhead_p50_ms_segments": [
            _ms(nearest_rank(_pair(r, st)[0], 50)) for r, st, _ in segments
        ],
        "vs_fixed_p50_ms": _ms(None if p50 is None else p50 - LLM_LATENCY_MS),
        "pairing": pairing,
        "paired": len(overheads) if pairing == "per request" else 0,
        "service_cpu_us_per_request": round(
            sum(cpu for _, _, cpu in segments)
            * 1e6
            / max(1, sum(len(r.samples) for r, _, _ in segments)),
            1,
        ),
        "status": dict(status),
        "errors": sum(sum(s["errors"].values()) for s in summaries),
    }
    return figures, overheads


def _plot_overhead(
    overheads: dict[str, list[float]], results: list[LoadResult], path: Path
) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (cdf, rate) = plt.subplots(1, 2, figsize=(12, 4.5))
    for label, values in overheads.items():
        ordered = sorted(max(v, 0.01) for v in values)
        if ordered:
            cdf.plot(ordered, [(i + 1) / len(ordered) for i in range(len(ordered))], label=label)
    for limit, style in ((3.0, ":"), (15.0, "--")):
        cdf.axvline(limit, color="grey", linestyle=style, linewidth=1)
    cdf.set_xscale("log")
    cdf.set_xlabel("service latency - fake latency (ms, log); targets 3 / 15 ms")
    cdf.set_ylabel("fraction of requests ≤ x")
    cdf.set_title("overhead CDF")
    cdf.grid(True, which="both", alpha=0.3)
    cdf.legend(fontsize="small")
    for result in results:
        line = result.timeline()
        rate.plot([p["t"] for p in line], [p["ok"] for p in line], label=result.config.label)
    rate.set_xlabel("time since start (s)")
    rate.set_ylabel("completions per second")
    rate.set_title("throughput over time")
    rate.grid(True, alpha=0.3)
    rate.legend(fontsize="small")
    fig.suptitle("overhead: one LLM property, fake LLM fixed 200 ms")
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=90)
    plt.close(fig)


FANOUT_SIZES = (1, 2, 4, 8, 16)


def fanout(ctx: Context) -> dict[str, Any]:
    """p50 of N-property requests against ⌈N/4⌉ × 200 ms, and against max_concurrency 1."""
    rounds = {4: 7, 1: 2} if ctx.quick else {4: 15, 1: 3}
    points: dict[int, dict[str, Any]] = {n: {"n": n} for n in FANOUT_SIZES}
    with (
        ctx.fake("--latency-ms", str(LLM_LATENCY_MS)) as fake,
        ctx.service(fake) as service,
    ):
        ctx.load(service, bodies=[bodies.fanout_body(4, 4)], max_requests=2, duration_s=30)
        for limit in (4, 1):
            # One client cycles N = 1, 2, 4, 8, 16 round after round, so that noise from
            # the rest of the machine spreads over every N instead of hitting one of them.
            result = ctx.load(
                service,
                bodies=[bodies.fanout_body(n, limit) for n in FANOUT_SIZES],
                concurrency=1,
                max_requests=rounds[limit] * len(FANOUT_SIZES),
                duration_s=150,
                label=f"max_concurrency={limit}",
            )
            for index, n in enumerate(FANOUT_SIZES):
                latencies = [
                    s.latency_s * 1000
                    for s in result.measured()
                    if s.seq % len(FANOUT_SIZES) == index and s.error is None and s.status == 200
                ]
                ideal = math.ceil(n / limit) * LLM_LATENCY_MS
                p50 = _ms(statistics.median(latencies)) if latencies else None
                key = "" if limit == 4 else "sequential_"
                points[n] |= {
                    f"{key}ideal_ms": ideal,
                    f"{key}p50_ms": p50,
                    f"{key}ratio": None if p50 is None else round(p50 / ideal, 3),
                    f"{key}ok": len(latencies),
                }
                if limit == 4:
                    points[n]["max_ms"] = _ms(max(latencies, default=None))
    for point in points.values():
        if point.get("p50_ms") and point.get("sequential_p50_ms"):
            point["speedup_vs_sequential"] = round(point["sequential_p50_ms"] / point["p50_ms"], 2)
    _plot_fanout(list(points.values()), ctx.out / "fanout.png")
    ratios = [p.get("ratio") for p in points.values()]
    return {
        "method": (
            "One client, requests in sequence, cycling N = 1, 2, 4, 8, 16 round after round "
            f"({rounds[4]} rounds; {rounds[1]} for the baseline); each of N metric properties "
            "needs one LLM call (fixed 200 ms). ideal_ms = ceil(N/4) x 200; ratio = p50 / "
            "ideal. The sequential baseline is the same request with options.max_concurrency "
            "= 1 (ideal N x 200)."
        ),
        "llm_latency_ms": LLM_LATENCY_MS,
        "max_concurrency": 4,
        "points": list(points.values()),
        "targets": {"ratio<=1.10 for every N": all(r is not None and r <= 1.10 for r in ratios)},
    }


def _plot_fanout(points: list[dict[str, Any]], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axis = plt.subplots(figsize=(8, 4.5))
    ns = [p["n"] for p in points]
    x = range(len(ns))
    width = 0.27
    series = (
        ("ideal ceil(N/4)x200", "ideal_ms"),
        ("p50 max_concurrency=4", "p50_ms"),
        ("p50 max_concurrency=1", "sequential_p50_ms"),
    )
    for offset, (label, key) in enumerate(series):
        axis.bar(
            [i + (offset - 1) * width for i in x],
            [p.get(key) or 0 for p in points],
            width,
            label=label,
        )
    axis.set_xticks(list(x), [f"N={n}" for n in ns])
    axis.set_ylabel("latency (ms)")
    axis.set_title("fan-out: N properties, fake LLM 200 ms")
    axis.legend(fontsize="small")
    axis.grid(True, axis="y", alpha=0.3)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=90)
    plt.close(fig)


def gateway(ctx: Context) -> dict[str, Any]:
    """20 clients x 4 properties against a 10 QPS gateway, without and with RESOLVER_LLM_QPS."""
    duration = 10.0 if ctx.quick else 30.0
    runs: dict[str, dict[str, Any]] = {}
    results: list[LoadResult] = []
    with ctx.fake("--latency-ms", str(LLM_LATENCY_MS), "--gateway-qps", "10") as fake:
        for label, qps in (("without_limiter", None), ("with_llm_qps_10", "10")):
            fake.post("/_fake/reset")
            settings = {"llm_qps": qps} if qps else {}
            with ctx.service(fake, **settings) as service:
                # Warm-up: a fresh process sends its first LLM call late (connection set-up,
                # first-use code paths, the other requests of the burst on the loop), so the
                # call paced after it can arrive right behind it: the gateway may count 11
                # in the first second. Counted apart, then the window is let go empty.
                ctx.load(service, bodies=[bodies.fanout_body(4, 4)], concurrency=2, duration_s=2)
                time.sleep(1.2)
                cold = fake.get_json("/_fake/stats")["counts"].get("gateway_429", 0)
                fake.post("/_fake/reset")
                result = ctx.load(
                    service,
                    bodies=[bodies.fanout_body(4, 4)],
                    concurrency=20,
                    duration_s=duration,
                    timeout_s=60,
                    drain_s=45,
                    label=label,
                )
            stats = fake.get_json("/_fake/stats")
            summary = result.summary()
            results.append(result)
            runs[label] = {
                "requests": summary["requests"],
                "success_rate": summary["success_rate"],
                "ok_rps": summary["ok_rps"],
                "llm_429s": stats["counts"].get("gateway_429", 0),
                "llm_429s_during_warmup": cold,
                "llm_calls": stats["counts"].get("calls", 0),
                "llm_calls_answered": stats["counts"].get("status_200", 0),
                "p50_ms": summary["latency_ms"]["p50"],
                "p99_ms": summary["latency_ms"]["p99"],
                "max_ms": summary["latency_ms"]["max"],
                "status": summary["status"],
                "codes": summary["codes"],
                "errors": summary["errors"],
                "cancelled": summary["cancelled"],
            }
    plot(results, ctx.out / "gateway.png", "gateway: 10 QPS limit, 20 clients x 4 properties")
    limited = runs["with_llm_qps_10"]
    return {
        "method": (
            "The fake admits at most 10 calls in any sliding second (429 + Retry-After above). "
            "Each service process is warmed up first (2 clients, 2 s; the gateway 429s of "
            "that cold start are reported as llm_429s_during_warmup), then the counters are "
            f"reset and 20 closed-loop clients send 4-property requests for {duration:g} s; "
            "requests in flight at the end are awaited. Latency includes the queueing behind "
            "the limiter: 10 calls/s serve at most 2.5 such requests/s."
        ),
        "duration_s": duration,
        "runs": runs,
        "targets": {
            "zero gateway 429s with the limiter": limited["llm_429s"] == 0,
            "100% success with the limiter": limited["success_rate"] == 1.0,
        },
    }


def alternate(
    ctx: Context,
    targets: dict[str, tuple[Proc, str]],
    payloads: list[bytes],
    *,
    clients: int,
    rounds: int,
    segment_s: float,
    warmup_s: float,
) -> dict[str, list[tuple[LoadResult, float]]]:
    """Each target (its process and URL) warmed up, then `rounds` segments of the same closed
    loop load, alternating between the targets so that all see the same machine noise: per
    target, each segment's result and the CPU seconds its process spent in it."""
    for _, url in targets.values():
        ctx.drive(LoadConfig(url=url, bodies=payloads, concurrency=clients, duration_s=warmup_s))
    segments: dict[str, list[tuple[LoadResult, float]]] = {name: [] for name in targets}
    for index in range(rounds):
        for name, (proc, url) in targets.items():
            config = LoadConfig(
                url=url,
                bodies=payloads,
                concurrency=clients,
                duration_s=segment_s,
                progress=ctx.progress,
                label=f"{name} #{index + 1}",
            )
            cpu_before = proc.cpu_s()
            result = ctx.drive(config)
            segments[name].append((result, proc.cpu_s() - cpu_before))
    return segments


def _ratio(numerator: float, denominator: float) -> float:
    return round(numerator / denominator, 2) if denominator else float("inf")


def server_figures(parts: list[tuple[LoadResult, float]]) -> dict[str, Any]:
    """Medians over segments of one server's load results and its CPU seconds in each."""
    summaries = [r.summary() for r, _ in parts]
    cpu_us = [
        cpu * 1e6 / max(1, s["requests"]) for (_, cpu), s in zip(parts, summaries, strict=True)
    ]
    shares = [
        cpu / s["window_s"] for (_, cpu), s in zip(parts, summaries, strict=True) if s["window_s"]
    ]
    median_cpu = statistics.median(cpu_us)
    status: Counter[str] = Counter()
    for summary in summaries:
        status.update(summary["status"])
    return {
        "requests": sum(s["requests"] for s in summaries),
        "rps": round(statistics.median(s["rps"] for s in summaries), 1),
        "rps_segments": [s["rps"] for s in summaries],
        "cpu_us_per_request": round(median_cpu, 1),
        "cpu_us_per_request_segments": [round(c, 1) for c in cpu_us],
        "capacity_rps_one_core": round(1e6 / median_cpu) if median_cpu else None,
        "server_cpu_share": round(statistics.median(shares), 3) if shares else None,
        "p50_ms": statistics.median(s["latency_ms"]["p50"] for s in summaries),
        "p99_ms": statistics.median(s["latency_ms"]["p99"] for s in summaries),
        "status": dict(status),
        "errors": sum(sum(s["errors"].values()) for s in summaries),
        "count_422": status.get("422", 0),
        "load_generator_cpu_us_per_request": statistics.median(
            s["client_cpu_us_per_request"] or 0 for s in summaries
        ),
    }
