"""Every screen shows all its information in an 80×24 terminal (issue 17, item 10):
the home screen's results and every key of its footer, the board's counters (redeals
left…) and foundation titles that still say which way they build, the end screen,
a leaderboard, the race's lobby, board and result, the dialogs; and your own result
is not cut at 120 columns. Under Pilot, against the real server; each check reads
the screen as the terminal would show it."""

from __future__ import annotations

from rich.cells import cell_len
from textual.pilot import Pilot
from textual.widgets import Static
from textual.widgets._footer import FooterKey

from client import config
from client.app import PasyansApp
from client.connection import Connection
from client.drawing import CUT_MARK, Drawing
from client.launch import Launch
from client.records import history_row, replay_heading, stats_row, today_lines
from client.screens.board import BoardScreen, EndScreen, fit_heading
from client.screens.dialogs import RulesScreen
from client.screens.friends import FriendsScreen
from client.screens.history import HistoryScreen
from client.screens.home import DailyScreen
from client.screens.leaderboard import LeaderboardScreen
from client.screens.race import RaceBoardScreen, RaceScreen, ResultScreen
from client.screens.race_dialogs import JoinRaceScreen, RaceDealScreen
from client.screens.replay import ReplayScreen
from client.screens.stats import LEGEND, SCREEN_HEADER, StatsScreen, screen_row
from client.text import STREAK_MEANING, mode_and_deal, preparing, result_text
from client.widgets import BoardView, columns_that_fit
from protocol.messages import Mode, Op
from server.patience import registry
from tests.support import TestClient, connect

from .conftest import fresh_name
from .test_app import deal_0_instead, on_board, until
from .test_narrow import off_screen
from .views import titles as views_titles

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

    def lost() -> list[str] | None:
        """The footer's keys not on screen (None: no footer yet)."""
        keys = footer_keys(pilot)
        if footer and not keys:
            return None
        shown = screen_text(pilot)
        return [k for k in keys if k not in shown]

    try:  # the footer follows the screen a frame or two later
        await until(pilot, lambda: lost() == [])
    except AssertionError:
        raise AssertionError(f"footer keys off screen: {lost()}\n{screen_text(pilot)}") from None


async def on_screen(pilot: Pilot[int], *texts: str, wrapped: bool = False) -> str:
    """What the terminal shows, once each of ``texts`` is on it (``wrapped``: maybe
    wrapped over lines): a screen is composed a frame or more after it is pushed, and
    a reply fills it in later still."""

    def shown() -> str:
        text = screen_text(pilot)
        return flowing(text) if wrapped else text

    try:
        await until(pilot, lambda: all(text in shown() for text in texts))
    except AssertionError:
        missing = [text for text in texts if text not in shown()]
        raise AssertionError(f"not on screen: {missing}\n{screen_text(pilot)}") from None
    return screen_text(pilot)


def at_home(pilot: Pilot[int]) -> bool:
    """Whether the home screen shows its games, every daily decided (the test server
    chooses today's and the past days' in the background)."""
    screen = pilot.app.screen
    return isinstance(screen, DailyScreen) and bool(screen.rows) and not preparing(screen.daily)


def test_the_footer_wraps_its_keys_into_columns() -> None:
    assert columns_that_fit([10, 10, 10], 40) == 3
    assert columns_that_fit([10, 10, 10], 25) == 2  # 10 + 1 + 10
    assert columns_that_fit([30, 5, 5, 30], 40) == 1  # two columns are 30 + 30 wide
    assert columns_that_fit([], 80) == 1


