"""One request's LLM cost is bounded (issue 21, items 3 and 5): a budget of calls and prompt
bytes, a few identities per prompt, repair prompts that clip the answer they correct; against
the fake LLM over real sockets."""

from __future__ import annotations

from typing import Any

import orjson

from resolver.testing.fake_llm import FakeLLM, Reply
from tests.helpers import ClientFactory, assert_error_shape, operator, post, request_body


def _prompt_bytes(fake: FakeLLM) -> int:
    return sum(len((m.get("content") or "").encode()) for c in fake.calls for m in c.messages)


def _cost_bomb(properties: int, context_bytes: int) -> dict[str, Any]:
    return request_body(
        *(operator(f"op{i}", ("target", "STRING")) for i in range(properties)),
        query="分析这些指标",
        additional_context="说明：" + "很长的背景" * (context_bytes // 15),
        options={"max_repair_rounds": 3},
    )


async def test_a_request_stops_at_its_call_budget(
    make_client: ClientFactory, fake_llm: FakeLLM
) -> None:
    fake_llm.respond(lambda call: Reply(content="this is not JSON"))  # every answer repaired
    client = await make_client(llm_max_calls_per_request=8)
    status, body = await post(client, _cost_bomb(properties=10, context_bytes=2000))
    assert status == 400, body
    assert_error_shape(body, "LLM_BUDGET_EXCEEDED")
    assert "RESOLVER_LLM_MAX_CALLS_PER_REQUEST" in body["_error"]
    assert len(fake_llm.calls) <= 8  # the old code made 40


async def test_a_request_stops_at_its_prompt_byte_budget(
    make_client: ClientFactory, fake_llm: FakeLLM
) -> None:
    fake_llm.respond(lambda call: Reply(content="this is not JSON"))
    budget = 256 << 10
    client = await make_client(llm_max_prompt_bytes_per_request=budget)
    status, body = await post(client, _cost_bomb(properties=16, context_bytes=60_000))
    assert status == 400, body
    assert_error_shape(body, "LLM_BUDGET_EXCEEDED")
    assert _prompt_bytes(fake_llm) <= budget  # the old code sent about 15 MB


async def test_a_prompt_lists_a_few_identities(
    make_client: ClientFactory, fake_llm: FakeLLM
) -> None:
    client = await make_client()
    identities = [{"company_id": f"c{i}"} for i in range(500)]
    payload = request_body(
        operator("risk", ("target", "STRING")), query="风险", unique_identities=identities
    )
    await post(client, payload)
    task = fake_llm.calls[0].task
    assert len(task["unique_identities"]) <= 3
    assert task["unique_identities_total"] == 500


async def test_a_repair_prompt_clips_the_answer_it_corrects(
    make_client: ClientFactory, fake_llm: FakeLLM
) -> None:
    huge = "x" * 200_000
    fake_llm.push(Reply(content=huge))  # invalid: a repair round follows
    client = await make_client()
    await post(client, request_body(operator("risk", ("target", "STRING")), query="风险"))
    assert len(fake_llm.calls) == 2
    echoed = [m for m in fake_llm.calls[1].messages if m["role"] == "assistant"]
    assert echoed
    assert len(echoed[0]["content"]) <= 4100  # the old code sent all 200,000 back
    assert orjson.dumps(echoed[0]["content"]).decode().startswith('"xxx')
