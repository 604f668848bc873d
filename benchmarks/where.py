"""`python -m benchmarks where [--seconds S] [--save]`: where a rules-only request's server CPU
goes, in microseconds per request, sampled inside the serving process.

Starts a rules-only `resolver serve` (uvloop) pinned to the first core, drives it from the
other cores with the `rules` benchmark's bodies (16 connections; no `now_ms`, so the clock
moves on every request), samples its stacks with py-spy (the `bench` extra) at 500 Hz and
divides the process's CPU time among the parts below by the share of samples in which each
appears (a sample counts once per part, wherever in the stack):

- `time scanner`: any frame of `resolver/timeexpr/` — the reading of query and context and
  their evaluation at the request's clock (issue 24 item 1: ≤ 15 µs);
- `request validation`: pydantic's `model_validate_json` of the body;
- `resolution`: `ParamsService.resolve` (the scanner included);
- `access line`, `metrics`: the middleware's log line and counters;
- `aiohttp`: the rest of the process (parser, routing, response, socket, loop).

Writes `where.json` to benchmarks/results-local/ (or benchmarks/results/ with --save).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

from benchmarks import bodies
from benchmarks.load import LoadConfig, run_load, run_with_loop
from benchmarks.procs import start_service
from benchmarks.results_dir import add_save_flag, results_dir

# part -> what marks a sampled stack as spending time in it (a frame's function or file).
_PARTS: dict[str, tuple[str, ...]] = {
    "time scanner": ("resolver/timeexpr/",),
    "request validation": ("model_validate_json (",),
    "resolution": ("ParamsService.resolve (",),
    "access line": ("AccessLog.request (",),
    "metrics": ("Metrics.observe_request (",),
}


def _shares(raw: str) -> tuple[int, Counter[str]]:
    """Samples in all, and per part the samples whose stack holds it."""
    total = 0
    parts: Counter[str] = Counter()
    for line in raw.splitlines():
        stack, _, count = line.rpartition(" ")
        if not count.isdigit():
            continue
        n = int(count)
        total += n
        for part, marks in _PARTS.items():
            if any(mark in stack for mark in marks):
                parts[part] += n
    return total, parts


def main(argv: list[str]) -> int:
    """Sample a loaded rules-only service and print µs of CPU per request for each part."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks where", description=__doc__)
    parser.add_argument("--seconds", type=float, default=8.0, help="sampling time")
    add_save_flag(parser)
    args = parser.parse_args(argv)
    spy = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))
    if not Path(spy).exists():
        print("py-spy not found: pip install -e '.[bench]'")
        return 2
    logdir = Path(tempfile.mkdtemp(prefix="where-"))
    cores = sorted(os.sched_getaffinity(0))
    service = start_service(logdir, {"log_level": "INFO", "llm_cache_ttl_s": "0"}, uvloop=True)
    try:
        if len(cores) > 1:
            service.ps.cpu_affinity(cores[:1])
            os.sched_setaffinity(0, cores[1:])
        config = LoadConfig(
            url=service.base_url + "/v1/dynamic-params",
            bodies=[body for _, _, body in bodies.RULES_BODIES],
            concurrency=16,
            duration_s=1.5,
        )
        run_with_loop(run_load(config), uvloop=True)  # warm up
        samples = logdir / "samples.txt"
        record = [spy, "record", "--pid", str(service.popen.pid), "--format", "raw"]
        record += ["--rate", "500", "--duration", str(int(args.seconds)), "--nonblocking"]
        sampler = subprocess.Popen(
            [*record, "--output", str(samples)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        cpu_before = service.cpu_s()
        config.duration_s = args.seconds + 0.5
        result = run_with_loop(run_load(config), uvloop=True)
        cpu_after = service.cpu_s()
        sampler.wait()
    finally:
        service.stop()
        os.sched_setaffinity(0, cores)
    requests = result.summary()["requests"]
    cpu_us = (cpu_after - cpu_before) * 1e6 / requests
    total, parts = _shares(samples.read_text())
    # The scanner runs inside resolution; the other parts do not overlap.
    ours = sum(parts[p] for p in _PARTS if p != "time scanner")
    figures = {part: round(cpu_us * parts[part] / max(total, 1), 1) for part in _PARTS}
    figures["aiohttp and the rest"] = round(cpu_us * (total - ours) / max(total, 1), 1)
    report = {
        "command": "python -m benchmarks where",
        "requests": requests,
        "cpu_us_per_request": round(cpu_us, 1),
        "samples": total,
        "us_per_request": figures,
        "load_average": os.getloadavg(),
    }
    print(f"{requests} requests, {cpu_us:.1f} µs of server CPU each, {total} samples")
    for part, value in figures.items():
        print(f"  {part:<22} {value:>7.1f} µs")
    out = results_dir(args.save) / "where.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n")
    return 0
