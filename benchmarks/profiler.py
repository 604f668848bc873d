"""The project's own on-CPU profiler: where a served request's CPU goes, by component.

A thread samples the serving (main) thread's stack at a fixed rate and charges to that stack
the CPU the main thread spent since the previous sample, read from the thread's own CPU clock
(`time.pthread_getcpuclockid`): time off the CPU (waiting in `epoll`, for the GIL) is never
charged, and nothing is charged when the thread did not run. Each charge goes to one
component, the innermost frame that matches a component's marks (so `time evaluation` inside
the handler is not also `handler glue`); a stack nothing matches is `aiohttp + loop + kernel`.

`python -m benchmarks.profiler -- resolver serve` runs the service under it
(`benchmarks/components.py` drives it and prints the table). SIGUSR2 opens the measured
window (the counts start from zero) and a second SIGUSR2 closes it; the counts are written as
JSON to `$PROFILE_OUT` when the process exits.
"""

from __future__ import annotations

import atexit
import json
import os
import signal
import sys
import threading
import time
from collections import Counter
from collections.abc import Iterator
from types import FrameType

# component -> marks (a substring of "path:function" of a frame). Innermost match wins; the
# order below only breaks ties within one frame.
COMPONENTS: dict[str, tuple[str, ...]] = {
    "access line": ("resolver/core/logs.py:",),
    "metrics": ("resolver/core/metrics.py:",),
    "pydantic validation": ("model_validate_json", "/pydantic/", "/pydantic_core/"),
    "time evaluation": ("resolver/timeexpr/",),
    "rules": ("/rules/",),
    "frame": ("resolver/params/frame.py:", "resolver/params/context.py:"),
    "property states, merge": ("resolver/params/",),
    "answer": (
        "resolver/core/responses.py:",
        "resolver/web/negotiation.py:",
        "resolver/web/bodies.py:render",
    ),
    "middleware": (
        "resolver/web/middleware.py:",
        "resolver/server/guard.py:",
        "resolver/core/tracing",
    ),
    "handler glue": ("resolver/web/", "resolver/core/"),
}
REST = "aiohttp + loop + kernel"


def component_of(frames: Iterator[str]) -> str:
    """The component of a stack, given its frames innermost first as "path:function"."""
    for frame in frames:
        for name, marks in COMPONENTS.items():
            if any(mark in frame for mark in marks):
                return name
    return REST


def _frames(frame: FrameType | None) -> Iterator[str]:
    while frame is not None:
        code = frame.f_code
        yield f"{code.co_filename}:{code.co_qualname}"
        frame = frame.f_back


class Sampler(threading.Thread):
    """Samples one thread's stack, charging it the CPU that thread used since the last sample."""

    def __init__(self, target: int, hz: float) -> None:
        super().__init__(name="on-cpu-sampler", daemon=True)
        self._target = target
        self._period = 1.0 / hz
        self._clock = time.pthread_getcpuclockid(target)
        self.charged_ns: Counter[str] = Counter()
        self.samples = 0
        self.recording = False
        self._done = threading.Event()

    def toggle(self) -> None:
        """Open the window (from zero) or close it."""
        if not self.recording:
            self.charged_ns.clear()
            self.samples = 0
        self.recording = not self.recording

    def run(self) -> None:
        """Sample until stopped."""
        last = time.clock_gettime_ns(self._clock)
        while not self._done.wait(self._period):
            now = time.clock_gettime_ns(self._clock)
            if now == last:
                continue
            if self.recording:
                frame = sys._current_frames().get(self._target)
                self.charged_ns[component_of(_frames(frame))] += now - last
                self.samples += 1
            last = now

    def stop(self) -> dict[str, object]:
        """Stop sampling; the counts."""
        self._done.set()
        self.join(timeout=1.0)
        return {
            "samples": self.samples,
            "charged_ns": dict(self.charged_ns),
            "thread_cpu_ns": sum(self.charged_ns.values()),
        }


def main(argv: list[str]) -> int:
    """Run `resolver ARGS` (after `--`) on this thread under the sampler."""
    args = argv[1:] if argv[:1] == ["--"] else argv
    if args[:1] == ["resolver"]:
        args = args[1:]
    out = os.environ.get("PROFILE_OUT")
    sampler = Sampler(
        threading.main_thread().ident or 0, float(os.environ.get("PROFILE_HZ", "1000"))
    )
    # The sampler runs only when it holds the GIL: with the default 5 ms switch interval it
    # would wake mostly while the loop waits in epoll. 100 µs lets it in between bytecodes.
    sys.setswitchinterval(float(os.environ.get("PROFILE_SWITCH_S", "0.0001")))
    sampler.start()
    signal.signal(signal.SIGUSR2, lambda *_: sampler.toggle())

    def dump() -> None:
        counts = sampler.stop()
        if out:
            with open(out, "w") as handle:
                json.dump(counts, handle)

    atexit.register(dump)
    from resolver.cli import main as resolver_main

    return resolver_main(args)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
