"""The service answers every case of the context gold set exactly, over HTTP, rules only
(benchmarks/data/context_gold.jsonl: agent retries in additional_context, SPEC §3;
context_gold_v3.jsonl: clock and zone sentences, SPEC §3 and §4.2; context_gold_v4.jsonl,
written blind: SPEC §4.3's weekday beside the date, places without "zone", offsets with
minutes)."""

from __future__ import annotations

import pytest

from benchmarks.gold import DATA, ContextCase, load_context
from tests.helpers import ClientFactory, post

CASES = (
    load_context()
    + load_context(DATA / "context_gold_v3.jsonl")
    + load_context(DATA / "context_gold_v4.jsonl")  # SPEC §4.3's clock and zone sentences
)


def test_context_gold_set_is_large_and_has_first_requests_and_retries() -> None:
    assert len(CASES) >= 100
    statuses = {case.row["expected"]["status"] for case in CASES}
    assert statuses == {200, 400, 422}
    assert {case.lang for case in CASES} == {"zh", "en"}


@pytest.mark.parametrize("case", [pytest.param(case, id=case.id) for case in CASES])
async def test_context_gold_case(make_client: ClientFactory, case: ContextCase) -> None:
    status, answer = await post(await make_client(llm=False), case.body())
    problem = case.check(status, answer)
    assert problem is None, (
        f"{case.row['query']!r} + {case.row.get('additional_context')!r}: {problem}"
    )
