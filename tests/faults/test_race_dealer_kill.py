"""A race across two instances outlives the instance that dealt it: the race is made
and started on instance A (A ran the countdown and dealt every member's game), its
members play on A and on B, A is SIGKILLed mid-race; A's members come back through B,
find their games where they left them, and the race runs to its end there, with every
member's result.

(``tests/races`` covers the gentler cases: a countdown whose instance dies before the
deal, a SIGTERMed member's instance, a deal left halfway.)"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest

from tests.races.conftest import Cluster, running
from tests.races.test_races import member, started_race


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    yield from running()


def rows(race: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {p["player"]: p for p in race["players"]}


async def test_a_race_outlives_the_instance_that_dealt_it(cluster: Cluster) -> None:
    async with member(cluster.url(1)) as b:
        async with member(cluster.url(0)) as a, member(cluster.url(0)) as c:
            tokens = {"a": a.token, "c": c.token}
            race, (sa, sc, sb) = await started_race(a, c, b, seed=31)  # A deals
            sa = await a.move(sa, sa["legal"][0])
            sa = await a.move(sa, sa["legal"][0])
            sc = await c.move(sc, sc["legal"][0])
            await b.progress_of(a.player, 2)
            await b.progress_of(c.player, 1)
            await asyncio.to_thread(cluster.servers[0].kill)  # SIGKILL, mid-race
        sb = await b.move(sb, sb["legal"][0])  # B plays on alone meanwhile
        # A's members reconnect through B and take their games back by race_join
        async with (
            member(cluster.url(1), token=tokens["a"]) as a2,
            member(cluster.url(1), token=tokens["c"]) as c2,
        ):
            back_a = await a2.call("race_join", code=race["code"])
            back_c = await c2.call("race_join", code=race["code"])
            assert back_a["race"]["status"] == "running"
            assert {p: r["moves"] for p, r in rows(back_a["race"]).items()} == {
                a2.player: 2,
                c2.player: 1,
                b.player: 1,
            }
            for back, before in ((back_a, sa), (back_c, sc)):
                state = back["state"]
                assert (state["game_id"], state["seq"]) == (before["game_id"], before["seq"])
                assert state["view"] == before["view"]
            sa = await a2.move(back_a["state"], back_a["state"]["legal"][0])
            assert (await b.progress_of(a2.player, 3))["moves"] == 3
            # everyone finishes: the race ends, on B, with each member's result
            for who, state in ((a2, sa), (c2, back_c["state"]), (b, sb)):
                over = (await who.call("resign", game_id=state["game_id"]))["state"]
                assert over["status"] == "lost"
            done = await b.next_event("race", status="finished")
            results = rows(done)
            assert {p: r["moves"] for p, r in results.items()} == {
                a2.player: 3,
                c2.player: 1,
                b.player: 1,
            }
            assert all(r["status"] == "lost" for r in results.values()), results
            final = await c2.call("race_join", code=race["code"])
            assert final["race"]["status"] == "finished"
            assert final["state"]["status"] == "lost"
