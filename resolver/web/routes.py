"""The routes table: every route of the HTTP API once, feeding both the router (`app.py`) and
`/openapi.json` (`openapi.py`), so the document lists exactly what is served. What a row is
(`Route`) lives in `routing.py`, which imports no handler."""

from __future__ import annotations

import re
from typing import Any

from resolver.actions.models import ActionInfoRequest, ActionInfoResponse
from resolver.kn.models import InputsRequest, InputsResponse, KnResolveRequest, KnResolveResponse
from resolver.mcp.info import McpInfoResponse
from resolver.params.models import ResolveRequest, ResolveResponse
from resolver.web import apidocs, handlers
from resolver.web.models import HealthResponse, ReadyResponse
from resolver.web.routing import Route
from resolver.windows.models import TimeWindowRequest, TimeWindowResponse

_LLM_ERRORS = {
    502: "LLM unavailable or its output invalid",
    503: "overloaded",
    504: "LLM timeout",
}
_ANY_JSON: dict[str, Any] = {}
# The answer's format: JSON unless the caller asks for TOON (errors stay JSON).
_RESPONSE_FORMAT: dict[str, Any] = {
    "name": "response_format",
    "in": "query",
    "required": False,
    "schema": {"type": "string", "enum": ["json", "toon"], "default": "json"},
}
_ACCEPT_LANGUAGE: dict[str, Any] = {
    "name": "Accept-Language",
    "in": "header",
    "required": False,
    "description": "zh-CN or en-US (q-values honoured): the language of asks, hints and _error",
    "schema": {"type": "string"},
}

# The MCP face (the KWeaver context-loader's path, the internal one, the short one), and its
# catalogue beside each.
MCP_PATHS = ("/api/agent-retrieval/v1/mcp", "/api/agent-retrieval/in/v1/mcp", "/mcp")
MCP_INFO_PATHS = tuple(f"{path}/info" for path in MCP_PATHS)

