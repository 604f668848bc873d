"""Fixtures of the LLM tests: a second fake LLM, the fallback endpoint."""

from __future__ import annotations

from typing import Any

import pytest
from aiohttp.test_utils import TestServer

from resolver.testing.fake_llm import FakeLLM


@pytest.fixture
async def fallback_llm(aiohttp_server: Any) -> FakeLLM:
    """A second fake on loopback: the fallback endpoint (`fake.url`: its base URL)."""
    fake = FakeLLM()
    server: TestServer = await aiohttp_server(fake.app())
    fake.url = str(server.make_url("/v1"))  # type: ignore[attr-defined]
    return fake
