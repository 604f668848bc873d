"""Issue 14.7: the service against a real OpenAI-compatible server (llama.cpp through
llama-cpp-python, Gemma 3 270M). Slow: run by `make test-llm`, skipped elsewhere."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from benchmarks.realllm import CASES, MODES, _body, run_case
from resolver.testing.llama_server import LlamaServer, configured, llama_server
from resolver.web.servicekeys import SERVICES_KEY
from tests.helpers import ClientFactory, assert_error_shape

pytestmark = [
    pytest.mark.real_llm,
    pytest.mark.skipif(configured() is None, reason="run by `make test-llm`"),
]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LlamaServer]:
    """One llama.cpp server for the module."""
    found = configured()
    assert found is not None
    log: Path = tmp_path_factory.mktemp("llama") / "server.log"
    with llama_server(*found, log) as running:
        yield running


async def _client(make_client: ClientFactory, server: LlamaServer, **settings: Any) -> Any:
    values: dict[str, Any] = {
        "llm_base_url": server.base_url,
        "llm_model": server.model,
        "llm_timeout_s": 120,
        "request_timeout_s": 300,
        "llm_max_tokens": 256,
        "llm_system_prompt": "user",  # Gemma has no system role
    }
    values.update(settings)
    return await make_client(**values)


@pytest.mark.parametrize("mode", list(MODES))
async def test_each_mode_is_accepted_usage_reported_and_constrained_answers_fit(
    make_client: ClientFactory, server: LlamaServer, mode: str
) -> None:
    client = await _client(make_client, server, **MODES[mode])
    url = str(client.make_url("/v1/dynamic-params"))
    async with aiohttp.ClientSession() as session:
        rows = [await run_case(session, url, case) for case in CASES[:4]]
    for row in rows:
        # The server took the request (no HTTP error from it) and the service answered.
        assert row["status"] in (200, 422, 502), row
        assert "HTTP 4" not in (row["error"] or ""), row
        assert "HTTP 5" not in (row["error"] or ""), row
        assert row["usage"]["prompt_tokens"] > 0, row
        assert row["usage"]["completion_tokens"] > 0, row
        if mode == "json_schema":
            assert row["schema_valid"] is True, row  # constrained decoding holds
            assert row["status"] in (200, 422), row


async def test_a_real_server_slower_than_the_timeout_is_a_504(
    make_client: ClientFactory, server: LlamaServer
) -> None:
    client = await _client(
        make_client, server, llm_timeout_s=0.05, llm_max_attempts=1, request_timeout_s=5
    )
    began = time.monotonic()
    response = await client.post("/v1/dynamic-params", json=_body(CASES[0]))
    assert response.status == 504
    assert_error_shape(await response.json(), "LLM_TIMEOUT")
    assert time.monotonic() - began < 2


async def test_hanging_up_on_a_real_server_call_leaves_nothing_behind(
    make_client: ClientFactory, server: LlamaServer
) -> None:
    client = await _client(make_client, server, **MODES["json_schema"])
    request = asyncio.ensure_future(client.post("/v1/dynamic-params", json=_body(CASES[0])))
    await asyncio.sleep(0.3)
    request.cancel()
    with pytest.raises(asyncio.CancelledError):
        await request
    limiter = client.app[SERVICES_KEY].params.llm.limiter
    for _ in range(100):
        if not limiter.inflight and not limiter.pending:
            break
        await asyncio.sleep(0.05)
    assert limiter.inflight == 0
    # The server is still usable for the next request.
    response = await client.post("/v1/dynamic-params", json=_body(CASES[1]))
    assert response.status in (200, 422)
