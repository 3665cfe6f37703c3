"""A game's time is its player's active time, and why a game ended reads the same in
the state, the summaries, the race and the replay (issue 23, items 3 and 7)."""

from __future__ import annotations

from client.text import running_time
from server.services import FakeClock
from tests.support import TestClient

IDLE_MS = 60_000  # --idle-gap's default


async def test_a_games_time_is_its_players_active_time(
    player: TestClient, clock: FakeClock
) -> None:
    state = await player.start("fifteen", "deal", seed=7)  # still playing after three moves
    clock.advance(seconds=30)  # looking at the deal: the clock starts at the first move
    state = await player.move(state, state["legal"][0])
    assert state["time_ms"] == 0
    clock.advance(seconds=10)
    state = await player.move(state, state["legal"][0])
    assert state["time_ms"] == 10_000
    clock.advance(seconds=3600)  # away for an hour (or the server was down)
    state = await player.move(state, state["legal"][0])
    assert state["time_ms"] == 10_000 + IDLE_MS
    clock.advance(seconds=5)  # in play: the time since the last move counts too
    now = (await player.call("resume", game_id=state["game_id"]))["state"]
    assert now["time_ms"] == 10_000 + IDLE_MS + 5_000
    over = (await player.call("resign", game_id=state["game_id"]))["state"]
    clock.advance(seconds=600)
    again = (await player.call("resume", game_id=state["game_id"]))["state"]
    assert again["time_ms"] == over["time_ms"] == 10_000 + IDLE_MS + 5_000
    listed = (await player.call("my_games"))["games"][0]
    assert listed["time_ms"] == over["time_ms"]
    replay = (await player.call("replay", game_id=state["game_id"]))["replay"]
    assert replay["time_ms"] == over["time_ms"]


async def test_a_clock_run_on_from_any_state_shows_what_the_next_move_counts(
    player: TestClient, clock: FakeClock
) -> None:
    """The board, the home screen and the result agree (issue 38): a client's clock is
    ``time_ms`` run on by at most ``idle_left_ms`` (client.text.running_time), from a
    move's reply, a delta, or a resume a while after the last move."""
    state = await player.start("fifteen", "deal", seed=7)
    assert state["idle_left_ms"] == 0  # the clock starts at the first move
    state = await player.move(state, state["legal"][0])
    assert (state["time_ms"], state["idle_left_ms"]) == (0, IDLE_MS)
    for pause_before, pause_after in ((10, 5), (40, 30), (50, 3600), (3600, 2), (0, 0)):
        clock.advance(seconds=pause_before)
        read = (await player.call("resume", game_id=state["game_id"]))["state"]
        assert read["idle_left_ms"] == max(0, IDLE_MS - pause_before * 1000)
        clock.advance(seconds=pause_after)
        shown = running_time(read, pause_after * 1000)
        daily_like = (await player.call("resume", game_id=state["game_id"]))["state"]
        assert daily_like["time_ms"] == shown  # what another screen reads now
        state = await player.move(state, state["legal"][0])
        assert state["time_ms"] == shown  # the result of the move: no jump
        assert state["idle_left_ms"] == IDLE_MS
    delta = (
        await player.call(
            "move",
            game_id=state["game_id"],
            seq=state["seq"],
            move=state["legal"][0],
            reply="delta",
        )
    )["delta"]
    assert delta["idle_left_ms"] == IDLE_MS
    over = (await player.call("resign", game_id=state["game_id"]))["state"]
    assert over["idle_left_ms"] == 0
    assert running_time(over, 3_600_000) == over["time_ms"]


async def test_a_game_with_no_move_reads_no_time(player: TestClient, clock: FakeClock) -> None:
    """The clock starts at the first move (issue 47: a fresh game read "1:00", the idle
    allowance, and a client's clock ran to it while nobody played): a game with no
    move reads 0:00 in its state, a resume an hour later, the list of games, and once
    resigned at once; no client's clock runs on it."""
    state = await player.start("crescent", "deal", seed=7)
    assert (state["time_ms"], state["idle_left_ms"]) == (0, 0)
    clock.advance(seconds=40)
    read = (await player.call("resume", game_id=state["game_id"]))["state"]
    assert (read["time_ms"], read["idle_left_ms"]) == (0, 0)
    assert running_time(read, 40_000) == 0
    clock.advance(seconds=3600)
    listed = (await player.call("my_games"))["games"][0]
    assert listed["game_id"] == state["game_id"] and listed["time_ms"] == 0
    over = (await player.call("resign", game_id=state["game_id"]))["state"]
    assert over["time_ms"] == 0
    assert (await player.call("my_games"))["games"][0]["time_ms"] == 0


async def test_a_resigned_game_says_so_everywhere(player: TestClient) -> None:
    # a fixed deal: about one random deal in a thousand is lost after its first move
    state = await player.start("fifteen", "deal", seed=7)
    state = await player.move(state, state["legal"][0])
    assert state["status"] == "playing"
    over = (await player.call("resign", game_id=state["game_id"]))["state"]
    assert over["status"] == "lost" and over["out"] == "resigned"
    listed = (await player.call("my_games"))["games"][0]
    assert listed["out"] == "resigned"
    last = await player.call("replay", game_id=state["game_id"], step=1)
    assert last["replay"]["out"] == "resigned"
    # Its last position still had moves, but the game ended there: lost.
    assert last["position"]["status"] == "lost"
    first = await player.call("replay", game_id=state["game_id"], step=0)
    assert first["position"]["status"] == "playing"


async def test_a_game_with_no_move_left_has_no_out(player: TestClient) -> None:
    state = await player.start("travellers", "deal", seed=0)
    for _ in range(400):
        if state["status"] != "playing":
            break
        state = await player.move(state, state["legal"][0])
    assert state["status"] in ("won", "lost") and "out" not in state
    assert (await player.call("my_games"))["games"][0]["out"] is None


async def test_a_race_ended_by_its_creator_reads_ended_for_the_others(
    player: TestClient, player2: TestClient
) -> None:
    race = (await player.call("race_create", game="crescent"))["race"]
    await player2.call("race_join", code=race["code"])
    await player.call("race_start", race_id=race["race_id"])
    await player.next_event("race_started")
    theirs = (await player2.next_event("race_started"))["state"]
    ended = (await player.call("race_end", race_id=race["race_id"]))["race"]
    row = next(p for p in ended["players"] if p["player"] == player2.player)
    assert row["status"] == "lost" and row["out"] == "ended"
    state = (await player2.call("resume", game_id=theirs["game_id"]))["state"]
    assert state["status"] == "lost" and state["out"] == "ended"
    assert (await player2.call("my_games"))["games"][0]["out"] == "ended"
    replay = (await player2.call("replay", game_id=theirs["game_id"]))["replay"]
    assert replay["out"] == "ended"
