"""Single-flight does not hand its first caller's deadline to the others (issue 21, item 10):
an identical request that joined a call which died of the owner's deadline makes its own call
within its own deadline; against the fake LLM over real sockets."""

from __future__ import annotations

import asyncio

from resolver.testing.fake_llm import FakeLLM, Reply
from tests.helpers import ClientFactory, operator, post, request_body

BODY = request_body(operator("risk", ("target", "STRING")), query="企业c1的风险评分")


async def test_a_joiner_outlives_the_owner_deadline(
    make_client: ClientFactory, fake_llm: FakeLLM
) -> None:
    # The first call outlasts its owner's 2 s deadline; any later one answers at once.
    fake_llm.push(Reply(content='{"risk": {"target": "c1"}}', delay_s=3.0))
    client = await make_client(request_timeout_s=2.0, llm_cache_ttl_s=60)
    owner = asyncio.create_task(post(client, BODY))
    await asyncio.sleep(1.0)
    joiner = asyncio.create_task(post(client, BODY))  # joins the owner's call, 1 s later
    (owner_status, _), (joiner_status, joiner_body) = await asyncio.gather(owner, joiner)
    assert owner_status == 504
    assert joiner_status == 200, joiner_body  # the old code: 504 with half its time unused
    assert len(fake_llm.calls) == 2  # its own call, after the shared one died


async def test_joiners_share_a_call_that_succeeds(
    make_client: ClientFactory, fake_llm: FakeLLM
) -> None:
    fake_llm.push(Reply(content='{"risk": {"target": "c1"}}', delay_s=0.5))
    client = await make_client(llm_cache_ttl_s=60)
    answers = await asyncio.gather(*(post(client, BODY) for _ in range(3)))
    assert [status for status, _ in answers] == [200, 200, 200]
    assert len(fake_llm.calls) == 1
