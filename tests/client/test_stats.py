"""Statistics in the client: ``pasyans stats`` and the stats screen (s on the home
screen), over a real server; the chart drawn from the days' results."""

from __future__ import annotations

import asyncio

import pytest

from client import config
from client.app import PasyansApp
from client.cli import EXIT_OK, EXIT_USAGE, main
from client.records import LOST_CELL, WON_CELL, chart_rows, chart_text
from client.screens.home import DailyScreen
from client.screens.stats import StatsScreen

from .test_app import SIZE, until
from .test_history import three_games


def test_chart_scales_to_the_busiest_day() -> None:
    days = [
        {"date": "2026-03-01", "won": 0, "lost": 0},
        {"date": "2026-03-02", "won": 2, "lost": 2},
        {"date": "2026-03-03", "won": 1, "lost": 0},
    ]
    rows = chart_rows(days, height=4)
    columns = ["".join(row[i] for row in rows) for i in range(3)]
    assert columns == ["    ", LOST_CELL * 2 + WON_CELL * 2, "   " + WON_CELL]
    text = chart_text(days, height=4)
    assert "2026-03-01" in text and "2026-03-03" in text and "3 won" in text and "2 lost" in text


def test_stats_command(
    server_env: str, account: config.Credentials, capsys: pytest.CaptureFixture[str]
) -> None:
    asyncio.run(three_games(server_env, account.token))  # two resigned, one in play
    assert main(["stats"]) == EXIT_OK
    out = capsys.readouterr().out
    assert f"Statistics of {account.player}" in out
    assert "all games" in out and "Crescent" in out and "0 won" in out
    assert "2 lost" in out and "streak:" in out
    assert main(["stats", "crescent"]) == EXIT_OK
    assert "Crescent" in capsys.readouterr().out
    assert main(["stats", "nope"]) == EXIT_USAGE
    capsys.readouterr()
    assert main(["stats", "--player", account.player]) == EXIT_OK
    assert f"Statistics of {account.player}" in capsys.readouterr().out


async def test_stats_screen_from_home(server_url: str, account: config.Credentials) -> None:
    await three_games(server_url, account.token)
    app = PasyansApp(server_url)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, DailyScreen))
        await pilot.press("s")
        await until(pilot, lambda: isinstance(app.screen, StatsScreen) and bool(app.screen.result))
        screen = app.screen
        assert isinstance(screen, StatsScreen)
        assert screen.result["overall"]["played"] == 2
        chart = str(screen.query_one("#chart").render())
        assert LOST_CELL in chart and "2 lost" in chart
        await pilot.press("q")
        await until(pilot, lambda: isinstance(app.screen, DailyScreen))
