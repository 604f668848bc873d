"""Action recall and the MCP proxy over HTTP (SPEC §8): parse → call → render."""

from __future__ import annotations

import re
from functools import partial
from typing import Any

from aiohttp import web

from resolver.action_models import ActionInfoRequest, path_id, tool_arguments
from resolver.appkeys import ACTION_RECALL_KEY, MCP_PROXY_KEY, SETTINGS_KEY
from resolver.bodies import TRACE_ID, parse_model, read_json_body, render
from resolver.errors import BadRequest
from resolver.jsonio import dumps
from resolver.upstream import caller_headers

PRIVATE_PATH = "/api/agent-retrieval/in/v1/kn/get_action_info"
PUBLIC_PATH = "/api/agent-retrieval/v1/kn/get_action_info"
MCP_PROXY_PATH = "/api/agent-retrieval/in/v1/mcp/proxy/{mcp_id}/tools/{tool_name}/call"

_HOST = re.compile(r"(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(:[0-9]{1,5})?")


async def get_action_info(request: web.Request) -> web.Response:
    """POST the action-recall endpoint (both paths)."""
    body = await read_json_body(request)
    recall_request = parse_model(ActionInfoRequest, body)
    tools = await request.app[ACTION_RECALL_KEY].recall(
        recall_request, caller_headers(request), public_url=partial(public_url, request)
    )
    return render(request, {"_dynamic_tools": [tool.model_dump() for tool in tools]})


async def mcp_tool_call(request: web.Request) -> web.Response:
    """POST the MCP proxy: the flat arguments in, the tool's answer out."""
    mcp_id = path_id(request.match_info["mcp_id"], "mcp_id")
    tool_name = path_id(request.match_info["tool_name"], "tool_name")
    arguments = tool_arguments(await read_json_body(request))
    answer = await request.app[MCP_PROXY_KEY].call(
        mcp_id, tool_name, arguments, caller_headers(request)
    )
    return passthrough(request, answer)


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


def passthrough(request: web.Request, answer: Any) -> web.Response:
    """The upstream's JSON answer as is; an object gets this request's `trace_id` if it has none."""
    if isinstance(answer, dict):
        answer = {**answer}
        answer.setdefault("trace_id", request[TRACE_ID])
    return web.Response(body=dumps(answer), status=200, content_type="application/json")
