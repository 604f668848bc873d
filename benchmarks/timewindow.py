"""The `time-window` scenario of `python -m benchmarks run`: `POST /v1/time-window` (SPEC §9)
against the bare aiohttp echo, requests per second and server CPU per request.

A rules-only service answers every request from the scanner (no LLM, no upstream); its
segments alternate with the fake's `/_fake/echo` under the same load, as in `rules`.
"""

from __future__ import annotations

from typing import Any

import orjson

from benchmarks.bodies import NOW_MS
from benchmarks.load import plot
from benchmarks.scenarios import Context, alternate, server_figures

ENDPOINT = "/v1/time-window"
SEGMENTS = 3
CLIENTS = 16
# Texts of the §4 and §4.1 families the gold sets cover, with and without a zone or seconds;
# each answers 200.
TEXTS: tuple[dict[str, Any], ...] = (
    {"text": "上个季度"},
    {"text": "最近3个月的药品数量趋势"},
    {"text": "2024年1月至3月，按月"},
    {"text": "上个月下旬的订单", "unit": "s"},
    {"text": "去年国庆期间的销量"},
    {"text": "last week", "timezone": "America/New_York"},
    {"text": "since March", "timezone": "UTC", "unit": "s"},
    {"text": "当前的库存"},
)
BODIES = [orjson.dumps({**text, "now_ms": NOW_MS}) for text in TEXTS]


def time_window(ctx: Context) -> dict[str, Any]:
    """Throughput and CPU per request of `/v1/time-window` beside the bare echo."""
    segment, warmup = (1.5, 1.0) if ctx.quick else (2.5, 1.0)
    with ctx.service(None) as service, ctx.fake() as fake:
        targets = {
            "service": (service, service.base_url + ENDPOINT),
            "aiohttp_echo": (fake, fake.base_url + "/_fake/echo"),
        }
        segments = alternate(
            ctx, targets, BODIES, clients=CLIENTS, rounds=SEGMENTS, segment_s=segment,
            warmup_s=warmup,
        )  # fmt: skip
    runs = {name: server_figures(parts) for name, parts in segments.items()}
    plot(
        [r for parts in segments.values() for r, _ in parts[:1]],
        ctx.out / "time-window.png",
        "time-window: POST /v1/time-window beside the bare echo (first segment of each)",
    )
    service_cpu = runs["service"]["cpu_us_per_request"]
    echo_cpu = runs["aiohttp_echo"]["cpu_us_per_request"]
    return {
        "method": (
            f"A rules-only service (no LLM configured, INFO access log as in production); "
            f"{CLIENTS} closed-loop clients cycle through {len(BODIES)} time-window bodies "
            "(" + ", ".join(repr(t["text"]) for t in TEXTS) + "), each a 200; the scanner "
            "keeps a text's clock-free reading, so this is the steady state of repeated texts "
            "(`python -m benchmarks timespeed` times cold readings). "
            f"{SEGMENTS} segments of {segment:g} s per server, alternating with the fake's "
            "bare aiohttp JSON echo under the same load; figures are medians over segments. "
            "cpu_us_per_request = server process CPU (user+sys) / requests; the load generator "
            "shares the 2 cores, so rps is a floor."
        ),
        "clients": CLIENTS,
        "runs": runs,
        "cpu_ratio_to_echo": round(service_cpu / echo_cpu, 2) if echo_cpu else None,
        "targets": {"every answer a 200": runs["service"]["status"].keys() == {"200"}},
    }


def rows(result: dict[str, Any]) -> list[str]:
    """The headline rows: the service and the echo."""
    return [
        f"| time-window | {label} | {run['rps']} req/s, {run['cpu_us_per_request']} µs CPU/req, "
        f"p50 {run['p50_ms']} ms, p99 {run['p99_ms']} ms | "
        + (f"×{result['cpu_ratio_to_echo']} the echo's CPU |" if label == "service" else "|")
        for label, run in result["runs"].items()
    ]
