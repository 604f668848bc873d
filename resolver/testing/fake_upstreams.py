"""Scripted fakes of bkn-backend (and its ontology-manager alias), agent-operator-integration
and ontology-query, on the routes those services serve today (docs/upstream-contracts.md).

They serve what the pipeline endpoint asks for (object types, the caller's permission plan,
operator records and tool-box tools, property values) and what action recall and the MCP
proxy ask for (action types, tool-box tools, an MCP server's tool list and MCP tool calls).

Real aiohttp applications on loopback, like `fake_llm`: each records every request it gets
(method, path, query, headers, body parsed with integers exact) and can be scripted to fail
(`fail` for the next calls, `fail_always` for all). Tests run one server per fake; load tests
run all three on one port with demo data (`python -m resolver.testing.fake_upstreams --port
8091`, from a plain install; also `python -m benchmarks fake-upstreams`; docs/testing.md).
"""

from __future__ import annotations

import asyncio
import json
import sys
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar

import orjson
from aiohttp import web

# isort: off
from resolver.testing.demo_network import (  # re-exported: tests import them from here
    DEMO_BOX_ID as DEMO_BOX_ID,
    DEMO_KN as DEMO_KN,
    DEMO_MCP_AT as DEMO_MCP_AT,
    DEMO_MCP_ID as DEMO_MCP_ID,
    DEMO_MCP_TOOL as DEMO_MCP_TOOL,
    DEMO_OPERATOR_ID as DEMO_OPERATOR_ID,
    DEMO_OT as DEMO_OT,
    DEMO_SCORE_BOX_ID as DEMO_SCORE_BOX_ID,
    DEMO_SCORE_TOOL_ID as DEMO_SCORE_TOOL_ID,
    DEMO_TOOL_AT as DEMO_TOOL_AT,
    DEMO_TOOL_ID as DEMO_TOOL_ID,
    demo_mcp_actions as demo_mcp_actions,
    demo_mcp_tool as demo_mcp_tool,
    demo_object_type as demo_object_type,
    demo_operator as demo_operator,
    demo_score_tool as demo_score_tool,
    demo_tool as demo_tool,
    demo_tool_actions as demo_tool_actions,
    demo_tool_property as demo_tool_property,
    full_access as full_access,
)

_KEPT_CALLS = 10_000
# Route parameters take any segment: aiohttp's default refuses `{` and `}` once decoded.


@dataclass
class Fault:
    """One scripted failure: a status with a JSON error body (or a raw body), after a delay.

    With `path_contains`, only requests whose path contains it fail (others pass it by).
    """

    status: int = 500
    message: str = "fake upstream failure"
    code: str = "Fake.InternalError"
    body: bytes | None = None
    delay_s: float = 0.0
    hang: bool = False
    path_contains: str | None = None

    def applies(self, seen: Seen) -> bool:
        """Whether this fault is meant for that request."""
        return self.path_contains is None or self.path_contains in seen.path


@dataclass
class Seen:
    """One request a fake received."""

    method: str
    path: str
    query: dict[str, str]
    headers: dict[str, str]
    body: Any
    match: dict[str, str] = field(default_factory=dict)


def dumps(body: Any) -> bytes:
    """JSON bytes; integers beyond 64 bits stay exact (the standard library writes them)."""
    try:
        return orjson.dumps(body)
    except TypeError:
        return json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode()


def json_response(body: Any, status: int = 200) -> web.Response:
    """A JSON answer written with `dumps`."""
    return web.Response(body=dumps(body), status=status, content_type="application/json")


