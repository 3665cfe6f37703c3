"""The home screen: today's deal of every game, and the keys that open the rest."""

from __future__ import annotations

import datetime as dt
from typing import Any

from rich.cells import cell_len
from textual.app import ComposeResult
from textual.binding import Binding
from textual.events import Resize
from textual.widgets import DataTable, Static

from protocol.errors import ErrorCode
from protocol.messages import Mode

from ..challenges import home_line
from ..connection import ClientError, ServerError
from ..host import InboxChanged
from ..inbox import inbox_line
from ..lang import N_, _
from ..launch import Launch
from ..records import friends, friends_line
from ..text import (
    STREAK_MEANING,
    certifying_text,
    game_name,
    par_text,
    preparing,
    preparing_text,
    result_short,
    result_text,
    short_title,
    title,
    unproven_label,
)
from ..widgets import KeyFooter
from .base import LIST_CSS, ListScreen
from .calendar import CalendarScreen
from .friends import FriendsScreen
from .history import HistoryScreen
from .inbox import InboxScreen
from .leaderboard import LeaderboardScreen
from .race_dialogs import JoinRaceScreen, RaceDealScreen
from .stats import StatsScreen

HOME_HINT = N_(
    "Enter plays the daily deal · p a practice deal · l the leaderboard · "
    "n races friends on this game · j joins a friend's race by its code"
)
#: the hint when the terminal is narrow (the footer below lists the keys)
HOME_HINT_SHORT = N_("Enter plays the chosen game's daily deal; the keys below do the rest")

#: the home table's columns when the terminal has room for them all
WIDE_COLUMNS = (N_("game"), N_("English"), N_("par"), N_("commitment / seed"), N_("your result"))
#: …and when it has not (80 columns): the rest of the chosen game on the detail line
NARROW_COLUMNS = (N_("game"), N_("par"), N_("yours"))

#: seconds between asks while a daily is being certified
REFRESH_PREPARING = 3.0


def join_advice(error: ClientError) -> str:
    """What to do about a refused ``race_join``, after the server's own words."""
    if isinstance(error, ServerError) and error.code == ErrorCode.NOT_FOUND:
        return "\n" + _("check the code with your friend (letters and digits, any case)")
    if isinstance(error, ServerError) and error.code == ErrorCode.FORBIDDEN:
        return "\n" + _("ask the race's creator for a new race")
    return ""


