"""Every connection of a player sees its games' changes at once (issue 37: two tabs
stay in sync): a write by one connection is the ``game`` event to the player's others
(not to itself: it has the reply), on this instance; tests/races/test_races.py has the
same across two instances."""

from __future__ import annotations

from tests.support import TestClient, connect


async def test_a_players_other_connection_hears_of_each_change(
    ws_url: str, player: TestClient
) -> None:
    assert player.token is not None
    async with connect(ws_url) as tab:
        await tab.call("auth", token=player.token)
        state = await player.start("crescent", "deal", seed=3)
        moved = await player.move(state, state["legal"][0])
        ev = await tab.next_event("game", game_id=state["game_id"])
        assert ev == {
            "ev": "game",
            "game_id": state["game_id"],
            "seq": moved["seq"],
            "status": "playing",
        }
        # the other tab plays on from there: its own change reaches the first
        there = (await tab.call("resume", game_id=state["game_id"]))["state"]
        assert there["seq"] == moved["seq"]
        undone = (await tab.call("undo", game_id=state["game_id"], seq=there["seq"]))["state"]
        ev = await player.next_event("game", game_id=state["game_id"])
        assert ev["seq"] == undone["seq"]
        over = (await player.call("resign", game_id=state["game_id"]))["state"]
        ev = await tab.next_event("game", game_id=state["game_id"], seq=over["seq"])
        assert ev["status"] == "lost"
    # the connection that made a change is told by its reply alone
    assert not [e for e in player.events if e.get("ev") == "game" and e["seq"] != undone["seq"]]


async def test_another_player_hears_nothing(
    ws_url: str, player: TestClient, player2: TestClient
) -> None:
    state = await player.start("crescent", "deal", seed=4)
    await player.move(state, state["legal"][0])
    await player2.call("games")  # a round trip: anything sent before it came first
    assert not [e for e in player2.events if e.get("ev") == "game"]
