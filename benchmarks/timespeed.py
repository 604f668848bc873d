"""`python -m benchmarks timespeed [--repeat N] [--gold PATH ...]`: scanner speed on the gold.

Times one `resolve_time` call per gold case (with the case's overrides) over the whole
scanner gold set (v1 and v2, or the `--gold` files), `--repeat` passes after one warm-up pass,
and prints in µs:

- all calls: median and p99 of every timed call (wall clock), overall and per language;
- best of N: per query the fastest of its N calls, then the median and p99 over queries.
  On a shared machine this drops the calls another process interrupted;
- calibration: the fastest `sum(range(1000))` on this machine now, to scale the figures
  against runs taken elsewhere or under other load.

With `--against REV` (a git revision), the scanner of that revision is loaded beside this one
(its `resolver/timeexpr/` extracted under another package name) and both are timed on every
case, alternating call by call, so that load on a shared machine falls on both alike; the
report adds the other scanner's figures and the ratio of the medians.

Writes `timespeed.json` to benchmarks/results-local/ (or benchmarks/results/ with --save).
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile
import time
import timeit
from collections.abc import Callable
from pathlib import Path
from typing import Any

from benchmarks.gold import GOLD_PATH, GOLD_V2_PATH, Case, load
from benchmarks.results_dir import add_save_flag, results_dir


def _summary(samples: list[float]) -> dict[str, float | int]:
    ordered = sorted(samples)
    return {
        "calls": len(ordered),
        "median_us": round(statistics.median(ordered), 2),
        "p99_us": round(ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))], 2),
        "max_us": round(ordered[-1], 2),
    }


def _time_once(case: Case, cold: Callable[[], None] | None = None) -> float:
    if cold is not None:
        cold()  # a text read for the first time: the reading cache forgets it, untimed
    began = time.perf_counter_ns()
    case.run()
    return (time.perf_counter_ns() - began) / 1000


Scanner = Callable[..., Any]
_REPO = Path(__file__).resolve().parents[1]


def _scanner_at(revision: str) -> tuple[Scanner, Callable[[], None]]:
    """`resolve_time` of another git revision, imported under a package name of its own, and
    its reading cache's `clear_cache` (so that --cold times both scanners cold)."""
    name = "timeexpr_at_" + re.sub(r"\W", "_", revision)
    root = Path(tempfile.mkdtemp(prefix="timespeed-"))
    (root / name).mkdir()
    listed = subprocess.run(
        ["git", "ls-tree", "-r", "--name-only", revision, "resolver/timeexpr/"],
        capture_output=True, text=True, check=True, cwd=_REPO,
    ).stdout.split()  # fmt: skip
    for path in (p for p in listed if p.endswith(".py")):
        source = subprocess.run(
            ["git", "show", f"{revision}:{path}"],
            capture_output=True, text=True, check=True, cwd=_REPO,
        ).stdout  # fmt: skip
        target = root / name / Path(path).relative_to("resolver/timeexpr")  # lang/ too
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(source.replace("resolver.timeexpr", name))
    sys.path.insert(0, str(root))
    scanner: Scanner = importlib.import_module(name).resolve_time
    clear: Callable[[], None] = importlib.import_module(f"{name}.reading").clear_cache
    return scanner, clear


def _time_other(scanner: Scanner, case: Case, cold: Callable[[], None] | None = None) -> float:
    if cold is not None:
        cold()  # as for this scanner: a text read for the first time, untimed
    began = time.perf_counter_ns()
    scanner(case.query, now_ms=case.now_ms, tz=case.tz, instant=case.instant, step=case.step)
    return (time.perf_counter_ns() - began) / 1000


def _calibration_us() -> float:
    return min(timeit.repeat("sum(range(1000))", number=2000, repeat=5)) / 2000 * 1e6


