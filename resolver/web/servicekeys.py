"""The app keys of the service graph (`resolver/services.py`) and of the MCP endpoint mounted
on it. Kept apart from `appkeys.py`: only the handlers and the app factory need the graph. The
endpoint's key names what the handlers call (`mcp/exchange.py: McpEndpoint`), not the endpoint
and the SDK server beneath it; `create_app` puts the concrete one (`mcp/http.py`) in it."""

from __future__ import annotations

from aiohttp import web

from resolver.mcp.exchange import McpEndpoint
from resolver.services import Services

SERVICES_KEY = web.AppKey("services", Services)
# No class argument: a protocol is no concrete class for `type[...]` (mypy's type-abstract).
MCP_SERVER_KEY: web.AppKey[McpEndpoint] = web.AppKey("mcp_server")
