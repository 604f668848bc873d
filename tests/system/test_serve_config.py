"""`resolver serve` refuses what it cannot honour, in one clear line and exit 2, with no
traceback and no start-up log line: non-finite or absurd numbers, an empty host, a port in
use, a host that is not this machine's."""

from __future__ import annotations

import socket
import subprocess
import sys
import types
import typing

import pytest
from pydantic import ValidationError

from resolver.core.settings import Settings
from tests.helpers import ROOT, clean_env, free_port


def resolver_serve(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "resolver", "serve", *args],
        cwd=ROOT,
        env=clean_env(**env),
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )


def assert_refused(done: subprocess.CompletedProcess[str], *needles: str) -> None:
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert "Traceback" not in done.stderr + done.stdout
    assert "resolver.started" not in done.stdout
    assert "resolver.listening" not in done.stdout
    for needle in needles:
        assert needle in done.stderr, done.stderr


def _is_float(annotation: object) -> bool:
    if annotation is float:
        return True
    if isinstance(annotation, types.UnionType) or typing.get_origin(annotation) is typing.Union:
        return float in typing.get_args(annotation)
    return False


FLOAT_SETTINGS = sorted(
    name for name, field in Settings.model_fields.items() if _is_float(field.annotation)
)


def test_there_are_float_settings_to_check() -> None:
    assert {"llm_timeout_s", "request_timeout_s", "shutdown_grace_s", "drain_s"} <= set(
        FLOAT_SETTINGS
    )


@pytest.mark.parametrize("value", ["inf", "-inf", "nan", "Infinity", "1e300"])
@pytest.mark.parametrize("name", FLOAT_SETTINGS)
def test_every_float_setting_is_finite_and_bounded(
    name: str, value: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(f"RESOLVER_{name.upper()}", value)
    with pytest.raises(ValidationError) as caught:
        Settings()
    assert [e["loc"] for e in caught.value.errors()] == [(name,)]


def test_a_non_finite_timeout_is_a_configuration_error() -> None:
    done = resolver_serve(RESOLVER_SHUTDOWN_GRACE_S="inf")
    assert_refused(done, "RESOLVER_SHUTDOWN_GRACE_S: Input should be a finite number")


def test_an_empty_host_is_a_configuration_error_not_every_interface() -> None:
    assert_refused(resolver_serve(RESOLVER_HOST=""), "RESOLVER_HOST: must not be empty")
    assert_refused(resolver_serve("--host", ""), "--host: must not be empty")


def test_a_drain_longer_than_the_grace_is_a_configuration_error() -> None:
    done = resolver_serve(RESOLVER_DRAIN_S="5", RESOLVER_SHUTDOWN_GRACE_S="2")
    assert_refused(done, "RESOLVER_DRAIN_S must not exceed RESOLVER_SHUTDOWN_GRACE_S")


def test_a_port_in_use_is_one_line_and_exit_2() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = resolver_serve("--host", "127.0.0.1", "--port", str(port))
        with_workers = resolver_serve("--host", "127.0.0.1", "--port", str(port), "--workers", "2")
    for attempt in (done, with_workers):
        assert_refused(attempt, f"cannot listen on 127.0.0.1:{port}", "already in use")
        assert attempt.stderr.count("\n") == 1
        assert attempt.stdout == ""


@pytest.mark.parametrize(
    ("host", "needle"),
    [
        # A label over 63 characters: no name lookup leaves the machine to find that out.
        ("a" * 70 + ".example", "not a valid host name"),
        ("192.0.2.1", "not one of this machine's"),  # TEST-NET-1, never local
    ],
    ids=["bad-name", "not-local"],
)
def test_a_host_that_cannot_be_listened_on_is_one_line_and_exit_2(host: str, needle: str) -> None:
    done = resolver_serve("--host", host, "--port", str(free_port()))
    assert_refused(done, needle)
    assert done.stderr.count("\n") == 1


def test_workers_must_be_a_sane_count() -> None:
    assert_refused(resolver_serve("--workers", "0"), "--workers")
    with pytest.raises(ValidationError):
        Settings(workers=1000)
