"""Shared fixtures: the scripted fake LLM on loopback and service clients wired to it."""

from __future__ import annotations

from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer

from resolver.core.settings import Settings
from resolver.testing.fake_llm import FakeLLM
from resolver.testing.fake_upstreams import (
    DEMO_KN,
    DEMO_OPERATOR_ID,
    FakeBknBackend,
    FakeOntologyQuery,
    FakeOperatorIntegration,
    demo_object_type,
    demo_operator,
    grant_all,
)
from resolver.web.app import create_app
from tests.helpers import ClientFactory, KnFakes


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
        # Tests script the fake call by call, so the result cache is off unless a test asks
        # for it (tests/llm/test_cache.py).
        values: dict[str, Any] = {"llm_api_key": "sk-test-SECRET-0123456789", "llm_cache_ttl_s": 0}
        if llm:
            values["llm_base_url"] = fake_llm.url  # type: ignore[attr-defined]
        values.update(overrides)
        settings = Settings(**values)
        client: TestClient[Any, Any] = await aiohttp_client(create_app(settings))
        return client

    return factory


@pytest.fixture
async def kn_fakes(aiohttp_server: Any) -> KnFakes:
    """Fresh fakes serving the demo object type and operator; every caller may see all of it
    (tests restrict `values.plans` to take permissions away)."""
    fakes = KnFakes(FakeBknBackend(), FakeOperatorIntegration(), FakeOntologyQuery())
    for fake in (fakes.manager, fakes.operators, fakes.values):
        server: TestServer = await aiohttp_server(fake.app())
        fake.url = str(server.make_url("/")).rstrip("/")
    fakes.manager.add(DEMO_KN, demo_object_type())
    fakes.operators.operators[DEMO_OPERATOR_ID] = demo_operator()
    grant_all(fakes.values, fakes.manager)
    return fakes


@pytest.fixture
def make_kn_client(make_client: ClientFactory, kn_fakes: KnFakes) -> ClientFactory:
    """A service client wired to the fakes; kwargs override settings (`llm=False` too)."""

    async def factory(**overrides: Any) -> TestClient[Any, Any]:
        values: dict[str, Any] = {
            "bkn_backend_url": kn_fakes.manager.url,
            "operator_integration_url": kn_fakes.operators.url,
            "ontology_query_url": kn_fakes.values.url,
        }
        values.update(overrides)
        return await make_client(**values)

    return factory


@pytest.fixture
def fake(fake_llm: FakeLLM) -> FakeLLM:
    """The fake LLM, under the short name the subprocess tests use."""
    return fake_llm
