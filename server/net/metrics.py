"""Prometheus metrics of one server process (its own registry, so several servers
can live in one test process)."""

from __future__ import annotations

from typing import Any

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest

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


class Metrics:
    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        r = self.registry
        self.connections = Gauge("pasyans_connections", "Open WebSocket connections", registry=r)
        self.connections_total = Counter(
            "pasyans_connections_opened", "WebSocket connections accepted", registry=r
        )
        self.ops = Counter(
            "pasyans_ops",
            "Requests by op and result (ok or error code)",
            ["op", "result"],
            registry=r,
        )
        self.move_seconds = Histogram(
            "pasyans_move_seconds",
            "Time to validate, persist and answer a move",
            buckets=LATENCY_BUCKETS,
            registry=r,
        )
        self.redis_seconds = Histogram(
            "pasyans_redis_seconds",
            "Redis call latency by call",
            ["call"],
            buckets=LATENCY_BUCKETS,
            registry=r,
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

        self._redis: dict[str, Any] = {}
        self._ops: dict[tuple[str, str], Any] = {}

    def observe_redis(self, call: str, seconds: float) -> None:
        child = self._redis.get(call)
        if child is None:
            child = self._redis[call] = self.redis_seconds.labels(call)
        child.observe(seconds)

    def count_op(self, op: str, result: str) -> None:
        child = self._ops.get((op, result))
        if child is None:
            child = self._ops[(op, result)] = self.ops.labels(op, result)
        child.inc()

    def render(self) -> bytes:
        return generate_latest(self.registry)
