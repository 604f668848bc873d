"""Gold windows from Microsoft Recognizers-Text's DateTime specs, read the SPEC's way.

`python -m benchmarks.corpus recognizers --repo DIR [--commit SHA] [--check]` reads the spec
files of `FILES` from a microsoft/Recognizers-Text git directory (as `fetch` leaves it) or a
checkout, classifies every case (`rt_periods.classify`, then the hand-read `rt_overrides`),
computes the SPEC window at the case's reference time (zone `UTC`) and the peer's own
window, and writes `benchmarks/data/recognizers_{en,zh}.jsonl` (same bytes every run; `--check`
compares instead and exits 1 on a difference). See `benchmarks/data/README_recognizers.md`.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any

from benchmarks.corpus import repo
from benchmarks.corpus.readings import evaluate
from benchmarks.corpus.rt_classify import classify
from benchmarks.corpus.rt_overrides import OVERRIDES
from benchmarks.corpus.rt_rules import Verdict
from benchmarks.corpus.rt_source import Case, Window, load_cases
from benchmarks.gold_oracle.periods import Clock, period_of, shift_wall

DATA = Path(__file__).resolve().parent.parent / "data"
ZONE = "UTC"
FILES = {
    "en": ("English/DateTimeModel", "English/DateParser", "English/DatePeriodParser"),
    "zh": ("Chinese/DateTimeModel", "Chinese/DateParser", "Chinese/DatePeriodParser"),
}
LOWEST_MS, HIGHEST_MS = 946_684_800_000, 4_102_444_800_000  # SPEC §5: 2000 .. 2100 (UTC)
SINGLE_FAMILIES = frozenset(
    [
        "date",
        "numeric_date",
        "month_day",
        "day_of_month",
        "weekday",
        "weekday_date",
        "relative_weekday",
        "near_day",
        "holiday",
        "year",
        "month",
        "relative_period",
        "this_period",
        "quarter",
        "iso_week",
        "week_of",
        "last_week_of",
        "weekend",
        "half_year",
        "half_month",
        "part_of_period",
    ]
)
UNITS_FORWARD = ("day", "month", "year")
Params = dict[str, Any]


def _window(start: int, end: int, step: str) -> Params:
    return {"instant": False, "start": start, "end": end, "step": step}


def spec_window(reading: str, clock: Clock) -> Params | None:  # noqa: PLR0911
    """A reading's window: `readings.evaluate` plus `since <date> <unit>`, `from <wall time>`,
    `window <first> <last> <step>`, `window-utc <start> <end>`, `steponly <unit>` and a
    trailing `step=<unit>` (a step word beside the period)."""
    if " step=" in reading:
        head, step = reading.split(" step=")
        params = spec_window(head, clock)
        assert params is not None
        return {**params, "step": step}
    if reading.startswith("steponly "):
        return {"instant": False, "step": reading.split()[1]}
    if reading.startswith("since "):
        _, first, unit = reading.split()
        start = period_of(unit, date.fromisoformat(first)).start(clock)  # type: ignore[arg-type]
        return _window(start, clock.now_ms, unit)
    if reading.startswith("from "):
        start = clock.ms(datetime.fromisoformat(reading.split()[1]))
        return _window(start, clock.now_ms, "day")
    if reading.startswith("window-utc "):
        _, first, last = reading.split()
        start = Clock.at(first, "UTC").now_ms
        return _window(start, Clock.at(last, "UTC").now_ms - 1, "day")
    if reading.startswith("window "):
        _, first, last, step = reading.split()
        start = clock.midnight(date.fromisoformat(first))
        end = clock.midnight(date.fromisoformat(last) + timedelta(days=1)) - 1
        return _window(start, end, step)
    return evaluate(reading, clock)


def _ms(clock: Clock, wall: str) -> int:
    return clock.ms(datetime.fromisoformat(wall))


def peer_windows(case: Case, clock: Clock) -> list[tuple[int, int]]:
    """The peer's closed windows of its single result, inclusive ends, in ms."""
    if len(case.results) != 1:
        return []
    return [(_ms(clock, w[0]), _ms(clock, w[1]) - 1) for w in case.results[0].windows if w]


def _peer_step(timex: str, window: Window) -> str | None:
    """The unit of the peer's window when it is whole days or coarser (None: finer)."""
    if len(window[0]) > 10 and (window[0][11:] != "00:00:00" or window[1][11:] != "00:00:00"):
        return None
    if timex.startswith("("):
        return {"D": "day", "W": "week", "M": "month", "Y": "year"}.get(
            timex.rstrip(")")[-1], "day"
        )
    if "-W" in timex:
        return "week" if not timex.endswith("WE") else "day"
    if len(timex) == 4:
        return "year"
    if len(timex) == 7:
        return "month"
    return "day"


