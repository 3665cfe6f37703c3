"""Pure parts of ``server.services``: the move log, the clock."""

from __future__ import annotations

import msgpack

from server.services.clock import FakeClock, day_before, utc_date
from server.services.games import effective_moves


def test_effective_moves_apply_undos() -> None:
    def pack(x: dict[str, object]) -> bytes:
        return bytes(msgpack.packb(x))

    log = [
        pack({"action": "a"}),
        pack({"action": "b"}),
        pack({"undo": 1}),
        pack({"action": "c"}),
        pack({"undo": 1}),
        pack({"undo": 1}),
        pack({"undo": 1}),
        pack({"action": "d"}),
        pack({"resign": 1}),
    ]
    assert effective_moves(log) == [{"action": "d"}]


def test_clock_helpers() -> None:
    clock = FakeClock("2026-12-31T23:59:59")
    assert utc_date(clock.now_ms()) == "2026-12-31"
    clock.advance(seconds=1)
    assert utc_date(clock.now_ms()) == "2027-01-01"
    assert day_before("2026-03-01") == "2026-02-28"
