"""MCP against real service processes: two `resolver serve` replicas behind a round-robin
proxy (a session one replica issued is served by the other), and `resolver mcp` over stdio
driven by the `mcp` SDK's client, as a desktop agent would start it."""

from __future__ import annotations

import asyncio
import itertools
import sys
import tempfile
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import orjson
import pytest
from aiohttp import web
from kweaver.resources.context_loader import ContextLoaderResource
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client

from resolver.testing.fake_llm import FakeLLM, Reply
from resolver.testing.fake_upstreams import (
    DEMO_KN,
    DEMO_MCP_AT,
    DEMO_TOOL_AT,
    add_demo_actions,
)
from tests.helpers import NOW_MS, ROOT, KnFakes, clean_env, free_port, metric, request_body, serve
from tests.mcp_checks import (
    MCP_PATHS,
    TOOL_NAMES,
    call_message,
    error_body,
    initialize_message,
    kweaver,
    ok_body,
    post_jsonrpc,
    values_arguments,
)

pytestmark = pytest.mark.slow

METRIC = "approved_drug_count"
ASK = "请说明时间范围"
RETRY_CONTEXT = "start=2024-01-01；end=2024-03-31；step=month"
JAN_1_2024 = 1_704_038_400_000  # 2024-01-01T00:00:00+08:00
_PASSED_BACK = ("content-type", "mcp-session-id", "x-trace-id")


def upstream_env(kn_fakes: KnFakes) -> dict[str, str]:
    return {
        "RESOLVER_ONTOLOGY_MANAGER_URL": kn_fakes.manager.url,
        "RESOLVER_OPERATOR_INTEGRATION_URL": kn_fakes.operators.url,
        "RESOLVER_ONTOLOGY_QUERY_URL": kn_fakes.values.url,
    }


@dataclass
class RoundRobin:
    """A loopback reverse proxy sending each request to the next replica in turn."""

    backends: list[str]
    served: list[tuple[str, str, str | None]] = field(default_factory=list)

    def app(self) -> web.Application:
        turn = itertools.cycle(self.backends)

        async def forward(request: web.Request) -> web.Response:
            backend = next(turn)
            body = await request.read()
            headers = {k: v for k, v in request.headers.items() if k.lower() != "host"}
            async with (
                aiohttp.ClientSession() as session,
                session.request(
                    request.method, backend + request.path_qs, data=body, headers=headers
                ) as answer,
            ):
                payload = await answer.read()
                passed = {k: v for k, v in answer.headers.items() if k.lower() in _PASSED_BACK}
            self.served.append((backend, request.path, request.headers.get("mcp-session-id")))
            return web.Response(body=payload, status=answer.status, headers=passed)

        app = web.Application()
        app.router.add_route("*", "/{tail:.*}", forward)
        return app


@pytest.fixture(autouse=True)
def _fresh_session_cache() -> None:
    ContextLoaderResource.clear_session_cache()


async def test_a_session_issued_by_one_replica_is_served_by_another(
    fake: FakeLLM, kn_fakes: KnFakes, aiohttp_server: Any
) -> None:
    add_demo_actions(kn_fakes.values, kn_fakes.operators)
    front_port = free_port()
    # Behind a load balancer the replicas hand out its URL in MCP api_urls.
    env = {**upstream_env(kn_fakes), "RESOLVER_PUBLIC_URL": f"http://127.0.0.1:{front_port}"}
    async with serve(fake, **env) as first, serve(fake, **env) as second:
        proxy = RoundRobin([first.url, second.url])
        front = await aiohttp_server(proxy.app(), port=front_port)
        base_url = str(front.make_url("")).rstrip("/")

        def session_of_kweaver() -> list[Any]:
            with kweaver(base_url) as loader:
                return [
                    loader.list_tools(),
                    loader.get_logic_properties_values(
                        "ot_company",
                        "获批药品数量的趋势",
                        [{"company_id": "c1"}],
                        ["approved_drug_count"],
                        RETRY_CONTEXT,
                    ),
                    loader.get_action_info(DEMO_TOOL_AT, {"company_id": "c1"}),
                    loader.get_action_info(DEMO_MCP_AT, {"company_id": "c1"}),
                ]

        listed, valued, tool, mcp_tool = await asyncio.to_thread(session_of_kweaver)
        # Raw: initialize on one replica, then call the other with that session id.
        async with aiohttp.ClientSession() as session:
            status, headers, _ = await post_jsonrpc(
                session, first.url + MCP_PATHS[0], initialize_message()
            )
            issued = headers["mcp-session-id"]
            status, _, answer = await post_jsonrpc(
                session,
                second.url + MCP_PATHS[0],
                call_message(
                    2,
                    "get_action_info",
                    {"at_id": DEMO_TOOL_AT, "_instance_identity": {"company_id": "c1"}},
                ),
                {"Mcp-Session-Id": issued, "X-Kn-ID": DEMO_KN},
            )
    assert status == 200
    assert not answer["result"]["isError"]
    assert {t["name"] for t in listed["tools"]} == TOOL_NAMES
    assert valued["dynamic_params"]["approved_drug_count"]["start"] == JAN_1_2024
    assert tool["_dynamic_tools"][0]["name"] == "assess_company_risk"
    # The MCP action's api_url points at the load balancer, whichever replica answered.
    assert "_dynamic_tools" in mcp_tool, mcp_tool
    assert mcp_tool["_dynamic_tools"][0]["api_url"].startswith(f"http://127.0.0.1:{front_port}/")
    assert len([entry for entry in proxy.served if entry[2] is None]) == 1  # initialize
    sessions = {entry[2] for entry in proxy.served if entry[2] is not None}
    assert len(sessions) == 1  # the kweaver client kept the one id it was issued…
    assert {entry[0] for entry in proxy.served if entry[2] is not None} == {
        first.url,
        second.url,
    }  # …and both replicas served it


