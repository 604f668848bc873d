"""`python -m benchmarks floor --port P [--mode floor|echo]`: the two reference servers of the
rules measure (docs/performance.md → "One honest measure").

- `echo`: the floor of the stack — a bare aiohttp app on uvloop, no middleware, one route
  that parses the JSON body with orjson and writes it back. Any JSON service on this stack
  costs at least this much per request.
- `floor`: the floor of the *work* — the same `/v1/dynamic-params` answer for a request settled
  in code, by the least the service could do with its own parts: validate the body with the
  service's request model, read the context (`parse_context`) and the time (the cached
  readings of query and context, evaluated at the request's clock: `settle_both`), take each
  property's caller values, context values and time values, check them with the rules
  (`rules.registry`), write the answer with orjson and one JSON access line. No middleware,
  deadline, negotiation, metrics, tracing, property states or merge. It reads what the five
  rules bodies need (`benchmarks/bodies.py`) and answers 500 to anything that is not settled;
  the rules scenario checks its answers byte-equal to the service's (trace id aside).

The service divided by `floor` is what resolver's own web layer and glue cost; `floor`
divided by `echo` is what the work itself costs.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import time
from typing import Any
from zoneinfo import ZoneInfo

import orjson
from aiohttp import web

from resolver.core.logs import access_log, configure_logging
from resolver.core.loops import uvloop_factory
from resolver.params.context import coerce, parse_context
from resolver.params.models import ResolveRequest
from resolver.params.property import PropertyState
from resolver.timeexpr import Clock, read, read_context, settle_both
from rules import registry

_JSON = "application/json"
_ZONES: dict[str, ZoneInfo] = {}


async def _echo(request: web.Request) -> web.Response:
    body = orjson.loads(await request.read())
    return web.Response(body=orjson.dumps(body), content_type=_JSON)


def _resolve(request: ResolveRequest) -> dict[str, dict[str, Any]]:
    zone = request.timezone or "Asia/Shanghai"
    tz = _ZONES.get(zone) or _ZONES.setdefault(zone, ZoneInfo(zone))
    now_ms = request.now_ms if request.now_ms is not None else int(time.time() * 1000)
    context = parse_context(request.additional_context)
    inputs = (
        frozenset(p.name for d in request.logic_properties for p in d.inputs())
        if context.pairs
        else frozenset()
    )
    context_time, _ = read_context(context.time_text(inputs), zone_given=True)
    settled = settle_both(read(request.query), context_time, Clock(now_ms, tz))
    window = {} if settled.resolution is None else settled.resolution.params()
    supplied = request.dynamic_params or {}
    out: dict[str, dict[str, Any]] = {}
    for definition in request.logic_properties:
        spec = PropertyState.of(definition, None).spec
        values = dict(supplied.get(definition.name) or {})
        for name in spec.input_names():
            if name not in values:
                found, raw = context.lookup(name)
                if found:
                    values[name] = coerce(raw, spec.implicit_type(name))
                elif spec.kind == "metric" and name in window:
                    values[name] = window[name]
        if registry.validate(spec, values) or registry.missing(spec, values):
            raise web.HTTPInternalServerError(text="the floor settles only the rules bodies")
        out[definition.name] = {n: values[n] for n in spec.input_names() if n in values}
    return out


async def _floor(request: web.Request) -> web.Response:
    started = time.perf_counter()
    trace_id = f"{random.getrandbits(128):032x}"
    dynamic_params = _resolve(ResolveRequest.model_validate_json(await request.read()))
    body = orjson.dumps({"dynamic_params": dynamic_params, "trace_id": trace_id})
    latency_ms = round((time.perf_counter() - started) * 1000, 3)
    access_log.request(request.method, request.path, 200, latency_ms)
    return web.Response(body=body, content_type=_JSON, headers={"x-trace-id": trace_id})


async def _healthz(request: web.Request) -> web.Response:
    return web.Response(body=b'{"status":"ok"}', content_type=_JSON)


def floor_app(mode: str) -> web.Application:
    """The echo or the floor server (no middleware either way)."""
    app = web.Application()
    app.router.add_get("/healthz", _healthz)
    if mode == "echo":
        app.router.add_post("/echo", _echo)
    else:
        app.router.add_post("/v1/dynamic-params", _floor)
    return app


def main(argv: list[str]) -> int:
    """Serve the echo or the floor on loopback until killed."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks floor")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--mode", choices=("floor", "echo"), default="floor")
    args = parser.parse_args(argv)
    configure_logging("INFO", "json")
    factory = uvloop_factory()
    loop = factory() if factory is not None else asyncio.new_event_loop()
    web.run_app(
        floor_app(args.mode),
        host="127.0.0.1",
        port=args.port,
        print=None,
        access_log=None,
        loop=loop,
    )
    return 0
