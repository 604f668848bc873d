"""Typed application state (aiohttp AppKeys): no dict of everything."""

from __future__ import annotations

from aiohttp import web

from resolver.action_recall import ActionRecall
from resolver.kn_resolver import KnResolver
from resolver.mcp_proxy import McpProxy
from resolver.metrics import Metrics
from resolver.probe import LLMProbe
from resolver.service import Resolver
from resolver.settings import Settings
from resolver.upstream import Upstreams

SETTINGS_KEY = web.AppKey("settings", Settings)
RESOLVER_KEY = web.AppKey("resolver", Resolver)
PROBE_KEY = web.AppKey("llm_probe", LLMProbe)
METRICS_KEY = web.AppKey("metrics", Metrics)
UPSTREAMS_KEY = web.AppKey("upstreams", Upstreams)
KN_RESOLVER_KEY = web.AppKey("kn_resolver", KnResolver)
ACTION_RECALL_KEY = web.AppKey("action_recall", ActionRecall)
MCP_PROXY_KEY = web.AppKey("mcp_proxy", McpProxy)
