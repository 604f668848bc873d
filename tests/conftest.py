"""Shared fixtures: the scripted fake LLM on loopback and service clients wired to it."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import orjson
import pytest
from aiohttp.test_utils import TestClient, TestServer

from benchmarks.fake_llm import FakeLLM
from benchmarks.fake_upstreams import (
    DEMO_KN,
    DEMO_OPERATOR_ID,
    FakeOntologyManager,
    FakeOntologyQuery,
    FakeOperatorIntegration,
    demo_object_type,
    demo_operator,
)
from resolver.app import create_app
from resolver.settings import Settings

NOW_MS = 1_762_996_342_241  # 2025-11-13T09:12:22.241+08:00

ClientFactory = Callable[..., Awaitable[TestClient[Any, Any]]]


def metric(name: str = "approved_drug_count", *business: tuple[str, str]) -> dict[str, Any]:
    """A metric definition with the four time inputs, a property param and business inputs."""
    params: list[dict[str, Any]] = [
        {"name": n, "value_from": "input", "if_system_generate": True}
        for n in ("instant", "start", "end", "step")
    ]
    params.append({"name": "company_id", "value_from": "property"})
    params += [{"name": n, "type": t, "value_from": "input"} for n, t in business]
    return {"name": name, "type": "metric", "parameters": params}


def operator(name: str, *inputs: tuple[str, str]) -> dict[str, Any]:
    """An operator definition with typed inputs."""
    return {
        "name": name,
        "type": "operator",
        "parameters": [{"name": n, "type": t, "value_from": "input"} for n, t in inputs],
    }


def request_body(*properties: dict[str, Any], **fields: Any) -> dict[str, Any]:
    """A `/v1/dynamic-params` body with a fixed clock and timezone unless overridden."""
    body: dict[str, Any] = {
        "logic_properties": list(properties),
        "query": "最近3个月的药品数量趋势",
        "now_ms": NOW_MS,
        "timezone": "Asia/Shanghai",
    }
    body.update(fields)
    return body


async def post(client: TestClient[Any, Any], payload: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    """POST a body to /v1/dynamic-params; the status and the parsed JSON answer."""
    response = await client.post("/v1/dynamic-params", json=payload)
    return response.status, orjson.loads(await response.read())


@pytest.fixture
async def fake_llm(aiohttp_server: Any) -> FakeLLM:
    """A fresh fake LLM listening on loopback; `fake.url` is its OpenAI base URL."""
    fake = FakeLLM()
    server: TestServer = await aiohttp_server(fake.app())
    fake.url = str(server.make_url("/v1"))  # type: ignore[attr-defined]
    return fake


@pytest.fixture
def make_client(aiohttp_client: Any, fake_llm: FakeLLM) -> ClientFactory:
    """Build a service client; `llm=False` for rules-only, other kwargs become settings."""

    async def factory(*, llm: bool = True, **overrides: Any) -> TestClient[Any, Any]:
        values: dict[str, Any] = {"llm_api_key": "sk-test-SECRET-0123456789"}
        if llm:
            values["llm_base_url"] = fake_llm.url  # type: ignore[attr-defined]
        values.update(overrides)
        settings = Settings(**values)
        client: TestClient[Any, Any] = await aiohttp_client(create_app(settings))
        return client

    return factory


@dataclass
class KnFakes:
    """The three knowledge-network fakes, each on its own loopback server."""

    manager: FakeOntologyManager
    operators: FakeOperatorIntegration
    values: FakeOntologyQuery


@pytest.fixture
async def kn_fakes(aiohttp_server: Any) -> KnFakes:
    """Fresh fakes serving the demo object type and operator."""
    fakes = KnFakes(FakeOntologyManager(), FakeOperatorIntegration(), FakeOntologyQuery())
    for fake in (fakes.manager, fakes.operators, fakes.values):
        server: TestServer = await aiohttp_server(fake.app())
        fake.url = str(server.make_url("/")).rstrip("/")
    fakes.manager.add(DEMO_KN, demo_object_type())
    fakes.operators.operators[DEMO_OPERATOR_ID] = demo_operator()
    return fakes


@pytest.fixture
def make_kn_client(make_client: ClientFactory, kn_fakes: KnFakes) -> ClientFactory:
    """A service client wired to the fakes; kwargs override settings (`llm=False` too)."""

    async def factory(**overrides: Any) -> TestClient[Any, Any]:
        values: dict[str, Any] = {
            "ontology_manager_url": kn_fakes.manager.url,
            "operator_integration_url": kn_fakes.operators.url,
            "ontology_query_url": kn_fakes.values.url,
        }
        values.update(overrides)
        return await make_client(**values)

    return factory
