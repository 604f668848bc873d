"""A scripted OpenAI-compatible chat-completions server (aiohttp, loopback only).

Tests script it call by call (`push`) or with a responder function (`respond`); load tests run
it stand-alone (`python -m benchmarks fake-llm`). It records every call and the peak number of
calls in flight, and answers plausible extractions for any logic property it is sent.
"""

from __future__ import annotations

import argparse
import asyncio
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import orjson
from aiohttp import web

METRIC_TIME = ("instant", "start", "end", "step")


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
    """The fake's state: scripted replies, a default responder, and the record of calls."""

    def __init__(self, *, responder: Responder = plausible, latency_s: float = 0.0) -> None:
        self.script: deque[Reply | Responder] = deque()
        self.responder = responder
        self.latency_s = latency_s
        self.calls: list[Call] = []
        self.inflight = 0
        self.peak_inflight = 0

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

    def app(self) -> web.Application:
        """The aiohttp application serving `/v1/chat/completions` and `/v1/models`."""
        app = web.Application(client_max_size=16 << 20)
        app.router.add_post("/v1/chat/completions", self._completions)
        app.router.add_post("/chat/completions", self._completions)
        app.router.add_get("/v1/models", self._models)
        app.router.add_get("/models", self._models)
        return app

    async def _models(self, request: web.Request) -> web.Response:
        return web.json_response({"object": "list", "data": [{"id": "fake", "object": "model"}]})

    async def _completions(self, request: web.Request) -> web.StreamResponse:
        raw = await request.read()
        try:
            body = orjson.loads(raw)
        except orjson.JSONDecodeError:
            body = {}
        call = Call(body=body, headers=dict(request.headers), started=time.monotonic())
        self.calls.append(call)
        self.inflight += 1
        self.peak_inflight = max(self.peak_inflight, self.inflight)
        try:
            item = self.script.popleft() if self.script else self.responder
            reply = item if isinstance(item, Reply) else item(call)
            delay = reply.delay_s or self.latency_s
            if reply.hang:
                await asyncio.sleep(3600)
            if delay:
                await asyncio.sleep(delay)
            return self._render(reply, body)
        finally:
            self.inflight -= 1
            call.ended = time.monotonic()

    @staticmethod
    def _render(reply: Reply, body: dict[str, Any]) -> web.Response:
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
        payload = {
            "id": "chatcmpl-fake",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": body.get("model", "fake"),
            "choices": choices,
            "usage": {
                "prompt_tokens": prompt_tokens,
                "completion_tokens": completion_tokens,
                "total_tokens": prompt_tokens + completion_tokens,
            },
        }
        return web.Response(
            body=orjson.dumps(payload), headers=reply.headers, content_type="application/json"
        )


def main(argv: list[str]) -> int:
    """Run the fake stand-alone on loopback."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks fake-llm")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8090)
    parser.add_argument("--latency-ms", type=float, default=0.0)
    args = parser.parse_args(argv)
    fake = FakeLLM(latency_s=args.latency_ms / 1000)
    web.run_app(fake.app(), host=args.host, port=args.port, access_log=None, print=None)
    return 0
