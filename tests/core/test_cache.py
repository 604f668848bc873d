"""`TtlCache.get_within`: a request waits for the shared fetch only as long as its deadline
allows; the fetch runs on for the others and its value is cached."""

from __future__ import annotations

import asyncio

import pytest

from resolver.core.cache import TtlCache
from resolver.core.deadline import Deadline


async def test_a_waiter_leaves_at_its_deadline_and_the_fetch_still_lands() -> None:
    cache: TtlCache[str, int] = TtlCache()
    fetched = asyncio.Event()

    async def slow() -> int:
        await asyncio.sleep(0.2)
        fetched.set()
        return 7

    with pytest.raises(TimeoutError):
        await cache.get_within(Deadline.after(0.05), "k", slow, lambda _: 60.0)
    await asyncio.wait_for(fetched.wait(), 2)
    await asyncio.sleep(0)  # the fetch's done-callback stores the value
    assert await cache.get_within(Deadline.after(0.05), "k", slow, lambda _: 60.0) == (7, True)


async def test_no_deadline_waits_for_the_fetch() -> None:
    cache: TtlCache[str, int] = TtlCache()

    async def fetch() -> int:
        await asyncio.sleep(0.01)
        return 3

    assert await cache.get_within(None, "k", fetch, lambda _: 60.0) == (3, False)
