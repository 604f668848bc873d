"""`python -m benchmarks load`: an aiohttp load generator, closed or open loop, bounded.

Closed loop: C clients, each sends its next request when the previous one answered.
Open loop: requests start at a fixed arrival rate whatever the answers do; latency is measured
from the *intended* start, so a stalled server cannot hide its queueing (coordinated omission).
Both stop at the first of `--duration` and `--requests`; requests still in flight then get at
most `--drain` seconds. Latencies go to an HDR histogram (µs, 3 significant digits).

A body may hold the placeholder `{{seq}}`: each request gets its own sequence number there, so
a benchmark can match a request with what a backend saw for it.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import ipaddress
import math
import socket
import time
from collections import Counter
from collections.abc import Coroutine
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlsplit

import aiohttp
import orjson
from hdrh.histogram import HdrHistogram
from tqdm import tqdm

from resolver.core.loops import uvloop_factory

T = TypeVar("T")

SEQ = b"{{seq}}"
PERCENTILES = (50.0, 90.0, 99.0, 99.9)
_MAX_US = 600_000_000  # 10 minutes: anything slower is a timeout anyway


@dataclass
class LoadConfig:
    """What to send, how hard, and for how long."""

    url: str
    bodies: list[bytes] = field(default_factory=lambda: [b""])
    method: str = "POST"
    headers: dict[str, str] = field(default_factory=lambda: {"Content-Type": "application/json"})
    concurrency: int = 1
    rate: float | None = None
    duration_s: float = 10.0
    max_requests: int | None = None
    warmup_s: float = 0.0
    ramp_s: float = 0.0
    timeout_s: float = 30.0
    drain_s: float = 30.0
    max_outstanding: int = 2000
    progress: bool = False
    keep_samples: bool = False
    label: str = ""

    def __post_init__(self) -> None:
        if self.concurrency < 1 or (self.rate is not None and self.rate <= 0):
            raise ValueError("concurrency must be >= 1 and rate > 0")
        if self.duration_s <= 0 and not self.max_requests:
            raise ValueError("a load run needs a duration or a request count")
        if not self.bodies:
            raise ValueError("at least one body")

    @property
    def mode(self) -> str:
        """`open` (fixed arrival rate) or `closed` (C clients)."""
        return "open" if self.rate is not None else "closed"


@dataclass(slots=True)
class Sample:
    """One request: when it (was meant to) start, how long it took, what came back."""

    seq: int
    start_s: float
    latency_s: float
    status: int
    error: str | None
    code: str | None


@dataclass
class LoadResult:
    """Every sample of a run and the summary of the measured ones (after warm-up)."""

    config: LoadConfig
    samples: list[Sample]
    elapsed_s: float
    dropped: int = 0
    cancelled: int = 0
    client_cpu_s: float = 0.0

    def measured(self) -> list[Sample]:
        """Samples that started after the warm-up."""
        return [s for s in self.samples if s.start_s >= self.config.warmup_s]

    def histogram(self, *, ok_only: bool = False) -> HdrHistogram:
        """Latencies in µs of answered requests (all statuses, or 2xx only)."""
        hist = HdrHistogram(1, _MAX_US, 3)
        for s in self.measured():
            if s.error is None and (not ok_only or 200 <= s.status < 300):
                hist.record_value(min(_MAX_US, max(1, round(s.latency_s * 1e6))))
        return hist

    def window_s(self) -> float:
        """From the end of the warm-up to the last completion."""
        measured = self.measured()
        if not measured:
            return 0.0
        last = max(s.start_s + s.latency_s for s in measured)
        return max(1e-9, last - self.config.warmup_s)

    def summary(self) -> dict[str, Any]:
        """The JSON-ready figures of the run."""
        measured = self.measured()
        ok = sum(1 for s in measured if s.error is None and 200 <= s.status < 300)
        window = self.window_s()
        statuses = Counter(str(s.status) for s in measured if s.error is None)
        errors = Counter(s.error for s in measured if s.error is not None)
        codes = Counter(f"{s.status} {s.code}" for s in measured if s.code)
        config = asdict(self.config)
        config["bodies"] = [len(b) for b in self.config.bodies]
        return {
            "label": self.config.label,
            "mode": self.config.mode,
            "config": config,
            "elapsed_s": round(self.elapsed_s, 3),
            "window_s": round(window, 3),
            "warmup_requests": len(self.samples) - len(measured),
            "requests": len(measured),
            "ok": ok,
            "success_rate": round(ok / len(measured), 5) if measured else None,
            "rps": round(len(measured) / window, 2) if window else 0.0,
            "ok_rps": round(ok / window, 2) if window else 0.0,
            "latency_ms": _percentiles(self.histogram()),
            "latency_ok_ms": _percentiles(self.histogram(ok_only=True)),
            "status": dict(sorted(statuses.items())),
            "errors": dict(sorted(errors.items())),
            "codes": dict(sorted(codes.items())),
            "dropped": self.dropped,
            "cancelled": self.cancelled,
            # this process's CPU (all requests, warm-up included): the generator's own cost
            "client_cpu_us_per_request": (
                round(self.client_cpu_s * 1e6 / len(self.samples), 1) if self.samples else None
            ),
            "timeline": self.timeline(),
        }

    def timeline(self) -> list[dict[str, int]]:
        """Completions per second of the whole run (warm-up included): 2xx, other, errors."""
        buckets: dict[int, Counter[str]] = {}
        for s in self.samples:
            second = int(s.start_s + s.latency_s)
            kind = "error" if s.error else ("ok" if 200 <= s.status < 300 else "other")
            buckets.setdefault(second, Counter())[kind] += 1
        return [
            {"t": t, "ok": c["ok"], "other": c["other"], "error": c["error"]}
            for t, c in sorted(buckets.items())
        ]


def _percentiles(hist: HdrHistogram) -> dict[str, float | None]:
    if hist.get_total_count() == 0:
        empty: dict[str, float | None] = {f"p{q:g}": None for q in PERCENTILES}
        return empty | {"max": None, "mean": None}
    out: dict[str, float | None] = {
        f"p{q:g}": hist.get_value_at_percentile(q) / 1000 for q in PERCENTILES
    }
    out["max"] = hist.get_max_value() / 1000
    out["mean"] = round(hist.get_mean_value() / 1000, 3)
    return out


class _Run:
    """One load run's moving parts."""

    def __init__(self, config: LoadConfig, session: aiohttp.ClientSession) -> None:
        self.config = config
        self.session = session
        self.samples: list[Sample] = []
        self.issued = 0
        self.dropped = 0
        self.t0 = time.perf_counter()
        self.end = self.t0 + config.warmup_s + config.duration_s
        self.templated = [SEQ in b for b in config.bodies]

    def next_seq(self, at: float) -> int | None:
        """The next sequence number, or None when the run is over."""
        limit = self.config.max_requests
        if at >= self.end or (limit is not None and self.issued >= limit):
            return None
        self.issued += 1
        return self.issued - 1

    def body(self, seq: int) -> bytes:
        index = seq % len(self.config.bodies)
        raw = self.config.bodies[index]
        return raw.replace(SEQ, str(seq).encode()) if self.templated[index] else raw

    async def one(self, seq: int, started: float) -> None:
        """Send one request and record it; `started` is when it was meant to start."""
        config = self.config
        status, error, code = 0, None, None
        try:
            async with self.session.request(
                config.method, config.url, data=self.body(seq), headers=config.headers
            ) as response:
                payload = await response.read()
                status = response.status
            if status >= 300:
                code = _error_code(payload)
        except TimeoutError:
            error = "timeout"
        except aiohttp.ClientError as exc:
            error = type(exc).__name__
        finished = time.perf_counter()
        self.samples.append(Sample(seq, started - self.t0, finished - started, status, error, code))

    async def closed(self) -> None:
        clients = self.config.concurrency

        async def client(index: int) -> None:
            # Clients that all start at once stay in lock-step against a fixed-latency
            # backend, and every wave queues behind itself; a ramp spreads them out.
            await asyncio.sleep(self.config.ramp_s * index / clients)
            while (seq := self.next_seq(time.perf_counter())) is not None:
                await self.one(seq, time.perf_counter())

        await asyncio.gather(*(client(i) for i in range(clients)))

    async def open(self) -> None:
        assert self.config.rate is not None
        interval = 1.0 / self.config.rate
        tasks: set[asyncio.Task[None]] = set()
        tick = 0
        while True:
            intended = self.t0 + tick * interval
            tick += 1
            delay = intended - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
            seq = self.next_seq(intended)
            if seq is None:
                break
            if len(tasks) >= self.config.max_outstanding:
                self.dropped += 1
                continue
            task = asyncio.create_task(self.one(seq, intended))
            tasks.add(task)
            task.add_done_callback(tasks.discard)
        if tasks:
            await asyncio.gather(*tasks)


