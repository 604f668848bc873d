"""HTTP handlers: parse → call → render. Errors are the middleware's business."""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Literal

import structlog
from aiohttp import web

from resolver.actions.models import ActionInfoRequest
from resolver.core import envelope, tracing
from resolver.core.clip import clip, clip_repr
from resolver.core.deadline import Deadline
from resolver.core.errors import BadRequest, NotConfigured
from resolver.core.ids import check_id
from resolver.core.settings import HOST_PORT
from resolver.kn.models import InputsRequest, KnResolveRequest
from resolver.llm.prompts import default_prompts_dir
from resolver.llm.shared_limiter import RedisLimiter
from resolver.mcp.exchange import CallContext, Exchange
from resolver.mcp.info import catalogue
from resolver.params.models import ResolveRequest
from resolver.web.appkeys import SETTINGS_KEY, TRACE_ID
from resolver.web.bodies import (
    caller_headers,
    parse_arguments,
    parse_model,
    read_json_body,
    render,
    render_json,
)
from resolver.web.browsers import JSON_MEDIA_TYPE
from resolver.web.models import HealthResponse, LLMReadiness, ReadyResponse
from resolver.web.negotiation import (
    render_as,
    render_json_bytes_as,
    request_language,
    response_format,
)
from resolver.web.served import SERVED
from resolver.windows.models import TimeWindowRequest

log = structlog.get_logger("resolver.http")


async def dynamic_params(request: web.Request) -> web.Response:
    """POST /v1/dynamic-params."""
    # The path of every rules-only request: no call it can do without (issue 33).
    served = SERVED.get()
    fmt = response_format(request)
    deadline = Deadline.after(served.settings.request_timeout_s)
    resolve_request = parse_model(ResolveRequest, await read_json_body(request, deadline))
    resolved = await served.services.params.resolve(
        resolve_request, deadline, language=request_language(request)
    )
    answer = resolved.to_json(request[TRACE_ID])
    if fmt == "json":
        return web.Response(body=answer, content_type=JSON_MEDIA_TYPE)
    return await render_json_bytes_as(request, answer, fmt)


async def time_window(request: web.Request) -> web.Response:
    """POST /v1/time-window: the window a text means (SPEC §9); no LLM, no upstream."""
    fmt = response_format(request)
    deadline = _deadline()
    window_request = parse_model(TimeWindowRequest, await read_json_body(request, deadline))
    answer = SERVED.get().services.windows.answer(
        window_request, request[TRACE_ID], language=request_language(request)
    )
    return await render_as(request, answer, fmt)


async def logic_property_resolver(request: web.Request) -> web.Response:
    """POST the Go-compatible pipeline endpoint (both paths)."""
    fmt = response_format(request)
    deadline = _deadline()
    caller = caller_headers(request, deadline)
    kn_request = parse_model(KnResolveRequest, await read_json_body(request, deadline))
    result = await SERVED.get().services.pipeline.run(
        kn_request, caller, language=request_language(request)
    )
    return await render_as(request, result.response(request[TRACE_ID]), fmt)


async def logic_property_inputs(request: web.Request) -> web.Response:
    """POST the inputs of an object type's logic properties (both paths)."""
    fmt = response_format(request)
    deadline = _deadline()
    caller = caller_headers(request, deadline)
    inputs_request = parse_model(InputsRequest, await read_json_body(request, deadline))
    described = await SERVED.get().services.inputs.describe(inputs_request, caller)
    return await render_as(request, described.response(inputs_request, request[TRACE_ID]), fmt)


async def get_action_info(request: web.Request) -> web.Response:
    """POST the action-recall endpoint (both paths)."""
    fmt = response_format(request)
    deadline = _deadline()
    caller = caller_headers(request, deadline)
    recall_request = parse_model(ActionInfoRequest, await read_json_body(request, deadline))
    answer = await SERVED.get().services.recall.answer(
        recall_request, caller, public_url=partial(public_url, request)
    )
    return await render_as(request, answer, fmt)


async def mcp_tool_call(request: web.Request) -> web.Response:
    """POST the MCP proxy: the flat arguments in, the tool's answer out."""
    fmt = response_format(request)
    mcp_id = path_id(request, "mcp_id")
    tool_name = path_id(request, "tool_name")
    caller = caller_headers(request)  # a tool run has its own timeout, not the request's
    arguments = parse_arguments(await read_json_body(request))
    answer = await SERVED.get().services.proxy.call(mcp_id, tool_name, arguments, caller)
    return await render_json_bytes_as(request, answer, fmt)


async def mcp(request: web.Request) -> web.Response:
    """POST the MCP endpoint (Streamable HTTP): one JSON-RPC message in, its answer out."""
    deadline = _deadline()
    raw_headers, first = _json_declared(request.raw_headers)
    exchange = Exchange(
        method=request.method,
        path=request.path,
        query_string=request.query_string.encode(),
        raw_headers=raw_headers,
        first=first,
        body=await read_json_body(request, deadline),
        context=CallContext(
            trace_id=request[TRACE_ID],
            caller=caller_headers(request, deadline),
            kn_id=request.headers.get("x-kn-id") or None,
            public_url=partial(public_url, request),
            language=request_language(request),
            trace_context=tracing.capture(),
            in_request_task=True,
        ),
    )
    answer = await SERVED.get().mcp_server.answer(exchange)
    # The tool call ran in the SDK's task: its envelope goes on this request's access line.
    envelope.note(exchange.context.seen.envelope)
    return web.Response(body=answer.body, status=answer.status, headers=answer.headers)


async def mcp_info(request: web.Request) -> web.Response:
    """GET the MCP catalogue clients probe before connecting: server, protocols, tools."""
    return render(catalogue(request[TRACE_ID]))


