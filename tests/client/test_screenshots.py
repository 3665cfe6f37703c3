"""README screenshots (SVG) of the board, the daily screen and a leaderboard,
taken from the real client on a real server. Skipped unless asked for::

    PASYANS_SCREENSHOTS=docs/img .venv/bin/pytest tests/client/test_screenshots.py
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from client import config
from client.app import PasyansApp
from client.connection import Connection
from client.launch import Launch
from client.screens.home import DailyScreen
from client.screens.leaderboard import LeaderboardScreen
from protocol.messages import Mode
from server.patience import registry

from .conftest import fresh_name
from .test_app import SIZE, on_board, until

OUT = os.environ.get("PASYANS_SCREENSHOTS")
pytestmark = pytest.mark.skipif(not OUT, reason="set PASYANS_SCREENSHOTS=DIR to take them")


NAMES = ("anna", "boris", "vera", "gleb", "dasha", "egor")


async def play_dailies(url: str) -> None:
    """A few players finish today's Crescent, so the leaderboard has rows."""
    suffix = fresh_name()[-4:]
    for n, name in enumerate(NAMES):
        async with Connection(url) as conn:
            await conn.register(f"{name}_{suffix}")
            state = await conn.start("crescent", Mode.DAILY)
            for _ in range(n % 4):
                if not state["legal"]:
                    break
                state = await conn.move(state["game_id"], state["seq"], state["legal"][0])
            await conn.resign(state["game_id"])


async def test_screenshots(server_url: str, config_dir: Path) -> None:
    out = Path(str(OUT))
    out.mkdir(parents=True, exist_ok=True)
    await play_dailies(server_url)
    async with Connection(server_url) as conn:
        me = await conn.register(f"masha_{fresh_name()[-4:]}")
        config.save(server_url, config.Credentials(me["player"], me["token"]))
        state = await conn.start("crescent", Mode.DAILY)
        state = await conn.move(state["game_id"], state["seq"], state["legal"][0])
    game = "st_helena" if "st_helena" in registry.slugs() else "crescent"
    app = PasyansApp(server_url, launch=Launch(game=game, mode=Mode.DEAL, seed=2026))
    async with app.run_test(size=SIZE) as pilot:
        board = await on_board(pilot)
        for _ in range(6):  # a few moves in
            await board.play(board.legal[0])
        for _ in range(20):  # on to a position with a card to move
            sources = [m["from"] for m in board.legal if "from" in m]
            if sources or not board.legal:
                break
            await board.play(board.legal[0])
        if sources:
            await board.choose(sources[-1])
        await pilot.pause(0.2)
        app.save_screenshot("board.svg", path=str(out))
    app = PasyansApp(server_url)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, DailyScreen) and bool(app.screen.daily))
        await pilot.pause(0.2)
        app.save_screenshot("daily.svg", path=str(out))
        await pilot.press("l")
        await until(
            pilot, lambda: isinstance(app.screen, LeaderboardScreen) and bool(app.screen.result)
        )
        await pilot.pause(0.2)
        app.save_screenshot("leaderboard.svg", path=str(out))
