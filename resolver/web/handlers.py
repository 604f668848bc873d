"""HTTP handlers: parse → call → render. Errors are the middleware's business."""

from __future__ import annotations

import re
from functools import partial

from aiohttp import web

from resolver.actions.models import ActionInfoRequest, ActionInfoResponse, tool_arguments
from resolver.core.errors import BadRequest
from resolver.core.ids import check_id
from resolver.kn.models import KnResolveRequest, KnResolveResponse
from resolver.params.models import ResolveRequest, ResolveResponse
from resolver.web.appkeys import (
    ACTION_RECALL_KEY,
    MCP_PROXY_KEY,
    METRICS_KEY,
    OPENAPI_KEY,
    PARAMS_KEY,
    PIPELINE_KEY,
    PROBE_KEY,
    SETTINGS_KEY,
    TRACE_ID,
)
from resolver.web.bodies import caller_headers, parse_model, read_json_body, render, render_json
from resolver.web.models import HealthResponse, LLMReadiness, ReadyResponse

_FORMATS = ("json",)
_HOST = re.compile(r"(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(:[0-9]{1,5})?")


async def dynamic_params(request: web.Request) -> web.Response:
    """POST /v1/dynamic-params."""
    resolve_request = parse_model(ResolveRequest, await read_json_body(request))
    resolved = await request.app[PARAMS_KEY].resolve(resolve_request)
    return render(
        ResolveResponse(
            dynamic_params=resolved.dynamic_params,
            debug=resolved.debug,
            trace_id=request[TRACE_ID],
        )
    )


async def logic_property_resolver(request: web.Request) -> web.Response:
    """POST the Go-compatible pipeline endpoint (both paths)."""
    _check_response_format(request)
    kn_request = parse_model(KnResolveRequest, await read_json_body(request))
    result = await request.app[PIPELINE_KEY].run(kn_request, caller_headers(request))
    return render(
        KnResolveResponse(
            datas=result.datas,
            dynamic_params=result.dynamic_params,
            debug=result.debug,
            trace_id=request[TRACE_ID],
        )
    )


async def get_action_info(request: web.Request) -> web.Response:
    """POST the action-recall endpoint (both paths)."""
    recall_request = parse_model(ActionInfoRequest, await read_json_body(request))
    tools = await request.app[ACTION_RECALL_KEY].recall(
        recall_request, caller_headers(request), public_url=partial(public_url, request)
    )
    return render(ActionInfoResponse(dynamic_tools=tools, trace_id=request[TRACE_ID]))


async def mcp_tool_call(request: web.Request) -> web.Response:
    """POST the MCP proxy: the flat arguments in, the tool's answer out."""
    mcp_id = path_id(request, "mcp_id")
    tool_name = path_id(request, "tool_name")
    arguments = tool_arguments(await read_json_body(request))
    answer = await request.app[MCP_PROXY_KEY].call(
        mcp_id, tool_name, arguments, caller_headers(request)
    )
    if isinstance(answer, dict):  # an object answer gets this request's trace_id if it has none
        answer = {**answer}
        answer.setdefault("trace_id", request[TRACE_ID])
    return render_json(answer)


async def healthz(request: web.Request) -> web.Response:
    """GET /healthz: the process is up; says where the prompts were found."""
    params = request.app[PARAMS_KEY]
    return render(
        HealthResponse(
            status="ok",
            mode="llm" if params.llm is not None else "rules-only",
            prompts=str(params.prompts.directory),
            trace_id=request[TRACE_ID],
        )
    )


async def readyz(request: web.Request) -> web.Response:
    """GET /readyz: configuration loaded and the LLM reachable (or rules-only)."""
    trace_id = request[TRACE_ID]
    if request.app[PARAMS_KEY].llm is None:
        return render(ReadyResponse(status="ready", mode="rules-only", llm=None, trace_id=trace_id))
    probe = request.app[PROBE_KEY]
    reachable, detail = await probe.reachable()
    circuit = fallback = None
    ready = reachable
    llm = request.app[PARAMS_KEY].llm
    if probe.fallback is not None and llm is not None:
        fallback_ok, fallback_detail = await probe.fallback.reachable()
        circuit = llm.state().get("circuit")
        fallback = {"reachable": fallback_ok, "detail": fallback_detail}
        ready = reachable or fallback_ok
    readiness = LLMReadiness(reachable=reachable, detail=detail, circuit=circuit, fallback=fallback)
    body = ReadyResponse(
        status="ready" if ready else "not_ready", mode="llm", llm=readiness, trace_id=trace_id
    )
    return render(body, 200 if ready else 503)


async def openapi(request: web.Request) -> web.Response:
    """GET /openapi.json: the document as built from the routes table, nothing added."""
    return render_json(request.app[OPENAPI_KEY])


async def metrics(request: web.Request) -> web.Response:
    """GET /metrics: Prometheus text."""
    return web.Response(
        body=request.app[METRICS_KEY].render(), content_type="text/plain", charset="utf-8"
    )


def public_url(request: web.Request) -> str:
    """`RESOLVER_PUBLIC_URL`, else the scheme and host this request came in on."""
    configured = request.app[SETTINGS_KEY].public_url
    if configured is not None:
        return configured
    host = request.host
    # Only a plain host[:port] may become part of a URL handed to an LLM agent.
    if not _HOST.fullmatch(host):
        raise BadRequest(
            f"the Host header {host[:80]!r} cannot form this service's URL for an MCP tool; "
            "send host[:port] or set RESOLVER_PUBLIC_URL",
            details={"host": host[:200]},
        )
    return f"{request.scheme}://{host}"


def path_id(request: web.Request, name: str) -> str:
    """An id taken from the URL path, checked like a body id (400 when unusable)."""
    value = request.match_info[name]
    try:
        return check_id(value)
    except ValueError as exc:
        raise BadRequest(f"{name} {exc}", details=[{"loc": name, "msg": str(exc)}]) from exc


def _check_response_format(request: web.Request) -> None:
    """Only JSON is served; an unknown or unsupported format is refused, never ignored."""
    wanted = request.query.get("response_format", "json").strip().lower() or "json"
    if wanted not in _FORMATS:
        raise BadRequest(
            f"response_format {wanted[:32]!r} is not supported; this service answers json only",
            details={"supported": list(_FORMATS)},
        )
