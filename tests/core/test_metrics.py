"""The request metrics counted in plain numbers and moved at the scrape (issue 33) read the
same at `/metrics` as the same requests observed straight into prometheus_client."""

from __future__ import annotations

import math

import pytest
from prometheus_client.parser import text_string_to_metric_families

from resolver.core.metrics import Metrics

# Durations on, below and above the bucket bounds (0.005 is a bound: it counts in its bucket),
# beyond the last one (+Inf), and zero.
_REQUESTS = [
    ("/v1/dynamic-params", 200, 0.0001),
    ("/v1/dynamic-params", 200, 0.005),
    ("/v1/dynamic-params", 200, 0.0050001),
    ("/v1/dynamic-params", 400, 0.3),
    ("/healthz", 200, 0.0),
    ("unmatched", 404, 31.0),
    ("/v1/dynamic-params", 200, 2.5),
]


def samples(metrics: Metrics) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every request sample of a scrape but the `_created` times, by name and labels."""
    found = {}
    for family in text_string_to_metric_families(metrics.render().decode()):
        if not family.name.startswith("resolver_http_request"):
            continue
        for sample in family.samples:
            if not sample.name.endswith("_created"):
                found[sample.name, tuple(sorted(sample.labels.items()))] = sample.value
    return found


def observed_directly(requests: list[tuple[str, int, float]]) -> Metrics:
    """Metrics with these requests observed as prometheus_client's objects take them."""
    metrics = Metrics()
    for route, status, seconds in requests:
        metrics.requests.labels(route, str(status)).inc()
        metrics.latency.labels(route).observe(seconds)
    return metrics


def assert_same(counted: Metrics, direct: Metrics) -> None:
    got, want = samples(counted), samples(direct)
    assert got.keys() == want.keys()
    for key, value in want.items():
        if key[0].endswith("_sum"):
            assert math.isclose(got[key], value, rel_tol=1e-12), key
        else:
            assert got[key] == value, key


def test_the_scrape_reads_what_prometheus_would_have_counted() -> None:
    counted = Metrics()
    for request in _REQUESTS:
        counted.observe_request(*request)
    direct = observed_directly(_REQUESTS)
    assert_same(counted, direct)
    # The scrape moved them: a second scrape counts nothing twice, later requests add up.
    assert_same(counted, direct)
    for request in _REQUESTS[:3]:
        counted.observe_request(*request)
    assert_same(counted, observed_directly(_REQUESTS + _REQUESTS[:3]))


@pytest.mark.parametrize("seconds", [0.0, 0.01, 0.010000001, 30.0, 30.5])
def test_each_duration_lands_in_the_bucket_prometheus_chooses(seconds: float) -> None:
    counted = Metrics()
    counted.observe_request("/healthz", 200, seconds)
    assert_same(counted, observed_directly([("/healthz", 200, seconds)]))
