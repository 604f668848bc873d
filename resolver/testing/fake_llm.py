"""A scripted OpenAI-compatible chat-completions server (aiohttp, loopback only).

Tests script it call by call (`push`) or with a responder function (`respond`); load tests run
it stand-alone (`python -m resolver.testing.fake_llm --port 8090`, from a plain install; also
`python -m benchmarks fake-llm`; docs/testing.md). It records every call and the peak number of
calls in flight, and answers plausible extractions for any logic property it is sent.

For load tests it also models what a real LLM endpoint does to its callers:
- latency, fixed or lognormal with a given p50 and p99 (`Latency`);
- faults, each at a rate: 429 with `Retry-After`, 5xx, hangs, malformed JSON (`Faults`);
- a gateway that admits at most N calls in any sliding 1-second window and answers 429 with
  `Retry-After`/`retry-after-ms` above that, like the gateways in front of hosted models.
Counters and the fake's own per-call latencies are served at `GET /_fake/stats` (and reset by
`POST /_fake/reset`) so that a benchmark can subtract the fake's time from the service's.
"""

from __future__ import annotations

import asyncio
import math
import random
import sys
import time
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

import orjson
from aiohttp import web

# Re-exported (`as`): tests and benchmarks import these from here.
# isort: off
from resolver.testing.llm_conditions import (
    Faults as Faults,
    Gateway as Gateway,
    Latency as Latency,
    PromptCache as PromptCache,
    gzip_bomb as gzip_bomb,
    percentile,
    prompt_text as prompt_text,
    refused_format,
)
# isort: on

METRIC_TIME = ("instant", "start", "end", "step")

# The fake's own per-call timings kept for /_fake/stats (a bounded record).
_MAX_TIMINGS = 200_000


@dataclass
class Reply:
    """One scripted answer: a message content, or a raw status/body, after a delay."""

    content: str | None = None
    status: int = 200
    body: bytes | None = None
    headers: dict[str, str] = field(default_factory=dict)
    delay_s: float = 0.0
    hang: bool = False
    choices: list[Any] | None = None
    # Send the headers and only this many bytes of the body, then drop the connection.
    cut_at: int | None = None
    # Send `body` this many times over (a huge body without holding it in memory).
    repeat: int = 1
    # The answer's `usage` exactly as given (another SDK shape, say); None: the fake's own.
    usage: dict[str, Any] | None = None
    # Answer only once this is set (after the delay): a test decides when each call ends.
    gate: asyncio.Event | None = None


@dataclass
class Call:
    """One request the fake received."""

    body: dict[str, Any]
    headers: dict[str, str]
    started: float
    ended: float | None = None

    @property
    def task(self) -> dict[str, Any]:
        """The resolver's task (the first user message, parsed), or {}."""
        for message in self.body.get("messages", []):
            if message.get("role") == "user":
                try:
                    loaded = orjson.loads(message.get("content") or "")
                except orjson.JSONDecodeError:
                    return {}
                return loaded if isinstance(loaded, dict) else {}
        return {}

    @property
    def property_name(self) -> str | None:
        """The logic property this call is about."""
        prop = self.task.get("logic_property")
        return prop.get("name") if isinstance(prop, dict) else None

    @property
    def messages(self) -> list[dict[str, Any]]:
        """The chat messages sent."""
        return list(self.body.get("messages", []))


Responder = Callable[[Call], Reply]


def plausible_values(task: dict[str, Any]) -> dict[str, Any]:
    """Values of the right type for every parameter the task asks to generate."""
    prop = task.get("logic_property") or {}
    types = {p.get("name"): (p.get("type") or "").upper() for p in prop.get("parameters", [])}
    schema = task.get("schema") or {}
    values: dict[str, Any] = {}
    for name in task.get("generate", []):
        enum = (schema.get(name) or {}).get("enum")
        if enum:
            values[name] = enum[0]
        elif name == "instant":
            values[name] = False
        elif name == "start":
            values[name] = "now-3M"
        elif name == "end":
            values[name] = "now"
        elif name == "step":
            values[name] = "month"
        else:
            values[name] = _example(types.get(name, "STRING"))
    return values


def _example(kind: str) -> Any:
    return {
        "INTEGER": 1,
        "NUMBER": 0.5,
        "BOOLEAN": True,
        "OBJECT": {"k": "v"},
        "ARRAY": ["a"],
    }.get(kind, "示例")


def plausible(call: Call) -> Reply:
    """The default responder: a valid answer for the property in the call."""
    name = call.property_name or "unknown"
    return Reply(content=orjson.dumps({name: plausible_values(call.task)}).decode())


