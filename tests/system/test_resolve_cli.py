"""`resolver resolve` with the pipeline's request shape: a real subprocess, fake upstreams."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path
from typing import Any

import orjson
import pytest

from resolver.testing.fake_upstreams import DEMO_KN, DEMO_OT
from tests.helpers import NOW_MS, ROOT, KnFakes, clean_env


async def run_cli(
    body: dict[str, Any], *args: str, **env: str
) -> tuple[int, dict[str, Any], bytes]:
    # Asynchronous, so the fakes on this test's loop keep answering while the CLI runs.
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "resolver",
        "resolve",
        "-",
        *args,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        cwd=ROOT,
        env=clean_env(**env),
    )
    stdout, stderr = await asyncio.wait_for(
        process.communicate(json.dumps(body).encode()), timeout=60
    )
    assert process.returncode is not None
    return process.returncode, json.loads(stdout), stderr


def pipeline_request() -> dict[str, Any]:
    return {
        "kn_id": DEMO_KN,
        "ot_id": DEMO_OT,
        "query": "当前药品数量",
        "_instance_identities": [{"company_id": 1234567890123456789}],
        "properties": ["approved_drug_count"],
        "now_ms": NOW_MS,
    }


def fake_env(kn_fakes: KnFakes) -> dict[str, str]:
    return {
        "RESOLVER_ONTOLOGY_MANAGER_URL": kn_fakes.manager.url,
        "RESOLVER_OPERATOR_INTEGRATION_URL": kn_fakes.operators.url,
        "RESOLVER_ONTOLOGY_QUERY_URL": kn_fakes.values.url,
    }


async def test_resolve_runs_the_pipeline_for_its_request_shape(kn_fakes: KnFakes) -> None:
    code, output, stderr = await run_cli(
        pipeline_request(), "--account-id", "u1", "--account-type", "app", **fake_env(kn_fakes)
    )
    assert code == 0, stderr
    assert output["dynamic_params"] == {"approved_drug_count": {"instant": True}}
    assert output["datas"][0]["company_id"] == 1234567890123456789
    assert output["dynamic_params_source"] == {"approved_drug_count": "generated"}
    assert output["effective_permissions"]["company_id"] == "full"
    # RESOLVER_ONTOLOGY_MANAGER_URL alone: the object type is read under the alias prefix.
    (definition,) = [c for c in kn_fakes.manager.calls if "/object-types/" in c.path]
    assert definition.path.startswith("/api/ontology-manager/in/v1/knowledge-networks/")
    assert len(kn_fakes.values.calls) == 2  # the permission plan, then the values
    for call in kn_fakes.values.calls:
        assert call.headers["x-account-id"] == "u1"
        assert call.headers["x-account-type"] == "app"
        assert call.headers["x-trace-id"] == output["trace_id"]


async def test_resolve_pipeline_without_upstreams_is_not_configured() -> None:
    code, output, _ = await run_cli(pipeline_request())
    assert code == 1
    assert output["error"]["code"] == "NOT_CONFIGURED"
    assert "RESOLVER_BKN_BACKEND_URL" in output["_error"]
    assert "RESOLVER_ONTOLOGY_MANAGER_URL" in output["_error"]


async def test_resolve_pipeline_request_errors_are_400_shaped(kn_fakes: KnFakes) -> None:
    body = {**pipeline_request(), "properties": []}
    code, output, _ = await run_cli(body, **fake_env(kn_fakes))
    assert code == 1
    assert output["error"]["code"] == "BAD_REQUEST"
    assert "properties" in output["_error"]
    assert kn_fakes.manager.calls == []


@pytest.mark.parametrize("source", ["stdin", "file"])
async def test_a_body_past_the_limit_is_refused_with_exit_2(tmp_path: Path, source: str) -> None:
    # Once read whole, whatever its size; now no more than RESOLVER_MAX_BODY_BYTES (issue 30).
    body = orjson.dumps({"query": "x" * 5000, "logic_properties": []})
    path = tmp_path / "big.json"
    path.write_bytes(body)
    env = {k: v for k, v in os.environ.items() if not k.startswith("RESOLVER_")}
    env["RESOLVER_MAX_BODY_BYTES"] = "2048"
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "resolver",
        "resolve",
        "-" if source == "stdin" else str(path),
        cwd=ROOT,
        env=env,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await process.communicate(body if source == "stdin" else b"")
    assert process.returncode == 2, err
    assert out == b""
    [line] = err.decode().splitlines()
    assert "RESOLVER_MAX_BODY_BYTES (2048 bytes)" in line
