"""``server/workers.py``: the solver's worker processes — searches never on the
server's interpreter, a bounded queue and a share per account, today's dailies
served first, a worker that dies replaced, and nothing inherited from the server.

Jobs that must run "for a while" are held until the test releases them
(``tests.support.jobs.hold``): no test here waits on the clock."""

from __future__ import annotations

import asyncio
import functools
import os
import signal
from pathlib import Path

import pytest

from server.workers import Busy, Lane, SolverPool, WorkerDied
from tests.support import eventually, jobs


async def started(release: Path) -> None:
    """Until the held job ``release`` runs in a worker."""
    marker = Path(f"{release}.started")
    await eventually(marker.exists, what=f"the job held by {release} started", every=0.005)


async def test_jobs_run_in_other_processes_and_answer(tmp_path: Path) -> None:
    pool = SolverPool(2)
    try:
        pid = await pool.run(Lane.PLAYER, jobs.pid, account="ann")
        assert pid != os.getpid() and pid in pool.pids()
        with pytest.raises(ValueError, match="no such move"):
            await pool.run(Lane.PLAYER, jobs.fail, "no such move", account="ann")
        # a job a process cannot take (not importable by name) fails, the pool lives
        with pytest.raises(Exception, match=r"pickle|attribute"):
            await pool.run(Lane.TODAY, lambda: 1)
        assert await pool.run(Lane.AHEAD, jobs.pid) in pool.pids()
    finally:
        await pool.close()
    assert pool.pids() == []


async def test_an_account_has_one_search_in_flight(tmp_path: Path) -> None:
    release = tmp_path / "go"
    pool = SolverPool(2, per_account=1)
    try:
        held = pool.submit(Lane.PLAYER, jobs.hold, str(release), account="ann")
        with pytest.raises(Busy) as refused:
            pool.submit(Lane.PLAYER, jobs.pid, account="ann")
        assert refused.value.retry_after >= 1 and "already" in refused.value.reason
        # another account is served meanwhile, by the other worker
        assert await pool.run(Lane.PLAYER, jobs.pid, account="bob") in pool.pids()
        release.touch()
        await held
        assert await pool.run(Lane.PLAYER, jobs.pid, account="ann")  # her turn again
        assert pool.snapshot().refused == 1
    finally:
        release.touch()
        await pool.close()


async def test_a_full_queue_refuses_at_once(tmp_path: Path) -> None:
    release = tmp_path / "go"
    pool = SolverPool(1, queue=1)
    try:
        running = pool.submit(Lane.PLAYER, jobs.hold, str(release), account="a")
        await started(release)
        waiting = pool.submit(Lane.PLAYER, jobs.pid, account="b")
        with pytest.raises(Busy) as refused:
            pool.submit(Lane.PLAYER, jobs.pid, account="c")
        assert "busy" in refused.value.reason and refused.value.retry_after >= 1
        # the dailies are not players: their lanes are not bounded by the queue
        today = pool.submit(Lane.TODAY, jobs.pid)
        release.touch()
        assert {await running, await waiting, await today} <= set(pool.pids())
    finally:
        release.touch()
        await pool.close()


async def test_today_is_served_first_then_in_turn_with_players(tmp_path: Path) -> None:
    release = tmp_path / "go"
    pool = SolverPool(1)
    order: list[str] = []

    def done(name: str, _: object) -> None:
        order.append(name)

    try:
        first = pool.submit(Lane.AHEAD, jobs.hold, str(release))
        await started(release)
        queued = {
            "ahead": pool.submit(Lane.AHEAD, jobs.pid),
            "player 1": pool.submit(Lane.PLAYER, jobs.pid, account="a"),
            "player 2": pool.submit(Lane.PLAYER, jobs.pid, account="b"),
            "today 1": pool.submit(Lane.TODAY, jobs.pid),
            "today 2": pool.submit(Lane.TODAY, jobs.pid),
        }
        for name, future in queued.items():
            future.add_done_callback(functools.partial(done, name))
        release.touch()
        await first
        await asyncio.gather(*queued.values())
    finally:
        release.touch()
        await pool.close()
    # no daily of today runs: one goes first; then players and today's take turns;
    # the days ahead get what is left
    assert order == ["today 1", "player 1", "today 2", "player 2", "ahead"]


async def test_a_worker_killed_mid_search_fails_its_job_and_is_replaced(
    tmp_path: Path,
) -> None:
    release = tmp_path / "go"
    pool = SolverPool(1)
    try:
        held = pool.submit(Lane.PLAYER, jobs.hold, str(release), account="ann")
        await started(release)
        (victim,) = pool.pids()
        os.kill(victim, signal.SIGKILL)
        with pytest.raises(WorkerDied):
            await held
        healed = await pool.run(Lane.PLAYER, jobs.pid, account="ann")
        assert healed != victim and pool.pids() == [healed]
        snapshot = pool.snapshot()
        assert (snapshot.started, snapshot.died) == (2, 1)
    finally:
        release.touch()
        await pool.close()


