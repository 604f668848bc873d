"""`make demo` (`python -m resolver.testing.demo`) as a new user runs it: one command, and the
README's MCP example — which reads the knowledge network and needs the fakes — answers; the
unknown-variable warning of start-up is in its log; SIGTERM stops it."""

from __future__ import annotations

import asyncio
import signal
import sys

import aiohttp
import orjson

from tests.helpers import ROOT, clean_env, free_port

_MCP_CALL = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "tools/call",
    "params": {
        "name": "get_logic_properties_values",
        "arguments": {
            "ot_id": "ot_company",
            "query": "当前的获批药品数量",
            "properties": ["approved_drug_count"],
            "_instance_identities": [{"company_id": "company_000001"}],
        },
    },
}


async def test_make_demo_answers_the_readme_mcp_example() -> None:
    port, llm_port, upstreams_port = free_port(), free_port(), free_port()
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "resolver.testing.demo",
        *("--port", str(port), "--llm-port", str(llm_port)),
        *("--upstreams-port", str(upstreams_port)),
        cwd=ROOT,
        env=clean_env(RESOLVER_LOG_FORMAT="json", RESOLVER_LLM_QSP="5"),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    try:
        async with aiohttp.ClientSession() as session:
            for _ in range(300):
                try:
                    async with session.get(f"http://127.0.0.1:{port}/readyz") as ready:
                        if ready.status == 200:
                            break
                except aiohttp.ClientConnectionError:
                    pass
                await asyncio.sleep(0.1)
            async with session.post(
                f"http://127.0.0.1:{port}/mcp",
                json=_MCP_CALL,
                headers={"Accept": "application/json, text/event-stream", "X-Kn-ID": "kn_pharma"},
            ) as response:
                assert response.status == 200
                body = orjson.loads(await response.read())
        result = body["result"]
        assert result["isError"] is False, result
        content = result["structuredContent"]
        assert content["dynamic_params"] == {"approved_drug_count": {"instant": True}}
        assert content["datas"][0]["company_id"] == "company_000001"
    finally:
        process.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(process.wait(), 30) == 0
    assert process.stdout is not None
    log = [
        orjson.loads(line)
        for line in (await process.stdout.read()).splitlines()
        if line[:1] == b"{"
    ]
    warned = [line for line in log if line["event"] == "resolver.unknown_variable"]
    assert [(w["variable"], w["closest"]) for w in warned] == [
        ("RESOLVER_LLM_QSP", "RESOLVER_LLM_QPS")
    ]
    assert any(line["event"] == "resolver.started" and line["mode"] == "llm" for line in log)
