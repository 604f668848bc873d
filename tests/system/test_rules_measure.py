"""The rules measure's own parts (benchmarks/rulesmeasure.py, floor.py, wrk.py, check.py): the
floor answers what the service answers, wrk's report is read right, an unsaturated round is
refused, and `benchmarks check` fails on a missed target."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import orjson
import pytest

from benchmarks import bodies, check, components, profiler, rulesmeasure, scaling, wrk
from benchmarks.floor import floor_app

WRK_REPORT = """Running 2s test @ http://127.0.0.1:4242/v1/dynamic-params
  1 threads and 16 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency     4.61ms  512.33us  11.02ms   90.12%
    Req/Sec     3.47k   120.55     3.61k    85.00%
  Latency Distribution
     50%    4.52ms
     75%    4.80ms
     90%    5.10ms
     99%    7.25ms
  6941 requests in 2.00s, 3.91MB read
  Non-2xx or 3xx responses: 3
Requests/sec:   3468.91
Transfer/sec:      1.95MB
"""


def test_wrk_report_is_read() -> None:
    result = wrk.parse(WRK_REPORT)
    assert (result.requests, result.duration_s, result.non_2xx) == (6941, 2.0, 3)
    assert result.p50_ms == pytest.approx(4.52)
    assert result.p99_ms == pytest.approx(7.25)
    assert result.rps == pytest.approx(3470.5)


def test_a_report_without_a_count_is_an_error() -> None:
    with pytest.raises(RuntimeError, match="no request count"):
        wrk.parse("unable to connect to 127.0.0.1:1 Connection refused")


def test_the_lua_script_holds_every_body_verbatim(tmp_path: Path) -> None:
    tricky = b'{"query": "a ]] b ]=] c"}'
    script = wrk.lua_script(tmp_path / "b.lua", [b"{}", tricky]).read_text()
    assert "[[{}]]" in script
    assert '[==[{"query": "a ]] b ]=] c"}]==]' in script


async def test_the_floor_answers_what_the_service_answers(
    aiohttp_client: Any, make_client: Any
) -> None:
    service = await make_client(llm=False)
    floor = await aiohttp_client(floor_app("floor"))
    for _, _, body in bodies.RULES_BODIES:
        answers = []
        for client in (service, floor):
            response = await client.post(
                "/v1/dynamic-params", data=body, headers={"Content-Type": "application/json"}
            )
            document = await response.json()
            document.pop("trace_id")
            answers.append((response.status, orjson.dumps(document)))
        assert answers[0] == answers[1]
        assert answers[0][0] == 200


async def test_the_echo_echoes(aiohttp_client: Any) -> None:
    echo = await aiohttp_client(floor_app("echo"))
    response = await echo.post("/echo", data=b'{"a": [1, 2]}')
    assert await response.json() == {"a": [1, 2]}


def _segment(cpu: float, saturation: float, non_2xx: int = 0) -> dict[str, Any]:
    return {"cpu_us_per_request": cpu, "rps": 1.0, "saturation": saturation, "non_2xx": non_2xx}


def test_an_unsaturated_round_is_refused_and_ratios_are_per_round() -> None:
    refused_for_a_500 = _segment(250, 0.99, non_2xx=1)
    rounds = [
        {"service": _segment(300, 0.99), "echo": _segment(60, 0.99), "floor": _segment(240, 0.98)},
        {"service": _segment(280, 0.99), "echo": _segment(100, 0.60), "floor": _segment(230, 0.99)},
        {"service": _segment(330, 0.97), "echo": _segment(66, 0.95), "floor": _segment(250, 0.99)},
        {"service": _segment(310, 0.97), "echo": _segment(62, 0.95), "floor": refused_for_a_500},
    ]
    figures = rulesmeasure._figures(rounds, rounds=4, segment_s=1.0, against=None)
    assert (figures["rounds_counted"], figures["rounds_refused"]) == (2, 2)
    assert figures["ratios_per_round"]["service_to_echo"] == [5.0, 5.0]
    assert figures["ratios"]["service_to_floor"] == pytest.approx((1.25 + 1.32) / 2, abs=0.01)
    assert figures["targets"] == {
        "<=3.5x the echo (median of per-round ratios)": False,
        "<=1.25x the floor (median of per-round ratios)": False,
    }


def test_check_fails_on_a_missed_or_absent_target(tmp_path: Path) -> None:
    (tmp_path / "a.json").write_text(json.dumps({"targets": {"fast": True}}))
    (tmp_path / "b.json").write_text(json.dumps({"targets": {"fast": True, "lean": False}}))
    assert check.check(tmp_path, ["a"]) == (["✓ a: fast"], True)
    lines, ok = check.check(tmp_path, ["a", "b", "c"])
    assert not ok
    assert "✗ b: lean" in lines
    assert any(line.startswith("✗ c: no result") for line in lines)
    assert check.main(["--dir", str(tmp_path), "a"]) == 0
    assert check.main(["--dir", str(tmp_path), "b"]) == 1


def test_scaling_variants_are_valid_requests_of_the_stated_length() -> None:
    from resolver.params.models import ResolveRequest
    from resolver.windows.models import TimeWindowRequest

    cases = scaling.variants()
    for name, (path, body) in cases.items():
        rendered = body.replace(wrk.SEQ.encode(), b"123456")
        model = ResolveRequest if path == "/v1/dynamic-params" else TimeWindowRequest
        document = model.model_validate_json(rendered)
        if name.startswith(("query_", "window_")):
            length = int(name.split("_")[1])
            text = document.query if isinstance(document, ResolveRequest) else document.text
            shortest = len(scaling.PHRASE) + (len(" #100000000123456") if "_fresh" in name else 0)
            assert min(length - 8, shortest) <= len(text) <= max(length, shortest)
            assert ("123456" in text) == name.endswith("_fresh")
    assert len(ResolveRequest.model_validate_json(cases["properties_16"][1]).logic_properties) == 16


def test_scaling_marginal_costs_and_the_linear_target() -> None:
    runs = {name: [{"cpu_us": 300.0, "busy": 1.0}] for name in scaling.variants()}
    runs["properties_4"] = [{"cpu_us": 360.0, "busy": 1.0}]  # 20 µs per extra property
    runs["properties_16"] = [{"cpu_us": 1200.0, "busy": 1.0}]  # then 70: worse than linear
    runs["query_500_fresh"] = [{"cpu_us": 492.0, "busy": 1.0}]  # 0.4 µs a character
    runs["query_4000_fresh"] = [{"cpu_us": 1892.0, "busy": 1.0}]  # 0.4 again: linear
    figures = scaling._figures(runs, rounds=1, segment_s=1.0)
    assert figures["marginal_us"]["per_property"] == [20.0, 70.0]
    targets = figures["targets"]
    assert targets["per_property: marginal cost steady within 1.5x"] is False
    assert targets["query_fresh_per_char: marginal cost steady within 1.5x"] is True
    assert targets["query_cached_per_char: marginal cost steady within 1.5x"] is True  # flat


def test_a_stack_is_charged_to_its_innermost_component() -> None:
    stack = [
        "/x/resolver/timeexpr/evaluate.py:evaluate",
        "/x/resolver/params/code_stage.py:apply_time_rules",
        "/x/resolver/web/middleware.py:middleware",
        "/x/aiohttp/web_protocol.py:_handle_request",
    ]
    assert profiler.component_of(iter(stack)) == "time evaluation"
    assert profiler.component_of(iter(stack[1:])) == "property states, merge"
    assert profiler.component_of(iter(stack[3:])) == profiler.REST


def test_py_spy_samples_are_classified_like_ours() -> None:
    raw = (
        'process 1:"python";thread (0x1);run (aiohttp/web.py:9);'
        "middleware (/r/resolver/web/middleware.py:3);validate (rules/registry.py:31) 7\n"
        'process 1:"python";thread (0x1);run (aiohttp/web.py:9) 3\n'
    )
    assert components.py_spy_shares(raw) == {"rules": 7, profiler.REST: 3}
