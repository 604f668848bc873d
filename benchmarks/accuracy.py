"""`python -m benchmarks accuracy [--peers] [--show-failures] [--gold PATH]`.

Exact-match accuracy of `resolve_time` on the gold set, per category and overall; with
`--peers`, the window accuracy of other parsers on the same cases (see `benchmarks.peers`).
Writes `accuracy.json` to benchmarks/results-local/ (or benchmarks/results/ with --save).
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from pathlib import Path

from benchmarks.gold import GOLD_PATH, load
from benchmarks.results_dir import add_save_flag, results_dir


def main(argv: list[str]) -> int:
    """Print and record the accuracy of the engine (and, with --peers, of other parsers)."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks accuracy")
    parser.add_argument("--gold", type=Path, default=GOLD_PATH)
    parser.add_argument("--peers", action="store_true", help="also score the peer parsers")
    parser.add_argument("--show-failures", action="store_true")
    parser.add_argument("--out", type=Path, help="the JSON report (default: accuracy.json)")
    add_save_flag(parser)
    args = parser.parse_args(argv)

    cases = load(args.gold)
    per_category: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    failures = []
    for case in cases:
        result = case.run()
        ok = case.passes(result)
        per_category[case.category][0] += ok
        per_category[case.category][1] += 1
        if not ok:
            failures.append((case, result))

    passed = sum(counts[0] for counts in per_category.values())
    print(f"{'category':<18} {'correct':>7} {'total':>5} {'accuracy':>8}")
    for category in sorted(per_category):
        correct, total = per_category[category]
        print(f"{category:<18} {correct:>7} {total:>5} {correct / total:>8.1%}")
    print(f"{'overall':<18} {passed:>7} {len(cases):>5} {passed / len(cases):>8.1%}")
    if args.show_failures:
        for case, result in failures:
            got = None if result is None else result.params()
            expr = None if result is None else result.expr
            print(f"FAIL {case.id} {case.query!r} expected={case.expected} got={got} expr={expr}")

    report: dict[str, object] = {
        "gold": str(args.gold),
        "cases": len(cases),
        "engine": {
            "correct": passed,
            "accuracy": passed / len(cases),
            "per_category": {
                category: {"correct": ok, "total": total, "accuracy": ok / total}
                for category, (ok, total) in sorted(per_category.items())
            },
            "failures": [case.id for case, _ in failures],
        },
    }
    if args.peers:
        from benchmarks.peers import score_peers

        report["peers"] = score_peers(cases)
    out = args.out or results_dir(args.save) / "accuracy.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    return 0
