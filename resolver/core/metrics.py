"""Prometheus metrics: one registry per application, served at `/metrics`.

Under `resolver serve --workers N` one scrape must see the whole host, whichever worker answers
it: the supervisor puts prometheus_client in its multiprocess mode
(`metric_files.use_multiprocess`, a directory per run) before it forks, every worker's metrics
write to files there, and `/metrics` merges them all (`MultiProcessCollector`). Counters and
histograms add up across workers (a restarted worker's counts stay: no counter reset); the live
gauges (calls in flight and waiting, connections open) are summed over the live workers, Redis
and circuit states show the worst worker. Gauges read at scrape time in one process are sampled
instead, every second and before each scrape, since a scrape cannot call into other workers.

In one process (no `--workers`), the request counter and histogram, touched on every
request, are counted in plain numbers first (`core/tallies.py`: no lock, one call a request, 9 calls
less: issue 33) and moved into the prometheus objects before each scrape: the numbers scraped
are the same (the latency sum adds the durations since the last scrape before it adds them to
the total, which may round its last digit differently). Under `--workers N` every request
still goes to the shared files at once: a scrape must see every worker's requests, and a
killed worker must take none of its counts with it (tests/system/test_workers.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Protocol

from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
    multiprocess,
)

from resolver.core.metric_files import locked
from resolver.core.tallies import LATENCY_BUCKETS, Count, Tally

_CIRCUIT_STATES = {"closed": 0, "half_open": 1, "open": 2}
# How often a worker writes the gauges it reads from its own state (multiprocess mode).
SAMPLE_EVERY_S = 1.0


class Gauged(Protocol):
    """What `/metrics` reads of the LLM limiter at scrape time."""

    @property
    def inflight(self) -> int:
        """Calls holding a slot now."""

    @property
    def pending(self) -> int:
        """Calls waiting for a slot now."""


class Metrics:
    """The service's counters, histograms and gauges; with `multiprocess_dir` (a worker of
    `--workers N`, after `use_multiprocess`), `/metrics` shows every worker's."""

    def __init__(self, *, multiprocess_dir: Path | None = None) -> None:
        self.multiprocess_dir = multiprocess_dir
        # Gauges read from this process's state, written at each sample (multiprocess mode).
        self._sampled: list[tuple[Gauge, Callable[[], float]]] = []
        self.registry = CollectorRegistry(auto_describe=True)
        self.requests = Counter(
            "resolver_http_requests",
            "HTTP requests answered, by route and status.",
            ["route", "status"],
            registry=self.registry,
        )
        self.latency = Histogram(
            "resolver_http_request_duration_seconds",
            "Time to answer an HTTP request, by route.",
            ["route"],
            buckets=LATENCY_BUCKETS,
            registry=self.registry,
        )
        self.llm_attempts = Counter(
            "resolver_llm_attempts",
            "LLM call attempts, by outcome (ok, http_429, http_5xx, http_4xx, timeout, "
            "connection, bad_output, overloaded, cancelled).",
            ["outcome"],
            registry=self.registry,
        )
        self.llm_latency = Histogram(
            "resolver_llm_attempt_duration_seconds",
            "Duration of one LLM call attempt, slot wait included.",
            buckets=LATENCY_BUCKETS,
            registry=self.registry,
        )
        self.llm_inflight = Gauge(
            "resolver_llm_inflight",
            "LLM calls holding a slot now.",
            registry=self.registry,
            multiprocess_mode="livesum",
        )
        self._request_tallies: dict[tuple[str, int], Tally] = {}
        self._mcp_tallies: dict[tuple[str, str], Tally] = {}
        self._counts: list[Count] = []
        self.llm_pending = Gauge(
            "resolver_llm_pending",
            "LLM calls waiting for a slot now.",
            registry=self.registry,
            multiprocess_mode="livesum",
        )

        self.llm_calls = Counter(
            "resolver_llm_calls",
            "LLM calls (each after its retries), by endpoint, model, outcome (ok, cached, "
            "llm_unavailable, llm_timeout, llm_output_invalid, overloaded) and purpose (first "
            "ask or repair round).",
            ["endpoint", "model", "outcome", "purpose"],
            registry=self.registry,
        )
        self.llm_retries = Counter(
            "resolver_llm_retries",
            "Transport retries of LLM calls (attempts beyond the first), by endpoint and model.",
            ["endpoint", "model"],
            registry=self.registry,
        )
        self.llm_tokens = Counter(
            "resolver_llm_tokens",
            "Tokens the LLM reported (usage), by model and type (prompt, completion, and cached: "
            "the prompt tokens the provider served from its prompt cache, part of prompt); "
            "answers served by the result cache cost none.",
            ["model", "type"],
            registry=self.registry,
        )
        self.llm_cost = Counter(
            "resolver_llm_cost",
            "What LLM calls cost by RESOLVER_LLM_PRICES (per million tokens: the unit of the "
            "table), by model; calls of a model without a price add nothing.",
            ["model"],
            registry=self.registry,
        )
        self.llm_format_fallbacks = Counter(
            "resolver_llm_format_fallbacks",
            "Endpoint+model pairs that refused response_format json_schema and are sent "
            "json_object from then on (once each per process).",
            ["endpoint", "model"],
            registry=self.registry,
        )
        self.llm_cache = Counter(
            "resolver_llm_cache_lookups",
            "LLM result cache look-ups, by result (hit, miss, shared: joined an identical "
            "call in flight).",
            ["result"],
            registry=self.registry,
        )
        self.llm_circuit = Gauge(
            "resolver_llm_circuit_state",
            "Circuit of an LLM endpoint: 0 closed, 1 half-open, 2 open (calls go to the fallback).",
            ["endpoint"],
            registry=self.registry,
            multiprocess_mode="livemax",
        )
        self.llm_circuit_moves = Counter(
            "resolver_llm_circuit_transitions",
            "Moves of an LLM endpoint's circuit, by endpoint and new state.",
            ["endpoint", "state"],
            registry=self.registry,
        )

        self.upstream_calls = Counter(
            "resolver_upstream_calls",
            "Calls to knowledge-network services, by service and outcome (ok, http_4xx, "
            "http_5xx, timeout, connection, bad_answer, cancelled).",
            ["service", "outcome"],
            registry=self.registry,
        )
        self.upstream_latency = Histogram(
            "resolver_upstream_call_duration_seconds",
            "Duration of one call to a knowledge-network service, by service.",
            ["service"],
            buckets=LATENCY_BUCKETS,
            registry=self.registry,
        )

        self.mcp_calls = Counter(
            "resolver_mcp_tool_calls",
            "MCP tool calls answered, by tool and outcome (ok, or the error code of a tool "
            "error: MISSING_PARAMS, BAD_REQUEST, UPSTREAM_ERROR, ...).",
            ["tool", "outcome"],
            registry=self.registry,
        )
        self.mcp_posts = Counter(
            "resolver_mcp_posts",
            "POSTs to the MCP endpoint, by who answered: fast (a plain tools/call, answered in "
            "the handler's task: mcp/fast_path.py) or sdk (the SDK's transport).",
            ["path"],
            registry=self.registry,
        )
        self.mcp_latency = Histogram(
            "resolver_mcp_tool_call_duration_seconds",
            "Time to answer an MCP tool call, by tool.",
            ["tool"],
            buckets=LATENCY_BUCKETS,
            registry=self.registry,
        )
        # The LLM budget (resolver/llm/limiter.py, shared_limiter.py) and its Redis.
        self.llm_slot_wait = Histogram(
            "resolver_llm_slot_wait_seconds",
            "Time an LLM call waited for its slot (in-flight cap, QPS pacing, cool-down), by "
            "budget: local (this process), shared (Redis) or fallback (Redis unreachable).",
            ["budget"],
            buckets=(0.0005, 0.001, 0.0025, *LATENCY_BUCKETS),
            registry=self.registry,
        )
        self.llm_budget_fallback = Counter(
            "resolver_llm_budget_fallback",
            "LLM calls that met an unreachable Redis, by outcome: admitted under the per-process "
            "fallback limits (RESOLVER_REDIS_FAILURE=open) or refused with 503 (closed).",
            ["outcome"],
            registry=self.registry,
        )
        self.redis_up = Gauge(
            "resolver_redis_up",
            "1 while Redis answers, 0 while it does not.",
            registry=self.registry,
            multiprocess_mode="livemin",
        )
        self.redis_errors = Counter(
            "resolver_redis_errors",
            "Redis commands that failed (connection, timeout or server error).",
            registry=self.registry,
        )
        # The listener's guard against slow and excess clients (resolver/server/guard.py).
        self.connections_open = Gauge(
            "resolver_http_connections_open",
            "Client connections open now.",
            registry=self.registry,
            multiprocess_mode="livesum",
        )
        self.connections_closed = Counter(
            "resolver_http_connections_closed_by_limit",
            "Client connections the server closed at a limit, by reason: header_timeout, "
            "evicted (oldest connection still sending headers, at the connection cap) or "
            "refused (503 at the cap).",
            ["reason"],
            registry=self.registry,
        )

    def observe_request(self, route: str, status: int, seconds: float) -> None:
        """Count one answered request (in one process: moved into the prometheus objects by
        `move_tallies`; on the event loop's thread only, as `render`)."""
        tally = self._request_tallies.get((route, status))
        if tally is None:
            # The children are made at the first request (their `_created` time); label
            # lookups take a lock and build a tuple each time, and routes are few.
            tally = Tally(
                self.requests.labels(route, str(status)),
                self.latency.labels(route),
                at_once=self.multiprocess_dir is not None,
            )
            self._request_tallies[(route, status)] = tally
        tally.add(seconds)

    def move_tallies(self) -> None:
        """Move the requests and MCP calls counted since the last move into their counters
        and histograms."""
        for tally in self._request_tallies.values():
            tally.move()
        for tally in self._mcp_tallies.values():
            tally.move()
        for count in self._counts:
            count.move()

    def mcp_posts_by(self, path: str) -> Count:
        """The count of MCP POSTs answered by `path` (fast or sdk), shown from now on."""
        count = Count(self.mcp_posts.labels(path), at_once=self.multiprocess_dir is not None)
        self._counts.append(count)
        return count

    def observe_llm_attempt(self, outcome: str, seconds: float) -> None:
        """Count one LLM attempt."""
        self.llm_attempts.labels(outcome).inc()
        self.llm_latency.observe(seconds)

    def observe_llm_call(
        self,
        endpoint: str,
        model: str,
        *,
        outcome: str,
        purpose: str,
        attempts: int,
        usage: dict[str, int] | None,
        cost: float | None = None,
    ) -> None:
        """Count one LLM call, its retries, the tokens it used and what it cost."""
        self.llm_calls.labels(endpoint, model, outcome, purpose).inc()
        if attempts > 1:
            self.llm_retries.labels(endpoint, model).inc(attempts - 1)
        if usage:
            for kind in ("prompt", "completion", "cached"):
                tokens = usage.get(f"{kind}_tokens")
                if tokens:
                    self.llm_tokens.labels(model, kind).inc(tokens)
        if cost:
            self.llm_cost.labels(model).inc(cost)

    def observe_llm_format_fallback(self, endpoint: str, model: str) -> None:
        """An endpoint+model refused json_schema: it is sent json_object from now on."""
        self.llm_format_fallbacks.labels(endpoint, model).inc()

    def observe_llm_cache(self, result: str) -> None:
        """Count one cache look-up."""
        self.llm_cache.labels(result).inc()

    def observe_llm_circuit(self, endpoint: str, state: str) -> None:
        """An endpoint's circuit moved."""
        self.llm_circuit.labels(endpoint).set(_CIRCUIT_STATES.get(state, -1))
        self.llm_circuit_moves.labels(endpoint, state).inc()

    def observe_upstream_call(self, service: str, outcome: str, seconds: float) -> None:
        """Count one call to an upstream service."""
        self.upstream_calls.labels(service, outcome).inc()
        self.upstream_latency.labels(service).observe(seconds)

    def observe_mcp_call(self, tool: str, outcome: str, seconds: float) -> None:
        """Count one MCP tool call (`tool` is one of the served tools, or `unknown`), as
        `observe_request` counts a request (on the event loop's thread only)."""
        tally = self._mcp_tallies.get((tool, outcome))
        if tally is None:
            # As for requests: tools and error codes are few, label look-ups are not free.
            tally = Tally(
                self.mcp_calls.labels(tool, outcome),
                self.mcp_latency.labels(tool),
                at_once=self.multiprocess_dir is not None,
            )
            self._mcp_tallies[(tool, outcome)] = tally
        tally.add(seconds)

    def watch(self, limiter: Gauged) -> None:
        """Read the limiter's gauges at scrape time."""
        self._watch(self.llm_inflight, lambda: limiter.inflight)
        self._watch(self.llm_pending, lambda: limiter.pending)

    def observe_slot_wait(self, budget: str, seconds: float) -> None:
        """One LLM call got its slot after waiting this long."""
        self.llm_slot_wait.labels(budget).observe(seconds)

    def count_budget_fallback(self, outcome: str) -> None:
        """One LLM call met an unreachable Redis: `admitted` or `refused`."""
        self.llm_budget_fallback.labels(outcome).inc()

    def count_redis_error(self) -> None:
        """One Redis command failed."""
        self.redis_errors.inc()

    def watch_redis(self, up: Callable[[], bool]) -> None:
        """Read whether Redis answers at scrape time."""
        self._watch(self.redis_up, lambda: 1.0 if up() else 0.0)

    def watch_connections(self, count: Callable[[], int]) -> None:
        """Read the number of open client connections at scrape time."""
        self._watch(self.connections_open, lambda: float(count()))

    def _watch(self, gauge: Gauge, read: Callable[[], float]) -> None:
        if self.multiprocess_dir is None:
            gauge.set_function(read)
        else:
            self._sampled.append((gauge, read))
            gauge.set(read())

    def sample(self) -> None:
        """Write the gauges read from this process's state (multiprocess mode)."""
        for gauge, read in self._sampled:
            gauge.set(read())

    @asynccontextmanager
    async def sampling(self, every_s: float = SAMPLE_EVERY_S) -> AsyncIterator[None]:
        """While the block runs, `sample()` every `every_s` (in multiprocess mode only)."""
        if self.multiprocess_dir is None:
            yield
            return

        async def loop() -> None:
            while True:
                self.sample()
                await asyncio.sleep(every_s)

        task = asyncio.get_running_loop().create_task(loop(), name="resolver.metrics.sampling")
        try:
            yield
        finally:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    def count_connection_closed(self, reason: str) -> None:
        """The server closed a client connection at a limit."""
        self.connections_closed.labels(reason).inc()

    def render(self) -> bytes:
        """The Prometheus text exposition: this app's metrics, or every worker's."""
        if self.multiprocess_dir is None:
            self.move_tallies()
            return generate_latest(self.registry)
        self.sample()
        merged = CollectorRegistry()
        path = str(self.multiprocess_dir)
        multiprocess.MultiProcessCollector(merged, path=path)  # type: ignore[no-untyped-call]
        with locked(self.multiprocess_dir, fcntl.LOCK_SH):
            return generate_latest(merged)
