"""6,000 fuzzed frames (random bytes, wrong shapes, deep nesting, huge numbers, every
op with wrong types for each field) against a server process: every frame answered,
never ``internal``, or its connection closed by policy; the server's resident memory
does not grow with the frames; no traceback in its log; a normal player plays after.
``bench/fuzz.py`` runs 100,000 of the same."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

import protocol as P
from bench.fuzz import fuzz, report
from bench.load import make_players
from tests.faults.conftest import server_args
from tests.faults.procs import rss_kib
from tests.support import GUARD, ServerProcess

FRAMES = 6_000
#: MiB the server may grow by over the frames (measured: about 1 MiB for 20,000 and
#: a few for 100,000; a leak of 1 KiB a frame would be 6 MiB here, and bench/fuzz.py's
#: 100,000 frames show a smaller one)
RSS_GROWTH_MIB = 5


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    with ServerProcess(*server_args("--data-dir", str(tmp_path / "data"))) as s:
        yield s


async def test_fuzzed_frames_are_answered_or_closed_by_policy(server: ServerProcess) -> None:
    assert server.process is not None
    pid = server.process.pid
    await fuzz(server.url, 1_000, seed=99)  # warm up: imports, caches, pools
    before = rss_kib(pid)
    began = time.monotonic()
    tally = await fuzz(server.url, FRAMES, seed=1)
    took = time.monotonic() - began
    growth = (rss_kib(pid) - before) / 1024
    print(f"\n{report(tally, took)}; server RSS {growth:+.1f} MiB")
    assert not tally.failures, tally.failures[:10]
    assert tally.frames == FRAMES == tally.answered + tally.closed_by_policy
    # the fuzz reached every kind of answer and both policy closes
    assert tally.codes["ok"] and tally.codes["bad_request"] and tally.codes["not_found"]
    assert tally.codes["too_large"] and tally.codes["unknown_op"]
    assert tally.policy_closes[P.CLOSE_POLICY] and tally.policy_closes[P.CLOSE_TOO_BIG]
    assert growth < RSS_GROWTH_MIB
    player = make_players(server.url, 1, stem="afterfuzz")[0]
    await player.play(5, deadline=time.monotonic() + GUARD)
    assert player.moves == 5 and player.error is None
    log = server.output()
    assert "Traceback" not in log and "unexpected error" not in log
