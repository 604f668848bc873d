"""OpenTelemetry tracing: a span per request, per LLM call and per upstream call, and the
W3C context handed to a caller for a call it makes later (`handoff_headers`).

Off unless the standard `OTEL_EXPORTER_OTLP_ENDPOINT` (or `…_TRACES_ENDPOINT`) is set; then
spans go over OTLP/HTTP in batches, with `OTEL_SERVICE_NAME` (default `resolver`) and the
other standard `OTEL_*` variables honoured by the SDK. Off costs nothing on the hot path:
callers check `enabled()` (one global read) and nothing of the SDK is imported.

The provider lives here, not in OpenTelemetry's global: the global can be set only once per
process, and tests install an in-memory one.
"""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Awaitable, Callable, Iterator, Mapping
from contextlib import AbstractContextManager, contextmanager, nullcontext
from typing import TYPE_CHECKING, Any, TypeVar
from urllib.parse import urlsplit

if TYPE_CHECKING:
    from opentelemetry.context import Context
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.trace import Span, Tracer

T = TypeVar("T")

_ENDPOINT_VARIABLES = ("OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")
# A W3C traceparent: version, trace id, parent span id, flags (a later version may append
# fields; `ff` is no version).
_TRACEPARENT = re.compile(r"^(?!ff)([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-|$)")
_W3C_TRACE_ID = re.compile(r"^[0-9a-f]{32}$")
_ZERO_TRACE_ID = "0" * 32
_ZERO_SPAN_ID = "0" * 16
_HANDOFF_HEADERS = ("traceparent", "tracestate")
_provider: TracerProvider | None = None
_tracer: Tracer | None = None


def enabled() -> bool:
    """Whether spans are recorded in this process."""
    return _tracer is not None


def provider() -> TracerProvider | None:
    """The installed provider, if any."""
    return _provider


def install(tracer_provider: TracerProvider | None) -> None:
    """Use this provider from now on (None turns tracing off)."""
    global _provider, _tracer  # noqa: PLW0603 - one provider per process, set at start-up
    _provider = tracer_provider
    _tracer = tracer_provider.get_tracer("resolver") if tracer_provider is not None else None


def install_from_environment(environ: Mapping[str, str] | None = None) -> bool:
    """Install an OTLP/HTTP exporting provider when an OTLP endpoint is configured and no
    provider is installed yet; whether tracing is on."""
    env = os.environ if environ is None else environ
    if _provider is not None:
        return True
    if not any(env.get(name, "").strip() for name in _ENDPOINT_VARIABLES):
        return False
    from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
    from opentelemetry.sdk.resources import Resource
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import BatchSpanProcessor

    resource = Resource.create({"service.name": env.get("OTEL_SERVICE_NAME") or "resolver"})
    tracer_provider = TracerProvider(resource=resource)
    tracer_provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter()))
    install(tracer_provider)
    return True


def span(
    name: str, *, client: bool = True, attributes: Mapping[str, Any] | None = None
) -> AbstractContextManager[Span | None]:
    """A child span of the current one (a CLIENT span by default), or nothing when off."""
    if _tracer is None:
        return nullcontext()
    return _span(_tracer, name, client, attributes)


@contextmanager
def _span(
    tracer: Tracer, name: str, client: bool, attributes: Mapping[str, Any] | None
) -> Iterator[Span]:
    from opentelemetry.trace import SpanKind

    kind = SpanKind.CLIENT if client else SpanKind.INTERNAL
    with tracer.start_as_current_span(name, kind=kind, attributes=attributes) as current:
        yield current


def current_trace_id() -> str | None:
    """The hex trace id of the current span, when tracing is on and a span is current."""
    if _tracer is None:
        return None
    from opentelemetry.trace import get_current_span

    context = get_current_span().get_span_context()
    return format(context.trace_id, "032x") if context.is_valid else None


def traced_call(call: Callable[..., Awaitable[T]]) -> Callable[..., Awaitable[T]]:
    """Wrap `UpstreamClient._call(self, method, path, **kw)`: a CLIENT span per upstream call,
    whose context travels in the `traceparent` header (it overrides the caller's, whose
    trace it continues)."""

    @functools.wraps(call)
    async def traced(self: Any, method: str, path: str, **kwargs: Any) -> T:
        if _tracer is None:
            return await call(self, method, path, **kwargs)
        service = getattr(self, "service", "upstream")
        attributes = {
            "http.request.method": method,
            "server.address": urlsplit(getattr(self, "base_url", "")).hostname or "",
            "url.path": path.split("?", 1)[0],
            "resolver.upstream.service": service,
        }
        with _span(_tracer, f"{method} {service}", True, attributes) as current:
            from opentelemetry.propagate import inject

            carrier: dict[str, str] = {}
            inject(carrier)
            kwargs["headers"] = {**(kwargs.get("headers") or {}), **carrier}
            try:
                return await call(self, method, path, **kwargs)
            except Exception as exc:
                current.set_attribute("error.type", type(exc).__name__)
                status = getattr(exc, "upstream_status", None)
                if isinstance(status, int):
                    current.set_attribute("http.response.status_code", status)
                raise

    return traced


