"""The suite's own leak check (`tests/helpers.py: resolver_tasks`) tells resolver's tasks from
the tests' own, wherever the clone sits — also in a folder named `resolver`, the natural name
for a clone of this project, where matching "/resolver/" anywhere in a path failed 28 tests."""

from __future__ import annotations

import asyncio
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from resolver.core.cache import TtlCache
from tests.helpers import ROOT, clean_env, resolver_tasks

# A test whose every step ends with the leak check (`assert_settled`).
LEAK_CHECKED = "tests/system/test_faults_overload.py::test_a_burst_is_bounded_not_queued"
# What a copy needs to run the suite: the package, the rules, the prompts, the tests and the
# pytest configuration.
COPIED = ("resolver", "rules", "prompts", "tests", "pyproject.toml")


async def _task_from(path: Path) -> tuple[asyncio.Task[Any], asyncio.Event]:
    """A pending task whose coroutine's code sits in `path`."""
    path.parent.mkdir(parents=True)
    namespace: dict[str, Any] = {}
    code = compile("async def waits(event):\n    await event.wait()\n", str(path), "exec")
    exec(code, namespace)  # noqa: S102 - our own two lines, given a file name
    event = asyncio.Event()
    task = asyncio.create_task(namespace["waits"](event))
    await asyncio.sleep(0)
    return task, event


async def test_a_test_modules_task_in_a_folder_named_resolver_is_not_resolvers(
    tmp_path: Path,
) -> None:
    task, event = await _task_from(tmp_path / "resolver" / "tests" / "test_x.py")
    try:
        assert task not in resolver_tasks()
    finally:
        event.set()
        await task


async def test_a_task_running_package_code_is_resolvers() -> None:
    event = asyncio.Event()
    cache: TtlCache[str, bool] = TtlCache()
    task = asyncio.create_task(cache.get("key", event.wait, lambda _: 0))
    await asyncio.sleep(0)
    try:
        assert task in resolver_tasks()
    finally:
        event.set()
        await task


@pytest.mark.slow
def test_the_leak_check_passes_in_a_copy_whose_folder_is_named_resolver(tmp_path: Path) -> None:
    copy = tmp_path / "resolver"
    copy.mkdir()
    for name in COPIED:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, copy / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(source, copy / name)
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", LEAK_CHECKED],
        cwd=copy,
        env=clean_env(),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert "1 passed" in done.stdout
