"""The app keys of the service graph (`resolver/services.py`) and of the MCP endpoint mounted
on it. Kept apart from `appkeys.py`: only the handlers and the app factory need the graph."""

from __future__ import annotations

from aiohttp import web

from resolver.mcp.http import StreamableHttp
from resolver.services import Services

SERVICES_KEY = web.AppKey("services", Services)
MCP_SERVER_KEY = web.AppKey("mcp_server", StreamableHttp)
