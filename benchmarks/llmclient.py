"""The `llm-client` scenario: our CPU per LLM call and per 1-call request, beside the floor of a
raw aiohttp POST, in one run.

The fake runs in a subprocess with no latency, so this process's CPU (`time.process_time()`)
is the client side only. Every client variant sends the same chat-completions body at the same
concurrency. The service (`resolver serve`, a subprocess on the fake, LLM result cache off) is
sent `POST /v1/dynamic-params` with one LLM property (one call per request) and, for
reference, a rules-only request; its own process CPU per request is the figure. Batches of
every variant are interleaved and repeated, and the median batch counts.
"""

from __future__ import annotations

import asyncio
import cProfile
import os
import pstats
import statistics
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import aiohttp
import openai
import orjson

from benchmarks import bodies
from benchmarks.procs import Proc, start_service
from resolver.core.logs import configure_logging
from resolver.core.settings import Settings
from resolver.llm.client import LLMClient
from resolver.llm.limiter import LLMLimiter
from resolver.llm.prompts import load_prompts, user_message

CONCURRENCY = 8
MODEL = "gpt-4o-mini"
Call = Callable[[], Awaitable[str | None]]
# The targets (issue 24, item 4), in µs of our CPU.
TARGET_CALL_US = 400
TARGET_REQUEST_US = 700
# The service's requests: one LLM property (one call), and rules only (no call), as reference.
REQUESTS = {
    "service_1_call_request": bodies.overhead_body().replace(b"{{seq}}", b"1"),
    "service_rules_only_request": bodies.RULES_BODIES[0][2],
}


def messages() -> list[dict[str, str]]:
    """A realistic pair: the metric system prompt and a one-property task."""
    task = {
        "logic_property": {
            "name": "approved_drug_count",
            "type": "metric",
            "display_name": "获批药品数量",
            "comment": "benchmark metric",
            "parameters": [{"name": "drug_type", "type": "STRING", "comment": "药品类别"}],
        },
        "query": "当前获批的抗肿瘤药品数量",
        "additional_context": "",
        "unique_identities": [{"company_id": "company_000001"}],
        "now": "2025-11-13T09:12:22.241+08:00",
        "timezone": "Asia/Shanghai",
        "fixed": {"instant": True},
        "generate": ["drug_type"],
    }
    return [
        {"role": "system", "content": load_prompts().metric},
        {"role": "user", "content": user_message(task)},
    ]


class Variants:
    """The clients under test, opened on the running loop."""

    def __init__(self, base_url: str) -> None:
        self.base_url = base_url
        self.messages = messages()
        self.body = orjson.dumps(
            {
                "model": MODEL,
                "messages": self.messages,
                "temperature": 0,
                "max_tokens": 1024,
                "response_format": {"type": "json_object"},
            }
        )

    async def __aenter__(self) -> Variants:
        # The cache off: every call must reach the fake to be measured.
        settings = Settings(llm_base_url=self.base_url, llm_api_key="sk-bench", llm_cache_ttl_s=0)
        limiter = LLMLimiter(max_inflight=16, qps=None, max_pending=256)
        self.ours = LLMClient(settings, limiter)
        self.session = aiohttp.ClientSession()
        self.sdk_httpx = openai.AsyncOpenAI(base_url=self.base_url, api_key="sk", max_retries=0)
        self.sdk_aiohttp = openai.AsyncOpenAI(
            base_url=self.base_url,
            api_key="sk",
            max_retries=0,
            http_client=openai.DefaultAioHttpClient(),
        )
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.ours.aclose()
        await self.session.close()
        await self.sdk_httpx.close()
        await self.sdk_aiohttp.close()

    def table(self) -> dict[str, Call]:
        """Variant name -> one call."""
        return {
            "raw_aiohttp_post": self.raw,
            "resolver_llm_client": self.resolver,
            "openai_sdk_streaming_create": self.sdk_streaming_create,
            "openai_sdk_aiohttp_parsed": self.sdk_parsed_aiohttp,
            "openai_sdk_httpx_parsed": self.sdk_parsed_httpx,
        }

    async def raw(self) -> str | None:
        """A bare POST of the same body; the content read with orjson."""
        async with self.session.post(
            self.base_url + "/chat/completions",
            data=self.body,
            headers={"Content-Type": "application/json", "Authorization": "Bearer sk"},
        ) as response:
            payload = orjson.loads(await response.read())
        content: str | None = payload["choices"][0]["message"]["content"]
        return content

    async def resolver(self) -> str | None:
        """The service's client: limiter, tenacity, the SDK's documented `post`."""
        completion = await self.ours.complete(
            self.messages,
            deadline=time.monotonic() + 30,
            response_format={"type": "json_object"},
        )
        return completion.content

    async def sdk_streaming_create(self) -> str | None:
        """The service's first configuration: `with_streaming_response.create`, orjson."""
        streaming = self.sdk_aiohttp.chat.completions.with_streaming_response
        async with streaming.create(  # type: ignore[call-overload]
            model=MODEL,
            messages=self.messages,
            temperature=0,
            max_tokens=1024,
            response_format={"type": "json_object"},
        ) as response:
            payload = orjson.loads(await response.read())
        content: str | None = payload["choices"][0]["message"]["content"]
        return content

    async def _sdk(self, client: openai.AsyncOpenAI) -> str | None:
        response = await client.chat.completions.create(  # type: ignore[call-overload]
            model=MODEL,
            messages=self.messages,
            temperature=0,
            max_tokens=1024,
            response_format={"type": "json_object"},
        )
        content: str | None = response.choices[0].message.content
        return content

    async def sdk_parsed_aiohttp(self) -> str | None:
        """The SDK's usual form (pydantic objects) over aiohttp."""
        return await self._sdk(self.sdk_aiohttp)

    async def sdk_parsed_httpx(self) -> str | None:
        """The SDK out of the box (httpx, pydantic objects)."""
        return await self._sdk(self.sdk_httpx)


