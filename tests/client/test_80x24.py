"""Every screen shows all its information in an 80×24 terminal (issue 17, item 10):
the home screen's results and every key of its footer, the board's counters (redeals
left…) and foundation titles that still say which way they build, the end screen,
a leaderboard, the race's lobby, board and result, the dialogs; and your own result
is not cut at 120 columns. Under Pilot, against the real server; each check reads
the screen as the terminal would show it."""

from __future__ import annotations

import pytest
from textual.pilot import Pilot
from textual.widgets import Static
from textual.widgets._footer import FooterKey

from client import config
from client.app import PasyansApp
from client.connection import Connection
from client.launch import Launch
from client.screens.board import EndScreen
from client.screens.dialogs import RulesScreen
from client.screens.friends import FriendsScreen
from client.screens.history import HistoryScreen
from client.screens.home import DailyScreen
from client.screens.leaderboard import LeaderboardScreen
from client.screens.race import RaceBoardScreen, RaceScreen, ResultScreen
from client.screens.race_dialogs import JoinRaceScreen, RaceDealScreen
from client.screens.replay import ReplayScreen
from client.screens.stats import StatsScreen
from client.text import STREAK_MEANING, result_text
from client.widgets import columns_that_fit
from protocol.messages import Mode
from server.patience import registry
from tests.support import TestClient, connect

from .conftest import fresh_name
from .test_app import on_board, until
from .test_narrow import off_screen

SMALL = (80, 24)


def screen_text(pilot: Pilot[int]) -> str:
    """What the terminal shows, line by line (the current screen, composited), each
    line without the spaces at its ends."""
    strips = pilot.app.screen._compositor.render_strips()
    return "\n".join(strip.text.strip() for strip in strips)


def flowing(text: str) -> str:
    """``text`` with its lines run together: a wrapped line reads as one."""
    return " ".join(text.split())


def footer_keys(pilot: Pilot[int]) -> list[str]:
    """``key Description`` of every key the footer offers now."""
    return [f"{k.key_display} {k.description}" for k in pilot.app.screen.query(FooterKey)]


async def all_keys_shown(pilot: Pilot[int], *, footer: bool = True) -> None:
    """Every key of the footer is on screen, whole (a dialog without a footer says
    its keys in its text: ``footer=False``)."""
    for _ in range(100):  # the footer follows the screen a frame or two later
        keys = footer_keys(pilot)
        shown = screen_text(pilot)
        lost = [k for k in keys if k not in shown]
        if (keys or not footer) and not lost:
            return
        await pilot.pause(0.02)
    assert keys, "no footer keys"
    assert not lost, f"footer keys off screen: {lost}\n{shown}"


def at_home(pilot: Pilot[int]) -> bool:
    """Whether the home screen shows its games."""
    return isinstance(pilot.app.screen, DailyScreen) and bool(pilot.app.screen.rows)


def test_the_footer_wraps_its_keys_into_columns() -> None:
    assert columns_that_fit([10, 10, 10], 40) == 3
    assert columns_that_fit([10, 10, 10], 25) == 2  # 10 + 1 + 10
    assert columns_that_fit([30, 5, 5, 30], 40) == 1  # two columns are 30 + 30 wide
    assert columns_that_fit([], 80) == 1


async def test_home_at_80x24(server_url: str, account: config.Credentials) -> None:
    app = PasyansApp(server_url)
    async with app.run_test(size=SMALL) as pilot:
        await until(pilot, lambda: isinstance(app.screen, DailyScreen) and bool(app.screen.rows))
        await pilot.pause(0.2)
        home = app.screen
        assert isinstance(home, DailyScreen)
        shown = screen_text(pilot)
        # every game, its par and your result column; the chosen one in full below
        for slug in registry.slugs():
            assert str(app.titles[slug]["title_ru"]) in shown, slug
        assert "par" in shown and "yours" in shown and shown.count("not played") >= 16
        commitment = str(home.daily["games"]["crescent"]["commitment"])[:12]
        assert f"Crescent · commitment {commitment} · yours: not played" in shown
        assert f"streak 0\nstreak: {STREAK_MEANING}" in shown
        await all_keys_shown(pilot)
        assert "] Day after" in shown and "q Quit" in shown and "[ Day before" in shown
        # the detail line follows the cursor
        await pilot.press("down")
        await until(pilot, lambda: "Picture Gallery · commitment" in screen_text(pilot))


