"""The benchmark tools work: the fake's latency, faults and gateway; the load generator."""

from __future__ import annotations

import asyncio
import math
import random
import sys
from pathlib import Path
from typing import Any

import aiohttp
import orjson
import pytest
from aiohttp import web
from aiohttp.test_utils import TestServer

from benchmarks import bodies
from benchmarks.load import LoadConfig, LoadResult, Sample, run_load
from resolver.testing.fake_llm import FakeLLM, Faults, Gateway, Latency


def chat_body(query: str = "当前药品数量") -> bytes:
    task = {"logic_property": {"name": "p"}, "generate": ["step"], "query": query}
    message = {"role": "user", "content": orjson.dumps(task).decode()}
    return orjson.dumps({"model": "m", "messages": [message]})


async def post_many(url: str, count: int, concurrency: int = 8) -> list[tuple[int, dict[str, str]]]:
    out: list[tuple[int, dict[str, str]]] = []
    timeout = aiohttp.ClientTimeout(total=0.5)
    semaphore = asyncio.Semaphore(concurrency)
    async with aiohttp.ClientSession(timeout=timeout) as session:

        async def one() -> None:
            async with semaphore:
                try:
                    async with session.post(url, data=chat_body()) as response:
                        await response.read()
                        out.append((response.status, dict(response.headers)))
                except TimeoutError:
                    out.append((0, {}))

        await asyncio.gather(*(one() for _ in range(count)))
    return out


