"""Under `--workers N` a worker that cannot accept costs new connections nothing (issue 30's
stopped-worker figure): the workers serve one shared listening socket, so a stopped worker
(SIGSTOP, a debugger) is handed no new connection while it is stopped, not only once the
watchdog replaced it. With a socket per worker (SO_REUSEPORT) the kernel hashed about half the
new connections to the stopped worker's socket, where they waited for its replacement.
And a worker stopped on its own (a SIGTERM sent to it, not to the service) leaves the port
listening for the others and its successor. A real `resolver serve --workers 2`."""

from __future__ import annotations

import asyncio
import os
import signal

import orjson
import psutil
import pytest

from resolver.testing.fake_llm import FakeLLM
from tests.helpers import Service, fresh_healthz, replaced_once, serve, wait_for, workers_of

pytestmark = pytest.mark.slow

# Far beyond any probe of a live worker, even on a loaded machine; a probe queued on a
# stopped worker waits for as long as the worker stays stopped.
PROBE_TIMEOUT_S = 3.0
PROBES = 20


def listening(process: psutil.Process, port: int) -> bool:
    return any(
        c.status == psutil.CONN_LISTEN and c.laddr.port == port
        for c in process.net_connections(kind="tcp")
    )


async def probes(service: Service, count: int = PROBES) -> list[int | str]:
    return await fresh_healthz(service, count, PROBE_TIMEOUT_S)


async def test_a_stopped_worker_is_handed_no_new_connection(fake: FakeLLM) -> None:
    # The watchdog is far off: what is measured is the time before it acts.
    env = {"RESOLVER_WORKERS": "2", "RESOLVER_WORKER_HEARTBEAT_TIMEOUT_S": "120"}
    async with serve(fake, **env) as service:
        await wait_for(lambda: len(workers_of(service)) == 2, within_s=10)
        workers = workers_of(service)
        await wait_for(lambda: all(listening(w, service.port) for w in workers), within_s=10)
        victim = workers[0]
        os.kill(victim.pid, signal.SIGSTOP)
        try:
            statuses = await probes(service)
            assert victim.status() == psutil.STATUS_STOPPED  # still stopped, not replaced
            assert victim.pid in {w.pid for w in workers_of(service)}
        finally:
            os.kill(victim.pid, signal.SIGCONT)
        # Resumed, it serves again beside the other (a probe may land on either).
        resumed = await probes(service, 6)
        service.process.terminate()
        assert await asyncio.wait_for(service.process.wait(), timeout=15) == 0
    assert statuses == [200] * PROBES
    assert resumed == [200] * 6


async def test_a_worker_stopped_alone_leaves_the_port_to_the_others(fake: FakeLLM) -> None:
    async with serve(fake, RESOLVER_WORKERS="2") as service:
        await wait_for(lambda: len(workers_of(service)) == 2, within_s=10)
        workers = workers_of(service)
        await wait_for(lambda: all(listening(w, service.port) for w in workers), within_s=10)
        victim = workers[0]
        victim.send_signal(signal.SIGTERM)  # the worker, not the service
        await wait_for(
            lambda: replaced_once(service, victim),
            within_s=15,
        )
        successor = next(w for w in workers_of(service) if w.pid not in {p.pid for p in workers})
        await wait_for(lambda: listening(successor, service.port), within_s=10)
        # Every new connection is answered: none is dropped by a filter the stopped worker
        # left on the socket (it drained as if the service stopped, once).
        statuses = await probes(service)
        service.process.terminate()
        assert await asyncio.wait_for(service.process.wait(), timeout=15) == 0
        output = await service.output()
    assert statuses == [200] * PROBES
    events = [orjson.loads(line) for line in output.splitlines() if line.startswith("{")]
    draining = [e for e in events if e.get("event") == "resolver.draining"]
    # The victim left the socket to the others; at the end, the service closed it.
    assert draining[0]["listener"] == "left to the other workers"
    assert [e["listener"] for e in draining[1:]] == ["closed", "closed"]


async def test_a_signal_to_the_whole_group_closes_the_socket_for_good(fake: FakeLLM) -> None:
    # Ctrl-C in a terminal signals the supervisor and the workers at once: each worker must
    # still drain as the service's last holder of the socket (accept the queue, then close),
    # not as a worker stopped alone.
    async with serve(fake, RESOLVER_WORKERS="2") as service:
        await wait_for(lambda: len(workers_of(service)) == 2, within_s=10)
        workers = workers_of(service)
        await wait_for(lambda: all(listening(w, service.port) for w in workers), within_s=10)
        for pid in (*(w.pid for w in workers), service.process.pid):
            os.kill(pid, signal.SIGINT)
        assert await asyncio.wait_for(service.process.wait(), timeout=15) == 0
        output = await service.output()
    events = [orjson.loads(line) for line in output.splitlines() if line.startswith("{")]
    draining = [e for e in events if e.get("event") == "resolver.draining"]
    assert [e["listener"] for e in draining] == ["closed", "closed"]
