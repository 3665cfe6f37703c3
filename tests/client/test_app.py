"""The Textual client, headless under Pilot, against a real server."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Static

from client import config, launch
from client.app import PasyansApp
from client.connection import Connection
from client.launch import Launch
from client.screens.board import BoardScreen, EndScreen
from client.screens.dialogs import MessageScreen, NameScreen, PickScreen, RulesScreen
from client.screens.home import DailyScreen
from client.screens.leaderboard import LeaderboardScreen
from client.widgets import BoardView
from protocol.messages import Mode
from tests.support import GUARD, eventually

from .conftest import fresh_name
from .views import engine_state

SIZE = (120, 40)
WIDE = (200, 50)  # thirteen piles in a row


async def until(
    pilot: Pilot[int], cond: Callable[[], bool], timeout: float = GUARD, every: float = 0.02
) -> None:
    """Wait for the app to get where ``cond`` says (``timeout``: a hang guard), asking
    every ``every`` seconds (longer for what comes seconds later: each ask lets the
    app lay out and paint what changed)."""
    await eventually(cond, what=lambda: where(pilot), guard=timeout, every=every, pause=pilot.pause)


def where(pilot: Pilot[int]) -> str:
    """Where the app is instead (a failure's message): its screen, what has the keys,
    and the words of its texts."""
    screen = pilot.app.screen
    try:
        words = " | ".join(str(w.render()).strip()[:80] for w in screen.query(Static))
    except Exception as exc:
        words = repr(exc)
    return (
        f"the app never got there: on {type(screen).__name__}, keys to "
        f"{type(pilot.app.focused).__name__}, showing {words[:800]}"
    )


def board_of(app: PasyansApp) -> BoardScreen:
    screen = app.screen
    assert isinstance(screen, BoardScreen), screen
    return screen


def text_of(app: PasyansApp) -> str:
    return app.screen.query_one(BoardView).drawing.plain()


def crescent(seed: int = 0) -> PasyansApp:
    return PasyansApp("", launch=Launch(game="crescent", mode=Mode.DEAL, seed=seed))


async def on_board(pilot: Pilot[int]) -> BoardScreen:
    await until(pilot, lambda: isinstance(pilot.app.screen, BoardScreen))
    screen = pilot.app.screen
    assert isinstance(screen, BoardScreen)
    return screen


async def deal_0_instead(pilot: Pilot[int], slug: str) -> BoardScreen:
    """Deal 0 of ``slug`` on a new board, in place of the board in front (on top of
    home for the first): a walk over every game goes from board to board, without
    home's reload between two (leaving a board for home is tested on its own)."""
    app = pilot.app
    assert isinstance(app, PasyansApp)
    state = await launch.open_game(app.conn, Launch(game=slug, mode=Mode.DEAL, seed=0))
    board = BoardScreen(state)
    if isinstance(app.screen, BoardScreen):
        await app.switch_screen(board)
    else:
        await app.push_screen(board)
    await until(pilot, lambda: app.screen is board)
    assert board.state["game"] == slug
    return board


async def resigned_end(pilot: Pilot[int]) -> EndScreen:
    """Resign the game on the board (``r``, ``y``): its end screen."""
    await on_board(pilot)
    await pilot.press("r", "y")
    await until(pilot, lambda: isinstance(pilot.app.screen, EndScreen))
    end = pilot.app.screen
    assert isinstance(end, EndScreen)
    return end


def moves(app: PasyansApp) -> int:
    return int(board_of(app).state["moves"])


async def test_keys_move_undo_and_rules(server_url: str, account: config.Credentials) -> None:
    app = PasyansApp(server_url, launch=Launch(game="crescent", mode=Mode.DEAL, seed=0))
    async with app.run_test(size=SIZE) as pilot:
        board = await on_board(pilot)
        assert " 2♥ ×6" in text_of(app)
        await pilot.press("T", "3")  # source: typed pile id
        assert board.source == "T3"
        assert board.targets() == {"FA-H"}
        await pilot.press("F", "A", "-", "H")  # target
        await until(pilot, lambda: moves(app) == 1)
        assert " 2♥ ×2" in text_of(app)
        assert board.state["foundation"] == 9
        await pilot.press("u")
        await until(pilot, lambda: moves(app) == 2)
        assert board.state["foundation"] == 8
        assert " 2♥ ×6" in text_of(app)
        await pilot.press("question_mark")
        await until(pilot, lambda: isinstance(app.screen, RulesScreen))
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, BoardScreen))