@pytest.fixture
async def stdio_env(fake: FakeLLM, kn_fakes: KnFakes) -> dict[str, str]:
    add_demo_actions(kn_fakes.values, kn_fakes.operators)
    return clean_env(
        RESOLVER_LLM_BASE_URL=fake.url,  # type: ignore[attr-defined]
        RESOLVER_LLM_API_KEY="sk-test",
        RESOLVER_LOG_FORMAT="json",
        **upstream_env(kn_fakes),
    )


async def test_stdio_for_a_desktop_agent(
    stdio_env: dict[str, str], kn_fakes: KnFakes, fake: FakeLLM
) -> None:
    fake.push(
        # The model finds no time range in the question: missing inputs, with its ask.
        Reply(
            content=orjson.dumps(
                {"_error": f"missing {METRIC}: start,end,step | ask: {ASK}"}
            ).decode()
        ),
        Reply(content='{"sales": {"region": "华东"}}'),
    )
    parameters = StdioServerParameters(
        command=sys.executable,
        args=["-m", "resolver", "mcp", "--kn-id", DEMO_KN, "--account-id", "desk-user"],
        env=stdio_env,
        cwd=ROOT,
    )
    with tempfile.TemporaryFile("w+") as stderr:
        async with Client(stdio_client(parameters, errlog=stderr), mode="legacy") as client:
            listed = await client.list_tools()
            first = await client.call_tool(
                "get_logic_properties_values", values_arguments("获批药品数量的趋势")
            )
            retry = await client.call_tool(
                "get_logic_properties_values",
                values_arguments("获批药品数量的趋势", additional_context=RETRY_CONTEXT),
            )
            resolved = await client.call_tool(
                "resolve_dynamic_params",
                request_body(metric("sales", ("region", "STRING")), query="华东最近3个月销量"),
            )
            no_public_url = await client.call_tool(
                "get_action_info", {"at_id": DEMO_MCP_AT, "_instance_identity": {"a": 1}}
            )
        stderr.seek(0)
        logs = stderr.read()
    assert {tool.name for tool in listed.tools} == TOOL_NAMES
    missing = error_body(first)
    assert missing["error_code"] == "MISSING_INPUT_PARAMS"
    assert missing["missing"][0]["ask"] == ASK
    assert [p["type"] for p in missing["missing"][0]["params"]] == ["integer", "integer", "string"]
    assert ok_body(retry)["dynamic_params"]["approved_drug_count"]["start"] == JAN_1_2024
    assert ok_body(resolved)["dynamic_params"]["sales"]["region"] == "华东"
    assert len(fake.calls) == 2  # the retry was settled in code
    failed = error_body(no_public_url)
    assert failed["error"]["code"] == "NOT_CONFIGURED"
    assert "RESOLVER_PUBLIC_URL" in failed["message"]
    assert kn_fakes.values.calls[-1].headers["x-account-id"] == "desk-user"
    assert '"event":"mcp.tool_call"' in logs  # logs go to stderr; stdout is the protocol


async def test_stdio_speaks_the_2026_protocol_too(stdio_env: dict[str, str]) -> None:
    parameters = StdioServerParameters(
        command=sys.executable, args=["-m", "resolver", "mcp"], env=stdio_env, cwd=ROOT
    )
    with tempfile.TemporaryFile("w+") as stderr:
        async with Client(stdio_client(parameters, errlog=stderr), mode="auto") as client:
            result = await client.call_tool(
                "resolve_dynamic_params",
                request_body(metric(), query="最近3个月的药品数量趋势", now_ms=NOW_MS),
            )
            no_kn = await client.call_tool("get_action_info", {"at_id": DEMO_TOOL_AT})
    assert ok_body(result)["dynamic_params"]["approved_drug_count"]["step"] == "month"
    assert "kn_id" in error_body(no_kn)["message"]
