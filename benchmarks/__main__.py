"""Dispatch `python -m benchmarks COMMAND [ARGS]` to the module that implements COMMAND."""

from __future__ import annotations

import importlib
import sys

# command -> module under benchmarks/ exposing `main(argv: list[str]) -> int`
COMMANDS: dict[str, str] = {
    "accuracy": "benchmarks.accuracy",
    "chaos": "benchmarks.chaos",
    "components": "benchmarks.components",
    "check": "benchmarks.check",
    "cache-hits": "benchmarks.cachehits",
    "calls": "benchmarks.calls",
    "timeadversarial": "benchmarks.timeadversarial",
    "timespeed": "benchmarks.timespeed",
    "fake-llm": "resolver.testing.fake_llm",
    "fake-upstreams": "resolver.testing.fake_upstreams",
    "fanout-wall": "benchmarks.fanout_wall",
    "floor": "benchmarks.floor",
    "hotpath": "benchmarks.hotpath",
    "instructions": "benchmarks.instructions",
    "house": "benchmarks.house",
    "load": "benchmarks.load",
    "mcp-overhead": "benchmarks.mcp_overhead",
    "mcp-work": "benchmarks.mcp_work",
    "real-llm": "benchmarks.realllm",
    "run": "benchmarks.run",
    "soak": "benchmarks.soak",
    "where": "benchmarks.where",
}


def main(argv: list[str]) -> int:
    """Run one benchmark command."""
    if not argv or argv[0] not in COMMANDS:
        print("usage: python -m benchmarks {" + ",".join(sorted(COMMANDS)) + "} [ARGS]")
        return 2
    module = importlib.import_module(COMMANDS[argv[0]])
    return int(module.main(argv[1:]))


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