async def test_your_result_whole_at_80_and_at_120_columns(
    server_url: str, account: config.Credentials
) -> None:
    """A daily played with an undo (of a move that showed no card: the Fifteen's lie
    face up, and a ranked game takes back no other): its result is long; it is whole on the detail
    line at 80 columns and in the table (or the detail line) at 120."""
    async with Connection(server_url) as conn:
        await conn.auth(account.token)
        state = await conn.start("fifteen", Mode.DAILY)
        state = await conn.move(state["game_id"], state["seq"], state["legal"][0])
        state = await conn.undo(state["game_id"], state["seq"])
        await conn.resign(state["game_id"])
    for size in (SMALL, (120, 40)):
        app = PasyansApp(server_url)
        async with app.run_test(size=size) as pilot:
            await until(pilot, lambda: at_home(pilot))
            await pilot.pause(0.2)
            for _ in range(registry.slugs().index("fifteen")):  # its row: the detail line
                await pilot.press("down")
            home = app.screen
            assert isinstance(home, DailyScreen)
            mine = home.daily["games"]["fifteen"]["mine"]
            whole = result_text(mine)
            assert "undo used" in whole
            shown = screen_text(pilot)
            assert whole in flowing(shown), (size, whole, shown)
            await all_keys_shown(pilot)


@pytest.mark.parametrize("slug", registry.slugs())
async def test_every_board_at_80x24(
    server_url: str, account: config.Credentials, slug: str
) -> None:
    """Deal 0 of every game: every pile's id and cards, the counters (redeals left…)
    whole, every key; compact foundations still say which way they build."""
    app = PasyansApp(server_url, launch=Launch(game=slug, mode=Mode.DEAL, seed=0))
    async with app.run_test(size=SMALL) as pilot:
        board = await on_board(pilot)
        await pilot.pause(0.2)
        shown = screen_text(pilot)
        view = board.query_one("#board")
        scroll = board.query_one("#scroll")
        assert off_screen(view, scroll.scrollable_content_region) == [], (slug, shown)  # type: ignore[arg-type]
        counters = str(board.query_one("#counters", Static).render())
        assert flowing(counters) in flowing(shown), (counters, shown)
        await all_keys_shown(pilot)
        if slug in ("travellers", "cotillion", "little_packs", "travellers_aces"):
            for pile in board.piles:
                label = str(pile.get("label") or "")
                if pile.get("kind") == "foundation" and "→" in label:
                    end = label.partition("→")[2]
                    pid = str(pile["id"])
                    assert (
                        f"{pid} →{end}" in shown
                        or f"{pid}→{end}" in shown
                        or (f"{pid} {label}" in shown)
                    ), (pid, shown)
        if "redeals" in counters:
            assert "redeals left" in flowing(shown)


async def test_end_screen_and_rules_at_80x24(server_url: str, account: config.Credentials) -> None:
    app = PasyansApp(server_url, launch=Launch(game="travellers", mode=Mode.DEAL, seed=0))
    async with app.run_test(size=SMALL) as pilot:
        await on_board(pilot)
        await pilot.press("question_mark")
        await until(pilot, lambda: isinstance(app.screen, RulesScreen))
        await pilot.pause(0.2)
        await all_keys_shown(pilot, footer=False)
        await pilot.press("escape")
        await on_board(pilot)
        await pilot.press("r", "y")
        await until(pilot, lambda: isinstance(app.screen, EndScreen))
        await pilot.pause(0.2)
        shown = screen_text(pilot)
        assert "You resigned" in shown or "resigned" in shown, shown
        assert "cards on the foundations" in shown and "moves in" in shown
        text = flowing(shown.replace("█", " "))
        for words in ("Enter: look at the board", "l: leaderboard", "q: leave"):
            assert words in text, shown
        await all_keys_shown(pilot, footer=False)


async def test_leaderboard_at_80x24(server_url: str, account: config.Credentials) -> None:
    name = fresh_name()
    async with connect(server_url) as c:
        await c.register(name)
        state = await c.start("crescent", "daily")
        await c.call("resign", game_id=state["game_id"])
    app = PasyansApp(server_url)
    async with app.run_test(size=SMALL) as pilot:
        await until(pilot, lambda: isinstance(app.screen, DailyScreen) and bool(app.screen.rows))
        await pilot.press("l")
        await until(
            pilot,
            lambda: isinstance(app.screen, LeaderboardScreen) and bool(app.screen.result),
        )
        await pilot.pause(0.2)
        shown = screen_text(pilot)
        assert name in shown and "rank  player" in shown
        for column in ("won", "foundation", "moves", "time", "clean"):
            assert column in shown
        await all_keys_shown(pilot)


