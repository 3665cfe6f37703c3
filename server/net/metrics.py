"""Prometheus metrics of one server process (its own registry, so several servers
can live in one test process).

The per-request series (ops by result, move latency, Redis latency) are counted in
plain ints and lists and turned into Prometheus families only when ``/metrics`` is
scraped: prometheus-client's own ``Counter.inc`` and ``Histogram.observe`` take a lock
and walk the buckets in Python, several microseconds per move on the hot path. One
event loop thread does all the counting, so no lock is needed.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterator
from typing import TYPE_CHECKING

from prometheus_client import CollectorRegistry, Counter, Gauge, generate_latest
from prometheus_client.core import (
    CounterMetricFamily,
    GaugeMetricFamily,
    HistogramMetricFamily,
    Metric,
)
from prometheus_client.registry import Collector

if TYPE_CHECKING:
    from ..solver.daily import Choice
    from ..workers import SolverPool

LATENCY_BUCKETS = (
    0.0005,
    0.001,
    0.0025,
    0.005,
    0.01,
    0.025,
    0.05,
    0.1,
    0.25,
    0.5,
    1.0,
    2.5,
)


class Timings:
    """A histogram's counts: ``observe`` is one bisect and two additions."""

    __slots__ = ("counts", "sum")

    def __init__(self) -> None:
        self.counts = [0] * (len(LATENCY_BUCKETS) + 1)  # the last one is +Inf
        self.sum = 0.0

    def observe(self, seconds: float) -> None:
        self.counts[bisect_left(LATENCY_BUCKETS, seconds)] += 1
        self.sum += seconds

    def buckets(self) -> list[tuple[str, float]]:
        out, running = [], 0
        for bound, count in zip((*LATENCY_BUCKETS, float("inf")), self.counts, strict=True):
            running += count
            out.append(("+Inf" if bound == float("inf") else repr(bound), float(running)))
        return out


class _HotPath(Collector):
    """Exports the counts :class:`Metrics` keeps by hand."""

    def __init__(self, metrics: Metrics) -> None:
        self.metrics = metrics

    def collect(self) -> Iterator[Metric]:
        m = self.metrics
        ops = CounterMetricFamily(
            "pasyans_ops", "Requests by op and result (ok or error code)", labels=["op", "result"]
        )
        for (op, result), n in sorted(m.ops.items()):
            ops.add_metric([str(op), str(result)], n)
        yield ops
        move = HistogramMetricFamily(
            "pasyans_move_seconds", "Time to validate, persist and answer a move"
        )
        move.add_metric([], m.move_seconds.buckets(), m.move_seconds.sum)
        yield move
        redis = HistogramMetricFamily(
            "pasyans_redis_seconds", "Redis call latency by call", labels=["call"]
        )
        for call, t in sorted(m.redis_seconds.items()):
            redis.add_metric([call], t.buckets(), t.sum)
        yield redis


class _Solver(Collector):
    """The solver's worker pool, read when scraped (:meth:`SolverPool.snapshot`)."""

    def __init__(self, pool: SolverPool) -> None:
        self.pool = pool

    def collect(self) -> Iterator[Metric]:
        now = self.pool.snapshot()
        queued = GaugeMetricFamily(
            "pasyans_solver_queued", "Searches waiting for a solver process", labels=["lane"]
        )
        running = GaugeMetricFamily(
            "pasyans_solver_running", "Searches running in a solver process", labels=["lane"]
        )
        for lane, n in now.queued.items():
            queued.add_metric([lane], n)
            running.add_metric([lane], now.running[lane])
        yield queued
        yield running
        yield GaugeMetricFamily(
            "pasyans_solver_processes", "Solver processes alive", value=now.alive
        )
        yield CounterMetricFamily(
            "pasyans_solver_refused",
            "Players' searches refused at once (their share in flight, or the queue full)",
            value=now.refused,
        )
        yield CounterMetricFamily(
            "pasyans_solver_died",
            "Solver processes that ended on their own (killed, out of memory) and were replaced",
            value=now.died,
        )


class Metrics:
    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        r = self.registry
        self.connections = Gauge("pasyans_connections", "Open WebSocket connections", registry=r)
        self.connections_total = Counter(
            "pasyans_connections_opened", "WebSocket connections accepted", registry=r
        )
        self.rate_limited = Counter(
            "pasyans_rate_limited",
            "Requests refused by the per-connection rate limit",
            registry=r,
        )
        self.bad_frames = Counter(
            "pasyans_bad_frames", "Frames refused before dispatch", ["code"], registry=r
        )
        self.policy_closes = Counter(
            "pasyans_policy_closes", "Connections closed with 1008 for abuse", registry=r
        )
        self.slow_closes = Counter(
            "pasyans_slow_closes",
            "Connections closed with 4000 for not keeping up, by what they did not keep "
            "up with: outbox (over --outbox-bytes), write (past --write-timeout), ping "
            "(no pong within --ping-timeout)",
            ["why"],
            registry=r,
        )
        self.address_refusals = Counter(
            "pasyans_address_refusals",
            "WebSocket handshakes refused (429) for an address holding "
            "--address-connections connections",
            registry=r,
        )
        self.dailies_certified = Counter(
            "pasyans_dailies_certified",
            "Dailies this process chose and proved winnable",
            ["game"],
            registry=r,
        )
        self.dailies_unproven = Counter(
            "pasyans_dailies_unproven",
            "Dailies this process chose NOT proven winnable: the whole budget found no "
            "win (an incident; the server logs a warning)",
            ["game"],
            registry=r,
        )
        self.daily_seconds = Gauge(
            "pasyans_daily_choose_seconds",
            "Seconds this process took to choose the last daily of a game",
            ["game"],
            registry=r,
        )
        self.dailies_preparing = Gauge(
            "pasyans_dailies_preparing", "Dailies this process is choosing now", registry=r
        )
        #: requests by (op, result)
        self.ops: dict[tuple[str, str], int] = {}
        self.move_seconds = Timings()
        self.redis_seconds: dict[str, Timings] = {}
        r.register(_HotPath(self))

    def watch_pool(self, pool: SolverPool) -> None:
        """Export the solver pool's queues, processes and refusals."""
        self.registry.register(_Solver(pool))

    def observe_redis(self, call: str, seconds: float) -> None:
        timings = self.redis_seconds.get(call)
        if timings is None:
            timings = self.redis_seconds[call] = Timings()
        timings.observe(seconds)

    def daily_chosen(self, date: str, slug: str, choice: Choice, seconds: float) -> None:
        counter = self.dailies_certified if choice.certified else self.dailies_unproven
        counter.labels(slug).inc()
        self.daily_seconds.labels(slug).set(seconds)

    def count_op(self, op: str, result: str) -> None:
        key = (op, result)
        self.ops[key] = self.ops.get(key, 0) + 1

    def render(self) -> bytes:
        return generate_latest(self.registry)
