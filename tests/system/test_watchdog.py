"""A worker that stops answering is replaced (issue 21, item 6): `resolver serve --workers 2`
as a real process tree, one worker SIGSTOPped; the supervisor sees its heartbeat stop, kills
it, forks it anew (logged, counted), and every new connection is answered again."""

from __future__ import annotations

import asyncio
import os
import signal

import aiohttp
import orjson
import psutil
import pytest

from resolver.testing.fake_llm import FakeLLM
from tests.helpers import Service, serve, wait_for

pytestmark = pytest.mark.slow


def workers_of(service: Service) -> list[psutil.Process]:
    return psutil.Process(service.process.pid).children()


async def healthz_statuses(service: Service, count: int) -> list[int | str]:
    """`count` probes on fresh connections (spread over the workers); a timeout is `timeout`."""
    statuses: list[int | str] = []
    timeout = aiohttp.ClientTimeout(total=2)
    for _ in range(count):
        try:
            async with (
                aiohttp.ClientSession(timeout=timeout) as session,
                session.get(f"{service.url}/healthz") as response,
            ):
                statuses.append(response.status)
        except TimeoutError:
            statuses.append("timeout")
    return statuses


async def test_a_stopped_worker_is_replaced(fake: FakeLLM) -> None:
    env = {"RESOLVER_WORKERS": "2", "RESOLVER_WORKER_HEARTBEAT_TIMEOUT_S": "2"}
    async with serve(fake, **env) as service:
        await wait_for(lambda: len(workers_of(service)) == 2, within_s=10)
        await asyncio.sleep(1.0)  # both beating
        victim = workers_of(service)[0]
        os.kill(victim.pid, signal.SIGSTOP)
        try:
            await wait_for(
                lambda: (
                    victim.pid not in {w.pid for w in workers_of(service)}
                    and len(workers_of(service)) == 2
                ),
                within_s=15,
            )
            await asyncio.sleep(1.0)  # the new worker serves
            statuses = await healthz_statuses(service, 20)
            async with (
                aiohttp.ClientSession() as session,
                session.get(service.url + "/metrics") as response,
            ):
                metrics = (await response.read()).decode()
        finally:
            if victim.is_running():
                os.kill(victim.pid, signal.SIGKILL)
        service.process.terminate()
        await service.process.wait()
        output = await service.output()
    assert statuses == [200] * 20
    assert 'resolver_worker_restarts_total{reason="unresponsive"} 1.0' in metrics
    events = [orjson.loads(line) for line in output.splitlines() if line.startswith("{")]
    unresponsive = [e for e in events if e.get("event") == "resolver.worker_unresponsive"]
    assert unresponsive
    assert unresponsive[0]["pid"] == victim.pid


async def test_a_worker_that_beats_is_left_alone(fake: FakeLLM) -> None:
    env = {"RESOLVER_WORKERS": "2", "RESOLVER_WORKER_HEARTBEAT_TIMEOUT_S": "1"}
    async with serve(fake, **env) as service:
        await wait_for(lambda: len(workers_of(service)) == 2, within_s=10)
        first = {w.pid for w in workers_of(service)}
        await asyncio.sleep(4.0)
        assert {w.pid for w in workers_of(service)} == first
