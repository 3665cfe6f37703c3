"""A game's leaderboard: daily or all-time, page by page, or the page around you."""

from __future__ import annotations

from typing import Any

from textual.binding import Binding
from textual.widgets import DataTable, Static

from protocol.messages import Board

from ..connection import ClientError
from ..lang import N_, _, current
from ..records import ReplayOf
from ..text import LEADERBOARD_HEADER, entry_row, title
from .base import LIST_CSS, ListScreen
from .replay import ReplayScreen


class LeaderboardScreen(ListScreen):
    """One game's daily or all-time board, page by page, or the page around you."""

    DEFAULT_CSS = LIST_CSS.format(name="LeaderboardScreen")
    TABLE = "entries"
    BINDINGS = [  # noqa: RUF012 (a key table: alike in shape on every screen, by design)
        Binding("n", "next_page", N_("Next page")),
        Binding("p", "previous_page", N_("Previous page")),
        Binding("m", "around_me", N_("Around me")),
        Binding("a", "toggle_board", N_("Daily/all-time")),
        Binding("enter", "replay", N_("Replay")),
        Binding("f", "toggle_friends", N_("Friends only")),
        Binding("escape", "app.pop_screen", N_("Back")),
        Binding("q", "app.pop_screen", N_("Back")),
    ]

    PAGE = 20

    def __init__(self, game: str, *, board: Board = Board.DAILY, date: str | None = None) -> None:
        super().__init__()
        self.game = game
        self.board = board
        self.date = date
        self.around_me = False
        self.friends = False
        self.pages: list[str | None] = [None]  # the cursor of each page seen
        self.result: dict[str, Any] = {}

    async def on_mount(self) -> None:
        self.query_one(DataTable).add_columns(*(_(h) for h in LEADERBOARD_HEADER))
        await self.load()
        self.query_one(DataTable).focus()

    async def load(self) -> None:
        try:
            self.result = await self.host.conn.leaderboard(
                self.game,
                board=self.board,
                date=self.date if self.board == Board.DAILY else None,
                limit=self.PAGE,
                cursor=None if self.around_me else self.pages[-1],
                around_me=self.around_me,
                friends=self.friends,
            )
        except ClientError as exc:
            self.say(_("error: {error}", error=exc))
            return
        table = self.query_one(DataTable)
        table.clear()
        me = self.host.conn.player
        for entry in self.result.get("entries") or []:
            cells = [("" if c is None else str(c)) for c in entry_row(entry)]
            if me is not None and entry.get("player") == me:
                cells = [f"[b reverse]{c}[/]" for c in cells]
            table.add_row(*cells)
        day = self.result.get("date") or self.date
        if self.board == Board.ALLTIME:
            which = _("all time")
        elif day:
            which = _("daily {day}", day=current().date(str(day)))
        else:
            which = _("today's daily")
        page = _("around you") if self.around_me else _("page {page}", page=len(self.pages))
        if self.friends:
            page += " · " + _("you and your friends")
        self.query_one("#head", Static).update(
            f"{title(self.game, self.host.titles)} · {which} · {page}"
        )
        mine = self.result.get("me")
        mine_said = _("you: rank {rank}", rank=mine.get("rank")) if mine else None
        status = [mine_said or _("you have no entry here yet")]
        if not self.result.get("entries"):
            status.insert(0, _("no results yet"))
        status.append(
            _("Enter replays · n/p pages · m around me · a daily/all-time · f friends · q back")
        )
        self.say(" · ".join(status))

    async def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.action_replay()

    def action_replay(self) -> None:
        """Replay the chosen row's game: anyone's once the day is over, yours at once."""
        entries = self.result.get("entries") or []
        row = self.query_one(DataTable).cursor_row
        if self.board != Board.DAILY or not 0 <= row < len(entries):
            self.say(_("replays open from a daily board's rows"))
            return
        date = str(self.result.get("date") or self.date or "")
        of = ReplayOf(game=self.game, date=date, player=str(entries[row].get("player")))
        self.app.push_screen(ReplayScreen(of))

    async def action_next_page(self) -> None:
        cursor = self.result.get("cursor")
        if self.around_me or cursor is None:
            self.say(_("this is the last page"))
            return
        self.pages.append(str(cursor))
        await self.load()

    async def action_previous_page(self) -> None:
        if self.around_me:
            self.around_me = False
        elif len(self.pages) > 1:
            self.pages.pop()
        else:
            self.say(_("this is the first page"))
            return
        await self.load()

    async def action_around_me(self) -> None:
        if self.host.conn.player is None:
            self.say(_("log in to see your place"))
            return
        self.around_me = not self.around_me
        await self.load()

    async def action_toggle_friends(self) -> None:
        if self.host.conn.player is None:
            self.say(_("log in to see your friends' board"))
            return
        self.friends = not self.friends
        self.pages = [None]
        self.around_me = False
        await self.load()

    async def action_toggle_board(self) -> None:
        self.board = Board.ALLTIME if self.board == Board.DAILY else Board.DAILY
        self.pages = [None]
        self.around_me = False
        await self.load()