def test_lognormal_latency_hits_its_percentiles() -> None:
    latency = Latency(p50_s=0.2, p99_s=1.0)
    rng = random.Random(3)  # noqa: S311 - latency draws, not secrets
    draws = sorted(latency.sample(rng) for _ in range(20_000))
    assert draws[len(draws) // 2] == pytest.approx(0.2, rel=0.05)
    assert draws[int(len(draws) * 0.99)] == pytest.approx(1.0, rel=0.1)
    assert Latency(0.2).sample(rng) == 0.2


@pytest.mark.parametrize(
    "kwargs",
    [
        pytest.param({"p50_s": -1.0}, id="negative"),
        pytest.param({"p50_s": 0.5, "p99_s": 0.1}, id="p99-below-p50"),
    ],
)
def test_latency_rejects_nonsense(kwargs: dict[str, Any]) -> None:
    with pytest.raises(ValueError, match="latency"):
        Latency(**kwargs)


def test_fault_rates_must_fit() -> None:
    with pytest.raises(ValueError, match="rates"):
        Faults(rate_429=0.6, rate_5xx=0.6)


def test_gateway_window_slides() -> None:
    gateway = Gateway(qps=2)
    assert gateway.admit(10.0) is None
    assert gateway.admit(10.5) is None
    wait = gateway.admit(10.6)
    assert wait == pytest.approx(0.4)
    assert gateway.admit(11.0) is None  # the call at 10.0 left the window


async def test_fake_injects_faults_and_counts_them(aiohttp_server: Any) -> None:
    fake = FakeLLM(
        faults=Faults(
            rate_429=0.2, retry_after_s=2, rate_5xx=0.2, rate_malformed=0.2, rate_hang=0.1, hang_s=5
        ),
        seed=11,
        keep_calls=False,
    )
    server: TestServer = await aiohttp_server(fake.app())
    replies = await post_many(str(server.make_url("/v1/chat/completions")), 100)
    counts = fake.stats()["counts"]
    assert counts["calls"] == 100
    statuses = [s for s, _ in replies]
    assert statuses.count(429) == counts["fault_429"] > 0
    assert statuses.count(503) == counts["fault_5xx"] > 0
    assert statuses.count(0) == counts["fault_hang"] > 0  # the client gave up waiting
    assert counts["fault_malformed"] > 0
    assert (
        statuses.count(200)
        == 100 - counts["fault_429"] - counts["fault_5xx"] - counts["fault_hang"]
    )
    limited = next(h for s, h in replies if s == 429)
    assert limited["Retry-After"] == "2"
    assert limited["retry-after-ms"] == "2000"
    assert fake.calls == []


async def test_fake_gateway_answers_429_above_its_rate(aiohttp_server: Any) -> None:
    fake = FakeLLM(gateway_qps=10, latency_s=0.01)
    server: TestServer = await aiohttp_server(fake.app())
    replies = await post_many(str(server.make_url("/v1/chat/completions")), 30)
    statuses = [s for s, _ in replies]
    assert statuses.count(200) == 10
    assert statuses.count(429) == 20
    assert fake.stats()["counts"]["gateway_429"] == 20
    waits = [float(h["retry-after-ms"]) for s, h in replies if s == 429]
    assert all(0 < w <= 1000 for w in waits)
    async with aiohttp.ClientSession() as session:
        async with session.get(server.make_url("/_fake/stats?timings=1")) as response:
            stats = await response.json()
        assert len(stats["timings"]) == 10
        assert stats["timings"][0][0] == "当前药品数量"
        async with session.post(server.make_url("/_fake/reset")) as response:
            assert response.status == 200
    assert fake.stats()["counts"] == {}


async def test_fake_answers_the_service_plausibly(aiohttp_server: Any) -> None:
    fake = FakeLLM()
    server: TestServer = await aiohttp_server(fake.app())
    task = {
        "logic_property": {"name": "drug_count", "parameters": [{"name": "n", "type": "INTEGER"}]},
        "generate": ["start", "end", "step", "n"],
        "query": "q",
    }
    body = {"model": "m", "messages": [{"role": "user", "content": orjson.dumps(task).decode()}]}
    async with (
        aiohttp.ClientSession() as session,
        session.post(server.make_url("/v1/chat/completions"), json=body) as response,
    ):
        payload = await response.json()
    answer = orjson.loads(payload["choices"][0]["message"]["content"])
    assert answer == {"drug_count": {"start": "now-3M", "end": "now", "step": "month", "n": 1}}
    assert payload["usage"]["total_tokens"] > 0


def test_load_summary_counts_statuses_and_percentiles() -> None:
    config = LoadConfig(url="http://127.0.0.1:1/", warmup_s=1.0)
    samples = [Sample(0, 0.5, 0.010, 200, None, None)]  # warm-up
    samples += [Sample(i, 1.0 + i / 100, 0.001 * (i + 1), 200, None, None) for i in range(1, 99)]
    samples += [
        Sample(99, 1.99, 0.5, 422, None, "MISSING_PARAMS"),
        Sample(100, 1.995, 0.2, 0, "timeout", None),
    ]
    summary = LoadResult(config, samples, elapsed_s=2.5).summary()
    assert summary["warmup_requests"] == 1
    assert summary["requests"] == 100
    assert summary["ok"] == 98
    assert summary["status"] == {"200": 98, "422": 1}
    assert summary["errors"] == {"timeout": 1}
    assert summary["codes"] == {"422 MISSING_PARAMS": 1}
    assert summary["latency_ok_ms"]["p50"] == pytest.approx(50, abs=1)
    assert summary["latency_ms"]["max"] == pytest.approx(500, rel=0.01)


async def test_load_generator_open_loop_keeps_its_rate(aiohttp_server: Any) -> None:
    fake = FakeLLM(latency_s=0.05)
    server: TestServer = await aiohttp_server(fake.app())
    config = LoadConfig(
        url=str(server.make_url("/v1/chat/completions")),
        bodies=[chat_body("q #{{seq}}")],
        rate=100,
        duration_s=0.5,
    )
    result = await run_load(config)
    summary = result.summary()
    assert summary["requests"] == 50
    assert summary["ok"] == 50
    assert {q for q, _ in fake.timings} == {f"q #{i}" for i in range(50)}
    assert summary["latency_ms"]["p50"] >= 50


async def test_load_command_writes_json_and_png(aiohttp_server: Any, tmp_path: Path) -> None:
    fake = FakeLLM(latency_s=0.005, faults=Faults(rate_5xx=0.1), seed=5)
    server: TestServer = await aiohttp_server(fake.app())
    out_json, out_png, body = tmp_path / "r.json", tmp_path / "r.png", tmp_path / "b.json"
    body.write_bytes(chat_body())
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "benchmarks", "load",
        str(server.make_url("/v1/chat/completions")),
        "--body", str(body), "-c", "4", "-d", "1", "--warmup", "0.2",
        "--json", str(out_json), "--png", str(out_png), "--no-progress",
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )  # fmt: skip
    output, _ = await asyncio.wait_for(process.communicate(), timeout=30)
    assert process.returncode == 0, output.decode()
    result = orjson.loads(out_json.read_bytes())
    assert result["requests"] > 20
    assert set(result["status"]) == {"200", "503"}
    assert 0.7 < result["success_rate"] < 1
    assert result["latency_ms"]["p50"] >= 5
    assert set(result["latency_ms"]) == {"p50", "p90", "p99", "p99.9", "max", "mean"}
    assert math.isclose(sum(result["status"].values()), result["requests"])
    assert out_png.read_bytes().startswith(b"\x89PNG")
    assert b"requests in" in output


