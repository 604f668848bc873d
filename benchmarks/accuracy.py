"""`python -m benchmarks accuracy [--no-peers] [--peer-metrics] [--show-failures] [--gold PATH]`.

Right / declined / wrong, per family, of the scanner and of every peer parser importable here,
side by side, on the gold sets written from the SPEC (v1 §4, v2 §4.1, v3 §4.2) and on the
Duckling corpus and Microsoft Recognizers-Text's DateTime specs converted to SPEC conventions
(`benchmarks/data/README_duckling.md`, `benchmarks/data/README_recognizers.md`):

- right: the answer is the expected one (nothing, when nothing may be settled);
- declined: nothing settled where a window was expected — a 422 or the LLM, never a wrong
  window;
- wrong: a window or instant other than the expected one, or any where nothing may be settled
  — the worst answer the service can give (SPEC §4.1), the column that matters.

The scanner is judged as the service answers: exact parameters (instant, start, end, step)
with the case's `instant`/`step` overrides, a window outside 2000..2100 being refused (§5).
Peers cannot see overrides nor express a step: a peer's first window is compared with the
expected one to the second (`benchmarks.peers`: dates become 00:00:00 .. 23:59:59), an instant
is right when its window holds now. Peers (`pip install -e '.[peers]'`): jionlp,
time-parser-zh, recognizers-text-suite; one that is not installed is listed and skipped.
`--peer-metrics` adds `benchmarks.peers`' metrics (window@day, window@second, instant, quiet)
and the speed of every parser on the v2 gold set.

Writes `accuracy.json` to benchmarks/results-local/ (or benchmarks/results/ with --save).
"""

from __future__ import annotations

import argparse
import json
import logging
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Literal
from zoneinfo import ZoneInfo

from benchmarks.gold import DATA, GOLD_PATH, GOLD_V2_PATH, Case, load
from benchmarks.results_dir import add_save_flag, results_dir
from resolver.timeexpr.calendar import wall_clock
from rules.spec import MAX_MS, MIN_MS

Verdict = Literal["right", "declined", "wrong"]
VERDICTS: tuple[Verdict, ...] = ("right", "declined", "wrong")
SCANNER = "resolver"
DEFAULT_SOURCES = (
    GOLD_PATH,
    GOLD_V2_PATH,
    DATA / "time_gold_v3.jsonl",
    DATA / "duckling_en.jsonl",
    DATA / "duckling_zh.jsonl",
)
# Microsoft Recognizers-Text's specs (README_recognizers.md): printed by default, kept apart
# from DEFAULT_SOURCES so that the tests built on it choose when to take them in.
RECOGNIZERS_SOURCES = (DATA / "recognizers_en.jsonl", DATA / "recognizers_zh.jsonl")
# corpus rows a SPEC row reads (a window expected) whose text names one calendar period
READ_BASES = ("spec", "differ")


def load_any(path: Path) -> list[Case]:
    """The cases of a gold file or of a converted corpus file (Duckling, Recognizers-Text: rows
    with `text` and `basis`; an out-of-range row expects nothing: the rules refuse its window)."""
    with path.open(encoding="utf-8") as lines:
        first = json.loads(next(line for line in lines if line.strip()))
    if "text" not in first:
        return load(path)
    zones: dict[str, ZoneInfo] = {}
    cases = []
    with path.open(encoding="utf-8") as lines:
        for line in lines:
            if not line.strip():
                continue
            row = json.loads(line)
            tz = zones.setdefault(row["timezone"], ZoneInfo(row["timezone"]))
            expected = None if row["basis"] == "out-of-range" else row["expected"]
            case = Case(
                row["id"], row["family"], row["lang"], row["text"], row["now_ms"], tz, None, None,
                expected,
            )  # fmt: skip
            cases.append(case)
    return cases


