"""The `scaling` scenario of `python -m benchmarks run`: does a request's cost grow linearly
with its work? (docs/performance.md → "Cost in the work").

One rules-only service, pinned to one core, driven by wrk from the other (as in `rules`);
server CPU per completed request from schedstat, for:
- 1, 4 and 16 metric logic properties sharing one query (`/v1/dynamic-params`);
- queries of 20, 500 and 4,000 characters (plain words before a time phrase), each *cached*
  (the same text every request: the reading is kept, only evaluation runs) and *fresh* (a
  request number inside the text: every reading is new);
- the same three lengths on `/v1/time-window`, cached and fresh.
Each variant runs once a round, in rotated order; the figures are medians over rounds. The
targets compare marginal costs: per extra property from 4→16 at most 1.5× that from 1→4,
per extra character from 500→4,000 at most 1.5× that from 20→500 (linear or better).
"""

from __future__ import annotations

import contextlib
import itertools
import os
import statistics
from typing import Any

import orjson

from benchmarks import bodies
from benchmarks.scenarios import ENDPOINT, Context
from benchmarks.wrk import SEQ, load_server, lua_script, pin, wrk_path

WINDOW = "/v1/time-window"
CONNECTIONS = 16
PROPERTIES = (1, 4, 16)
LENGTHS = (20, 500, 4000)
PHRASE = "最近3个月的药品数量趋势"
# Plain words (nothing time-like, no number): what a long question holds around its time.
FILLER = "请按产品线统计各地区药品销售额并排序，"
LINEAR = 1.5


def _text(length: int, fresh: bool) -> str:
    """About `length` characters, never more (a request number has at most 6 digits here)."""
    tail = f" #100000000{SEQ}" if fresh else ""
    room = length - len(PHRASE) - (len(tail) - len(SEQ) + 6 if fresh else 0)
    filler = (FILLER * (room // len(FILLER) + 1))[: max(0, room)]
    return filler + PHRASE + tail


def variants() -> dict[str, tuple[str, bytes]]:
    """Each variant's endpoint and body."""
    out: dict[str, tuple[str, bytes]] = {}
    for count in PROPERTIES:
        metrics = [bodies.metric(f"drug_count_{i}") for i in range(count)]
        out[f"properties_{count}"] = (ENDPOINT, bodies.body(metrics, PHRASE))
    for length in LENGTHS:
        for fresh in (False, True):
            kind = "fresh" if fresh else "cached"
            text = _text(length, fresh)
            metric = [bodies.metric("drug_count")]
            out[f"query_{length}_{kind}"] = (ENDPOINT, bodies.body(metric, text))
            window = orjson.dumps({"text": text, "now_ms": bodies.NOW_MS})
            out[f"window_{length}_{kind}"] = (WINDOW, window)
    return out


def scaling(ctx: Context) -> dict[str, Any]:
    """CPU per request across the variants, and whether it grows linearly."""
    if wrk_path() is None:
        raise RuntimeError("the scaling measure needs wrk: `make wrk` installs Debian's package")
    rounds, segment_s = (2, 1.0) if ctx.quick else (3, 3.0)
    cores = sorted(os.sched_getaffinity(0))
    server_core, load_core = (cores[0], cores[1]) if len(cores) > 1 else (None, None)
    cases = variants()
    scripts = {
        name: lua_script(ctx.logdir / f"scaling-{name}.lua", [body])
        for name, (_, body) in cases.items()
    }
    seen: dict[str, list[dict[str, float]]] = {name: [] for name in cases}
    with contextlib.ExitStack() as stack:
        service = stack.enter_context(ctx.service(None))
        if server_core is not None:
            pin(service.popen.pid, server_core)
        names = list(cases)
        for index in range(rounds + 1):  # round 0 warms every path up and is not counted
            for name in names[index % len(names) :] + names[: index % len(names)]:
                path, _ = cases[name]
                loaded = load_server(
                    service.popen.pid,
                    service.base_url + path,
                    scripts[name],
                    connections=CONNECTIONS,
                    duration_s=segment_s if index else 1.0,
                    core=load_core,
                )
                if index and loaded.result.non_2xx == 0:
                    seen[name].append({"cpu_us": loaded.cpu_us_per_request, "busy": loaded.busy})
    return _figures(seen, rounds=rounds, segment_s=segment_s)


def _figures(
    seen: dict[str, list[dict[str, float]]], *, rounds: int, segment_s: float
) -> dict[str, Any]:
    cpu = {
        name: round(statistics.median(r["cpu_us"] for r in runs), 1) if runs else None
        for name, runs in seen.items()
    }
    busy = {name: [round(r["busy"], 2) for r in runs] for name, runs in seen.items()}
    slopes: dict[str, list[float | None]] = {
        "per_property": _slopes(cpu, "properties_{}", PROPERTIES)
    }
    for endpoint in ("query", "window"):
        for kind in ("cached", "fresh"):
            slopes[f"{endpoint}_{kind}_per_char"] = _slopes(cpu, f"{endpoint}_{{}}_{kind}", LENGTHS)
    return {
        "method": __doc__.split("\n\n", 1)[1] if __doc__ else "",
        "rounds": rounds,
        "segment_s": segment_s,
        "cpu_us_per_request": cpu,
        "busy": busy,
        "marginal_us": slopes,
        "targets": {
            f"{name}: marginal cost steady within {LINEAR}x": _linear(pair)
            for name, pair in slopes.items()
        },
    }


def _slopes(
    cpu: dict[str, float | None], pattern: str, steps: tuple[int, ...]
) -> list[float | None]:
    out: list[float | None] = []
    for low, high in itertools.pairwise(steps):
        a, b = cpu[pattern.format(low)], cpu[pattern.format(high)]
        out.append(None if a is None or b is None else round((b - a) / (high - low), 3))
    return out


def _linear(pair: list[float | None]) -> bool:
    """Whether the second step's marginal cost is at most LINEAR times the first's (a cost
    that grows no faster than the work; a falling marginal cost is better than linear)."""
    first, second = pair
    if first is None or second is None:
        return False
    if second <= 0.05:  # under 0.05 µs a unit: flat
        return True
    return first > 0 and second / first <= LINEAR


def rows(result: dict[str, Any]) -> list[str]:
    """The headline rows of `python -m benchmarks run`."""
    out = [
        f"| scaling | {name} | {value} µs CPU/req | |"
        for name, value in result["cpu_us_per_request"].items()
    ]
    out += [
        f"| scaling | marginal {name} | {' → '.join(str(v) for v in pair)} µs | ≤ {LINEAR}× |"
        for name, pair in result["marginal_us"].items()
    ]
    return out