async def test_home_at_80x24(server_url: str, account: config.Credentials) -> None:
    app = PasyansApp(server_url)
    async with app.run_test(size=SMALL) as pilot:
        await until(pilot, lambda: at_home(pilot))
        home = app.screen
        assert isinstance(home, DailyScreen)
        shown = await on_screen(
            pilot, "Crescent — Полумесяц · commitment", f"streak 0\nstreak: {STREAK_MEANING}"
        )
        # every game in English, its par and your result column; the chosen one in
        # full below, its Russian title too
        for slug in registry.slugs():
            assert str(app.titles[slug]["title_en"]) in shown, slug
        assert "par" in shown and "yours" in shown and shown.count("not played") >= 16
        commitment = str(home.daily["games"]["crescent"]["commitment"])[:12]
        assert f"Crescent — Полумесяц · commitment {commitment} · yours: not played" in shown
        assert f"streak 0\nstreak: {STREAK_MEANING}" in shown
        await all_keys_shown(pilot)
        shown = screen_text(pilot)  # with its footer now
        assert "[ ] Other day" in shown and "q Quit" in shown  # `[` and `]`: one entry
        # the detail line follows the cursor
        await pilot.press("down")
        await until(
            pilot,  # its two titles where they fit, else its English one
            lambda: any(
                x in screen_text(pilot) for x in ("Picture Gallery · comm", "Picture Gallery — ")
            ),
        )


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
            await on_screen(pilot, "Crescent — Полумесяц · commitment")  # the first row's detail
            for _ in range(registry.slugs().index("fifteen")):  # its row: the detail line
                await pilot.press("down")
            home = app.screen
            assert isinstance(home, DailyScreen)
            mine = home.daily["games"]["fifteen"]["mine"]
            whole = result_text(mine)
            assert "undo used" in whole
            await on_screen(pilot, whole, wrapped=True)
            await all_keys_shown(pilot)


def cut_headers(drawing: Drawing) -> list[str]:
    """The pile headers of a drawing that end in ``…`` (cut short): a header is
    either whole or designed shorter (the id, perhaps a direction), never cut."""
    cut = []
    for pid, box in drawing.boxes.items():
        line = "".join(ch for ch, _ in drawing.cells[box.y][box.x :])
        head = line.split("  ")[0].strip()
        if CUT_MARK in head:
            cut.append(f"{pid}: {head!r}")
    return cut


async def test_every_board_at_80x24(
    server_url: str, account: config.Credentials, language: str
) -> None:
    """Deal 0 of every game, in both languages (one app each, each game's board in
    place of the last one's): every pile's id and cards, the counters (redeals left…)
    whole, every key; compact foundations still say which way they build; no pile header
    cut short with ``…`` (issue 47: ``FA-S…``, ``X…``): a header too long for its
    room is the pile's id (and direction), and its whole title is on the hint line
    when the cursor is on it."""
    app = PasyansApp(server_url)
    async with app.run_test(size=SMALL) as pilot:
        await until(pilot, lambda: isinstance(app.screen, DailyScreen))
        for slug in registry.slugs():
            board = await deal_0_instead(pilot, slug)
            await one_board_at_80x24(pilot, board, slug, language)


async def one_board_at_80x24(
    pilot: Pilot[int], board: BoardScreen, slug: str, language: str
) -> None:
    """The checks of :func:`test_every_board_at_80x24` on one board."""
    counters = str(board.query_one("#counters", Static).render())
    await until(pilot, lambda: flowing(counters) in flowing(screen_text(pilot)))
    await pilot.pause()  # laid out: every message the screen had is handled
    shown = screen_text(pilot)
    view = board.query_one("#board")
    scroll = board.query_one("#scroll")
    lost = off_screen(view, scroll.scrollable_content_region)  # type: ignore[arg-type]
    assert lost == [], (slug, language, lost, shown)
    try:
        await all_keys_shown(pilot)
    except AssertionError as exc:
        raise AssertionError(f"{slug} ({language}): {exc}") from None
    drawing = board.query_one(BoardView).drawing
    assert cut_headers(drawing) == [], (slug, language, drawing.plain())
    for pid, whole in drawing.cut.items():  # a shortened title, whole on the hint line
        board.cursor = pid
        board.redraw()

        def said(w: str = whole) -> bool:
            return w in str(board.query_one("#hint").render())

        await until(pilot, said)
    if language == "ru":
        return
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
                ), (slug, pid, shown)
    if "redeals" in counters:
        assert "redeals left" in flowing(shown), (slug, shown)