def scanner_verdict(case: Case) -> tuple[Verdict, dict[str, Any] | None]:
    """The scanner's verdict on a case, as the service would answer it, and its answer."""
    result = case.run()
    got = None if result is None else result.params()
    edges = () if result is None else (result.start, result.end)
    if any(edge is not None and not MIN_MS <= edge <= MAX_MS for edge in edges):
        got = None  # the rules refuse a window outside 2000..2100: nothing is settled
    if got is None:
        return ("right" if case.expected is None else "declined"), None
    return ("right" if got == case.expected else "wrong"), got


def peer_verdict(window: tuple[datetime, datetime] | None, case: Case, now: datetime) -> Verdict:
    """A peer's verdict: its first window against the expected one, to the second."""
    expected = case.expected
    if window is None:
        return "declined" if expected else "right"
    if not expected or (not expected.get("instant") and "start" not in expected):
        return "wrong"  # a window where nothing (or a step alone) may be settled
    if expected.get("instant"):
        return "right" if window[0] <= now <= window[1] else "wrong"
    start = wall_clock(expected["start"], case.tz).replace(microsecond=0)
    end = wall_clock(expected["end"], case.tz).replace(microsecond=0)
    return "right" if window == (start, end) else "wrong"


@dataclass
class Table:
    """Verdict counts per source, per family, per parser."""

    counts: dict[str, dict[str, dict[str, Counter[str]]]]
    wrong: dict[str, list[tuple[str, str, Any, Any]]]
    single: dict[str, Counter[str]] = field(default_factory=dict)

    def add(self, source: str, family: str, parser: str, verdict: Verdict) -> None:
        """Count one verdict."""
        self.counts.setdefault(source, {}).setdefault(family, {}).setdefault(parser, Counter())[
            verdict
        ] += 1


Parse = Callable[[Case, datetime], tuple[datetime, datetime] | None]


def _peers() -> list[tuple[str, tuple[str, ...], Parse]]:
    """Every peer parser importable here: name, languages, parse."""
    from benchmarks.peers import PEERS

    found: list[tuple[str, tuple[str, ...], Parse]] = []
    for factory in PEERS[1:]:  # PEERS[0] is the scanner, judged here as the service answers
        try:
            peer = factory()
        except ImportError as exc:
            print(f"peer {factory.__name__.strip('_')}: not installed ({exc}); skipped")
            continue
        found.append((peer.name, peer.langs, peer.parse))
    return found


def single_ids(path: Path) -> set[str]:
    """Ids of a corpus file's rows that name one calendar period a SPEC row reads (`single`
    true and basis `spec`/`differ`); empty for the gold files, which carry no such flag."""
    ids: set[str] = set()
    with path.open(encoding="utf-8") as lines:
        for line in lines:
            row = json.loads(line) if line.strip() else {}
            if row.get("single") and row.get("basis") in READ_BASES:
                ids.add(row["id"])
    return ids


def score(sources: Iterable[Path], *, peers: bool) -> Table:
    """Judge the scanner (and the peers) on every case of every source."""
    table = Table({}, defaultdict(list))
    parsers = _peers() if peers else []
    logging.disable(logging.CRITICAL)  # jionlp logs a traceback for every miss
    try:
        for path in sources:
            singles = single_ids(path)
            for case in load_any(path):
                verdict, got = scanner_verdict(case)
                table.add(path.name, case.category, SCANNER, verdict)
                if case.id in singles:
                    table.single.setdefault(path.name, Counter())[verdict] += 1
                if verdict == "wrong":
                    table.wrong[SCANNER].append((case.id, case.query, case.expected, got))
                now = wall_clock(case.now_ms, case.tz).replace(microsecond=0)
                for name, langs, parse in parsers:
                    if case.lang in langs:
                        table.add(
                            path.name,
                            case.category,
                            name,
                            peer_verdict(parse(case, now), case, now),
                        )
    finally:
        logging.disable(logging.NOTSET)
    return table


