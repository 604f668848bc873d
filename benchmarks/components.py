"""`python -m benchmarks components [--seconds S] [--save]`: the component table of a rules-only
request — µs of server CPU per request for aiohttp + loop + kernel, middleware, the access
line, handler glue, pydantic validation, time evaluation, frame, property states and merge,
rules, answer and metrics — by the project's own on-CPU profiler (`benchmarks/profiler.py`),
checked against py-spy's samples classified by the same table.

Two runs of a rules-only `resolver serve` pinned to one core, wrk on the other with the
`rules` bodies: the first under our sampler (CPU charged per component from the serving
thread's own CPU clock), the second sampled from outside by py-spy (`bench` extra; shares of
on-CPU samples, innermost component per stack). The table prints both, side by side.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

from benchmarks import bodies
from benchmarks.procs import Proc, start_service
from benchmarks.profiler import COMPONENTS, REST, component_of
from benchmarks.results_dir import add_save_flag, results_dir
from benchmarks.wrk import load_server, lua_script, pin, run_wrk, wrk_path

ENDPOINT = "/v1/dynamic-params"


def _profiled_service(logdir: Path, out: Path) -> Proc:
    """`resolver serve` under our sampler, rules-only, uvloop, INFO logs as shipped."""
    return start_service(
        logdir,
        {"log_level": "INFO"},
        uvloop=True,
        runner=("-m", "benchmarks.profiler", "--"),
        env_extra={"PROFILE_OUT": str(out)},
    )


def _drive(
    proc: Proc, logdir: Path, seconds: float, core: int | None, *, window: bool = False
) -> tuple[int, int]:
    """Warm up, then load for `seconds`: (requests completed, server CPU ns spent). With
    `window`, SIGUSR2 marks the measured load's start and end for our sampler."""
    script = lua_script(logdir / "bodies.lua", [b for _, _, b in bodies.RULES_BODIES])
    url = proc.base_url + ENDPOINT
    run_wrk(url, script, connections=16, duration_s=2, core=core)
    if window:
        proc.popen.send_signal(signal.SIGUSR2)
    loaded = load_server(proc.popen.pid, url, script, connections=16, duration_s=seconds, core=core)
    if window:
        proc.popen.send_signal(signal.SIGUSR2)
    return loaded.result.requests, loaded.spent_ns


def py_spy_shares(raw: str) -> Counter[str]:
    """py-spy's raw samples (`frame;frame;… count`, outermost first), per component."""
    shares: Counter[str] = Counter()
    for line in raw.splitlines():
        stack, _, count = line.rpartition(" ")
        if not count.isdigit():
            continue
        frames = []
        for part in stack.split(";"):
            name, _, where = part.rpartition(" (")
            path = where.rsplit(":", 1)[0]
            # py-spy shortens paths under the working directory ("rules/registry.py").
            frames.append(f"{path if path.startswith('/') else '/' + path}:{name}")
        shares[component_of(reversed(frames))] += int(count)
    return shares


def main(argv: list[str]) -> int:
    """Print the component table (ours and py-spy's)."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks components", description=__doc__)
    parser.add_argument("--seconds", type=float, default=8.0)
    add_save_flag(parser)
    args = parser.parse_args(argv)
    if wrk_path() is None:
        print("wrk not found: make wrk")
        return 2
    logdir = Path(tempfile.mkdtemp(prefix="components-"))
    cores = sorted(os.sched_getaffinity(0))
    server_core, load_core = (cores[0], cores[1]) if len(cores) > 1 else (None, None)
    out = logdir / "profile.json"
    proc = _profiled_service(logdir, out)
    try:
        if server_core is not None:
            pin(proc.popen.pid, server_core)
        requests, spent = _drive(proc, logdir, args.seconds, load_core, window=True)
    finally:
        proc.popen.send_signal(signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.popen.wait(timeout=30)
        proc.stop()
    profile = json.loads(out.read_text())
    # The sampler's charges are the serving thread's; other threads (the sampler itself, the
    # offload pool) are in `spent`: scale the shares to the window's CPU per request.
    charged = Counter({k: int(v) for k, v in profile["charged_ns"].items()})
    total_charged = sum(charged.values()) or 1
    cpu_us = spent / 1e3 / max(1, requests)
    ours = {name: round(cpu_us * charged[name] / total_charged, 1) for name in [*COMPONENTS, REST]}
    spy_figures = _py_spy(logdir, args.seconds, server_core, load_core, cpu_us_hint=cpu_us)
    report: dict[str, Any] = {
        "command": "python -m benchmarks components",
        "requests": requests,
        "cpu_us_per_request": round(cpu_us, 1),
        "ours_us_per_request": ours,
        "samples": profile["samples"],
        "py_spy_us_per_request": spy_figures,
        "load_average": os.getloadavg(),
        "note": "ours: the window's charges by the serving thread's CPU clock, as shares of "
        "the process's CPU per request; py-spy: on-CPU sample shares of a second run × that "
        "run's CPU per request",
    }
    print(f"{requests} requests, {cpu_us:.1f} µs of server CPU each ({profile['samples']} samples)")
    print(f"  {'component':<26} {'ours':>8} {'py-spy':>8}")
    for name, value in ours.items():
        other = spy_figures.get(name) if spy_figures else None
        print(f"  {name:<26} {value:>8.1f} {other if other is not None else '—':>8}")
    target = results_dir(args.save) / "components.json"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n")
    return 0


def _py_spy(
    logdir: Path, seconds: float, server_core: int | None, load_core: int | None, cpu_us_hint: float
) -> dict[str, float] | None:
    spy = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))
    if not Path(spy).exists():
        return None
    service = start_service(logdir, {"log_level": "INFO", "llm_cache_ttl_s": "0"}, uvloop=True)
    samples = logdir / "py-spy.txt"
    try:
        if server_core is not None:
            pin(service.popen.pid, server_core)
        record = [spy, "record", "--pid", str(service.popen.pid), "--format", "raw", "--rate"]
        record += ["250", "--duration", str(int(seconds) + 2), "--nonblocking"]
        sampler = subprocess.Popen(
            [*record, "--output", str(samples)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        requests, spent = _drive(service, logdir, seconds, load_core)
        sampler.wait(timeout=seconds + 30)
    finally:
        service.stop()
    shares = py_spy_shares(samples.read_text()) if samples.exists() else Counter()
    total = sum(shares.values())
    if not total:
        return None
    cpu_us = spent / 1e3 / max(1, requests) or cpu_us_hint
    return {name: round(cpu_us * shares[name] / total, 1) for name in [*COMPONENTS, REST]}


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
