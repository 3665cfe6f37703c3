"""Issue 35: a server killed with SIGKILL restarts at once on the same data directory
(its solver processes die with it and never held its lock), and the game resumes
with every acknowledged move; a solver process killed mid-search answers that search
``unavailable`` and is replaced."""

from __future__ import annotations

import asyncio
import os
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.faults.conftest import server_args
from tests.faults.procs import children, command
from tests.support import ServerProcess, connect, eventually

#: real solver processes (the tests' servers search in threads by default)
WORKERS = ("--solver-workers", "2")


def solvers(server: ServerProcess) -> list[int]:
    assert server.process is not None
    return [p for p in children(server.process.pid) if command(p) == "pasyans-solver"]


@pytest.fixture
def data_dir(tmp_path: Path) -> Iterator[Path]:
    yield tmp_path / "data"


async def test_kill_9_then_start_again_serves_and_keeps_every_move(data_dir: Path) -> None:
    # as `make run` does: the dailies prepared in the background (a tiny budget)
    args = server_args("--data-dir", str(data_dir), *WORKERS, "--prepare-dailies")
    first = ServerProcess(*args).start()
    try:
        async with connect(first.url) as c:
            token = await c.register(f"k9{os.getpid()}")
            state = await c.start("travellers_classic", "deal", seed=1)
            for _ in range(5):
                state = await c.move(state, state["legal"][0])
            hint = await c.call("hint", game_id=state["game_id"])  # a solver process
            assert hint["move"] is not None
        workers = solvers(first)
        assert workers, "the hint ran in no solver process"
        assert first.process is not None
        first.process.send_signal(signal.SIGKILL)
        first.process.wait()
        # the workers die with it (PR_SET_PDEATHSIG), holding nothing
        await eventually(
            lambda: not any(_running(p) for p in workers), what=f"workers {workers} gone"
        )
    finally:
        first.kill()
    second = ServerProcess(*args).start(port=first.port)
    try:
        async with connect(second.url) as c:
            await c.call("auth", token=token)
            again = (await c.call("resume", game_id=state["game_id"]))["state"]
            assert again["seq"] == state["seq"] and again["moves"] == state["moves"] == 5
            again = await c.move(again, again["legal"][0])  # and it plays on
            assert again["moves"] == 6
        assert "another pasyans-server" not in second.output()
    finally:
        second.terminate()


async def test_a_solver_process_killed_mid_search_answers_and_heals(data_dir: Path) -> None:
    # A search that runs until it is killed: a hard deal, a budget it never spends.
    budget = ("--hint-nodes", "100000000", "--hint-seconds", "600")
    with ServerProcess(*server_args("--data-dir", str(data_dir), *WORKERS, *budget)) as server:
        async with connect(server.url) as c:
            await c.register(f"kw{os.getpid()}")
            state = await c.start("crescent", "deal", seed=3)
            asking = asyncio.create_task(c.request("hint", game_id=state["game_id"]))
            await eventually(lambda: solvers(server), what=lambda: server.output()[-2000:])
            (victim,) = solvers(server)
            os.kill(victim, signal.SIGKILL)
            reply = await asking
            assert not reply["ok"] and reply["error"]["code"] == "unavailable", reply
            assert reply["error"]["retry_after"] > 0
            assert "stopped" in reply["error"]["message"]
            # the pool heals: another process takes the next search
            quick = await c.start("travellers_classic", "deal", seed=1)
            hint = await c.call("hint", game_id=quick["game_id"])
            assert hint["move"] is not None
            assert solvers(server) and victim not in solvers(server)
        assert "Traceback" not in server.output()


def _running(pid: int) -> bool:
    """Whether ``pid`` is still a live process (not a zombie)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    return "State:\tZ" not in status
