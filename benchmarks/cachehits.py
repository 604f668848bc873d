"""`python -m benchmarks cache-hits [--save]`: hit rates of the LLM result cache.

In-process service (default cache: TTL 300 s, in-process LRU) against the fake LLM. Two
workloads:
- an agent's retry sequence: a 3-property question whose LLM call for one property times
  out (504); the agent resends the same request; then, after a 422, it resends with the
  `additional_context` the ask named;
- a load-test mix: 20 distinct questions (half need time values from the LLM, half only
  business inputs), 600 requests drawn at random, each stamped with the clock of its send
  time (`now_ms` advancing 100 ms per request, a minute per 600 requests).
The hit rate is cache hits (and calls that joined an identical call in flight) over LLM calls
asked for; the fake counts the calls that reached it.
"""

from __future__ import annotations

import argparse
import asyncio
import random
from typing import Any

import orjson
from aiohttp import ClientSession
from aiohttp.test_utils import TestServer

from benchmarks.bodies import operator
from benchmarks.load import write_json
from benchmarks.results_dir import add_save_flag, results_dir
from resolver.core.settings import Settings
from resolver.testing.fake_llm import Call, FakeLLM, Reply, plausible
from resolver.web.app import create_app

NOW_MS = 1_762_996_342_241


def _metric(name: str, *business: tuple[str, str]) -> dict[str, Any]:
    params: list[dict[str, Any]] = [
        {"name": n, "value_from": "input", "if_system_generate": True}
        for n in ("instant", "start", "end", "step")
    ]
    params += [{"name": n, "type": t, "value_from": "input"} for n, t in business]
    return {"name": name, "type": "metric", "parameters": params}


class Counts:
    """Cache look-ups seen in /metrics, and calls that reached the fake."""

    def __init__(self, fake: FakeLLM) -> None:
        self.fake = fake

    async def snapshot(self, session: ClientSession, base: str) -> dict[str, float]:
        async with session.get(f"{base}/metrics") as response:
            text = (await response.read()).decode()
        found = {"hit": 0.0, "miss": 0.0, "shared": 0.0}
        for line in text.splitlines():
            if line.startswith("resolver_llm_cache_lookups_total{"):
                result = line.split('result="', 1)[1].split('"', 1)[0]
                found[result] = float(line.rsplit(" ", 1)[1])
        found["calls_reaching_the_llm"] = float(self.fake.counts["calls"])
        return found


def _delta(after: dict[str, float], before: dict[str, float]) -> dict[str, Any]:
    diff: dict[str, Any] = {k: int(after[k] - before.get(k, 0)) for k in after}
    asked = diff["hit"] + diff["miss"] + diff["shared"]
    diff["hit_rate"] = round((diff["hit"] + diff["shared"]) / asked, 3) if asked else None
    return diff


async def agent_sequence(session: ClientSession, base: str, counts: Counts) -> dict[str, Any]:
    """504 on one property, the identical retry; then a 422 and the retry with context."""
    url = f"{base}/v1/dynamic-params"
    props = [
        _metric("drug_count", ("drug_type", "STRING")),
        _metric("drug_sales", ("region", "STRING")),
        operator("is_high_risk", ("threshold", "NUMBER")),
    ]
    first = {
        "logic_properties": props,
        "query": "当前抗肿瘤药品数量、华东地区销售额，以及是否高风险",
        "now_ms": NOW_MS,
        "timezone": "Asia/Shanghai",
    }
    steps: list[dict[str, Any]] = []
    hang_once = {"left": 1}

    def responder(call: Call) -> Reply:
        if call.property_name == "is_high_risk" and hang_once["left"]:
            hang_once["left"] -= 1
            return Reply(hang=True)
        if call.property_name == "is_high_risk":  # the question names no threshold
            return Reply(
                content='{"_error": "missing is_high_risk: threshold | ask: 阈值是多少？"}'
            )
        return plausible(call)

    counts.fake.respond(responder)
    counts.fake.faults = counts.fake.faults.__class__(hang_s=60)
    with_context = {**first, "additional_context": "threshold=0.8"}
    bodies = [
        ("first ask (one LLM call hangs: 504)", first),
        ("identical retry after the 504 (the model now asks for the threshold: 422)", first),
        ("retry with additional_context threshold=0.8", with_context),
        ("the same retry again (e.g. the agent's own retry loop)", with_context),
    ]
    total_before = await counts.snapshot(session, base)
    for label, body in bodies:
        before = await counts.snapshot(session, base)
        async with session.post(url, json=body) as response:
            status = response.status
            await response.read()
        steps.append(
            {
                "step": label,
                "status": status,
                **_delta(await counts.snapshot(session, base), before),
            }
        )
    return {"steps": steps, "total": _delta(await counts.snapshot(session, base), total_before)}


