"""What many test modules share: request builders, assertions, and a real `resolver serve`
subprocess. Fixtures live in conftest.py; test modules import helpers from here, never from
each other."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import os
import resource
import shutil
import signal
import socket
import sys
import tempfile
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, Self

import aiohttp
import orjson
import psutil
import redis.asyncio
import redis.exceptions
from aiohttp import web
from aiohttp.test_utils import TestClient
from hypothesis import strategies as st
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

import resolver
from resolver.core import tracing
from resolver.mcp.http import HOLDER_TASK
from resolver.testing.fake_llm import FakeLLM
from resolver.testing.fake_upstreams import (
    DEMO_KN,
    DEMO_OT,
    FakeBknBackend,
    FakeOntologyQuery,
    FakeOperatorIntegration,
    Seen,
)
from resolver.web.servicekeys import SERVICES_KEY

NOW_MS = 1_762_996_342_241  # 2025-11-13T09:12:22.241+08:00


ClientFactory = Callable[..., Awaitable[TestClient[Any, Any]]]


def metric(name: str = "approved_drug_count", *business: tuple[str, str]) -> dict[str, Any]:
    """A metric definition with the four time inputs, a property param and business inputs."""
    params: list[dict[str, Any]] = [
        {"name": n, "value_from": "input", "if_system_generate": True}
        for n in ("instant", "start", "end", "step")
    ]
    params.append({"name": "company_id", "value_from": "property"})
    params += [{"name": n, "type": t, "value_from": "input"} for n, t in business]
    return {"name": name, "type": "metric", "parameters": params}


def operator(name: str, *inputs: tuple[str, str]) -> dict[str, Any]:
    """An operator definition with typed inputs."""
    return {
        "name": name,
        "type": "operator",
        "parameters": [{"name": n, "type": t, "value_from": "input"} for n, t in inputs],
    }


def request_body(*properties: dict[str, Any], **fields: Any) -> dict[str, Any]:
    """A `/v1/dynamic-params` body with a fixed clock and timezone unless overridden."""
    body: dict[str, Any] = {
        "logic_properties": list(properties),
        "query": "最近3个月的药品数量趋势",
        "now_ms": NOW_MS,
        "timezone": "Asia/Shanghai",
    }
    body.update(fields)
    return body


async def post(client: TestClient[Any, Any], payload: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    """POST a body to /v1/dynamic-params; the status and the parsed JSON answer."""
    response = await client.post("/v1/dynamic-params", json=payload)
    return response.status, orjson.loads(await response.read())


@contextlib.contextmanager
def recorded_spans() -> Iterator[InMemorySpanExporter]:
    """Tracing on, into memory, for the block (build the app inside it: the request span's
    middleware is installed only while tracing is on)."""
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    tracing.install(provider)
    try:
        yield exporter
    finally:
        tracing.install(None)
        provider.shutdown()


@dataclass
class KnFakes:
    """The three knowledge-network fakes, each on its own loopback server (`manager` is
    bkn-backend, which replaced ontology-manager)."""

    manager: FakeBknBackend
    operators: FakeOperatorIntegration
    values: FakeOntologyQuery


def queried(fakes: KnFakes) -> list[Seen]:
    """ontology-query's value requests (`…/properties`), without the permission reads."""
    return [c for c in fakes.values.calls if c.path.endswith("/properties")]


def plan_reads(fakes: KnFakes) -> list[Seen]:
    """ontology-query's permission reads (`GET …/object-types/{ot_id}/schema`)."""
    return [c for c in fakes.values.calls if c.path.endswith("/schema")]


def assert_error_shape(body: dict[str, Any], code: str) -> None:
    assert isinstance(body["_error"], str)
    assert body["_error"]
    assert "\n" not in body["_error"]
    assert body["error"]["code"] == code
    assert isinstance(body["error"]["message"], str)
    assert "details" in body["error"]
    assert body["trace_id"]
    assert "Traceback" not in orjson.dumps(body).decode()


# The imported package's own directory. Not "/resolver/" anywhere in a path: a clone of this
# project naturally sits in a folder named `resolver`, and then every test's own task matched.
PACKAGE_DIR = os.path.join(os.path.dirname(os.path.abspath(resolver.__file__)), "")


