"""Issue 24: a fresh server certifies its dailies in the background with one budget
(``preparing`` with progress meanwhile); ``start daily`` of one still being certified
is refused with a retry hint; an unproven daily is an incident, labelled everywhere."""

from __future__ import annotations

import dataclasses
import logging
import os
import uuid
from typing import Any

import pytest
import redis.asyncio

from protocol import ErrorCode
from server.net import App
from server.patience import registry
from server.services import FakeClock
from server.services.daily import Dailies
from server.settings import Settings
from server.solver.daily import Budget, Choice, candidate_seed, choose
from server.store.keys import Keys
from server.workers import Lane, SolverPool
from tests.support import connect, eventually, jobs
from tests.support.server import server_settings

from .test_daily_busy import Gate

GAME = "travellers_classic"  # certified within a few hundred nodes nearly always


def test_one_large_budget_by_default() -> None:
    """No separate 'a player is waiting' budget: the server's default is the large one."""
    defaults = Settings()
    assert (defaults.candidate_nodes, defaults.daily_nodes) == (30_000, 2_500_000)
    assert Budget() == Budget(defaults.candidate_nodes, defaults.daily_nodes)
    assert defaults.prepare_days == 2 and defaults.solver_nice > 0


@pytest.mark.skipif(not hasattr(os, "SCHED_IDLE"), reason="SCHED_IDLE is Linux's")
@pytest.mark.parametrize("idle", [False, True])
async def test_solver_workers_run_niced_and_the_days_ahead_under_sched_idle(idle: bool) -> None:
    """Players' searches run niced; today's dailies at their own niceness (a busy
    host still gives them a real share); only the days ahead go idle, and a worker
    comes back from there (or a fresh one takes its place) for the next job."""
    pool = SolverPool(1, niceness=3, today_niceness=1, idle=idle)
    try:
        today = await pool.run(Lane.TODAY, jobs.priority)
        ahead = await pool.run(Lane.AHEAD, jobs.priority)
        player = await pool.run(Lane.PLAYER, jobs.priority, account="p")
        today_again = await pool.run(Lane.TODAY, jobs.priority)
    finally:
        await pool.close()
    base = os.nice(0)
    normal = os.sched_getscheduler(0)
    assert today == today_again == (min(19, base + 1), normal)
    assert player == (min(19, base + 3), normal)
    assert ahead == (min(19, base + 3), os.SCHED_IDLE if idle else normal)


async def test_a_fresh_server_says_preparing_then_certified_with_par(redis_url: str) -> None:
    # A small budget (test settings), the real scan in one niced worker process. A
    # fixed secret and day: the candidates, and so the scan, are the same in every run
    # (with a random secret the budget had to be 2,000 nodes a candidate and 6,000 a
    # game for Travellers to be certified nearly always, and the sixteen games' scans
    # took 8 CPU s). On this day Travellers' first candidate is certified in 401 nodes;
    # every other game gets one candidate of at most 500 nodes.
    settings = server_settings(
        redis_url,
        candidate_nodes=500,
        daily_nodes=500,
        solver_workers=1,
        prepare_dailies=True,
        prepare_days=0,
        daily_wait=0.05,
    )
    async with redis.asyncio.from_url(redis_url) as r:
        await r.set(Keys(settings.key_prefix).secret(), bytes(range(32)))
    app = App(settings, clock=FakeClock("2026-03-14T12:00:00"))
    await app.start()
    try:
        async with connect(f"ws://127.0.0.1:{app.port}/ws") as client:
            await client.register(f"f{uuid.uuid4().hex[:8]}")
            first = (await client.call("daily"))["games"][GAME]
            assert first["commitment"] is None and first["par"] is None
            progress = first["preparing"]
            assert set(progress) == {"tried", "elapsed_ms", "estimate_ms"}
            assert progress["tried"] >= 0 and progress["elapsed_ms"] >= 0

            async def decided() -> dict[str, Any] | None:
                entry: dict[str, Any] = (await client.call("daily"))["games"][GAME]
                return None if entry.get("preparing") else entry

            entry = await eventually(decided, every=0.2, what=f"{GAME}'s daily certified")
            assert entry["certified"] is True and isinstance(entry["par"], int)
            assert entry["label"] is None and entry["commitment"]
            state = await client.start(GAME, "daily")  # decided: dealt at once
            assert state["mode"] == "daily"
        # the solver's workers run below the event loop's priority: niced, and for
        # the days ahead, where Linux has it, in the idle class
        assert app.pool is not None and len(app.pool.pids()) == 1
        today = await app.pool.run(Lane.TODAY, jobs.priority)
        assert today[0] == min(19, os.nice(0) + settings.solver_today_nice)
        ahead = await app.pool.run(Lane.AHEAD, jobs.priority)
        assert ahead[0] == min(19, os.nice(0) + settings.solver_nice)
        if hasattr(os, "SCHED_IDLE"):
            assert ahead[1] == os.SCHED_IDLE
    finally:
        await app.stop()


