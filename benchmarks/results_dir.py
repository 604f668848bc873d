"""Where benchmark figures go: an untracked scratch folder, unless `--save` asks for the
committed `benchmarks/results/` (the files docs/performance.md quotes)."""

from __future__ import annotations

import argparse
from pathlib import Path

HERE = Path(__file__).resolve().parent
SAVED = HERE / "results"
SCRATCH = HERE / "results-local"  # in .gitignore


def add_save_flag(parser: argparse.ArgumentParser) -> None:
    """`--save`: write into benchmarks/results/ (committed) instead of the scratch folder."""
    parser.add_argument(
        "--save",
        action="store_true",
        help=f"write into {SAVED.relative_to(HERE.parent)} (committed); "
        f"by default figures go to {SCRATCH.relative_to(HERE.parent)} (untracked)",
    )


def results_dir(save: bool) -> Path:
    """The folder this run writes into."""
    return SAVED if save else SCRATCH
