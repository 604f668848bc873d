"""No wrong window on text nobody here wrote (SPEC §4.1, §4.2): every case of the gold sets
and of the Duckling corpus (benchmarks/data/README_duckling.md) is right or declined, never
wrong — judged as the service answers, by `python -m benchmarks accuracy`'s own scoring."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from benchmarks.accuracy import (
    DEFAULT_SOURCES,
    RECOGNIZERS_SOURCES,
    load_any,
    main,
    scanner_verdict,
    single_ids,
)
from benchmarks.gold import DATA

# Every source, blind ones included: gold v4 (SPEC §4.3, written blind by another engineer)
# and Microsoft Recognizers-Text's own DateTime specs converted blind (README_recognizers.md).
ALL_SOURCES = (*DEFAULT_SOURCES, DATA / "time_gold_v4.jsonl", *RECOGNIZERS_SOURCES)


# Rows converted while the SPEC was silent (basis "silent") that the revised SPEC now reads
# otherwise — reported to the coordinator, not bent either way: here they must get the SPEC's
# window. `last week of september 2014`: Duckling's last whole week (9/22–9/28); SPEC §4.3
# "the last week being the one holding the period's last day" (9/29–10/5, Etc/GMT+2).
SUPERSEDED_BY_THE_SPEC = {
    "en-0150": {"instant": False, "start": 1411956000000, "end": 1412560799999, "step": "week"},
}


@pytest.mark.parametrize("path", ALL_SOURCES, ids=lambda p: p.name)
def test_no_case_gets_a_wrong_window(path: Path) -> None:
    cases = load_any(path)
    assert len(cases) > 200
    wrong = []
    verdicts: Counter[str] = Counter()
    for case in cases:
        if path.name.startswith("duckling") and case.id in SUPERSEDED_BY_THE_SPEC:
            assert scanner_verdict(case)[1] == SUPERSEDED_BY_THE_SPEC[case.id]
            continue
        verdict, got = scanner_verdict(case)
        verdicts[verdict] += 1
        if verdict == "wrong":
            wrong.append((case.id, case.query, case.expected, got))
    assert wrong == []
    if path.name.startswith("time_gold") and path.name != "time_gold_v4.jsonl":
        assert verdicts["declined"] == 0  # written from the SPEC: every case is read exactly


@pytest.mark.parametrize(
    ("name", "floor"), [("duckling_en.jsonl", 0.85), ("duckling_zh.jsonl", 0.85)]
)
def test_most_single_periods_of_the_corpus_are_read(name: str, floor: float) -> None:
    # The rows naming one calendar period that a SPEC row reads (README_duckling.md `single`,
    # basis `spec`): those a user most expects to settle.
    rows = [json.loads(line) for line in (DATA / name).read_text(encoding="utf-8").splitlines()]
    chosen = {row["id"] for row in rows if row["single"] and row["basis"] == "spec"}
    cases = [case for case in load_any(DATA / name) if case.id in chosen]
    right = sum(scanner_verdict(case)[0] == "right" for case in cases)
    assert len(cases) > 100
    assert right / len(cases) >= floor, f"{right}/{len(cases)}"


@pytest.mark.parametrize(
    ("name", "floor"), [("recognizers_en.jsonl", 0.90), ("recognizers_zh.jsonl", 0.90)]
)
def test_most_single_periods_of_recognizers_are_read(name: str, floor: float) -> None:
    # Issue 28's bar: the Recognizers-Text rows naming one calendar period that a SPEC row
    # reads (README_recognizers.md `single`, basis `spec`/`differ`: `single_ids`).
    chosen = single_ids(DATA / name)
    cases = [case for case in load_any(DATA / name) if case.id in chosen]
    right = sum(scanner_verdict(case)[0] == "right" for case in cases)
    assert len(cases) > 90
    assert right / len(cases) >= floor, f"{right}/{len(cases)}"


def test_the_accuracy_benchmark_writes_its_table(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "accuracy.json"
    assert main(["--no-peers", "--gold", str(DATA / "time_gold_v3.jsonl"), "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "right/declined/wrong" in printed
    assert "time_gold_v3.jsonl" in printed
    figures = json.loads(out.read_text(encoding="utf-8"))
    families = figures["sources"]["time_gold_v3.jsonl"]
    assert sum(f["resolver"].get("right", 0) for f in families.values()) == 449
    assert figures["scanner_wrong"] == []
