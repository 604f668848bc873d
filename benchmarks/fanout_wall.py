"""`python -m benchmarks fanout-wall`: wall time of one request of N LLM properties.

In-process: the fake LLM and the service run on one loop over loopback sockets, so this
measures the fan-out itself (the issue-2 figure: 8 properties, 300 ms, max_concurrency 4,
ideal 600 ms), not capacity. For load figures use `python -m benchmarks run fanout`.
"""

from __future__ import annotations

import argparse
import asyncio
import math
import statistics
import time

from aiohttp.test_utils import TestClient, TestServer

from benchmarks.bodies import fanout_body
from resolver.core.settings import Settings
from resolver.testing.fake_llm import FakeLLM
from resolver.web.app import create_app


async def _measure(properties: int, latency_s: float, concurrency: int, repeat: int) -> None:
    fake = FakeLLM(latency_s=latency_s)
    fake_server = TestServer(fake.app())
    await fake_server.start_server()
    # The same body is sent again and again: the LLM result cache would answer the repeats.
    settings = Settings(
        llm_base_url=str(fake_server.make_url("/v1")), llm_api_key="bench", llm_cache_ttl_s=0
    )
    client = TestClient(TestServer(create_app(settings)))
    await client.start_server()
    body = fanout_body(properties, concurrency)
    headers = {"Content-Type": "application/json"}
    walls: list[float] = []
    try:
        for _ in range(repeat + 1):  # the first request warms connections and is dropped
            started = time.perf_counter()
            response = await client.post("/v1/dynamic-params", data=body, headers=headers)
            await response.read()
            if response.status != 200:
                raise SystemExit(f"unexpected status {response.status}")
            walls.append((time.perf_counter() - started) * 1000)
    finally:
        await client.close()
        await fake_server.close()
    walls = walls[1:]
    ideal = math.ceil(properties / concurrency) * latency_s * 1000
    median = statistics.median(walls)
    print(
        f"{properties} properties, {latency_s * 1000:g} ms fake latency, max_concurrency "
        f"{concurrency}: median {median:.0f} ms, min {min(walls):.0f}, max {max(walls):.0f} "
        f"over {repeat} requests; ideal {ideal:.0f} ms; ratio {median / ideal:.3f}; "
        f"peak calls in flight {fake.peak_inflight}"
    )


def main(argv: list[str]) -> int:
    """Print the wall-time figures."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks fanout-wall")
    parser.add_argument("--properties", type=int, default=8)
    parser.add_argument("--latency-ms", type=float, default=300)
    parser.add_argument("--concurrency", type=int, default=4)
    parser.add_argument("--repeat", type=int, default=10)
    args = parser.parse_args(argv)
    asyncio.run(_measure(args.properties, args.latency_ms / 1000, args.concurrency, args.repeat))
    return 0
