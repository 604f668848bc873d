"""The README and docs/ say what the service does: their request examples run against the app
and answer what they show, their Python examples run as doctests, the commands they show
exist, and their links resolve.

A fenced block whose info string is `sh example` holds one `curl` command (`sh example
rules-only`: the answer documented is the one with no LLM, as `make run` serves it); the fenced
block right after it, `json answer [STATUS] [text]`, the answer it documents. Every key the answer
shows is in the real answer with that value: `"…"` stands for any value, a string ending in
`…` for its beginning, a list ending in `"…"` for its first items; `text` compares the JSON
text of an MCP tool result (`result.content[0].text`). The app runs wired as `make demo` wires
it (`resolver/testing/demo.py`): the fake LLM and the fake upstreams serving the demo knowledge
network (docs/testing.md), as `localhost:8080`.
"""

from __future__ import annotations

import doctest
import importlib.util
import re
import shlex
import tomllib
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any
from urllib.parse import urlsplit

import orjson
import pytest
from aiohttp.test_utils import TestClient, TestServer

import resolver.timeexpr.business
import resolver.timeexpr.context
import resolver.timeexpr.fiscal_config
import resolver.timeexpr.query_metric
import resolver.timeexpr.timewindow
import resolver.timeexpr.window
from benchmarks.__main__ import COMMANDS
from resolver.core.settings import Settings
from resolver.testing.demo import demo_settings, demo_upstreams_app
from resolver.testing.fake_llm import FakeLLM
from resolver.web.app import create_app
from tests.helpers import ROOT, ClientFactory

DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
_FENCE = re.compile(r"^```([^\n]*)\n(.*?)^```[ \t]*$", re.MULTILINE | re.DOTALL)
_ANY = "…"


@dataclass(frozen=True)
class Example:
    """One documented request and the answer documented for it."""

    where: str
    command: str
    answer: Any
    status: int
    text: bool
    rules_only: bool


def _fences(path: Path) -> list[tuple[int, str, str]]:
    source = path.read_text(encoding="utf-8")
    return [
        (source.count("\n", 0, m.start()) + 1, m.group(1).strip(), m.group(2))
        for m in _FENCE.finditer(source)
    ]


def _examples() -> list[Example]:
    found = []
    for path in DOCS:
        fences = _fences(path)
        for index, (line, info, body) in enumerate(fences):
            if info not in ("sh example", "sh example rules-only"):
                continue
            where = f"{path.relative_to(ROOT)}:{line}"
            answer, status, text = None, 200, False
            if index + 1 < len(fences) and fences[index + 1][1].startswith("json answer"):
                words = fences[index + 1][1].split()[2:]
                status = next((int(w) for w in words if w.isdigit()), 200)
                text = "text" in words
                answer = orjson.loads(fences[index + 1][2])
            found.append(Example(where, body, answer, status, text, info.endswith("rules-only")))
    return found


EXAMPLES = _examples()


def curl(command: str) -> tuple[str, str, dict[str, str], bytes | None]:
    """The method, path, headers and body of a documented `curl` command."""
    words = shlex.split(command.replace("\\\n", " "))
    assert words[0] == "curl", command
    method, url, headers, body = "GET", "", {}, None
    rest = iter(words[1:])
    for word in rest:
        if word == "-s":
            continue
        if word == "-H":
            name, _, value = next(rest).partition(":")
            headers[name.strip()] = value.strip()
        elif word == "-d":
            body = next(rest).encode()
            method = "POST" if method == "GET" else method
        elif word == "-X":
            method = next(rest)
        else:
            url = word
    parts = urlsplit(url if "://" in url else f"http://{url}")
    assert parts.netloc == "localhost:8080", url
    return method, parts.path + (f"?{parts.query}" if parts.query else ""), headers, body


def mismatches(expected: Any, actual: Any, where: str = "$") -> list[str]:
    """Where `actual` differs from the documented `expected` (see the module docstring)."""
    if isinstance(expected, dict):
        return _object_mismatches(expected, actual, where)
    if isinstance(expected, list):
        return _list_mismatches(expected, actual, where)
    if expected == _ANY:
        return []
    if isinstance(expected, str) and expected.endswith(_ANY):
        ok = isinstance(actual, str) and actual.startswith(expected[:-1])
        return [] if ok else [f"{where}: {actual!r} does not start with {expected[:-1]!r}"]
    return [] if expected == actual else [f"{where}: {actual!r}, documented {expected!r}"]


def _object_mismatches(expected: dict[str, Any], actual: Any, where: str) -> list[str]:
    if not isinstance(actual, dict):
        return [f"{where}: {actual!r} is not an object"]
    found = []
    for key, value in expected.items():
        if key not in actual:
            found.append(f"{where}.{key}: missing")
        else:
            found += mismatches(value, actual[key], f"{where}.{key}")
    return found


def _list_mismatches(expected: list[Any], actual: Any, where: str) -> list[str]:
    if not isinstance(actual, list):
        return [f"{where}: {actual!r} is not a list"]
    open_ended = bool(expected) and expected[-1] == _ANY
    shown = expected[:-1] if open_ended else expected
    if len(actual) < len(shown) or (not open_ended and len(actual) != len(shown)):
        return [f"{where}: {len(actual)} items, documented {len(expected)}"]
    return [m for i, e in enumerate(shown) for m in mismatches(e, actual[i], f"{where}[{i}]")]


