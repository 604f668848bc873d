"""The scanner answers every case of both time gold sets exactly: v1 (SPEC §4,
benchmarks/data/time_gold.jsonl) and v2 (§4.1 families and the guard rule,
time_gold_v2.jsonl), both written independently from the SPEC."""

from __future__ import annotations

from collections import Counter

import pytest

from benchmarks.gold import GOLD_PATH, GOLD_V2_PATH, Case, load, load_all

CASES = load_all()


def test_gold_sets_are_large_and_cover_both_languages() -> None:
    v1, v2 = load(GOLD_PATH), load(GOLD_V2_PATH)
    assert len(v1) >= 250
    assert len(v2) >= 170
    assert {case.lang for case in v1} == {case.lang for case in v2} == {"zh", "en"}


def test_v2_covers_every_family_of_spec_4_1_and_the_guard() -> None:
    families = Counter(case.category for case in load(GOLD_V2_PATH))
    for family in (
        "first_n",
        "range_in_year",
        "list",
        "weekday",
        "xun",
        "hours_minutes",
        "latest_n",
        "two_digit_year",
        "compact_date",
        "festival",
        "same_period_last_year",
        "as_of",
        "fortnight",
        "since_last",
        "comparison",
        "guard",
    ):
        assert families[family] >= 5, family


@pytest.mark.parametrize("case", [pytest.param(case, id=case.id) for case in CASES])
def test_gold_case(case: Case) -> None:
    result = case.run()
    got = None if result is None else result.params()
    expr = None if result is None else result.expr
    assert got == case.expected, f"{case.query!r}: expr={expr}"