def runs_resolver_code(filename: str) -> bool:
    """Whether a code object's file belongs to the resolver package (not to the tests)."""
    return os.path.abspath(filename).startswith(PACKAGE_DIR)


def resolver_tasks() -> list[asyncio.Task[Any]]:
    """Pending tasks running resolver code (fan-out workers, LLM attempts)."""
    found = []
    for task in asyncio.all_tasks():
        if task.get_name() == HOLDER_TASK:
            continue  # the MCP endpoint's one task, as long-lived as the app
        code = getattr(task.get_coro(), "cr_code", None)
        if not task.done() and code is not None and runs_resolver_code(code.co_filename):
            found.append(task)
    return found


async def assert_settled(client: Any, fake: FakeLLM) -> None:
    """Within a moment: no LLM call holds a slot or waits for one, the fake serves nothing
    (every connection finished or was closed by the service), no resolver task is left."""
    limiter = client.app[SERVICES_KEY].params.llm.limiter
    for _ in range(100):
        if not (limiter.inflight or limiter.pending or fake.inflight or resolver_tasks()):
            return
        await asyncio.sleep(0.01)
    raise AssertionError(
        f"left behind: inflight={limiter.inflight} pending={limiter.pending} "
        f"fake_inflight={fake.inflight} tasks={resolver_tasks()}"
    )


async def wait_for(predicate: Any, within_s: float = 2.0) -> None:
    deadline = time.monotonic() + within_s
    while not predicate():
        assert time.monotonic() < deadline, "condition not reached"
        await asyncio.sleep(0.01)


ROOT = Path(__file__).resolve().parents[1]
# How long a `resolver serve` subprocess gets to answer /healthz.
_START_S = 30.0


SECRET = "sk-test-SHUTDOWN-SECRET-42"


def clean_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("RESOLVER_")}
    env.update(extra)
    return env


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Service:
    """The child process and how to reach it."""

    def __init__(self, process: asyncio.subprocess.Process, port: int) -> None:
        self.process = process
        self.port = port
        self.url = f"http://127.0.0.1:{port}"

    async def output(self) -> str:
        """Everything the process wrote (after it exited)."""
        assert self.process.stdout is not None
        return (await self.process.stdout.read()).decode()

    async def refuses_connections(self) -> bool:
        try:
            _, writer = await asyncio.open_connection("127.0.0.1", self.port)
        except (ConnectionRefusedError, ConnectionResetError):
            # Reset: the kernel took the handshake just as the listener closed (a race that
            # failed this check 1 time in 12 on the base commit too).
            return True
        writer.close()
        await writer.wait_closed()
        return False


def serve(fake: FakeLLM, **env: str) -> contextlib.AbstractAsyncContextManager[Service]:
    """Start `python -m resolver serve` against the fake; wait until /healthz answers."""
    return _serve(fake, env, None)


def workers_of(service: Service) -> list[psutil.Process]:
    """The workers of a `resolver serve --workers N` (the supervisor's children)."""
    return psutil.Process(service.process.pid).children()


def replaced_once(service: Service, victim: psutil.Process) -> bool:
    """Two workers again, the victim not among them (read at once: a victim that dies between
    two readings would pass for replaced)."""
    workers = {w.pid for w in workers_of(service)}
    return len(workers) == 2 and victim.pid not in workers


async def fresh_healthz(service: Service, count: int, timeout_s: float = 2.0) -> list[int | str]:
    """`count` `/healthz` probes, each on a fresh connection (spread over the workers): each
    status, or the name of the error of a probe unanswered within `timeout_s`."""
    statuses: list[int | str] = []
    timeout = aiohttp.ClientTimeout(total=timeout_s)
    for _ in range(count):
        try:
            async with (
                aiohttp.ClientSession(timeout=timeout) as session,
                session.get(f"{service.url}/healthz") as response,
            ):
                statuses.append(response.status)
        except (TimeoutError, aiohttp.ClientError) as exc:
            statuses.append(type(exc).__name__)
    return statuses


