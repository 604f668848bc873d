"""The application factory: wiring only — no I/O, no environment reads."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

from aiohttp import web

from resolver import handlers
from resolver.appkeys import METRICS_KEY, PROBE_KEY, RESOLVER_KEY, SETTINGS_KEY
from resolver.engine import open_resolver
from resolver.metrics import Metrics
from resolver.middleware import error_middleware, trace_middleware
from resolver.settings import Settings


def create_app(settings: Settings, *, prompts_dir: Path | None = None) -> web.Application:
    """Build the aiohttp application for these settings."""
    app = web.Application(
        middlewares=[trace_middleware, error_middleware],
        client_max_size=settings.max_body_bytes,
    )
    app[SETTINGS_KEY] = settings
    metrics = app[METRICS_KEY] = Metrics()
    app.router.add_post("/v1/dynamic-params", handlers.dynamic_params)
    app.router.add_get("/healthz", handlers.healthz)
    app.router.add_get("/readyz", handlers.readyz)
    app.router.add_get("/openapi.json", handlers.openapi)
    app.router.add_get("/metrics", handlers.metrics)

    async def engine(app: web.Application) -> AsyncIterator[None]:
        async with open_resolver(settings, prompts_dir, metrics) as (resolver, probe):
            app[RESOLVER_KEY] = resolver
            if probe is not None:
                app[PROBE_KEY] = probe
            yield

    app.cleanup_ctx.append(engine)
    return app