class FakeLLM:
    """The fake's state: scripted replies, a default responder, and the record of calls.

    Scripted replies (`push`) answer first and exactly as scripted; the gateway limit applies
    to every call, faults and the latency model only to calls the responder answers.
    """

    def __init__(
        self,
        *,
        responder: Responder = plausible,
        latency_s: float = 0.0,
        latency: Latency | None = None,
        faults: Faults | None = None,
        gateway_qps: float | None = None,
        seed: int | None = None,
        keep_calls: bool = True,
        prompt_cache: PromptCache | None = None,
        refuse_json_schema: frozenset[str] = frozenset(),
    ) -> None:
        # A provider's prompt cache (cached_tokens in usage), and the models that answer 400
        # to `response_format: json_schema` as older and self-hosted servers do.
        self.prompt_cache = prompt_cache
        self.refuse_json_schema = refuse_json_schema
        self.script: deque[Reply | Responder] = deque()
        self.responder = responder
        self.latency = latency if latency is not None else Latency(latency_s)
        self.faults = faults if faults is not None else Faults()
        self.gateway = Gateway(gateway_qps) if gateway_qps else None
        self.keep_calls = keep_calls
        self.calls: list[Call] = []
        self.inflight = 0
        self.peak_inflight = 0
        self.counts: Counter[str] = Counter()
        # (query of the task, the fake's own handling time in seconds) of calls past the gateway
        self.timings: deque[tuple[str | None, float]] = deque(maxlen=_MAX_TIMINGS)
        self._rng = random.Random(seed)

    @property
    def latency_s(self) -> float:
        """The fixed latency (or the p50) of default answers, in seconds."""
        return self.latency.p50_s

    @latency_s.setter
    def latency_s(self, value: float) -> None:
        self.latency = Latency(value)

    def push(self, *replies: Reply | Responder) -> None:
        """Queue replies for the next calls, in order; then the default responder answers."""
        self.script.extend(replies)

    def respond(self, responder: Responder) -> None:
        """Answer every call not covered by the script with `responder`."""
        self.responder = responder

    def reset_peak(self) -> None:
        """Forget the peak and the calls (between phases of a test)."""
        self.peak_inflight = self.inflight
        self.calls.clear()

    def reset_stats(self) -> None:
        """Forget counters, timings, calls, the peak and the gateway window."""
        self.reset_peak()
        self.counts.clear()
        self.timings.clear()
        if self.gateway is not None:
            self.gateway.reset()

    def stats(self, *, timings: bool = False) -> dict[str, Any]:
        """Counters, the fake's latency percentiles (ms) and, on request, every timing."""
        handled = sorted(t for _, t in self.timings)
        body: dict[str, Any] = {
            "counts": dict(self.counts),
            "inflight": self.inflight,
            "peak_inflight": self.peak_inflight,
            "latency": asdict(self.latency),
            "faults": asdict(self.faults),
            "gateway_qps": self.gateway.qps if self.gateway else None,
            "fake_latency_ms": {
                f"p{q:g}": round(percentile(handled, q) * 1000, 3) for q in (50, 90, 99, 100)
            },
        }
        if timings:
            body["timings"] = [[q, round(t * 1000, 3)] for q, t in self.timings]
        return body

    def app(self) -> web.Application:
        """The aiohttp application serving `/v1/chat/completions`, `/v1/models`, `/_fake/*`."""
        app = web.Application(client_max_size=16 << 20)
        app.router.add_post("/v1/chat/completions", self._completions)
        app.router.add_post("/chat/completions", self._completions)
        app.router.add_get("/v1/models", self._models)
        app.router.add_get("/models", self._models)
        app.router.add_get("/_fake/stats", self._stats)
        app.router.add_post("/_fake/reset", self._reset)
        app.router.add_post("/_fake/echo", self._echo)
        return app

    async def _models(self, request: web.Request) -> web.Response:
        return web.json_response({"object": "list", "data": [{"id": "fake", "object": "model"}]})

    async def _stats(self, request: web.Request) -> web.Response:
        body = self.stats(timings=request.query.get("timings") == "1")
        return web.Response(body=orjson.dumps(body), content_type="application/json")

    async def _echo(self, request: web.Request) -> web.Response:
        # The floor of what an aiohttp JSON service costs here: parse and re-serialise.
        body = orjson.loads(await request.read())
        return web.Response(body=orjson.dumps(body), content_type="application/json")

    async def _reset(self, request: web.Request) -> web.Response:
        self.reset_stats()
        return web.Response(body=b"{}", content_type="application/json")

    async def _completions(self, request: web.Request) -> web.StreamResponse:
        started = time.monotonic()
        raw = await request.read()
        try:
            body = orjson.loads(raw)
        except orjson.JSONDecodeError:
            body = {}
        call = Call(body=body, headers=dict(request.headers), started=started)
        if self.keep_calls:
            self.calls.append(call)
        self.counts["calls"] += 1
        if self.gateway is not None:
            wait_s = self.gateway.admit(started)
            if wait_s is not None:
                self.counts["gateway_429"] += 1
                call.ended = time.monotonic()
                return self._render(_too_many(wait_s, "gateway rate limit"), body)
        refusal = refused_format(body, self.refuse_json_schema)
        if refusal is not None:
            self.counts["format_refused"] += 1
            call.ended = time.monotonic()
            return refusal
        self.inflight += 1
        self.peak_inflight = max(self.peak_inflight, self.inflight)
        try:
            reply = await self._reply(call)
            rendered = self._render(reply, body, self.prompt_cache)
            response: web.StreamResponse = rendered
            if reply.cut_at is not None:
                response = await self._cut(request, rendered, reply.cut_at)
            elif reply.repeat > 1:
                response = await self._repeat(request, rendered, reply.repeat)
        finally:
            self.inflight -= 1
            call.ended = time.monotonic()
        self.counts[f"status_{reply.status}"] += 1
        self.timings.append((call.task.get("query"), call.ended - started))
        return response

    async def _reply(self, call: Call) -> Reply:
        if self.script:
            item = self.script.popleft()
            reply = item if isinstance(item, Reply) else item(call)
            delay = reply.delay_s or self.latency_s
        else:
            fault = self.faults.draw(self._rng)
            if fault is not None:
                self.counts[f"fault_{fault}"] += 1
            reply = self._fault_reply(fault) if fault else self.responder(call)
            delay = reply.delay_s or self.latency.sample(self._rng)
        if reply.hang:
            await asyncio.sleep(self.faults.hang_s)
        if delay:
            await asyncio.sleep(delay)
        if reply.gate is not None:
            await reply.gate.wait()
        return reply

    def _fault_reply(self, fault: str) -> Reply:
        if fault == "429":
            return _too_many(self.faults.retry_after_s, "injected rate limit")
        if fault == "5xx":
            return Reply(status=self.faults.status_5xx)
        if fault == "hang":
            return Reply(hang=True)
        # A body cut short, as from a proxy that dropped the connection mid-answer.
        return Reply(body=b'{"id": "chatcmpl-fake", "object": "chat.completion", "choices": [{')

    @staticmethod
    async def _cut(request: web.Request, full: web.Response, cut_at: int) -> web.StreamResponse:
        payload = full.body if isinstance(full.body, bytes) else b""
        partial = web.StreamResponse(status=full.status, headers=full.headers)
        partial.content_length = len(payload)
        await partial.prepare(request)
        await partial.write(payload[:cut_at])
        if request.transport is not None:
            request.transport.close()
        return partial

    @staticmethod
    async def _repeat(request: web.Request, full: web.Response, times: int) -> web.StreamResponse:
        """The body `times` over, streamed; stops quietly when the client hangs up."""
        payload = full.body if isinstance(full.body, bytes) else b""
        streamed = web.StreamResponse(status=full.status, headers=full.headers)
        streamed.content_length = len(payload) * times
        await streamed.prepare(request)
        try:
            for _ in range(times):
                await streamed.write(payload)
        except (ConnectionError, RuntimeError):
            pass  # the client stopped reading: what a bounded client does
        return streamed

    @staticmethod
    def _render(
        reply: Reply, body: dict[str, Any], prompt_cache: PromptCache | None = None
    ) -> web.Response:
        if reply.body is not None:
            return web.Response(
                body=reply.body,
                status=reply.status,
                headers=reply.headers,
                content_type="application/json",
            )
        if reply.status != 200:
            error = {"error": {"message": f"fake error {reply.status}", "type": "fake"}}
            return web.Response(
                body=orjson.dumps(error),
                status=reply.status,
                headers=reply.headers,
                content_type="application/json",
            )
        choices = reply.choices
        if choices is None:
            choices = [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": reply.content},
                    "finish_reason": "stop",
                }
            ]
        prompt_tokens = sum(len(m.get("content") or "") for m in body.get("messages", [])) // 4
        completion_tokens = len(reply.content or "") // 4
        usage: dict[str, Any] = {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens,
            "total_tokens": prompt_tokens + completion_tokens,
        }
        if prompt_cache is not None:
            cached = prompt_cache.serve(prompt_text(body))
            usage["prompt_tokens_details"] = {"cached_tokens": min(cached, prompt_tokens)}
        payload = {
            "id": "chatcmpl-fake",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": body.get("model", "fake"),
            "choices": choices,
            "usage": reply.usage if reply.usage is not None else usage,
        }
        return web.Response(
            body=orjson.dumps(payload), headers=reply.headers, content_type="application/json"
        )


def _too_many(wait_s: float, why: str) -> Reply:
    """A 429 the way hosted models send it: seconds (rounded up) and exact milliseconds."""
    return Reply(
        status=429,
        headers={
            "Retry-After": str(max(1, math.ceil(wait_s))),
            "retry-after-ms": str(max(1, round(wait_s * 1000))),
            "x-fake-reason": why,
        },
    )


def main(argv: list[str]) -> int:
    """Run the fake stand-alone on loopback (`fake_llm_cli.py` reads the flags)."""
    from resolver.testing.fake_llm_cli import serve

    return serve(argv)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
