"""The certification estimate (issue 47: "about 2 days" for dailies ready within two
minutes): a scan with no recent days to go by counts the candidate under way at the
pace a candidate took, never the whole budget; before its first candidate, none; and
at most a third of the time the candidate under way has taken so far, so that the
chosen candidate, quicker than those that found no win, is not promised at up to 13 ×
its real rest (bench.fresh)."""

from __future__ import annotations

import time

from server.services.daily import LAST_SHARE, Progress


def now_ms() -> int:
    return int(time.time() * 1000)


def test_no_history_counts_the_candidate_under_way() -> None:
    start = now_ms() - 60_000
    # two candidates searched in 40 s, the third under way for 20 s
    progress = Progress(2, start, spent=60_000, expected=0, fed_ms=start + 40_000)
    wire = progress.wire()
    assert wire["tried"] == 2 and wire["elapsed_ms"] is not None
    estimate = wire["estimate_ms"]
    assert estimate is not None and 1_000 <= estimate <= 20_000 / LAST_SHARE + 100
    # the budget is not the figure any more: a minute in, no hours
    assert Progress(1, start, spent=30_000, expected=0, fed_ms=start + 1).wire()["estimate_ms"]
    assert (Progress(1, start, spent=30_000, fed_ms=start + 30_000).wire()["estimate_ms"] or 0) < (
        60_000
    )
    # before the first candidate: no pace, no figure
    assert Progress(0, start).wire()["estimate_ms"] is None


def test_the_recent_days_figure_when_there_is_one() -> None:
    start = now_ms() - 60_000
    # half the recent days' nodes in 60 s: about 60 s more, but the candidate under way
    # has run 30 s (its quarter: 7.5 s), and then 54 s (13.5 s)
    estimate = Progress(3, start, spent=600, expected=1200, fed_ms=start + 30_000).wire()
    assert estimate["estimate_ms"] is not None and 7_000 <= estimate["estimate_ms"] <= 8_500
    later = Progress(3, start, spent=600, expected=1200, fed_ms=start + 6_000).wire()
    assert later["estimate_ms"] is not None and 13_000 <= later["estimate_ms"] <= 14_500
    # the recent days' figure when it is the smaller: 1000 of 1200 nodes in 40 s, 8 s more
    # (the candidate under way, 40 s in, would allow 10 s)
    begun = now_ms() - 40_000
    early = Progress(3, begun, spent=1000, expected=1200, fed_ms=begun)
    assert 7_500 <= (early.wire()["estimate_ms"] or 0) <= 8_500
    # an old progress (four fields, as written by an older server) reads the same
    again = Progress.unpack(f"3:{start}:600:1200")
    assert again is not None and again.fed_ms == 0 and again.expected == 1200


def test_a_scans_last_seconds_within_three_times_the_real_rest() -> None:
    """Two candidates took 45 s each and found no win; the third, the one chosen, ends
    sooner (7.7 s: parade under load, bench.fresh). Asked each half second while it
    runs, the estimate is never more than 3 × what is left (at least the 1 s between
    asks) for a chosen candidate of up to 12 s, and for a longer one until its last
    thirteenth (a quarter of its time so far: t / 4 ≤ 3 (T − t) while t ≤ 12/13 T)."""
    assert LAST_SHARE == 4
    for took_ms in (2_000, 7_700, 12_000, 20_000, 45_000):
        for running in range(0, took_ms, 500):
            start = now_ms() - 90_000 - running
            progress = Progress(2, start, spent=2_000_000, expected=0, fed_ms=start + 90_000)
            estimate = progress.wire()["estimate_ms"]
            assert estimate is not None
            if took_ms > 12_000 and running > took_ms * 12 / 13:
                continue
            left = max(1_000, took_ms - running)
            assert estimate <= 3 * left + 50, (took_ms, running, estimate)
