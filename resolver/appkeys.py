"""Typed application state (aiohttp AppKeys): no dict of everything."""

from __future__ import annotations

from aiohttp import web

from resolver.metrics import Metrics
from resolver.probe import LLMProbe
from resolver.service import Resolver
from resolver.settings import Settings

SETTINGS_KEY = web.AppKey("settings", Settings)
RESOLVER_KEY = web.AppKey("resolver", Resolver)
PROBE_KEY = web.AppKey("llm_probe", LLMProbe)
METRICS_KEY = web.AppKey("metrics", Metrics)
