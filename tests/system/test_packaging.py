"""The command line and the wheel, as a user runs them: real subprocesses."""

from __future__ import annotations

import json
import site
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.helpers import (
    NOW_MS,
    ROOT,
    clean_env,
    metric,
    operator,
    request_body,
    rules_pipeline_body,
)


def run_cli(args: list[str], stdin: bytes) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "resolver", *args],
        input=stdin,
        capture_output=True,
        timeout=60,
        cwd=ROOT,
        env=clean_env(),
        check=False,
    )


def test_resolve_from_stdin() -> None:
    body = {
        "logic_properties": [metric()],
        "query": "当前药品数量",
        "now_ms": NOW_MS,
        "timezone": "Asia/Shanghai",
    }
    done = run_cli(["resolve", "-"], json.dumps(body).encode())
    assert done.returncode == 0, done.stderr
    output = json.loads(done.stdout)
    assert output["dynamic_params"] == {"approved_drug_count": {"instant": True}}
    assert output["trace_id"]


def test_resolve_reports_errors_in_the_spec_shape(tmp_path: Path) -> None:
    request = tmp_path / "request.json"
    request.write_text(json.dumps({"logic_properties": [metric()], "query": "药品数量"}))
    done = run_cli(["resolve", str(request)], b"")
    assert done.returncode == 1
    output = json.loads(done.stdout)
    assert output["error"]["code"] == "MISSING_PARAMS"
    assert output["missing"][0]["params"] == ["start", "end", "step"]


def test_resolve_missing_file() -> None:
    done = run_cli(["resolve", "/nonexistent/request.json"], b"")
    assert done.returncode == 2
    assert b"cannot read" in done.stderr


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_for(url: str, deadline_s: float = 30.0) -> dict[str, object]:
    deadline = time.monotonic() + deadline_s
    while True:
        try:
            with urllib.request.urlopen(url, timeout=2) as response:  # noqa: S310 - loopback
                return dict(json.loads(response.read()))
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv with the wheel installed: the package comes only from the wheel."""
    tmp_path = tmp_path_factory.mktemp("wheel")
    wheels = tmp_path / "wheels"
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(wheels), str(ROOT)],
        check=True,
        timeout=300,
        capture_output=True,
    )
    [wheel] = wheels.glob("resolver-*.whl")
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    python = venv / "bin" / "python"
    subprocess.run(
        [str(python), "-m", "pip", "install", "-q", "--no-deps", str(wheel)],
        check=True,
        timeout=300,
        capture_output=True,
    )
    # The wheel's dependencies come from this test environment's site-packages, read-only,
    # so the test needs no network; the resolver package itself comes only from the wheel.
    [fresh_site] = (venv / "lib").glob("python3*/site-packages")
    (fresh_site / "deps.pth").write_text("\n".join(site.getsitepackages()) + "\n")
    return venv


@pytest.mark.slow
def test_wheel_installs_and_serves_with_prompts(installed: Path, tmp_path: Path) -> None:
    venv = installed
    port = free_port()
    server = subprocess.Popen(
        [str(venv / "bin" / "resolver"), "serve", "--port", str(port)],
        cwd=tmp_path,
        env=clean_env(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        health = wait_for(f"http://127.0.0.1:{port}/healthz")
    finally:
        server.terminate()
        server.wait(timeout=20)
    assert health["status"] == "ok"
    assert health["mode"] == "rules-only"
    assert health["prompts"] == "packaged"  # the wheel's, named without the host's path
    [prompts] = (venv / "lib").glob("python3*/site-packages/resolver/_prompts")
    assert sorted(p.name for p in prompts.iterdir()) == [
        "common.md",
        "metric.md",
        "operator.md",
        "repair.md",
    ]


def post_json(url: str, body: dict[str, object]) -> tuple[int, dict[str, object]]:
    request = urllib.request.Request(  # noqa: S310 - loopback
        url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:  # noqa: S310 - loopback
            return response.status, dict(json.loads(response.read()))
    except urllib.error.HTTPError as exc:
        return exc.code, dict(json.loads(exc.read()))


@pytest.mark.slow
def test_the_fakes_serve_from_a_plain_install(installed: Path, tmp_path: Path) -> None:
    """`python -m resolver.testing.fake_llm` and `…fake_upstreams` (docs/testing.md), run
    from the installed wheel, and a `resolver serve` pointed at them answers end to end."""
    python = str(installed / "bin" / "python")
    llm_port, upstreams_port, port = free_port(), free_port(), free_port()
    upstreams = f"http://127.0.0.1:{upstreams_port}"
    commands = [
        [python, "-m", "resolver.testing.fake_llm", "--port", str(llm_port)],
        [python, "-m", "resolver.testing.fake_upstreams", "--port", str(upstreams_port)],
        [str(installed / "bin" / "resolver"), "serve", "--port", str(port)],
    ]
    env = clean_env(
        RESOLVER_LLM_BASE_URL=f"http://127.0.0.1:{llm_port}/v1",
        RESOLVER_BKN_BACKEND_URL=upstreams,
        RESOLVER_OPERATOR_INTEGRATION_URL=upstreams,
        RESOLVER_ONTOLOGY_QUERY_URL=upstreams,
    )
    processes = [
        subprocess.Popen(
            command, cwd=tmp_path, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        for command in commands
    ]
    url = f"http://127.0.0.1:{port}"
    try:
        assert wait_for(f"{url}/healthz")["mode"] == "llm"
        # An operator input only the LLM can settle: the fake LLM answers it.
        status, resolved = post_json(
            f"{url}/v1/dynamic-params",
            request_body(operator("search", ("keyword", "STRING")), query="搜索 阿司匹林"),
        )
        assert status == 200, resolved
        assert set(resolved["dynamic_params"]["search"]) == {"keyword"}  # type: ignore[index]
        # The pipeline over the fake upstreams' demo knowledge network.
        status, values = post_json(
            f"{url}/api/agent-retrieval/in/v1/kn/logic-property-resolver", rules_pipeline_body()
        )
        assert status == 200, values
        assert len(values["datas"]) == 1  # type: ignore[arg-type]
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            process.wait(timeout=20)


def test_credentials_in_a_url_are_refused_without_echoing_them() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "resolver", "serve"],
        capture_output=True,
        timeout=60,
        cwd=ROOT,
        env=clean_env(RESOLVER_LLM_BASE_URL="http://user:hunter2@127.0.0.1:9/v1"),
        check=False,
    )
    assert done.returncode == 2
    assert b"RESOLVER_LLM_BASE_URL" in done.stderr
    assert b"credentials" in done.stderr
    assert b"hunter2" not in done.stderr + done.stdout