class FakeService:
    """Recording, fault scripting and the request loop shared by the three fakes."""

    service: ClassVar[str] = "fake"

    def __init__(self) -> None:
        self.calls: list[Seen] = []
        self.script: deque[Fault] = deque()
        self.always: Fault | None = None
        self.url = ""
        # How long every normal answer takes (a slow but healthy service).
        self.latency_s = 0.0

    def fail(self, *faults: Fault) -> None:
        """Fail the next calls, in order, then answer normally."""
        self.script.extend(faults)

    def fail_always(self, fault: Fault | None) -> None:
        """Fail every call with `fault` (None: stop failing)."""
        self.always = fault

    def app(self) -> web.Application:
        """An application serving only this fake."""
        app = web.Application(client_max_size=16 << 20)
        self.routes(app)
        return app

    def routes(self, app: web.Application) -> None:
        """Add this fake's routes to an application."""
        raise NotImplementedError

    async def _serve(
        self, request: web.Request, answer: Callable[[Seen], web.Response]
    ) -> web.Response:
        raw = await request.read()
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            body = raw.decode(errors="replace")
        seen = Seen(
            method=request.method,
            path=request.rel_url.raw_path,
            query=dict(request.query),
            headers={k.lower(): v for k, v in request.headers.items()},
            body=body,
            match=dict(request.match_info),
        )
        self.calls.append(seen)
        if len(self.calls) > 2 * _KEPT_CALLS:
            # Bounded, so a stand-alone fake under a long load test does not grow without end.
            del self.calls[:_KEPT_CALLS]
        fault = self._next_fault(seen)
        if fault is None:
            if self.latency_s:
                await asyncio.sleep(self.latency_s)
            return answer(seen)
        if fault.hang:
            await asyncio.sleep(3600)
        if fault.delay_s:
            await asyncio.sleep(fault.delay_s)
        if fault.body is not None:
            return web.Response(body=fault.body, status=fault.status)
        return json_response(
            {"code": fault.code, "description": fault.message, "solution": "", "link": ""},
            fault.status,
        )

    def _next_fault(self, seen: Seen) -> Fault | None:
        if self.script and self.script[0].applies(seen):
            return self.script.popleft()
        if self.always is not None and self.always.applies(seen):
            return self.always
        return None


class FakeBknBackend(FakeService):
    """`GET /api/bkn-backend/in/v1/knowledge-networks/{kn_id}/object-types/{ot_id}` (and the
    same under `/api/ontology-manager/in/v1`, the alias bkn-backend keeps): object types by id,
    as `{"entries": [ObjectType]}` (a bare ObjectType with `bare`)."""

    service = "bkn-backend"

    def __init__(self, *, bare: bool = False) -> None:
        super().__init__()
        self.object_types: dict[tuple[str, str], dict[str, Any]] = {}
        self.bare = bare
        self.missing_as_empty = False
        # Metric definitions (SPEC §9.1), `GET …/knowledge-networks/{kn_id}/metrics/{id}`.
        self.metrics: dict[tuple[str, str], dict[str, Any]] = {}

    def add(self, kn_id: str, object_type: dict[str, Any]) -> None:
        """Serve an object type (keyed by its `id`) in a knowledge network."""
        self.object_types[(kn_id, object_type["id"])] = object_type

    def routes(self, app: web.Application) -> None:
        """Add the object-type route under both prefixes."""
        for prefix in ("/api/bkn-backend/in/v1", "/api/ontology-manager/in/v1"):
            path = prefix + "/knowledge-networks/{kn_id:[^/]+}/object-types/{ot_id:[^/]+}"
            app.router.add_get(path, self._object_type)
            metric = prefix + "/knowledge-networks/{kn_id:[^/]+}/metrics/{metric_id:[^/]+}"
            app.router.add_get(metric, self._metric)

    # -- metric definitions (issue 31: time dimensions) --------------------------------------
    def add_metric(self, kn_id: str, metric_id: str, time_dimension: dict[str, Any] | None) -> None:
        """Serve a metric definition; `time_dimension` None leaves it out (no time dimension),
        as bkn-backend writes it (`omitempty`)."""
        definition: dict[str, Any] = {
            "id": metric_id,
            "kn_id": kn_id,
            "name": metric_id,
            "metric_type": "atomic",
            "scope_type": "object_type",
        }
        if time_dimension is not None:
            definition["time_dimension"] = time_dimension
        self.metrics[(kn_id, metric_id)] = definition

    async def _metric(self, request: web.Request) -> web.Response:
        return await self._serve(request, self._metric_answer)

    def _metric_answer(self, seen: Seen) -> web.Response:
        found = self.metrics.get((seen.match["kn_id"], seen.match["metric_id"]))
        if found is None:
            return json_response(
                {"code": "BknBackend.Metric.NotFound", "description": "not found"}, 404
            )
        return json_response({"entries": [found]})

    # -- object types ----------------------------------------------------------------------
    async def _object_type(self, request: web.Request) -> web.Response:
        return await self._serve(request, self._answer)

    def _answer(self, seen: Seen) -> web.Response:
        found = self.object_types.get((seen.match["kn_id"], seen.match["ot_id"]))
        if found is None:
            if self.missing_as_empty:
                return json_response({"entries": []})
            return json_response(
                {"code": "BknBackend.ObjectType.NotFound", "description": "not found"}, 404
            )
        return json_response(found if self.bare else {"entries": [found]})


# The name the fake had while the service was called ontology-manager.
FakeOntologyManager = FakeBknBackend


