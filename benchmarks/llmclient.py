"""The `llm-client` scenario: client CPU per LLM call, our client against a raw aiohttp POST.

The fake runs in a subprocess with no latency, so this process's CPU (`time.process_time()`)
is the client side only. Every variant sends the same chat-completions body at the same
concurrency; batches of variants are interleaved and repeated, and the median batch counts.
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

from benchmarks.procs import Proc
from resolver.core.logs import configure_logging
from resolver.core.settings import Settings
from resolver.llm.client import LLMClient
from resolver.llm.limiter import LLMLimiter
from resolver.llm.prompts import load_prompts, user_message

CONCURRENCY = 8
MODEL = "gpt-4o-mini"
Call = Callable[[], Awaitable[str | None]]


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


async def measure(base_url: str, *, calls: int, repeats: int) -> dict[str, Any]:
    """µs of client CPU per call for each variant (median of interleaved batches)."""
    per_call: dict[str, list[float]] = defaultdict(list)
    walls: dict[str, list[float]] = defaultdict(list)
    async with Variants(base_url) as variants:
        table = variants.table()
        for call in table.values():
            await _batch(call, 100)  # connections, lazy imports, caches
        for _ in range(repeats):
            for name, call in table.items():
                cpu, wall = await _batch(call, calls)
                per_call[name].append(cpu * 1e6 / calls)
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
    axis.set_xlabel(f"client CPU per LLM call (µs), {CONCURRENCY} in flight; ticks = runs")
    axis.set_title("llm-client: what one LLM call costs the caller")
    axis.grid(True, axis="x", alpha=0.3)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=90)
    plt.close(fig)


def llm_client(fake: Proc, out: Path, *, quick: bool) -> dict[str, Any]:
    """Run the comparison against a started fake; the PNG goes to `out`."""
    calls, repeats = (300, 3) if quick else (600, 5)
    # Logging as in production (JSON lines, batched): the client logs one line per call.
    configure_logging("INFO", "json", stream=open(os.devnull, "w"))  # noqa: SIM115
    figures = asyncio.run(measure(fake.base_url + "/v1", calls=calls, repeats=repeats))
    plot_variants(figures["variants"], out / "llm-client.png")
    ours = figures["variants"]["resolver_llm_client"]
    raw = figures["variants"]["raw_aiohttp_post"]
    return {
        "method": (
            f"Client CPU (time.process_time of the benchmark process) per call, {CONCURRENCY} "
            f"calls in flight, {calls} calls per batch, {repeats} interleaved batches per "
            "variant, median; the fake (no latency) runs in its own process."
        ),
        "concurrency": CONCURRENCY,
        "raw_us_per_call": raw["cpu_us_per_call"],
        "resolver_us_per_call": ours["cpu_us_per_call"],
        "ratio": ours["ratio_to_raw"],
        **figures,
    }
