"""`resolver serve --workers N` as a real process tree: N workers on one port, a dead worker
restarted, the limits divided among the workers, SIGTERM drained as by a single process."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import sys
import time
from collections import Counter
from functools import partial
from pathlib import Path
from typing import Any

import aiohttp
import orjson
import psutil
import pytest
from prometheus_client.parser import text_string_to_metric_families

from resolver.testing.fake_llm import Call, FakeLLM, Reply, plausible
from tests.helpers import (
    ROOT,
    Service,
    clean_env,
    free_port,
    operator,
    replaced_once,
    request_body,
    serve,
    wait_for,
    workers_of,
)

pytestmark = pytest.mark.slow

PAYLOAD = request_body(operator("p", ("x", "STRING")), query="x 取默认值")


def listening(process: psutil.Process, port: int) -> bool:
    return any(
        c.status == psutil.CONN_LISTEN and c.laddr.port == port
        for c in process.net_connections(kind="tcp")
    )


async def healthz_statuses(service: Service, count: int) -> list[int]:
    statuses = []
    for _ in range(count):
        # A fresh connection each time, so that it may reach any worker.
        async with aiohttp.ClientSession() as s, s.get(f"{service.url}/healthz") as response:
            statuses.append(response.status)
    return statuses


async def test_two_workers_listen_on_one_port_and_a_killed_worker_is_restarted(
    fake: FakeLLM,
) -> None:
    async with serve(fake, RESOLVER_WORKERS="2") as service:
        await wait_for(lambda: len(workers_of(service)) == 2, within_s=5)
        first = workers_of(service)
        await wait_for(lambda: all(listening(w, service.port) for w in first), within_s=5)
        assert await healthz_statuses(service, 10) == [200] * 10

        victim = first[0]
        victim.send_signal(signal.SIGKILL)
        # The other worker keeps answering while the victim is replaced.
        assert await healthz_statuses(service, 5) == [200] * 5
        await wait_for(
            lambda: replaced_once(service, victim),
            within_s=5,
        )
        replaced = workers_of(service)
        await wait_for(lambda: all(listening(w, service.port) for w in replaced), within_s=5)
        assert await healthz_statuses(service, 10) == [200] * 10

        service.process.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(service.process.wait(), timeout=10) == 0
        output = await service.output()
    assert not any(w.is_running() for w in replaced)
    events = [orjson.loads(line) for line in output.splitlines()]
    died = [e for e in events if e["event"] == "resolver.worker_died"]
    assert len(died) == 1
    assert died[0]["pid"] == victim.pid
    assert died[0]["signal"] == "Killed"
    assert [e["event"] for e in events].count("resolver.worker_restarted") == 1
    assert "Traceback" not in output


async def test_without_redis_each_worker_gets_its_share_of_the_limits(fake: FakeLLM) -> None:
    async with serve(
        fake,
        RESOLVER_WORKERS="2",
        RESOLVER_LLM_QPS="10",
        RESOLVER_LLM_MAX_INFLIGHT="16",
        RESOLVER_MAX_PENDING="100",
    ) as service:
        states = []
        for _ in range(12):
            async with aiohttp.ClientSession() as s, s.get(f"{service.url}/readyz") as response:
                states.append((await response.json())["limiter"])
    assert {(s["kind"], s["qps"], s["max_inflight"]) for s in states} == {("local", 5.0, 8)}


async def test_two_workers_keep_the_host_within_its_qps(fake: FakeLLM) -> None:
    # 2 workers x (10 / 2) QPS: the host's call starts stay at 10 per second.
    async with serve(fake, RESOLVER_WORKERS="2", RESOLVER_LLM_QPS="10") as service:
        await wait_for(lambda: len(workers_of(service)) == 2, within_s=5)

        async def one() -> int:
            # A fresh connection each: the kernel spreads them over both workers.
            async with (
                aiohttp.ClientSession() as fresh,
                fresh.post(f"{service.url}/v1/dynamic-params", json=PAYLOAD) as response,
            ):
                return response.status

        fake.reset_stats()
        began = time.monotonic()
        statuses = await asyncio.gather(*(one() for _ in range(30)))
        took = time.monotonic() - began
    starts = sorted(c.started for c in fake.calls)
    assert statuses == [200] * 30
    # 30 starts at 10/s (paced 10% under) take ~3 s; the first second holds at most 10.
    in_first_second = sum(1 for t in starts if t - starts[0] < 1.0)
    assert in_first_second <= 10
    assert took >= 2.5


def delayed(seconds: float) -> Any:
    def responder(call: Call) -> Reply:
        reply = plausible(call)
        reply.delay_s = seconds
        return reply

    return responder


async def test_sigterm_drains_every_worker_like_a_single_process(fake: FakeLLM) -> None:
    fake.respond(delayed(1.0))
    async with serve(
        fake, RESOLVER_WORKERS="2", RESOLVER_SHUTDOWN_GRACE_S="5"
    ) as service, aiohttp.ClientSession() as session:  # fmt: skip
        await wait_for(lambda: len(workers_of(service)) == 2, within_s=5)
        workers = workers_of(service)
        in_flight = [
            asyncio.create_task(session.post(f"{service.url}/v1/dynamic-params", json=PAYLOAD))
            for _ in range(4)
        ]
        await wait_for(lambda: len(fake.calls) == 4)
        service.process.send_signal(signal.SIGTERM)
        signalled = time.monotonic()
        refused = False
        while time.monotonic() - signalled < 0.8:
            if await service.refuses_connections():
                refused = True
                break
            await asyncio.sleep(0.02)
        responses = await asyncio.gather(*in_flight)
        code = await asyncio.wait_for(service.process.wait(), timeout=7)
        exited = time.monotonic() - signalled
        output = await service.output()
    assert refused, "still accepting connections after SIGTERM"
    assert [r.status for r in responses] == [200] * 4
    assert code == 0
    assert exited < 5 + 1
    assert not any(w.is_running() for w in workers)
    events = [orjson.loads(line)["event"] for line in output.splitlines()]
    assert events.count("resolver.stopped") == 2
    assert "Traceback" not in output


async def test_sigterm_while_the_workers_start_still_drains_them_cleanly(fake: FakeLLM) -> None:
    # The workers are forked with SIGTERM blocked until their loop handles it: a SIGTERM in
    # their first moments is a drain, not a kill by the default action.
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "resolver",
        "serve",
        "--workers",
        "2",
        "--port",
        str(free_port()),
        cwd=ROOT,
        env=clean_env(RESOLVER_LOG_FORMAT="json"),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    assert process.stdout is not None
    lines: list[bytes] = []
    try:
        async with asyncio.timeout(20):
            while b"resolver.supervisor_started" not in (line := await process.stdout.readline()):
                assert line, b"".join(lines)
                lines.append(line)
        process.send_signal(signal.SIGTERM)
        code = await asyncio.wait_for(process.wait(), timeout=15)
        output = b"".join(lines).decode() + (await process.stdout.read()).decode()
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
    assert code == 0, output
    events = [orjson.loads(line)["event"] for line in output.splitlines()]
    assert "resolver.worker_exit" not in events
    assert events.count("resolver.stopped") == 2


async def bursts_reaching(workers: list[psutil.Process], service: Service) -> int:
    """Bursts of 40 `/healthz` requests, each on its own connection, until every worker has
    answered one of a burst; how many requests were sent. The workers share one accept queue,
    so a worker whose loop wakes first may take a whole burst (CI saw 51 of 51 requests go to
    one worker): each burst's connections are held open until the workers' own sockets show
    which of them took one. After 20 bursts it gives up without raising, and the test fails
    further on (in a trial, at the SIGTERM's wait): an assertion raised inside `serve` kills
    the supervisor alone, and its workers kept the test's pipe open, a hang."""
    sent = 0
    for _ in range(20):
        answers = await asyncio.gather(*(_answer(service) for _ in range(40)))
        try:
            assert [status for status, _, _ in answers] == [200] * 40
            sent += 40
            ports = {port for _, port, _ in answers}
            if all(_took_one(w, service.port, ports) for w in workers):
                return sent
        finally:
            for _, _, writer in answers:
                writer.close()
    return sent


async def _answer(service: Service) -> tuple[int, int, asyncio.StreamWriter]:
    """One `/healthz` on a fresh connection: the status, the client's port, and the
    connection, left open."""
    reader, writer = await asyncio.open_connection("127.0.0.1", service.port)
    writer.write(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    head = await reader.readuntil(b"\r\n\r\n")
    length = re.search(rb"(?im)^content-length: *(\d+)", head)
    assert length is not None
    await reader.readexactly(int(length.group(1)))
    return int(head.split(b" ", 2)[1]), writer.get_extra_info("sockname")[1], writer


def _took_one(process: psutil.Process, port: int, clients: set[int]) -> bool:
    """Whether the process holds the server end of one of these clients' connections."""
    return any(
        c.status == psutil.CONN_ESTABLISHED and c.laddr.port == port and c.raddr.port in clients
        for c in process.net_connections(kind="tcp")
    )


def scraped(text: str, name: str, **labels: str) -> float:
    """The value of one sample of a Prometheus text exposition (0 when absent)."""
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name == name and all(sample.labels.get(k) == v for k, v in labels.items()):
                return float(sample.value)
    return 0.0


def gone(path: str) -> bool:
    return not Path(path).exists()


async def scrape(service: Service) -> str:
    async with aiohttp.ClientSession() as s, s.get(f"{service.url}/metrics") as response:
        assert response.status == 200
        return await response.text()


async def test_one_scrape_counts_the_requests_of_every_worker(
    fake: FakeLLM, tmp_path: Path
) -> None:
    healthz = {"route": "/healthz", "status": "200"}
    async with serve(fake, RESOLVER_WORKERS="2", TMPDIR=str(tmp_path)) as service:
        await wait_for(lambda: len(workers_of(service)) == 2, within_s=5)
        first = workers_of(service)
        await wait_for(lambda: all(listening(w, service.port) for w in first), within_s=5)
        # `serve` polled /healthz until it answered: those count too.
        before = scraped(await scrape(service), "resolver_http_requests_total", **healthz)
        sent = await bursts_reaching(first, service)
        counted = scraped(await scrape(service), "resolver_http_requests_total", **healthz)
        assert counted == before + sent

        # A worker that dies takes none of the host's counts with it: no counter reset.
        await asyncio.sleep(0.2)  # its batched log lines are out before the kill
        victim = first[0]
        victim.send_signal(signal.SIGKILL)
        await wait_for(
            lambda: replaced_once(service, victim),
            within_s=5,
        )
        assert await healthz_statuses(service, 10) == [200] * 10
        text = await scrape(service)
        total = scraped(text, "resolver_http_requests_total", **healthz)
        assert total == before + sent + 10
        assert scraped(text, "resolver_http_connections_open") >= 1  # the scrape's own

        service.process.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(service.process.wait(), timeout=10) == 0
        output = await service.output()
    events = [orjson.loads(line) for line in output.splitlines()]
    served = Counter(
        e["worker"] for e in events if e["event"] == "http.request" and e["path"] == "/healthz"
    )
    assert sum(served.values()) == total  # every request of every worker, in one scrape
    assert len(served) == 2, served  # and they were spread over both workers
    [started] = [e for e in events if e["event"] == "resolver.supervisor_started"]
    assert gone(started["metrics_dir"])  # removed when the supervisor stopped


def make_dirs(*paths: Path) -> None:
    for path in paths:
        path.mkdir()


def listing(directory: Path) -> set[str]:
    return {p.name for p in directory.iterdir()}


async def test_the_metrics_of_a_killed_supervisor_are_removed_by_the_next(
    fake: FakeLLM, tmp_path: Path
) -> None:
    # SIGKILL leaves a supervisor no chance to remove its directory: the next one does.
    ended = await asyncio.create_subprocess_exec(sys.executable, "-c", "pass")
    await ended.wait()
    stale = tmp_path / f"resolver-metrics-{ended.pid}-abcd1234"
    alive = tmp_path / f"resolver-metrics-{os.getpid()}-abcd1234"  # a running supervisor's
    make_dirs(stale, alive)
    async with serve(fake, RESOLVER_WORKERS="2", TMPDIR=str(tmp_path)) as service:
        await wait_for(lambda: len(workers_of(service)) == 2, within_s=5)
        names = listing(tmp_path)
    assert stale.name not in names
    assert alive.name in names
    assert any(n.startswith(f"resolver-metrics-{service.process.pid}-") for n in names)


async def test_the_metric_files_of_dead_workers_are_folded_and_their_counts_kept(
    fake: FakeLLM, tmp_path: Path
) -> None:
    # Each restart once left two files in the metrics directory forever, each read at every
    # scrape (issue 30); now a dead worker's counts are folded into one archive.
    healthz = {"route": "/healthz", "status": "200"}
    async with serve(fake, RESOLVER_WORKERS="2", TMPDIR=str(tmp_path)) as service:
        await wait_for(lambda: len(workers_of(service)) == 2, within_s=5)
        [metrics_dir] = metric_dirs(tmp_path)
        before = scraped(await scrape(service), "resolver_http_requests_total", **healthz)
        sent = 0
        for _ in range(4):
            current = workers_of(service)
            await wait_for(partial(all_listening, service, current), within_s=5)
            assert await healthz_statuses(service, 10) == [200] * 10
            sent += 10
            current[0].send_signal(signal.SIGKILL)
            await wait_for(partial(replaced, service, current[0].pid), within_s=10)
        current = workers_of(service)
        await wait_for(lambda: all(listening(w, service.port) for w in current), within_s=5)
        text = await scrape(service)
        files = db_files(metrics_dir)
    assert scraped(text, "resolver_http_requests_total", **healthz) == before + sent
    pids = {name.rsplit("_", 1)[-1].removesuffix(".db") for name in files}
    # The two live workers, the supervisor's own counter, the archive: none of the 4 dead.
    assert len(pids) <= 4, files
    assert "archive" in pids


def all_listening(service: Service, workers: list[psutil.Process]) -> bool:
    return all(listening(w, service.port) for w in workers)


def replaced(service: Service, pid: int) -> bool:
    now = workers_of(service)
    return len(now) == 2 and pid not in {w.pid for w in now}


def metric_dirs(directory: Path) -> list[Path]:
    return list(directory.glob("resolver-metrics-*"))


def db_files(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.glob("*.db"))
