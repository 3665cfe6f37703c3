"""The home/daily screen and the leaderboard screen."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Static

from protocol.errors import ErrorCode
from protocol.messages import Board, Mode

from .connection import ClientError, ServerError
from .text import LEADERBOARD_HEADER, entry_row, par_text, result_text, title

if TYPE_CHECKING:
    from .app import PasyansApp

LIST_CSS = """
{name} {{ layout: vertical; }}
{name} #head {{ height: auto; background: $primary; color: $text; padding: 0 1; }}
{name} DataTable {{ height: 1fr; }}
{name} #status {{ height: auto; padding: 0 1; color: $text-muted; }}
"""


class _ListScreen(Screen[None]):
    @property
    def papp(self) -> PasyansApp:
        from .app import PasyansApp

        assert isinstance(self.app, PasyansApp)
        return self.app

    def say(self, text: str) -> None:
        self.query_one("#status", Static).update(text)


HOME_HINT = (
    "Enter plays the daily deal · p a practice deal · l the leaderboard · "
    "n races friends on this game · j joins a friend's race by its code"
)


def join_advice(error: ClientError) -> str:
    """What to do about a refused ``race_join``, after the server's own words."""
    if isinstance(error, ServerError) and error.code == ErrorCode.NOT_FOUND:
        return "\ncheck the code with your friend (letters and digits, any case)"
    if isinstance(error, ServerError) and error.code == ErrorCode.FORBIDDEN:
        return "\nask the race's creator for a new race"
    return ""


class DailyScreen(_ListScreen):
    """Today's deal of every game with your result, streak, commitments (the home)."""

    DEFAULT_CSS = LIST_CSS.format(name="DailyScreen")
    BINDINGS = [  # noqa: RUF012
        Binding("enter", "play_daily", "Play daily"),
        Binding("p", "practice", "Practice"),
        Binding("l", "leaderboard", "Leaderboard"),
        Binding("n", "new_race", "New race"),
        Binding("j", "join_race", "Join race"),
        Binding("question_mark", "rules", "Rules"),
        Binding("left_square_bracket", "day(-1)", "Day before"),
        Binding("right_square_bracket", "day(1)", "Day after"),
        Binding("q", "app.quit", "Quit"),
    ]

    def __init__(self, date: str | None = None) -> None:
        super().__init__()
        self.date = date
        self.today: str | None = None
        self.daily: dict[str, Any] = {}

    def compose(self) -> ComposeResult:
        yield Static(id="head")
        yield DataTable(id="days", cursor_type="row", zebra_stripes=True)
        yield Static(id="status")
        yield Footer()

    async def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns("game", "English", "par", "commitment / seed", "your result")
        await self.load()
        table.focus()

    async def on_screen_resume(self) -> None:
        if self.daily:
            await self.load()

    async def load(self) -> None:
        try:
            self.daily = await self.papp.conn.daily(self.date)
        except ClientError as exc:
            self.say(f"error: {exc}")
            return
        if self.today is None and self.date is None:
            self.today = str(self.daily.get("date"))
        date = str(self.daily.get("date"))
        table = self.query_one(DataTable)
        row = table.cursor_row
        table.clear()
        games = self.daily.get("games") or {}
        slugs = list(self.papp.titles) or list(games)
        for slug in slugs:
            entry = games.get(slug) or {}
            names = self.papp.titles.get(slug) or {}
            seed = entry.get("seed")
            table.add_row(
                str(names.get("title_ru") or slug),
                str(names.get("title_en") or ""),
                par_text(entry),
                f"seed {seed}" if seed is not None else str(entry.get("commitment") or "")[:12],
                result_text(entry.get("mine")) if entry else "no daily",
                key=slug,
            )
        if slugs:
            table.move_cursor(row=min(row, len(slugs) - 1))
        who = self.papp.conn.player or "not logged in"
        when = "today" if date == self.today else "past day: practice only"
        self.query_one("#head", Static).update(
            f"pasyans · {who} · daily deals of {date} (UTC, {when}) · "
            f"streak {self.daily.get('streak', 0)}"
        )
        self.say(HOME_HINT)

    def selected(self) -> str | None:
        table = self.query_one(DataTable)
        if not table.row_count:
            return None
        key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
        return str(key) if key is not None else None

    async def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        await self.action_play_daily()

    async def action_play_daily(self) -> None:
        slug = self.selected()
        if slug is None:
            return
        if self.date is not None and self.date != self.today:
            self.say("a past day's deal is over: press p for a practice deal")
            return
        mine = ((self.daily.get("games") or {}).get(slug) or {}).get("mine") or {}
        if mine.get("status") == "playing" and mine.get("game_id"):
            await self.papp.open_game(slug, Mode.DAILY, resume=str(mine["game_id"]))
        else:
            await self.papp.open_game(slug, Mode.DAILY)

    async def action_practice(self) -> None:
        slug = self.selected()
        if slug is not None:
            await self.papp.open_game(slug, Mode.PRACTICE)

    def action_leaderboard(self) -> None:
        slug = self.selected()
        if slug is not None:
            date = None if self.date == self.today else self.date
            self.app.push_screen(LeaderboardScreen(slug, date=date))

    def action_new_race(self) -> None:
        """A race on the chosen game: a fresh deal or today's daily, then its lobby."""
        from .app import Launch
        from .dialogs import RaceDealScreen

        slug = self.selected()
        if slug is None:
            return

        async def chosen(daily: bool | None) -> None:
            if daily is None:
                return
            mode = Mode.DAILY if daily else Mode.PRACTICE
            error = await self.papp.open_race(Launch(game=slug, mode=mode, race="new"))
            if error is not None:
                self.say(f"error: {error}")
                self.notify(str(error), severity="error")

        self.app.push_screen(RaceDealScreen(title(slug, self.papp.titles)), chosen)

    def action_join_race(self, code: str = "", error: str = "") -> None:
        """Ask for a race's code and join it; the server's refusal opens the dialog
        again with the code and the reason."""
        from .app import Launch
        from .dialogs import JoinRaceScreen

        async def typed(code: str | None) -> None:
            if code is None:
                return
            refused = await self.papp.open_race(Launch(race=code))
            if refused is not None:
                self.action_join_race(code, f"{refused}{join_advice(refused)}")

        self.app.push_screen(JoinRaceScreen(code, error), typed)

    async def action_rules(self) -> None:
        from .dialogs import RulesScreen

        slug = self.selected()
        if slug is None:
            return
        try:
            text = await self.papp.conn.rules(slug)
        except ClientError as exc:
            self.say(f"error: {exc}")
            return
        self.app.push_screen(RulesScreen(title(slug, self.papp.titles), text))

    async def action_day(self, delta: int) -> None:
        base = self.date or self.today or str(dt.datetime.now(dt.UTC).date())
        day = dt.date.fromisoformat(base) + dt.timedelta(days=delta)
        if self.today and day > dt.date.fromisoformat(self.today):
            self.say("tomorrow's deals are not out yet")
            return
        self.date = day.isoformat()
        await self.load()