class DailyScreen(ListScreen):
    """Today's deal of every game with your result, streak, commitments (the home)."""

    DEFAULT_CSS = LIST_CSS.format(name="DailyScreen") + (
        "DailyScreen #detail { height: auto; padding: 0 1; }"
        "DailyScreen #friends { height: 1; padding: 0 1; color: $text-muted; }"
    )
    TABLE = "days"
    BINDINGS = [  # noqa: RUF012 (a key table: alike in shape on every screen, by design)
        Binding("enter", "play_daily", N_("Play daily")),
        Binding("p", "practice", N_("Practice")),
        Binding("l", "leaderboard", N_("Leaderboard")),
        Binding("n", "new_race", N_("New race")),
        Binding("j", "join_race", N_("Join race")),
        Binding("h", "history", N_("History")),
        Binding("s", "stats", N_("Stats")),
        Binding("f", "friends", N_("Friends")),
        Binding("i", "inbox", N_("Inbox")),
        Binding("c", "calendar", N_("Calendar")),
        Binding("question_mark", "rules", N_("Rules")),
        Binding("left_square_bracket", "day(-1)", N_("Day before")),
        Binding("right_square_bracket", "day(1)", N_("Day after")),
        Binding("q", "app.quit", N_("Quit")),
    ]

    def __init__(self, date: str | None = None) -> None:
        super().__init__()
        self.date = date
        self.today: str | None = None
        self.daily: dict[str, Any] = {}
        #: the status line says that the chosen daily is not proven winnable
        self.unproven_said = False
        #: the ``friends`` reply: how those you follow did today (one line, #friends)
        self.friends: dict[str, Any] = {}
        #: "2 new results on your challenges" (empty: none), at the friends line's head
        self.challenges = ""
        #: "inbox: 2 unread items (i)" (empty: none), first on the friends line
        self.unread = ""
        #: the game whose daily opens as soon as the server has certified it (Enter
        #: pressed on it while it was being certified)
        self.open_when_ready: str | None = None
        #: each game's cells of the wide table (WIDE_COLUMNS), by slug
        self.rows: dict[str, tuple[str, ...]] = {}
        self.columns: tuple[str, ...] = ()

    def compose(self) -> ComposeResult:
        yield Static(id="head")
        yield DataTable(id=self.TABLE, cursor_type="row", zebra_stripes=True)
        yield Static(id="friends", markup=False)
        yield Static(id="detail")
        yield Static(id="status")
        yield KeyFooter()

    async def on_mount(self) -> None:
        table = self.query_one(DataTable)
        await self.load()
        table.focus()

    def on_resize(self, event: Resize) -> None:
        if self.rows:
            self.fill()
        self.show_friends()

    async def load_friends(self) -> None:
        """How your friends did today, on the line under the table (none signed in:
        no line)."""
        if self.host.conn.player is None:
            return
        try:
            self.friends = await friends(self.host.conn)
        except ClientError:
            return  # the friends screen (f) says why
        try:
            self.challenges = home_line(await self.host.conn.challenges(limit=100))
        except ClientError:
            self.challenges = ""  # an older server: no challenges
        try:
            self.unread = inbox_line(await self.host.conn.inbox())
        except ClientError:
            self.unread = ""  # an older server: no inbox
        self.show_friends()

    async def on_inbox_changed(self, message: InboxChanged) -> None:
        await self.load_friends()

    def show_friends(self) -> None:
        line = self.query_one("#friends", Static)
        line.display = bool(self.friends)
        if self.friends:
            width = max(20, self.size.width - 2)
            # new results on your challenges first, on the same line (the screen
            # keeps its rows for the games)
            lead = " · ".join(x for x in (self.unread, self.challenges) if x)
            lead = f"{lead} · " if lead else ""
            text = lead + friends_line(self.friends, self.host.titles, width - len(lead))
            line.update(text if len(text) <= width else text[: width - 1] + "…")

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        self.show_detail()

    @property
    def wide(self) -> bool:
        """Whether every column fits the terminal (else the narrow table and the
        detail line)."""
        need = 4  # the table's scrollbar and the screen's edges
        for i, name in enumerate(WIDE_COLUMNS):
            cells = [cell_len(cells[i]) for cells in self.rows.values()]
            need += max([cell_len(_(name)), *cells]) + 2  # a cell's padding
        return need <= self.size.width

    def fill(self) -> None:
        """The table from :attr:`rows`, wide or narrow as the terminal allows."""
        table = self.query_one(DataTable)
        wide = self.wide
        columns = WIDE_COLUMNS if wide else NARROW_COLUMNS
        row = table.cursor_row
        table.clear(columns=columns != self.columns)
        if columns != self.columns:
            table.add_columns(*(_(c) for c in columns))
            self.columns = columns
        games = self.daily.get("games") or {}
        for slug, cells in self.rows.items():
            mine = (games.get(slug) or {}).get("mine")
            short = (cells[0], cells[2], result_short(mine) if slug in games else _("no daily"))
            table.add_row(*(cells if wide else short), key=slug)
        if self.rows:
            table.move_cursor(row=min(max(row, 0), len(self.rows) - 1))
        self.query_one("#detail").display = not wide
        self.show_detail()

    def show_detail(self) -> None:
        """The chosen game in full on the detail line (the narrow table's rest)."""
        slug = self.selected()
        cells = self.rows.get(slug or "")
        if cells is None:
            return
        russian, english, deal, result = cells[0], cells[1], cells[3], cells[4]
        names = f"{russian} — {english}" if english else russian  # the table has room for one
        entry = (self.daily.get("games") or {}).get(slug or "") or {}
        if entry.get("seed") is None:
            deal = _("commitment {commitment}", commitment=deal) if deal else ""
        yours = _("yours: {result}", result=result)
        line = " · ".join(part for part in (names, deal, yours) if part)
        self.query_one("#detail", Static).update(line)
        if not preparing(self.daily):
            self.say_unproven()

    def say_unproven(self) -> None:
        """A chosen daily the server could not prove winnable says so on the status
        line (in place of the keys' hint, and the hint again once another is chosen)."""
        slug = self.selected() or ""
        label = unproven_label((self.daily.get("games") or {}).get(slug))
        if label:
            self.say(f"{game_name(slug, self.host.titles)}: {label}")
        elif self.unproven_said:
            self.say(_(HOME_HINT if self.wide else HOME_HINT_SHORT))
        self.unproven_said = bool(label)

    async def on_screen_resume(self) -> None:
        if self.daily:
            await self.load()

    async def load(self) -> bool:
        """Ask for the day's dailies and show them; False (and the server's words on
        the status line) when it refused, e.g. a day before the server's first."""
        try:
            self.daily = await self.host.conn.daily(self.date)
        except ClientError as exc:
            self.say(_("error: {error}", error=exc))
            return False
        if self.today is None and self.date is None:
            self.today = str(self.daily.get("date"))
        date = str(self.daily.get("date"))
        games = self.daily.get("games") or {}
        self.rows = {}
        for slug in list(self.host.titles) or list(games):
            entry = games.get(slug) or {}
            names = self.host.titles.get(slug) or {}
            seed = entry.get("seed")
            self.rows[slug] = (
                str(names.get("title_ru") or slug),
                str(names.get("title_en") or ""),
                par_text(entry),
                _("seed {seed}", seed=seed)
                if seed is not None
                else str(entry.get("commitment") or "")[:12],
                result_text(entry.get("mine")) if entry else _("no daily"),
            )
        self.fill()
        await self.load_friends()
        self.query_one("#head", Static).update(
            self.heading(date) + "\n" + _("streak: {meaning}", meaning=_(STREAK_MEANING))
        )
        waiting = preparing(self.daily)
        ready = self.open_when_ready
        if ready is not None and ready not in waiting and ready in games:
            self.open_when_ready = None
            await self.action_play_daily(ready)
            return True
        if waiting:  # the server is still proving them winnable: ask again shortly
            self.say_waiting()
            self.set_timer(REFRESH_PREPARING, self.load)
        else:
            self.say(_(HOME_HINT if self.wide else HOME_HINT_SHORT))
            self.say_unproven()
        return True

    def heading(self, date: str) -> str:
        """The first line: who, which day, the streak; one line in any terminal of 80
        columns (a longer one wrapped and pushed a game off the list), with
        ``pasyans · `` in front when there is room."""
        who = self.host.conn.player or _("not logged in")
        when = _("today") if date == self.today else _("past day: practice")
        line = _(
            "{who} · dailies of {date} UTC, {when} · streak {streak}",
            who=who,
            date=date,
            when=when,
            streak=self.daily.get("streak", 0),
        )
        room = self.app.size.width - 2  # the heading's padding
        return f"pasyans · {line}" if cell_len(line) + 10 <= room else line

    def selected(self) -> str | None:
        table = self.query_one(DataTable)
        if not table.row_count:
            return None
        key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
        return str(key) if key is not None else None

    async def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        await self.action_play_daily()

    def say_waiting(self) -> None:
        """The status line while dailies are being certified: how many, and the one
        that opens by itself when ready."""
        slug = self.open_when_ready
        if slug is None:
            self.say(preparing_text(self.daily))
            return
        progress = ((self.daily.get("games") or {}).get(slug) or {}).get("preparing")
        self.say(
            _(
                "{game}: {progress}; opens when ready (Enter: don't wait)",
                game=short_title(slug, self.host.titles),
                progress=certifying_text(progress),
            )
        )

    async def action_play_daily(self, slug: str | None = None) -> None:
        slug = slug or self.selected()
        if slug is None:
            return
        if self.date is not None and self.date != self.today:
            # a past day's deal, played after its day: unranked, its number shown
            await self.host.open_game(slug, Mode.DAILY, date=self.date)
            return
        entry = (self.daily.get("games") or {}).get(slug) or {}
        if entry.get("preparing"):  # opened as soon as it is certified (load)
            self.open_when_ready = None if self.open_when_ready == slug else slug
            self.say_waiting()
            return
        mine = entry.get("mine") or {}
        if mine.get("status") == "playing" and mine.get("game_id"):
            await self.host.open_game(slug, Mode.DAILY, resume=str(mine["game_id"]))
        else:
            await self.host.open_game(slug, Mode.DAILY)

    async def action_practice(self) -> None:
        slug = self.selected()
        if slug is not None:
            await self.host.open_game(slug, Mode.PRACTICE)

    def action_leaderboard(self) -> None:
        slug = self.selected()
        if slug is not None:
            date = None if self.date == self.today else self.date
            self.app.push_screen(LeaderboardScreen(slug, date=date))

    def action_new_race(self) -> None:
        """A race on the chosen game: a fresh deal or today's daily, then its lobby."""
        slug = self.selected()
        if slug is None:
            return

        async def chosen(daily: bool | None) -> None:
            if daily is None:
                return
            mode = Mode.DAILY if daily else Mode.PRACTICE
            error = await self.host.open_race(Launch(game=slug, mode=mode, race="new"))
            if error is not None:
                self.say(_("error: {error}", error=error))
                self.notify(str(error), severity="error")

        self.app.push_screen(RaceDealScreen(title(slug, self.host.titles)), chosen)

    def action_join_race(self, code: str = "", error: str = "") -> None:
        """Ask for a race's code and join it; the server's refusal opens the dialog
        again with the code and the reason."""

        async def typed(code: str | None) -> None:
            if code is None:
                return
            refused = await self.host.open_race(Launch(race=code))
            if refused is not None:
                self.action_join_race(code, f"{refused}{join_advice(refused)}")

        self.app.push_screen(JoinRaceScreen(code, error), typed)

    def action_history(self) -> None:
        self.app.push_screen(HistoryScreen())

    def action_stats(self) -> None:
        self.app.push_screen(StatsScreen())

    def action_friends(self) -> None:
        self.app.push_screen(FriendsScreen(self.selected()))

    def action_inbox(self) -> None:
        self.app.push_screen(InboxScreen())

    def action_calendar(self) -> None:
        self.app.push_screen(CalendarScreen(self.selected(), self.today))

    async def action_rules(self) -> None:
        slug = self.selected()
        if slug is not None:
            await self.show_rules(slug)

    async def action_day(self, delta: int) -> None:
        base = self.date or self.today or str(dt.datetime.now(dt.UTC).date())
        day = dt.date.fromisoformat(base) + dt.timedelta(days=delta)
        if self.today and day > dt.date.fromisoformat(self.today):
            self.say(_("tomorrow's deals are not out yet"))
            return
        previous, self.date = self.date, day.isoformat()
        if not await self.load():  # no dailies that day: stay on the day shown
            self.date = previous
