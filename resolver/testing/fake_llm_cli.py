"""`python -m resolver.testing.fake_llm`'s flags: the fake LLM stand-alone on loopback, with
the latency, faults, gateway, prompt cache and format refusals a load test asks of it."""

from __future__ import annotations

import argparse

from aiohttp import web

from resolver.testing.fake_llm import FakeLLM
from resolver.testing.llm_conditions import Faults, Latency, PromptCache


def serve(argv: list[str]) -> int:
    """Run the fake stand-alone on loopback until stopped."""
    parser = argparse.ArgumentParser(
        prog="python -m resolver.testing.fake_llm",
        description="An OpenAI-compatible chat-completions server for load tests (loopback).",
    )
    parser.add_argument("--host", default="127.0.0.1", help="loopback address to bind")
    parser.add_argument("--port", type=int, default=8090)
    parser.add_argument("--latency-ms", type=float, default=0.0, help="fixed latency, or p50")
    parser.add_argument("--p99-ms", type=float, help="lognormal latency with this p99")
    parser.add_argument("--rate-429", type=float, default=0.0, help="share of calls answered 429")
    parser.add_argument("--retry-after-s", type=float, default=1.0, help="Retry-After of a 429")
    parser.add_argument("--rate-5xx", type=float, default=0.0, help="share answered 503")
    parser.add_argument("--rate-hang", type=float, default=0.0, help="share that hang")
    parser.add_argument("--hang-s", type=float, default=3600.0, help="how long a hang lasts")
    parser.add_argument("--rate-malformed", type=float, default=0.0, help="share cut-off JSON")
    parser.add_argument("--gateway-qps", type=float, help="429 above N calls per sliding second")
    parser.add_argument("--seed", type=int, help="seed of the latency and fault draws")
    parser.add_argument(
        "--prompt-cache",
        action="store_true",
        help="answer cached_tokens as a provider's prompt cache would (PromptCache)",
    )
    parser.add_argument(
        "--refuse-json-schema",
        default="",
        help="comma-separated models that answer 400 to response_format json_schema",
    )
    parser.add_argument("--uvloop", action="store_true", help="run on uvloop if installed")
    args = parser.parse_args(argv)
    if args.host not in ("127.0.0.1", "::1", "localhost"):
        parser.error("the fake binds loopback only")
    fake = FakeLLM(
        latency=Latency(
            args.latency_ms / 1000, None if args.p99_ms is None else args.p99_ms / 1000
        ),
        faults=Faults(
            rate_429=args.rate_429,
            retry_after_s=args.retry_after_s,
            rate_5xx=args.rate_5xx,
            rate_hang=args.rate_hang,
            hang_s=args.hang_s,
            rate_malformed=args.rate_malformed,
        ),
        gateway_qps=args.gateway_qps,
        seed=args.seed,
        keep_calls=False,
        prompt_cache=PromptCache() if args.prompt_cache else None,
        refuse_json_schema=frozenset(m for m in args.refuse_json_schema.split(",") if m),
    )
    from resolver.core.loops import uvloop_factory

    loop_factory = uvloop_factory() if args.uvloop else None
    web.run_app(
        fake.app(),
        host=args.host,
        port=args.port,
        access_log=None,
        print=None,
        loop=loop_factory() if loop_factory else None,
    )
    return 0
