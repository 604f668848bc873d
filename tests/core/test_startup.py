"""Start-up warnings: a `RESOLVER_*` variable nothing reads is named with the closest known
one, so a misspelling is not silently ignored."""

from __future__ import annotations

import pytest
from structlog.testing import capture_logs

from resolver.core.startup import known_variables, unknown_variables, warn_unknown_variables


@pytest.mark.parametrize(
    ("environ", "expected"),
    [
        pytest.param(
            {"RESOLVER_LLM_QSP": "3"}, [("RESOLVER_LLM_QSP", "RESOLVER_LLM_QPS")], id="swap"
        ),
        pytest.param({"RESOLVER_PROT": "80"}, [("RESOLVER_PROT", "RESOLVER_PORT")], id="typo"),
        pytest.param(
            {"RESOLVER_ZZZZZZZZZZZZZZZZZZZZZZ": "1"},
            [("RESOLVER_ZZZZZZZZZZZZZZZZZZZZZZ", None)],
            id="nothing-close",
        ),
        pytest.param({"RESOLVER_PORT": "80", "PATH": "/bin"}, [], id="known-and-foreign"),
        pytest.param({"resolver_port": "80"}, [], id="lower-case-is-read"),
        pytest.param({"RESOLVER_DIFFERENTIAL": "1"}, [], id="a-test-tier-variable"),
    ],
)
def test_unknown_variables_name_the_closest(
    environ: dict[str, str], expected: list[tuple[str, str | None]]
) -> None:
    assert unknown_variables(environ) == expected


def test_every_setting_is_known() -> None:
    assert {"RESOLVER_PORT", "RESOLVER_LLM_QPS", "RESOLVER_PUBLIC_URL"} <= known_variables()


def test_the_warning_is_one_log_line_per_variable() -> None:
    with capture_logs() as lines:
        warn_unknown_variables({"RESOLVER_LLM_QSP": "3", "RESOLVER_TIMEZONE": "UTC"})
    assert [(x["event"], x["variable"], x["closest"]) for x in lines] == [
        ("resolver.unknown_variable", "RESOLVER_LLM_QSP", "RESOLVER_LLM_QPS"),
        ("resolver.unknown_variable", "RESOLVER_TIMEZONE", "RESOLVER_DEFAULT_TIMEZONE"),
    ]
