"""A game's leaderboard: daily or all-time, page by page, or the page around you."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from textual.binding import Binding
from textual.widgets import DataTable, Static

from protocol.messages import Board

from ..lang import N_, _, current
from ..records import ReplayOf
from ..text import LEADERBOARD_HEADER, RATING_HEADER, entry_row, rating_row, rating_value, title
from .base import LIST_CSS, ListScreen
from .replay import ReplayScreen


@dataclass(frozen=True)
class View:
    """What one ask for the board was: which board, day, pages, around you, friends."""

    board: Board
    date: str | None
    pages: list[str | None]
    around_me: bool
    friends: bool


class LeaderboardScreen(ListScreen):
    """One game's daily or all-time board, page by page, or the page around you."""

    DEFAULT_CSS = LIST_CSS.format(name="LeaderboardScreen")
    TABLE = "entries"
    BINDINGS = [  # noqa: RUF012 (a key table: alike in shape on every screen, by design)
        Binding("n", "next_page", N_("Next page")),
        Binding("p", "previous_page", N_("Previous page")),
        Binding("m", "around_me", N_("Around me")),
        Binding("a", "toggle_board", N_("Daily/all-time")),
        Binding("r", "ratings", N_("Ratings")),
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
        #: what the board drawn was asked as (None: nothing drawn yet)
        self.shown: View | None = None

    def on_mount(self) -> None:
        self.query_one(DataTable).focus()
        self.load()

    def load(self) -> None:
        """Ask for the board as the keys left it; only the latest ask's answer is
        drawn, with what that ask was (:class:`View`)."""
        view = View(self.board, self.date, list(self.pages), self.around_me, self.friends)
        self.fetch(
            lambda: self.host.conn.leaderboard(
                self.game,
                board=view.board,
                date=view.date if view.board == Board.DAILY else None,
                limit=self.PAGE,
                cursor=None if view.around_me else view.pages[-1],
                around_me=view.around_me,
                friends=view.friends,
            ),
            lambda result: self.draw(result, view),
        )

    def draw(self, result: dict[str, Any], view: View) -> None:
        self.result, self.shown = result, view
        table = self.query_one(DataTable)
        rating = view.board == Board.RATING
        table.clear(columns=True)
        table.add_columns(*(_(h) for h in (RATING_HEADER if rating else LEADERBOARD_HEADER)))
        me = self.host.conn.player
        for entry in self.result.get("entries") or []:
            row = rating_row(entry) if rating else entry_row(entry)
            cells = [("" if c is None else str(c)) for c in row]
            if me is not None and entry.get("player") == me:
                cells = [f"[b reverse]{c}[/]" for c in cells]
            table.add_row(*cells)
        day = self.result.get("date") or view.date
        if rating:
            which = _("ratings from races")
        elif view.board == Board.ALLTIME:
            which = _("all time")
        elif day:
            which = _("daily {day}", day=current().date(str(day)))
        else:
            which = _("today's daily")
        page = _("around you") if view.around_me else _("page {page}", page=len(view.pages))
        if view.friends:
            page += " · " + _("you and your friends")
        self.query_one("#head", Static).update(
            f"{title(self.game, self.host.titles)} · {which} · {page}"
        )
        mine = self.result.get("me")
        mine_said = _("you: rank {rank}", rank=mine.get("rank")) if mine else None
        if rating:
            status = [
                mine_said
                or _("you are not on it yet: a player is, after 5 rated races of the game")
            ]
            if mine:
                status[0] += f" ({rating_value(mine.get('rating'))})"
        else:
            status = [mine_said or _("you have no entry here yet")]
        if not self.result.get("entries"):
            status.insert(0, _("no results yet"))
        status.append(
            _("Enter replays · n/p pages · m around me · a daily/all-time · f friends · q back")
            if not rating
            else _("n/p pages · m around me · a daily · r ratings · f friends · q back")
        )
        self.say(" · ".join(status))

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.action_replay()

    def action_replay(self) -> None:
        """Replay the chosen row's game: anyone's once the day is over, yours at once."""
        entries = self.result.get("entries") or []
        row = self.query_one(DataTable).cursor_row
        if self.shown is None or self.shown.board != Board.DAILY or not 0 <= row < len(entries):
            self.say(_("replays open from a daily board's rows"))
            return
        date = str(self.result.get("date") or self.shown.date or "")
        player = str(entries[row].get("player"))
        today = dt.datetime.now(dt.UTC).date().isoformat()
        if player != self.host.conn.player and (not date or date >= today):
            self.say(_("{player}'s game opens once the day is over (UTC)", player=player))
            return
        of = ReplayOf(game=self.game, date=date, player=player)
        self.app.push_screen(ReplayScreen(of))

    def action_next_page(self) -> None:
        cursor = self.result.get("cursor")
        if self.around_me or cursor is None:
            self.say(_("this is the last page"))
            return
        self.pages.append(str(cursor))
        self.load()

    def action_previous_page(self) -> None:
        if self.around_me:
            self.around_me = False
        elif len(self.pages) > 1:
            self.pages.pop()
        else:
            self.say(_("this is the first page"))
            return
        self.load()

    def action_around_me(self) -> None:
        if self.host.conn.player is None:
            self.say(_("log in to see your place"))
            return
        self.around_me = not self.around_me
        self.load()

    def action_toggle_friends(self) -> None:
        if self.host.conn.player is None:
            self.say(_("log in to see your friends' board"))
            return
        self.friends = not self.friends
        self.pages = [None]
        self.around_me = False
        self.load()

    def action_toggle_board(self) -> None:
        self.board = Board.ALLTIME if self.board == Board.DAILY else Board.DAILY
        self.pages = [None]
        self.around_me = False
        self.load()

    def action_ratings(self) -> None:
        """The game's rating board (issue 51), or back to the daily board."""
        self.board = Board.DAILY if self.board == Board.RATING else Board.RATING
        self.pages = [None]
        self.around_me = False
        self.load()
