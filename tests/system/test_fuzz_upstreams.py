"""Hostile upstream answers over real HTTP: every answer the service gives is a clean 4xx, a
502/504 naming the upstream, or a correct 200 — never a 500 — whatever the knowledge-network
services send back.

Each example takes one demo document an upstream serves (the object type, the operator
record, an action query, a tool's detail, an MCP tool's detail, the property values, an MCP
tool's answer), replaces the value at one of its paths (or adds a key) with random JSON or
a value that once broke something (`.`/`..` ids, numbers for lists, lists for strings), and
sends the request that reads it. Regressions once found here, each a 500: an operator
`data_source.id` of `.`/`..`, a numeric `data_properties`, an api_spec parameter whose `in`
is a list or an object.
"""

from __future__ import annotations

import copy
import http.client
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from resolver.core.ids import is_usable_id
from resolver.core.settings import Settings
from resolver.testing.fake_upstreams import (
    DEMO_BOX_ID,
    DEMO_KN,
    DEMO_MCP_AT,
    DEMO_MCP_ID,
    DEMO_MCP_TOOL,
    DEMO_OPERATOR_ID,
    DEMO_OT,
    DEMO_TOOL_AT,
    DEMO_TOOL_ID,
    FakeBknBackend,
    FakeOntologyQuery,
    FakeOperatorIntegration,
    Seen,
    demo_mcp_actions,
    demo_mcp_tool,
    demo_object_type,
    demo_operator,
    demo_tool,
    demo_tool_actions,
    echo_values,
    grant_all,
)
from resolver.web.app import create_app
from tests.helpers import NOW_MS, ThreadServed
from tests.helpers import json_values as any_json

FUZZ = settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
KN_PATH = "/api/agent-retrieval/in/v1/kn/logic-property-resolver"
RECALL_PATH = "/api/agent-retrieval/in/v1/kn/get_action_info"
MCP_PATH = f"/api/agent-retrieval/in/v1/mcp/proxy/{DEMO_MCP_ID}/tools/{DEMO_MCP_TOOL}/call"
# Whatever an upstream sends, the caller sees one of these; a 4xx an upstream sent passes
# through with its status, so any 4xx is allowed, never a 5xx other than 502/504.
ALLOWED = frozenset({200, 422, 502, 504, *range(400, 420)})


class Upstreams(ThreadServed):
    """The three fakes and the service, served from a thread on loopback ports."""

    def __init__(self) -> None:
        super().__init__()
        self.manager = FakeBknBackend()
        self.operators = FakeOperatorIntegration()
        self.values = FakeOntologyQuery()
        grant_all(self.values, self.manager)  # the caller may see everything the fakes serve

    async def _start(self) -> int:
        urls: dict[str, Any] = {}
        for key, fake in (
            ("bkn_backend_url", self.manager),
            ("operator_integration_url", self.operators),
            ("ontology_query_url", self.values),
        ):
            urls[key] = f"http://127.0.0.1:{await self._serve(fake.app())}"
        settings = Settings(
            **urls,
            public_url="https://resolver.example.com",
            upstream_timeout_s=2,
            request_timeout_s=5,
            operator_schema_ttl_s=0,
            mcp_tool_ttl_s=0,
        )
        return await self._serve(create_app(settings))

    def reset(self) -> None:
        """The demo documents, unmutated."""
        self.manager.object_types.clear()
        self.manager.add(DEMO_KN, demo_object_type())
        self.operators.operators = {DEMO_OPERATOR_ID: demo_operator()}
        self.operators.tools = {(DEMO_BOX_ID, DEMO_TOOL_ID): demo_tool()}
        self.operators.mcp_tools = {(DEMO_MCP_ID, DEMO_MCP_TOOL): demo_mcp_tool()}
        self.values.action_types = {
            (DEMO_KN, DEMO_TOOL_AT): demo_tool_actions(),
            (DEMO_KN, DEMO_MCP_AT): demo_mcp_actions(),
        }
        self.values.responder = echo_values
        self.operators.tool_responder = _tool_answer

    def post(self, path: str, body: Any) -> tuple[int, dict[str, str], bytes]:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=15)
        try:
            connection.request(
                "POST", path, body=json.dumps(body), headers={"Content-Type": "application/json"}
            )
            response = connection.getresponse()
            return response.status, dict(response.getheaders()), response.read()
        finally:
            connection.close()


def _tool_answer(seen: Seen) -> Any:
    return {"content": [{"type": "text", "text": "ok"}], "isError": False}


@pytest.fixture(scope="module")
def upstreams() -> Iterator[Upstreams]:
    with Upstreams() as served:
        yield served


