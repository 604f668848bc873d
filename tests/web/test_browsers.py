"""Browsers are kept out of the MCP face (issue 21, item 7; SPEC §8): a foreign `Origin` is 403,
a `Host` that is not this service's is 403 while it listens on loopback (DNS rebinding), and a
POST that is not declared JSON is 415 — on the MCP paths and the MCP proxy; over real sockets."""

from __future__ import annotations

from typing import Any

import orjson
import pytest

from resolver.testing.fake_upstreams import DEMO_MCP_ID, DEMO_MCP_TOOL, add_demo_actions
from resolver.web.browsers import HOSTS_REMEMBERED
from tests.helpers import ClientFactory, KnFakes, assert_error_shape, post_as_browser_would
from tests.mcp_checks import initialize_message

MCP_PATHS = ["/mcp", "/api/agent-retrieval/v1/mcp", "/api/agent-retrieval/in/v1/mcp"]
PROXY = f"/api/agent-retrieval/in/v1/mcp/proxy/{DEMO_MCP_ID}/tools/{DEMO_MCP_TOOL}/call"
ARGUMENTS = {"company_id": "c1", "channel": "email", "message": {"title": "hi"}}
GUARDED = [*((p, initialize_message()) for p in MCP_PATHS), (PROXY, ARGUMENTS)]
IDS = ["mcp", "mcp-public", "mcp-in", "proxy"]
JSON = {"Content-Type": "application/json"}


@pytest.fixture(autouse=True)
def _demo_actions(kn_fakes: KnFakes) -> None:
    add_demo_actions(kn_fakes.values, kn_fakes.operators)


_post = post_as_browser_would


@pytest.mark.parametrize(("path", "body"), GUARDED, ids=IDS)
async def test_a_web_page_origin_is_refused(
    make_kn_client: ClientFactory, path: str, body: Any
) -> None:
    client = await make_kn_client(llm=False)
    status, answer = await _post(client, path, body, Origin="https://evil.example", **JSON)
    assert status == 403, answer
    assert_error_shape(answer, "FORBIDDEN")


@pytest.mark.parametrize(("path", "body"), GUARDED, ids=IDS)
async def test_an_allowed_origin_and_no_origin_are_served(
    make_kn_client: ClientFactory, path: str, body: Any
) -> None:
    client = await make_kn_client(llm=False, allowed_origins="https://console.example.com")
    status, answer = await _post(client, path, body, Origin="https://Console.example.com", **JSON)
    assert status == 200, answer
    status, answer = await _post(client, path, body, **JSON)
    assert status == 200, answer


@pytest.mark.parametrize(("path", "body"), GUARDED, ids=IDS)
@pytest.mark.parametrize(
    "content_type", [None, "text/plain", "application/x-www-form-urlencoded", "multipart/form-data"]
)
async def test_a_post_not_declared_json_is_415(
    make_kn_client: ClientFactory, path: str, body: Any, content_type: str | None
) -> None:
    client = await make_kn_client(llm=False)
    headers = {} if content_type is None else {"Content-Type": content_type}
    status, answer = await _post(client, path, body, **headers)
    assert status == 415, answer
    assert_error_shape(answer, "UNSUPPORTED_MEDIA_TYPE")


@pytest.mark.parametrize(("path", "body"), GUARDED, ids=IDS)
async def test_a_rebound_host_is_refused_on_loopback(
    make_kn_client: ClientFactory, path: str, body: Any
) -> None:
    client = await make_kn_client(llm=False)  # listens on 127.0.0.1 (the default host)
    status, answer = await _post(client, path, body, Host="attacker.example:8080", **JSON)
    assert status == 403, answer
    assert_error_shape(answer, "FORBIDDEN")


@pytest.mark.parametrize(
    ("host", "settings"),
    [
        ("localhost:8080", {}),
        ("127.0.0.1:9", {}),
        ("[::1]:8080", {}),
        ("resolver.example.com", {"public_url": "https://resolver.example.com/base"}),
        ("gateway.internal:8443", {"allowed_hosts": "gateway.internal:8443"}),
        ("attacker.example", {"host": "0.0.0.0"}),  # not on loopback: a proxy's business
    ],
    ids=["localhost", "loopback-ip", "v6-loopback", "public-url", "allowed-host", "not-loopback"],
)
async def test_hosts_of_this_service_are_served(
    make_kn_client: ClientFactory, host: str, settings: dict[str, str]
) -> None:
    client = await make_kn_client(llm=False, **settings)
    status, answer = await _post(client, PROXY, ARGUMENTS, Host=host, **JSON)
    assert status == 200, answer


async def test_other_routes_are_not_guarded(make_client: ClientFactory) -> None:
    client = await make_client(llm=False)
    response = await client.get("/healthz", headers={"Origin": "https://evil.example"})
    assert response.status == 200


@pytest.mark.parametrize(
    "path", ["/mcp/info", "/api/agent-retrieval/v1/mcp/info", "/api/agent-retrieval/in/v1/mcp/info"]
)
async def test_the_mcp_catalogue_is_guarded_too(make_client: ClientFactory, path: str) -> None:
    client = await make_client(llm=False)
    response = await client.get(path, headers={"Origin": "https://evil.example"})
    assert response.status == 403
    assert_error_shape(orjson.loads(await response.read()), "FORBIDDEN")
    response = await client.get(path, headers={"Host": "attacker.example"})
    assert response.status == 403
    response = await client.get(path)  # a GET needs no Content-Type
    assert response.status == 200


async def test_a_remembered_host_keeps_its_verdict_and_the_table_is_bounded(
    make_kn_client: ClientFactory,
) -> None:
    # The guard remembers each Host's verdict (issue 33): asked again, a refused name stays
    # refused and an allowed one allowed; names beyond the table's bound are checked in full.
    client = await make_kn_client(llm=False)
    for _ in range(2):
        assert (await _post(client, PROXY, ARGUMENTS, Host="attacker.example", **JSON))[0] == 403
        assert (await _post(client, PROXY, ARGUMENTS, Host="localhost:8080", **JSON))[0] == 200
    for n in range(HOSTS_REMEMBERED + 4):
        assert (await _post(client, PROXY, ARGUMENTS, Host=f"a{n}.example", **JSON))[0] == 403
        assert (await _post(client, PROXY, ARGUMENTS, Host=f"127.0.0.{n}:1", **JSON))[0] == 200


@pytest.mark.parametrize(
    "content_type", ["application/json", "Application/JSON", "application/json; charset=utf-8"]
)
async def test_json_is_json_in_any_case_and_with_parameters(
    make_kn_client: ClientFactory, content_type: str
) -> None:
    client = await make_kn_client(llm=False)
    status, answer = await _post(client, PROXY, ARGUMENTS, **{"Content-Type": content_type})
    assert status == 200, answer
