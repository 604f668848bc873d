"""The architecture holds: imports flow one way (web → features → shared services → core),
each package says what it may import, and test modules never import each other."""

from __future__ import annotations

import ast
import re
import textwrap
from pathlib import Path

import pytest

from benchmarks.house import imported_names, long_modules, longest_chain, module_graph, package_of
from tests.helpers import ROOT

PACKAGE = ROOT / "resolver"

# What each room may import of resolver and of `rules/`, besides itself
# (docs/architecture.md). `rules` is the top-level package of the validators (pure: it imports
# nothing of resolver); a room that imports it says so like any other.
ALLOWED: dict[str, set[str]] = {
    "rules": set(),
    "core": {"timeexpr"},  # the one `Language` is the time scanner's
    "timeexpr": set(),  # pure: a library of its own (SPEC §9)
    "toolschema": {"core"},
    "llm": {"core", "rules"},
    "upstreams": {"core"},
    "testing": {"core"},
    "params": {"core", "llm", "timeexpr", "toolschema", "rules"},
    "actions": {"core", "toolschema", "upstreams"},
    "kn": {"core", "llm", "params", "toolschema", "upstreams", "rules"},
    "windows": {"core", "timeexpr", "rules"},  # time windows as a service (SPEC §9)
    # The composition root (`resolver/services.py`, a module of its own): builds the graph.
    "services": {"core", "llm", "upstreams", "params", "kn", "actions", "windows"},
    "mcp": {"core", "upstreams", "params", "kn", "actions", "windows", "services", "rules"},
    "web": {
        *("core", "llm", "timeexpr", "toolschema", "upstreams", "params", "kn", "actions"),
        *("windows", "services", "mcp", "rules"),
    },
    "server": {"core", "web"},
}
# Rooms outside `resolver/`: the validators, a top-level package of their own.
OUTSIDE = {"rules"}
# Rooms that are one module rather than a package.
MODULE_ROOMS = {"services"}
# Top-level modules: the command line, `python -m resolver` and the composition root.
TOP_LEVEL = {"__init__.py", "__main__.py", "cli.py", *(f"{room}.py" for room in MODULE_ROOMS)}


def imported(path: Path) -> set[str]:
    """Every module name a file imports, absolute or relative (read as the absolute name, so
    `from ..kn import pipeline` is `resolver.kn.pipeline` like its absolute spelling)."""
    return imported_names(path, package_of(path, ROOT))


def resolver_packages(path: Path) -> set[str]:
    """The rooms a file imports (`resolver.kn.pipeline` → `kn`; `resolver.services` →
    `services`; `resolver.cli` → `cli`, which no room may import; `rules.spec` → `rules`)."""
    found = set()
    for name in imported(path):
        parts = name.split(".")
        if parts[0] in OUTSIDE:
            found.add(parts[0])
            continue
        if parts[0] != "resolver" or len(parts) == 1:
            continue
        if (PACKAGE / parts[1]).is_dir() or (PACKAGE / f"{parts[1]}.py").is_file():
            found.add(parts[1])
    return found


def room_of(path: Path) -> str:
    """`resolver/kn/pipeline.py` → `kn`; `resolver/timeexpr/lang/zh.py` → `timeexpr`;
    `resolver/services.py` → `services`; `rules/spec.py` → `rules`."""
    if path.parent == PACKAGE:
        return path.stem
    if path.is_relative_to(PACKAGE):
        return path.relative_to(PACKAGE).parts[0]
    return path.parent.name


def doc_path(room: str) -> Path:
    """The module whose docstring says what a room may import."""
    if room in OUTSIDE:
        return ROOT / room / "__init__.py"
    return PACKAGE / (f"{room}.py" if room in MODULE_ROOMS else f"{room}/__init__.py")


PACKAGE_FILES = sorted(
    [
        *PACKAGE.glob("*/**/*.py"),  # a package's subpackages too (`timeexpr/lang/`)
        *(PACKAGE / f"{room}.py" for room in sorted(MODULE_ROOMS)),
        *(file for room in sorted(OUTSIDE) for file in (ROOT / room).glob("*.py")),
    ]
)