# -- what is mutated, and the request that reads it ---------------------------------------------


def kn_request() -> dict[str, Any]:
    """Both demo properties, every input supplied by the caller: no LLM needed."""
    return {
        "kn_id": DEMO_KN,
        "ot_id": DEMO_OT,
        "query": "",
        "_instance_identities": [{"company_id": "company_000001"}],
        "properties": ["approved_drug_count", "business_health_score"],
        "dynamic_params": {
            "approved_drug_count": {"instant": True},
            "business_health_score": {
                "lang": "zh-CN",
                "include_details": True,
                "items": ["revenue"],
            },
        },
        "now_ms": NOW_MS,
        "timezone": "Asia/Shanghai",
        "options": {"return_debug": True},
    }


def recall(at_id: str) -> Callable[[], tuple[str, Any]]:
    def request() -> tuple[str, Any]:
        return RECALL_PATH, {"kn_id": DEMO_KN, "at_id": at_id, "unique_identity": {"c": "1"}}

    return request


def proxy() -> tuple[str, Any]:
    return MCP_PATH, {"company_id": "c1", "channel": "email", "message": {"title": "t"}}


def pipeline() -> tuple[str, Any]:
    return KN_PATH, kn_request()


@dataclass(frozen=True)
class Target:
    """One upstream document: how to build it, install it, and ask for it."""

    name: str
    document: Callable[[], Any]
    install: Callable[[Upstreams, Any], None]
    requests: tuple[Callable[[], tuple[str, Any]], ...]


def _object_type(served: Upstreams, doc: Any) -> None:
    served.manager.object_types[(DEMO_KN, DEMO_OT)] = doc


def _operator(served: Upstreams, doc: Any) -> None:
    served.operators.operators[DEMO_OPERATOR_ID] = doc


def _tool_actions(served: Upstreams, doc: Any) -> None:
    served.values.action_types[(DEMO_KN, DEMO_TOOL_AT)] = doc


def _mcp_actions(served: Upstreams, doc: Any) -> None:
    served.values.action_types[(DEMO_KN, DEMO_MCP_AT)] = doc


def _tool(served: Upstreams, doc: Any) -> None:
    served.operators.tools[(DEMO_BOX_ID, DEMO_TOOL_ID)] = doc


def _mcp_tool(served: Upstreams, doc: Any) -> None:
    served.operators.mcp_tools[(DEMO_MCP_ID, DEMO_MCP_TOOL)] = doc


def _values(served: Upstreams, doc: Any) -> None:
    served.values.responder = lambda seen: doc


def _tool_call(served: Upstreams, doc: Any) -> None:
    served.operators.tool_responder = lambda seen: doc


def _values_answer() -> Any:
    return {"datas": [{"company_id": "company_000001", "approved_drug_count": {"value": 1}}]}


TARGETS = {
    t.name: t
    for t in (
        Target("object-type", demo_object_type, _object_type, (pipeline,)),
        Target("operator", demo_operator, _operator, (pipeline,)),
        Target("tool-actions", demo_tool_actions, _tool_actions, (recall(DEMO_TOOL_AT),)),
        Target("mcp-actions", demo_mcp_actions, _mcp_actions, (recall(DEMO_MCP_AT),)),
        Target("tool", demo_tool, _tool, (recall(DEMO_TOOL_AT),)),
        Target("mcp-tool", demo_mcp_tool, _mcp_tool, (recall(DEMO_MCP_AT), proxy)),
        Target("values", _values_answer, _values, (pipeline,)),
        Target("tool-answer", lambda: _tool_answer(None), _tool_call, (proxy,)),  # type: ignore[arg-type]
    )
}