async def test_a_waiting_job_cancelled_never_runs(tmp_path: Path) -> None:
    release = tmp_path / "go"
    pool = SolverPool(1)
    try:
        held = pool.submit(Lane.TODAY, jobs.hold, str(release))
        await started(release)
        dropped = pool.submit(Lane.PLAYER, jobs.hold, str(tmp_path / "never"), account="a")
        dropped.cancel()
        release.touch()
        await held
        assert await pool.run(Lane.PLAYER, jobs.pid, account="a")  # her share is back
        assert not (tmp_path / "never.started").exists()
    finally:
        release.touch()
        await pool.close()


async def test_the_thread_mode_keeps_the_same_rules(tmp_path: Path) -> None:
    """``workers=0`` (tests and tiny budgets): jobs in threads, the same admission."""
    release = tmp_path / "go"
    pool = SolverPool(0, per_account=1)
    try:
        held = pool.submit(Lane.PLAYER, jobs.hold, str(release), account="ann")
        with pytest.raises(Busy):
            pool.submit(Lane.PLAYER, jobs.pid, account="ann")
        release.touch()
        assert await held == os.getpid() and pool.pids() == []
    finally:
        release.touch()
        await pool.close()


def test_a_worker_inherits_no_descriptor_of_the_server(tmp_path: Path) -> None:
    """The data directory's lock is an open descriptor of the server: a worker that
    inherited it (as forked workers did) kept a killed server from restarting."""

    async def main() -> set[str]:
        pool = SolverPool(1)
        try:
            pid = await pool.run(Lane.TODAY, jobs.pid)
            return {os.readlink(f"/proc/{pid}/fd/{fd}") for fd in os.listdir(f"/proc/{pid}/fd")}
        finally:
            await pool.close()

    lock = tmp_path / "server.lock"
    fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        held = asyncio.run(main())
    finally:
        os.close(fd)
    assert str(lock) not in held


async def test_the_queue_serves_addresses_in_turn(tmp_path: Path) -> None:
    """Ten accounts of one address each keep a search in flight: the address holds
    ``per_address`` places, no more, and another address's search runs on the next
    free worker, before the flooding address's waiting ones."""
    release = tmp_path / "go"
    pool = SolverPool(1, queue=8, per_address=3)
    order: list[str] = []
    try:
        flood = [pool.submit(Lane.PLAYER, jobs.hold, str(release), account="a0", address="A")]
        await started(release)
        flood += [pool.submit(Lane.PLAYER, jobs.pid, account=f"a{i}", address="A") for i in (1, 2)]
        for i in range(3, 10):
            with pytest.raises(Busy) as refused:
                pool.submit(Lane.PLAYER, jobs.pid, account=f"a{i}", address="A")
            assert "address" in refused.value.reason and refused.value.retry_after >= 1
        honest = pool.submit(Lane.PLAYER, jobs.pid, account="h", address="B")
        for name, future in (("a1", flood[1]), ("a2", flood[2]), ("honest", honest)):
            future.add_done_callback(functools.partial(lambda n, _: order.append(n), name))
        release.touch()
        await asyncio.gather(honest, *flood)
    finally:
        release.touch()
        await pool.close()
    assert order == ["honest", "a1", "a2"]
    assert pool.snapshot().refused == 7


async def test_a_full_queue_gives_a_quiet_address_the_place_of_the_busiest(
    tmp_path: Path,
) -> None:
    """The queue is full of one address's searches: a player of an address with
    nothing in flight takes the place of that address's newest waiting search (which
    is refused, as if it had come last); once every address holds no more than the
    newcomer would, the newcomer is refused instead."""
    release = tmp_path / "go"
    pool = SolverPool(1, queue=2)
    try:
        running = pool.submit(Lane.PLAYER, jobs.hold, str(release), account="a0", address="A")
        await started(release)
        a1 = pool.submit(Lane.PLAYER, jobs.pid, account="a1", address="A")
        a2 = pool.submit(Lane.PLAYER, jobs.pid, account="a2", address="A")
        b = pool.submit(Lane.PLAYER, jobs.pid, account="b", address="B")
        with pytest.raises(Busy, match="busy"):
            await a2
        c = pool.submit(Lane.PLAYER, jobs.pid, account="c", address="C")
        with pytest.raises(Busy, match="busy"):
            await a1
        with pytest.raises(Busy, match="busy"):  # A, B and C hold one place each
            pool.submit(Lane.PLAYER, jobs.pid, account="d", address="D")
        release.touch()
        assert {await running, await b, await c} <= set(pool.pids())
    finally:
        release.touch()
        await pool.close()
    assert pool.snapshot().refused == 3