async def test_clicks_and_cancel(server_url: str, account: config.Credentials) -> None:
    app = PasyansApp(server_url, launch=Launch(game="crescent", mode=Mode.DEAL, seed=0))
    async with app.run_test(size=SIZE) as pilot:
        board = await on_board(pilot)
        view = app.screen.query_one(BoardView)
        await pilot.click(BoardView, offset=view.offset_of("T3"))
        assert board.source == "T3"
        await pilot.press("escape")
        assert board.source is None
        await pilot.click(BoardView, offset=view.offset_of("T3", 5))  # the top card itself
        assert board.source == "T3"
        await pilot.click(BoardView, offset=view.offset_of("T7"))  # not a target
        assert "no legal move from column 3 (T3) to column 7 (T7)" in str(
            app.screen.query_one("#status").render()
        )
        await pilot.click(BoardView, offset=view.offset_of("FA-H"))
        await until(pilot, lambda: moves(app) == 1)
        assert " 2♥ ×2" in text_of(app)
        assert board.source is None


async def test_cursor_keys_and_actions(server_url: str, account: config.Credentials) -> None:
    app = PasyansApp(server_url, launch=Launch(game="crescent", mode=Mode.DEAL, seed=0))
    async with app.run_test(size=SIZE) as pilot:
        board = await on_board(pilot)
        await pilot.press("right")  # the cursor starts top left
        assert board.cursor == "T1"
        await pilot.press("right", "right")
        assert board.cursor == "T3"
        await pilot.press("enter")
        assert board.source == "T3"
        await pilot.press("down")  # T3 is at column 2; below it FA-S at column 2
        assert board.cursor == "FA-S"
        await pilot.press("right", "space")
        await until(pilot, lambda: moves(app) == 1)
        # actions through the list: crescent's shift
        await pilot.press("x")
        await until(pilot, lambda: isinstance(app.screen, PickScreen))
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, BoardScreen) and moves(app) == 2)
        assert board.state["view"]["info"]["shifts_left"] == 2


async def test_resign_shows_the_end(server_url: str, account: config.Credentials) -> None:
    app = PasyansApp(server_url, launch=Launch(game="crescent", mode=Mode.DAILY))
    async with app.run_test(size=SIZE) as pilot:
        await on_board(pilot)
        await pilot.press("r")
        await pilot.press("y")
        await until(pilot, lambda: isinstance(app.screen, EndScreen))
        text = str(app.screen.query_one("#end").render())
        assert "You resigned." in text
        assert "no move" not in text.lower()  # the reason is the real one
        board = app.screen_stack[-2]
        assert isinstance(board, BoardScreen)
        assert "lost (resigned)" in str(board.query_one("#counters").render())
        assert "You resigned." in str(board.query_one("#hint").render())
        assert "rank" in text  # a daily: its place on today's board
        await pilot.press("l")
        await until(pilot, lambda: isinstance(app.screen, LeaderboardScreen))


async def test_auto_plays_forced_moves(server_url: str, account: config.Credentials) -> None:
    from server.patience import registry

    slugs = [
        s
        for s in registry.slugs()
        if len(engine_state(s, 0)["legal"]) == 1 and "action" in engine_state(s, 0)["legal"][0]
    ]
    if not slugs:
        pytest.skip("no registered game opens with a forced action")
    app = PasyansApp(server_url, launch=Launch(game=slugs[0], mode=Mode.DEAL, seed=0))
    async with app.run_test(size=SIZE) as pilot:
        board = await on_board(pilot)
        await pilot.press("a")
        await until(pilot, lambda: moves(app) >= 1)
        assert "forced move" in str(app.screen.query_one("#status").render())
        assert board.source is None