def _cell(counts: Counter[str] | None) -> str:
    if not counts:
        return "n/a"
    return "/".join(str(counts[v]) for v in VERDICTS)


def render(table: Table) -> str:
    """The table as text: one block per source, a row per family, R/D/W per parser."""
    others = {p for fams in table.counts.values() for ps in fams.values() for p in ps}
    parsers = [SCANNER, *sorted(others - {SCANNER})]
    lines = [
        "right/declined/wrong per family (wrong: a window where another or none was expected)",
        f"{'family':<22} {'cases':>5}" + "".join(f" {p[:22]:>22}" for p in parsers),
    ]
    overall: dict[str, Counter[str]] = defaultdict(Counter)
    for source, families in table.counts.items():
        lines.append(source)
        totals: dict[str, Counter[str]] = defaultdict(Counter)
        for family in sorted(families):
            by_parser = families[family]
            size = sum(by_parser[SCANNER].values())
            cells = "".join(f" {_cell(by_parser.get(p)):>22}" for p in parsers)
            lines.append(f"  {family:<20} {size:>5}{cells}")
            for parser, counts in by_parser.items():
                totals[parser] += counts
                overall[parser] += counts
        size = sum(totals[SCANNER].values())
        lines.append(
            f"  {'all':<20} {size:>5}" + "".join(f" {_cell(totals.get(p)):>22}" for p in parsers)
        )
        if single := table.single.get(source):
            n = sum(single.values())
            lines.append(
                f"  {'single, SPEC-read':<20} {n:>5} {_cell(single):>22}"
                f"  ({100 * single['right'] / n:.1f}% right)"
            )
    size = sum(overall[SCANNER].values())
    lines.append(
        f"{'all sources':<22} {size:>5}" + "".join(f" {_cell(overall.get(p)):>22}" for p in parsers)
    )
    return "\n".join(lines)


def report(table: Table) -> dict[str, Any]:
    """The figures as JSON."""
    return {
        "sources": {
            source: {
                family: {parser: dict(counts) for parser, counts in by_parser.items()}
                for family, by_parser in sorted(families.items())
            }
            for source, families in table.counts.items()
        },
        "single_spec_read": {source: dict(c) for source, c in table.single.items()},
        "scanner_wrong": [
            {"id": case_id, "text": text, "expected": expected, "got": got}
            for case_id, text, expected, got in table.wrong[SCANNER]
        ],
    }


def main(argv: list[str]) -> int:
    """Print and record right/declined/wrong of the scanner and the peers."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks accuracy")
    parser.add_argument(
        "--gold", type=Path, action="append", help="default: v1-v3, Duckling, Recognizers-Text"
    )
    parser.add_argument("--no-peers", action="store_true", help="the scanner alone")
    parser.add_argument("--show-failures", action="store_true", help="list the scanner's wrongs")
    parser.add_argument(
        "--peer-metrics", action="store_true", help="also benchmarks.peers' metrics and speeds"
    )
    parser.add_argument("--out", type=Path, help="the JSON report (default: accuracy.json)")
    add_save_flag(parser)
    args = parser.parse_args(argv)
    sources: list[Path] = args.gold or [*DEFAULT_SOURCES, *RECOGNIZERS_SOURCES]
    table = score(sources, peers=not args.no_peers)
    print(render(table))
    if args.show_failures:
        for case_id, text, expected, got in table.wrong[SCANNER]:
            print(f"WRONG {case_id} {text!r} expected={expected} got={got}")
    out = args.out or results_dir(args.save) / "accuracy.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    root = DATA.parents[1]
    shown = [
        str(p.resolve().relative_to(root)) if p.resolve().is_relative_to(root) else str(p)
        for p in sources
    ]
    figures = {"gold": shown, **report(table)}
    if args.peer_metrics:
        from benchmarks.peers import score_peers

        figures["peer_metrics"] = score_peers(load(GOLD_V2_PATH))
    out.write_text(json.dumps(figures, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    return 0
