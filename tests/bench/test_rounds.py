"""bench/load_server measures its servers in interleaved rounds, so a drift of the
machine's speed falls on every server alike: the order must alternate, a row must
pool every round it measured, and a preparing server's solvers must work in its own
turns only."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
from pathlib import Path

import pytest

from bench.load_server import Load, Solvers, child_pids, measure_rounds
from tests.support import eventually


def recording(name: str, seen: list[str]) -> Load:
    """A load of two players whose every step notes ``name`` (no server behind it)."""

    async def step() -> bool:
        seen.append(name)
        await asyncio.sleep(0.002)
        return True

    return Load(os.getpid(), [], [step, step], [])


async def test_rounds_alternate_their_order_and_a_row_pools_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen: list[str] = []
    loads = [recording(name, seen) for name in "abc"]
    turns: list[str] = []  # whose turn it is, as measure_rounds gives them
    for name, load in zip("abc", loads, strict=True):

        async def measure(seconds: float, name: str = name, load: Load = load) -> None:
            turns.append(name)
            before = len(seen)
            await Load.measure(load, seconds)
            # a turn's steps are its own load's (none, if a loaded machine gave it
            # no time before its turn ran out)
            assert set(seen[before:]) <= {name}

        monkeypatch.setattr(load, "measure", measure)
    await measure_rounds(loads, 0.2, 4)
    assert turns == list("abccbaabccba")
    for load in loads:
        assert len(load.samples) == 4
        moves, _p50, _p99, *_ = load.row()
        counted = sum(count for count, *_ in load.samples)
        assert counted == seen.count("abc"[loads.index(load)])
        elapsed = sum(latencies[-1] for _, latencies, _, _ in load.samples)
        assert elapsed >= 0.19  # four turns of at least 0.05 s each, pooled
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
        await eventually(lambda: len(child_pids(parent.pid)) == 1)
        first = child_pids(parent.pid)[0]
        solvers.turn(False)
        await eventually(lambda: state(first) == "T")  # a signal lands in its own time
        assert state(first) == "T"
        assert parent.stdin is not None
        parent.stdin.write("go\n")
        parent.stdin.flush()
        await eventually(lambda: len(child_pids(parent.pid)) == 2)
        second = next(p for p in child_pids(parent.pid) if p != first)
        await eventually(lambda: state(second) == "T")  # the watch froze it
        assert state(second) == "T"
        solvers.turn(True)
        await eventually(lambda: "T" not in (state(first), state(second)))
        assert state(first) != "T" and state(second) != "T"
        assert parent.poll() is None and state(parent.pid) != "T"  # the server runs on
    finally:
        solvers.thaw()
        for child in child_pids(parent.pid):
            os.kill(child, signal.SIGKILL)
        parent.kill()
        parent.communicate()


async def test_paced_players_think_between_moves_and_the_wait_is_not_latency() -> None:
    async def step() -> bool:  # a move that takes no time at all: it never yields
        return True

    load = Load(os.getpid(), [], [step, step], [])  # two players
    load.pause = 0.1
    await load.measure(0.5)
    count, latencies, _, _ = load.samples[0]
    # at most 0.5 / 0.05 + 1 moves each (a pause lasts 0.05 s at least, the first
    # a random part of one; a loaded machine only lengthens them), not the millions
    # of players that never wait
    assert 0 < count <= 22
    # a move's time, never its pause: its latency is that of a step that does not
    # even yield, far below the shortest pause (0.05 s) any latency would include
    assert all(x < 0.05 for x in latencies[:-1])
