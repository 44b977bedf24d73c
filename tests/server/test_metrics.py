"""The action latency's histogram, as Prometheus reads it."""

from __future__ import annotations

from prometheus_client import CollectorRegistry, generate_latest
from prometheus_client.registry import Collector

from atout.server.site.metrics import ACT_BOUNDS, Latency


def test_a_bound_counts_in_its_own_bucket_and_each_bucket_holds_those_below_it() -> None:
    latency = Latency(ACT_BOUNDS)
    for seconds in (0.0005, 0.001, 0.0011, 0.3, 2.0):
        latency.observe(seconds)

    class One(Collector):
        def collect(self):
            yield latency.family("atout_act_seconds", "test")

    registry = CollectorRegistry()
    registry.register(One())
    lines = dict(
        line.rsplit(" ", 1) for line in generate_latest(registry).decode().splitlines() if not line.startswith("#")
    )
    assert lines['atout_act_seconds_bucket{le="0.001"}'] == "2.0"  # 0.0005 and exactly 0.001
    assert lines['atout_act_seconds_bucket{le="0.0025"}'] == "3.0"
    assert lines['atout_act_seconds_bucket{le="0.25"}'] == "3.0"
    assert lines['atout_act_seconds_bucket{le="0.5"}'] == "4.0"
    assert lines['atout_act_seconds_bucket{le="1.0"}'] == "4.0"
    assert lines['atout_act_seconds_bucket{le="+Inf"}'] == lines["atout_act_seconds_count"] == "5.0"
    assert abs(float(lines["atout_act_seconds_sum"]) - 2.3026) < 1e-9