def _error_code(payload: bytes) -> str | None:
    try:
        data = orjson.loads(payload)
    except orjson.JSONDecodeError:
        return None
    error = data.get("error") if isinstance(data, dict) else None
    code = error.get("code") if isinstance(error, dict) else None
    return code if isinstance(code, str) else None


async def run_load(config: LoadConfig) -> LoadResult:
    """Run one bounded load test and return its samples."""
    limit = config.concurrency if config.rate is None else config.max_outstanding
    connector = aiohttp.TCPConnector(limit=limit, limit_per_host=limit, force_close=False)
    timeout = aiohttp.ClientTimeout(total=config.timeout_s)
    cpu_started = time.process_time()
    async with aiohttp.ClientSession(connector=connector, timeout=timeout) as session:
        run = _Run(config, session)
        total = config.max_requests or math.ceil(config.warmup_s + config.duration_s)
        bar = tqdm(
            total=total,
            unit="req" if config.max_requests else "s",
            desc=config.label or config.mode,
            disable=not config.progress,
            leave=False,
        )
        ticker = asyncio.create_task(_tick(bar, run))
        driver = run.open() if config.mode == "open" else run.closed()
        cancelled = 0
        try:
            async with asyncio.timeout(config.warmup_s + config.duration_s + config.drain_s):
                await driver
        except TimeoutError:
            cancelled = run.issued - len(run.samples)
        finally:
            ticker.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await ticker
            bar.close()
        elapsed = time.perf_counter() - run.t0
    client_cpu = time.process_time() - cpu_started
    return LoadResult(config, run.samples, elapsed, run.dropped, cancelled, client_cpu)


