"""`python -m resolver.testing.fake_upstreams`'s command: the three fake upstreams on one
loopback port serving the demo knowledge network (`serve_demo`, which `make demo` uses too)."""

from __future__ import annotations

import argparse

from aiohttp import web

from resolver.testing.fake_upstreams import (
    DEMO_KN,
    DEMO_OPERATOR_ID,
    DEMO_SCORE_BOX_ID,
    DEMO_SCORE_TOOL_ID,
    FakeBknBackend,
    FakeOntologyQuery,
    FakeOperatorIntegration,
    add_demo_actions,
    demo_object_type,
    demo_operator,
    demo_score_tool,
    demo_tool_property,
    grant_all,
)


def serve_demo(
    manager: FakeBknBackend, operators: FakeOperatorIntegration, values: FakeOntologyQuery
) -> None:
    """The whole demo knowledge network (what `main` serves, and docs/ shows): the object type
    with its metric, operator and tool-box properties, their operator and tools, the actions;
    every caller may see everything."""
    object_type = demo_object_type()
    object_type["logic_properties"].append(demo_tool_property())
    manager.add(DEMO_KN, object_type)
    grant_all(values, manager)
    operators.operators[DEMO_OPERATOR_ID] = demo_operator()
    operators.tools[(DEMO_SCORE_BOX_ID, DEMO_SCORE_TOOL_ID)] = demo_score_tool()
    add_demo_actions(values, operators)


def serve(argv: list[str]) -> int:
    """Run all three fakes stand-alone on one loopback port, with the demo data (every caller
    may see everything)."""
    parser = argparse.ArgumentParser(
        prog="python -m resolver.testing.fake_upstreams",
        description="bkn-backend (and its ontology-manager alias), agent-operator-integration "
        "and ontology-query on one port, serving the demo knowledge network.",
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to bind")
    parser.add_argument("--port", type=int, default=8091)
    args = parser.parse_args(argv)
    manager, operators, values = (
        FakeBknBackend(),
        FakeOperatorIntegration(),
        FakeOntologyQuery(),
    )
    serve_demo(manager, operators, values)
    app = web.Application(client_max_size=16 << 20)
    for fake in (manager, operators, values):
        fake.routes(app)
    web.run_app(app, host=args.host, port=args.port, access_log=None, print=None)
    return 0