async def healthz(request: web.Request) -> web.Response:
    """GET /healthz: the process is up; says where the prompts were found."""
    params = SERVED.get().services.params
    return render(
        HealthResponse(
            status="ok",
            mode="llm" if params.llm is not None else "rules-only",
            prompts=prompts_origin(params.prompts.directory),
            trace_id=request[TRACE_ID],
        )
    )


def prompts_origin(directory: Path) -> Literal["packaged", "source", "custom"]:
    """Where the prompts came from, without the host's path (`HealthResponse`)."""
    if directory != default_prompts_dir():
        return "custom"
    return "packaged" if directory.name == "_prompts" else "source"


async def readyz(request: web.Request) -> web.Response:
    """GET /readyz: configuration loaded and the LLM reachable (or rules-only); 503 from
    SIGTERM on, so that load balancers stop sending while the process drains."""
    trace_id = request[TRACE_ID]
    served = SERVED.get()
    stopping = served.lifecycle.stopping
    services = served.services
    llm, probe = services.params.llm, services.probe
    if llm is None or probe is None:
        body = ReadyResponse(
            status="draining" if stopping else "ready",
            mode="rules-only",
            llm=None,
            trace_id=trace_id,
        )
        return render(body, 503 if stopping else 200)
    reachable, detail = await probe.reachable()
    circuit = fallback = None
    ready = reachable
    if probe.fallback is not None:
        fallback_ok, fallback_detail = await probe.fallback.reachable()
        circuit = llm.state().get("circuit")
        fallback = {"reachable": fallback_ok, "detail": fallback_detail}
        ready = reachable or fallback_ok
    readiness = LLMReadiness(reachable=reachable, detail=detail, circuit=circuit, fallback=fallback)
    if isinstance(llm.limiter, RedisLimiter):
        await llm.limiter.refresh()  # the cluster's count now, not the last acquire's
    status = "draining" if stopping else "ready" if ready else "not_ready"
    body = ReadyResponse(
        status=status,
        mode="llm",
        llm=readiness,
        limiter=llm.limiter.state(),
        trace_id=trace_id,
    )
    return render(body, 200 if status == "ready" else 503)


async def openapi(request: web.Request) -> web.Response:
    """GET /openapi.json: the document as built from the routes table, nothing added."""
    return render_json(SERVED.get().openapi)


async def metrics(request: web.Request) -> web.Response:
    """GET /metrics: Prometheus text."""
    return web.Response(
        body=SERVED.get().metrics.render(), content_type="text/plain", charset="utf-8"
    )


def public_url(request: web.Request) -> str:
    """How callers reach this service, for the `api_url` of an MCP tool handed to an agent.

    `RESOLVER_PUBLIC_URL`; else the scheme and `Host` of this request, but only when that
    Host is one of `RESOLVER_ALLOWED_HOSTS` (exact `host[:port]`, case-insensitive): a caller
    must never choose the server an agent sends its tool calls to. Otherwise 503
    `NOT_CONFIGURED` naming both settings.
    """
    # Called from the MCP SDK's task too (a tool's api_url), where SERVED is not set.
    settings = request.app[SETTINGS_KEY]
    if settings.public_url is not None:
        return settings.public_url
    host = request.host
    allowed = settings.allowed_host_set()
    if not allowed:
        raise NotConfigured(
            "this service does not know its own URL for MCP tool api_urls: set "
            "RESOLVER_PUBLIC_URL (or RESOLVER_ALLOWED_HOSTS to trust matching Host headers)",
            details={"settings": ["RESOLVER_PUBLIC_URL", "RESOLVER_ALLOWED_HOSTS"]},
        )
    if not HOST_PORT.fullmatch(host) or host.lower() not in allowed:
        # The operator's call to make (a proxy may rewrite Host), never the caller's.
        raise NotConfigured(
            f"the Host header {clip_repr(host, 80)} is not one of RESOLVER_ALLOWED_HOSTS, so it "
            "cannot form this service's URL for an MCP tool; set RESOLVER_PUBLIC_URL or add "
            "the host to RESOLVER_ALLOWED_HOSTS",
            details={
                "host": clip(host),
                "settings": ["RESOLVER_PUBLIC_URL", "RESOLVER_ALLOWED_HOSTS"],
            },
        )
    return f"{request.scheme}://{host.lower()}"


_CONTENT_TYPE = b"content-type"
_CANONICAL_JSON = JSON_MEDIA_TYPE.encode()


def _json_declared(
    raw_headers: tuple[tuple[bytes, bytes], ...],
) -> tuple[tuple[tuple[bytes, bytes], ...], dict[bytes, bytes]]:
    """The headers with `Content-Type` as the SDK reads JSON: the browser guard accepted the
    declared type (case-insensitively), so the fast path and the SDK see one canonical value
    and answer alike (the SDK compares case-sensitively); and each header's first value by its
    lower-case name, read in the same pass (`Exchange.header`)."""
    headers = []
    first: dict[bytes, bytes] = {}
    for name, sent in raw_headers:
        lower = name.lower()
        value = _CANONICAL_JSON if lower == _CONTENT_TYPE else sent
        headers.append((name, value))
        first.setdefault(lower, value)
    return tuple(headers), first


def _deadline() -> Deadline:
    """The request's one deadline, counted from now (its head has just been read)."""
    return Deadline.after(SERVED.get().settings.request_timeout_s)


def path_id(request: web.Request, name: str) -> str:
    """An id taken from the URL path, checked like a body id (400 when unusable)."""
    value = request.match_info[name]
    try:
        return check_id(value)
    except ValueError as exc:
        raise BadRequest(f"{name} {exc}", details=[{"loc": name, "msg": str(exc)}]) from exc