def main(argv: list[str]) -> int:
    """Time the scanner over every gold query and record median/p99 µs."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks timespeed")
    parser.add_argument("--gold", type=Path, action="append", help="default: v1 and v2")
    parser.add_argument("--repeat", type=int, default=20, help="timed passes over the gold set")
    parser.add_argument("--out", type=Path, help="the JSON report (default: timespeed.json)")
    parser.add_argument("--against", help="also time the scanner of this git revision")
    parser.add_argument(
        "--cold", action="store_true", help="clear the reading cache before each call (no memo)"
    )
    add_save_flag(parser)
    args = parser.parse_args(argv)

    cases = [case for path in args.gold or (GOLD_PATH, GOLD_V2_PATH) for case in load(path)]
    cold = None
    if args.cold:
        from resolver.timeexpr.reading import clear_cache

        cold = clear_cache
    other, other_clear = (None, None) if args.against is None else _scanner_at(args.against)
    other_cold = other_clear if args.cold else None
    for case in cases:  # warm-up: imports, regex caches, zoneinfo transition tables
        case.run()
        if other is not None:
            _time_other(other, case)
    calibration = _calibration_us()
    per_case: list[list[float]] = [[] for _ in cases]
    other_case: list[list[float]] = [[] for _ in cases]
    for round_no in range(args.repeat):
        for index, case in enumerate(cases):
            if other is not None and round_no % 2:  # who goes first turns every round
                other_case[index].append(_time_other(other, case, other_cold))
            per_case[index].append(_time_once(case, cold))
            if other is not None and not round_no % 2:
                other_case[index].append(_time_other(other, case, other_cold))
    by_lang: dict[str, list[float]] = {}
    for case, samples in zip(cases, per_case, strict=True):
        by_lang.setdefault(case.lang, []).extend(samples)

    report = {
        "queries": len(cases),
        "cold": args.cold,
        "repeat": args.repeat,
        "all_calls": _summary([sample for samples in per_case for sample in samples]),
        "all_calls_per_lang": {lang: _summary(s) for lang, s in sorted(by_lang.items())},
        "best_of_repeat": _summary([min(samples) for samples in per_case]),
        "calibration_sum_range_1000_us": round(calibration, 2),
        "python": platform.python_version(),
        "machine": platform.machine(),
        "cpus": os.cpu_count(),
        "load_average_1m": round(os.getloadavg()[0], 2),
    }
    if other is not None:
        report["against"] = {
            "revision": args.against,
            "all_calls": _summary([sample for samples in other_case for sample in samples]),
            "best_of_repeat": _summary([min(samples) for samples in other_case]),
        }
        report["ratio_all_calls_median"] = round(
            report["all_calls"]["median_us"] / report["against"]["all_calls"]["median_us"], 2
        )
        report["ratio_best_of_repeat_median"] = round(
            report["best_of_repeat"]["median_us"]
            / report["against"]["best_of_repeat"]["median_us"],
            2,
        )
    print(f"{'':16} {'calls':>6} {'median µs':>10} {'p99 µs':>8} {'max µs':>9}")
    rows = [
        ("all calls", report["all_calls"]),
        *((f"  {lang}", figures) for lang, figures in report["all_calls_per_lang"].items()),
        (f"best of {args.repeat}", report["best_of_repeat"]),
    ]
    for name, figures in rows:
        print(
            f"{name:16} {figures['calls']:>6} {figures['median_us']:>10.1f}"
            f" {figures['p99_us']:>8.1f} {figures['max_us']:>9.1f}"
        )
    if other is not None:
        against = report["against"]
        for name, figures in (
            (f"{args.against[:8]} all", against["all_calls"]),
            (f"{args.against[:8]} best", against["best_of_repeat"]),
        ):
            print(
                f"{name:16} {figures['calls']:>6} {figures['median_us']:>10.1f}"
                f" {figures['p99_us']:>8.1f} {figures['max_us']:>9.1f}"
            )
        print(
            f"ratio of medians (this / {args.against[:8]}): all calls"
            f" {report['ratio_all_calls_median']}, best of {args.repeat}"
            f" {report['ratio_best_of_repeat_median']}"
        )
    print(
        f"calibration: sum(range(1000)) = {calibration:.1f} µs;"
        f" load average {report['load_average_1m']} on {report['cpus']} CPUs"
    )
    out = args.out or results_dir(args.save) / "timespeed.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    return 0
