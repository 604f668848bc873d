"""`python -m benchmarks timeadversarial [--repeat N]`: hostile texts through the scanner.

Reading must be linear in a text's length (SPEC §4.2), and a 4,000-character text of any
hostile class (numeral runs, digit runs in non-ASCII text, separators, repeated units, words
that join time, clock and zone sentences …) must read in at most 5 ms (issue 20). For each
class, at 1,000, 2,000 and 4,000 characters, this times a cold `read` (the reading cache
emptied first) and the context's sentence finder (`read_context`: clock and zone sentences,
then the reading), `--repeat` times, and prints the median and the best in ms (the best drops
what other processes of a shared machine cost it; a garbage collection runs before each call),
and the growth from 1,000 to 4,000 characters (4.0 is linear; quadratic would show 16; below
4.0, the bounds of `docs/time-semantics.md` cut the reading short).

Writes `timeadversarial.json` to benchmarks/results-local/ (or benchmarks/results/ --save).
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass

from benchmarks.results_dir import add_save_flag, results_dir
from resolver.timeexpr import MAX_TEXT, read, read_context
from resolver.timeexpr.reading import clear_cache

# Each class is one piece repeated to the length under test.
CLASSES: dict[str, str] = {
    "zh numerals": "一二三四五六七八九十",
    "zh numerals and units": "三个月",
    "digits in Chinese": "1年2月",
    "digit run": "7",
    "digits between CJK": "药7",
    "separators": "-/.~",
    "comparisons": ">=<",
    "dates": "2024-03-15 ",
    "units": "年",
    "clock words": "点",
    "english months": "march ",
    "relative words": "last ",
    "joins": "3 and ",
    "number words": "twenty one ",
    "ordinals": "1st 2nd ",
    "weekdays": "周一",
    "relative periods": "上个月",
    "festivals": "春节国庆",
    "unknown festivals": "光明节",
    "mixed": "最近3个月到2024年 and Q1-Q3, 5/1-5/7 下午3点到5点 ",
    "spaces": " ",
    "clock sentences": "今天是2025年11月13日",
    "zone sentences": "用户在纽约时区",
    "zone cues": "在时区",
    "prose": "药",
}
SIZES = (1000, 2000, MAX_TEXT)


def hostile(piece: str, size: int = MAX_TEXT) -> str:
    """A text of `size` characters: the piece repeated."""
    return (piece * (size // len(piece) + 1))[:size]


def _times(call: Callable[[str], object], text: str, repeat: int) -> list[float]:
    samples = []
    for _ in range(repeat):
        clear_cache()
        gc.collect()
        began = time.perf_counter()
        call(text)
        samples.append((time.perf_counter() - began) * 1000)
    return samples


def _context(text: str) -> object:
    return read_context(text, zone_given=False)


@dataclass(frozen=True)
class Row:
    """One class through one entry point: median and best ms per size, growth 1k → 4k."""

    median_ms: dict[int, float]
    best_ms: dict[int, float]
    growth: float

    def figures(self) -> dict[str, object]:
        """As JSON."""
        return {
            "median_ms": {str(size): round(ms, 3) for size, ms in self.median_ms.items()},
            "best_ms": {str(size): round(ms, 3) for size, ms in self.best_ms.items()},
            "growth_1k_to_4k": round(self.growth, 2),
        }


def measure(repeat: int = 7) -> dict[str, Row]:
    """Per class and entry point, the figures of each size."""
    rows: dict[str, Row] = {}
    for name, piece in CLASSES.items():
        for entry, call in (("read", read), ("read_context", _context)):
            medians, best = {}, {}
            for size in SIZES:
                samples = _times(call, hostile(piece, size), repeat)
                medians[size] = statistics.median(samples)
                best[size] = min(samples)
            growth = medians[MAX_TEXT] / max(medians[SIZES[0]], 1e-6)
            rows[f"{name} / {entry}"] = Row(medians, best, growth)
    return rows


def main(argv: list[str]) -> int:
    """Print and record the figures."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks timeadversarial")
    parser.add_argument("--repeat", type=int, default=7)
    add_save_flag(parser)
    args = parser.parse_args(argv)
    rows = measure(args.repeat)
    head = "".join(f" {'median ' + str(s):>12}" for s in SIZES)
    print(f"{'class / entry point':<40}{head} {'best 4000':>10} {'growth':>7}")
    for name, row in rows.items():
        cells = "".join(f" {row.median_ms[s]:>12.3f}" for s in SIZES)
        print(f"{name:<40}{cells} {row.best_ms[MAX_TEXT]:>10.3f} {row.growth:>7.2f}")
    slowest = max(max(row.median_ms.values()) for row in rows.values())
    print(f"slowest median of any size: {slowest:.2f} ms (target: 5 ms at 4,000 characters)")
    out = results_dir(args.save) / "timeadversarial.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    report = {
        "repeat": args.repeat,
        "sizes": list(SIZES),
        "classes": {name: row.figures() for name, row in rows.items()},
        "slowest_median_ms": round(slowest, 3),
    }
    out.write_text(json.dumps(report, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    return 0