def serve_with_descriptors(
    fake: FakeLLM, nofile: int, **env: str
) -> contextlib.AbstractAsyncContextManager[Service]:
    """`serve` with the child's file-descriptor limit (soft and hard) lowered to `nofile`."""
    return _serve(fake, env, nofile)


@contextlib.asynccontextmanager
async def _serve(fake: FakeLLM, env: dict[str, str], nofile: int | None) -> AsyncIterator[Service]:
    port = free_port()
    environment = {k: v for k, v in os.environ.items() if not k.startswith("RESOLVER_")}
    environment.update(
        RESOLVER_LLM_BASE_URL=fake.url,  # type: ignore[attr-defined]
        RESOLVER_LLM_API_KEY=SECRET,
        RESOLVER_LOG_FORMAT="json",
        # Tests count the LLM calls their requests make: no result cache unless they ask.
        RESOLVER_LLM_CACHE_TTL_S="0",
    )
    environment.update(env)
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "resolver",
        "serve",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        cwd=ROOT,
        env=environment,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
        preexec_fn=None if nofile is None else partial(_limit_descriptors, nofile),
    )
    service = Service(process, port)
    try:
        # Up within 30 s: workers import the whole service, and this machine may be shared.
        give_up_at = time.monotonic() + _START_S
        async with aiohttp.ClientSession() as session:
            while True:
                with contextlib.suppress(aiohttp.ClientConnectionError):
                    async with session.get(f"{service.url}/healthz") as response:
                        if response.status == 200:
                            break
                assert process.returncode is None, await service.output()
                if time.monotonic() > give_up_at:
                    raise AssertionError("resolver serve did not come up")
                await asyncio.sleep(0.05)
        yield service
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()


def _limit_descriptors(count: int) -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (count, count))


class RedisServer:
    """A real `redis-server` on a loopback port, without persistence; stop and start it again
    (same port, empty) to play an outage."""

    def __init__(self, port: int, directory: str) -> None:
        self.port = port
        self.url = f"redis://127.0.0.1:{port}/0"
        self._directory = directory
        self._process: asyncio.subprocess.Process | None = None

    async def start(self) -> None:
        """Start it and wait until it answers PING."""
        binary = shutil.which("redis-server")
        assert binary, "redis-server is not installed: `make redis-server` installs it"
        self._process = await asyncio.create_subprocess_exec(
            binary,
            "--port", str(self.port),
            "--bind", "127.0.0.1",
            "--save", "",
            "--appendonly", "no",
            "--dir", self._directory,
            "--loglevel", "warning",
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.DEVNULL,
        )  # fmt: skip
        client = self.client()
        try:
            for _ in range(200):
                try:
                    if await client.ping():
                        return
                except (redis.exceptions.ConnectionError, OSError):
                    await asyncio.sleep(0.02)
            raise AssertionError("redis-server did not come up")
        finally:
            await client.aclose()

    async def stop(self) -> None:
        """Kill it (an outage, not a clean shutdown) and wait for the port to close."""
        if self._process is not None and self._process.returncode is None:
            self._process.send_signal(signal.SIGKILL)
            await self._process.wait()
        self._process = None

    def client(self) -> redis.asyncio.Redis:
        """A client of its own, for the test to look inside."""
        return redis.asyncio.Redis.from_url(self.url, socket_timeout=2)


@contextlib.asynccontextmanager
async def redis_server() -> AsyncIterator[RedisServer]:
    """A real redis-server on a free loopback port for the duration of the block."""
    with tempfile.TemporaryDirectory(prefix="resolver-redis-") as directory:
        server = RedisServer(free_port(), directory)
        await server.start()
        try:
            yield server
        finally:
            await server.stop()