async def test_home_daily_and_leaderboard(server_url: str, account: config.Credentials) -> None:
    app = PasyansApp(server_url)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, DailyScreen))
        home = app.screen
        assert isinstance(home, DailyScreen)
        await until(pilot, lambda: bool(home.daily))
        head = str(home.query_one("#head").render())
        assert account.player in head and "streak" in head
        await pilot.press("enter")  # today's daily of the first game
        board = await on_board(pilot)
        assert board.state["mode"] == "daily"
        await pilot.press("r", "y")
        await until(pilot, lambda: isinstance(app.screen, EndScreen))
        await pilot.press("q")  # leave: back home
        await until(pilot, lambda: isinstance(app.screen, DailyScreen))
        await pilot.press("l")
        await until(pilot, lambda: isinstance(app.screen, LeaderboardScreen))
        lb = app.screen
        assert isinstance(lb, LeaderboardScreen)
        await until(pilot, lambda: bool(lb.result))
        assert any(e["player"] == account.player for e in lb.result["entries"])
        await pilot.press("m")
        await until(
            pilot, lambda: lb.around_me and "around you" in str(lb.query_one("#head").render())
        )
        assert "you: rank" in str(lb.query_one("#status").render())
        await pilot.press("a")
        await until(pilot, lambda: "all time" in str(lb.query_one("#head").render()))
        await pilot.press("q")
        await until(pilot, lambda: isinstance(app.screen, DailyScreen))
        today = home.today
        await pilot.press("[")  # the day before: its deals are over
        await until(pilot, lambda: home.daily.get("date") != today)
        assert "past day" in str(home.query_one("#head").render())
        await pilot.press("]")
        await until(pilot, lambda: home.daily.get("date") == today and home.date == today)
        # the day after today: refused where it is asked (once today's answer is in:
        # its words on the status line would otherwise come after these)
        await pilot.press("]")
        await until(pilot, lambda: "not out yet" in str(home.query_one("#status").render()))
        assert home.daily.get("date") == today


async def test_first_run_asks_for_a_name(server_url: str, config_dir: Path) -> None:
    app = PasyansApp(server_url)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, NameScreen))
        name = fresh_name()
        await pilot.press(*name, "enter")
        await until(pilot, lambda: isinstance(app.screen, DailyScreen))
    saved = config.load(server_url)
    assert saved is not None and saved.player == name


async def test_server_down_is_a_clear_message() -> None:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    app = PasyansApp(f"ws://127.0.0.1:{port}/ws")
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, MessageScreen))
        assert "cannot reach the pasyans server" in str(app.screen.query_one("#message").render())
        await pilot.press("q")


async def test_click_a_card_of_a_spread_pile(server_url: str, account: config.Credentials) -> None:
    """A spread pile's cards are each playable: clicking one picks that index."""
    from server.patience import registry

    if "little_packs" not in registry.slugs():
        pytest.skip("little_packs is not registered")
    app = PasyansApp(server_url, launch=Launch(game="little_packs", mode=Mode.DEAL, seed=0))
    async with app.run_test(size=WIDE) as pilot:
        board = await on_board(pilot)
        for _ in range(4):  # the engine's first legal moves lead to an index move
            await board.play(board.legal[0])
        move = next(m for m in board.legal if "index" in m)
        view = app.screen.query_one(BoardView)
        await pilot.click(BoardView, offset=view.offset_of(move["from"], move["index"]))
        assert (board.source, board.source_index) == (move["from"], move["index"])
        assert move["to"] in board.targets()
        pile = next(p for p in board.piles if p["id"] == move["from"])
        card = pile["cards"][move["index"]]
        await pilot.click(BoardView, offset=view.offset_of(move["to"]))
        await until(pilot, lambda: moves(app) == 5)
        target = next(p for p in board.piles if p["id"] == move["to"])
        assert target["cards"][-1] == card


