"""The MCP tool-detail cache: TTL, shared fetches, cancellation, failures never remembered."""

from __future__ import annotations

import asyncio
import gc
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest

from resolver.actions.mcp_tools import McpToolCache
from resolver.core.errors import ToolNotFound, UpstreamError
from resolver.testing.fake_upstreams import (
    DEMO_MCP_ID,
    DEMO_MCP_TOOL,
    FakeOperatorIntegration,
    Fault,
    demo_mcp_tool,
)
from resolver.upstreams.client import OPERATOR_INTEGRATION, CallerHeaders, UpstreamClient, Upstreams
from tests.helpers import KnFakes

CALLER = CallerHeaders(trace_id="t1", account_id="u1", account_type="user")


class Clock:
    """A monotonic clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
async def upstreams(kn_fakes: KnFakes) -> AsyncIterator[Upstreams]:
    kn_fakes.operators.mcp_tools[(DEMO_MCP_ID, DEMO_MCP_TOOL)] = demo_mcp_tool()
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=5)) as session:
        client = UpstreamClient(OPERATOR_INTEGRATION, kn_fakes.operators.url, session)
        yield Upstreams({OPERATOR_INTEGRATION: client})


@pytest.fixture
def fake(kn_fakes: KnFakes) -> FakeOperatorIntegration:
    return kn_fakes.operators


async def test_fresh_entries_are_served_and_stale_ones_refetched(
    upstreams: Upstreams, fake: FakeOperatorIntegration
) -> None:
    clock = Clock()
    cache = McpToolCache(upstreams, 60, clock=clock)
    first = await cache.get(DEMO_MCP_ID, DEMO_MCP_TOOL, CALLER)
    assert first.input_schema == demo_mcp_tool()["inputSchema"]
    clock.now += 59
    assert await cache.get(DEMO_MCP_ID, DEMO_MCP_TOOL, CALLER) is first
    assert len(fake.calls) == 1
    clock.now += 2
    assert await cache.get(DEMO_MCP_ID, DEMO_MCP_TOOL, CALLER) is not first
    assert len(fake.calls) == 2


async def test_the_key_includes_the_account(
    upstreams: Upstreams, fake: FakeOperatorIntegration
) -> None:
    cache = McpToolCache(upstreams, 60)
    other = CallerHeaders(trace_id="t2", account_id="u2", account_type="user")
    for caller in (CALLER, other, CALLER, other):
        await cache.get(DEMO_MCP_ID, DEMO_MCP_TOOL, caller)
    assert [c.headers["x-account-id"] for c in fake.calls] == ["u1", "u2"]


async def test_concurrent_lookups_share_one_fetch(
    upstreams: Upstreams, fake: FakeOperatorIntegration
) -> None:
    cache = McpToolCache(upstreams, 60)
    results = await asyncio.gather(
        *(cache.get(DEMO_MCP_ID, DEMO_MCP_TOOL, CALLER) for _ in range(5))
    )
    assert len(fake.calls) == 1
    assert all(r is results[0] for r in results)


async def test_one_waiter_leaving_does_not_cancel_the_others(
    upstreams: Upstreams, fake: FakeOperatorIntegration
) -> None:
    cache = McpToolCache(upstreams, 60)
    first = asyncio.ensure_future(cache.get(DEMO_MCP_ID, DEMO_MCP_TOOL, CALLER))
    second = asyncio.ensure_future(cache.get(DEMO_MCP_ID, DEMO_MCP_TOOL, CALLER))
    await asyncio.sleep(0)  # both are waiting on the one fetch now
    first.cancel()
    detail = await second
    assert detail.name == DEMO_MCP_TOOL
    assert first.cancelled()
    assert len(fake.calls) == 1
    # The fetch finished for the waiter that stayed, and its answer is cached.
    assert await cache.get(DEMO_MCP_ID, DEMO_MCP_TOOL, CALLER) is detail


async def test_failures_are_raised_to_every_waiter_and_never_cached(
    upstreams: Upstreams, fake: FakeOperatorIntegration
) -> None:
    cache = McpToolCache(upstreams, 60)
    fake.fail(Fault(status=503, delay_s=0.1))
    results = await asyncio.gather(
        *(cache.get(DEMO_MCP_ID, DEMO_MCP_TOOL, CALLER) for _ in range(3)),
        return_exceptions=True,
    )
    assert all(isinstance(r, UpstreamError) and r.http_status == 502 for r in results)
    assert len(fake.calls) == 1
    await cache.get(DEMO_MCP_ID, DEMO_MCP_TOOL, CALLER)
    assert len(fake.calls) == 2


async def test_an_unknown_tool_is_tool_not_found(upstreams: Upstreams) -> None:
    cache = McpToolCache(upstreams, 60)
    with pytest.raises(ToolNotFound) as caught:
        await cache.get(DEMO_MCP_ID, "nope", CALLER)
    assert caught.value.details["tool_name"] == "nope"


async def test_a_failure_whose_waiters_all_left_is_not_reported(
    upstreams: Upstreams, fake: FakeOperatorIntegration
) -> None:
    loop = asyncio.get_running_loop()
    reported: list[dict[str, Any]] = []
    previous = loop.get_exception_handler()
    loop.set_exception_handler(lambda _, context: reported.append(context))
    try:
        cache = McpToolCache(upstreams, 60)
        fake.fail(Fault(status=500, delay_s=0.1))
        waiter = asyncio.ensure_future(cache.get(DEMO_MCP_ID, DEMO_MCP_TOOL, CALLER))
        await asyncio.sleep(0.01)
        waiter.cancel()
        await asyncio.sleep(0.3)  # the shared fetch fails with nobody waiting
        assert waiter.cancelled()
        del waiter
        gc.collect()
        await asyncio.sleep(0)
    finally:
        loop.set_exception_handler(previous)
    assert not [c for c in reported if "never retrieved" in str(c.get("message"))]
    assert len(fake.calls) == 1


async def test_the_cache_is_bounded(upstreams: Upstreams, fake: FakeOperatorIntegration) -> None:
    for name in ("a", "b", "c"):
        fake.mcp_tools[(DEMO_MCP_ID, name)] = {**demo_mcp_tool(), "name": name}
    cache = McpToolCache(upstreams, 60, max_entries=2)
    for name in ("a", "b", "c", "c", "b", "a"):
        await cache.get(DEMO_MCP_ID, name, CALLER)
    # a was evicted by c; b and c stayed: a, b, c, then a again read the server's tool list.
    assert len(fake.calls) == 4
    assert {c.path for c in fake.calls} == {
        f"/api/agent-operator-integration/internal-v1/mcp/proxy/{DEMO_MCP_ID}/tools"
    }
