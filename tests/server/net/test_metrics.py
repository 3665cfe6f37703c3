"""The hand-kept hot-path metrics render as Prometheus would have counted them."""

from __future__ import annotations

from prometheus_client.parser import text_string_to_metric_families

from protocol import ErrorCode, Op
from server.net.metrics import Metrics


def samples(m: Metrics) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    out = {}
    for family in text_string_to_metric_families(m.render().decode()):
        for s in family.samples:
            out[(s.name, tuple(sorted(s.labels.items())))] = s.value
    return out


def test_histogram_buckets_are_cumulative_and_inclusive() -> None:
    m = Metrics()
    for seconds in (0.0005, 0.0006, 0.003, 7.0):  # on a bound, inside, further, past all
        m.move_seconds.observe(seconds)
    got = samples(m)
    bucket = "pasyans_move_seconds_bucket"
    assert got[(bucket, (("le", "0.0005"),))] == 1  # le: a value on the bound counts
    assert got[(bucket, (("le", "0.001"),))] == 2
    assert got[(bucket, (("le", "0.0025"),))] == 2
    assert got[(bucket, (("le", "0.005"),))] == 3
    assert got[(bucket, (("le", "2.5"),))] == 3
    assert got[(bucket, (("le", "+Inf"),))] == 4
    assert got[("pasyans_move_seconds_count", ())] == 4
    assert abs(got[("pasyans_move_seconds_sum", ())] - 7.0041) < 1e-9


def test_ops_and_redis_calls_by_label() -> None:
    m = Metrics()
    m.count_op(Op.MOVE, "ok")
    m.count_op(Op.MOVE, "ok")
    m.count_op(Op.MOVE, ErrorCode.STALE_SEQ)
    m.observe_redis("move", 0.0001)
    m.observe_redis("game", 0.2)
    got = samples(m)
    assert got[("pasyans_ops_total", (("op", "move"), ("result", "ok")))] == 2
    assert got[("pasyans_ops_total", (("op", "move"), ("result", "stale_seq")))] == 1
    assert got[("pasyans_redis_seconds_count", (("call", "move"),))] == 1
    assert got[("pasyans_redis_seconds_bucket", (("call", "game"), ("le", "0.1")))] == 0
    assert got[("pasyans_redis_seconds_bucket", (("call", "game"), ("le", "0.25")))] == 1
