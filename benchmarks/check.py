"""`python -m benchmarks check [--dir DIR] [NAME ...]`: every target of the named results,
✓ or ✗, and exit 1 on a miss (or a result that is not there). `make bench-check` runs the
scenarios that carry the performance targets, then this.

A result is the JSON a benchmark wrote (`benchmarks/results-local/NAME.json` by default,
`--dir benchmarks/results` for the committed ones); its `targets` map each target's wording
to whether it was met.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from benchmarks.results_dir import SCRATCH

# The results that carry the performance targets (issue 33), as `make bench-check` runs them.
DEFAULT = ("rules", "mcp-overhead", "llm-client", "workers")


def check(folder: Path, names: list[str]) -> tuple[list[str], bool]:
    """The lines to print, and whether every target of every result was met."""
    lines: list[str] = []
    ok = True
    for name in names:
        path = folder / f"{name}.json"
        try:
            targets = json.loads(path.read_text()).get("targets") or {}
        except (OSError, ValueError) as exc:
            lines.append(f"✗ {name}: no result at {path} ({exc.__class__.__name__})")
            ok = False
            continue
        if not targets:
            lines.append(f"✗ {name}: the result names no target")
            ok = False
        for wording, met in targets.items():
            lines.append(f"{'✓' if met else '✗'} {name}: {wording}")
            ok = ok and bool(met)
    return lines, ok


def main(argv: list[str]) -> int:
    """Print each target ✓/✗; exit 1 on a miss."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks check", description=__doc__)
    parser.add_argument("names", nargs="*", default=list(DEFAULT))
    parser.add_argument("--dir", type=Path, default=SCRATCH, help="where the results are")
    args = parser.parse_args(argv)
    lines, ok = check(args.dir, args.names)
    print("\n".join(lines))
    return 0 if ok else 1
