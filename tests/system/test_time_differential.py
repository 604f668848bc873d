"""The time scanner against an independent recognizer (docs/time-differential.md).

The differential itself (every gold text and ~11,000 generated ones through dateparser and
the scanner, about a minute) is slow: `make test-slow` runs it, with the `peers` extra
installed and RESOLVER_DIFFERENTIAL=1; elsewhere it is skipped. The checks of its own parts
(filters, generator, allowlist) run everywhere.
"""

from __future__ import annotations

import os

import pytest

from benchmarks.differential.allowlist import ALLOWED
from benchmarks.differential.check import coverage, locate
from benchmarks.differential.generate import mixed, plain
from benchmarks.differential.peer import available, languages
from benchmarks.differential.run import Result, Violation, run
from benchmarks.differential.texts import corpus, free_text


def spans_of(text: str, *words: str) -> tuple[tuple[int, int], ...]:
    """The spans of these words in `text` (each found once), as the scanner reports spans."""
    return tuple((text.index(w), text.index(w) + len(w)) for w in words)


@pytest.mark.parametrize(
    ("text", "mention", "understood", "uncovered"),
    [
        pytest.param("revenue in 2024", "in 2024", ("2024",), (), id="glue-in"),
        pytest.param("sales on the 15th", "on the 15th", ("15th",), (), id="glue-on-the"),
        pytest.param(
            "revenue last month by region", "last month by", ("last month",), (), id="trailing-by"
        ),
        pytest.param(
            "sales by March last year",
            "by March last year",
            ("last year",),
            ("by", "March"),
            id="leading-by-counts",
        ),
        pytest.param(
            "orders over $12 last month", "$12 last month", ("last month",), (), id="price"
        ),
        pytest.param("top 10 stores last month", "10", ("last month",), (), id="bare-number"),
        pytest.param(
            "10 days of sales last month", "10", ("last month",), ("10",), id="number-beside-a-unit"
        ),
        pytest.param(
            "2019 orders in Q3 2024", "2019", ("Q3 2024",), ("2019",), id="a-year-is-no-bare-number"
        ),
        pytest.param(
            "2019年，上季度的营收按地区",
            "2019年，上季度的营收按地区",
            ("2019年，上季度",),
            (),
            id="chinese-tail",
        ),
        pytest.param(
            "上季度，2019年以来的营收",
            "上季度，2019年以来的营收",
            ("上季度，2019年",),
            ("以", "来", "的", "营", "收"),
            id="chinese-tail-with-time-counts",
        ),
        pytest.param(
            "today before sales last week",
            "today before",
            ("today", "last week"),
            ("before",),
            id="before-counts",
        ),
        pytest.param("12月31日本季度", "12月31日", ("12月31", "季度"), ("日",), id="half-a-word"),
    ],
)
def test_coverage_excuses_only_what_is_not_time(
    text: str, mention: str, understood: tuple[str, ...], uncovered: tuple[str, ...]
) -> None:
    found = coverage(text, mention, text.index(mention), spans_of(text, *understood))
    assert found.uncovered == uncovered


def test_a_mention_not_in_the_text_is_not_covered() -> None:
    assert locate("sales last month", ["last  month"]) == [-1]
    assert coverage("sales last month", "last  month", -1, ((6, 16),)).uncovered == ("last  month",)


def test_mentions_are_located_in_order() -> None:
    assert locate("May sales in May", ["May", "in May"]) == [0, 10]


def test_languages_follow_the_script() -> None:
    assert languages("sales last month") == ["en"]
    assert languages("上个月的销售额") == ["zh"]
    assert languages("2024 Q1的销售额") == ["zh", "en"]


def test_context_free_text_leaves_out_other_keys() -> None:
    assert free_text("start=2024-01-01；end=2024-03-31；step=month") == ""
    assert free_text("时间范围：2024年1月至3月，按月") == "2024年1月至3月\n按月"
    assert free_text("趋势查询step=week") == "趋势查询"
    assert free_text("region=East China, limit=5") == ""


def test_corpus_holds_every_gold_file() -> None:
    sources = {item.source.split(":")[0] for item in corpus()}
    assert sources == {
        "time_gold.jsonl", "time_gold_v2.jsonl", "time_gold_v3.jsonl", "context_gold.jsonl",
        "context_gold_v3.jsonl", "duckling_en.jsonl", "duckling_zh.jsonl",
    }  # fmt: skip


def test_generated_texts_are_many_and_deterministic() -> None:
    made = mixed()
    assert len(made) >= 2000
    assert made == mixed()
    assert all(m.text[m.at : m.at + len(m.insert)] == m.insert for m in made)
    assert {m.at == 0 for m in made} == {True, False}
    assert any(m.at + len(m.insert) == len(m.text) for m in made)
    quiet = plain()
    assert 250 <= len(quiet) <= 350
    assert quiet == plain()


def test_allowlist_is_short_and_explained() -> None:
    assert len(ALLOWED) <= 30, "past ~30 entries the filters of check.py are too loose"
    assert all(entry.reason.strip() for entry in ALLOWED)
    assert len({(e.text, e.mention) for e in ALLOWED}) == len(ALLOWED)


# -- the differential itself ------------------------------------------------------------------

differential = pytest.mark.skipif(
    os.environ.get("RESOLVER_DIFFERENTIAL") != "1", reason="run by `make test-slow`"
)


@pytest.fixture(scope="module")
def result() -> Result:
    """One run of the whole differential (about a minute on 2 cores)."""
    assert available(), "the differential needs dateparser: pip install -e '.[dev,peers]'"
    return run()


def listed(violations: list[Violation]) -> str:
    return "\n".join(
        f"{v.source}: {v.text!r} — {v.mention!r} not understood {v.uncovered} "
        f"(read {v.read}, settled {v.window})"
        for v in violations
    )


@pytest.mark.slow
@differential
def test_every_peer_date_in_a_settled_text_is_understood(result: Result) -> None:
    assert result.texts["mixed"] >= 2000
    assert result.settled["corpus"] > 0
    if result.misses:
        pytest.fail(f"{len(result.misses)} scanner misses:\n{listed(result.misses)}")


@pytest.mark.slow
@differential
def test_every_inserted_time_in_a_settled_text_is_understood(result: Result) -> None:
    if misses := result.insert_misses:
        pytest.fail(f"{len(misses)} settled texts ignore their insert:\n{listed(misses)}")


@pytest.mark.slow
@differential
def test_allowlist_entries_are_still_met(result: Result) -> None:
    assert not result.stale_allowlist, f"remove or revise: {result.stale_allowlist}"


@pytest.mark.slow
@differential
def test_texts_without_time_settle_nothing(result: Result) -> None:
    assert result.settled["plain"] == 0
