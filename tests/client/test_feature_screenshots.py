"""docs/client.md's screenshots (SVG) of the players' features — statistics, history,
a replay, a shared result, friends (their screen and the home screen's line), safe
moves and auto-complete — taken from the real client on a real server. Skipped
unless asked for::

    PASYANS_SCREENSHOTS=docs/screenshots .venv/bin/pytest tests/client/test_feature_screenshots.py
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from client import config
from client.app import PasyansApp
from client.connection import Connection
from client.launch import Launch
from client.records import ReplayOf, friend
from client.screens.board import BoardScreen, EndScreen
from client.screens.friends import FriendsScreen
from client.screens.history import HistoryScreen
from client.screens.home import DailyScreen
from client.screens.replay import ReplayScreen
from client.screens.stats import StatsScreen
from protocol.messages import Mode

from .conftest import fresh_name
from .test_app import SIZE, on_board, until
from .test_auto import BEFORE, nearly_won, parade_at

OUT = os.environ.get("PASYANS_SCREENSHOTS")
pytestmark = pytest.mark.skipif(not OUT, reason="set PASYANS_SCREENSHOTS=DIR to take them")


async def friends_play(url: str, me: Connection) -> None:
    """Three players play today's dailies (a few moves, then resign); ``me`` follows them."""
    suffix = fresh_name()[-4:]
    for n, (name, slug) in enumerate(
        (("anna", "crescent"), ("boris", "parade"), ("vera", "fifteen"))
    ):
        async with Connection(url) as conn:
            player = (await conn.register(f"{name}_{suffix}"))["player"]
            state = await conn.start(slug, Mode.DAILY)
            for _ in range(n + 2):
                if state["legal"]:
                    state = await conn.play(state, state["legal"][0])
            if n < 2:
                await conn.resign(state["game_id"])
        await friend(me, player, add=True)


async def test_feature_screenshots(server_url: str, config_dir: Path) -> None:
    out = str(Path(str(OUT)))
    Path(out).mkdir(parents=True, exist_ok=True)
    async with Connection(server_url) as me:
        creds = await me.register(f"masha_{fresh_name()[-4:]}")
        config.save(server_url, config.Credentials(creds["player"], creds["token"]))
        await friends_play(server_url, me)
        for seed in (3, 5, 8):  # a few practice games, for the history and the statistics
            state = await me.start("crescent", Mode.DEAL, seed)
            for _ in range(seed):
                state = await me.play(state, state["legal"][0])
            await me.resign(state["game_id"])
        replayed = str(state["game_id"])
    token = creds["token"]

    app = PasyansApp(server_url)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, DailyScreen) and bool(app.screen.friends))
        await pilot.pause(0.3)
        app.save_screenshot("home.svg", path=out)
        await pilot.press("f")
        await until(
            pilot, lambda: isinstance(app.screen, FriendsScreen) and bool(app.screen.result)
        )
        await pilot.pause(0.3)
        app.save_screenshot("friends.svg", path=out)
        await pilot.press("q", "s")
        await until(pilot, lambda: isinstance(app.screen, StatsScreen) and bool(app.screen.result))
        await pilot.pause(0.3)
        app.save_screenshot("stats.svg", path=out)
        await pilot.press("q", "h")
        await until(
            pilot, lambda: isinstance(app.screen, HistoryScreen) and bool(app.screen.result)
        )
        await pilot.pause(0.3)
        app.save_screenshot("history.svg", path=out)

    app = PasyansApp(server_url, launch=Launch(replay=ReplayOf(game_id=replayed)))
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, ReplayScreen) and bool(app.screen.replay))
        await pilot.press("home", "right", "right", "right")
        await pilot.pause(0.3)
        app.save_screenshot("replay.svg", path=out)

    gid = await parade_at(server_url, token, BEFORE)
    app = PasyansApp(server_url, launch=Launch(game_id=gid, resume=True))
    async with app.run_test(size=SIZE) as pilot:
        board = await on_board(pilot)
        await pilot.press("s")
        await until(pilot, lambda: "safe moves" in str(board.query_one("#status").render()))
        await pilot.pause(0.3)
        app.save_screenshot("safe.svg", path=out)

    gid, _ = await nearly_won(server_url, token)
    app = PasyansApp(server_url, launch=Launch(game_id=gid, resume=True))
    async with app.run_test(size=SIZE) as pilot:
        board = await on_board(pilot)
        await until(pilot, lambda: board.finish_offer is not None)
        await pilot.pause(0.3)
        app.save_screenshot("finish.svg", path=out)
        await pilot.press("f")
        await until(pilot, lambda: isinstance(app.screen, EndScreen))
        end = app.screen
        assert isinstance(end, EndScreen)
        await pilot.press("c")
        await until(pilot, lambda: bool(end.shared))
        await pilot.pause(0.3)
        app.save_screenshot("share.svg", path=out)
    assert isinstance(board, BoardScreen)
