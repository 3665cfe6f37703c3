"""Challenges and watching a race on the Textual client (issue 27), over a real
server: ``C`` on the end screen makes a challenge and shares its code, the home
screen says how many results on your challenges are new, and ``pasyans race watch``
shows the members' boards (Tab: one at a time) with the progress panel."""

from __future__ import annotations

from typing import Any

from client import config
from client.app import PasyansApp
from client.connection import Connection
from client.launch import Launch
from client.screens.home import DailyScreen
from client.screens.watch import WatchScreen
from protocol.messages import Mode, Push
from tests.support import eventually

from .conftest import fresh_name
from .test_80x24 import SMALL, all_keys_shown, screen_text
from .test_app import SIZE, resigned_end, until


async def test_c_on_the_end_screen_makes_a_challenge(
    server_url: str, account: config.Credentials
) -> None:
    app = PasyansApp(server_url, launch=Launch(game="crescent", mode=Mode.DEAL, seed=4))
    async with app.run_test(size=SIZE) as pilot:
        end = await resigned_end(pilot)
        await pilot.press("C")
        await until(pilot, lambda: bool(end.shared))
        code = end.challenge
        assert code and f"pasyans challenge play {code}" in end.shared
        assert end.shared.startswith("pasyans · Полумесяц (Crescent) · deal ")
        assert app.clipboard == end.shared
        assert f"challenge {code} made" in str(end.query_one("#shared").render())
        end.shared = ""
        await pilot.press("C")  # again: the same challenge, not a second one
        await until(pilot, lambda: bool(end.shared))  # shown again: the press is done
        assert end.challenge == code
    async with Connection(server_url) as conn:
        await conn.auth(account.token)
        mine = await conn.challenges()
        assert [c["code"] for c in mine["challenges"]] == [code]


async def test_c_on_todays_daily_makes_a_challenge_that_opens_when_the_day_closes(
    server_url: str, account: config.Credentials
) -> None:
    """Issue 36, point 7: ``C`` on the end screen of today's daily is offered and
    works: the challenge is made at once and says it opens when the day is over."""
    app = PasyansApp(server_url, launch=Launch(game="short", mode=Mode.DAILY))
    async with app.run_test(size=SIZE) as pilot:
        end = await resigned_end(pilot)
        assert "C: challenge friends" in str(end.query_one("#end").render())
        await pilot.press("C")
        await until(pilot, lambda: bool(end.shared))
        shown = str(end.query_one("#shared").render())
        assert f"challenge {end.challenge} made" in shown
        assert "opens to them at" in shown and "when the day of its daily is over" in shown
        assert "forbidden" not in shown


async def test_the_home_screen_says_how_many_results_are_new(
    server_url: str, account: config.Credentials
) -> None:
    async with Connection(server_url) as conn:
        await conn.auth(account.token)
        made = await conn.challenge_create(game="crescent")
    for _ in range(2):
        async with Connection(server_url) as friend:
            await friend.register(fresh_name())
            state = (await friend.challenge_accept(str(made["code"])))["state"]
            await friend.resign(str(state["game_id"]))
    app = PasyansApp(server_url)
    async with app.run_test(size=SMALL) as pilot:
        await until(pilot, lambda: isinstance(app.screen, DailyScreen) and bool(app.screen.rows))
        await until(pilot, lambda: "2 new results on your challenges" in screen_text(pilot))
        await all_keys_shown(pilot)


async def test_watching_a_race_shows_progress_live_and_the_boards_at_its_end(
    server_url: str, account: config.Credentials
) -> None:
    async with Connection(server_url) as a, Connection(server_url) as b:
        names = [fresh_name(), fresh_name()]
        await a.register(names[0])
        await b.register(names[1])
        race = await a.race_create("crescent")
        await b.race_join(str(race["code"]))
        dealt: list[dict[str, Any]] = []

        def heard(push: Push) -> None:
            if push.name == "race_started":
                dealt.append(dict(push.fields["state"]))

        a.on_event = heard
        await a.race_start(str(race["race_id"]))
        await eventually(lambda: dealt, what="the race dealt")
        app = PasyansApp(server_url, launch=Launch(watch=str(race["code"])))
        async with app.run_test(size=(200, 50)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, WatchScreen))
            screen = app.screen
            assert isinstance(screen, WatchScreen)
            await until(
                pilot, lambda: names[0] in screen_text(pilot) and "1 watching" in screen_text(pilot)
            )
            assert "cards shown once every member's game is over" in screen_text(pilot)
            state = dealt[0]
            await a.move(str(state["game_id"]), int(state["seq"]), state["legal"][0])
            await until(pilot, lambda: screen.watched.counters(names[0])["moves"] == 1)
            await until(pilot, lambda: "moves 1" in screen_text(pilot))
            await pilot.press("tab")
            assert screen.one in names
            await until(pilot, lambda: f"{screen.one}'s board" in screen_text(pilot))
            await pilot.press("b")
            assert screen.one == ""
            await until(pilot, lambda: "all boards" in screen_text(pilot))
            # the race over, every board is shown whole
            for conn in (a, b):
                mine = await conn.my_games(limit=1)
                await conn.resign(str(mine["games"][0]["game_id"]))
            await until(pilot, lambda: all(s.get("view") for s in screen.watched.boards.values()))
            await until(pilot, lambda: "cards shown once" not in screen_text(pilot))
