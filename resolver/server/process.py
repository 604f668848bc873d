"""One serving process: the application on already-bound sockets, and its shutdown.

On SIGTERM, SIGINT or SIGHUP (all three drain alike; SIGHUP does not reload: a container's
configuration is its environment, which a running process cannot re-read), with `t0` its
arrival:

1. at once, `/readyz` answers 503 (the lifecycle is *stopping*), while the listener keeps
   accepting and serving, for `RESOLVER_DRAIN_S`, so that load balancers and Kubernetes
   endpoints stop sending before connections are refused; from now on every answer says
   `Connection: close`, so that no client is left holding a kept-alive connection that the
   shutdown would close under its next request;
2. at `t0 + RESOLVER_DRAIN_S` the listener stops: the connections the kernel has already
   queued on it are accepted first (closing a listening socket resets its queue: those
   clients had connected and sent their request), then it closes and new connections are
   refused. The lifecycle is *draining*: no transport retry and no repair round starts any
   more. Connections that are open without a request under way get up to `_SETTLE_S` to send
   one (a just-accepted connection's first request, a kept-alive one's next: each answered with
   `Connection: close`), then the idle ones close;
3. requests in flight finish; at `t0 + RESOLVER_SHUTDOWN_GRACE_S` those still running are cut:
   each is answered 503 `SHUTTING_DOWN` and logged (`request.cut`);
4. the application's resources close (bounded), and the process exits 0, within grace + 1 s.
"""

from __future__ import annotations

import asyncio
import ctypes
import gc
import os
import select
import signal
import socket
import struct
from collections.abc import Sequence
from pathlib import Path

import structlog
from aiohttp import web

from resolver.core import tracing
from resolver.core.lifecycle import Lifecycle
from resolver.core.loops import uvloop_factory
from resolver.core.metrics import Metrics
from resolver.core.settings import Settings
from resolver.server.bad_http import ShapedErrors
from resolver.server.guard import ConnectionGuard
from resolver.server.heartbeat import Heartbeats, InflightBoard
from resolver.web.app import create_app
from resolver.web.appkeys import LIFECYCLE_KEY, METRICS_KEY

log = structlog.get_logger("resolver.server")

# After the cut: time for the 503s to be written, then for closing the application's resources.
_CUT_ANSWER_S = 0.3
_CLEANUP_S = 0.5
# aiohttp's idle keep-alive timeout (what `web.run_app` uses): longer than the usual load
# balancer's idle timeout, so that the balancer, not us, closes idle connections.
KEEPALIVE_S = 75.0
# How often a worker checks that its supervisor is still alive.
_PARENT_CHECK_S = 1.0
# What each connection's protocol is made with (aiohttp's AppRunner passes the same on).
_CONNECTION_OPTIONS = {"access_log": None, "keepalive_timeout": KEEPALIVE_S}
# The signals that stop a serving process (gracefully, all alike).
STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)
# At the end of the drain: at most this long to accept what the kernel queued on the listener.
_BACKLOG_S = 0.5
# Then at most this long for open connections without a request under way to send one.
_SETTLE_S = 1.0
# How long a stopping worker waits for its supervisor to say whether the service stops.
_SUPERVISOR_SAYS_S = 0.5


def event_loop(choice: str) -> asyncio.AbstractEventLoop:
    """uvloop where installed (`auto`) or asked for: 5-20% less CPU per request in paired runs."""
    factory = uvloop_factory() if choice != "asyncio" else None
    if factory is None and choice == "uvloop":
        raise SystemExit("resolver: RESOLVER_EVENT_LOOP=uvloop but uvloop is not installed")
    return factory() if factory is not None else asyncio.new_event_loop()


