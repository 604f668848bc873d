"""Subprocesses of a benchmark run: the fake LLM and the service, each on a free loopback port."""

from __future__ import annotations

import os
import resource
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from types import TracebackType
from typing import Any, Self

import orjson
import psutil

LOOPBACK = "127.0.0.1"
# This repository (its `benchmarks` beside another commit's tree: `tree_path`).
REPO = Path(__file__).resolve().parents[1]


def free_port() -> int:
    """A port that was free on loopback a moment ago."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((LOOPBACK, 0))
        port: int = probe.getsockname()[1]
        return port


@dataclass
class _Child:
    """A child process the benchmark started: stopped on exit from a `with` block."""

    popen: subprocess.Popen[bytes]

    def stop(self) -> None:
        """SIGTERM, then SIGKILL after a grace period."""
        if self.popen.poll() is None:
            self.popen.terminate()
            try:
                self.popen.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.popen.kill()
                self.popen.wait(timeout=5)

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()


@dataclass
class Proc(_Child):
    """A started server process, its base URL and its log file."""

    name: str
    base_url: str
    log_path: Path
    _ps: psutil.Process | None = field(default=None, repr=False)

    @property
    def ps(self) -> psutil.Process:
        """psutil's handle on the process (for its CPU time)."""
        if self._ps is None:
            self._ps = psutil.Process(self.popen.pid)
        return self._ps

    def cpu_s(self) -> float:
        """User + system CPU seconds the process has used so far."""
        times = self.ps.cpu_times()
        return float(times.user + times.system)

    def get_json(self, path: str) -> Any:
        """GET a JSON document from the process."""
        with urllib.request.urlopen(self.base_url + path, timeout=10) as response:  # noqa: S310
            return orjson.loads(response.read())

    def post(self, path: str) -> None:
        """POST an empty body (e.g. the fake's reset)."""
        request = urllib.request.Request(self.base_url + path, data=b"{}", method="POST")  # noqa: S310
        with urllib.request.urlopen(request, timeout=10):  # noqa: S310
            pass

    def wait_ready(self, path: str, timeout_s: float = 30.0) -> None:
        """Poll `path` until it answers 200; raise with the log tail if the process died."""
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if self.popen.poll() is not None:
                raise RuntimeError(f"{self.name} exited early:\n{self.log_tail()}")
            try:
                with urllib.request.urlopen(self.base_url + path, timeout=1) as response:  # noqa: S310
                    if response.status == 200:
                        return
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                pass
            time.sleep(0.05)
        raise RuntimeError(f"{self.name} not ready after {timeout_s}s:\n{self.log_tail()}")

    def log_tail(self, lines: int = 20) -> str:
        """The end of the process's log."""
        try:
            text = self.log_path.read_text(errors="replace")
        except OSError:
            return ""
        return "\n".join(text.splitlines()[-lines:])


def _spawn(
    name: str,
    argv: list[str],
    env: dict[str, str],
    logdir: Path,
    port: int,
    *,
    nofile: int | None = None,
    cwd: Path | None = None,
) -> Proc:
    logdir.mkdir(parents=True, exist_ok=True)
    log_path = logdir / f"{name}-{port}.log"
    limit = None if nofile is None else partial(_limit_descriptors, nofile)
    with log_path.open("wb") as log:
        popen = subprocess.Popen(  # the children inherit the log file; we close our copy
            argv,
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            env=env,
            cwd=cwd,
            preexec_fn=limit,  # noqa: PLW1509 - only setrlimit, before exec
        )
    return Proc(popen, name, f"http://{LOOPBACK}:{port}", log_path)


def _limit_descriptors(count: int) -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (count, count))


def _clean_env() -> dict[str, str]:
    # The caller's RESOLVER_* settings must not leak into a benchmark's configuration.
    return {k: v for k, v in os.environ.items() if not k.startswith("RESOLVER_")}


def start_fake(logdir: Path, *args: str, uvloop: bool = False) -> Proc:
    """`python -m benchmarks fake-llm ARGS` on a free port, ready to answer."""
    port = free_port()
    argv = [sys.executable, "-m", "benchmarks", "fake-llm", "--port", str(port), *args]
    if uvloop:
        argv.append("--uvloop")
    proc = _spawn("fake-llm", argv, _clean_env(), logdir, port)
    proc.wait_ready("/v1/models")
    return proc


