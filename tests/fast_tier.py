"""The pytest plugin of `make test-fast` (`-p tests.fast_tier`): the fast tier starts no process
— a test that tries fails, naming where it belongs (`tests/system/`, or `@pytest.mark.slow`)."""

from __future__ import annotations

import subprocess
from typing import Any

import pytest


@pytest.fixture(autouse=True)
def _no_processes(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(self: subprocess.Popen[Any], args: Any, *rest: Any, **kwargs: Any) -> None:
        raise AssertionError(
            f"make test-fast starts no process (tried {args!r}): move the test to "
            "tests/system/ or mark it @pytest.mark.slow"
        )

    # asyncio's subprocesses are built on Popen too.
    monkeypatch.setattr(subprocess.Popen, "__init__", refuse)