ROUTES: tuple[Route, ...] = (
    Route(
        "POST",
        ("/v1/dynamic-params",),
        handlers.dynamic_params,
        "Resolve the dynamic_params of logic properties",
        ok=ResolveResponse,
        ok_description="every property resolved",
        body=ResolveRequest,
        parameters=(_RESPONSE_FORMAT, _ACCEPT_LANGUAGE),
        toon=True,
        errors={
            400: "bad request or a caller value breaking a rule",
            413: "body too large",
            415: "body not JSON",
            422: "inputs missing; `missing` lists them all",
            **_LLM_ERRORS,
        },
        business=True,
    ),
    Route(
        "POST",
        ("/v1/time-window",),
        handlers.time_window,
        "The time window a text means, at a clock, in a zone (the scanner alone; no LLM)",
        ok=TimeWindowResponse,
        ok_description="the window (or the instant) the text means",
        body=TimeWindowRequest,
        parameters=(_RESPONSE_FORMAT, _ACCEPT_LANGUAGE),
        toon=True,
        errors={
            400: "bad request: an unknown field, an unknown timezone, a context clock outside "
            "2000..2100",
            408: "the body did not arrive within the request deadline",
            413: "body too large",
            415: "body not JSON",
            422: "TIME_UNSETTLED: the text settles no window; `unread` names the words not "
            "read, `ask` what to send",
        },
        business=True,
    ),
    Route(
        "POST",
        (
            "/api/agent-retrieval/in/v1/kn/logic-property-resolver",
            "/api/agent-retrieval/v1/kn/logic-property-resolver",
        ),
        handlers.logic_property_resolver,
        "Logic property values end to end: definitions, params, values (Go-compatible)",
        ok=KnResolveResponse,
        ok_description="every property resolved and valued",
        body=KnResolveRequest,
        parameters=(_RESPONSE_FORMAT, _ACCEPT_LANGUAGE),
        toon=True,
        errors={
            400: "bad request, unknown (or not visible) property, or a caller value breaking "
            "a rule",
            404: "object type not found",
            413: "body too large",
            415: "body not JSON",
            422: "inputs missing; `missing` lists them all",
            502: "LLM or an upstream failed (the permission read included: fail closed); "
            "an upstream's 4xx passes through",
            503: "overloaded, or an upstream URL is not configured",
            504: "LLM timeout",
        },
        business=True,
    ),
    Route(
        "POST",
        (
            "/api/agent-retrieval/in/v1/kn/logic-property-inputs",
            "/api/agent-retrieval/v1/kn/logic-property-inputs",
        ),
        handlers.logic_property_inputs,
        "The inputs of an object type's logic properties: name, type, required, enum, and "
        "whether resolver settles them in code (docs/upstream-contracts.md)",
        ok=InputsResponse,
        ok_description="the inputs of the named (else every visible) logic property",
        body=InputsRequest,
        parameters=(_RESPONSE_FORMAT, _ACCEPT_LANGUAGE),
        toon=True,
        errors={
            400: "bad request, or an unknown (or not visible) property",
            404: "object type not found",
            413: "body too large",
            415: "body not JSON",
            502: "an upstream failed (the permission read included: fail closed)",
            503: "RESOLVER_BKN_BACKEND_URL (or RESOLVER_ONTOLOGY_MANAGER_URL) or "
            "RESOLVER_ONTOLOGY_QUERY_URL unset",
        },
        business=True,
    ),
    Route(
        "POST",
        (
            "/api/agent-retrieval/in/v1/kn/get_action_info",
            "/api/agent-retrieval/v1/kn/get_action_info",
        ),
        handlers.get_action_info,
        "An object's action as an OpenAI function-call tool (Go-compatible)",
        ok=ActionInfoResponse,
        ok_description="the tool built from actions[0]; `[]` when the object has no action",
        body=ActionInfoRequest,
        parameters=(_RESPONSE_FORMAT, _ACCEPT_LANGUAGE),
        toon=True,
        errors={
            400: "bad request, or a source type other than tool/mcp",
            404: "action type, tool-box tool or MCP tool not found",
            502: "an upstream failed, or the tool's schema cannot be converted",
            503: "RESOLVER_ONTOLOGY_QUERY_URL or RESOLVER_OPERATOR_INTEGRATION_URL unset",
        },
        business=True,
    ),
    Route(
        "POST",
        ("/api/agent-retrieval/in/v1/mcp/proxy/{mcp_id}/tools/{tool_name}/call",),
        handlers.mcp_tool_call,
        "Call an MCP tool with the flat arguments an LLM produced",
        ok=_ANY_JSON,
        ok_description="the tool's JSON answer as agent-operator-integration gave it",
        body={
            "type": "object",
            "description": "the tool's arguments, checked against its inputSchema",
            "additionalProperties": True,
        },
        body_required=False,
        parameters=(
            *(
                {"name": name, "in": "path", "required": True, "schema": {"type": "string"}}
                for name in ("mcp_id", "tool_name")
            ),
            _RESPONSE_FORMAT,
            _ACCEPT_LANGUAGE,
        ),
        toon=True,
        errors={
            400: "body not a JSON object, or arguments breaking the inputSchema",
            403: "a web page's Origin, or a Host that is not this service's (DNS rebinding)",
            404: "MCP tool not found",
            415: "body not declared as application/json",
            502: "agent-operator-integration failed, or the inputSchema is unusable",
            503: "RESOLVER_OPERATOR_INTEGRATION_URL unset",
        },
        business=True,
    ),
    Route(
        "POST",
        MCP_PATHS,
        handlers.mcp,
        "MCP (Streamable HTTP, JSON answers): the tools get_logic_properties_values, "
        "get_logic_property_inputs, get_action_info, resolve_dynamic_params and "
        "resolve_time_window (docs/mcp.md)",
        ok={"type": "object", "description": "the JSON-RPC response"},
        ok_description="the JSON-RPC response; the answer to initialize carries Mcp-Session-Id",
        body={"type": "object", "description": "one JSON-RPC request or notification"},
        parameters=tuple(
            {"name": name, "in": "header", "required": False, "schema": {"type": "string"}}
            for name in ("X-Kn-ID", "Mcp-Session-Id", "MCP-Protocol-Version")
        ),
        also={
            202: "a notification, accepted",
            400: "a JSON-RPC error: not a JSON-RPC message, or a malformed Mcp-Session-Id",
            406: "a JSON-RPC error: the Accept header does not allow application/json",
        },
        errors={
            403: "a web page's Origin, or a Host that is not this service's (DNS rebinding)",
            413: "body too large",
            415: "body not declared as application/json",
        },
        business=True,
    ),
    Route(
        "GET",
        MCP_INFO_PATHS,
        handlers.mcp_info,
        "The MCP catalogue clients probe before connecting: the server, the protocol "
        "versions, the tools by name and description (no lifecycle tools; docs/mcp.md)",
        ok=McpInfoResponse,
        ok_description="the catalogue",
        errors={403: "a web page's Origin, or a Host that is not this service's (DNS rebinding)"},
    ),
    Route(
        "GET",
        ("/healthz",),
        handlers.healthz,
        "Liveness: the process is up",
        ok=HealthResponse,
        ok_description="up",
        browser_guard=False,  # a probe: no body, nothing a page could misuse
    ),
    Route(
        "GET",
        ("/readyz",),
        handlers.readyz,
        "Readiness: configuration loaded, the LLM reachable (or rules-only)",
        ok=ReadyResponse,
        ok_description="ready",
        also={503: "not ready: the LLM is not reachable, or draining after SIGTERM"},
        browser_guard=False,  # a probe: no body, nothing a page could misuse
    ),
    Route(
        "GET",
        ("/metrics",),
        handlers.metrics,
        "Prometheus metrics",
        ok={"type": "string"},
        ok_description="the Prometheus text exposition",
        ok_media_type="text/plain",
        browser_guard=False,  # a probe: no body, nothing a page could misuse
    ),
    Route(
        "GET",
        ("/openapi.json",),
        handlers.openapi,
        "This document",
        ok={"type": "object"},
        ok_description="the OpenAPI 3.1 document of this API",
        browser_guard=False,  # a probe: no body, nothing a page could misuse
    ),
    Route(
        "GET",
        ("/docs",),
        apidocs.docs_page,
        "The API page for people: this document in Swagger UI, with a try-it call per route",
        ok={"type": "string"},
        ok_description="the HTML page",
        ok_media_type="text/html",
    ),
    Route(
        "GET",
        ("/docs/assets/{name}",),
        apidocs.docs_asset,
        "The API page's assets (Swagger UI's, shipped in the swagger-ui-py package; no CDN)",
        ok={"type": "string"},
        ok_description="the file",
        ok_media_type="application/octet-stream",
        parameters=(
            {
                "name": "name",
                "in": "path",
                "required": True,
                "schema": {"type": "string", "enum": list(apidocs.ASSET_NAMES)},
            },
        ),
        errors={404: "not one of the page's assets"},
    ),
    Route(
        "GET",
        ("/",),
        apidocs.index,
        "Where to start: a browser is sent to /docs, other callers get the links",
        ok={
            "type": "object",
            "properties": {
                "service": {"type": "string"},
                "docs": {"type": "string"},
                "openapi": {"type": "string"},
            },
        },
        ok_description="the links (a browser, whose Accept names text/html, gets 302 to docs)",
        also={302: "to docs, for a browser"},
    ),
)


# The routes whose answers carry `X-OpenBKN-Trace-Recorded` (as the router names them).
BUSINESS_PATHS = frozenset(path for route in ROUTES if route.business for path in route.paths)

_PARAMETER = re.compile(r"\{(\w+)\}")


def router_path(path: str) -> str:
    """A table path as the router must see it: each `{name}` takes any segment.

    aiohttp's default segment pattern refuses `{` and `}` once percent-decoded, so an MCP tool
    named `a{b}` got a recalled api_url that the proxy answered with 404.
    """
    return _PARAMETER.sub(r"{\1:[^/]+}", path)
