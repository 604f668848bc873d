"""The `hotpath` command: what each speed choice of the request path outside the time scanner
saves, per request, against its plain form — so that a choice that costs clarity stays only
while it pays (a rules-only request costs ~300 µs of server CPU here).

- metric label children cached per (route, status) vs `labels()` on every request;
- a trace id from `random.getrandbits(128)` vs `uuid.uuid4().hex`;
- the access line written straight into the log buffer vs through structlog's processors;
- no `asyncio.timeout` around a body already buffered vs a timer every time (asyncio, uvloop);
- a rule spec's input names and lookup table derived once vs computed per call (5 and 8 calls
  for one metric property);
- a property's rule spec built once per distinct definition vs per request;
- a free-text `additional_context` read once per distinct text vs per request;
- a plain response body written by orjson from its fields vs by pydantic's serializer;
- the time scanner per request of the `rules` benchmark mix, the clock moving every request:
  readings remembered per text (only the evaluation at the new clock runs) vs read afresh.

`python -m benchmarks hotpath` prints microseconds per request for each pair (best of 5).
"""

from __future__ import annotations

import argparse
import asyncio
import io
import random
import time
import timeit
import uuid
from collections.abc import Callable, Coroutine
from typing import Any

import pydantic_core
import structlog

from benchmarks.bodies import RULES_BODIES
from resolver.core.logs import access_log, configure_logging, flush_logs
from resolver.core.loops import uvloop_factory
from resolver.core.metrics import Metrics
from resolver.core.settings import Settings
from resolver.params import context
from resolver.params.frame import frame_of
from resolver.params.models import LogicPropertyDef, ResolveRequest, ResolveResponse
from resolver.params.property import PropertyState
from resolver.timeexpr import Clock, read, read_context, reading, settle_both
from rules.spec import InputSpec, PropertySpec

_ROUNDS = 5


def _best_us(call: Callable[[], object], number: int) -> float:
    return min(timeit.repeat(call, number=number, repeat=_ROUNDS)) / number * 1e6


def _metrics(number: int) -> tuple[float, float]:
    metrics = Metrics()

    def cached() -> None:
        metrics.observe_request("/v1/dynamic-params", 200, 0.001)

    def plain() -> None:
        metrics.requests.labels("/v1/dynamic-params", "200").inc()
        metrics.latency.labels("/v1/dynamic-params").observe(0.001)

    return _best_us(cached, number), _best_us(plain, number)


def _trace_ids(number: int) -> tuple[float, float]:
    return (
        _best_us(lambda: f"{random.getrandbits(128) or 1:032x}", number),
        _best_us(lambda: uuid.uuid4().hex, number),
    )


def _access_line(number: int) -> tuple[float, float]:
    configure_logging("INFO", "json", stream=io.StringIO())
    through = structlog.get_logger("resolver.http")
    structlog.contextvars.bind_contextvars(trace_id="0" * 31 + "1")
    try:
        return (
            _best_us(lambda: access_log.request("POST", "/v1/dynamic-params", 200, 0.3), number),
            _best_us(
                lambda: through.info(
                    "http.request", method="POST", path="/v1/dynamic-params", status=200,
                    latency_ms=0.3,
                ),
                number,
            ),
        )  # fmt: skip
    finally:
        structlog.contextvars.clear_contextvars()
        flush_logs()


async def _body_read(number: int) -> tuple[float, float]:
    done: asyncio.Future[bytes] = asyncio.get_running_loop().create_future()
    done.set_result(b"{}")

    async def read() -> bytes:
        return await done

    best_bare = best_timed = float("inf")
    for _ in range(_ROUNDS):
        started = time.perf_counter()
        for _ in range(number):
            await read()
        best_bare = min(best_bare, time.perf_counter() - started)
        started = time.perf_counter()
        for _ in range(number):
            async with asyncio.timeout(30):
                await read()
        best_timed = min(best_timed, time.perf_counter() - started)
    return best_bare / number * 1e6, best_timed / number * 1e6