async def _batch(call: Call, count: int) -> tuple[float, float]:
    """CPU and wall seconds for `count` calls, CONCURRENCY at a time."""
    remaining = count

    async def worker() -> None:
        nonlocal remaining
        while remaining > 0:
            remaining -= 1
            content = await call()
            assert content, "the fake answered without content"

    cpu, wall = time.process_time(), time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(CONCURRENCY)))
    return time.process_time() - cpu, time.perf_counter() - wall


async def measure(
    base_url: str, *, calls: int, repeats: int, service: Proc | None = None
) -> dict[str, Any]:
    """µs of CPU per call for each client variant (this process) and per request for each
    of the service's requests (its process); medians of interleaved batches."""
    per_call: dict[str, list[float]] = defaultdict(list)
    walls: dict[str, list[float]] = defaultdict(list)
    async with Variants(base_url) as variants:
        table = variants.table()
        requests = _service_requests(variants.session, service) if service else {}
        for call in table.values():
            await _batch(call, 100)  # connections, lazy imports, caches
        for call in requests.values():
            await _batch(call, 200)
        for _ in range(repeats):
            for name, call in table.items():
                cpu, wall = await _batch(call, calls)
                per_call[name].append(cpu * 1e6 / calls)
                walls[name].append(calls / wall)
            for name, call in requests.items():
                assert service is not None  # requests exist only with it
                before = service.cpu_s()
                _, wall = await _batch(call, calls)
                per_call[name].append((service.cpu_s() - before) * 1e6 / calls)
                walls[name].append(calls / wall)
        profile = await _profile(table["resolver_llm_client"], calls)
    raw = statistics.median(per_call["raw_aiohttp_post"])
    variants_out = {
        name: {
            "cpu_us_per_call": round(statistics.median(values), 1),
            "cpu_us_per_call_runs": [round(v, 1) for v in values],
            "ratio_to_raw": round(statistics.median(values) / raw, 2),
            "calls_per_s": round(statistics.median(walls[name]), 1),
        }
        for name, values in per_call.items()
    }
    return {"variants": variants_out, "profile": profile}


def _service_requests(session: aiohttp.ClientSession, service: Proc) -> dict[str, Call]:
    """Variant name -> one request to the service (its answer's first value, for the check)."""

    def request(body: bytes) -> Call:
        async def call() -> str | None:
            async with session.post(
                service.base_url + "/v1/dynamic-params",
                data=body,
                headers={"Content-Type": "application/json"},
            ) as response:
                answer = await response.read()
            if response.status != 200:
                raise RuntimeError(f"the service answered {response.status}: {answer[:300]!r}")
            return answer.decode()

        return call

    return {name: request(body) for name, body in REQUESTS.items()}


