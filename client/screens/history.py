"""Your past games, newest first, page by page; Enter replays a finished one (or
goes on with one still in play)."""

from __future__ import annotations

import textwrap
from typing import Any

from rich.cells import cell_len
from textual.binding import Binding
from textual.timer import Timer
from textual.widgets import DataTable, Static

from protocol.messages import Mode

from ..lang import N_, _, ngettext
from ..records import ReplayOf, history_row
from .base import LIST_CSS, ListScreen
from .replay import ReplayScreen

#: the history's columns on the screen, each of two lines (all of a game in 80
#: columns: the wide table of ``pasyans history`` would need 120)
SCREEN_HEADER = (N_("when (UTC)\nid"), N_("game\nmode"), N_("result\ncards"), N_("moves\ntime"))


#: the game column's width: a longer title wraps onto more lines of its row
GAME_WIDTH = 24


def screen_cells(row: list[Any]) -> list[str]:
    """A row of :func:`client.records.history_row` as the screen's cells of two lines
    (more when the game's title wraps: "Путешественники, первоначальный вариант")."""
    when, game, mode, result, cards, moves, time, gid = (str(c) for c in row)
    name = "\n".join(textwrap.wrap(game, GAME_WIDTH)) or game
    return [f"{when}\n{gid}", f"{name}\n{mode}", f"{result}\n{cards}", f"{moves}\n{time}"]


class HistoryScreen(ListScreen):
    DEFAULT_CSS = LIST_CSS.format(name="HistoryScreen")
    TABLE = "history"
    BINDINGS = [  # noqa: RUF012 (a key table: alike in shape on every screen, by design)
        Binding("enter", "open", N_("Replay")),
        Binding("n", "next_page", N_("Next page")),
        Binding("p", "previous_page", N_("Previous page")),
        Binding("escape", "app.pop_screen", N_("Back")),
        Binding("q", "app.pop_screen", N_("Back")),
    ]

    PAGE = 20

    def __init__(self) -> None:
        super().__init__()
        self.pages: list[str | None] = [None]  # the cursor of each page seen
        self.result: dict[str, Any] = {}
        self.heading = ""
        self.shown_heading = ""
        #: the timer that keeps the ↑/↓ marks true as the table settles
        self.marks_kept: Timer | None = None

    @property
    def games(self) -> list[dict[str, Any]]:
        return list(self.result.get("games") or [])

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.header_height = 2
        table.add_columns(*(_(h) for h in SCREEN_HEADER))
        for moved in ("scroll_y", "virtual_size", "size"):  # the marks follow the table
            self.watch(table, moved, self.show_heading, init=False)
        self.query_one(DataTable).focus()
        self.load()

    def on_screen_resume(self) -> None:
        if self.result:
            self.load()  # a game resumed from here may have moved on

    def load(self, pages: list[str | None] | None = None) -> None:
        """Ask for the last page of ``pages`` (the cursors of the pages seen; those
        shown when None) and show it once it comes (only the latest ask's)."""
        asked = list(self.pages if pages is None else pages)
        self.fetch(
            lambda: self.host.conn.my_games(limit=self.PAGE, cursor=asked[-1]),
            lambda result: self.draw(result, asked),
        )

    def draw(self, result: dict[str, Any], pages: list[str | None]) -> None:
        self.result, self.pages = result, pages
        table = self.query_one(DataTable)
        row = table.cursor_row
        table.clear()
        for i, game in enumerate(self.games):
            cells = screen_cells(history_row(game, self.host.titles))
            table.add_row(*cells, height=max(c.count("\n") + 1 for c in cells), key=str(i))
        if self.games:
            table.move_cursor(row=min(row, len(self.games) - 1))
        who = self.host.conn.player or "?"
        self.heading = ngettext(
            "pasyans · {who} · your games, newest first · page {page}: {n} game",
            "pasyans · {who} · your games, newest first · page {page}: {n} games",
            len(self.games),
            who=who,
            page=len(self.pages),
        )
        self.show_heading()
        if not self.games:
            self.say(_("no games yet: press q, then Enter to play today's daily"))
        else:
            self.say(_("Enter replays (or resumes a game in play) · n/p pages · q back"))
        # the marks again once the table has its height (the status line takes a row;
        # a widget's size is no reactive to watch)
        self.call_after_refresh(lambda: self.call_after_refresh(self.show_heading))
        if self.marks_kept is None:
            self.marks_kept = self.set_interval(0.5, self.show_heading)

    def show_heading(self) -> None:
        """The heading, with ``↓ more`` while games of the page are below the table's
        end (``↑ more`` above its top): two lines a game, a page of 20 scrolls."""
        table = self.query_one(DataTable)
        marks = []
        if table.scroll_y > 0:
            marks.append(_("↑ more"))
        if self.games and table.scroll_y < table.max_scroll_y:  # none: nothing below
            marks.append(_("↓ more"))
        text = " · ".join([self.heading, *marks])
        if cell_len(text) > self.app.size.width - 2:  # one line in 80 columns
            text = text.removeprefix("pasyans · ")
        if text != self.shown_heading:
            self.shown_heading = text
            self.query_one("#head", Static).update(text)

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.action_open()

    def action_open(self) -> None:
        row = self.query_one(DataTable).cursor_row
        if not 0 <= row < len(self.games):
            return
        game = self.games[row]
        gid = str(game.get("game_id"))
        if game.get("status") == "playing":
            self.act(self.host.open_game(str(game.get("game")), Mode.PRACTICE, resume=gid))
        else:
            self.app.push_screen(ReplayScreen(ReplayOf(game_id=gid)))

    def action_next_page(self) -> None:
        cursor = self.result.get("cursor")
        if cursor is None:
            self.say(_("this is the last page"))
            return
        self.load([*self.pages, str(cursor)])

    def action_previous_page(self) -> None:
        if len(self.pages) == 1:
            self.say(_("this is the first page"))
            return
        self.load(self.pages[:-1])