async def test_race_screens_at_80x24(server_url: str, account: config.Credentials) -> None:
    """The join and deal dialogs, the lobby, the race board with its panel, and the
    result table."""
    app = PasyansApp(server_url)
    async with app.run_test(size=SMALL) as pilot:
        await until(pilot, lambda: isinstance(app.screen, DailyScreen) and bool(app.screen.rows))
        await pilot.press("j")
        await until(pilot, lambda: isinstance(app.screen, JoinRaceScreen))
        await pilot.pause(0.1)
        assert "Join a race — the code your friend's lobby shows" in screen_text(pilot)
        await all_keys_shown(pilot, footer=False)
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, DailyScreen))
        await pilot.press("n")
        await until(pilot, lambda: isinstance(app.screen, RaceDealScreen))
        await pilot.pause(0.1)
        shown = screen_text(pilot)
        assert "fresh deal" in shown and "daily deal" in shown
        assert "Enter or a click chooses · Esc cancels" in shown
        await pilot.press("enter")
        await until(
            pilot, lambda: isinstance(app.screen, RaceScreen) and bool(app.screen.query("#lobby"))
        )
        lobby = app.screen
        assert isinstance(lobby, RaceScreen)
        friend: TestClient
        async with connect(server_url) as friend:
            await friend.register(fresh_name())
            await friend.call("race_join", code=lobby.race["code"])
            await until(pilot, lambda: str(friend.player) in screen_text(pilot))
            shown = screen_text(pilot)
            assert str(lobby.race["code"]) in shown and "Press s to start" in shown
            assert f"{account.player} (you)" in shown
            await all_keys_shown(pilot)
            await pilot.press("s")
            await until(pilot, lambda: isinstance(app.screen, RaceBoardScreen))
            started = (await friend.next_event("race_started"))["state"]
            await friend.move(started, started["legal"][0])
            await until(pilot, lambda: "1 move" in screen_text(pilot))
            await pilot.pause(0.2)
            shown = screen_text(pilot)
            assert f"{account.player} *" in shown and str(friend.player) in shown
            assert "8/104" in shown
            await all_keys_shown(pilot)
            await friend.call("resign", game_id=started["game_id"])
            await pilot.press("r", "y")
            await until(pilot, lambda: isinstance(app.screen, ResultScreen))
            await pilot.pause(0.2)
            shown = screen_text(pilot)
            assert "place" in shown and str(friend.player) in shown and "lost" in shown
            await all_keys_shown(pilot, footer=False)


async def test_history_stats_friends_and_replay_at_80x24(
    server_url: str, account: config.Credentials
) -> None:
    """The player's own screens (issue 18) keep every key and their table's first
    columns in 80×24: history (h), a replay opened from it (Enter), statistics (s),
    friends (f)."""
    async with Connection(server_url) as conn:
        await conn.auth(account.token)
        state = await conn.start("travellers", Mode.DEAL, 3)
        await conn.resign(state["game_id"])
    app = PasyansApp(server_url)
    async with app.run_test(size=SMALL) as pilot:
        await until(pilot, lambda: at_home(pilot))
        await pilot.press("h")
        await until(pilot, lambda: isinstance(app.screen, HistoryScreen) and bool(app.screen.games))
        await pilot.pause(0.2)
        assert "Путешественники" in screen_text(pilot) or "travellers" in screen_text(pilot)
        await all_keys_shown(pilot)
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, ReplayScreen))
        await pilot.pause(0.3)
        await all_keys_shown(pilot)
        await pilot.press("escape", "escape")
        await until(pilot, lambda: at_home(pilot))
        await pilot.press("s")
        await until(pilot, lambda: isinstance(app.screen, StatsScreen))
        await pilot.pause(0.3)
        assert "played" in screen_text(pilot)
        await all_keys_shown(pilot)
        await pilot.press("escape")
        await until(pilot, lambda: at_home(pilot))
        await pilot.press("f")
        await until(pilot, lambda: isinstance(app.screen, FriendsScreen))
        await pilot.pause(0.2)
        await all_keys_shown(pilot)
