"""The certification estimate (issue 47: "about 2 days" for dailies ready within two
minutes): a scan with no recent days to go by counts the candidate under way at the
pace a candidate took, never the whole budget; before its first candidate, none."""

from __future__ import annotations

import time

from server.services.daily import Progress


def now_ms() -> int:
    return int(time.time() * 1000)


def test_no_history_counts_the_candidate_under_way() -> None:
    start = now_ms() - 60_000
    # two candidates searched in 40 s, the third under way for 20 s
    progress = Progress(2, start, spent=60_000, expected=0, fed_ms=start + 40_000)
    wire = progress.wire()
    assert wire["tried"] == 2 and wire["elapsed_ms"] is not None
    estimate = wire["estimate_ms"]
    assert estimate is not None and 1_000 <= estimate <= 20_000  # 20 s a candidate, 20 s in
    # the budget is not the figure any more: a minute in, no hours
    assert Progress(1, start, spent=30_000, expected=0, fed_ms=start + 1).wire()["estimate_ms"]
    assert (Progress(1, start, spent=30_000, fed_ms=start + 30_000).wire()["estimate_ms"] or 0) < (
        60_000
    )
    # before the first candidate: no pace, no figure
    assert Progress(0, start).wire()["estimate_ms"] is None


def test_the_recent_days_figure_when_there_is_one() -> None:
    start = now_ms() - 10_000
    # half the recent days' nodes in 10 s: about 10 s more
    estimate = Progress(3, start, spent=600, expected=1200, fed_ms=start).wire()["estimate_ms"]
    assert estimate is not None and 9_000 <= estimate <= 12_000
    # an old progress (four fields, as written by an older server) reads the same
    again = Progress.unpack(f"3:{start}:600:1200")
    assert again is not None and again.fed_ms == 0 and again.expected == 1200
