"""The ``hint`` op over a real server: one move of a winning line, or "no win found";
a hinted daily is assisted and never ranks; races refuse hints."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from server.net import App
from server.patience import registry
from server.services import FakeClock
from server.solver import certify, solve
from server.workers import Lane
from tests.support import TestClient, jobs
from tests.support.server import running_app


@pytest.fixture
async def app(redis_url: str, clock: FakeClock) -> AsyncIterator[App]:
    """The test server with a burst that takes a line played at once: a test plays
    faster than a person (it slept 50 ms (two requests) a move to stay within 50 requests a second,
    most of the file's time, issue 45)."""
    async with running_app(redis_url, clock=clock, burst=2_000) as server:
        yield server


async def play_out(client: TestClient, state: dict[str, Any]) -> dict[str, Any]:
    """Follow hints to the end of the game."""
    for _ in range(400):
        if state["status"] != "playing":
            break
        hint = await client.call("hint", game_id=state["game_id"])
        assert hint["assisted"] is True and hint["move"] is not None, hint
        state = await client.move(state, hint["move"])
    return state


async def test_hints_lead_to_a_win(player: TestClient) -> None:
    # A hand_reserve deal the solver wins within a fraction of a second, in few moves.
    game = registry.get("hand_reserve")
    seed = next(s for s in range(20) if solve(game, game.deal(s), max_nodes=2_000).line)
    state = await player.start("hand_reserve", "deal", seed=seed)
    state = await play_out(player, state)
    assert state["status"] == "won"


async def test_a_hint_from_a_lost_cause_says_so(player: TestClient) -> None:
    game = registry.get("travellers")
    seed = next(
        s for s in range(50) if solve(game, game.deal(s), max_nodes=20_000).outcome == "none"
    )
    state = await player.start("travellers", "deal", seed=seed)
    hint = await player.call("hint", game_id=state["game_id"])
    assert hint == {"move": None, "assisted": True, "message": "no win found from here"}


async def test_no_hint_on_todays_daily_deal_while_the_day_lasts(
    player: TestClient, player2: TestClient
) -> None:
    """A second account's hints would give the day's line to its first, who copies it
    (issue 36's cheat): today's deal gets no hint; the state says so (``hints:
    false``) and the game stays as it was."""
    state = await player.start("travellers_classic", "daily")
    assert state["ranked"] is True and state["hints"] is False
    err = await player.error("hint", game_id=state["game_id"])
    assert err["code"] == "forbidden" and "until the day is over" in err["message"]
    again = (await player.call("resume", game_id=state["game_id"]))["state"]
    assert again["ranked"] is True and again["assisted"] is False
    await player.call("resign", game_id=state["game_id"])
    # no second copy of the deal to hint on: the same game, over
    again = await player.start("travellers_classic", "daily")
    assert again["game_id"] == state["game_id"] and again["status"] == "lost"
    practice = await player2.start("travellers_classic", "practice")
    assert practice["hints"] is True


async def test_races_refuse_hints(player: TestClient, player2: TestClient) -> None:
    race = (await player.call("race_create", game="crescent", seed=3))["race"]
    await player2.call("race_join", code=race["code"])
    await player.call("race_start", race_id=race["race_id"])
    state = (await player.next_event("race_started"))["state"]
    err = await player.error("hint", game_id=state["game_id"])
    assert err["code"] == "forbidden" and "race" in err["message"]


async def test_hint_errors(player: TestClient, player2: TestClient) -> None:
    state = await player.start("crescent")
    assert (await player2.error("hint", game_id=state["game_id"]))["code"] == "forbidden"
    await player.call("resign", game_id=state["game_id"])
    assert (await player.error("hint", game_id=state["game_id"]))["code"] == "game_over"
    assert (await player.error("hint", game_id="nope"))["code"] in ("not_found", "bad_request")


def test_a_found_line_replays() -> None:
    """Fifteen's deal 1, won within 600 nodes (deal 0 took 6,000 and 2 CPU s with its
    par pass, issue 45)."""
    game = registry.get("fifteen")
    result = solve(game, game.deal(1), max_nodes=20_000)
    assert result.outcome == "win" and result.line is not None
    assert certify(game, game.deal(1), result.line)
    assert not certify(game, game.deal(1), result.line[:-1])


async def test_a_busy_solver_answers_unavailable_at_once(
    app: App, player: TestClient, player2: TestClient, tmp_path: Path
) -> None:
    """A player with a search under way, or a full queue, is told to come back: the
    search is refused before the game is touched (it stays ranked)."""
    assert app.pool is not None
    release = tmp_path / "go"
    state = await player.start("crescent", "daily")
    held = app.pool.submit(Lane.PLAYER, jobs.hold, str(release), account=player.player)
    try:
        for op, args in (("hint", {}), ("finish", {"seq": state["seq"], "assist": True})):
            err = await player.error(op, game_id=state["game_id"], **args)
            assert err["code"] == "unavailable" and err["retry_after"] >= 1, err
            assert "already" in err["message"]
        again = (await player.call("resume", game_id=state["game_id"]))["state"]
        assert again["ranked"] is True  # nothing was searched: the game is as it was
        # the queue: full once as many searches wait as it holds
        fillers = [
            app.pool.submit(Lane.PLAYER, jobs.hold, str(release), account=f"x{i}")
            for i in range(app.pool.size - 1 + app.pool.queue)
        ]
        other = await player2.start("travellers_classic", "deal", seed=1)
        err = await player2.error("hint", game_id=other["game_id"])
        assert err["code"] == "unavailable" and "busy" in err["message"]
    finally:
        release.touch()
    await asyncio.gather(held, *fillers)
    hint = await player2.call("hint", game_id=other["game_id"])  # served again
    assert hint["assisted"] is True
    metrics = app.metrics.render().decode()
    assert "pasyans_solver_refused_total 3.0" in metrics
    assert 'pasyans_solver_queued{lane="player"} 0.0' in metrics