class LeaderboardScreen(_ListScreen):
    """One game's daily or all-time board, page by page, or the page around you."""

    DEFAULT_CSS = LIST_CSS.format(name="LeaderboardScreen")
    BINDINGS = [  # noqa: RUF012
        Binding("n", "next_page", "Next page"),
        Binding("p", "previous_page", "Previous page"),
        Binding("m", "around_me", "Around me"),
        Binding("a", "toggle_board", "Daily/all-time"),
        Binding("escape", "app.pop_screen", "Back"),
        Binding("q", "app.pop_screen", "Back"),
    ]

    PAGE = 20

    def __init__(
        self, game: str, *, board: Board = Board.DAILY, date: str | None = None
    ) -> None:
        super().__init__()
        self.game = game
        self.board = board
        self.date = date
        self.around_me = False
        self.pages: list[str | None] = [None]  # the cursor of each page seen
        self.result: dict[str, Any] = {}

    def compose(self) -> ComposeResult:
        yield Static(id="head")
        yield DataTable(id="entries", cursor_type="row", zebra_stripes=True)
        yield Static(id="status")
        yield Footer()

    async def on_mount(self) -> None:
        self.query_one(DataTable).add_columns(*LEADERBOARD_HEADER)
        await self.load()
        self.query_one(DataTable).focus()

    async def load(self) -> None:
        try:
            self.result = await self.papp.conn.leaderboard(
                self.game,
                board=self.board,
                date=self.date if self.board == Board.DAILY else None,
                limit=self.PAGE,
                cursor=None if self.around_me else self.pages[-1],
                around_me=self.around_me,
            )
        except ClientError as exc:
            self.say(f"error: {exc}")
            return
        table = self.query_one(DataTable)
        table.clear()
        me = self.papp.conn.player
        for entry in self.result.get("entries") or []:
            cells = [("" if c is None else str(c)) for c in entry_row(entry)]
            if me is not None and entry.get("player") == me:
                cells = [f"[b reverse]{c}[/]" for c in cells]
            table.add_row(*cells)
        which = "all time" if self.board == Board.ALLTIME else (
            f"daily {self.result.get('date') or self.date or 'today'}"
        )
        page = "around you" if self.around_me else f"page {len(self.pages)}"
        self.query_one("#head", Static).update(
            f"{title(self.game, self.papp.titles)} · {which} · {page}"
        )
        mine = self.result.get("me")
        status = [f"you: rank {mine.get('rank')}" if mine else "you have no entry here yet"]
        if not self.result.get("entries"):
            status.insert(0, "no results yet")
        status.append("n/p pages · m around me · a daily/all-time · q back")
        self.say(" · ".join(status))

    async def action_next_page(self) -> None:
        cursor = self.result.get("cursor")
        if self.around_me or cursor is None:
            self.say("this is the last page")
            return
        self.pages.append(str(cursor))
        await self.load()

    async def action_previous_page(self) -> None:
        if self.around_me:
            self.around_me = False
        elif len(self.pages) > 1:
            self.pages.pop()
        else:
            self.say("this is the first page")
            return
        await self.load()

    async def action_around_me(self) -> None:
        if self.papp.conn.player is None:
            self.say("log in to see your place")
            return
        self.around_me = not self.around_me
        await self.load()

    async def action_toggle_board(self) -> None:
        self.board = Board.ALLTIME if self.board == Board.DAILY else Board.DAILY
        self.pages = [None]
        self.around_me = False
        await self.load()
