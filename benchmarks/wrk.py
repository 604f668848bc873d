"""An outside load tester's tools: wrk driving a server pinned to one core, and the server's
CPU read from the kernel's scheduler statistics.

- `run_wrk`: wrk (Debian's package; `make wrk`) with a Lua script that cycles through the
  given bodies, itself pinned to its own core; parses what wrk prints.
- `cpu_ns`: the CPU time of every thread of a process, from `/proc/PID/task/*/schedstat`
  (nanoseconds on the CPU, exact, not sampled).
- `pin`: every thread of a process onto one core.
"""

from __future__ import annotations

import math
import os
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

_REQUESTS = re.compile(r"^\s*(\d+) requests in ([\d.]+)(\w+)", re.MULTILINE)
_NON_2XX = re.compile(r"Non-2xx or 3xx responses: (\d+)")
_ERRORS = re.compile(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)")
_PERCENTILE = re.compile(r"^\s*(50|99)%\s+([\d.]+)(us|ms|s)\s*$", re.MULTILINE)
# In a body, the place of each request's own number (`lua_script`).
SEQ = "{{seq}}"
_UNIT_S = {"us": 1e-6, "ms": 1e-3, "s": 1.0, "m": 60.0}


def wrk_path() -> str | None:
    """wrk's path, or None when it is not installed."""
    return shutil.which("wrk")


@dataclass(frozen=True, slots=True)
class WrkResult:
    """What one wrk run printed."""

    requests: int
    duration_s: float
    non_2xx: int
    socket_errors: int
    p50_ms: float | None
    p99_ms: float | None

    @property
    def rps(self) -> float:
        """Completed requests per second."""
        return self.requests / self.duration_s if self.duration_s else 0.0


def lua_script(
    path: Path,
    bodies: list[bytes],
    *,
    content_type: str = "application/json",
    headers: dict[str, str] | None = None,
) -> Path:
    """A wrk script that POSTs the bodies in turn (each connection walks the list), with these
    headers besides `Content-Type`."""
    lines = [f'wrk.method = "POST"\nwrk.headers["Content-Type"] = "{content_type}"']
    for name, value in (headers or {}).items():
        if name.lower() != "content-type":
            lines.append(f'wrk.headers["{name}"] = "{value}"')
    lines.append("bodies = {")
    for body in bodies:
        text = body.decode()
        level = 0
        while f"]{'=' * level}]" in text:
            level += 1
        lines.append(f"  [{'=' * level}[{text}]{'=' * level}],")
    lines.append("}")
    # A body holding SEQ gets each request's number there (a text the server never saw).
    lines.append(
        "local i = 0\n"
        "request = function()\n"
        "  i = i + 1\n"
        "  local body = bodies[(i % #bodies) + 1]\n"
        f'  local at = string.find(body, "{SEQ}", 1, true)\n'
        "  if at then\n"
        f"    body = string.sub(body, 1, at - 1) .. i .. string.sub(body, at + {len(SEQ)})\n"
        "  end\n"
        "  return wrk.format(nil, nil, nil, body)\n"
        "end"
    )
    path.write_text("\n".join(lines) + "\n")
    return path


def parse(output: str) -> WrkResult:
    """The figures of wrk's report (raise if it printed none)."""
    found = _REQUESTS.search(output)
    if found is None:
        raise RuntimeError(f"wrk printed no request count:\n{output}")
    duration = float(found.group(2)) * _UNIT_S.get(found.group(3), 1.0)
    errors = _ERRORS.search(output)
    percentiles = {
        m.group(1): float(m.group(2)) * _UNIT_S[m.group(3)] * 1e3
        for m in _PERCENTILE.finditer(output)
    }
    non_2xx = _NON_2XX.search(output)
    return WrkResult(
        requests=int(found.group(1)),
        duration_s=duration,
        non_2xx=int(non_2xx.group(1)) if non_2xx else 0,
        socket_errors=sum(int(g) for g in errors.groups()) if errors else 0,
        p50_ms=percentiles.get("50"),
        p99_ms=percentiles.get("99"),
    )


def run_wrk(
    url: str, script: Path, *, connections: int, duration_s: float, core: int | None
) -> WrkResult:
    """One wrk run (one thread, `connections` keep-alive connections), pinned to `core`; wrk
    counts time in whole seconds, so the duration is rounded up to one."""
    binary = wrk_path()
    if binary is None:
        raise RuntimeError("wrk is not installed (make wrk)")
    argv = [
        binary,
        "-t1",
        f"-c{connections}",
        f"-d{max(1, math.ceil(duration_s))}s",
        "--latency",
        "-s",
    ]
    argv += [str(script), url]
    if core is not None:
        argv = ["taskset", "-c", str(core), *argv]
    done = subprocess.run(
        argv,
        capture_output=True,
        text=True,
        check=True,
        timeout=duration_s + 30,
    )
    return parse(done.stdout)


def cpu_ns(pid: int) -> int:
    """Nanoseconds every thread of the process has run on a CPU so far (threads that ended
    are counted in their process's totals by the kernel only while it lives; the servers
    measured here keep their threads)."""
    total = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            total += int((task / "schedstat").read_text().split()[0])
        except (OSError, ValueError, IndexError):
            continue  # the thread ended between the listing and the read
    return total


def pin(pid: int, core: int) -> None:
    """Every thread of the process onto `core` (threads started later inherit it)."""
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            os.sched_setaffinity(int(task.name), {core})
        except (OSError, ValueError):
            continue


@dataclass(frozen=True, slots=True)
class Loaded:
    """One wrk run against a server process, and the CPU that process spent during it."""

    result: WrkResult
    spent_ns: int

    @property
    def spent_s(self) -> float:
        """The server's CPU during the run, in seconds."""
        return self.spent_ns / 1e9

    @property
    def cpu_us_per_request(self) -> float:
        """The server's CPU per request wrk completed."""
        return self.spent_s * 1e6 / max(1, self.result.requests)

    @property
    def busy(self) -> float:
        """The share of the run's wall time the server was on a CPU (≥ 0.9: saturated)."""
        return self.spent_s / self.result.duration_s if self.result.duration_s else 0.0


def load_server(
    pid: int, url: str, script: Path, *, connections: int, duration_s: float, core: int | None
) -> Loaded:
    """`run_wrk` against the server of process `pid`, with the CPU its threads spent meanwhile
    (`cpu_ns` before and after)."""
    before = cpu_ns(pid)
    result = run_wrk(url, script, connections=connections, duration_s=duration_s, core=core)
    return Loaded(result, cpu_ns(pid) - before)