@contextmanager
def server_span(
    name: str, headers: Mapping[str, str], attributes: Mapping[str, Any]
) -> Iterator[Span]:
    """The SERVER span of one request, continuing the caller's `traceparent` if it sent one.
    Only called when `enabled()`."""
    from opentelemetry.propagate import extract
    from opentelemetry.trace import SpanKind

    assert _tracer is not None  # noqa: S101 - callers check enabled() first
    with _tracer.start_as_current_span(
        name, context=extract(headers), kind=SpanKind.SERVER, attributes=attributes
    ) as current:
        yield current


def annotate(attributes: Mapping[str, str]) -> None:
    """Set attributes on the current span (the request's), when tracing."""
    if _tracer is None:
        return
    from opentelemetry.trace import get_current_span

    get_current_span().set_attributes(dict(attributes))


def capture() -> Context | None:
    """The current context (the request's span), to run a call in another task under it;
    None when tracing is off."""
    if _tracer is None:
        return None
    from opentelemetry.context import get_current

    return get_current()


@contextmanager
def attached(captured: Context | None) -> Iterator[None]:
    """Run the block under a context `capture` returned (nothing to do when it is None)."""
    if captured is None:
        yield
        return
    from opentelemetry.context import attach, detach

    token = attach(captured)
    try:
        yield
    finally:
        detach(token)


def handoff_headers(
    name: str, traceparent: str | None, tracestate: str | None, trace_id: str
) -> dict[str, str]:
    """`traceparent` (and `tracestate` when there is one) of a new child span of this
    request, for a call the caller makes later (an action's execution), so that the call joins
    this trace; `traceparent` and `tracestate` are the caller's headers, `trace_id` the
    request's.

    Tracing on: a span `name`, child of the current span (else of the caller's traceparent),
    started and ended here; its context as the propagator writes it. Tracing off, nothing is
    recorded but the headers are still a child's: the caller's trace id (else the request's
    when it is a W3C one, else a new one), a fresh random span id, the caller's flags (else
    `00`: nothing was sampled) and the caller's `tracestate` unchanged.
    """
    parent = _TRACEPARENT.match(traceparent.strip().lower()) if traceparent else None
    if parent and (parent.group(2) == _ZERO_TRACE_ID or parent.group(3) == _ZERO_SPAN_ID):
        parent = None  # W3C: an all-zero id makes the whole header invalid
    state = tracestate.strip() if tracestate and parent else None
    if _tracer is not None:
        given = "-".join(parent.group(1, 2, 3, 4)) if parent else None
        return _recorded_handoff(_tracer, name, given, state)
    if parent is not None:
        trace, flags = parent.group(2), parent.group(4)
    else:
        given = trace_id.lower()
        valid = _W3C_TRACE_ID.match(given) and given != _ZERO_TRACE_ID
        trace, flags = (given if valid else _random_hex(16)), "00"
    headers = {"traceparent": f"00-{trace}-{_random_hex(8)}-{flags}"}
    if state:
        headers["tracestate"] = state
    return headers


def _recorded_handoff(
    tracer: Tracer, name: str, traceparent: str | None, tracestate: str | None
) -> dict[str, str]:
    from opentelemetry.propagate import extract, inject
    from opentelemetry.trace import SpanKind, get_current_span

    context = None
    if traceparent is not None and not get_current_span().get_span_context().is_valid:
        carrier = {"traceparent": traceparent}
        if tracestate:
            carrier["tracestate"] = tracestate
        context = extract(carrier)
    with tracer.start_as_current_span(name, context=context, kind=SpanKind.INTERNAL):
        written: dict[str, str] = {}
        inject(written)
    return {key: value for key, value in written.items() if key in _HANDOFF_HEADERS}


def _random_hex(size: int) -> str:
    """`size` random bytes as hex, never all zero (an invalid W3C id)."""
    while True:
        value = os.urandom(size).hex()
        if value.strip("0"):
            return value
