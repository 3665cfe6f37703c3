"""Presence in races, across two real server processes sharing one real Redis: a
member who disconnects is shown away on the other instance, back when they return
(to either instance); the creator ends a race or drops an absent member (issue 17,
item 7). The servers' away limit is short (conftest.PRESENCE), so each test takes
seconds; an absent member's game given up after the limit (so the race ends) is
tested by the injectable clock, in tests/server/services/test_race.py."""

from __future__ import annotations

import asyncio
import os
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.support import GUARD, TestClient, eventually

from .conftest import ABSENT, AWAY, Cluster
from .test_races import member, started_race

Row = dict[str, Any]


async def row_until(
    client: TestClient, who: str | None, cond: Callable[[Row], bool]
) -> tuple[Row, dict[str, Any]]:
    """The first ``race`` event ``client`` gets whose row of ``who`` meets ``cond``:
    (that row, the event); a failure after the hang guard."""
    deadline = time.monotonic() + GUARD
    while True:
        left = deadline - time.monotonic()
        assert left > 0, f"no race event with {who} as wanted within {GUARD:g} s"
        ev = await client.next_event("race", timeout=left)
        rows = {p["player"]: p for p in ev["players"]}
        if who in rows and cond(rows[who]):
            return rows[who], ev


async def test_an_absent_member_is_away_on_the_other_instance_and_back(
    presence_cluster: Cluster,
) -> None:
    cluster = presence_cluster
    async with member(cluster.url(0)) as a:
        async with member(cluster.url(1)) as b:
            token = b.token
            race, (_, sb) = await started_race(a, b)
            assert race["away_after_ms"] == AWAY * 1000
            assert race["absent_limit_ms"] == ABSENT * 1000
            sb = await b.move(sb, sb["legal"][0])
            row, ev = await row_until(a, b.player, lambda r: r["moves"] == 1)
            assert row["away"] is False and row["away_ms"] == 0 and row["out"] is None
        # b's connection to instance 1 drops; instance 0's member a sees b away, not at
        # once: after AWAY since b was last seen (the server's own account)
        row, ev = await row_until(a, b.player, lambda r: r["away"])
        assert row["away_ms"] > AWAY * 1000 and row["status"] == "playing"
        assert not {p["player"]: p for p in ev["players"]}[a.player]["away"]
        # b comes back, to the other instance, before the limit: here again
        async with member(cluster.url(0), token=token) as b2:
            back = await b2.call("race_join", code=race["code"])
            assert back["state"]["status"] == "playing"
            row, _ = await row_until(a, b2.player, lambda r: not r["away"])
            assert row["away_ms"] == 0 and row["moves"] == 1
        # away again, and back on instance 1: the game waited (given up only after the
        # limit: by the clock, in tests/server/services/test_race.py)
        await row_until(a, b.player, lambda r: r["away"])
        async with member(cluster.url(1), token=token) as b3:
            again = await b3.call("race_join", code=race["code"])
            assert again["race"]["status"] == "running"
            assert again["state"]["status"] == "playing" and again["state"]["seq"] == sb["seq"]
            row, _ = await row_until(a, b3.player, lambda r: not r["away"])
            assert row["out"] is None and row["moves"] == 1


async def test_the_creator_drops_an_absent_member_and_ends_the_race(
    presence_cluster: Cluster,
) -> None:
    cluster = presence_cluster
    async with (
        member(cluster.url(0)) as a,
        member(cluster.url(1)) as b,
        member(cluster.url(1)) as c,
    ):
        race = (await a.call("race_create", game="crescent", seed=8))["race"]
        rid = race["race_id"]
        await b.call("race_join", code=race["code"])
        await c.call("race_join", code=race["code"])
        async with member(cluster.url(1)) as d:
            await d.call("race_join", code=race["code"])
            # nobody but the creator; nobody who is here; not before it runs
            err = await b.error("race_drop", race_id=rid, player=d.player)
            assert err["code"] == "forbidden" and "creator" in err["message"]
            err = await a.error("race_drop", race_id=rid, player=d.player)
            assert err["code"] == "forbidden" and f"{d.player} is here" in err["message"]
            err = await b.error("race_end", race_id=rid)
            assert err["code"] == "forbidden" and "creator" in err["message"]
            err = await a.error("race_end", race_id=rid)
            assert err["code"] == "forbidden" and "under way" in err["message"]
        # d left without leaving: away in the lobby, and the creator drops d
        await row_until(a, d.player, lambda r: r["away"])
        dropped = (await a.call("race_drop", race_id=rid, player=str(d.player).upper()))["race"]
        assert d.player not in {p["player"] for p in dropped["players"]}
        err = await a.error("race_drop", race_id=rid, player=d.player)
        assert err["code"] == "not_found" and "not in this race" in err["message"]
        err = await a.error("race_drop", race_id=rid, player="no such name!")
        assert err["code"] == "bad_request"
        err = await a.error("race_drop", race_id=rid, player=a.player)
        assert err["code"] == "forbidden" and "yourself" in err["message"]

        await a.call("race_start", race_id=rid)
        states = {}
        for x in (a, b, c):
            states[x.player] = (await x.next_event("race_started"))["state"]
        await c.close()  # c goes, in the middle of the race
        await row_until(a, c.player, lambda r: r["away"])
        race = (await a.call("race_drop", race_id=rid, player=c.player))["race"]
        rows = {p["player"]: p for p in race["players"]}
        assert rows[c.player]["status"] == "lost" and rows[c.player]["out"] == "dropped"
        assert race["status"] == "running"
        await row_until(b, c.player, lambda r: r["out"] == "dropped")
        err = await a.error("race_drop", race_id=rid, player=c.player)
        assert err["code"] == "forbidden" and "over already" in err["message"]

        # the creator ends the race: b's game, still in play, is given up
        sb = await b.move(states[b.player], states[b.player]["legal"][0])
        ended = (await a.call("race_end", race_id=rid))["race"]
        assert ended["status"] == "finished"
        rows = {p["player"]: p for p in ended["players"]}
        assert rows[b.player]["status"] == "lost" and rows[b.player]["out"] == "ended"
        assert rows[b.player]["moves"] == 1
        assert rows[a.player]["status"] == "lost" and rows[a.player]["out"] == "ended"
        await b.next_event("race", status="finished")
        assert (await b.call("resume", game_id=sb["game_id"]))["state"]["status"] == "lost"
        err = await a.error("race_end", race_id=rid)
        assert err["code"] == "forbidden" and "over already" in err["message"]


