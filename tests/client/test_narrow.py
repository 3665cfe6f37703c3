"""Every game fits a 100-column terminal: the board picks a tighter drawing
(client.drawing.DENSITIES) when the full one is wider than its room, so every pile's
id and cards are on screen with no sideways scrolling. Under Pilot, against the real
server, deal 0 of every game."""

from __future__ import annotations

from textual.containers import ScrollableContainer
from textual.geometry import Region

from client import config
from client.app import PasyansApp
from client.drawing import FULL, Drawing, draw
from client.launch import Launch
from client.screens.home import DailyScreen
from client.widgets import BoardView
from protocol.messages import Mode
from server.patience import registry

from .test_app import deal_0_instead, on_board, until
from .test_home_races import in_lobby, on_race_board
from .views import engine_state

NARROW = (100, 40)


def off_screen(view: BoardView, visible: Region) -> list[str]:
    """Every pile title and card of the drawing that is not inside ``visible`` (screen
    cells), as readable strings; the title must start with the whole pile id."""
    drawing: Drawing = view.drawing
    origin = view.content_region  # where the drawing's cell (0, 0) is on the screen
    lost = []
    for pid, box in drawing.boxes.items():
        title = "".join(ch for ch, _ in drawing.cells[box.y][box.x : box.x + len(pid)])
        if title != pid:
            lost.append(f"{pid}: its title starts {title!r}")
        spots = [(f"{pid} title", box.x, box.y, len(pid))]
        spots += [(f"{pid}[{i}]", x, y, w) for i, x, y, w in box.cards]
        for what, x, y, w in spots:
            cells = Region(origin.x + x, origin.y + y, w, 1)
            if not visible.contains_region(cells):
                lost.append(f"{what} at {cells} outside {visible}")
    return lost


async def test_every_game_is_on_screen_at_100_columns(
    server_url: str, account: config.Credentials
) -> None:
    """Deal 0 of every game at 100 columns: no sideways scrolling, every pile's id and
    cards inside the board's visible region. (With room enough, the full drawing:
    test_app.test_every_game_draws_on_the_board.)"""
    app = PasyansApp(server_url)
    async with app.run_test(size=NARROW) as pilot:
        await until(pilot, lambda: isinstance(app.screen, DailyScreen))
        squeezed = []
        for slug in registry.slugs():
            board = await deal_0_instead(pilot, slug)
            await pilot.pause()
            view = board.query_one(BoardView)
            scroll = board.query_one("#scroll", ScrollableContainer)
            assert view.room is not None and view.drawing.width <= view.room, slug
            assert scroll.max_scroll_x == 0, f"{slug} scrolls sideways"
            assert off_screen(view, scroll.scrollable_content_region) == [], slug
            # the board drawn is the view's own, fitted to the room it has
            piles = engine_state(slug, 0)["view"]["piles"]
            assert view.drawing.plain() == draw(piles, width=view.room).plain(), slug
            if view.density != FULL:
                squeezed.append(slug)
                assert f"{view.density.name} layout" in str(board.query_one("#title").render())
        assert "little_packs" in squeezed and "cotillion" in squeezed


async def test_a_cut_title_is_in_the_hint(server_url: str, account: config.Credentials) -> None:
    """On a narrow board the cursor's pile shows its whole title in the hint line."""
    app = PasyansApp(server_url)
    async with app.run_test(size=NARROW) as pilot:
        await until(pilot, lambda: isinstance(app.screen, DailyScreen))
        await app.open_game("travellers", Mode.DEAL, seed=0)
        board = await on_board(pilot)
        await pilot.pause()
        view = board.query_one(BoardView)
        cut = view.drawing.cut
        assert "F1" in cut and cut["F1"] == "F1 A→K base A♠"
        await pilot.press("F", "1")  # choose F1 by its id: its title shows in full
        await until(pilot, lambda: board.cursor == "F1")
        assert "F1 A→K base A♠" in str(board.query_one("#hint").render())


async def test_a_race_board_at_100_columns(server_url: str, account: config.Credentials) -> None:
    """Beside the race panel (slim below 120 columns) the widest game does not fit:
    the status line says so, and t hides the panel to give the board the width."""
    app = PasyansApp(server_url, launch=Launch(game="squaring_circle", race="new"))
    async with app.run_test(size=NARROW) as pilot:
        await in_lobby(pilot)
        await pilot.press("s")
        board = await on_race_board(pilot)
        await until(pilot, lambda: board.has_class("narrow"))  # the slim panel
        view = board.query_one(BoardView)
        status = board.query_one("#status")
        await until(pilot, lambda: "t hides the panel" in str(status.render()))
        assert view.room is not None and view.drawing.width > view.room
        await pilot.press("t")
        await until(pilot, lambda: view.room is not None and view.drawing.width <= view.room)
        await pilot.pause()
        scroll = board.query_one("#scroll", ScrollableContainer)
        assert scroll.max_scroll_x == 0
        assert off_screen(view, scroll.scrollable_content_region) == []
        assert "t hides" not in str(status.render())