def run_process(
    settings: Settings,
    sockets: list[socket.socket],
    *,
    max_connections: int,
    worker: int | None = None,
    supervisor: int | None = None,
    metrics_dir: Path | None = None,
    heartbeats: Heartbeats | None = None,
    board: InflightBoard | None = None,
) -> int:
    """Serve on `sockets` until SIGTERM/SIGINT/SIGHUP (or the supervisor's death); the exit
    code.

    `metrics_dir`: a worker's, where every worker's metrics live (`core/metrics.py`);
    `heartbeats`: a worker's, where its loop proves it runs (`server/heartbeat.py`);
    `board`: a worker's, where it lists its requests in flight for the supervisor."""
    loop = event_loop(settings.event_loop)
    asyncio.set_event_loop(loop)
    serving = _Serving(
        settings,
        sockets,
        max_connections,
        worker,
        supervisor,
        metrics_dir=metrics_dir,
        heartbeats=heartbeats,
        board=board,
    )
    try:
        return loop.run_until_complete(serving.run())
    finally:
        loop.run_until_complete(loop.shutdown_asyncgens())
        loop.close()


class _Serving:
    def __init__(
        self,
        settings: Settings,
        sockets: list[socket.socket],
        max_connections: int,
        worker: int | None,
        supervisor: int | None,
        *,
        metrics_dir: Path | None,
        heartbeats: Heartbeats | None = None,
        board: InflightBoard | None = None,
    ) -> None:
        self._settings = settings
        self._board = board
        self._metrics_dir = metrics_dir
        self._heartbeats = heartbeats
        self._sockets = sockets
        self._max_connections = max_connections
        self._worker = worker
        self._supervisor = supervisor
        self._stop = asyncio.Event()
        self._stopped_by: str | None = None

    def _signalled(self, sig: signal.Signals) -> None:
        if self._stopped_by is None:
            self._stopped_by = sig.name
        self._stop.set()

    async def run(self) -> int:
        loop = asyncio.get_running_loop()
        for sig in STOP_SIGNALS:
            loop.add_signal_handler(sig, self._signalled, sig)
        # A worker is forked with these blocked (a SIGTERM during its start-up stays pending
        # instead of killing it); now that the loop handles them, let them through.
        signal.pthread_sigmask(signal.SIG_UNBLOCK, set(STOP_SIGNALS))
        if self._worker is not None:
            structlog.contextvars.bind_contextvars(worker=self._worker)
        beating = None
        timeout_s = self._settings.worker_heartbeat_timeout_s
        if self._heartbeats is not None and self._worker is not None and timeout_s > 0:
            every_s = beat_interval(timeout_s)
            beating = loop.create_task(self._heartbeats.keep_beating(self._worker, every_s))
        # The standard OTEL_EXPORTER_OTLP_ENDPOINT turns tracing on, read here at start-up
        # (create_app only wires what is installed).
        tracing.install_from_environment()
        board = None
        if self._board is not None and self._worker is not None:
            self._board.serve_as(self._worker)
            board = self._board
        metrics = Metrics(multiprocess_dir=self._metrics_dir)
        app = create_app(self._settings, metrics=metrics, board=board)
        runner = web.AppRunner(
            app,
            handler_cancellation=True,
            shutdown_timeout=_CLEANUP_S,
            **_CONNECTION_OPTIONS,  # type: ignore[arg-type]
        )
        await runner.setup()
        # The ~100k objects of the imported libraries live as long as the process: keep them
        # out of every cyclic-GC pass, which otherwise walks them all on each full collection.
        gc.collect()
        gc.freeze()
        assert runner.server is not None  # noqa: S101 - set by setup()
        server = runner.server

        def connection() -> ShapedErrors:
            # aiohttp's protocol, answering unparsable HTTP in the SPEC's shape.
            return ShapedErrors(server, loop=loop, **_CONNECTION_OPTIONS)  # type: ignore[arg-type]

        guard = ConnectionGuard(
            connection,
            max_connections=self._max_connections,
            header_timeout_s=self._settings.header_timeout_s,
            metrics=app[METRICS_KEY],
        )
        servers = [await loop.create_server(guard.protocol, sock=sock) for sock in self._sockets]
        log.info(
            "resolver.listening",
            addresses=[_address(sock) for sock in self._sockets],
            pid=os.getpid(),
            max_connections=self._max_connections,
        )
        watch = loop.create_task(self._watch_supervisor()) if self._supervisor else None
        await self._stop.wait()
        if watch is not None:
            watch.cancel()
        await self._shut_down(runner, servers, guard)
        if beating is not None:
            beating.cancel()
        return 0

    async def _shut_down(
        self,
        runner: web.AppRunner,
        servers: Sequence[asyncio.Server],
        guard: ConnectionGuard,
    ) -> None:
        loop = asyncio.get_running_loop()
        lifecycle = runner.app[LIFECYCLE_KEY]
        started = loop.time()
        grace_ends = started + self._settings.shutdown_grace_s
        lifecycle.begin_stopping()
        log.info(
            "resolver.stopping",
            signal=self._stopped_by or "supervisor_gone",
            drain_s=self._settings.drain_s,
            grace_s=self._settings.shutdown_grace_s,
            in_flight=lifecycle.in_flight,
        )
        await asyncio.sleep(self._settings.drain_s)
        for_good = await self._sockets_close_for_good()
        if for_good:
            accepted = await _stop_listening(servers, self._sockets)
        else:
            accepted = _leave_listening(servers, self._sockets)
        lifecycle.begin_draining()
        log.info(
            "resolver.draining",
            in_flight=lifecycle.in_flight,
            open_connections=guard.open_connections,
            accepted_from_backlog=accepted,
            listener="closed" if for_good else "left to the other workers",
        )
        await _settle(guard, lifecycle, min(grace_ends, loop.time() + _SETTLE_S))
        assert runner.server is not None  # noqa: S101 - set by setup()
        runner.server.pre_shutdown()  # idle keep-alive connections close now, busy ones after
        await _until_idle(lifecycle, grace_ends)
        if lifecycle.in_flight:
            cut = lifecycle.cut_requests()
            log.warning("resolver.grace_over", cut=cut, grace_s=self._settings.shutdown_grace_s)
            await _until_idle(lifecycle, loop.time() + _CUT_ANSWER_S)
        try:
            async with asyncio.timeout(_CLEANUP_S * 2):
                await runner.cleanup()
        except TimeoutError:
            log.warning("resolver.cleanup_slow", waited_s=_CLEANUP_S * 2)
        log.info(
            "resolver.stopped",
            after_s=round(loop.time() - started, 3),
            open_connections=guard.open_connections,
        )

    async def _sockets_close_for_good(self) -> bool:
        """Whether the listening sockets close with this process: it is the whole service, or
        its supervisor stops the service (or is gone). A worker stopped on its own (a SIGTERM
        sent to it, not to the service) shares them with the workers that go on serving.

        A signal sent to the whole process group (Ctrl-C in a terminal, an init that signals
        the group) reaches the workers as soon as the supervisor, which marks the service as
        stopping a moment later: the worker waits up to `_SUPERVISOR_SAYS_S` for that mark."""
        if self._supervisor is None or self._heartbeats is None:
            return True
        give_up_at = asyncio.get_running_loop().time() + _SUPERVISOR_SAYS_S
        while True:
            if os.getppid() != self._supervisor or self._heartbeats.service_stopping:
                return True
            if asyncio.get_running_loop().time() >= give_up_at:
                return False
            await asyncio.sleep(0.01)

    async def _watch_supervisor(self) -> None:
        # A worker whose supervisor died (SIGKILL) would serve on unsupervised: stop instead.
        # No event tells a child that its parent died: ask now and then.
        while os.getppid() == self._supervisor:  # noqa: ASYNC110
            await asyncio.sleep(_PARENT_CHECK_S)
        log.warning("resolver.supervisor_gone", supervisor=self._supervisor)
        self._stop.set()


