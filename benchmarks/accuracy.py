"""`python -m benchmarks accuracy [--peers] [--show-failures] [--gold PATH ...]`.

Exact-match accuracy of `resolve_time` on the scanner gold sets, per file and per category
(family) and overall: by default v1 (SPEC §4) and v2 (§4.1 families, the guard rule). With
`--peers`, other parsers on the v2 cases (the new families; or on `--gold` when given), see
`benchmarks.peers`. Writes `accuracy.json` to benchmarks/results-local/ (or
benchmarks/results/ with --save).
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from pathlib import Path

from benchmarks.gold import GOLD_PATH, GOLD_V2_PATH, Case, load
from benchmarks.results_dir import add_save_flag, results_dir


def main(argv: list[str]) -> int:
    """Print and record the accuracy of the scanner (and, with --peers, of other parsers)."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks accuracy")
    parser.add_argument("--gold", type=Path, action="append", help="default: v1 and v2")
    parser.add_argument("--peers", action="store_true", help="also score the peer parsers")
    parser.add_argument("--show-failures", action="store_true")
    parser.add_argument("--out", type=Path, help="the JSON report (default: accuracy.json)")
    add_save_flag(parser)
    args = parser.parse_args(argv)

    paths: list[Path] = args.gold or [GOLD_PATH, GOLD_V2_PATH]
    report: dict[str, object] = {"gold": [str(p) for p in paths], "files": {}}
    files: dict[str, object] = {}
    passed = total = 0
    for path in paths:
        cases = load(path)
        figures = _score(path.name, cases, show_failures=args.show_failures)
        files[path.name] = figures
        passed += int(str(figures["correct"]))
        total += len(cases)
    print(f"{'all files':<24} {passed:>7} {total:>5} {passed / total:>8.1%}")
    report["files"] = files
    report["cases"] = total
    report["scanner"] = {"correct": passed, "accuracy": passed / total}
    if args.peers:
        from benchmarks.peers import score_peers

        report["peers"] = score_peers(load(args.gold[0] if args.gold else GOLD_V2_PATH))
    out = args.out or results_dir(args.save) / "accuracy.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    return 0


def _score(name: str, cases: list[Case], *, show_failures: bool) -> dict[str, object]:
    """Print one file's per-category table; return its figures."""
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
    print(f"{name}")
    print(f"  {'category':<22} {'correct':>7} {'total':>5} {'accuracy':>8}")
    for category in sorted(per_category):
        correct, total = per_category[category]
        print(f"  {category:<22} {correct:>7} {total:>5} {correct / total:>8.1%}")
    print(f"  {'overall':<22} {passed:>7} {len(cases):>5} {passed / len(cases):>8.1%}")
    if show_failures:
        for case, result in failures:
            got = None if result is None else result.params()
            expr = None if result is None else result.expr
            print(f"FAIL {case.id} {case.query!r} expected={case.expected} got={got} expr={expr}")
    return {
        "correct": passed,
        "total": len(cases),
        "accuracy": passed / len(cases),
        "per_category": {
            category: {"correct": ok, "total": n, "accuracy": ok / n}
            for category, (ok, n) in sorted(per_category.items())
        },
        "failures": [case.id for case, _ in failures],
    }