async def _tick(bar: Any, run: _Run) -> None:
    while True:
        await asyncio.sleep(0.25)
        done = len(run.samples)
        if run.config.max_requests:
            bar.n = done
        else:
            bar.n = min(bar.total, int(time.perf_counter() - run.t0))
        errors = sum(1 for s in run.samples[-200:] if s.error or s.status >= 400)
        bar.set_postfix(done=done, recent_err=errors, refresh=False)
        bar.refresh()


def write_json(summary: dict[str, Any], path: Path) -> None:
    """Write a JSON result file (parents created)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(orjson.dumps(summary, option=orjson.OPT_INDENT_2) + b"\n")


def plot(results: list[LoadResult], path: Path, title: str) -> None:
    """PNG: latency CDF (log x) and completions per second, one line per run."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (cdf, rate) = plt.subplots(1, 2, figsize=(12, 4.5))
    for result in results:
        label = result.config.label or result.config.mode
        latencies = sorted(s.latency_s * 1000 for s in result.measured() if s.error is None)
        if latencies:
            n = len(latencies)
            cdf.plot(latencies, [(i + 1) / n for i in range(n)], label=label)
        line = result.timeline()
        rate.plot([p["t"] for p in line], [p["ok"] for p in line], label=f"{label} 2xx")
        if any(p["other"] or p["error"] for p in line):
            rate.plot(
                [p["t"] for p in line],
                [p["other"] + p["error"] for p in line],
                linestyle="--",
                label=f"{label} non-2xx/errors",
            )
    cdf.set_xscale("log")
    cdf.set_xlabel("latency (ms, log)")
    cdf.set_ylabel("fraction of requests ≤ x")
    cdf.set_title("latency CDF")
    cdf.grid(True, which="both", alpha=0.3)
    rate.set_xlabel("time since start (s)")
    rate.set_ylabel("completions per second")
    rate.set_title("throughput over time")
    rate.grid(True, alpha=0.3)
    for axis in (cdf, rate):
        if axis.get_legend_handles_labels()[0]:
            axis.legend(fontsize="small")
    fig.suptitle(title)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=90)
    plt.close(fig)


