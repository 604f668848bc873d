"""`resolver serve --workers N`: N serving processes on one port, each with its own event loop.

The supervisor binds the listening sockets itself (so that a port in use fails before anything
starts) and forks the workers, which all serve on those same sockets: one accept queue, taken
from by whichever worker's loop is free, so that a worker that is stopped, stuck or dead is
handed no new connection (`server/sockets.py`). It keeps its copies of the sockets: the queue
outlives any worker, and a worker that dies is forked anew (logged; restarts back off while a
worker keeps dying young).

Each worker's event loop beats into a shared page (`server/heartbeat.py`); a worker silent for
`RESOLVER_WORKER_HEARTBEAT_TIMEOUT_S` (stopped, or its loop stuck) is killed (SIGKILL), logged
(`resolver.worker_unresponsive`), counted (`resolver_worker_restarts_total{reason}`) and forked
anew like a worker that died — never while the supervisor stops, when slow workers are the
drain's to cut. A new worker has `_START_GRACE_S` more for its first beat.

What a worker runs is handed to the supervisor (`ServeProcess`: the command line gives it
`server/process.py: run_process`), so the supervisor's own work — fork, watch, restart, pass
signals on — imports no web application.

SIGTERM, SIGINT or SIGHUP marks the service as stopping on the shared page and is passed to
every worker (as SIGTERM), which drains as a single process does (`server/process.py`); the
supervisor closes its copies of the sockets at once (no worker is forked any more), so that the
sockets live exactly as long as the workers keep them open: they accept what is queued, then
close them, and new connections are refused. A worker sent SIGTERM on its own (the service not
stopping) only stops accepting: the other workers serve the queue, and it is forked anew. The
supervisor waits for the workers until the grace period and a margin are over (then SIGKILL).
It runs no event loop: it waits for signals with `sigtimedwait`, so that a fork never copies a
running loop.

`/metrics` answers for the whole host, whichever worker serves the scrape: before forking, the
supervisor makes a directory for this run (`PROMETHEUS_MULTIPROC_DIR`), where every worker's
metrics live (`core/metrics.py`); a worker that exits leaves the live gauges, and the directory
is removed when the supervisor stops — or, after a SIGKILL nothing can clean up after, by the
next supervisor on the host (the directory is named after its supervisor's pid).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import structlog

from resolver.core.logs import flush_logs
from resolver.core.metric_files import count_worker_restart, use_multiprocess, worker_gone
from resolver.core.settings import Settings
from resolver.server.heartbeat import Heartbeats, InflightBoard

log = structlog.get_logger("resolver.server")

_SIGNALS = {signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGCHLD}
# A worker that lived shorter than this died young: its restart waits, doubling up to the cap.
_YOUNG_S = 5.0
_FIRST_BACKOFF_S = 0.5
_MAX_BACKOFF_S = 10.0
# Beyond the grace period, the time a worker gets to close its resources and exit.
_EXIT_MARGIN_S = 1.5
# What a new worker has on top of the heartbeat timeout to start (imports, the app) and beat.
_START_GRACE_S = 10.0
# How often the supervisor wakes to read the heartbeats (at most).
_WATCH_EVERY_S = 0.5
# Interrupted requests named in one log line (the count says how many in all).
_NAMED_INTERRUPTED = 20
# `<tmp>/resolver-metrics-<supervisor pid>-<random>`: one directory of worker metrics per run.
METRICS_DIR_PREFIX = "resolver-metrics-"


class ServeProcess(Protocol):
    """One serving process until it is told to stop; its exit code (`process.py: run_process`,
    which documents the arguments)."""

    def __call__(
        self,
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
        """Serve on `sockets`; the exit code."""
        ...


@dataclass
class _Worker:
    index: int
    pid: int | None = None
    started: float = 0.0
    restart_at: float | None = None
    backoff_s: float = 0.0
    killed_for: str | None = None  # why the supervisor killed it (it is then reaped)


class Supervisor:
    """Forks, watches, restarts and stops the workers (see the module docstring)."""

    def __init__(
        self,
        settings: Settings,
        sockets: list[socket.socket],
        max_connections: int,
        serve: ServeProcess,
    ) -> None:
        self._settings = settings
        self._serve = serve
        self._sockets = sockets
        self._max_connections = max_connections
        count = settings.workers
        self._workers = [_Worker(i) for i in range(count)]
        self._stopping = False
        self._failed_exits = 0
        self._metrics_dir: Path | None = None
        self._heartbeats = Heartbeats(count)
        self._board = InflightBoard(count)
        self._heartbeat_timeout_s = settings.worker_heartbeat_timeout_s

    def run(self) -> int:
        """Serve until SIGTERM/SIGINT; 0 when every worker exited cleanly."""
        signal.pthread_sigmask(signal.SIG_BLOCK, _SIGNALS)
        self._metrics_dir = _fresh_metrics_dir()
        use_multiprocess(self._metrics_dir)
        try:
            for worker in self._workers:
                self._fork(worker)
            log.info(
                "resolver.supervisor_started",
                workers=len(self._workers),
                pid=os.getpid(),
                metrics_dir=str(self._metrics_dir),
            )
            while True:
                received = signal.sigtimedwait(_SIGNALS, self._wait_s())
                if received is not None and received.si_signo != signal.SIGCHLD:
                    log.info(
                        "resolver.supervisor_stopping",
                        signal=signal.strsignal(received.si_signo),
                    )
                    break
                self._reap()
                self._restart_due()
                self._replace_silent()
            return self._stop()
        finally:
            shutil.rmtree(self._metrics_dir, ignore_errors=True)

    def _fork(self, worker: _Worker) -> None:
        # Whatever sits in our buffers (log lines are batched) would otherwise be written twice.
        flush_logs()
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:  # the worker
            code = 1
            try:
                # SIGTERM, SIGINT and SIGHUP stay blocked until the worker's loop handles them.
                signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGCHLD})
                code = self._serve(
                    self._settings,
                    self._sockets,
                    max_connections=self._max_connections,
                    worker=worker.index,
                    supervisor=os.getppid(),
                    metrics_dir=self._metrics_dir,
                    heartbeats=self._heartbeats,
                    board=self._board,
                )
            except BaseException:  # a worker must never return into the supervisor's loop
                log.exception("resolver.worker_crashed", worker=worker.index)
            finally:
                # os._exit skips atexit: the worker's last batched log lines go out here.
                flush_logs()
                sys.stdout.flush()
                sys.stderr.flush()
                os._exit(code)
        worker.pid = pid
        worker.started = time.monotonic()
        worker.restart_at = None
        worker.killed_for = None
        # Its silence counts from its start, with the start-up grace on top.
        self._heartbeats.beat(worker.index, at=worker.started + _START_GRACE_S)

    def _reap(self) -> None:
        while True:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if pid == 0:
                return
            worker = next((w for w in self._workers if w.pid == pid), None)
            if worker is None:
                continue
            worker.pid = None
            if self._metrics_dir is not None:
                worker_gone(self._metrics_dir, pid)
            code = os.waitstatus_to_exitcode(status)
            if self._stopping:
                if code != 0:
                    self._failed_exits += 1
                    log.warning("resolver.worker_exit", worker=worker.index, pid=pid, code=code)
                continue
            count_worker_restart(worker.killed_for or "died")
            self._name_interrupted(worker, pid)
            lived = time.monotonic() - worker.started
            worker.backoff_s = (
                min(max(worker.backoff_s * 2, _FIRST_BACKOFF_S), _MAX_BACKOFF_S)
                if lived < _YOUNG_S
                else 0.0
            )
            worker.restart_at = time.monotonic() + worker.backoff_s
            log.error(
                "resolver.worker_died",
                worker=worker.index,
                pid=pid,
                exit_code=code if code >= 0 else None,
                signal=signal.strsignal(-code) if code < 0 else None,
                lived_s=round(lived, 1),
                restart_in_s=worker.backoff_s,
            )

    def _name_interrupted(self, worker: _Worker, pid: int) -> None:
        """Log every request the worker's end cut off (its clients got no answer), the
        longest-running first: under a watchdog kill, the likely holder of its loop."""
        interrupted = self._board.of(worker.index)
        self._board.clear(worker.index)
        if not interrupted:
            return
        log.error(
            "resolver.requests_interrupted",
            worker=worker.index,
            pid=pid,
            reason=worker.killed_for or "died",
            count=len(interrupted),
            longest=interrupted[0].fields(),
            requests=[entry.fields() for entry in interrupted[:_NAMED_INTERRUPTED]],
        )

    def _replace_silent(self) -> None:
        """Kill each worker whose loop has been silent too long; `_reap` forks it anew."""
        if self._heartbeat_timeout_s <= 0 or self._stopping:
            return
        now = time.monotonic()
        for worker in self._workers:
            if worker.pid is None or worker.killed_for is not None:
                continue
            silent_s = now - self._heartbeats.last(worker.index)
            if silent_s <= self._heartbeat_timeout_s:
                continue
            log.error(
                "resolver.worker_unresponsive",
                worker=worker.index,
                pid=worker.pid,
                silent_s=round(silent_s, 1),
                timeout_s=self._heartbeat_timeout_s,
            )
            worker.killed_for = "unresponsive"
            with contextlib.suppress(ProcessLookupError):  # already gone: reaped next
                os.kill(worker.pid, signal.SIGKILL)  # a stopped process dies of it too

    def _restart_due(self) -> None:
        now = time.monotonic()
        for worker in self._workers:
            if worker.pid is None and worker.restart_at is not None and worker.restart_at <= now:
                self._fork(worker)
                log.info("resolver.worker_restarted", worker=worker.index, pid=worker.pid)

    def _wait_s(self) -> float:
        due = [w.restart_at for w in self._workers if w.pid is None and w.restart_at is not None]
        idle = _WATCH_EVERY_S if self._heartbeat_timeout_s > 0 else 1.0
        return min(idle, max(0.0, min(due) - time.monotonic())) if due else idle

    def _alive(self) -> list[_Worker]:
        return [w for w in self._workers if w.pid is not None]

    def _stop(self) -> int:
        self._stopping = True
        # Before the signals: each worker reads it to know that the sockets close for good.
        self._heartbeats.mark_service_stopping()
        # No worker is forked from now on: our copies go, so that the sockets close when the
        # last worker closes them (after accepting what is queued), not later with ours,
        # which would reset what queued in between.
        for sock in self._sockets:
            sock.close()
        for worker in self._alive():
            assert worker.pid is not None  # noqa: S101
            os.kill(worker.pid, signal.SIGTERM)
        started = time.monotonic()
        give_up_at = started + self._settings.shutdown_grace_s + _EXIT_MARGIN_S
        while self._alive():
            now = time.monotonic()
            if now >= give_up_at:
                for worker in self._alive():
                    assert worker.pid is not None  # noqa: S101
                    log.error("resolver.worker_killed", worker=worker.index, pid=worker.pid)
                    os.kill(worker.pid, signal.SIGKILL)
                    os.waitpid(worker.pid, 0)
                    worker.pid = None
                    self._failed_exits += 1
                break
            signal.sigtimedwait(_SIGNALS, max(0.01, min(give_up_at - now, 0.5)))
            self._reap()
        log.info("resolver.supervisor_stopped", after_s=round(time.monotonic() - started, 3))
        return 0 if self._failed_exits == 0 else 1


def _fresh_metrics_dir() -> Path:
    """A new directory for this run's worker metrics; those of supervisors that are gone are
    removed first."""
    for stale in Path(tempfile.gettempdir()).glob(f"{METRICS_DIR_PREFIX}*-*"):
        pid = stale.name.removeprefix(METRICS_DIR_PREFIX).split("-", 1)[0]
        if pid.isdigit() and not _running(int(pid)):
            shutil.rmtree(stale, ignore_errors=True)
    return Path(tempfile.mkdtemp(prefix=f"{METRICS_DIR_PREFIX}{os.getpid()}-"))


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's process
    return True