def test_load_command_refuses_remote_targets(capsys: pytest.CaptureFixture[str]) -> None:
    from benchmarks.load import main

    with pytest.raises(SystemExit):
        main(["http://192.0.2.1/x", "-n", "1"])
    assert "not loopback" in capsys.readouterr().err


def test_scenario_bodies_are_valid_requests() -> None:
    from resolver.params.models import ResolveRequest

    for _, _, raw in bodies.RULES_BODIES:
        ResolveRequest.model_validate_json(raw)
    ResolveRequest.model_validate_json(bodies.overhead_body())
    request = ResolveRequest.model_validate_json(bodies.fanout_body(16, 4))
    assert len(request.logic_properties) == 16


def test_the_bombs_are_what_they_claim() -> None:
    import zlib

    from resolver.testing.bombs import gzip_bomb, json_of_size

    bomb = gzip_bomb(64 << 10)
    assert 60 << 10 <= len(bomb) <= 68 << 10
    inflated = zlib.decompressobj(31).decompress(bomb, 80 << 20)
    assert len(inflated) >= 50 << 20  # about 1,000 times its size
    assert set(inflated) == {0}
    document = json_of_size(5000)
    assert len(document) == 5000
    assert orjson.loads(document)["isError"] is False


def test_where_counts_a_sample_once_per_part_it_passes() -> None:
    from benchmarks.where import _shares

    raw = "\n".join(
        [
            (
                "run (web_protocol.py:1);ParamsService.resolve (resolver/params/service.py:9);"
                "settle_both (resolver/timeexpr/settle.py:3);"
                "outcome (resolver/timeexpr/settle.py:4) 3"
            ),
            "run (web_protocol.py:1);BaseModel.model_validate_json (pydantic/main.py:847) 2",
            "run (web_protocol.py:1);AccessLog.request (resolver/core/logs.py:164) 1",
            "run (web_protocol.py:1) 4",
        ]
    )
    total, parts = _shares(raw)
    assert total == 10
    assert parts["time scanner"] == 3  # two scanner frames, one sample of three
    assert parts["resolution"] == 3
    assert parts["request validation"] == 2
    assert parts["access line"] == 1
    assert parts["metrics"] == 0


def test_make_bench_fails_when_a_target_is_missed(capsys: pytest.CaptureFixture[str]) -> None:
    from benchmarks.run import exit_status

    met = {"scenario": "rules", "targets": {">=2000 rps": True}}
    missed = {"scenario": "overhead", "targets": {"p50<=3 ms": False, "p99<=15 ms": True}}
    assert exit_status([met], fail=True) == 0
    assert exit_status([met, missed], fail=True) == 1
    assert "overhead: p50<=3 ms" in capsys.readouterr().err
    assert exit_status([met, missed], fail=False) == 0  # --no-fail: the old behaviour
    assert "overhead: p50<=3 ms" in capsys.readouterr().err


LOAD_BODIES = Path(__file__).resolve().parents[2] / "benchmarks" / "load-bodies"


@pytest.mark.parametrize(
    ("name", "raw"),
    [
        ("llm-one-call.json", bodies.overhead_body()),
        ("llm-four-calls.json", bodies.fanout_body(4, 4)),
        ("rules-only.json", next(b for n, _, b in bodies.RULES_BODIES if n == "instant-word")),
    ],
)
def test_the_shipped_load_bodies_are_the_scenarios_own(name: str, raw: bytes) -> None:
    shipped = orjson.loads((LOAD_BODIES / name).read_bytes())
    assert shipped == orjson.loads(raw)
    # The LLM bodies vary per request, so the LLM's result cache cannot answer them.
    assert ("{{seq}}" in shipped["query"]) is name.startswith("llm-")


async def test_the_llm_load_body_is_a_new_question_each_request(aiohttp_server: Any) -> None:
    queries: list[str] = []

    async def record(request: web.Request) -> web.Response:
        queries.append((await request.json())["query"])
        return web.json_response({})

    app = web.Application()
    app.router.add_post("/v1/dynamic-params", record)
    server: TestServer = await aiohttp_server(app)
    config = LoadConfig(
        url=str(server.make_url("/v1/dynamic-params")),
        bodies=[(LOAD_BODIES / "llm-one-call.json").read_bytes()],
        concurrency=4,
        max_requests=60,
        duration_s=30,
    )
    await run_load(config)
    assert len(queries) == 60
    assert len(set(queries)) == 60
