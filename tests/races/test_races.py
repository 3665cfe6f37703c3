"""Races across two real server processes sharing one real Redis: progress seen
across instances, reconnects to the other instance, a restart of one process, the
countdown, the errors, and the client's script mode against both servers."""

from __future__ import annotations

import asyncio
import contextlib
import os
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import AsyncIterator
from pathlib import Path
from typing import IO, Any

import pytest

from server.services.race import STALLED_MS
from tests.support import GUARD, TestClient, connect, eventually

from .conftest import COUNTDOWN, Cluster

ROOT = Path(__file__).resolve().parents[2]


def name(stem: str) -> str:
    return f"{stem}_{uuid.uuid4().hex[:6]}"


@contextlib.asynccontextmanager
async def member(
    url: str, who: str | None = None, token: str | None = None
) -> AsyncIterator[TestClient]:
    """A client on ``url``: registered as ``who``, or logged in with ``token``."""
    async with connect(url) as c:
        if token is not None:
            c.player = (await c.call("auth", token=token))["player"]
            c.token = token
        else:
            await c.register(who or name("p"))
        yield c


async def started_race(
    a: TestClient, *others: TestClient, seed: int = 11
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """``a`` makes a race, ``others`` join, ``a`` starts it: (race, each one's state)."""
    race = (await a.call("race_create", game="crescent", seed=seed))["race"]
    for o in others:
        await o.call("race_join", code=race["code"])
    await a.call("race_start", race_id=race["race_id"])
    states = [(await c.next_event("race_started"))["state"] for c in (a, *others)]
    return race, states


async def test_members_on_two_instances_see_each_other(cluster: Cluster) -> None:
    async with member(cluster.url(0)) as a, member(cluster.url(1)) as b:
        race = (await a.call("race_create", game="crescent", seed=5))["race"]
        assert race["status"] == "lobby" and len(race["code"]) == 6
        joined = (await b.call("race_join", code=race["code"]))["race"]
        assert "state" not in joined
        lobby = await a.next_event("race", status="lobby")
        while len(lobby["players"]) < 2:
            lobby = await a.next_event("race", status="lobby")
        assert {p["player"] for p in lobby["players"]} == {a.player, b.player}
        assert all(p["status"] == "ready" for p in lobby["players"])

        before = time.time() * 1000
        reply = (await a.call("race_start", race_id=race["race_id"]))["race"]
        after = time.time() * 1000
        # the countdown: both members, on both instances, get the same start time: the
        # server's moment of the start (this machine's clock, read between before and
        # after, however long that took) plus the countdown
        ca = await a.next_event("race", status="countdown")
        cb = await b.next_event("race", status="countdown")
        assert ca["starts_at"] == cb["starts_at"] == reply["starts_at"]
        assert before - 1 <= reply["starts_at"] - COUNTDOWN * 1000 <= after
        sa = (await a.next_event("race_started"))["state"]
        got_a = time.time() * 1000
        sb = (await b.next_event("race_started"))["state"]
        got_b = time.time() * 1000
        # nobody is dealt before the start time (how soon after is the machine's business)
        assert got_a >= reply["starts_at"] - 50 and got_b >= reply["starts_at"] - 50
        assert sa["view"] == sb["view"] and sa["game_id"] != sb["game_id"]
        assert sa["mode"] == "race" and sa["deal"]["seed"] is None

        # a's move on instance 0 reaches b on instance 1, and back
        sa = await a.move(sa, sa["legal"][0])
        row = await b.progress_of(a.player, 1)
        assert row["status"] == "playing" and row["foundation"] == sa["foundation"]
        assert row["total"] == sa["total"]
        sb = await b.move(sb, sb["legal"][0])
        sb = await b.move(sb, sb["legal"][0])
        assert (await a.progress_of(b.player, 2))["foundation"] == sb["foundation"]

        # the end: both resign; the result stays, with moves and times
        await a.call("resign", game_id=sa["game_id"])
        await b.call("resign", game_id=sb["game_id"])
        done = await b.next_event("race", status="finished")
        rows = {p["player"]: p for p in done["players"]}
        assert rows[a.player]["moves"] == 1 and rows[b.player]["moves"] == 2
        assert all(p["status"] == "lost" and p["time_ms"] >= 0 for p in rows.values())
        again = await a.call("race_join", code=race["code"])
        assert again["race"]["status"] == "finished" and again["state"]["status"] == "lost"

        # a rematch: a new race, same members, fresh deal; offered to b on the other
        # instance; b asking too gets the same one
        async with member(cluster.url(0)) as stranger:
            err = await stranger.error("race_rematch", race_id=race["race_id"])
            assert err["code"] == "forbidden" and "not in this race" in err["message"]
        b.events.clear()
        new = (await a.call("race_rematch", race_id=race["race_id"]))["race"]
        assert new["race_id"] != race["race_id"] and new["code"] != race["code"]
        assert new["status"] == "lobby" and new["creator"] == a.player
        assert {p["player"] for p in new["players"]} == {a.player, b.player}
        offered = await b.next_event("race", race_id=new["race_id"])
        assert offered["status"] == "lobby"
        old = await b.next_event("race", race_id=race["race_id"])
        assert old["rematch"] == {"race_id": new["race_id"], "code": new["code"]}
        assert (await b.call("race_rematch", race_id=race["race_id"]))["race"]["race_id"] == (
            new["race_id"]
        )
        err = await b.error("race_rematch", race_id=new["race_id"])
        assert err["code"] == "forbidden" and "over" in err["message"]
        await a.call("race_start", race_id=new["race_id"])
        s1 = (await a.next_event("race_started", race_id=new["race_id"]))["state"]
        assert s1["game_id"] not in (sa["game_id"], sb["game_id"])


async def test_a_players_connections_on_two_instances_hear_of_each_others_changes(
    cluster: Cluster,
) -> None:
    """Issue 37's two tabs, each behind the balancer on another instance: a change of
    one's game is the ``game`` event to the other (the player's channel carries it once
    each instance knows the other holds a connection of that player)."""
    async with connect(cluster.url(0)) as here, connect(cluster.url(1)) as there:
        token = await here.register(f"two{uuid.uuid4().hex[:6]}")
        await there.call("auth", token=token)
        state = await here.start("crescent", "deal", seed=5)

        async def heard() -> dict[str, Any] | None:
            nonlocal state
            state = await here.move(state, state["legal"][0])  # a move, until one is heard
            try:
                return await there.next_event("game", timeout=0.5, seq=state["seq"])
            except AssertionError:  # the instances had not met yet: that move was not
                return None  # published (nothing to resend: the next one is)

        ev = await eventually(heard, what="a move heard on the other instance")
        assert ev["game_id"] == state["game_id"] and ev["status"] == "playing"
        # ... and the other way
        back = (await there.call("resume", game_id=state["game_id"]))["state"]
        moved = (await there.call("undo", game_id=back["game_id"], seq=back["seq"]))["state"]
        ev = await here.next_event("game", seq=moved["seq"])
        assert ev["game_id"] == state["game_id"]


async def test_a_reconnect_to_the_other_instance_resumes_game_and_race(cluster: Cluster) -> None:
    async with member(cluster.url(1)) as b:
        async with member(cluster.url(0)) as a:
            token = a.token
            race, (sa, sb) = await started_race(a, b)
            sa = await a.move(sa, sa["legal"][0])
            sa = await a.move(sa, sa["legal"][0])
            await b.progress_of(a.player, 2)
        # a drops from instance 0 and comes back on instance 1
        async with member(cluster.url(1), token=token) as a2:
            back = await a2.call("race_join", code=race["code"])
            assert back["race"]["status"] == "running"
            assert {p["player"]: p["moves"] for p in back["race"]["players"]}[a2.player] == 2
            state = back["state"]
            assert state["game_id"] == sa["game_id"] and state["seq"] == sa["seq"]
            assert state["view"] == sa["view"]
            state = await a2.move(state, state["legal"][0])
            assert (await b.progress_of(a2.player, 3))["moves"] == 3
            sb = await b.move(sb, sb["legal"][0])
            assert (await a2.progress_of(b.player, 1))["moves"] == 1


async def test_a_race_survives_a_restart_of_one_server(cluster: Cluster) -> None:
    async with member(cluster.url(0)) as a:
        async with member(cluster.url(1)) as b:
            token = b.token
            race, (sa, sb) = await started_race(a, b, seed=99)
            sb = await b.move(sb, sb["legal"][0])
            await a.progress_of(b.player, 1)
            old = cluster.servers[1]
            await asyncio.to_thread(old.terminate)
            bye = await b.next_event("bye")
            assert bye["reason"]
        # the race goes on on instance 0 while instance 1 is down
        sa = await a.move(sa, sa["legal"][0])
        await a.progress_of(a.player, 1)
        await asyncio.to_thread(cluster.servers[1].start)
        async with member(cluster.url(1), token=token) as b2:
            back = await b2.call("race_join", code=race["code"])
            rows = {p["player"]: p["moves"] for p in back["race"]["players"]}
            assert rows == {a.player: 1, b2.player: 1}
            assert back["state"]["game_id"] == sb["game_id"] and back["state"]["seq"] == sb["seq"]
            # events cross again from the restarted process
            state = await b2.move(back["state"], back["state"]["legal"][0])
            assert (await a.progress_of(b2.player, 2))["moves"] == 2
            sa = await a.move(sa, sa["legal"][0])
            assert (await b2.progress_of(a.player, 2))["moves"] == 2
            assert state["moves"] == 2


async def test_a_countdown_outlives_the_instance_that_ran_it(cluster: Cluster) -> None:
    async with member(cluster.url(1)) as b:
        async with member(cluster.url(0)) as a:
            token = a.token
            race = (await a.call("race_create", game="crescent", seed=21))["race"]
            await b.call("race_join", code=race["code"])
            started = (await a.call("race_start", race_id=race["race_id"]))["race"]
            # instance 0 counts down; it dies before the deal
            await asyncio.to_thread(cluster.servers[0].kill)
        try:
            # a member coming back on instance 1 gets the race dealt there, once it is
            # overdue (STALLED_MS past its start); until then it is still counting down,
            # and nobody deals it
            async def dealt() -> dict[str, Any] | None:
                back: dict[str, Any] = await b.call("race_join", code=race["code"])
                if back["race"]["status"] == "countdown":
                    assert not [e for e in b.events if e["ev"] == "race_started"]
                    return None
                return back

            back = await eventually(dealt, every=0.1, what="the race dealt on a return")
            assert time.time() * 1000 >= started["starts_at"] + STALLED_MS
            assert back["race"]["status"] == "running" and back["state"]["mode"] == "race"
            async with member(cluster.url(1), token=token) as a2:
                mine = await a2.call("race_join", code=race["code"])
                assert mine["state"]["view"] == back["state"]["view"]
                assert mine["state"]["game_id"] != back["state"]["game_id"]
                await a2.move(mine["state"], mine["state"]["legal"][0])
                assert (await b.progress_of(a2.player, 1))["moves"] == 1
        finally:
            await asyncio.to_thread(cluster.servers[0].start)


async def test_clear_errors(cluster: Cluster) -> None:
    async with member(cluster.url(0)) as a, member(cluster.url(1)) as b:
        err = await b.error("race_join", code="ZZZZZZ")
        assert err["code"] == "not_found" and "ZZZZZZ" in err["message"]
        err = await b.error("race_join", code="!!")
        assert err["code"] == "bad_request" and "race code" in err["message"]
        err = await a.error("race_start", race_id="nosuchrace")
        assert err["code"] == "not_found" and "race" in err["message"]

        race = (await a.call("race_create", game="crescent"))["race"]
        # ten members fill a race (from both instances); the eleventh is refused
        async with contextlib.AsyncExitStack() as stack:
            others = [
                await stack.enter_async_context(member(cluster.url(i % 2))) for i in range(10)
            ]
            for o in others[:9]:
                await o.call("race_join", code=race["code"])
            err = await others[9].error("race_join", code=race["code"])
            assert err["code"] == "forbidden" and "10" in err["message"]
            assert "full" in err["message"]
            # only the creator starts it
            err = await others[0].error("race_start", race_id=race["race_id"])
            assert err["code"] == "forbidden" and "creator" in err["message"]
            await a.call("race_start", race_id=race["race_id"])
            # no joining once it runs, whichever instance is asked
            err = await b.error("race_join", code=race["code"])
            assert err["code"] == "forbidden" and "already started" in err["message"]
            err = await a.error("race_start", race_id=race["race_id"])
            assert err["code"] == "forbidden" and "already started" in err["message"]


# -- the client: `pasyans race … --script` against both servers -----------------------


def pasyans(config: Path, *args: str) -> subprocess.Popen[str]:
    from client.config import CONFIG_ENV as config_env

    env = {**os.environ, "PYTHONPATH": str(ROOT), config_env: str(config)}
    env.pop("PASYANS_SERVER", None)
    proc = subprocess.Popen(
        [sys.executable, "-m", "client", *args],
        cwd=ROOT,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    return proc


def finish(proc: subprocess.Popen[str]) -> tuple[str, str]:
    assert proc.stdout is not None and proc.stderr is not None
    with proc.stdout, proc.stderr:
        out = proc.stdout.read()
        proc.wait(GUARD)
        return out, proc.stderr.read()


class Output:
    """A process's stdout, read line by line as it is written (in a thread): a test
    waits for a line instead of sleeping until it is probably there."""

    def __init__(self, proc: subprocess.Popen[str]) -> None:
        assert proc.stdout is not None
        self.lines: list[str] = []
        self.reader = threading.Thread(target=self._read, args=(proc.stdout,), daemon=True)
        self.reader.start()

    def _read(self, stream: IO[str]) -> None:
        for line in stream:
            self.lines.append(line.rstrip("\n"))

    def text(self) -> str:
        """Every line so far (all of them once :attr:`reader` ended)."""
        return "".join(f"{line}\n" for line in self.lines)


def progress_rows(player: str | None, lines: list[str]) -> list[list[str]]:
    """The words after the name and status of each progress line of ``player``."""
    return [line.split()[2:5] for line in lines if line.split()[:1] == [player]]


async def test_script_mode_lobby_and_live_progress(cluster: Cluster, tmp_path: Path) -> None:
    from client import config

    async with member(cluster.url(0)) as a:
        race = (await a.call("race_create", game="crescent", seed=7))["race"]
        async with member(cluster.url(1)) as reg:
            bob, token = reg.player, reg.token
        assert bob and token
        os.environ[config.CONFIG_ENV] = str(tmp_path)
        try:
            config.save(cluster.url(1), config.Credentials(bob, token))
        finally:
            del os.environ[config.CONFIG_ENV]
        # bob joins from instance 1 with the real client, in script mode
        proc = pasyans(
            tmp_path, "race", "join", race["code"].lower(), "--server", cluster.url(1), "--script"
        )
        assert proc.stdin is not None and proc.stderr is not None
        proc.stdin.write("deal\nwait\nrace\nwait finished\n")
        proc.stdin.close()
        output = Output(proc)
        try:
            lobby = await a.next_event("race", status="lobby")
            while len(lobby["players"]) < 2:
                lobby = await a.next_event("race", status="lobby")
            await a.call("race_start", race_id=race["race_id"])
            sa = (await a.next_event("race_started"))["state"]
            sa = await a.move(sa, sa["legal"][0])
            # bob's client reports alice's move before the end
            await eventually(
                lambda: ["8/104", "1", "move"] in progress_rows(a.player, output.lines),
                what="alice's move in bob's script",
            )
            await a.call("resign", game_id=sa["game_id"])
            # bob resigns through the server too (his client waits for the end)
            async with member(cluster.url(0), token=token) as bob2:
                back = await bob2.call("race_join", code=race["code"])
                await bob2.call("resign", game_id=back["state"]["game_id"])
            await asyncio.wait_for(asyncio.to_thread(proc.wait), GUARD)
            err = await asyncio.wait_for(asyncio.to_thread(proc.stderr.read), GUARD)
            await asyncio.to_thread(output.reader.join, GUARD)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
            for stream in (proc.stdout, proc.stderr):
                if stream is not None:
                    stream.close()
    assert "no terminal" not in err
    out = output.text()
    lines = out.splitlines()
    assert lines[0].startswith(f"race {race['code']} · ") and "lobby" in lines[0]
    assert any(line.strip() == f"{bob} (you)" for line in lines)
    assert f"share the code {race['code']}" in out
    # a move before the deal is refused with a readable message, the script goes on
    assert "error: the race has not started yet" in out
    assert "countdown" in out and "go! your game on the race's deal:" in out
    assert ["8/104", "1", "move"] in progress_rows(a.player, lines), out
    assert "finished" in out and "place  player" in out
    assert proc.returncode == 1  # the refused 'deal' line


# -- the client: the Textual lobby and the live progress panel, under Pilot -----------


async def test_board_lobby_panel_and_results(
    cluster: Cluster, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from textual.widgets import Static

    from client import config
    from client.app import PasyansApp
    from client.launch import Launch
    from client.screens.race import RaceBoardScreen, RaceScreen, ResultScreen

    monkeypatch.setenv(config.CONFIG_ENV, str(tmp_path))
    async with member(cluster.url(0)) as a:
        race = (await a.call("race_create", game="crescent", seed=3))["race"]
        async with member(cluster.url(1)) as reg:
            bob, token = reg.player, reg.token
        assert bob and token
        config.save(cluster.url(1), config.Credentials(bob, token))
        app = PasyansApp(cluster.url(1), launch=Launch(race=race["code"]))
        async with app.run_test(size=(160, 45)) as pilot:

            def text(selector: str) -> str:
                return str(app.screen.query_one(selector, Static).render())

            def stuck() -> str:
                return f"never got there: {app.screen}"

            async def until(cond: Any) -> None:
                await eventually(cond, what=stuck, pause=pilot.pause)

            await until(lambda: isinstance(app.screen, RaceScreen) and app.screen.query("#lobby"))
            lobby = text("#lobby")
            assert f"{bob} (you)" in lobby and str(a.player) in lobby and "2 players" in lobby
            assert "creator" in lobby
            await pilot.press("s")  # not bob's (not offered): bob stays, when press returns
            assert isinstance(app.screen, RaceScreen)
            await a.call("race_start", race_id=race["race_id"])
            await until(
                lambda: isinstance(app.screen, RaceBoardScreen) and app.screen.query("#race-panel")
            )
            sa = (await a.next_event("race_started"))["state"]
            sa = await a.move(sa, sa["legal"][0])
            await until(lambda: "1 move " in text("#race-panel"))
            panel = text("#race-panel")
            assert f"{bob} *" in panel and str(a.player) in panel and "8/104" in panel
            await a.call("resign", game_id=sa["game_id"])
            await until(lambda: "lost" in text("#race-panel"))
            screen = app.screen
            assert isinstance(screen, RaceBoardScreen)
            await app.conn.resign(str(screen.state["game_id"]))
            await until(
                lambda: isinstance(app.screen, ResultScreen) and app.screen.query("#results")
            )
            table = text("#results")
            assert "place" in table and bob in table and a.player in table
            # r: the rematch, back in a lobby with a new code
            await pilot.press("r")
            await until(lambda: isinstance(app.screen, RaceScreen) and app.screen.query("#lobby"))
            screen2 = app.screen
            assert isinstance(screen2, RaceScreen)
            assert screen2.race["race_id"] != race["race_id"] and screen2.creator
            await until(lambda: screen2.race["code"] in text("#lobby"))
            assert "Press s to start" in text("#lobby")
            await pilot.press("q")


async def test_script_mode_creator_start_and_rematch(cluster: Cluster, tmp_path: Path) -> None:
    from client import config

    async with member(cluster.url(0)) as reg:
        alice, token = reg.player, reg.token
    assert alice and token
    os.environ[config.CONFIG_ENV] = str(tmp_path)
    try:
        config.save(cluster.url(0), config.Credentials(alice, token))
    finally:
        del os.environ[config.CONFIG_ENV]
    proc = pasyans(tmp_path, "race", "new", "crescent", "--deal", "4", "--server", cluster.url(0))
    assert proc.stdin is not None
    proc.stdin.write("start\nwait\nresign\nwait finished\nrematch\n")
    proc.stdin.close()
    try:
        out, err = await asyncio.wait_for(asyncio.to_thread(finish, proc), GUARD)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert "no terminal: script mode" in err  # no TTY: script mode by itself
    assert proc.returncode == 0, out + err
    lobbies = [line for line in out.splitlines() if line.startswith("race ") and "lobby" in line]
    assert len(lobbies) == 2 and lobbies[0] != lobbies[1]  # the race, then its rematch
    assert "countdown" in out and "go! your game" in out and "place  player" in out
    assert any(line.split()[:3] == ["-", alice, "lost"] for line in out.splitlines()), out