async def test_end_screen_and_rules_at_80x24(server_url: str, account: config.Credentials) -> None:
    app = PasyansApp(server_url, launch=Launch(game="travellers", mode=Mode.DEAL, seed=0))
    async with app.run_test(size=SMALL) as pilot:
        await on_board(pilot)
        await pilot.press("question_mark")
        await until(pilot, lambda: isinstance(app.screen, RulesScreen))
        await on_screen(pilot, "Esc closes")
        await all_keys_shown(pilot, footer=False)
        rules = flowing(screen_text(pilot).replace("█", " ").replace("▊", " "))
        assert "Travellers — Путешественники — Esc closes" in rules, rules
        assert "Thirteen piles dealt while counting" in rules, rules
        await pilot.press("escape")
        await on_board(pilot)
        await pilot.press("r", "y")
        await until(pilot, lambda: isinstance(app.screen, EndScreen))
        shown = await on_screen(pilot, "resigned", "moves in")
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
        shown = await on_screen(pilot, name, "rank  player")
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
        await on_screen(pilot, "Join a race — the code your friend's lobby shows")
        await all_keys_shown(pilot, footer=False)
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, DailyScreen))
        await pilot.press("n")
        await until(pilot, lambda: isinstance(app.screen, RaceDealScreen))
        shown = await on_screen(pilot, "fresh deal", "daily deal")
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
            code = str(lobby.race["code"])
            shown = await on_screen(pilot, str(friend.player), code, "Press s to start")
            assert f"{account.player} (you)" in shown
            await all_keys_shown(pilot)
            await pilot.press("s")
            await until(pilot, lambda: isinstance(app.screen, RaceBoardScreen))
            started = (await friend.next_event("race_started"))["state"]
            await friend.move(started, started["legal"][0])
            shown = await on_screen(pilot, "1 move", f"{account.player} *", "8/104")
            assert str(friend.player) in shown
            await all_keys_shown(pilot)
            await friend.call("resign", game_id=started["game_id"])
            await pilot.press("r", "y")
            await until(pilot, lambda: isinstance(app.screen, ResultScreen))
            shown = await on_screen(pilot, "place", "lost")
            assert str(friend.player) in shown
            await all_keys_shown(pilot, footer=False)


async def test_history_stats_friends_and_replay_at_80x24(
    server_url: str, account: config.Credentials
) -> None:
    """The player's own screens (issues 18, 23) keep every key and all they promise in
    80×24: history (h: when, game, mode, result, cards, moves, time and the id of
    every game, a page scrolling with a ``↓ more`` mark), a replay opened from it
    (Enter: its heading and counters), statistics (s: every column of every row,
    with the legend of the short ones), friends (f: each friend's every daily)."""
    async with Connection(server_url) as conn:
        await conn.auth(account.token)
        for seed in range(3, 13):  # more games than the screen's rows
            state = await conn.start("travellers_aces", Mode.DEAL, seed)
            state = await conn.play(state, state["legal"][0])
            await conn.resign(state["game_id"])
        friend = fresh_name()
        async with Connection(server_url) as other:
            await other.register(friend)
            for slug in ("crescent", "st_helena", "travellers_aces"):
                daily = await other.start(slug, Mode.DAILY)
                await other.resign(daily["game_id"])
        await conn.call(Op.FRIEND_ADD, name=friend)
        page = await conn.my_games(limit=20)
    app = PasyansApp(server_url)
    async with app.run_test(size=SMALL) as pilot:
        await until(pilot, lambda: at_home(pilot))
        await pilot.press("h")
        await until(pilot, lambda: isinstance(app.screen, HistoryScreen) and bool(app.screen.games))
        newest = history_row(page["games"][0], app.titles)
        when, game, mode, result, cards, moves, time, gid = (str(c) for c in newest)
        shown = await on_screen(pilot, gid, "↓ more")
        for cell in (when, game, mode, result, cards, moves, time, gid):
            assert cell in shown, (cell, shown)
        assert "↓ more" in shown.split("\n")[0]
        await all_keys_shown(pilot)
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, ReplayScreen))
        replay = app.screen
        assert isinstance(replay, ReplayScreen)
        await until(pilot, lambda: bool(replay.position))
        shown = await on_screen(pilot, f"move {replay.count}/{replay.count}")
        assert flowing(replay_heading(replay.replay, app.titles)) in flowing(shown), shown
        await all_keys_shown(pilot)
        await pilot.press("escape", "escape")
        await until(pilot, lambda: at_home(pilot))
        await pilot.press("s")
        await until(pilot, lambda: isinstance(app.screen, StatsScreen) and bool(app.screen.result))
        stats_screen = app.screen
        assert isinstance(stats_screen, StatsScreen)
        shown = await on_screen(pilot, LEGEND)
        assert " ".join(SCREEN_HEADER) in " ".join(shown.split()), shown
        overall = screen_row(stats_row("all games", stats_screen.result["overall"]))
        assert " ".join(overall) in " ".join(shown.split()), (overall, shown)
        assert LEGEND in shown
        await pilot.press("down")  # a title the table cuts is whole on the line below it
        await until(
            pilot,
            lambda: (
                "Travellers, eight aces — Путешественники, первоначальный вариант"
                in screen_text(pilot)
            ),
        )
        await all_keys_shown(pilot)
        await pilot.press("escape")
        await until(pilot, lambda: at_home(pilot))
        await pilot.press("f")
        await until(pilot, lambda: isinstance(app.screen, FriendsScreen) and bool(app.screen.rows))
        lines = today_lines(app.screen.rows[0]["today"], app.titles)  # type: ignore[attr-defined]
        await on_screen(pilot, *lines)
        await all_keys_shown(pilot)