def peer_expected(case: Case, clock: Clock, *, inclusive: bool = False) -> Params | None:
    """The peer's own meaning as a window: its latest candidate that has started (the SPEC's
    bare rule), else its first; None when it gives none or only one finer than a day.
    `inclusive`: a named range whose end the peer gives as the start of Y (its timex `P…`)
    ends at end(Y), as the SPEC's range row reads it."""
    if len(case.results) != 1:
        return None
    r = case.results[0]
    pairs = [(w, _ms(clock, w[0]), _ms(clock, w[1]) - 1) for w in r.windows if w]
    if not pairs:
        return None
    started = [p for p in pairs if p[1] <= clock.now_ms]
    chosen = started[-1] if started else pairs[0]
    step = _peer_step(r.timex, chosen[0])
    if step is None:
        return None
    end = chosen[2]
    if inclusive and step in UNITS_FORWARD:
        last = datetime.fromisoformat(chosen[0][1][:10])
        end = clock.ms(shift_wall(last, 1, step)) - 1  # type: ignore[arg-type]
    return _window(chosen[1], end, step)


def _in_range(expected: Params | None) -> bool:
    if not expected or expected.get("instant") or "start" not in expected:
        return True
    return bool(expected["start"] >= LOWEST_MS and expected["end"] < HIGHEST_MS)


def build_row(case: Case, lang: str, number: int) -> dict[str, Any]:
    """One gold row."""
    assert case.reference is not None
    clock = Clock.at(case.reference, ZONE)
    verdict: Verdict = OVERRIDES.get(f"{case.source}#{case.index}") or classify(
        case, clock.wall, lang
    )
    basis, note = verdict.basis, verdict.note
    peer_window = None
    if verdict.reading in ("peer", "peer-inclusive"):
        expected = peer_expected(case, clock, inclusive=verdict.reading == "peer-inclusive")
    else:
        expected = spec_window(verdict.reading, clock)
    if not _in_range(expected):
        expected, basis, note = None, "spec-nothing", note + "; §5: the window leaves 2000..2100"
    if basis == "spec":
        windows = peer_windows(case, clock)
        span = (
            None
            if not expected or "start" not in expected
            else (expected["start"], expected["end"])
        )
        if span not in windows:
            basis = "differ"
            mine = peer_expected(case, clock)
            if mine is None and windows:
                mine = {"start": windows[0][0], "end": windows[0][1]}
            peer_window = None if mine is None else {"start": mine["start"], "end": mine["end"]}
    row: dict[str, Any] = {
        "id": f"{lang}-{number:04d}",
        "lang": lang,
        "text": case.text,
        "now_ms": clock.now_ms,
        "timezone": ZONE,
        "recognizers": case.compact(),
        "family": verdict.family,
        "single": basis in ("spec", "differ") and verdict.family in SINGLE_FAMILIES,
        "expected": expected,
        "basis": basis,
        "note": note,
        "source": f"{case.source}#{case.index}",
    }
    if basis == "differ":
        row["peer_window"] = peer_window
    return row


def build_rows(lang: str, cases: list[Case]) -> tuple[list[dict[str, Any]], Counter[str]]:
    """The rows of one language (cases with no reference time and repeats skipped)."""
    rows: list[dict[str, Any]] = []
    skipped: Counter[str] = Counter()
    seen: set[tuple[str, str]] = set()
    for case in cases:
        if case.reference is None:
            skipped["no reference time"] += 1
            continue
        key = (case.text, case.reference)
        if key in seen:
            skipped["repeat of an earlier case"] += 1
            continue
        seen.add(key)
        rows.append(build_row(case, lang, len(rows) + 1))
    return rows, skipped


def open_repo(root: Path, commit: str) -> tuple[str, Any]:
    """(resolved commit or `checkout`, read(path) -> text) for a git directory or a checkout."""
    return repo.open_repo(root, commit, marker="Specs", encoding="utf-8-sig")


def counts(rows: list[dict[str, Any]]) -> str:
    """`source basis family count` lines, sorted, then totals."""
    tally = Counter((r["source"].split("#")[0], r["family"], r["basis"]) for r in rows)
    lines = [f"{src:28} {fam:18} {basis:12} {n}" for (src, fam, basis), n in sorted(tally.items())]
    single = sum(r["single"] for r in rows)
    bases = Counter(r["basis"] for r in rows)
    lines.append(
        f"rows {len(rows)}, single {single}, "
        + ", ".join(f"{k} {v}" for k, v in sorted(bases.items()))
    )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Write (or check) the two JSONL files."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.corpus recognizers")
    parser.add_argument(
        "--repo", required=True, type=Path, help="microsoft/Recognizers-Text git dir"
    )
    parser.add_argument("--commit", default="HEAD", help="commit to read (git dir only)")
    parser.add_argument("--check", action="store_true", help="compare, do not write")
    parser.add_argument("--lang", choices=sorted(FILES), action="append", help="default: both")
    args = parser.parse_args(argv)
    commit, read = open_repo(args.repo, args.commit)
    print(f"recognizers-text commit: {commit}")
    status = 0
    for lang in args.lang or sorted(FILES):
        cases = [c for name in FILES[lang] for c in load_cases(read, f"Specs/DateTime/{name}.json")]
        rows, skipped = build_rows(lang, cases)
        target = DATA / f"recognizers_{lang}.jsonl"
        said = f"{len(rows)} rows; skipped {dict(skipped)}"
        status |= repo.write_or_check(target, rows, check=args.check, said=said)
        print(counts(rows))
    return status


if __name__ == "__main__":
    sys.exit(main())
