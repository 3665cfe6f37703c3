"""End to end on Redis Cluster: two real ``pasyans-server`` processes on a real 3-node
cluster (started by ``deploy.local``), driven by real WebSocket clients. A player
moves from one instance to the other mid-game, plays a daily that the other instance
ranks, and races a player connected to the other instance."""

from __future__ import annotations

import time
import uuid

import pytest

from deploy.local import LocalDeployment
from tests.support import connect

from .conftest import COUNTDOWN

pytestmark = pytest.mark.cluster


def name(stem: str) -> str:
    return f"{stem}_{uuid.uuid4().hex[:6]}"


async def test_a_game_moves_between_instances(deployment: LocalDeployment) -> None:
    one, two = deployment.urls
    async with connect(one) as a:
        token = await a.register(name("alice"))
        state = await a.start("crescent", "practice")
        for _ in range(3):
            state = await a.move(state, state["legal"][0])
        assert state["seq"] == 3
        async with connect(two) as a2:
            assert (await a2.call("auth", token=token))["player"] == a.player
            there = (await a2.call("resume", game_id=state["game_id"]))["state"]
            assert there["seq"] == 3 and there["view"] == state["view"]
            there = await a2.move(there, there["legal"][0])
            # the first instance's copy is now one move behind: refused, with the news
            err = await a.error("move", game_id=state["game_id"], seq=3, move=state["legal"][0])
            assert err["code"] == "stale_seq" and err["state"]["seq"] == 4
            assert err["state"]["view"] == there["view"]
            mine = (await a2.call("my_games"))["games"]
            assert [g["game_id"] for g in mine] == [state["game_id"]]


async def test_a_daily_on_one_instance_ranks_on_the_other(deployment: LocalDeployment) -> None:
    one, two = deployment.urls
    async with connect(one) as a, connect(two) as b:
        await a.register(name("dana"))
        await b.register(name("eve"))
        da = await a.start("crescent", "daily")
        db = await b.start("crescent", "daily")
        assert da["mode"] == "daily" and da["ranked"] is True
        assert da["view"] == db["view"] and da["game_id"] != db["game_id"]
        for _ in range(2):
            da = await a.move(da, da["legal"][0])
        over = (await a.call("resign", game_id=da["game_id"]))["state"]
        assert over["status"] == "lost"
        board = await b.call("leaderboard", game="crescent", board="daily")
        assert a.player in [e["player"] for e in board["entries"]]
        assert board["me"] is None  # eve has not finished
        await b.call("resign", game_id=db["game_id"])
        board = await a.call("leaderboard", game="crescent", board="daily")
        rows = {e["player"]: e for e in board["entries"]}
        assert rows[a.player]["moves"] == 2 and rows[b.player]["moves"] == 0
        assert board["me"]["player"] == a.player
        today = await b.call("daily")
        assert today["games"]["crescent"]["mine"]["game_id"] == db["game_id"]


async def test_a_race_across_instances(deployment: LocalDeployment) -> None:
    one, two = deployment.urls
    async with connect(one) as a, connect(two) as b:
        await a.register(name("fay"))
        await b.register(name("gus"))
        race = (await a.call("race_create", game="crescent", seed=9))["race"]
        await b.call("race_join", code=race["code"])
        lobby = await a.next_event("race", status="lobby")
        while len(lobby["players"]) < 2:  # b joined on the other instance
            lobby = await a.next_event("race", status="lobby")
        started = time.monotonic()
        await a.call("race_start", race_id=race["race_id"])
        sa = (await a.next_event("race_started"))["state"]
        sb = (await b.next_event("race_started"))["state"]
        assert time.monotonic() - started >= COUNTDOWN - 0.1
        assert sa["view"] == sb["view"] and sa["mode"] == sb["mode"] == "race"

        sa = await a.move(sa, sa["legal"][0])
        row = await b.progress_of(a.player, 1)  # instance 0 → cluster → instance 1
        assert row["status"] == "playing" and row["foundation"] == sa["foundation"]
        sb = await b.move(sb, sb["legal"][0])
        sb = await b.move(sb, sb["legal"][0])
        row = await a.progress_of(b.player, 2)  # and back
        assert row["foundation"] == sb["foundation"]


async def test_accounts_that_last_on_a_cluster(deployment: LocalDeployment) -> None:
    """Issue 49's ops on a Redis Cluster, whose keys of one account, its tokens, its
    link code and the boards lie in different slots: a phone linked on one instance,
    signed out from the other, the account exported and deleted."""
    one, two = deployment.urls
    async with connect(one) as laptop, connect(two) as phone:
        me = name("zoe")
        await laptop.register(me)
        daily = await laptop.start("crescent", "daily")
        await laptop.call("resign", game_id=daily["game_id"])
        code = (await laptop.call("link_code"))["code"]
        linked = await phone.call("link", code=code)
        assert linked["player"] == me
        assert (await phone.error("link", code=code))["key"] == "error.link_code_wrong"
        new = (await phone.call("token_rotate"))["token"]
        assert (await laptop.next_event("bye"))["key"] == "bye.signed_out"
        async with connect(one) as again:
            assert (await again.error("auth", token=str(laptop.token)))["code"] == "unauthorized"
            assert (await again.call("auth", token=new))["player"] == me
            account = (await again.call("account_export"))["account"]
            assert [g["game_id"] for g in account["games"]] == [daily["game_id"]]
            assert (await again.call("account_delete", name=me))["held_days"] == 30
        # the phone, on the other instance, is signed out of the deleted account
        assert (await phone.next_event("bye"))["key"] == "bye.signed_out"
    async with connect(two) as stranger:
        board = await stranger.call("leaderboard", game="crescent", board="daily")
        assert me not in [e["player"] for e in board["entries"]]
        err = await stranger.error("register", name=me)
        assert err["key"] == "error.name_held"