@pytest.mark.parametrize(
    ("slug", "date", "budget"),
    [
        # certified by its fourth candidate, the ones searched ahead past it dropped
        ("parade", "2031-07-04", Budget(1_000, 6_000)),
        # five candidates, none certified: the budget ends the scan
        ("crescent", "2031-09-18", Budget(300, 1_500)),
    ],
)
async def test_searching_ahead_chooses_what_one_scan_chooses(
    app: App, slug: str, date: str, budget: Budget
) -> None:
    """Two workers and nobody else's candidates: the scan searches ahead, side by side,
    and still chooses exactly what :func:`choose` does, one candidate after another."""
    assert app.store is not None
    pool = SolverPool(0)  # two threads
    dailies = Dailies(app.store, FakeClock(), budget=budget, pool=pool)
    # A fixed secret: the candidates, and so the scan's length, are the same in
    # every run (with the server's random one this scan took 3 to 22 s). The days and
    # budgets keep each scan under a CPU second (Parade's 2031-07-16 took eight
    # candidates, Crescent's 800 nodes a candidate: 2.9 CPU s each, issue 45).
    dailies._secret = bytes(range(32))
    chosen = await dailies.choice(date, slug)
    assert chosen == choose(slug, await dailies.secret(), date, budget)
    assert chosen.tried >= 4 and chosen.certified == (slug == "parade")
    assert pool.snapshot().queued == dict.fromkeys(("player", "today", "ahead"), 0)


async def test_start_daily_while_preparing_says_when_to_try_again(redis_url: str) -> None:
    settings = dataclasses.replace(server_settings(redis_url), daily_wait=0.1)
    gate = Gate()  # the choice goes on until the test lets it end
    app = App(settings, clock=FakeClock(), chooser=gate)
    await app.start()
    try:
        async with connect(f"ws://127.0.0.1:{app.port}/ws") as client:
            await client.register(f"s{uuid.uuid4().hex[:8]}")
            error = await client.error("start", game="short", mode="daily")
            assert error["code"] == ErrorCode.UNAVAILABLE
            assert error["retry_after"] > 0 and "try again in" in error["message"]
            assert set(error["preparing"]) == {"tried", "elapsed_ms", "estimate_ms"}
            practice = await client.start("short", "practice")  # playable at once
            assert practice["mode"] == "practice"
            # The choice ends: the player tries again when told to, and gets the daily
            # once it is chosen.
            gate.open()

            async def started() -> dict[str, Any] | None:
                reply = await client.request("start", game="short", mode="daily")
                if not reply["ok"]:
                    assert reply["error"]["code"] == ErrorCode.UNAVAILABLE
                    return None
                return reply

            # sooner than told (retry_after): it is a test
            reply = await eventually(started, every=0.05, what="the daily chosen")
            state = reply["state"]
            assert state["mode"] == "daily" and state["ranked"] is True
        assert gate.stuck == 0
    finally:
        gate.open()
        await app.stop()


def unproven_chooser(slug: str, secret: bytes, date: str, budget: Budget) -> Choice:
    return Choice(candidate_seed(secret, date, slug, 3), 3, False, None, 61, tried=9)


async def test_an_unproven_daily_is_labelled_counted_and_logged(
    redis_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    app = App(server_settings(redis_url), clock=FakeClock(), chooser=unproven_chooser)
    await app.start()
    try:
        with caplog.at_level(logging.WARNING, logger="pasyans.daily"):
            async with connect(f"ws://127.0.0.1:{app.port}/ws") as client:
                games = (await client.call("daily"))["games"]
        for slug, entry in games.items():
            total = registry.get(slug).total
            assert entry["certified"] is False and entry["par"] is None
            assert entry["total"] == total
            assert entry["label"] == f"not proven winnable (best line founds 61 of {total})"
        warned = [r for r in caplog.records if r.levelno == logging.WARNING]
        assert {r.args[0] for r in warned if isinstance(r.args, tuple)} == set(games)
        assert all("not proven winnable" in r.getMessage() for r in warned)
        metrics = app.metrics.render().decode()
        assert 'pasyans_dailies_unproven_total{game="crescent"} 1.0' in metrics
        assert "pasyans_dailies_preparing 0.0" in metrics
    finally:
        await app.stop()


async def test_today_first_then_the_next_two_days_kept_prepared(redis_url: str) -> None:
    """A server prepares today's dailies first, then the next two days' (one budget,
    in the background: nobody asked for any of them)."""
    chosen: list[tuple[str, str]] = []

    def chooser(slug: str, secret: bytes, date: str, budget: Budget) -> Choice:
        chosen.append((date, slug))
        return Choice(candidate_seed(secret, date, slug, 0), 0, True, 5, 104)

    clock = FakeClock("2030-05-30T23:00:00")
    settings = server_settings(redis_url, prepare_dailies=True, prepare_days=2)
    app = App(settings, clock=clock, chooser=chooser)
    await app.start()
    try:
        assert app.services is not None
        dailies = app.services.dailies
        games = len(registry.slugs())
        await eventually(  # chosen, and stored
            lambda: len(chosen) >= 3 * games and not dailies.preparing(),
            what="three days of dailies prepared",
        )
        dates = [date for date, _ in chosen]
        assert dates == ["2030-05-30"] * games + ["2030-05-31"] * games + ["2030-06-01"] * games
        assert dailies.preparing() == 0
    finally:
        await app.stop()