def start_floor(logdir: Path, mode: str, *, runner: tuple[str, ...] = ("-m", "benchmarks")) -> Proc:
    """`python -m benchmarks floor --mode MODE` (the echo or the floor server of the rules
    measure, `benchmarks/floor.py`) on a free port, ready to answer (`runner`: what runs the
    `benchmarks` package, such as a profiler's launcher)."""
    port = free_port()
    argv = [sys.executable, *runner, "floor", "--mode", mode, "--port", str(port)]
    proc = _spawn(f"{mode}-server", argv, _clean_env(), logdir, port)
    proc.wait_ready("/healthz")
    return proc


def start_service(
    logdir: Path,
    settings: dict[str, str],
    *,
    uvloop: bool = False,
    nofile: int | None = None,
    root: Path | None = None,
    runner: tuple[str, ...] = ("-m", "resolver"),
    env_extra: dict[str, str] | None = None,
) -> Proc:
    """`python -m resolver serve` on a free port with RESOLVER_<KEY> = value, ready to answer
    (`nofile`: the descriptor limit it starts with; `root`: the source tree to run, such as
    another commit's from `export_tree`, instead of the installed one; `runner`: what runs the
    `resolver` package, such as a profiler's launcher, with `env_extra` for it)."""
    port = free_port()
    env = _clean_env() | (env_extra or {})
    env.update({f"RESOLVER_{k.upper()}": v for k, v in settings.items()})
    env["RESOLVER_HOST"] = LOOPBACK
    env["RESOLVER_PORT"] = str(port)
    # Explicit either way, so a figure always says which loop it was measured on.
    env["RESOLVER_EVENT_LOOP"] = "uvloop" if uvloop else "asyncio"
    argv = [sys.executable, *runner, "serve"]
    if root is not None:
        # `-m` puts the working directory first on sys.path: that tree's resolver and rules
        # packages are imported instead of the installed ones (the same venv's dependencies);
        # this repository's benchmarks after them, for a runner of its own.
        env["PYTHONPATH"] = tree_path(root)
    proc = _spawn("resolver", argv, env, logdir, port, nofile=nofile, cwd=root)
    proc.wait_ready("/healthz")
    return proc


def tree_path(root: Path) -> str:
    """PYTHONPATH for a process that runs `root`'s packages (`resolver`, `rules`) and this
    repository's `benchmarks` (`export_tree` writes none)."""
    return f"{root}{os.pathsep}{REPO}"


def export_tree(revision: str, into: Path) -> Path:
    """The source tree of a git revision of this repository, written under `into`."""
    target = into / f"tree-{revision.replace('/', '_')}"
    target.mkdir(parents=True, exist_ok=True)
    archive = subprocess.run(
        ["git", "archive", "--format=tar", revision, "resolver", "rules", "prompts"],
        cwd=REPO, capture_output=True, check=True,
    ).stdout  # fmt: skip
    subprocess.run(["tar", "-x", "-C", str(target)], input=archive, check=True)
    return target


@dataclass
class RedisProc(_Child):
    """A `redis-server` on a free loopback port, without persistence."""

    port: int
    log_path: Path

    @property
    def url(self) -> str:
        """Its redis:// URL."""
        return f"redis://{LOOPBACK}:{self.port}/0"


def start_redis(logdir: Path) -> RedisProc:
    """Debian's `redis-server` (`make redis-server`) on a free port, answering PING."""
    import redis

    port = free_port()
    logdir.mkdir(parents=True, exist_ok=True)
    log_path = logdir / f"redis-{port}.log"
    argv = ["redis-server", "--port", str(port), "--bind", LOOPBACK, "--save", ""]
    argv += ["--appendonly", "no", "--dir", str(logdir)]
    with log_path.open("wb") as log:
        popen = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT)
    proc = RedisProc(popen, port, log_path)
    client = redis.Redis(host=LOOPBACK, port=port, socket_timeout=1)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            if client.ping():
                client.close()
                return proc
        except (redis.exceptions.ConnectionError, OSError):
            time.sleep(0.05)
    proc.stop()
    raise RuntimeError("redis-server did not come up")
