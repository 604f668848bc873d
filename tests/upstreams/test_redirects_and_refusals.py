"""Upstream redirects are not followed (issue 21, item 8) and an upstream's 4xx text stays out
of the logs (item 9): over real sockets, against loopback fakes."""

from __future__ import annotations

from typing import Any

import orjson
import pytest
import structlog
from aiohttp import web

from resolver.testing.fake_upstreams import Fault
from tests.helpers import ClientFactory, KnFakes, assert_error_shape, rules_pipeline_body

PIPELINE = "/api/agent-retrieval/in/v1/kn/logic-property-resolver"
TOKEN = "Bearer sk-caller-token-0123456789"


@pytest.mark.parametrize("status", [301, 302, 307, 308])
async def test_a_redirect_is_a_502_naming_it_and_is_not_followed(
    make_kn_client: ClientFactory, aiohttp_server: Any, status: int
) -> None:
    stolen: list[web.Request] = []

    async def steal(request: web.Request) -> web.Response:
        stolen.append(request)
        return web.json_response({"entries": []})

    thief = await aiohttp_server(_app(steal))
    target = str(thief.make_url("/elsewhere")) + "?token=secret-in-query"

    async def redirect(request: web.Request) -> web.Response:
        return web.Response(status=status, headers={"Location": target})

    redirector = await aiohttp_server(_app(redirect))
    client = await make_kn_client(llm=False, bkn_backend_url=str(redirector.make_url("/")))
    response = await client.post(
        PIPELINE,
        json=rules_pipeline_body(),
        headers={"x-account-id": "acct-1", "Authorization": TOKEN},
    )
    body = orjson.loads(await response.read())
    assert response.status == 502, body
    assert_error_shape(body, "UPSTREAM_ERROR")
    assert "redirect" in body["_error"]
    assert f"HTTP {status}" in body["_error"]
    assert "secret-in-query" not in body["_error"]
    # The target as it was named, its port included (issue 30: the port was dropped, so the
    # message named another service than the one the redirect pointed at).
    assert f"'http://127.0.0.1:{thief.port}/elsewhere'" in body["_error"]
    assert stolen == []  # no identity, no body went where it pointed


async def test_a_converted_upstream_4xx_logs_service_and_status_only(
    make_kn_client: ClientFactory, kn_fakes: KnFakes
) -> None:
    kn_fakes.values.fail(
        Fault(
            status=401,
            message=f"token {TOKEN} is not valid for this knowledge network",
            path_contains="/schema",
        )
    )
    client = await make_kn_client(llm=False)
    with structlog.testing.capture_logs() as logs:
        response = await client.post(
            PIPELINE, json=rules_pipeline_body(), headers={"Authorization": TOKEN}
        )
        await response.read()
    assert response.status >= 400
    warnings = [entry for entry in logs if entry["log_level"] in ("warning", "error")]
    assert warnings
    assert "sk-caller-token" not in repr(warnings)  # the old code logged it twice
    failed = [entry for entry in warnings if entry["event"] == "request.failed"]
    if failed:  # a 5xx: logged with the service and the upstream's status
        assert failed[0]["service"] == "ontology-query"
        assert failed[0]["upstream_status"] == 401


def _app(handler: Any) -> web.Application:
    app = web.Application()
    app.router.add_route("*", "/{tail:.*}", handler)
    return app
