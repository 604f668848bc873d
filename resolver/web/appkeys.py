"""Typed application and request state that is the web edge's own: settings, metrics, the
lifecycle, `/openapi.json`, the business routes' paths, the worker threads of pure CPU work and
the request's trace id —
core types only, so that the middleware, the answer's negotiation and the body reader can read
them without importing the service graph (whose keys are in `servicekeys.py`)."""

from __future__ import annotations

from typing import Any

from aiohttp import web

from resolver.core.lifecycle import Lifecycle
from resolver.core.metrics import Metrics
from resolver.core.offload import Offload
from resolver.core.settings import Settings

SETTINGS_KEY = web.AppKey("settings", Settings)
METRICS_KEY = web.AppKey("metrics", Metrics)
LIFECYCLE_KEY = web.AppKey("lifecycle", Lifecycle)
# The service graph's worker threads (`Services.offload`), set when the graph opens, so that
# the answer's TOON encoding runs off the loop without the middleware importing the graph.
OFFLOAD_KEY = web.AppKey("offload", Offload)
# /openapi.json, built once from the routes table by create_app.
OPENAPI_KEY = web.AppKey("openapi", dict[str, Any])
# The paths of the business routes (SPEC §2.3: their answers say the platform's trace records
# nothing), from the routes table by create_app, for the middleware.
BUSINESS_PATHS_KEY = web.AppKey("business_paths", frozenset[str])

TRACE_ID = web.RequestKey("trace_id", str)
