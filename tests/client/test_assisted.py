"""An assisted game says so in words wherever its result shows (issue 36, point 5):
the board's title and end screen, history, replays and the shared result — over a
real server. Today's daily gets no hint at all while the day lasts (its line would
be everyone's), so it is a deal game the solver helps here; the daily lists and
friends show the same words from the same field of a game's summary."""

from __future__ import annotations

import asyncio

import pytest

from client import config
from client.app import PasyansApp
from client.cli import EXIT_OK, main
from client.connection import Connection
from client.launch import Launch
from client.screens.board import BoardScreen, EndScreen
from protocol.messages import Mode

from .test_app import on_board, until

#: a game whose hint the solver finds at once, and one of its deals
QUICK, SEED = "travellers_classic", 1


async def assisted_game(url: str, token: str) -> str:
    """A QUICK deal game of the player of ``token``, hinted then resigned: its id."""
    async with Connection(url) as conn:
        await conn.auth(token)
        state = await conn.start(QUICK, Mode.DEAL, SEED)
        await conn.hint(str(state["game_id"]))
        await conn.resign(str(state["game_id"]))
        return str(state["game_id"])


def test_every_command_says_assisted(
    server_env: str, account: config.Credentials, capsys: pytest.CaptureFixture[str]
) -> None:
    gid = asyncio.run(assisted_game(server_env, account.token))
    capsys.readouterr()
    assert main(["history"]) == EXIT_OK
    assert "assisted" in next(ln for ln in capsys.readouterr().out.splitlines() if gid in ln)
    assert main(["share", gid]) == EXIT_OK
    assert "assisted (the solver helped: not ranked)" in capsys.readouterr().out.splitlines()[1]
    assert main(["replay", gid, "--text"]) == EXIT_OK
    assert "assisted" in capsys.readouterr().out.splitlines()[0]


async def test_the_board_the_end_screen_and_home_say_assisted(
    server_url: str, account: config.Credentials
) -> None:
    app = PasyansApp(server_url, launch=Launch(game=QUICK, mode=Mode.DEAL, seed=SEED))
    async with app.run_test(size=(80, 24)) as pilot:
        board = await on_board(pilot)
        title = board.query_one("#title")
        assert "assisted" not in str(title.render())
        await pilot.press("h")  # an unranked game: no question
        await until(pilot, lambda: "assisted" in str(title.render()))
        await pilot.press("r", "y")
        await until(pilot, lambda: isinstance(app.screen, EndScreen))
        assert "assisted: the solver helped" in str(app.screen.query_one("#end").render())


async def test_h_on_todays_daily_says_why_there_is_no_hint(
    server_url: str, account: config.Credentials
) -> None:
    app = PasyansApp(server_url, launch=Launch(game=QUICK, mode=Mode.DAILY))
    async with app.run_test(size=(80, 24)) as pilot:
        board = await on_board(pilot)
        assert board.state["hints"] is False
        await pilot.press("h")
        status = board.query_one("#status")
        await until(pilot, lambda: "no hints on today's daily" in str(status.render()))
        assert isinstance(app.screen, BoardScreen) and board.state["ranked"] is True
