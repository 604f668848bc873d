"""`Accept-Language` (zh-CN / en-US, q-values) chooses the language of asks, hints and `_error`;
without it the query's language decides the asks, as before, and `_error` stays English."""

from __future__ import annotations

import re
from typing import Any

import orjson
import pytest

from resolver.core.errors import BadRequest, MissingParams, ResolverError, UpstreamError
from resolver.core.languages import ZH_DESCRIPTIONS, accept_language, error_line
from resolver.testing.fake_llm import FakeLLM, Reply
from resolver.testing.fake_upstreams import DEMO_KN, DEMO_OT
from tests.helpers import ClientFactory, metric, operator, post, request_body
from tests.mcp_checks import call_tool

CJK = re.compile(r"[\u3400-\u9fff]")
PIPELINE = "/api/agent-retrieval/in/v1/kn/logic-property-resolver"


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        (None, None),
        ("", None),
        ("zh-CN", "zh"),
        ("zh", "zh"),
        ("zh-Hans-CN", "zh"),
        ("zh_Hans", "zh"),
        ("en-US", "en"),
        ("en-GB", "en"),
        ("EN", "en"),
        ("fr-FR", None),
        ("*", None),
        ("zh-TW", None),
        ("zh-Hant", None),
        ("zh-HK, en;q=0.5", "en"),
        ("en-US,zh-CN;q=0.9", "en"),
        ("zh-CN;q=0.4, en-US;q=0.8", "en"),
        ("en;q=0.5, zh;q=0.5", "en"),  # a tie: the earlier range
        ("en;q=0, zh-CN", "zh"),  # q=0: not this one
        ("en;q=0", None),
        ("en;q=1.5, zh;q=0.2", "zh"),  # a malformed weight drops its range
        ("en;q=0.1234, zh;q=0.2", "zh"),  # over-precise
        ("en;q=-1, zh;q=0.2", "zh"),
        ("en;q=nan, zh;q=0.2", "zh"),
        ("en;q=1e0, zh;q=0.2", "zh"),
        ("en ; q=0.9 , fr;q=1", "en"),
    ],
)
def test_accept_language(header: str | None, expected: str | None) -> None:
    assert accept_language(header) == expected


def test_error_line() -> None:
    error = UpstreamError("ontology-query answered HTTP 500", service="ontology-query")
    assert error_line(error, None) == "ontology-query answered HTTP 500"
    assert error_line(error, "en") == "ontology-query answered HTTP 500"
    assert error_line(error, "zh") == "上游服务调用失败：ontology-query answered HTTP 500"
    missing = MissingParams("missing p: x | ask: 请补充", missing=[])
    assert error_line(missing, "zh") == "missing p: x | ask: 请补充"


async def test_the_ask_follows_the_header_over_the_query(make_client: ClientFactory) -> None:
    client = await make_client(llm=False)
    chinese = request_body(metric(), query="药品数量")
    english = request_body(metric(), query="drug count")
    for body, header, zh in (
        (chinese, None, True),
        (english, None, False),
        (chinese, "en-US", False),
        (english, "zh-CN,en;q=0.5", True),
        (chinese, "fr", True),  # nothing offered: the query decides
    ):
        headers = {"Accept-Language": header} if header else {}
        response = await client.post("/v1/dynamic-params", json=body, headers=headers)
        answer = await response.json()
        assert response.status == 422, answer
        ask = answer["missing"][0]["ask"]
        assert bool(CJK.search(ask)) is zh, (header, ask)
        assert ask in answer["_error"]  # the 422 line carries the ask in that language
        assert answer["_error"].startswith("missing approved_drug_count: ")


async def test_an_llm_ask_in_the_wrong_language_is_replaced(
    make_client: ClientFactory, fake_llm: FakeLLM
) -> None:
    fake_llm.respond(
        lambda call: Reply(content='{"_error": "missing x: region | ask: 请说明区域"}')
    )
    client = await make_client()
    body = request_body(operator("x", ("region", "STRING")), query="sales by region")
    status, answer = await post(client, body)
    assert status == 422, answer
    assert answer["missing"][0]["ask"] == "请说明区域"  # no header: the LLM's own ask stays
    response = await client.post(
        "/v1/dynamic-params", json=body, headers={"Accept-Language": "en-US"}
    )
    answer = await response.json()
    assert response.status == 422, answer
    assert not CJK.search(answer["missing"][0]["ask"])
    assert "region" in answer["missing"][0]["ask"]


async def test_error_lines_in_chinese_when_asked(
    make_kn_client: ClientFactory,
) -> None:
    client = await make_kn_client(llm=False)
    body = {
        "kn_id": DEMO_KN,
        "ot_id": DEMO_OT,
        "query": "当前",
        "_instance_identities": [{"company_id": "c1"}],
        "properties": ["nope"],
    }
    response = await client.post(PIPELINE, json=body, headers={"Accept-Language": "zh-CN"})
    answer = await response.json()
    assert response.status == 400
    assert answer["_error"].startswith("请求的逻辑属性不存在：properties not found")
    # error.message stays English for machines and logs.
    assert answer["error"]["message"].startswith("properties not found")
    response = await client.post(PIPELINE, json=body, headers={"Accept-Language": "en-US"})
    assert (await response.json())["_error"].startswith("properties not found")
    response = await client.post(PIPELINE, json=body)
    assert (await response.json())["_error"].startswith("properties not found")


async def test_mcp_hints_and_error_follow_the_header(make_kn_client: ClientFactory) -> None:
    client = await make_kn_client(llm=False)
    arguments = {
        "ot_id": DEMO_OT,
        "query": "药品数量",
        "_instance_identities": [{"company_id": "c1"}],
        "properties": ["approved_drug_count"],
    }
    error = await mcp_error(client, arguments, "en-US")
    assert error["error_code"] == "MISSING_INPUT_PARAMS"
    (entry,) = error["missing"]
    assert not CJK.search(entry["ask"])
    for param in entry["params"]:
        assert not CJK.search(param["hint"]), param
    error = await mcp_error(client, {**arguments, "properties": ["nope"]}, "zh-CN")
    assert error["_error"].startswith("请求的逻辑属性不存在：")
    assert error["message"] == error["_error"]


async def mcp_error(client: Any, arguments: dict[str, Any], language: str) -> dict[str, Any]:
    headers = {"X-Kn-ID": DEMO_KN, "Accept-Language": language}
    answer = await call_tool(client, "get_logic_properties_values", arguments, headers=headers)
    result = answer["result"]
    assert result["isError"] is True, result
    body: dict[str, Any] = orjson.loads(result["content"][0]["text"])
    return body


def test_every_error_code_has_a_chinese_line() -> None:
    # A new error class must bring its Chinese description along (a 422's line is built from
    # the localised asks instead; INTERNAL is rendered by the middleware itself).
    def codes(cls: type[ResolverError]) -> set[str]:
        return {cls.code}.union(*(codes(sub) for sub in cls.__subclasses__()))

    assert codes(ResolverError) - {"INTERNAL", "MISSING_PARAMS"} <= set(ZH_DESCRIPTIONS)
    assert error_line(BadRequest("x"), "zh") == "请求无效：x"
