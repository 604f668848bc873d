"""HTTP handlers: parse → call → render. Errors are the middleware's business."""

from __future__ import annotations

from aiohttp import web

from resolver.appkeys import METRICS_KEY, PROBE_KEY, RESOLVER_KEY
from resolver.bodies import parse_model, read_json_body, render
from resolver.models import ResolveRequest
from resolver.openapi import openapi_document


async def dynamic_params(request: web.Request) -> web.Response:
    """POST /v1/dynamic-params."""
    body = await read_json_body(request)
    resolve_request = parse_model(ResolveRequest, body)
    result = await request.app[RESOLVER_KEY].resolve(resolve_request)
    return render(request, result)


async def healthz(request: web.Request) -> web.Response:
    """GET /healthz: the process is up; says where the prompts were found."""
    resolver = request.app[RESOLVER_KEY]
    return render(
        request,
        {"status": "ok", "mode": resolver.mode, "prompts": str(resolver.prompts.directory)},
    )


async def readyz(request: web.Request) -> web.Response:
    """GET /readyz: configuration loaded and the LLM reachable (or rules-only)."""
    resolver = request.app[RESOLVER_KEY]
    if resolver.llm is None:
        return render(request, {"status": "ready", "mode": "rules-only", "llm": None})
    reachable, detail = await request.app[PROBE_KEY].reachable()
    body = {
        "status": "ready" if reachable else "not_ready",
        "mode": "llm",
        "llm": {"reachable": reachable, "detail": detail},
    }
    return render(request, body, 200 if reachable else 503)


async def openapi(request: web.Request) -> web.Response:
    """GET /openapi.json."""
    return render(request, {**openapi_document()})  # a copy: the document is built once


async def metrics(request: web.Request) -> web.Response:
    """GET /metrics: Prometheus text."""
    return web.Response(
        body=request.app[METRICS_KEY].render(),
        content_type="text/plain",
        charset="utf-8",
    )
