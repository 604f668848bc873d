"""A worker that stops answering is replaced (issue 21, item 6): `resolver serve --workers 2`
as a real process tree, one worker SIGSTOPped; the supervisor sees its heartbeat stop, kills
it, forks it anew (logged, counted), and every new connection is answered again."""

from __future__ import annotations

import asyncio
import os
import signal

import aiohttp
import orjson
import pytest

from resolver.testing.fake_llm import Call, FakeLLM, Reply, plausible
from tests.helpers import (
    fresh_healthz,
    operator,
    replaced_once,
    request_body,
    serve,
    wait_for,
    workers_of,
)

pytestmark = pytest.mark.slow


async def test_a_stopped_worker_is_replaced(fake: FakeLLM) -> None:
    env = {"RESOLVER_WORKERS": "2", "RESOLVER_WORKER_HEARTBEAT_TIMEOUT_S": "2"}
    async with serve(fake, **env) as service:
        await wait_for(lambda: len(workers_of(service)) == 2, within_s=10)
        await asyncio.sleep(1.0)  # both beating
        victim = workers_of(service)[0]
        os.kill(victim.pid, signal.SIGSTOP)
        try:
            await wait_for(
                lambda: replaced_once(service, victim),
                within_s=15,
            )
            await asyncio.sleep(1.0)  # the new worker serves
            statuses = await fresh_healthz(service, 20)
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


async def test_a_watchdog_kill_names_the_requests_it_interrupts(fake: FakeLLM) -> None:
    # Once the clients of a killed worker got an empty reply and no log line named their
    # requests (issue 30): now one line names each, the longest-running first.
    fake.respond(_never_in_time)
    env = {"RESOLVER_WORKERS": "2", "RESOLVER_WORKER_HEARTBEAT_TIMEOUT_S": "2"}
    async with serve(fake, **env) as service:
        output = asyncio.create_task(service.output())
        await wait_for(lambda: len(workers_of(service)) == 2, within_s=10)
        body = orjson.dumps(request_body(operator("p", ("x", "STRING")), query="x"))
        reader, writer = await asyncio.open_connection("127.0.0.1", service.port)
        writer.write(
            b"POST /v1/dynamic-params HTTP/1.1\r\nHost: localhost\r\n"
            b"Content-Type: application/json\r\nx-trace-id: held-by-the-stuck-worker\r\n"
            b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body
        )
        await writer.drain()
        await wait_for(lambda: len(fake.calls) == 1, within_s=10)
        client_port = writer.get_extra_info("sockname")[1]
        [victim] = [
            w
            for w in workers_of(service)
            if any(c.raddr and c.raddr.port == client_port for c in w.net_connections("tcp"))
        ]
        os.kill(victim.pid, signal.SIGSTOP)
        answer = await asyncio.wait_for(reader.read(), 20)  # closed by the kill, unanswered
        assert answer == b""
        writer.close()
        # The victim reaped (which names its requests) and replaced before the service is
        # stopped: a stopping supervisor reaps without naming, and under load the other
        # worker's replacement alone could make the count 2 again first.
        await wait_for(lambda: replaced_once(service, victim), within_s=15)
        service.process.send_signal(signal.SIGTERM)
        await asyncio.wait_for(service.process.wait(), 15)
        lines = [orjson.loads(line) for line in (await output).splitlines()]
    [named] = [r for r in lines if r["event"] == "resolver.requests_interrupted"]
    assert named["reason"] == "unresponsive"
    assert named["pid"] == victim.pid
    assert named["longest"]["trace_id"] == "held-by-the-stuck-worker"
    assert named["longest"]["request"] == "POST /v1/dynamic-params"
    assert named["count"] == 1


def _never_in_time(call: Call) -> Reply:
    reply = plausible(call)
    reply.delay_s = 60.0
    return reply
