"""The `house` command: the layout's measures, re-runnable after any change.

- rooms: the units of code a reader finds by name — each package of `resolver/`, the
  composition root `resolver/services.py`, resolver's top-level modules (the command line),
  `rules/`, `tests/` and `benchmarks/`;
- floors: the levels of the room graph: a room's floor is one above the highest room it
  imports (the tests and the benchmarks on top); imports that close a cycle are reported;
- the longest module import chain: the longest path of imports between the modules of
  `resolver/` and `rules/` (static, read from the source: absolute and relative imports alike,
  function-level and `if TYPE_CHECKING` ones included, so no way of writing an import hides
  it);
- modules over 450 lines: the product's modules a reader meets as one long file;
- files one request passes through: the source files of `resolver/` and `rules/` whose code
  runs while the app answers one rules-only `POST /v1/dynamic-params` (the README's example,
  after one warm-up request), found with `sys.setprofile`.

`python -m benchmarks house` prints them; `--chain` and `--files` list the chain and the files.
"""

from __future__ import annotations

import argparse
import ast
import asyncio
import sys
import threading
from pathlib import Path
from types import FrameType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
PRODUCT = ("resolver", "rules")
EVERYTHING = (*PRODUCT, "tests", "benchmarks")

# The README's first example: a metric the rules settle, no LLM.
REQUEST: dict[str, Any] = {
    "logic_properties": [
        {
            "name": "approved_drug_count",
            "type": "metric",
            "parameters": [
                {"name": "instant", "value_from": "input", "if_system_generate": True},
                {"name": "start", "value_from": "input", "if_system_generate": True},
                {"name": "end", "value_from": "input", "if_system_generate": True},
                {"name": "step", "value_from": "input", "if_system_generate": True},
                {"name": "company_id", "value_from": "property"},
            ],
        }
    ],
    "query": "最近3个月的药品数量趋势",
    "additional_context": "now_ms=1762996342241；timezone=Asia/Shanghai",
}


def modules(root: Path = ROOT, bases: tuple[str, ...] = PRODUCT) -> dict[str, Path]:
    """Every module under `bases` by dotted name (a package by its `__init__`)."""
    found: dict[str, Path] = {}
    for base in bases:
        for path in sorted((root / base).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def absolute_module(node: ast.ImportFrom, package: str) -> str:
    """The absolute name a `from … import` names: `from .atoms import Atom` in
    `resolver.timeexpr` → `resolver.timeexpr.atoms`; `from .. import x` → the parent."""
    if node.level == 0:
        return node.module or ""
    parts = package.split(".")
    base = parts[: len(parts) - (node.level - 1)] if node.level > 1 else parts
    return ".".join([*base, *([node.module] if node.module else [])])


def imported_names(path: Path, package: str = "") -> set[str]:
    """Every dotted name a file imports, absolute or relative (`package` is the dotted package
    the file lives in, against which a relative import is read); `from m import x` gives both
    `m` and `m.x`, since `x` may be a module."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            module = absolute_module(node, package)
            if module:
                names.add(module)
            names.update(".".join(filter(None, (module, alias.name))) for alias in node.names)
    return names


def module_imports(path: Path, known: set[str], package: str = "") -> set[str]:
    """The product modules a file imports, absolute or relative."""
    return imported_names(path, package) & known


def package_of(path: Path, root: Path = ROOT) -> str:
    """The dotted package a file's relative imports are read against (its own, for an
    `__init__.py`): `resolver/timeexpr/atoms.py` → `resolver.timeexpr`."""
    return ".".join(path.relative_to(root).parent.parts)


def module_graph(root: Path = ROOT, bases: tuple[str, ...] = PRODUCT) -> dict[str, set[str]]:
    """Module → the modules under `bases` it imports."""
    found = modules(root, bases)
    known = set(found)
    return {
        name: module_imports(path, known, package_of(path, root)) - {name}
        for name, path in found.items()
    }


LONG = 450  # lines: past this a module is one long file to a reader (STYLE 1)


def long_modules(root: Path = ROOT, bases: tuple[str, ...] = PRODUCT) -> dict[str, int]:
    """The modules under `bases` over `LONG` lines, longest first."""
    sizes = {
        name: len(path.read_text(encoding="utf-8").splitlines())
        for name, path in modules(root, bases).items()
    }
    return dict(sorted(((n, s) for n, s in sizes.items() if s > LONG), key=lambda i: -i[1]))


def longest_chain(graph: dict[str, set[str]], start: str | None = None) -> list[str]:
    """The longest import path (from `start`, else from any module; none repeats on it)."""
    memo: dict[str, list[str]] = {}

    def walk(name: str, stack: frozenset[str]) -> list[str]:
        if name in memo:
            return memo[name]
        best = [name]
        for dep in sorted(graph[name]):
            if dep in stack:
                continue
            tail = walk(dep, stack | {name})
            if len(tail) + 1 > len(best):
                best = [name, *tail]
        memo[name] = best
        return best

    sys.setrecursionlimit(max(10_000, sys.getrecursionlimit()))
    starts = sorted(graph) if start is None else [start]
    return max((walk(name, frozenset()) for name in starts), key=len)


def room_of(module: str) -> str:
    """`resolver.kn.pipeline` → `kn`; `resolver.services` → `services`; `resolver.cli` →
    `resolver` (the top-level modules); `rules.spec` → `rules`."""
    parts = module.split(".")
    if parts[0] != "resolver":
        return parts[0]
    if len(parts) == 1 or parts[1] in ("cli", "__main__"):
        return "resolver"
    return parts[1]


def room_graph(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    """Room → the rooms it imports."""
    rooms: dict[str, set[str]] = {}
    for name, deps in graph.items():
        room = room_of(name)
        rooms.setdefault(room, set()).update(room_of(d) for d in deps)
    for room, deps in rooms.items():
        deps.discard(room)
    return rooms


def floors(rooms: dict[str, set[str]]) -> tuple[dict[str, int], list[tuple[str, str]]]:
    """Each room's floor (1 = imports no other room) and the imports that close a cycle."""
    floor: dict[str, int] = {}
    cycles: list[tuple[str, str]] = []

    def level(room: str, stack: tuple[str, ...]) -> int:
        if room in floor:
            return floor[room]
        highest = 0
        for dep in sorted(rooms.get(room, ())):
            if dep in stack:
                cycles.append((room, dep))
                continue
            highest = max(highest, level(dep, (*stack, room)))
        floor[room] = highest + 1
        return floor[room]

    for room in sorted(rooms):
        level(room, ())
    return floor, cycles


