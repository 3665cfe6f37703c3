"""Replays over a real server: the moves of a finished game from its seed reproduce its
final state in every patience; who may replay whose game, and when."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from server.net import App
from server.patience import registry
from server.services import FakeClock
from server.services import games as games_service
from server.solver import certify
from server.workers import Lane
from tests.support import TestClient, connect, jobs, redis_calls, running_app

TODAY = "2026-03-14"


async def play_some(
    client: TestClient, state: dict[str, Any], moves: int, *, undo: bool = True
) -> dict[str, Any]:
    """Up to ``moves`` moves (the last legal one each time, so deals and shifts
    come up), with an undo after the second one."""
    for i in range(moves):
        if state["status"] != "playing" or not state["legal"]:
            break
        state = await client.move(state, state["legal"][-1])
        if undo and i == 1:
            state = (await client.call("undo", game_id=state["game_id"], seq=state["seq"]))["state"]
    return state


async def finish(client: TestClient, state: dict[str, Any]) -> dict[str, Any]:
    if state["status"] == "playing":
        state = (await client.call("resign", game_id=state["game_id"]))["state"]
    return state


@pytest.mark.parametrize("slug", registry.slugs())
async def test_replay_reproduces_the_final_state(app: App, player: TestClient, slug: str) -> None:
    state = await player.start(slug, "deal", seed=7)
    state = await finish(player, await play_some(player, state, 12))
    gid = state["game_id"]
    replay = (await player.call("replay", game_id=gid))["replay"]
    assert replay["seed"] == 7 and replay["game"] == slug and replay["player"] == player.player
    assert replay["status"] == state["status"] and replay["moves"] == state["moves"]
    line = replay["line"]
    # the undo took one move back: the line is the moves in force
    assert len(line) == state["moves"] - 2 or len(line) < 2
    # through the engine, from the seed: the stored final state, byte for byte
    game = registry.get(slug)
    position = game.deal(7)
    for wire in line:
        position = game.apply(position, game.parse_move(wire))
    assert app.store is not None
    stored = await app.store.game(gid)
    assert stored is not None and game.dumps(position) == stored["state"]
    # and through the server, the last step shows the final board
    last = await player.call("replay", game_id=gid, step=len(line))
    assert last["position"]["view"] == state["view"]
    assert last["position"]["foundation"] == state["foundation"]
    assert last["position"]["move"] == (line[-1] if line else None)
    first = await player.call("replay", game_id=gid, step=0)
    assert first["position"]["view"] == game.view(game.deal(7))
    assert first["position"]["move"] is None


async def test_stepping_back_and_forth(player: TestClient) -> None:
    state = await player.start("crescent", "deal", seed=3)
    state = await finish(player, await play_some(player, state, 6, undo=False))
    gid, n = state["game_id"], state["moves"]
    views = [(await player.call("replay", game_id=gid, step=k))["position"] for k in range(n + 1)]
    back = [
        (await player.call("replay", game_id=gid, step=k))["position"] for k in range(n, -1, -1)
    ]
    assert views == back[::-1]
    assert views[-1]["view"] == state["view"]
    err = await player.error("replay", game_id=gid, step=n + 1)
    assert err["code"] == "bad_request" and f"{n} moves" in err["message"]


async def test_a_long_way_to_a_step_is_replayed_by_a_worker(
    app: App, player: TestClient, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A step more than INLINE_MOVES from any kept position is a worker's job (here a
    thread: the test server's pool), under the players' limits; the same position."""
    monkeypatch.setattr(games_service, "INLINE_MOVES", 0)
    state = await player.start("crescent", "deal", seed=3)
    state = await finish(player, await play_some(player, state, 8, undo=False))
    gid, n = state["game_id"], state["moves"]
    assert app.pool is not None
    before = app.pool.snapshot().running
    far = (await player.call("replay", game_id=gid, step=n))["position"]
    assert far["view"] == state["view"] and far["foundation"] == state["foundation"]
    assert app.pool.snapshot().running == before  # done, nothing left running
    near = (await player.call("replay", game_id=gid, step=n - 1))["position"]
    assert near["move"] == (await player.call("replay", game_id=gid))["replay"]["line"][-2]
    # a player with a search under way is told to come back, as for a hint
    release = tmp_path / "go"
    held = app.pool.submit(Lane.PLAYER, jobs.hold, str(release), account=player.player)
    try:
        err = await player.error("replay", game_id=gid, step=1)
        assert err["code"] == "unavailable" and err["retry_after"] >= 1
    finally:
        release.touch()
    await held
    again = (await player.call("replay", game_id=gid, step=1))["position"]
    assert again["step"] == 1


async def test_a_finished_games_moves_are_read_once(app: App, player: TestClient) -> None:
    """A finished game's log never changes: replaying it again and stepping through it
    read it from Redis once (a 5,000-move log was 8 ms of the server's CPU a request)."""
    state = await player.start("crescent", "deal", seed=3)
    state = await finish(player, await play_some(player, state, 6, undo=False))
    gid = state["game_id"]
    before = redis_calls(app, "log")
    whole = (await player.call("replay", game_id=gid))["replay"]
    for step in (0, 1, 2, len(whole["line"])):
        again = await player.call("replay", game_id=gid, step=step)
        assert again["replay"] == whole and again["position"]["step"] == step
    assert redis_calls(app, "log") == before + 1


async def test_a_game_in_play_is_not_replayed(player: TestClient) -> None:
    state = await player.start("crescent", "practice")
    err = await player.error("replay", game_id=state["game_id"])
    assert err["code"] == "forbidden" and "resume" in err["message"]


