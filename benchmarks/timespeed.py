"""`python -m benchmarks timespeed [--repeat N] [--gold PATH]`: engine speed on the gold set.

Times one `resolve_time` call per gold case (with the case's overrides), `--repeat` passes
after one warm-up pass, and prints the median and p99 in µs over all calls, overall and per
language. Writes `benchmarks/results/timespeed.json`.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import time
from pathlib import Path

from benchmarks.gold import GOLD_PATH, Case, load

RESULTS = Path(__file__).parent / "results" / "timespeed.json"


def _percentile(sorted_us: list[float], fraction: float) -> float:
    return sorted_us[min(len(sorted_us) - 1, int(len(sorted_us) * fraction))]


def _summary(samples: list[float]) -> dict[str, float | int]:
    ordered = sorted(samples)
    return {
        "calls": len(ordered),
        "median_us": round(statistics.median(ordered), 2),
        "p99_us": round(_percentile(ordered, 0.99), 2),
        "max_us": round(ordered[-1], 2),
    }


def _time_once(case: Case) -> float:
    began = time.perf_counter_ns()
    case.run()
    return (time.perf_counter_ns() - began) / 1000


def main(argv: list[str]) -> int:
    """Time the engine over every gold query and record median/p99 µs."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks timespeed")
    parser.add_argument("--gold", type=Path, default=GOLD_PATH)
    parser.add_argument("--repeat", type=int, default=20, help="timed passes over the gold set")
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = parser.parse_args(argv)

    cases = load(args.gold)
    for case in cases:  # warm-up: imports, regex caches, zoneinfo transition tables
        case.run()
    by_lang: dict[str, list[float]] = {}
    for _ in range(args.repeat):
        for case in cases:
            by_lang.setdefault(case.lang, []).append(_time_once(case))
    every = [sample for samples in by_lang.values() for sample in samples]

    report = {
        "queries": len(cases),
        "repeat": args.repeat,
        "overall": _summary(every),
        "per_lang": {lang: _summary(samples) for lang, samples in sorted(by_lang.items())},
        "python": platform.python_version(),
        "machine": f"{platform.machine()} {platform.processor() or ''}".strip(),
        "cpus": os.cpu_count(),
    }
    print(f"{'':8} {'calls':>6} {'median µs':>10} {'p99 µs':>8} {'max µs':>8}")
    rows = [("overall", report["overall"]), *report["per_lang"].items()]  # type: ignore[attr-defined]
    for name, figures in rows:
        print(
            f"{name:8} {figures['calls']:>6} {figures['median_us']:>10.1f}"
            f" {figures['p99_us']:>8.1f} {figures['max_us']:>8.1f}"
        )
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    return 0