def echo_tool_call(seen: Seen) -> Any:
    """The default MCP tool result: the arguments it was called with, as MCP text content
    (operator-integration writes `is_error`, snake case)."""
    parameters = seen.body.get("parameters") if isinstance(seen.body, dict) else None
    text = dumps({"tool": seen.body.get("tool_name"), "arguments": parameters}).decode()
    return {"content": [{"type": "text", "text": text}], "is_error": False}


class FakeOperatorIntegration(FakeService):
    """agent-operator-integration: operator records, tool-box tools, MCP tools and calls.

    `GET …/operator/market/{operator_id}`, `GET …/tool-box/{box_id}/tool/{tool_id}`,
    `GET …/mcp/proxy/{mcp_id}/tools` (`{"tools": [...]}`: every tool of `mcp_tools` under that
    server, 404 for a server with none) and `POST …/mcp/proxy/{mcp_id}/tool/call`
    (`{"tool_name", "parameters"}`, answered by `tool_responder`: a JSON value, or bytes sent
    as they are). The routes of earlier versions (`…/mcp/{mcp_id}/tools/{tool_name}`,
    `…/mcp/{mcp_id}/tools/call`) are not served.
    """

    service = "agent-operator-integration"

    def __init__(self, tool_responder: Callable[[Seen], Any] = echo_tool_call) -> None:
        super().__init__()
        self.operators: dict[str, Any] = {}
        self.tools: dict[tuple[str, str], Any] = {}
        self.mcp_tools: dict[tuple[str, str], Any] = {}
        self.tool_responder = tool_responder

    def routes(self, app: web.Application) -> None:
        """Add the operator-market, tool-box and MCP routes."""
        base = "/api/agent-operator-integration/internal-v1"
        app.router.add_get(base + "/operator/market/{operator_id:[^/]+}", self._operator)
        app.router.add_get(base + "/tool-box/{box_id:[^/]+}/tool/{tool_id:[^/]+}", self._tool)
        app.router.add_get(base + "/mcp/proxy/{mcp_id:[^/]+}/tools", self._mcp_tools)
        app.router.add_post(base + "/mcp/proxy/{mcp_id:[^/]+}/tool/call", self._mcp_call)

    async def _operator(self, request: web.Request) -> web.Response:
        return await self._serve(request, self._answer)

    def _answer(self, seen: Seen) -> web.Response:
        found = self.operators.get(seen.match["operator_id"])
        if found is None:
            return json_response({"code": "Operator.NotFound", "description": "no operator"}, 404)
        return json_response(found)

    async def _tool(self, request: web.Request) -> web.Response:
        return await self._serve(request, self._tool_answer)

    def _tool_answer(self, seen: Seen) -> web.Response:
        found = self.tools.get((seen.match["box_id"], seen.match["tool_id"]))
        if found is None:
            return json_response({"code": "ToolBox.Tool.NotFound", "description": "no tool"}, 404)
        return json_response(found)

    async def _mcp_tools(self, request: web.Request) -> web.Response:
        return await self._serve(request, self._mcp_tools_answer)

    def _mcp_tools_answer(self, seen: Seen) -> web.Response:
        tools = [
            {**tool, "name": tool.get("name") or name} if isinstance(tool, dict) else tool
            for (mcp_id, name), tool in self.mcp_tools.items()
            if mcp_id == seen.match["mcp_id"]
        ]
        if not tools:
            return json_response(
                {"code": "MCP.Server.NotFound", "description": "mcp server config not found"}, 404
            )
        return json_response({"tools": tools})

    async def _mcp_call(self, request: web.Request) -> web.Response:
        return await self._serve(request, self._mcp_call_answer)

    def _mcp_call_answer(self, seen: Seen) -> web.Response:
        body = seen.body if isinstance(seen.body, dict) else {}
        if set(body) != {"tool_name", "parameters"} or not isinstance(body["parameters"], dict):
            return json_response(
                {"code": "MCP.BadRequest", "description": "want {tool_name, parameters}"}, 400
            )
        if (seen.match["mcp_id"], body["tool_name"]) not in self.mcp_tools:
            return json_response({"code": "MCP.Tool.NotFound", "description": "no MCP tool"}, 404)
        answer = self.tool_responder(seen)
        if isinstance(answer, bytes):  # sent exactly as given
            return web.Response(body=answer, content_type="application/json")
        return json_response(answer)


