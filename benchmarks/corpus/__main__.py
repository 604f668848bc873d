"""`python -m benchmarks.corpus --duckling DIR [--commit SHA] [--check]`.

`python -m benchmarks.corpus recognizers --repo DIR [--commit SHA] [--check]`: the
Recognizers-Text files (`benchmarks/corpus/recognizers.py`).

DIR is a facebook/duckling git directory (as `fetch` leaves it: no work tree; files are read
with `git show COMMIT:path`) or a checkout (files read from disk). Writes
`benchmarks/data/duckling_{en,zh}.jsonl` (same bytes every run) and prints the counts per
language, basis and family; `--check` compares instead and exits 1 on a difference.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from benchmarks.corpus.duckling import build_rows
from benchmarks.corpus.haskell import reference_times
from benchmarks.corpus.repo import open_repo, write_or_check

DATA = Path(__file__).resolve().parent.parent / "data"
CORPORA = {"en": "Duckling/Time/EN/Corpus.hs", "zh": "Duckling/Time/ZH/Corpus.hs"}
TYPES = "Duckling/Testing/Types.hs"


def _reader(root: Path, commit: str) -> tuple[str, Any]:
    return open_repo(root, commit, marker=TYPES)


def counts(rows: list[dict[str, Any]]) -> str:
    """`lang basis family count` lines, sorted."""
    tally = Counter((r["lang"], r["basis"], r["family"]) for r in rows)
    return "\n".join(
        f"{lang} {basis:12} {fam:16} {n}" for (lang, basis, fam), n in sorted(tally.items())
    )


def main(argv: list[str] | None = None) -> int:
    """Write (or check) the two JSONL files (`recognizers …`: the Recognizers-Text files)."""
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["recognizers"]:
        from benchmarks.corpus.recognizers import main as recognizers_main

        return recognizers_main(argv[1:])
    parser = argparse.ArgumentParser(prog="python -m benchmarks.corpus")
    parser.add_argument("--duckling", required=True, type=Path, help="facebook/duckling git dir")
    parser.add_argument("--commit", default="HEAD", help="commit to read (git dir only)")
    parser.add_argument("--check", action="store_true", help="compare, do not write")
    args = parser.parse_args(argv)
    commit, read = _reader(args.duckling, args.commit)
    print(f"duckling commit: {commit}")
    types = reference_times(read(TYPES))
    status = 0
    for lang, path in CORPORA.items():
        source = read(path)
        rows = build_rows(lang, source, types | reference_times(source))
        target = DATA / f"duckling_{lang}.jsonl"
        status |= write_or_check(target, rows, check=args.check, said=f"{len(rows)} rows")
        print(counts(rows))
    return status


if __name__ == "__main__":
    sys.exit(main())