async def _files_of_one_request() -> list[str]:
    from aiohttp.test_utils import TestClient, TestServer

    import resolver
    import rules
    from resolver.core.logs import configure_logging
    from resolver.core.settings import Settings
    from resolver.web.app import create_app

    roots = tuple(str(Path(m.__file__ or "").parent) for m in (resolver, rules))
    seen: set[str] = set()

    def profile(frame: FrameType, event: str, arg: Any) -> None:
        if event == "call" and frame.f_code.co_filename.startswith(roots):
            seen.add(frame.f_code.co_filename)

    settings = Settings(log_level="WARNING")
    configure_logging(settings.log_level, settings.log_format)
    async with TestClient(TestServer(create_app(settings))) as client:
        warm = await client.post("/v1/dynamic-params", json=REQUEST)
        await warm.read()
        sys.setprofile(profile)
        threading.setprofile(profile)
        try:
            response = await client.post("/v1/dynamic-params", json=REQUEST)
            await response.read()
        finally:
            sys.setprofile(None)
            threading.setprofile(None)
        assert response.status == 200, response.status
    top = Path(roots[0]).parent
    return sorted(str(Path(f).relative_to(top)) for f in seen)


def files_of_one_request() -> list[str]:
    """The product files whose code runs for one rules-only `/v1/dynamic-params` request."""
    return asyncio.run(_files_of_one_request())


def main(argv: list[str]) -> int:
    """Print the measures."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks house", description=__doc__)
    parser.add_argument("--chain", action="store_true", help="list the longest import chain")
    parser.add_argument("--files", action="store_true", help="list the files of one request")
    parser.add_argument("--no-request", action="store_true", help="skip the request measure")
    parser.add_argument(
        "--from",
        dest="start",
        action="append",
        default=[],
        metavar="MODULE",
        help="also the longest chain from this module (e.g. resolver.web.bodies)",
    )
    args = parser.parse_args(argv)
    graph = module_graph()
    rooms = room_graph(module_graph(bases=EVERYTHING))
    floor, cycles = floors(rooms)
    chain = longest_chain(graph)
    by_floor: dict[int, list[str]] = {}
    for room, level in floor.items():
        by_floor.setdefault(level, []).append(room)
    print(f"rooms: {len(rooms)} ({', '.join(sorted(rooms))})")
    product = max(level for room, level in floor.items() if room not in ("tests", "benchmarks"))
    print(f"floors: {product} of the product, {max(floor.values())} with benchmarks and tests")
    for level in sorted(by_floor, reverse=True):
        print(f"  {level}: {', '.join(sorted(by_floor[level]))}")
    print(f"room cycles: {len(cycles)} {cycles if cycles else ''}".rstrip())
    print(f"modules: {len(graph)}; longest import chain: {len(chain)} modules")
    if args.chain:
        print("  " + "\n  → ".join(chain))
    long = long_modules()
    outside = [name for name in long if not name.startswith("resolver.timeexpr")]
    print(f"modules over {LONG} lines: {len(long)}, {len(outside)} outside resolver.timeexpr")
    for name, size in long.items():
        print(f"  {name}: {size}")
    for start in args.start:
        from_start = longest_chain(graph, start)
        print(f"longest import chain from {start}: {len(from_start)} modules")
        if args.chain:
            print("  " + "\n  → ".join(from_start))
    if not args.no_request:
        files = files_of_one_request()
        print(f"files one rules-only /v1/dynamic-params request runs: {len(files)}")
        if args.files:
            print("  " + "\n  ".join(files))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