def echo_values(seen: Seen) -> Any:
    """The default ontology-query answer: per identity, each property with what it was asked."""
    body = seen.body if isinstance(seen.body, dict) else {}
    params = body.get("dynamic_params") or {}
    datas = [
        {
            **identity,
            **{p: {"value": 1, "dynamic_params": params.get(p)} for p in body["properties"]},
        }
        for identity in body.get("_instance_identities") or []
    ]
    return {"datas": datas}


PlanOf = Callable[[str, str], dict[str, str] | None]


class FakeOntologyQuery(FakeService):
    """`POST …/object-types/{ot_id}/properties` with `x-http-method-override: GET`,
    `GET …/object-types/{ot_id}/schema` (the caller's permission plan: `plans`, else
    `plan_of(kn_id, ot_id)`, else 404), and `POST …/action-types/{at_id}`
    (`{"unique_identities": [...]}`) answered from `action_types` (a dict, or a callable of the
    request)."""

    service = "ontology-query"

    def __init__(self, responder: Callable[[Seen], Any] = echo_values) -> None:
        super().__init__()
        self.responder = responder
        self.action_types: dict[tuple[str, str], Any] = {}
        self.plans: dict[tuple[str, str], dict[str, str]] = {}
        self.plan_of: PlanOf | None = None

    def routes(self, app: web.Application) -> None:
        """Add the property-values, permission-plan and action-type routes."""
        base = "/api/ontology-query/in/v1/knowledge-networks/{kn_id:[^/]+}"
        app.router.add_post(base + "/object-types/{ot_id:[^/]+}/properties", self._properties)
        app.router.add_get(base + "/object-types/{ot_id:[^/]+}/schema", self._schema)
        app.router.add_post(base + "/action-types/{at_id:[^/]+}", self._actions)

    async def _schema(self, request: web.Request) -> web.Response:
        return await self._serve(request, self._schema_answer)

    def _schema_answer(self, seen: Seen) -> web.Response:
        key = (seen.match["kn_id"], seen.match["ot_id"])
        plan = self.plans.get(key)
        if plan is None and self.plan_of is not None:
            plan = self.plan_of(*key)
        if plan is None:
            return json_response(
                {"code": "OntologyQuery.ObjectType.NotFound", "description": "not found"}, 404
            )
        return json_response(
            {
                "schema_definition": [{"name": n} for n, level in plan.items() if level != "none"],
                "effective_permissions": plan,
            }
        )

    async def _actions(self, request: web.Request) -> web.Response:
        return await self._serve(request, self._actions_answer)

    def _actions_answer(self, seen: Seen) -> web.Response:
        body = seen.body if isinstance(seen.body, dict) else {}
        if not isinstance(body.get("unique_identities"), list):
            return json_response(
                {"code": "OntologyQuery.BadRequest", "description": "unique_identities missing"},
                400,
            )
        found = self.action_types.get((seen.match["kn_id"], seen.match["at_id"]))
        if found is None:
            return json_response(
                {"code": "OntologyQuery.ActionType.NotFound", "description": "not found"}, 404
            )
        return json_response(found(seen) if callable(found) else found)

    async def _properties(self, request: web.Request) -> web.Response:
        return await self._serve(request, self._answer)

    def _answer(self, seen: Seen) -> web.Response:
        if seen.headers.get("x-http-method-override") != "GET":
            return json_response(
                {"code": "OntologyQuery.BadRequest", "description": "method override missing"},
                400,
            )
        return json_response(self.responder(seen))


def grant_all(values: FakeOntologyQuery, manager: FakeBknBackend) -> None:
    """Answer every permission read of an object type `manager` serves with `full_access`."""

    def plan_of(kn_id: str, ot_id: str) -> dict[str, str] | None:
        found = manager.object_types.get((kn_id, ot_id))
        return None if found is None else full_access(found)

    values.plan_of = plan_of


def add_demo_actions(values: FakeOntologyQuery, operators: FakeOperatorIntegration) -> None:
    """Serve the demo tool-box and MCP action types and the tools behind them."""
    values.action_types[(DEMO_KN, DEMO_TOOL_AT)] = demo_tool_actions()
    values.action_types[(DEMO_KN, DEMO_MCP_AT)] = demo_mcp_actions()
    operators.tools[(DEMO_BOX_ID, DEMO_TOOL_ID)] = demo_tool()
    operators.mcp_tools[(DEMO_MCP_ID, DEMO_MCP_TOOL)] = demo_mcp_tool()


def main(argv: list[str]) -> int:
    """Run all three fakes stand-alone on one loopback port, with the demo data
    (`fake_upstreams_cli.py` reads the flags)."""
    from resolver.testing.fake_upstreams_cli import serve

    return serve(argv)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