def is_loopback(url: str) -> bool:
    """Whether the URL's host resolves to loopback addresses only."""
    host = urlsplit(url).hostname or ""
    try:
        infos = socket.getaddrinfo(host, None)
    except socket.gaierror:
        return False
    return all(ipaddress.ip_address(info[4][0]).is_loopback for info in infos)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks load",
        description="Load-test an HTTP endpoint (closed or open loop), bounded in time and count.",
    )
    parser.add_argument("url", help="e.g. http://127.0.0.1:8080/v1/dynamic-params")
    parser.add_argument(
        "--body",
        action="append",
        type=Path,
        default=[],
        help="request body file; repeat to cycle through several",
    )
    parser.add_argument("--body-json", action="append", default=[], help="request body inline")
    parser.add_argument("--method", default="POST")
    parser.add_argument("-H", "--header", action="append", default=[], help="'Name: value'")
    loop = parser.add_mutually_exclusive_group()
    loop.add_argument("-c", "--concurrency", type=int, default=1, help="closed loop: clients")
    loop.add_argument("-r", "--rate", type=float, help="open loop: requests per second")
    parser.add_argument("-d", "--duration", type=float, default=10.0, help="seconds measured")
    parser.add_argument("-n", "--requests", type=int, help="stop after this many requests")
    parser.add_argument("--warmup", type=float, default=0.0, help="seconds sent, not measured")
    parser.add_argument(
        "--ramp", type=float, default=0.0, help="closed loop: spread client starts over S seconds"
    )
    parser.add_argument("--timeout", type=float, default=30.0, help="per request, seconds")
    parser.add_argument("--drain", type=float, default=30.0, help="wait for stragglers, s")
    parser.add_argument("--json", type=Path, help="write the result JSON here")
    parser.add_argument("--png", type=Path, help="write latency CDF + throughput PNG here")
    parser.add_argument("--label", default="")
    parser.add_argument("--no-progress", action="store_true")
    parser.add_argument("--uvloop", action="store_true", help="use uvloop if installed")
    parser.add_argument(
        "--allow-remote", action="store_true", help="allow a target that is not loopback"
    )
    return parser


def main(argv: list[str]) -> int:
    """Run one load test from the command line and print its summary."""
    parser = _parser()
    args = parser.parse_args(argv)
    if not args.allow_remote and not is_loopback(args.url):
        parser.error("the target is not loopback; pass --allow-remote to load another host")
    bodies = [p.read_bytes() for p in args.body] + [b.encode() for b in args.body_json]
    headers = {"Content-Type": "application/json"}
    for item in args.header:
        name, _, value = item.partition(":")
        headers[name.strip()] = value.strip()
    config = LoadConfig(
        url=args.url,
        bodies=bodies or [b""],
        method=args.method.upper(),
        headers=headers,
        concurrency=args.concurrency,
        rate=args.rate,
        duration_s=args.duration,
        max_requests=args.requests,
        warmup_s=args.warmup,
        ramp_s=args.ramp,
        timeout_s=args.timeout,
        drain_s=args.drain,
        progress=not args.no_progress,
        label=args.label,
    )
    result = run_with_loop(run_load(config), uvloop=args.uvloop)
    summary = result.summary()
    if args.json:
        write_json(summary, args.json)
    if args.png:
        plot([result], args.png, args.label or f"{config.mode} loop load on {config.url}")
    print(format_summary(summary))
    return 0


def run_with_loop(coro: Coroutine[Any, Any, T], *, uvloop: bool = False) -> T:
    """asyncio.run, on uvloop when asked and installed."""
    factory = uvloop_factory() if uvloop else None
    if uvloop and factory is None:
        print("uvloop is not installed; using asyncio's loop")
    with asyncio.Runner(loop_factory=factory) as runner:
        result: T = runner.run(coro)
    return result


def format_summary(summary: dict[str, Any]) -> str:
    """A few human lines."""
    lat = summary["latency_ms"]
    parts = [
        (
            f"{summary['label'] or summary['mode']}: {summary['requests']} requests in "
            f"{summary['window_s']:.1f}s = {summary['rps']:.1f}/s, "
            f"success {100 * (summary['success_rate'] or 0):.2f}%"
        ),
        "latency ms: " + " ".join(f"{k}={v:.2f}" for k, v in lat.items() if v is not None),
        f"status: {summary['status']}  errors: {summary['errors']}  codes: {summary['codes']}",
    ]
    if summary["dropped"] or summary["cancelled"]:
        parts.append(f"dropped: {summary['dropped']}  cancelled: {summary['cancelled']}")
    return "\n".join(parts)
