"""bench/load_server measures its servers in interleaved rounds, so a drift of the
machine's speed falls on every server alike: the order must alternate, a row must
pool every round it measured, and a preparing server's solvers must work in its own
turns only."""

from __future__ import annotations

import asyncio
import itertools
import os
import signal
import subprocess
from collections.abc import Callable
from pathlib import Path

from bench.load_server import Load, Solvers, child_pids, measure_rounds


def recording(name: str, seen: list[str]) -> Load:
    """A load of two players whose every step notes ``name`` (no server behind it)."""

    async def step() -> bool:
        seen.append(name)
        await asyncio.sleep(0.002)
        return True

    return Load(os.getpid(), [], [step, step], [])


async def test_rounds_alternate_their_order_and_a_row_pools_them() -> None:
    seen: list[str] = []
    loads = [recording(name, seen) for name in "abc"]
    await measure_rounds(loads, 0.2, 4)
    # a turn's steps are one name's: consecutive turns of one load merge
    turns = [name for name, _ in itertools.groupby(seen)]
    assert turns == list("abcbabcba")
    for load in loads:
        assert len(load.samples) == 4
        moves, _p50, _p99, *_ = load.row()
        counted = sum(count for count, *_ in load.samples)
        assert counted == seen.count("abc"[loads.index(load)])
        elapsed = sum(latencies[-1] for _, latencies, _, _ in load.samples)
        assert 0.19 < elapsed < 0.6  # four turns of 0.05 s, pooled
        assert moves == counted / elapsed


def state(pid: int) -> str:
    """A process's state letter (``T``: stopped)."""
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]


async def test_a_preparing_servers_solvers_run_only_in_its_turns() -> None:
    """Frozen outside its turns, a child started meanwhile too; thawed for its turn."""
    parent = subprocess.Popen(
        ["sh", "-c", "sleep 30 & read line; sleep 30 & wait"], stdin=subprocess.PIPE, text=True
    )
    solvers = Solvers(parent.pid)
    try:
        await until(lambda: len(child_pids(parent.pid)) == 1)
        first = child_pids(parent.pid)[0]
        solvers.turn(False)
        await until(lambda: state(first) == "T")  # a signal lands in its own time
        assert state(first) == "T"
        assert parent.stdin is not None
        parent.stdin.write("go\n")
        parent.stdin.flush()
        await until(lambda: len(child_pids(parent.pid)) == 2)
        second = next(p for p in child_pids(parent.pid) if p != first)
        await until(lambda: state(second) == "T")  # the watch froze it
        assert state(second) == "T"
        solvers.turn(True)
        await until(lambda: "T" not in (state(first), state(second)))
        assert state(first) != "T" and state(second) != "T"
        assert parent.poll() is None and state(parent.pid) != "T"  # the server runs on
    finally:
        solvers.thaw()
        for child in child_pids(parent.pid):
            os.kill(child, signal.SIGKILL)
        parent.kill()
        parent.communicate()


async def until(condition: Callable[[], bool], seconds: float = 5.0) -> None:
    for _ in range(int(seconds / 0.01)):
        if condition():
            return
        await asyncio.sleep(0.01)


async def test_paced_players_think_between_moves_and_the_wait_is_not_latency() -> None:
    seen: list[str] = []
    load = recording("a", seen)  # two players, each step 2 ms
    load.pause = 0.1
    await load.measure(0.5)
    count, latencies, _, _ = load.samples[0]
    # about 0.5 / 0.1 moves each (the first after a random part of a pause), not the
    # ~250 of players that never wait
    assert 4 <= count <= 20
    assert all(x < 0.05 for x in latencies[:-1])  # a move's time, never its pause
