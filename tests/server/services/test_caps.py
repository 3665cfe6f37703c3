"""A player cannot pile up games in play or empty race lobbies: only the newest
``--max-in-play`` practice and deal games stay in play (an older one is deleted if it
has no move, else resigned) and only the newest ``--race-lobbies`` races one made stay
while nobody else joined them (older ones are deleted)."""

from __future__ import annotations

import pytest

from server.net import App
from tests.support import TestClient

CAP = 4


async def test_only_the_newest_practice_and_deal_games_stay_in_play(
    app: App, player: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert app.services is not None
    monkeypatch.setattr(app.services.games, "max_in_play", CAP)
    played = await player.start("crescent", "practice")
    played = await player.move(played, played["legal"][0])
    untouched = await player.start("crescent", "deal", seed=3)
    daily = await player.start("crescent", "daily")  # not a practice or deal game
    newer = [await player.start("crescent", "practice") for _ in range(CAP - 2)]
    # still CAP in play: nothing ended yet
    assert (await player.call("resume", game_id=played["game_id"]))["state"]["status"] == "playing"
    newer.append(await player.start("crescent", "deal", seed=4))  # one past the cap
    over = (await player.call("resume", game_id=played["game_id"]))["state"]
    assert over["status"] == "lost" and over["seq"] == played["seq"] + 1  # resigned, kept
    assert (await player.call("resume", game_id=untouched["game_id"]))["state"]["status"] == (
        "playing"
    )
    newer.append(await player.start("crescent", "practice"))
    # the game with no move is gone, from the player's list too
    err = await player.error("resume", game_id=untouched["game_id"])
    assert err["code"] == "not_found"
    listed = {g["game_id"] for g in (await player.call("my_games", limit=100))["games"]}
    assert untouched["game_id"] not in listed and played["game_id"] in listed
    for state in [daily, *newer]:
        got = (await player.call("resume", game_id=state["game_id"]))["state"]
        assert got["status"] == "playing"
    assert app.store is not None
    in_play = await app.store.redis.zcard(app.store.keys.player_in_play(str(player.player)))
    assert in_play == CAP


async def test_only_the_newest_empty_lobbies_of_a_player_are_kept(
    app: App, player: TestClient, player2: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert app.services is not None
    monkeypatch.setattr(app.services.races, "lobbies", CAP)
    alone = (await player.call("race_create", game="crescent"))["race"]
    joined = (await player.call("race_create", game="crescent"))["race"]
    await player2.call("race_join", code=joined["code"])
    for _ in range(CAP):
        await player.call("race_create", game="crescent")
    err = await player2.error("race_join", code=alone["code"])
    assert err["code"] == "not_found"
    # a lobby somebody joined is left alone (it expires with the day)
    back = await player2.call("race_join", code=joined["code"])
    assert back["race"]["status"] == "lobby" and len(back["race"]["players"]) == 2


async def test_presence_does_not_bring_back_a_deleted_race(app: App, player: TestClient) -> None:
    """Another instance still watching a deleted lobby notes who it sees: no key of
    the race comes back (its ``seen`` hash would outlive it by a day)."""
    assert app.store is not None
    store = app.store
    race = (await player.call("race_create", game="crescent"))["race"]
    rid = race["race_id"]
    assert await store.drop_lobby_race(rid)
    await store.race_saw(rid, [str(player.player)], 1)
    assert not await store.redis.exists(store.keys.race_seen(rid), store.keys.race(rid))