def _mix() -> list[dict[str, Any]]:
    questions: list[dict[str, Any]] = []
    regions = ["华东", "华南", "华北", "西南", "东北"]
    kinds = ["抗肿瘤", "心血管", "抗感染", "消化", "呼吸"]
    for index in range(10):
        # Time values and a business input from the LLM (no time cue the rules settle).
        questions.append({
            "logic_properties": [_metric("drug_sales", ("region", "STRING"))],
            "query": f"近期{regions[index % 5]}地区的药品销售走势 {index}",
        })  # fmt: skip
        # Only a business input from the LLM ("当前" settles the time in code).
        questions.append({
            "logic_properties": [_metric("drug_count", ("drug_type", "STRING"))],
            "query": f"当前{kinds[index % 5]}药品的获批数量 {index}",
        })  # fmt: skip
    return questions


async def load_mix(session: ClientSession, base: str, counts: Counts) -> dict[str, Any]:
    """600 requests over 20 questions, each with the clock of its send time."""
    counts.fake.respond(plausible)
    questions = _mix()
    rng = random.Random(14)
    before = await counts.snapshot(session, base)
    statuses: dict[str, int] = {}
    for index in range(600):
        body = {
            **rng.choice(questions),
            "now_ms": NOW_MS + index * 100,
            "timezone": "Asia/Shanghai",
        }
        async with session.post(f"{base}/v1/dynamic-params", json=body) as response:
            statuses[str(response.status)] = statuses.get(str(response.status), 0) + 1
            await response.read()
    return {"requests": 600, "distinct_questions": len(questions), "statuses": statuses,
            **_delta(await counts.snapshot(session, base), before)}  # fmt: skip


async def measure() -> dict[str, Any]:
    """Both workloads, each on a fresh service and fake."""
    results: dict[str, Any] = {}
    for name, workload in (("agent_retry_sequence", agent_sequence), ("load_test_mix", load_mix)):
        fake = FakeLLM(keep_calls=False)
        fake_server = TestServer(fake.app(), host="127.0.0.1")
        await fake_server.start_server()
        settings = Settings(
            llm_base_url=str(fake_server.make_url("/v1")),
            request_timeout_s=1.0,
            llm_timeout_s=0.5,
            llm_max_attempts=1,
        )
        service = TestServer(create_app(settings), host="127.0.0.1")
        await service.start_server()
        try:
            async with ClientSession() as session:
                base = str(service.make_url("")).rstrip("/")
                results[name] = await workload(session, base, Counts(fake))
        finally:
            await service.close()
            await fake_server.close()
    return results


def main(argv: list[str]) -> int:
    """Run both workloads; print and write `cache-hits.json`."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks cache-hits", description=__doc__)
    add_save_flag(parser)
    args = parser.parse_args(argv)
    results = asyncio.run(measure())
    result = {"scenario": "cache-hits", "method": __doc__, **results}
    write_json(result, results_dir(args.save) / "cache-hits.json")
    print(orjson.dumps(results, option=orjson.OPT_INDENT_2).decode())
    return 0
