"""The home screen's line of how your friends did today: the text
(:func:`client.records.friends_line`) and the line itself at 80×24 over a real server,
with every game and key still on screen."""

from __future__ import annotations

from client import config
from client.app import PasyansApp
from client.connection import Connection
from client.records import friend, friends_line
from client.screens.home import DailyScreen
from server.patience import registry

from .test_80x24 import SMALL, all_keys_shown, screen_text
from .test_app import until
from .test_friends import other_player

TITLES = {
    "crescent": {"title_ru": "Полумесяц", "title_en": "Crescent"},
    "parade": {"title_ru": "Парад", "title_en": "Parade"},
}


def played(status: str, founded: int = 50) -> dict[str, object]:
    return {"status": status, "foundation": founded, "total": 104}


def test_friends_line_fits_its_width() -> None:
    assert "you follow nobody yet" in friends_line({"friends": []}, TITLES)
    idle = {"friends": [{"player": "anna", "today": {}}, {"player": "gleb", "today": {}}]}
    assert friends_line(idle, TITLES) == (
        "friends today: none of the 2 you follow has played a daily yet"
    )
    result = {
        "friends": [
            {"player": "idle", "today": {}},
            {"player": "anna", "today": {"crescent": played("won", 104)}},
            {"player": "boris", "today": {"parade": played("playing")}},
        ]
    }
    line = friends_line(result, TITLES)
    assert line == "friends today: anna Crescent won 104/104 · boris Parade playing"
    many = {
        "friends": [
            {"player": f"player{i}", "today": {"crescent": played("lost", i)}} for i in range(9)
        ]
    }
    line = friends_line(many, TITLES, width=78)
    assert len(line) <= 78 and line.startswith("friends today: player0 Crescent lost 0/104")
    assert line.endswith(" more (f)")
    shown = line.count("Crescent")
    assert line.endswith(f"+{9 - shown} more (f)")


async def test_the_home_screen_shows_friends_at_80x24(
    server_url: str, account: config.Credentials
) -> None:
    bob = await other_player(server_url)  # resigned today's crescent
    async with Connection(server_url) as conn:
        await conn.auth(account.token)
        await friend(conn, bob, add=True)
    app = PasyansApp(server_url)
    async with app.run_test(size=SMALL) as pilot:
        await until(pilot, lambda: isinstance(app.screen, DailyScreen) and bool(app.screen.rows))
        await until(pilot, lambda: f"friends today: {bob} Crescent lost" in screen_text(pilot))
        shown = screen_text(pilot)
        for slug in registry.slugs():  # still every game
            assert str(app.titles[slug]["title_en"]) in shown, slug
        assert "Crescent — Полумесяц · commitment" in shown  # and the detail line
        await all_keys_shown(pilot)