class ThreadServed:
    """aiohttp apps served on loopback ports from an event loop in a thread of their own, so
    that a synchronous test (hypothesis drives one) can talk to them over real sockets.

    Subclasses start their apps in `_start` (with `_serve`) and return the port to talk to.
    """

    def __init__(self) -> None:
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._runners: list[web.AppRunner] = []
        self.port = 0

    def __enter__(self) -> Self:
        self._thread.start()
        self.port = self._call(self._start())
        return self

    def __exit__(self, *exc: object) -> None:
        self._call(self._stop())
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=10)
        self._loop.close()

    def _call(self, coro: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self._loop).result(timeout=30)

    async def _serve(self, app: web.Application) -> int:
        runner = web.AppRunner(app, handler_cancellation=True)
        await runner.setup()
        await web.TCPSite(runner, "127.0.0.1", 0).start()
        self._runners.append(runner)
        return int(runner.addresses[0][1])

    async def _start(self) -> int:
        raise NotImplementedError

    async def _stop(self) -> None:
        for runner in reversed(self._runners):
            await runner.cleanup()


def rules_pipeline_body(**fields: Any) -> dict[str, Any]:
    """A pipeline request for the demo metric that rules settle (no LLM call needed)."""
    body: dict[str, Any] = {
        "kn_id": DEMO_KN,
        "ot_id": DEMO_OT,
        "query": "当前的获批药品数量",
        "_instance_identities": [{"company_id": "company_000001"}],
        "properties": ["approved_drug_count"],
        "now_ms": NOW_MS,
        "timezone": "Asia/Shanghai",
    }
    body.update(fields)
    return body


async def worst_healthz(client: Any, attack: Awaitable[Any], every_s: float = 0.01) -> float:
    """Run `attack` while `/healthz` is asked every `every_s` on `client`; the slowest answer
    or the latest wake-up from the pause between probes, in seconds: when client and service
    share the event loop, its longest stall.

    The heap is frozen meanwhile, as `resolver serve` freezes its own after start-up
    (`server/process.py`): otherwise a full collection of the test process's heap (pytest,
    hypothesis, every module of the suite) holds the interpreter for tenths of a second,
    which no request of the service would cost.
    """
    worst = 0.0
    done = asyncio.Event()

    async def probe() -> None:
        nonlocal worst
        while not done.is_set():
            started = time.perf_counter()
            response = await client.get("/healthz")
            await response.read()
            worst = max(worst, time.perf_counter() - started)
            paused = time.perf_counter()
            await asyncio.sleep(every_s)
            worst = max(worst, time.perf_counter() - paused - every_s)

    gc.collect()
    gc.freeze()
    prober = asyncio.create_task(probe())
    await asyncio.sleep(0)  # the first probe is under way before the attack starts
    try:
        await attack
    finally:
        done.set()
        await prober
        gc.unfreeze()
    return worst


async def metrics_text(client: Any) -> str:
    """The service's `/metrics` page."""
    raw: bytes = await (await client.get("/metrics")).read()
    return raw.decode()


def metric_value(text: str, name: str, *labels: str) -> float:
    """The value of the first sample of `name` whose line holds every label (0 when none)."""
    for line in text.splitlines():
        if line.startswith(f"{name}{{") and all(label in line for label in labels):
            return float(line.rsplit(" ", 1)[1])
    return 0.0


def json_values(
    *, big_ints: int = 70, text_size: int = 12, size: int = 3, leaves: int = 8
) -> st.SearchStrategy[Any]:
    """Any JSON value (hypothesis): null, booleans, integers (up to 2**big_ints, past 64
    bits), finite floats, short strings, and lists and objects of them."""
    scalars = (
        st.none()
        | st.booleans()
        | st.integers()
        | st.integers(min_value=2**63, max_value=2**big_ints)
        | st.floats(allow_nan=False, allow_infinity=False)
        | st.text(max_size=text_size)
    )
    return st.recursive(
        scalars,
        lambda children: (
            st.lists(children, max_size=size)
            | st.dictionaries(st.text(max_size=text_size), children, max_size=size)
        ),
        max_leaves=leaves,
    )


async def post_as_browser_would(
    client: Any, path: str, body: Any, **headers: str
) -> tuple[int, Any]:
    """POST `body` as JSON bytes with exactly the headers given (no `Content-Type` unless
    given, as a page's simple request sends): the status and the parsed answer."""
    response = await client.post(
        path,
        data=orjson.dumps(body),
        headers={"Accept": "application/json, text/event-stream", **headers},
        skip_auto_headers=["Content-Type"],
    )
    return response.status, orjson.loads(await response.read())