async def _profile(call: Call, calls: int) -> dict[str, Any]:
    """cProfile of our client: own time by package, and the heaviest functions."""
    profiler = cProfile.Profile()
    profiler.enable()
    await _batch(call, calls)
    profiler.disable()
    stats = pstats.Stats(profiler)
    raw_stats: dict[Any, Any] = stats.stats  # type: ignore[attr-defined]
    total = sum(entry[2] for entry in raw_stats.values()) or 1e-9
    by_package: dict[str, float] = defaultdict(float)
    functions = []
    for (filename, line, func), (_, ncalls, tottime, _cumtime, _) in raw_stats.items():
        package = _package(filename)
        by_package[package] += tottime
        functions.append((tottime, f"{package}:{Path(filename).name}:{line}:{func}", ncalls))
    functions.sort(reverse=True)
    return {
        "note": "cProfile inflates small calls; read the shares, not the absolute times",
        "own_time_share_by_package": {
            k: round(v / total, 3)
            for k, v in sorted(by_package.items(), key=lambda kv: -kv[1])
            if v / total >= 0.005
        },
        "top_functions_own_us_per_llm_call": [
            {"function": name, "us_per_call": round(t * 1e6 / calls, 1), "ncalls": n}
            for t, name, n in functions[:20]
        ],
    }


def _package(filename: str) -> str:
    parts = Path(filename).parts
    if "site-packages" in parts:
        return parts[parts.index("site-packages") + 1].split(".")[0]
    for marker in ("resolver", "benchmarks"):
        if marker in parts:
            return marker
    if filename.startswith("<") or filename == "~":
        return "builtins"
    return "stdlib:" + Path(filename).stem


def plot_variants(variants: dict[str, dict[str, Any]], path: Path) -> None:
    """PNG: client CPU per call of each variant, with its runs."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = list(variants)
    fig, axis = plt.subplots(figsize=(9, 4))
    axis.barh(names, [variants[n]["cpu_us_per_call"] for n in names], color="tab:blue")
    for index, name in enumerate(names):
        runs = variants[name]["cpu_us_per_call_runs"]
        axis.plot(runs, [index] * len(runs), "k|", markersize=12)
        axis.annotate(
            f" ×{variants[name]['ratio_to_raw']}",
            (variants[name]["cpu_us_per_call"], index),
            va="center",
        )
    axis.invert_yaxis()
    axis.set_xlabel(
        f"CPU per LLM call or service request (µs), {CONCURRENCY} in flight; ticks = runs"
    )
    axis.set_title("llm-client: what one LLM call costs us")
    axis.grid(True, axis="x", alpha=0.3)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=90)
    plt.close(fig)


def llm_client(fake: Proc, out: Path, *, quick: bool) -> dict[str, Any]:
    """Run the comparison against a started fake; the PNG goes to `out`. The service runs on
    the fake's event loop (uvloop with `--uvloop`), logging at INFO as in production."""
    calls, repeats = (300, 3) if quick else (600, 5)
    # Logging as in production (JSON lines, batched): the client logs one line per call.
    configure_logging("INFO", "json", stream=open(os.devnull, "w"))  # noqa: SIM115
    settings = {
        "log_level": "INFO",
        "llm_cache_ttl_s": "0",  # every request must make its call
        "llm_base_url": fake.base_url + "/v1",
        "llm_api_key": "sk-bench",
    }
    argv = fake.popen.args
    uvloop = isinstance(argv, list) and "--uvloop" in argv
    with start_service(fake.log_path.parent, settings, uvloop=uvloop) as service:
        figures = asyncio.run(
            measure(fake.base_url + "/v1", calls=calls, repeats=repeats, service=service)
        )
    plot_variants(figures["variants"], out / "llm-client.png")
    variants = figures["variants"]
    raw = variants["raw_aiohttp_post"]["cpu_us_per_call"]
    call = variants["resolver_llm_client"]["cpu_us_per_call"]
    request = variants["service_1_call_request"]["cpu_us_per_call"]
    rules = variants["service_rules_only_request"]["cpu_us_per_call"]
    return {
        "method": (
            f"CPU per call of each client variant (time.process_time of the benchmark process) "
            f"and per request of the service (its process's user+sys CPU, psutil), {CONCURRENCY} "
            f"calls or requests in flight, {calls} per batch, {repeats} interleaved batches per "
            "variant, median; the fake (no latency) and the service run in their own processes; "
            "the service's LLM result cache is off. ratio_to_raw: against the raw aiohttp POST "
            "of the same run."
        ),
        "concurrency": CONCURRENCY,
        "raw_us_per_call": raw,
        "resolver_us_per_call": call,
        "ratio": variants["resolver_llm_client"]["ratio_to_raw"],
        "service_us_per_1_call_request": request,
        "service_us_per_rules_only_request": rules,
        "llm_part_of_request_us": round(request - rules, 1),
        "targets": {
            f"LLM call ≤ {TARGET_CALL_US} µs": call <= TARGET_CALL_US,
            f"1-call request ≤ {TARGET_REQUEST_US} µs": request <= TARGET_REQUEST_US,
        },
        **figures,
    }
