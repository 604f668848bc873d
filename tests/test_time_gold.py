"""The engine answers every case of the time gold set exactly (benchmarks/data/time_gold.jsonl)."""

from __future__ import annotations

import pytest

from benchmarks.gold import Case, load

CASES = load()


def test_gold_set_is_large_and_covers_both_languages() -> None:
    assert len(CASES) >= 250
    assert {case.lang for case in CASES} == {"zh", "en"}


@pytest.mark.parametrize("case", [pytest.param(case, id=case.id) for case in CASES])
def test_gold_case(case: Case) -> None:
    result = case.run()
    got = None if result is None else result.params()
    expr = None if result is None else result.expr
    assert got == case.expected, f"{case.query!r}: expr={expr}"
