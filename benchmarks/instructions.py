"""`python -m benchmarks instructions [--against REV] [--requests N]`: CPU instructions per
rules-only request of the service, the floor server and the echo, counted by valgrind
(callgrind) — a figure the noise of a shared machine does not move, where the CPU time of one
lever's A/B moves by more than the lever (docs/performance.md → "Instructions").

Each server runs in one process with no socket: the five rules bodies (`bodies.py`) go as raw
HTTP/1.1 into the protocol the server runs — the service's as `resolver serve` builds it
(`ShapedErrors` behind the `ConnectionGuard`, on uvloop), the floor's and the echo's aiohttp's
own — and each answer is taken from a transport that keeps what is written. So it is the whole
request path of aiohttp and the server's code, without the kernel. A child serves
`_WARM_UP` requests, then N; the count is the difference of two children (N and 3N requests)
divided by 2N, so start-up cancels. Three more children, not under valgrind, give the thread's
least CPU time per request in the same set-up: instructions per nanosecond beside.

Needs `valgrind` (`apt-get install valgrind`; not needed by the tests). `--against REV` adds
the service of another commit (`git archive`).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import os
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from benchmarks.procs import REPO, export_tree, tree_path

_WARM_UP = 300
_COLLECTED = re.compile(r"Collected : (\d+)")
_TIMED = re.compile(r"^cpu_us_per_request (\S+)$", re.MULTILINE)


class _KeptTransport(asyncio.Transport):
    """A transport that wakes whoever waits for an answer at its first bytes, with their status
    line (a count of anything but 200s would measure the wrong path)."""

    def __init__(self) -> None:
        super().__init__()
        self.waiter: asyncio.Future[bytes] | None = None

    def write(self, data: Any) -> None:
        if self.waiter is not None and not self.waiter.done():
            self.waiter.set_result(bytes(data[:16]))

    def writelines(self, list_of_data: Any) -> None:
        for data in list_of_data:
            self.write(data)

    def is_closing(self) -> bool:
        return False

    def close(self) -> None:
        """Nothing to close."""

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return {"peername": ("127.0.0.1", 40000), "sockname": ("127.0.0.1", 8080)}.get(
            name, default
        )

    def pause_reading(self) -> None:
        """Reading is driven by the child."""

    def resume_reading(self) -> None:
        """Reading is driven by the child."""

    def get_write_buffer_size(self) -> int:
        return 0


def _raw(path: str, body: bytes) -> bytes:
    head = (
        f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    )
    return head.encode() + body


async def _protocol_factory(mode: str) -> tuple[Callable[[], asyncio.Protocol], str]:
    """The protocol factory of one server, set up as it serves, and the path it answers."""
    from aiohttp import web

    loop = asyncio.get_running_loop()
    if mode == "service":
        from resolver.core.settings import Settings
        from resolver.server.bad_http import ShapedErrors
        from resolver.server.guard import ConnectionGuard
        from resolver.server.process import KEEPALIVE_S
        from resolver.web.app import create_app
        from resolver.web.appkeys import METRICS_KEY

        app = create_app(Settings())
        options: dict[str, Any] = {"access_log": None, "keepalive_timeout": KEEPALIVE_S}
        runner = web.AppRunner(app, handler_cancellation=True, **options)
        await runner.setup()
        server = runner.server
        assert server is not None
        guard = ConnectionGuard(
            lambda: ShapedErrors(server, loop=loop, **options),
            max_connections=64,
            header_timeout_s=10.0,
            metrics=app[METRICS_KEY],
        )
        return guard.protocol, "/v1/dynamic-params"
    from benchmarks.floor import floor_app

    runner = web.AppRunner(floor_app(mode), access_log=None)
    await runner.setup()
    assert runner.server is not None
    return runner.server, "/echo" if mode == "echo" else "/v1/dynamic-params"


async def _serve(mode: str, requests: int) -> None:
    from benchmarks import bodies

    factory, path = await _protocol_factory(mode)
    raw = [_raw(path, body) for _, _, body in bodies.RULES_BODIES]
    connections = []
    for _ in range(4):
        transport = _KeptTransport()
        protocol = factory()
        protocol.connection_made(transport)
        connections.append((protocol, transport))
    loop = asyncio.get_running_loop()

    async def run(count: int) -> None:
        for i in range(count):
            protocol, transport = connections[i % len(connections)]
            transport.waiter = loop.create_future()
            protocol.data_received(raw[i % len(raw)])
            status_line = await transport.waiter
            if not status_line.startswith(b"HTTP/1.1 200 "):
                raise RuntimeError(f"{mode} answered {status_line!r}, not 200")

    await run(_WARM_UP)
    gc.collect()
    gc.freeze()
    started = time.thread_time_ns()
    await run(requests)
    print(f"cpu_us_per_request {(time.thread_time_ns() - started) / requests / 1000:.2f}")


def _child(mode: str, requests: int) -> int:
    import uvloop

    from resolver.core.logs import configure_logging

    with open(os.devnull, "w") as lines:  # the JSON lines, written as the server writes them
        configure_logging("INFO", "json", stream=lines)
        uvloop.run(_serve(mode, requests))
    return 0


def _run_child(root: Path, mode: str, requests: int, valgrind: bool) -> str:
    """One child's stderr and stdout (callgrind's count goes to stderr)."""
    command = [sys.executable, "-m", "benchmarks.instructions", "--child", mode]
    command += ["--requests", str(requests)]
    if valgrind:
        command = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *command]
    env = {**os.environ, "PYTHONPATH": tree_path(root)}
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=True, cwd=root)
    return done.stderr + done.stdout


def _instructions(root: Path, mode: str, requests: int) -> float:
    with ThreadPoolExecutor(2) as pool:
        low, high = pool.map(
            lambda n: _run_child(root, mode, n, valgrind=True), (requests, 3 * requests)
        )
    counts = [_COLLECTED.search(text) for text in (low, high)]
    if counts[0] is None or counts[1] is None:
        raise RuntimeError(f"no instruction count from valgrind:\n{low[-2000:]}")
    return (int(counts[1].group(1)) - int(counts[0].group(1))) / (2 * requests)


def _cpu_us(root: Path, mode: str, requests: int, runs: int = 3) -> float:
    """The least CPU time per request of `runs` children (the machine only ever adds)."""
    found = [_TIMED.search(_run_child(root, mode, requests, valgrind=False)) for _ in range(runs)]
    return min(float(f.group(1)) if f else float("nan") for f in found)


@contextlib.contextmanager
def _trees(against: str | None) -> Iterator[list[tuple[str, Path, str]]]:
    servers = [("service", REPO, "service"), ("floor", REPO, "floor"), ("echo", REPO, "echo")]
    if against is None:
        yield servers
        return
    with tempfile.TemporaryDirectory(prefix="instructions-") as scratch:
        tree = export_tree(against, Path(scratch))
        yield [*servers, (against, tree, "service")]


def main(argv: list[str]) -> int:
    """Count and print instructions per request for each server."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks instructions")
    parser.add_argument("--against", metavar="REV", help="also the service of this commit")
    parser.add_argument("--requests", type=int, default=600, help="N (the children serve N, 3N)")
    parser.add_argument("--child", choices=("service", "floor", "echo"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        return _child(args.child, args.requests)
    print(f"Instructions per rules-only request (callgrind; {args.requests} and "
          f"{3 * args.requests} requests, in-process through the server's protocol)")  # fmt: skip
    print("| server | instructions | × echo | CPU µs (least of 3) | × echo | instr/ns |")
    print("|---|---|---|---|---|---|")
    with _trees(args.against) as servers:
        rows = []
        for name, root, mode in servers:
            rows.append((name, _instructions(root, mode, args.requests), _cpu_us(root, mode, 5000)))
    echo = next(row for row in rows if row[0] == "echo")
    for name, instructions, cpu_us in rows:
        print(
            f"| {name} | {instructions / 1000:,.1f} k | ×{instructions / echo[1]:.2f} "
            f"| {cpu_us:.1f} | ×{cpu_us / echo[2]:.2f} | {instructions / cpu_us / 1000:.1f} |"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
