"""Prometheus metrics: one registry per application, served at `/metrics`."""

from __future__ import annotations

from typing import Protocol

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest

_LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30)


class Gauged(Protocol):
    """What `/metrics` reads of the LLM limiter at scrape time."""

    @property
    def inflight(self) -> int:
        """Calls holding a slot now."""

    @property
    def pending(self) -> int:
        """Calls waiting for a slot now."""


class Metrics:
    """The service's counters, histograms and gauges."""

    def __init__(self) -> None:
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
            buckets=_LATENCY_BUCKETS,
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
            buckets=_LATENCY_BUCKETS,
            registry=self.registry,
        )
        self.llm_inflight = Gauge(
            "resolver_llm_inflight", "LLM calls holding a slot now.", registry=self.registry
        )
        self._request_children: dict[tuple[str, int], tuple[Counter, Histogram]] = {}
        self.llm_pending = Gauge(
            "resolver_llm_pending", "LLM calls waiting for a slot now.", registry=self.registry
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
            buckets=_LATENCY_BUCKETS,
            registry=self.registry,
        )

        self.mcp_calls = Counter(
            "resolver_mcp_tool_calls",
            "MCP tool calls answered, by tool and outcome (ok, or the error code of a tool "
            "error: MISSING_PARAMS, BAD_REQUEST, UPSTREAM_ERROR, ...).",
            ["tool", "outcome"],
            registry=self.registry,
        )
        self.mcp_latency = Histogram(
            "resolver_mcp_tool_call_duration_seconds",
            "Time to answer an MCP tool call, by tool.",
            ["tool"],
            buckets=_LATENCY_BUCKETS,
            registry=self.registry,
        )

    def observe_request(self, route: str, status: int, seconds: float) -> None:
        """Count one answered request."""
        key = (route, status)
        children = self._request_children.get(key)
        if children is None:
            # Label lookups take a lock and build a tuple each time; routes are few.
            children = (self.requests.labels(route, str(status)), self.latency.labels(route))
            self._request_children[key] = children
        children[0].inc()
        children[1].observe(seconds)

    def observe_llm_attempt(self, outcome: str, seconds: float) -> None:
        """Count one LLM attempt."""
        self.llm_attempts.labels(outcome).inc()
        self.llm_latency.observe(seconds)

    def observe_upstream_call(self, service: str, outcome: str, seconds: float) -> None:
        """Count one call to an upstream service."""
        self.upstream_calls.labels(service, outcome).inc()
        self.upstream_latency.labels(service).observe(seconds)

    def observe_mcp_call(self, tool: str, outcome: str, seconds: float) -> None:
        """Count one MCP tool call (`tool` is one of the served tools, or `unknown`)."""
        self.mcp_calls.labels(tool, outcome).inc()
        self.mcp_latency.labels(tool).observe(seconds)

    def watch(self, limiter: Gauged) -> None:
        """Read the limiter's gauges at scrape time."""
        self.llm_inflight.set_function(lambda: limiter.inflight)
        self.llm_pending.set_function(lambda: limiter.pending)

    def render(self) -> bytes:
        """The Prometheus text exposition."""
        return generate_latest(self.registry)