async def test_every_game_draws_on_the_board(server_url: str, account: config.Credentials) -> None:
    """The Textual board of deal 0 of every game is the snapshot's drawing (given
    room for it: a narrower terminal draws it tighter, see test_narrow.py)."""
    from client.drawing import draw
    from server.patience import registry

    app = PasyansApp(server_url)
    async with app.run_test(size=WIDE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, DailyScreen))
        for slug in registry.slugs():
            await deal_0_instead(pilot, slug)
            await pilot.pause()
            expected = draw(engine_state(slug, 0)["view"]["piles"]).plain()
            assert text_of(app) == expected, slug


async def test_resume_the_latest_game(server_url: str, account: config.Credentials) -> None:

    async with Connection(server_url) as conn:
        await conn.auth(account.token)
        state = await conn.start("crescent", Mode.DEAL, 0)
        state = await conn.move(state["game_id"], state["seq"], {"from": "T3", "to": "FA-H"})
    app = PasyansApp(server_url, launch=Launch(resume=True))
    async with app.run_test(size=SIZE) as pilot:
        board = await on_board(pilot)
        assert board.state["game_id"] == state["game_id"]
        assert moves(app) == 1
        assert " 2♥ ×2" in text_of(app)
        await pilot.press("q")  # the board was the command: leaving quits
        await until(pilot, lambda: not app.is_running)


async def test_a_move_made_elsewhere_refreshes_the_board(
    server_url: str, account: config.Credentials
) -> None:
    """The same game played from a second place, before the server's ``game`` event
    reached the board (tests/client/test_game_event.py has it reach the board first):
    the board's next move is stale, the server sends the current state and the status
    line says so; the late event then fetches nothing more."""

    app = PasyansApp(server_url, launch=Launch(game="crescent", mode=Mode.DEAL, seed=0))
    async with app.run_test(size=SIZE) as pilot:
        board = await on_board(pilot)
        app.conn.on_event = None  # the connection keeps the events until heard again
        async with Connection(server_url) as other:
            await other.auth(account.token)
            state = board.state
            await other.move(state["game_id"], state["seq"], {"from": "T3", "to": "FA-H"})
        await pilot.press("T", "1", "enter")  # T1 (T10…T16 also start with T1)
        assert board.source == "T1"
        await pilot.press("T", "5")  # no other id starts with T5: chosen at once
        status = app.screen.query_one("#status")
        await until(pilot, lambda: "moved on elsewhere" in str(status.render()))
        assert moves(app) == 1  # the other place's move, not ours
        assert " 2♥ ×2" in text_of(app)
        app.conn.on_event = app.server_event
        await until(pilot, lambda: board.heard_seq == board.state["seq"])
        assert "moved on elsewhere" in str(status.render())


async def test_h_highlights_a_hinted_move(server_url: str, account: config.Credentials) -> None:
    """Hand Reserve, deal 0: the solver wins it at once, so a hint is a card move whose
    source the board then marks."""
    app = PasyansApp(server_url, launch=Launch(game="hand_reserve", mode=Mode.DEAL, seed=0))
    async with app.run_test(size=WIDE) as pilot:
        board = await on_board(pilot)
        await pilot.press("h")
        await until(pilot, lambda: "hint:" in str(app.screen.query_one("#status").render()))
        assert "no longer ranks" in str(app.screen.query_one("#status").render())
        assert board.source is not None and board.targets()


async def test_h_on_a_practice_deal_hints_without_asking(
    server_url: str, account: config.Credentials
) -> None:
    """A hint on an unranked game asks nothing (today's daily gets none at all:
    tests/client/test_assisted.py)."""
    practice = PasyansApp(server_url, launch=Launch(game="hand_reserve", mode=Mode.DEAL, seed=0))
    async with practice.run_test(size=WIDE) as pilot:
        await on_board(pilot)
        await pilot.press("h")
        await until(pilot, lambda: "hint:" in str(practice.screen.query_one("#status").render()))
