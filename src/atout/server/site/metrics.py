"""This process's Prometheus metrics (``GET /metrics``), written by ``prometheus_client``.

Each hub has a registry of its own, not the library's global one: tests run several servers in one
process, and each must count only what happened to it. The counts the hub keeps anyway (tables,
connections, actions, store writes, the store's and the bus's state and outages) are read at each scrape by a collector,
so nothing is
counted twice; the action latency is a histogram the hub observes (``Latency``: counts in a list, made
into Prometheus' histogram at the scrape, since ``prometheus_client.Histogram.observe`` with its locks
cost a few thousand instructions at every action)."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Protocol

from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, HistogramMetricFamily, Metric
from prometheus_client.registry import Collector
from prometheus_client.utils import floatToGoString as _go_float

if TYPE_CHECKING:
    from ..room import Room, Stats, Watchdog
    from ..store import Store, StoreWriter
    from .connection import Connection
    from .local import Site
    from .roles import RestingTables

ACT_BOUNDS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0)
"""The histogram's bucket bounds in seconds: an action takes about a millisecond on an idle machine."""


go_float: Callable[[float], str] = _go_float
"""A bound as Prometheus writes it (``+Inf``): prometheus_client's own, typed (its module is not)."""


class Latency:
    """A histogram as plain counts: one bucket's count per bound (and one past the last), and the sum."""

    def __init__(self, bounds: tuple[float, ...]) -> None:
        self.bounds = bounds
        self.counts = [0] * (len(bounds) + 1)
        self.sum = 0.0

    def observe(self, seconds: float) -> None:
        self.counts[bisect_left(self.bounds, seconds)] += 1  # a bound is inclusive: Prometheus' "le"
        self.sum += seconds

    def family(self, name: str, documentation: str) -> HistogramMetricFamily:
        """Prometheus' histogram of it: cumulative buckets, +Inf the count."""
        buckets, total = [], 0
        for bound, count in zip((*self.bounds, float("inf")), self.counts, strict=True):
            total += count
            buckets.append((go_float(bound), total))
        return HistogramMetricFamily(name, documentation, buckets=buckets, sum_value=self.sum)


class CountedHub(Protocol):
    """What the metrics read of their hub (``Hub`` is one)."""

    @property
    def rooms(self) -> dict[str, Room]: ...
    @property
    def connections(self) -> set[Connection]: ...
    @property
    def release(self) -> RestingTables: ...
    @property
    def stats(self) -> Stats: ...
    @property
    def watchdog(self) -> Watchdog: ...
    @property
    def actions(self) -> int: ...
    @property
    def writer(self) -> StoreWriter: ...
    @property
    def store(self) -> Store: ...
    @property
    def site(self) -> Site: ...


class HubCollector(Collector):
    """The hub's own counts, read when Prometheus scrapes."""

    def __init__(self, hub: CountedHub, act_seconds: Latency) -> None:
        self.hub = hub
        self.act_seconds = act_seconds

    def collect(self) -> Iterator[Metric]:
        hub = self.hub
        yield GaugeMetricFamily("atout_tables", "Tables this process runs.", value=len(hub.rooms))
        yield GaugeMetricFamily(
            "atout_tables_resting",
            "Open tables nobody is at, out of memory until named.",
            value=len(hub.release.resting),
        )
        yield CounterMetricFamily(
            "atout_tables_released", "Tables that left memory, nobody at them.", value=hub.stats.released
        )
        yield GaugeMetricFamily(
            "atout_tables_stalled",
            "Tables found with a turn to play and no event for longer "
            "than their promise, not moving yet (room/watchdog.py).",
            value=len(hub.watchdog.stalled),
        )
        yield CounterMetricFamily(
            "atout_tables_stalled_found", "Times a table was found stalled.", value=hub.watchdog.found
        )
        yield CounterMetricFamily(
            "atout_tables_restarted",
            "Times a stalled table was run again from its store.",
            value=hub.watchdog.restarted,
        )
        yield CounterMetricFamily(
            "atout_room_tasks_failed",
            "Tables' tasks (timer, robot, resumption) that ended by an exception.",
            value=hub.stats.tasks_failed,
        )
        yield GaugeMetricFamily(
            "atout_connections", "WebSocket connections to this process.", value=len(hub.connections)
        )
        yield CounterMetricFamily("atout_actions", "Game actions accepted.", value=hub.actions)
        yield CounterMetricFamily("atout_store_commits", "Store transactions committed.", value=hub.writer.commits)
        yield CounterMetricFamily("atout_store_items", "Table writes committed.", value=hub.writer.items)
        yield self.act_seconds.family("atout_act_seconds", "From a game action read to every follower's frame queued.")
        health = hub.store.health
        yield GaugeMetricFamily("atout_store_up", "Whether the store takes writes.", value=int(health.up))
        yield CounterMetricFamily("atout_store_outages", "Times the store stopped taking writes.", value=health.outages)
        site = hub.site.health()  # empty for one process alone
        if "bus" in site:
            yield GaugeMetricFamily(
                "atout_bus_up", "Whether this process reaches Redis.", value=int(site["bus"] == "up")
            )
            yield CounterMetricFamily("atout_bus_outages", "Times this process lost Redis.", value=site["bus_outages"])
            yield CounterMetricFamily(
                "atout_takeovers", "Tables this process took over from another.", value=site["takeovers"]
            )
            yield CounterMetricFamily(
                "atout_bus_resyncs",
                "Times this process said again what it holds: its bus back, or Redis restarted.",
                value=site["resyncs"],
            )


class Metrics:
    """A hub's registry: its counts and the latency of game actions."""

    def __init__(self, hub: CountedHub) -> None:
        self.registry = CollectorRegistry()
        self.act_seconds = Latency(ACT_BOUNDS)
        self.registry.register(HubCollector(hub, self.act_seconds))

    def exposition(self) -> tuple[bytes, str]:
        """The text Prometheus scrapes, and its content type."""
        return generate_latest(self.registry), CONTENT_TYPE_LATEST


__all__ = ["ACT_BOUNDS", "HubCollector", "Latency", "Metrics"]