def _run(coro: Coroutine[Any, Any, tuple[float, float]], *, uvloop: bool) -> tuple[float, float]:
    factory = uvloop_factory() if uvloop else None
    if factory is None:
        return asyncio.run(coro)
    loop = factory()
    try:
        return loop.run_until_complete(coro)
    finally:
        loop.close()


def _rule_spec(number: int) -> tuple[float, float]:
    names = ("instant", "start", "end", "step", "region")
    spec = PropertySpec("m", "metric", tuple(InputSpec(name) for name in names))
    inputs = spec.inputs

    def derived() -> None:
        for _ in range(5):
            spec.input_names()
        for _ in range(8):
            spec.get("step")

    def computed() -> None:
        for _ in range(5):
            tuple(i.name for i in inputs)
        for _ in range(8):
            next((i for i in inputs if i.name == "step"), None)

    return _best_us(derived, number), _best_us(computed, number)


def _requests() -> list[ResolveRequest]:
    return [ResolveRequest.model_validate_json(body) for _, _, body in RULES_BODIES]


def _definition_spec(number: int) -> tuple[float, float]:
    definitions: list[LogicPropertyDef] = [d for r in _requests() for d in r.logic_properties]

    def cached() -> None:
        for definition in definitions:
            PropertyState.of(definition, None)

    def built() -> None:
        for definition in definitions:
            PropertyState.of(definition, {"": {}})  # schemas given: built each time

    per = len(definitions) / len(RULES_BODIES)  # properties per request
    return _best_us(cached, number) / len(definitions) * per, _best_us(built, number) / len(
        definitions
    ) * per


def _context_text(number: int) -> tuple[float, float]:
    text = "drug_type=抗肿瘤；items=revenue,profit,growth；top_n=5"
    return (
        _best_us(lambda: context.parse_context(text), number),
        _best_us(lambda: context._free_text(text), number),
    )


def _response_body(number: int) -> tuple[float, float]:
    body = ResolveResponse(
        dynamic_params={"m": {"instant": False, "start": 1, "end": 2, "step": "month"}},
        trace_id="0" * 32,
    )
    return (
        _best_us(body.to_json, number),
        _best_us(lambda: pydantic_core.to_json(body, by_alias=True, fallback=str), number),
    )


def _scanner(number: int) -> tuple[float, float]:
    """The scanner's share of one request of the mix: the query and the context read, both
    settled at the request's clock, which moves by a second every request."""
    settings = Settings()
    frames = [
        (r.query, frame_of(r, settings).context.time_text(frozenset()), frame_of(r, settings).tz)
        for r in _requests()
    ]
    clock = [1_764_000_000_000]

    def one_mix() -> None:
        for query, text, tz in frames:
            clock[0] += 1000
            context_time, _ = read_context(text, zone_given=False)
            settle_both(read(query), context_time, Clock(clock[0], tz))

    def afresh() -> None:
        reading.clear_cache()
        one_mix()

    return _best_us(one_mix, number) / len(frames), _best_us(afresh, number) / len(frames)


def main(argv: list[str]) -> int:
    """Print each choice's cost per request against its plain form."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks hotpath", description=__doc__)
    parser.add_argument("--number", type=int, default=100_000, help="calls per round")
    args = parser.parse_args(argv)
    number = args.number
    rows = [
        ("metric label children cached", *_metrics(number)),
        ("trace id from random.getrandbits", *_trace_ids(number)),
        ("access line straight into the buffer", *_access_line(number // 10)),
        ("no timer around a buffered body (asyncio)", *_run(_body_read(number), uvloop=False)),
        ("no timer around a buffered body (uvloop)", *_run(_body_read(number), uvloop=True)),
        ("rule spec lookups derived once", *_rule_spec(number // 10)),
        ("rule spec once per definition", *_definition_spec(number // 20)),
        ("free-text context read once", *_context_text(number // 10)),
        ("response body written by orjson", *_response_body(number // 10)),
        ("time scanner per request, readings kept", *_scanner(number // 50)),
    ]
    print(f"{'choice':<44} {'chosen µs':>10} {'plain µs':>10} {'saves µs':>10}")
    for name, chosen, plain in rows:
        print(f"{name:<44} {chosen:>10.2f} {plain:>10.2f} {plain - chosen:>10.2f}")
    return 0
