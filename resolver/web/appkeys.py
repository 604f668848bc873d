"""Typed application and request state (aiohttp AppKeys and RequestKeys), all in one place."""

from __future__ import annotations

from typing import Any

from aiohttp import web

from resolver.actions.proxy import McpProxy
from resolver.actions.recall import ActionRecall
from resolver.core.lifecycle import Lifecycle
from resolver.core.metrics import Metrics
from resolver.core.settings import Settings
from resolver.kn.inputs import InputCatalog
from resolver.kn.pipeline import Pipeline
from resolver.llm.probe import LLMProbe
from resolver.mcp.http import StreamableHttp
from resolver.params.service import ParamsService
from resolver.upstreams.client import Upstreams

SETTINGS_KEY = web.AppKey("settings", Settings)
METRICS_KEY = web.AppKey("metrics", Metrics)
LIFECYCLE_KEY = web.AppKey("lifecycle", Lifecycle)
PARAMS_KEY = web.AppKey("params", ParamsService)
PROBE_KEY = web.AppKey("llm_probe", LLMProbe)
UPSTREAMS_KEY = web.AppKey("upstreams", Upstreams)
PIPELINE_KEY = web.AppKey("pipeline", Pipeline)
ACTION_RECALL_KEY = web.AppKey("action_recall", ActionRecall)
INPUTS_KEY = web.AppKey("inputs", InputCatalog)
MCP_PROXY_KEY = web.AppKey("mcp_proxy", McpProxy)
MCP_SERVER_KEY = web.AppKey("mcp_server", StreamableHttp)
# /openapi.json, built once from the routes table by create_app.
OPENAPI_KEY = web.AppKey("openapi", dict[str, Any])

TRACE_ID = web.RequestKey("trace_id", str)