async def test_unknown_game_and_bad_requests(player: TestClient) -> None:
    assert (await player.error("replay", game_id="nope"))["code"] == "not_found"
    assert (await player.error("replay"))["code"] == "bad_request"
    assert (await player.error("replay", game="crescent"))["code"] == "bad_request"
    both = await player.error("replay", game_id="x", game="crescent", date=TODAY)
    assert both["code"] == "bad_request"
    err = await player.error("replay", game="crescent", date="2026-03-13", player="no_such_one")
    assert err["code"] == "not_found"


async def test_anothers_practice_game_is_theirs_alone(
    player: TestClient, player2: TestClient
) -> None:
    state = await finish(player, await player.start("crescent", "practice"))
    err = await player2.error("replay", game_id=state["game_id"])
    assert err["code"] == "forbidden" and "only its player" in err["message"]


async def test_anothers_daily_replays_once_the_day_is_over(
    player: TestClient, player2: TestClient, clock: FakeClock
) -> None:
    state = await player.start("crescent", "daily")
    state = await finish(player, await play_some(player, state, 5, undo=False))  # ranked
    gid = state["game_id"]
    # today: the player may, with the seed hidden; nobody else may
    mine = (await player.call("replay", game_id=gid))["replay"]
    assert mine["seed"] is None and mine["commitment"] and mine["date"] == TODAY
    err = await player2.error("replay", game_id=gid)
    assert err["code"] == "forbidden" and "once that day is over" in err["message"]
    by_day = await player2.error("replay", game="crescent", date=TODAY, player=player.player)
    assert by_day["code"] == "forbidden"
    # tomorrow: anyone, by id or from the day's board (player, game, date), seed shown
    clock.advance(days=1)
    theirs = (await player2.call("replay", game_id=gid))["replay"]
    assert isinstance(theirs["seed"], int) and theirs["line"] == mine["line"]
    again = await player2.call("replay", game="crescent", date=TODAY, player=player.player, step=1)
    assert again["replay"]["game_id"] == gid and again["position"]["step"] == 1


async def test_a_past_daily_replays_for_anyone_without_an_account(
    ws_url: str, player: TestClient, clock: FakeClock
) -> None:
    daily = await player.start("short", "daily")
    state = await finish(player, await play_some(player, daily, 3, undo=False))  # ranked
    clock.advance(days=1)
    async with connect(ws_url) as anonymous:
        got = await anonymous.call("replay", game_id=state["game_id"], step=0)
        assert got["replay"]["player"] == player.player and got["position"]["step"] == 0


async def test_a_race_game_replays_for_the_others_once_the_race_is_over(
    player: TestClient, player2: TestClient
) -> None:
    race = (await player.call("race_create", game="crescent", seed=11))["race"]
    await player2.call("race_join", code=race["code"])
    await player.call("race_start", race_id=race["race_id"])
    mine = (await player.next_event("race_started"))["state"]
    theirs = (await player2.next_event("race_started"))["state"]
    mine = await finish(player, await play_some(player, mine, 3, undo=False))
    # the race runs on (player2 still plays): player's game is theirs alone
    err = await player2.error("replay", game_id=mine["game_id"])
    assert err["code"] == "forbidden" and "race is over" in err["message"]
    own = (await player.call("replay", game_id=mine["game_id"]))["replay"]
    assert own["race_id"] == race["race_id"] and own["seed"] is None
    await finish(player2, theirs)
    await player.next_event("race", status="finished")
    seen = (await player2.call("replay", game_id=mine["game_id"]))["replay"]
    assert seen["line"] == own["line"] and seen["seed"] == 11


async def test_the_par_line_of_a_past_daily(redis_url: str) -> None:
    """``replay GAME --date D``: the certified line of a day that is over, stepped
    through on the server, ends won; today's stays secret."""
    clock = FakeClock(f"{TODAY}T12:00:00")
    # a budget large enough to certify travellers_classic's daily (a few ms)
    async with (
        running_app(redis_url, clock=clock, candidate_nodes=5_000, daily_nodes=50_000) as app,
        connect(f"ws://127.0.0.1:{app.port}/ws") as c,
    ):
        err = await c.error("replay", game="travellers_classic", date=TODAY)
        assert err["code"] == "forbidden" and "secret" in err["message"]
        # chosen during its day, as the background's scan does (the daily op would
        # choose all sixteen)
        assert app.services is not None
        daily = await app.services.dailies.choice(TODAY, "travellers_classic")
        clock.advance(days=1)
        got = (await c.call("replay", game="travellers_classic", date=TODAY))["replay"]
        assert got["mode"] == "par" and got["seed"] == daily.seed
        assert got["line"] == list(daily.line) and got["par"] == daily.par == len(got["line"])
        game = registry.get("travellers_classic")
        line = [game.parse_move(m) for m in got["line"]]
        assert certify(game, game.deal(got["seed"]), line)
        end = await c.call("replay", game="travellers_classic", date=TODAY, step=len(line))
        assert end["position"]["status"] == "won"
        assert end["position"]["foundation"] == game.total
        future = await c.error("replay", game="crescent", date="2026-03-20")
        assert future["code"] == "not_found"
        # a past day never chosen is not solved on demand: the background chooses it
        missed = await c.error("replay", game="crescent", date=TODAY)
        assert missed["code"] == "unavailable" and missed["retry_after"] > 0
        assert await app.services.dailies.known(TODAY, "crescent") is None
        # no dailies before the deployment's first day (its first use: TODAY)
        before = await c.error("replay", game="crescent", date="2026-01-01")
        assert before["code"] == "not_found" and "first day" in before["message"]