@pytest.mark.parametrize("path", PACKAGE_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_imports_flow_one_way(path: Path) -> None:
    package = room_of(path)
    assert package in ALLOWED, f"new package {package}: add it to ALLOWED and the docs"
    wrong = resolver_packages(path) - ALLOWED[package] - {package}
    assert not wrong, f"{package} may not import {sorted(wrong)}"
    outside = {n for n in imported(path) if n.split(".")[0] in ("tests", "benchmarks")}
    assert not outside, f"{path.name} imports {sorted(outside)}"


def test_a_relative_import_counts_as_its_absolute_name(tmp_path: Path) -> None:
    # The layout test and the house measure read imports alike: writing an import relative
    # must not hide it from either.
    package = tmp_path / "resolver" / "kn"
    package.mkdir(parents=True)
    for path in (tmp_path / "resolver" / "__init__.py", package / "__init__.py"):
        path.write_text("")
    (package / "steps.py").write_text("")
    (package / "pipeline.py").write_text(
        textwrap.dedent(
            """
            from . import steps
            from .steps import step
            from ..services import Services

            def later() -> None:
                from ..params.service import ParamsService
            """
        )
    )
    names = imported_names(package / "pipeline.py", package_of(package / "pipeline.py", tmp_path))
    assert {"resolver.kn.steps", "resolver.services", "resolver.params.service"} <= names
    graph = module_graph(tmp_path, ("resolver",))
    assert graph["resolver.kn.pipeline"] == {"resolver.kn", "resolver.kn.steps"}


# Issue 32: the longest module import chain of `resolver/` and `rules/` (every import, relative,
# function-level and `if TYPE_CHECKING` ones included; `python -m benchmarks house --chain`).
LONGEST_CHAIN = 24


def test_the_longest_import_chain_stays_short() -> None:
    chain = longest_chain(module_graph())
    assert len(chain) <= LONGEST_CHAIN, " → ".join(chain)


def test_no_module_outside_the_scanner_is_a_long_file() -> None:
    # The scanner's own split belongs to the time reader's issue.
    long = {n: s for n, s in long_modules().items() if not n.startswith("resolver.timeexpr")}
    assert long == {}


def test_only_the_command_line_lives_at_the_top() -> None:
    assert {p.name for p in PACKAGE.glob("*.py")} == TOP_LEVEL
    packages = {p.name for p in PACKAGE.iterdir() if p.is_dir() and p.name != "__pycache__"}
    assert packages == set(ALLOWED) - MODULE_ROOMS - OUTSIDE


# A room named in a "May import:" paragraph: `resolver.kn`, `rules`.
_NAMED_ROOM = re.compile(r"`(?:resolver\.(\w+)|(rules))`")


@pytest.mark.parametrize("package", sorted(ALLOWED))
def test_each_package_says_what_it_may_import(package: str) -> None:
    path = doc_path(package)
    doc = ast.get_docstring(ast.parse(path.read_text()))
    assert doc, f"{path.relative_to(ROOT)} has no docstring"
    assert "May import:" in doc
    said = doc.split("May import:", 1)[1].split("\n\n", 1)[0]
    if "every other package" in said:  # the web edge
        assert ALLOWED[package] == set(ALLOWED) - {package, "server", "testing"}
        return
    named = {inside or outside for inside, outside in _NAMED_ROOM.findall(said)}
    assert named == ALLOWED[package], f"{path.relative_to(ROOT)}: the docstring says {named}"


def test_rules_stand_alone() -> None:
    for path in (ROOT / "rules").glob("*.py"):
        assert not {n for n in imported(path) if n.split(".")[0] == "resolver"}, path.name


# A rule number as the code cites it: `Violation("7.2.2", …)`, `rule = "7.3.2"`, `rule 3.1.1`,
# `rules 4.1.2, 4.3.1, 7.3.1`.
_CITED = re.compile(r"(?:Violation\(\s*|rule = |rules? )\"?(\d\.\d+\.\d+(?:, \d\.\d+\.\d+)*)")
_CATALOGUED = re.compile(r"^\s+(\d\.\d+\.\d+)  ", re.MULTILINE)


def test_every_rule_number_lives_in_rules() -> None:
    doc = ast.get_docstring(ast.parse((ROOT / "rules" / "__init__.py").read_text())) or ""
    catalogue = set(_CATALOGUED.findall(doc))
    cited: dict[str, set[str]] = {}
    for path in [*(ROOT / "rules").glob("*.py"), *PACKAGE.rglob("*.py")]:
        if path.name == "__init__.py" and path.parent.name == "rules":
            continue
        for found in _CITED.findall(path.read_text(encoding="utf-8")):
            for number in found.split(", "):
                cited.setdefault(number, set()).add(str(path.relative_to(ROOT)))
    unknown = {n: sorted(p) for n, p in cited.items() if n not in catalogue}
    assert not unknown, f"rule numbers missing from rules/__init__.py: {unknown}"
    assert catalogue - set(cited) == set(), "rules/__init__.py lists numbers nothing cites"


TEST_MODULES = sorted((ROOT / "tests").rglob("test_*.py"))


@pytest.mark.parametrize("path", TEST_MODULES, ids=lambda p: str(p.relative_to(ROOT / "tests")))
def test_test_modules_never_import_each_other(path: Path) -> None:
    others = {
        n
        for n in imported(path)
        if n.startswith("tests.")
        and any(part.startswith(("test_", "conftest")) for part in n.split(".")[1:])
    }
    assert not others, f"{path.name} imports {sorted(others)}; share through tests/helpers.py"


# Besides one folder per package: `system/` for the suites that start processes (faults, fuzz,
# cluster, workers, packaging) and `rules/` for the validators.
TEST_FOLDERS = {*ALLOWED, "rules", "system"} - {"testing"}
# Tests of the house as a whole, not of one package.
TOP_LEVEL_TESTS = {"test_layout.py", "test_helpers.py", "test_docs.py"}


def test_tests_mirror_the_packages() -> None:
    tests = ROOT / "tests"
    folders = {p.name for p in tests.iterdir() if p.is_dir() and p.name != "__pycache__"}
    assert folders - TEST_FOLDERS == set(), "a test folder that names no package"
    assert {p.name for p in tests.glob("test_*.py")} <= TOP_LEVEL_TESTS
    for folder in folders:
        doc = ast.get_docstring(ast.parse((tests / folder / "__init__.py").read_text()))
        assert doc, f"tests/{folder}/__init__.py has no docstring"