async def _stop_listening(
    servers: Sequence[asyncio.Server], sockets: Sequence[socket.socket]
) -> int:
    """Stop taking new connections, accept the ones the kernel queued, then close; how many
    polls found some waiting.

    Closing a listening socket resets the connections in its queue, which had connected and,
    most of them, sent their request. So first the socket is told to drop new handshakes (a
    filter that drops SYNs: such a client retries in a second and finds the port closed, a
    refusal, never a loss), then the event loop accepts what is queued, then it closes."""
    loop = asyncio.get_running_loop()
    for sock in sockets:
        refuse_handshakes(sock)
    poller = select.poll()
    for sock in sockets:
        poller.register(sock.fileno(), select.POLLIN)
    give_up_at = loop.time() + _BACKLOG_S
    waiting = 0
    while poller.poll(0) and loop.time() < give_up_at:
        waiting += 1
        await asyncio.sleep(0.002)
    for server in servers:
        server.close()
    # uvloop serves on a duplicate of each socket: ours must go too, else the kernel keeps the
    # socket listening, queueing connections that nobody accepts, to reset them at exit.
    for sock in sockets:
        sock.close()
    return waiting


def _leave_listening(servers: Sequence[asyncio.Server], sockets: Sequence[socket.socket]) -> int:
    """Stop accepting, and close this process's descriptors of the sockets, which stay open
    and listening in the other workers (and the supervisor): what is queued is theirs to
    accept. No filter: it would refuse new connections for every worker, for good."""
    for server in servers:
        server.close()
    for sock in sockets:
        sock.close()
    return 0


