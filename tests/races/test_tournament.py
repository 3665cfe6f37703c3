"""A tournament across two server processes on one Redis (issue 51, "done when"): 20
scripted entrants, half on each instance, play a 5-minute tournament (a minute is a
second on these servers: ``--tournament-minute 1``); the standings agree on both
instances, every event's rows are in the scores' order, and the final order is the
scores'. An entrant who disconnects mid-deal resumes it on the other instance."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from contextlib import AsyncExitStack
from typing import Any

import pytest

from tests.support import TestClient, connect

from .conftest import Cluster, running

ENTRANTS = 20


@pytest.fixture(scope="module")
def tour_cluster() -> Iterator[Cluster]:
    yield from running("--tournament-lead", "0", "--tournament-minute", "1")


def in_order(rows: list[dict[str, Any]]) -> bool:
    keys = [(-r["points"], -r["founded"], r["player"]) for r in rows]
    return keys == sorted(keys) and [r["rank"] for r in rows] == list(range(1, len(rows) + 1))


async def play_out(c: TestClient, tid: str, moves: int) -> None:
    """Play deals until the tournament refuses one: ``moves`` legal moves each, then
    resign (a scripted entrant at its own pace)."""
    while True:
        reply = await c.request("tournament_play", tournament_id=tid)
        if not reply["ok"]:
            assert reply["error"]["key"] in (
                "error.tournament_over",
                "error.tournament_deals_done",
                "error.tournament_preparing",
            ), reply["error"]
            if reply["error"]["key"] == "error.tournament_preparing":
                # the next deal is being certified: each one certified is an event
                await c.next_event("tournament", tournament_id=tid)
                continue
            return
        state = reply["state"]
        for _ in range(moves):
            if state["status"] != "playing" or not state["legal"]:
                break
            answer = await c.request(
                "move", game_id=state["game_id"], seq=state["seq"], move=state["legal"][0]
            )
            if not answer["ok"]:
                break
            state = answer["state"]
        if state["status"] == "playing":
            await c.request("resign", game_id=state["game_id"])


async def test_twenty_entrants_on_two_instances(tour_cluster: Cluster) -> None:
    async with AsyncExitStack() as stack:
        clients = [
            await stack.enter_async_context(connect(tour_cluster.url(i % 2)))
            for i in range(ENTRANTS)
        ]
        for i, c in enumerate(clients):
            await c.register(f"e{i:02d}_{time.monotonic_ns() % 10**6}")
        starts = int(time.time() * 1000) + 1500
        made = (
            await clients[0].call("tournament_create", game="carpet", starts_at=starts, minutes=5)
        )["tournament"]
        tid, code = made["tournament_id"], made["code"]
        for c in clients[1:]:
            await c.call("tournament_join", code=code)
        watchers = [await stack.enter_async_context(connect(tour_cluster.url(i))) for i in range(2)]
        for i, w in enumerate(watchers):
            await w.register(f"w{i}_{time.monotonic_ns() % 10**6}")
            await w.call("tournament_watch", code=code)
        for c in clients:  # the start, as an event on either instance
            await c.next_event("tournament", tournament_id=tid, status="running")
        await asyncio.gather(*(play_out(c, tid, i % 7) for i, c in enumerate(clients)))
        finals = []
        for w in watchers:
            while True:
                ev = await w.next_event("tournament", tournament_id=tid)
                assert in_order(ev["standings"]), ev["standings"]
                if ev["status"] == "finished" and ev["seeds"]:
                    finals.append(ev)
                    break
        assert finals[0]["standings"] == finals[1]["standings"]
        assert finals[0]["entrants"] == ENTRANTS
        for i in range(2):  # each instance answers the same standings
            shown = (await watchers[i].call("tournament", code=code))["tournament"]
            assert shown["standings"] == finals[0]["standings"]


async def test_a_deal_resumes_on_the_other_instance_after_a_kill(tour_cluster: Cluster) -> None:
    """An entrant disconnected mid-deal (their instance killed) resumes the deal on the
    other instance, at its seq; the standings written before the kill are all there."""
    async with connect(tour_cluster.url(1)) as a:
        await a.register(f"ka_{time.monotonic_ns() % 10**6}")
        starts = int(time.time() * 1000) + 1000
        made = (await a.call("tournament_create", game="carpet", starts_at=starts, minutes=120))[
            "tournament"
        ]
        tid, code = made["tournament_id"], made["code"]
        async with connect(tour_cluster.url(0)) as b:
            token = await b.register(f"kb_{time.monotonic_ns() % 10**6}")
            await b.call("tournament_join", code=code)
            await b.next_event("tournament", tournament_id=tid, status="running")
            await a.next_event("tournament", tournament_id=tid, status="running")
            first = (await a.call("tournament_play", tournament_id=tid))["state"]
            await a.call("resign", game_id=first["game_id"])
            mine = (await b.call("tournament_play", tournament_id=tid))["state"]
            mine = await b.move(mine, mine["legal"][0])
            await a.next_event("tournament", tournament_id=tid)  # a's deal over, seen
            before = (await a.call("tournament", code=code))["tournament"]["standings"]
            await asyncio.to_thread(tour_cluster.servers[0].kill)  # b's instance dies
        back = (await a.call("tournament", code=code))["tournament"]
        assert back["standings"] == before
        rows = {r["player"]: r for r in back["standings"]}
        assert rows[a.player]["played"] == 1 and rows[b.player]["playing"]
        async with connect(tour_cluster.url(1)) as b2:
            await b2.call("auth", token=token)
            again = await b2.call("tournament_join", code=code)
            assert again["state"]["game_id"] == mine["game_id"]
            assert again["state"]["seq"] == mine["seq"] and again["tournament"]["deal"] == 1
            state = await b2.move(again["state"], again["state"]["legal"][0])
            assert state["moves"] == mine["moves"] + 1
            resigned = (await b2.call("resign", game_id=state["game_id"]))["state"]
            assert resigned["status"] == "lost"
            shown = (await b2.call("tournament", code=code))["tournament"]
            assert shown["me"]["played"] == 1 and not shown["me"]["playing"]
    await asyncio.to_thread(tour_cluster.servers[0].start)
