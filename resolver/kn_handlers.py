"""The Go-compatible pipeline endpoint: parse → call → render (SPEC §2.2)."""

from __future__ import annotations

from aiohttp import web

from resolver.appkeys import KN_RESOLVER_KEY
from resolver.bodies import parse_model, read_json_body, render
from resolver.errors import BadRequest
from resolver.kn_models import KnResolveRequest
from resolver.upstream import caller_headers

PRIVATE_PATH = "/api/agent-retrieval/in/v1/kn/logic-property-resolver"
PUBLIC_PATH = "/api/agent-retrieval/v1/kn/logic-property-resolver"

_FORMATS = ("json",)


async def logic_property_resolver(request: web.Request) -> web.Response:
    """POST the pipeline endpoint (both paths)."""
    _check_response_format(request)
    body = await read_json_body(request)
    kn_request = parse_model(KnResolveRequest, body)
    result = await request.app[KN_RESOLVER_KEY].resolve(kn_request, caller_headers(request))
    return render(request, result)


def _check_response_format(request: web.Request) -> None:
    """Only JSON is served; an unknown or unsupported format is refused, never ignored."""
    wanted = request.query.get("response_format", "json").strip().lower() or "json"
    if wanted not in _FORMATS:
        raise BadRequest(
            f"response_format {wanted[:32]!r} is not supported; this service answers json only",
            details={"supported": list(_FORMATS)},
        )