# A classic BPF program for a listening TCP socket (the packet starts at its TCP header):
# drop a segment whose flags are SYN without ACK (a new handshake), keep anything else (the
# ACK that completes a handshake already under way, which then queues to be accepted).
_DROP_SYN = b"".join(
    struct.pack("HBBI", code, jump_true, jump_false, k)
    for code, jump_true, jump_false, k in (
        (0x30, 0, 0, 13),  # ldb [13]: the flags byte
        (0x54, 0, 0, 0x12),  # and #(SYN|ACK)
        (0x15, 0, 1, 0x02),  # jeq #SYN: drop, else keep
        (0x06, 0, 0, 0),  # ret #0: drop
        (0x06, 0, 0, 0xFFFFFFFF),  # ret #-1: keep
    )
)
_SO_ATTACH_FILTER = 26


def refuse_handshakes(sock: socket.socket) -> bool:
    """Make a listening TCP socket drop new handshakes (Linux); whether it could."""
    program = ctypes.create_string_buffer(_DROP_SYN)
    fprog = struct.pack("HP", len(_DROP_SYN) // 8, ctypes.addressof(program))
    try:
        sock.setsockopt(socket.SOL_SOCKET, _SO_ATTACH_FILTER, fprog)
    except OSError:
        return False
    return True


async def _settle(guard: ConnectionGuard, lifecycle: Lifecycle, deadline: float) -> None:
    """Until every open connection has a request under way (or the deadline): a connection
    just accepted sends its first request, a kept-alive one its next; each is answered with
    `Connection: close`, so the connections close one by one rather than under a request."""
    loop = asyncio.get_running_loop()
    while guard.open_connections > lifecycle.in_flight and loop.time() < deadline:  # noqa: ASYNC110
        await asyncio.sleep(0.01)


async def _until_idle(lifecycle: Lifecycle, deadline: float) -> None:
    """Wait until no request is in flight, or the deadline."""
    loop = asyncio.get_running_loop()
    # Polled (only while shutting down), so that the request path need not signal an event.
    while lifecycle.in_flight and loop.time() < deadline:  # noqa: ASYNC110
        await asyncio.sleep(min(0.02, max(0.0, deadline - loop.time())))


def beat_interval(timeout_s: float) -> float:
    """How often a worker beats: a quarter of the timeout, at most once a second."""
    return min(1.0, max(0.05, timeout_s / 4)) if timeout_s > 0 else 1.0


def _address(sock: socket.socket) -> str:
    host, port = sock.getsockname()[:2]
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
