"""`python -m benchmarks calls [--against REV] [--seconds S]`: Python function calls and profiled
time per rules-only request, by module, of the service beside the floor server — the count
behind docs/performance.md's "lighter middleware" and "resolution path" tables.

Each server runs under cProfile (`python -m benchmarks calls --child OUT MODULE ARGS`: the
profiler switched on by SIGUSR1 after a warm-up, dumped by SIGUSR2), pinned to one core, wrk
on the other with the five `rules` bodies; calls and tottime are divided by the requests wrk
completed while the profiler was on. Profiled time is inflated by the profiler's cost per call,
so calls are the steadier figure; the CPU a request costs unprofiled is `run rules`'s.
`--against REV` adds the service of another commit (`git archive`).
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import pstats
import runpy
import signal
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from benchmarks import bodies
from benchmarks.procs import Proc, export_tree, start_floor, start_service
from benchmarks.wrk import lua_script, pin, run_wrk, wrk_path

ENDPOINT = "/v1/dynamic-params"
# Modules shown on their own line; the rest are summed by their top-level package.
_OWN = ("resolver/", "rules/")


def _child(out: str, module: str, args: list[str]) -> int:
    """Run `python -m MODULE ARGS` with a profiler SIGUSR1 starts and SIGUSR2 dumps."""
    profile = cProfile.Profile()
    signal.signal(signal.SIGUSR1, lambda *_: profile.enable())

    def dump(*_: object) -> None:
        profile.disable()
        profile.dump_stats(out)

    signal.signal(signal.SIGUSR2, dump)
    sys.argv = [module, *args]
    runpy.run_module(module, run_name="__main__")
    return 0


def _server(logdir: Path, name: str, out: Path, root: Path | None) -> Proc:
    child = ("-m", "benchmarks", "calls", "--child", str(out))
    if name == "floor":
        return start_floor(logdir, "floor", runner=(*child, "benchmarks"))
    settings = {"log_level": "INFO"}
    return start_service(logdir, settings, uvloop=True, root=root, runner=(*child, "resolver"))


def _profile(logdir: Path, name: str, root: Path | None, seconds: float, script: Path) -> Path:
    out = logdir / f"{name}.prof"
    with _server(logdir, name, out, root) as proc:
        pin(proc.popen.pid, 0)
        url = proc.base_url + ENDPOINT
        run_wrk(url, script, connections=16, duration_s=1, core=1)
        proc.popen.send_signal(signal.SIGUSR1)
        result = run_wrk(url, script, connections=16, duration_s=seconds, core=1)
        proc.popen.send_signal(signal.SIGUSR2)
        for _ in range(100):
            if out.exists():
                break
            time.sleep(0.05)
    (logdir / f"{name}.requests").write_text(str(result.requests))
    return out


def _by_module(path: Path, requests: int) -> dict[str, tuple[float, float]]:
    """(calls, tottime µs) per request, by module of ours or top-level package of the rest."""
    totals: dict[str, tuple[float, float]] = {}
    stats = pstats.Stats(str(path)).stats  # type: ignore[attr-defined]
    for (filename, _, _), (_, calls, tottime, _, _) in stats.items():
        key = _module(filename)
        seen_calls, seen_time = totals.get(key, (0.0, 0.0))
        totals[key] = (seen_calls + calls / requests, seen_time + tottime * 1e6 / requests)
    return totals


def _module(filename: str) -> str:
    if "site-packages/" in filename:
        return filename.split("site-packages/", 1)[1].split("/", 1)[0].removesuffix(".py")
    for own in _OWN:
        if f"/{own}" in filename:
            return own + filename.rsplit(f"/{own}", 1)[1]
    return "the rest (builtins, the standard library, the floor's own code)"


def _rows(tables: dict[str, dict[str, tuple[float, float]]]) -> Iterator[str]:
    names = list(tables)
    yield "| module | " + " | ".join(f"{n} calls | {n} µs" for n in names) + " |"
    yield "|---|" + "---|---|" * len(names)
    modules = {m for table in tables.values() for m in table}
    order = sorted(modules, key=lambda m: -max(t.get(m, (0, 0))[0] for t in tables.values()))
    for module in order:
        cells = []
        for name in names:
            calls, spent = tables[name].get(module, (0.0, 0.0))
            cells.append(f"{calls:.1f} | {spent:.1f}")
        if any(tables[n].get(module, (0.0, 0.0))[0] >= 0.5 for n in names):
            yield f"| {module} | " + " | ".join(cells) + " |"
    totals = [
        f"{sum(c for c, _ in t.values()):.0f} | {sum(s for _, s in t.values()):.0f}"
        for t in tables.values()
    ]
    yield "| all | " + " | ".join(totals) + " |"


def main(argv: list[str]) -> int:
    """Profile the floor and the service (and `--against`'s) and print the table."""
    if argv[:1] == ["--child"]:
        return _child(argv[1], argv[2], argv[3:])
    parser = argparse.ArgumentParser(prog="python -m benchmarks calls")
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--against", help="another commit's service, profiled the same way")
    args = parser.parse_args(argv)
    if wrk_path() is None:
        print("the calls measure needs wrk: `make wrk` installs Debian's package")
        return 1
    with contextlib.ExitStack() as stack:
        logdir = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="calls-")))
        script = lua_script(logdir / "rules.lua", [b for _, _, b in bodies.RULES_BODIES])
        servers: dict[str, Path | None] = {"floor": None, "service": None}
        if args.against:
            servers[args.against] = export_tree(args.against, logdir)
        tables = {}
        for name, root in servers.items():
            profile = _profile(logdir, name, root, args.seconds, script)
            requests = int((logdir / f"{name}.requests").read_text())
            tables[name] = _by_module(profile, max(1, requests))
    print("Python calls and profiled µs per rules-only request (cProfile; wrk -c16)")
    for row in _rows(tables):
        print(row)
    return 0