def test_the_docs_hold_examples() -> None:
    assert sum(e.where.startswith("README.md") for e in EXAMPLES) >= 2
    assert len(EXAMPLES) >= 8
    assert all(e.answer is not None for e in EXAMPLES), [e.where for e in EXAMPLES]


@pytest.fixture
def make_demo_client(aiohttp_server: Any, aiohttp_client: Any) -> ClientFactory:
    """The service as `make demo` wires it: the fake LLM (its default, plausible answers)
    and the fake upstreams serving the whole demo knowledge network on one port."""

    async def factory(**overrides: Any) -> TestClient[Any, Any]:
        llm: TestServer = await aiohttp_server(FakeLLM().app())
        upstreams: TestServer = await aiohttp_server(demo_upstreams_app())
        values: dict[str, Any] = demo_settings(
            str(llm.make_url("/v1")),
            str(upstreams.make_url("/")).rstrip("/"),
            "http://localhost:8080",
        )
        values.update(overrides)
        client: TestClient[Any, Any] = await aiohttp_client(create_app(Settings(**values)))
        return client

    return factory


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: e.where)
async def test_a_documented_request_answers_as_documented(
    example: Example, make_demo_client: ClientFactory
) -> None:
    # A rules-only example: the same fakes, no LLM (what the rules alone answer).
    client = await make_demo_client(**({"llm_base_url": None} if example.rules_only else {}))
    method, path, headers, body = curl(example.command)
    response = await client.request(method, path, headers=headers, data=body)
    raw = await response.read()
    assert response.status == example.status, raw[:2000]
    answer = orjson.loads(raw)
    if example.text:
        answer = orjson.loads(answer["result"]["content"][0]["text"])
    wrong = mismatches(example.answer, answer)
    assert not wrong, (wrong, answer)


def _python_examples() -> list[tuple[str, str]]:
    """Every fenced `python` block of the docs that holds `>>>` examples, with where it is."""
    return [
        (f"{path.relative_to(ROOT)}:{line}", body)
        for path in DOCS
        for line, info, body in _fences(path)
        if info == "python" and ">>>" in body
    ]


PYTHON_EXAMPLES = _python_examples()


def test_the_library_page_holds_python_examples() -> None:
    assert sum(where.startswith("docs/time-windows.md") for where, _ in PYTHON_EXAMPLES) >= 3


@pytest.mark.parametrize(("where", "source"), PYTHON_EXAMPLES, ids=[w for w, _ in PYTHON_EXAMPLES])
def test_a_documented_python_example_runs_as_shown(where: str, source: str) -> None:
    example = doctest.DocTestParser().get_doctest(source, {}, where, where, 0)
    shown: list[str] = []
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(example, out=shown.append)
    assert runner.failures == 0, "".join(shown)


@pytest.mark.parametrize(
    "module",
    [
        *(resolver.timeexpr.window, resolver.timeexpr.timewindow, resolver.timeexpr.context),
        *(
            resolver.timeexpr.business,
            resolver.timeexpr.fiscal_config,
            resolver.timeexpr.query_metric,
        ),
    ],
    ids=lambda m: m.__name__,
)
def test_the_docstring_examples_of_the_library_run(module: ModuleType) -> None:
    failures, tried = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert (failures, tried > 0) == (0, True)


_PYTHON_M = re.compile(r"python -m ([\w.]+)(?: ([\w-]+))?")


def test_the_commands_the_docs_show_exist() -> None:
    shown = {
        match.groups()
        for path in DOCS
        for _, info, body in _fences(path)
        if info.split()[:1] == ["sh"]
        for match in _PYTHON_M.finditer(body)
    }
    assert ("benchmarks", "load") in shown
    for module, command in shown:
        assert importlib.util.find_spec(module) is not None, module
        if module == "benchmarks":
            assert command in COMMANDS, command


_LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


@pytest.mark.parametrize("path", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_links_of_the_docs_resolve(path: Path) -> None:
    text = _FENCE.sub("", path.read_text(encoding="utf-8"))
    targets = [t for t in _LINK.findall(text) if "://" not in t]
    missing = [t for t in targets if not (path.parent / t).exists()]
    assert not missing, missing


def test_every_setting_is_in_the_configuration_reference() -> None:
    reference = (ROOT / "docs" / "configuration.md").read_text(encoding="utf-8")
    missing = [
        f"RESOLVER_{name.upper()}"
        for name in Settings.model_fields
        if f"`RESOLVER_{name.upper()}`" not in reference
    ]
    assert not missing


def _requirement_names() -> set[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    requirements = [
        *project["dependencies"],
        *(r for extra in project["optional-dependencies"].values() for r in extra),
    ]
    return {re.split(r"[\[<>=;!~ ]", r, maxsplit=1)[0] for r in requirements} - {"resolver"}


def test_every_dependency_is_justified() -> None:
    page = (ROOT / "docs" / "dependencies.md").read_text(encoding="utf-8")
    rows = [line.split("|")[1] for line in page.splitlines() if line.startswith("| ")]
    named = set(re.findall(r"[A-Za-z][\w.-]*", " ".join(rows)))
    assert _requirement_names() - named == set()