async def test_home_on_a_past_day_at_80x24(server_url: str, account: config.Credentials) -> None:
    """`[`: the day before. Its heading stays one line (a wrapped one pushed games off
    the list) and every game of the day shows, with the chosen one's seed."""
    app = PasyansApp(server_url)
    async with app.run_test(size=SMALL) as pilot:
        await until(pilot, lambda: at_home(pilot))
        home = app.screen
        assert isinstance(home, DailyScreen)
        today = home.daily["date"]
        await pilot.press("left_square_bracket")
        await until(pilot, lambda: at_home(pilot) and app.screen.daily["date"] != today)  # type: ignore[attr-defined]
        lines = (
            await on_screen(pilot, "past day: practice", "Crescent — Полумесяц · seed ")
        ).split("\n")
        assert "past day: practice" in lines[0] and "streak" in lines[0], lines[:2]
        assert lines[1].startswith("streak: "), lines[:2]
        shown = "\n".join(lines)
        for slug in registry.slugs():
            assert str(app.titles[slug]["title_en"]) in shown, (slug, shown)
        assert "Crescent — Полумесяц · seed " in shown
        await all_keys_shown(pilot)


def test_a_board_title_keeps_the_deal_in_80_columns() -> None:
    """The title bar of every game, a daily's commitment in it, in 78 cells (80
    columns less its padding): a long title gives way, never the commitment."""
    titles = views_titles()
    for slug in registry.slugs():
        for layout in ("", "tight"):
            rest = ["daily", "commitment 3f2a9c1b0d4e…"]
            line = fit_heading(slug, titles, rest, layout, 78)
            assert cell_len(line) <= 78, line
            assert line.endswith(" · ".join([*rest, *([layout] if layout else [])])) or (
                " · ".join(rest) in line
            ), line
            names = titles[slug]
            assert names["title_ru"] in line or names["title_en"] in line, line
    # a chosen deal says "deal" once (issue 47: "deal · deal 7"); another mode keeps its word
    chosen = mode_and_deal({"mode": "deal", "deal": {"seed": 7}})
    assert fit_heading("crescent", titles, chosen, "", 78) == "Crescent — Полумесяц · deal 7"
    practice = mode_and_deal({"mode": "practice", "deal": {"seed": 7}})
    assert practice == ["practice", "deal 7"]


async def test_st_helena_daily_title_at_80x24(server_url: str, account: config.Credentials) -> None:
    app = PasyansApp(server_url, launch=Launch(game="st_helena", mode=Mode.DAILY))
    async with app.run_test(size=SMALL) as pilot:
        board = await on_board(pilot)
        commitment = str(board.state["deal"]["commitment"])[:12]
        head = (await on_screen(pilot, f"commitment {commitment}…")).split("\n")[0]
        assert f"commitment {commitment}…" in head and "Napoleon" in head, head
