"""Issue 40 in the terminal client, with two players on a real server: the friends
screen says who is online and invites to a race; the invite comes to the other's
inbox, whose unread count the home screen shows, and Enter there joins the race; the
calendar screen shows a month, its past days playable after their day."""

from __future__ import annotations

from textual.widgets import DataTable

from client import config
from client.app import PasyansApp
from client.challenges import challenge_text
from client.connection import Connection
from client.screens.calendar import CalendarScreen
from client.screens.dialogs import TextScreen
from client.screens.friends import FriendsScreen
from client.screens.home import DailyScreen
from client.screens.inbox import InboxScreen
from client.screens.race import RaceScreen
from protocol.messages import Mode, Op

from .conftest import fresh_name
from .test_80x24 import SMALL, all_keys_shown, flowing, screen_text
from .test_app import SIZE, until


async def test_invite_from_friends_accept_from_the_inbox(
    server_url: str, account: config.Credentials
) -> None:
    async with Connection(server_url) as bob:
        name = str((await bob.register(fresh_name()))["player"])
        await bob.call(Op.FRIEND_ADD, name=account.player)
        app = PasyansApp(server_url)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: isinstance(app.screen, DailyScreen))
            home = app.screen
            assert isinstance(home, DailyScreen)
            # bob invites me to his race: the home screen counts it, the inbox joins it
            race = await bob.race_create("crescent")
            await bob.invite(account.player, race=str(race["code"]))
            await until(pilot, lambda: "inbox: 1 unread item (i)" in home.unread)
            await pilot.press("i")
            await until(
                pilot, lambda: isinstance(app.screen, InboxScreen) and bool(app.screen.items)
            )
            table = app.screen.query_one("#inbox", DataTable)
            assert "invites you to a race" in str(table.get_row_at(0)[1])
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, RaceScreen))
            assert isinstance(app.screen, RaceScreen) and app.screen.race["code"] == race["code"]
            assert (await bob.inbox())["items"] == []
            assert (await app.conn.inbox())["unread"] == 0
            await app.conn.race_leave(str(race["race_id"]))
            app.leave_race()  # back to the inbox, then home
            await until(pilot, lambda: isinstance(app.screen, InboxScreen))
            await pilot.press("q")
            await until(pilot, lambda: isinstance(app.screen, DailyScreen))
            # the friends screen: bob online; i races him on the chosen game
            await app.conn.call(Op.FRIEND_ADD, name=name)
            await pilot.press("f")
            await until(
                pilot, lambda: isinstance(app.screen, FriendsScreen) and bool(app.screen.rows)
            )
            assert isinstance(app.screen, FriendsScreen) and app.screen.rows[0]["online"] is True
            await pilot.press("i")
            await until(pilot, lambda: isinstance(app.screen, RaceScreen))
            invite = (await bob.inbox())["items"][0]
            assert invite["sender"] == account.player and invite["kind"] == "invite"
            assert isinstance(app.screen, RaceScreen)
            assert invite["race"]["code"] == app.screen.race["code"]


async def test_the_calendar_plays_a_past_day(server_url: str, account: config.Credentials) -> None:
    app = PasyansApp(server_url)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, DailyScreen))
        await pilot.press("c")
        await until(pilot, lambda: isinstance(app.screen, CalendarScreen) and bool(app.screen.days))
        screen = app.screen
        assert isinstance(screen, CalendarScreen)
        assert screen.days[-1]["status"] == "not_played"
        past = [d for d in screen.days if d["playable"]]
        assert past  # the deployment began the day before yesterday
        await pilot.press("down", "enter")  # the day before today
        await until(pilot, lambda: getattr(app.screen, "state", None) is not None)
        state = app.screen.state  # type: ignore[attr-defined]
        assert state["mode"] == Mode.DAILY and state["ranked"] is False
        assert state["date"] == screen.days[-2]["date"] and state["deal"]["seed"] is not None


async def test_a_challenges_results_from_the_inbox_at_80x24(
    server_url: str, account: config.Credentials, language: str
) -> None:
    """Issue 47: a friend finished my challenge; Enter on the news in the inbox opens
    the challenge's results, whole at 80×24 in both languages (every line of it on
    screen, a long one wrapped, none cut)."""
    async with Connection(server_url) as me:
        await me.auth(account.token)
        mine = await me.start("crescent", Mode.PRACTICE)
        await me.resign(mine["game_id"])
        made = await me.challenge_create(str(mine["game_id"]))
    async with Connection(server_url) as bob:
        await bob.register(fresh_name())
        theirs = (await bob.challenge_accept(str(made["code"])))["state"]
        await bob.play(theirs, theirs["legal"][0])
        await bob.resign(theirs["game_id"])
    app = PasyansApp(server_url)
    async with app.run_test(size=SMALL) as pilot:
        await until(pilot, lambda: isinstance(app.screen, DailyScreen))
        await pilot.press("i")
        await until(pilot, lambda: isinstance(app.screen, InboxScreen) and bool(app.screen.items))
        assert isinstance(app.screen, InboxScreen)
        assert app.screen.items[0]["kind"] == "challenge_result"
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, TextScreen))
        shown = await app.conn.challenge(str(made["code"]))
        lines = [line for line in challenge_text(shown, app.titles).splitlines() if line]

        def inside() -> str:  # the dialog's text, its border's cells left out
            return flowing(screen_text(pilot).replace("█", " "))

        await until(pilot, lambda: all(flowing(line) in inside() for line in lines))
        await all_keys_shown(pilot, footer=False)
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, InboxScreen))
