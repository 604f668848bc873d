"""`python -m benchmarks.differential [--rounds N] [--out DIR]`: the differential tier.

Runs every gold text and the generated ones through the scanner and dateparser, prints the
report (docs/time-differential.md), writes it as `differential.md` and `differential.json`
into DIR (default: the untracked benchmarks/results-local/), and exits 1 when the scanner
settled a window while ignoring time-like words that no reviewed allowlist entry explains.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from benchmarks.differential.generate import ROUNDS
from benchmarks.differential.peer import available
from benchmarks.differential.report import as_json, as_markdown
from benchmarks.differential.run import run, texts
from benchmarks.results_dir import results_dir


def main(argv: list[str]) -> int:
    """Run the differential and report; 1 on any unexplained violation or stale entry."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.differential")
    parser.add_argument(
        "--rounds", type=int, default=ROUNDS, help="generated rounds (each: every insert × "
        f"connector × position once; default {ROUNDS})",
    )  # fmt: skip
    parser.add_argument("--out", type=Path, default=results_dir(save=False))
    args = parser.parse_args(argv)
    if not available():
        print("dateparser is not installed: pip install -e '.[peers]'", file=sys.stderr)
        return 2
    result = run(texts(rounds=args.rounds))
    report = as_markdown(result)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "differential.md").write_text(report, encoding="utf-8")
    (args.out / "differential.json").write_text(as_json(result), encoding="utf-8")
    print(report)
    print(f"written: {args.out / 'differential.md'}, {args.out / 'differential.json'}")
    failed = result.misses or result.insert_misses or result.stale_allowlist
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