async def test_the_board_shows_who_is_away_and_the_creator_drops_and_ends(
    presence_cluster: Cluster, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The Textual client of a race's creator, under Pilot: a member who went away is
    shown away with the time left, ``d`` drops them, ``e`` ends the race (each once
    asked)."""
    from textual.widgets import Static

    from client import config
    from client.app import PasyansApp
    from client.launch import Launch
    from client.screens.dialogs import ConfirmScreen
    from client.screens.race import RaceBoardScreen, RaceScreen, ResultScreen
    from protocol.messages import Mode

    cluster = presence_cluster
    monkeypatch.setenv(config.CONFIG_ENV, str(tmp_path))
    async with member(cluster.url(1)) as reg:
        me, token = reg.player, reg.token
    assert me and token
    config.save(cluster.url(1), config.Credentials(me, token))
    app = PasyansApp(cluster.url(1), launch=Launch(game="crescent", mode=Mode.PRACTICE, race="new"))
    async with app.run_test(size=(160, 45)) as pilot:

        def text(selector: str) -> str:
            return str(app.screen.query_one(selector, Static).render())

        async def until(cond: Callable[[], object]) -> None:
            await eventually(cond, what=lambda: f"never got there: {app.screen}", pause=pilot.pause)

        await until(lambda: isinstance(app.screen, RaceScreen) and app.screen.query("#lobby"))
        lobby = app.screen
        assert isinstance(lobby, RaceScreen)
        async with member(cluster.url(0)) as b:
            await b.call("race_join", code=lobby.race["code"])
            await until(lambda: str(b.player) in text("#lobby"))
            await pilot.press("s")
            await until(
                lambda: isinstance(app.screen, RaceBoardScreen) and app.screen.query("#race-panel")
            )
            board = app.screen
            assert isinstance(board, RaceBoardScreen)
            assert board.check_action("end", ()) and not board.check_action("drop", ())
            await b.next_event("race_started")
        # b is gone: the panel says so, with the time left before b's game is given up
        await until(lambda: "away" in text("#race-panel"))
        assert "given up in " in text("#race-panel")
        assert board.check_action("drop", ())
        await pilot.press("d")  # asked first (issue 36)
        await until(lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        await until(lambda: app.screen is board and "lost (dropped)" in text("#race-panel"))
        assert not board.check_action("drop", ())
        await pilot.press("e")
        await until(lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        await until(lambda: isinstance(app.screen, ResultScreen) and app.screen.query("#results"))
        table = text("#results")
        assert "lost (dropped)" in table and "lost (race ended)" in table
        await pilot.press("q")


async def test_script_mode_end_and_drop(presence_cluster: Cluster, tmp_path: Path) -> None:
    """``end`` and ``drop NAME`` in script mode: dropping someone who is here is
    refused with the server's words; ``end`` finishes the race for everybody."""
    from client import config

    from .test_races import finish, pasyans

    cluster = presence_cluster
    async with member(cluster.url(0)) as reg:
        alice, token = reg.player, reg.token
    assert alice and token
    os.environ[config.CONFIG_ENV] = str(tmp_path)
    try:
        config.save(cluster.url(0), config.Credentials(alice, token))
    finally:
        del os.environ[config.CONFIG_ENV]
    async with member(cluster.url(1)) as b:
        proc = pasyans(
            tmp_path, "race", "new", "crescent", "--deal", "4", "--server", cluster.url(0)
        )
        assert proc.stdin is not None
        # b joins by the code the script prints
        code = await asyncio.to_thread(_code_from, proc)
        await b.call("race_join", code=code)
        proc.stdin.write(f"drop {b.player}\nstart\nwait\nend\nwait finished\n")
        proc.stdin.close()
        try:
            out, err = await asyncio.wait_for(asyncio.to_thread(finish, proc), GUARD)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    assert f"{b.player} is here" in out, out
    assert "lost (race ended)" in out and "place  player" in out, out
    assert proc.returncode == 1, out + err  # the refused drop


def _code_from(proc: subprocess.Popen[str]) -> str:
    """The race's code, from the script's first line (``race CODE · …``)."""
    assert proc.stdout is not None
    line = proc.stdout.readline()
    assert line.startswith("race "), line
    return line.split()[1]