def paths(node: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every path into a document, the root included, and a new key in every object."""
    yield prefix
    if isinstance(node, dict):
        yield (*prefix, "x-new")
        for key, value in node.items():
            yield from paths(value, (*prefix, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from paths(value, (*prefix, index))


def mutated(document: Any, path: tuple[Any, ...], value: Any) -> Any:
    """A copy of `document` with `value` at `path`."""
    if not path:
        return value
    copied = copy.deepcopy(document)
    target = copied
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = value
    return copied


ALL_PATHS = [(name, path) for name, t in TARGETS.items() for path in paths(t.document())]

json_values = any_json()
# Values that once broke something, or that an id, a name or a location must survive.
TRICKY = st.sampled_from(
    [
        ".",
        "..",
        "",
        " ",
        "a/b",
        "%2e",
        "\n",
        "x" * 5000,
        0,
        1.5,
        -1,
        True,
        [],
        {},
        ["query"],
        {"in": "query"},
        [{"name": "x"}],
        "tool",
        "MCP",
        "operator",
        "header",
        "path",
        "body",
    ]
)


def check(status: int, headers: dict[str, str], raw: bytes, where: str) -> None:
    """What every answer must be, whatever the upstream sent."""
    text = raw.decode("utf-8")
    assert status in ALLOWED, f"{where}: {status} {text[:400]}"
    assert "Traceback" not in text
    if status == 200 and where.startswith(MCP_PATH):
        return  # a tool's own answer passes through as it is (a non-JSON one is 502)
    payload = json.loads(text)
    if status == 200:
        return
    assert headers["Content-Type"].startswith("application/json")
    line = payload["_error"]
    assert isinstance(line, str)
    assert line.strip()
    assert line.splitlines() == [line], line[:200]
    assert payload["error"]["code"] != "INTERNAL"
    assert payload["trace_id"]


def run(served: Upstreams, target: str, path: tuple[Any, ...], value: Any) -> None:
    served.reset()
    chosen = TARGETS[target]
    chosen.install(served, mutated(chosen.document(), path, value))
    for request in chosen.requests:
        url, body = request()
        status, headers, raw = served.post(url, body)
        check(status, headers, raw, f"{url} with {target}{list(path)}")


@FUZZ
@given(where=st.sampled_from(ALL_PATHS), value=json_values | TRICKY)
@example(where=("object-type", ("logic_properties", 1, "data_source", "id")), value=".")
@example(where=("object-type", ("logic_properties", 1, "data_source", "id")), value="..")
@example(where=("object-type", ("data_properties",)), value=5)
@example(where=("object-type", ("data_properties",)), value=1.5)
@example(where=("object-type", ("logic_properties", 0, "parameters")), value=7)
@example(where=("tool", ("api_spec", "parameters", 0, "in")), value=["path"])
@example(where=("tool", ("api_spec", "parameters", 1, "in")), value={"q": 1})
@example(where=("tool", ("api_spec", "parameters", 2, "name")), value=["x"])
@example(where=("operator", ("metadata", "api_spec", "parameters", 0, "in")), value=["query"])
@example(where=("mcp-actions", ("action_source", "mcp_id")), value="..")
@example(where=("tool-actions", ("action_source", "tool_id")), value=".")
def test_any_upstream_answer_gives_a_clean_answer(
    upstreams: Upstreams, where: tuple[str, tuple[Any, ...]], value: Any
) -> None:
    run(upstreams, where[0], where[1], value)


@pytest.mark.parametrize("target", sorted(TARGETS))
def test_the_unmutated_documents_are_served(upstreams: Upstreams, target: str) -> None:
    upstreams.reset()
    for request in TARGETS[target].requests:
        url, body = request()
        status, _, raw = upstreams.post(url, body)
        assert status == 200, raw[:400]


# -- item 16: every api_url a recall hands out is one the proxy accepts ---------------------

usable_ids = st.text(min_size=1, max_size=24).filter(is_usable_id)


@settings(FUZZ, max_examples=100)
@given(mcp_id=usable_ids, tool_name=usable_ids)
@example(mcp_id="srv/1", tool_name="send notice?")
@example(mcp_id="a{b}", tool_name="{x}")
@example(mcp_id=" .a", tool_name="..a")
@example(mcp_id="%2e%2e", tool_name="a%2Fb")
@example(mcp_id="é x", tool_name="#frag")
@example(mcp_id="a;b=c", tool_name="~!*'()")
def test_a_recalled_api_url_is_accepted_by_the_proxy(
    upstreams: Upstreams, mcp_id: str, tool_name: str
) -> None:
    upstreams.reset()
    upstreams.values.action_types[(DEMO_KN, DEMO_MCP_AT)] = {
        "actions": [{"parameters": {"company_id": "c1", "channel": "email"}}],
        "action_source": {"type": "mcp", "mcp_id": mcp_id, "tool_name": tool_name},
    }
    upstreams.operators.mcp_tools[(mcp_id, tool_name)] = {**demo_mcp_tool(), "name": tool_name}
    url, body = recall(DEMO_MCP_AT)()
    status, _, raw = upstreams.post(url, body)
    assert status == 200, raw[:300]
    (tool,) = json.loads(raw)["_dynamic_tools"]
    path = tool["api_url"].removeprefix("https://resolver.example.com")
    assert path != tool["api_url"]
    arguments = {**tool["fixed_params"]["body"], "message": {"title": "t"}}
    status, _, raw = upstreams.post(path, arguments)
    assert status == 200, raw[:300]
    call = upstreams.operators.calls[-1]
    assert call.match["mcp_id"] == mcp_id
    assert call.body["tool_name"] == tool_name
