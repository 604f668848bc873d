"""Events counted in plain numbers and moved into prometheus_client's objects later (at the
scrape, `Metrics.render`): no lock and one call an event where a counter's `inc` and a
histogram's `observe` take ten (issue 33). Under `--workers N` (prometheus_client's
multiprocess mode) every event is written at once instead: a scrape reads every worker's files,
and a killed worker's counts must stay.
"""

from __future__ import annotations

from bisect import bisect_left

from prometheus_client import Counter, Histogram

LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30)
# The latency histograms' upper bounds, as prometheus_client keeps them (+Inf last).
_UPPER_BOUNDS = (*(float(bound) for bound in LATENCY_BUCKETS), float("inf"))


class Tally:
    """The events of one label set (a route and status, a tool and outcome) not yet moved into
    their counter and histogram; `at_once` (multiprocess mode): written into them at each
    event instead, since a scrape reads every worker's files."""

    __slots__ = ("at_once", "buckets", "count", "counter", "histogram", "total")

    def __init__(self, counter: Counter, histogram: Histogram, *, at_once: bool) -> None:
        self.counter = counter
        self.histogram = histogram
        self.at_once = at_once
        self.count = 0
        self.total = 0.0
        self.buckets = [0] * len(_UPPER_BOUNDS)

    def add(self, seconds: float) -> None:
        """Count one event that took `seconds`."""
        if self.at_once:
            self.counter.inc()
            self.histogram.observe(seconds)
            return
        self.count += 1
        self.total += seconds
        self.buckets[bisect_left(_UPPER_BOUNDS, seconds)] += 1

    def move(self) -> None:
        """Add what was counted to the prometheus objects, and start again from zero."""
        if not self.count:
            return
        self.counter.inc(self.count)
        # prometheus_client has no public way to add many observations at once: its child
        # keeps the sum and one count per bucket (not cumulative) as these values.
        self.histogram._sum.inc(self.total)
        for bucket, count in zip(self.histogram._buckets, self.buckets, strict=True):
            if count:
                bucket.inc(count)
        self.count = 0
        self.total = 0.0
        self.buckets = [0] * len(_UPPER_BOUNDS)


class Count:
    """Events of one label set of a counter, counted as `Tally` counts (no histogram): in one
    process moved into the counter at the scrape, under `--workers N` written at once."""

    __slots__ = ("at_once", "count", "counter")

    def __init__(self, counter: Counter, *, at_once: bool) -> None:
        self.counter = counter
        self.at_once = at_once
        self.count = 0

    def add(self) -> None:
        """Count one event."""
        if self.at_once:
            self.counter.inc()
        else:
            self.count += 1

    def move(self) -> None:
        """Add what was counted to the counter, and start again from zero."""
        if self.count:
            self.counter.inc(self.count)
            self.count = 0
