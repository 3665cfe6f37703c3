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
from ..lang import N_, _, current
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
    title_in,
    unproven_label,
)
from ..widgets import KeyFooter, Table
from .base import LIST_CSS, ListScreen
from .calendar import CalendarScreen
from .friends import FriendsScreen
from .history import HistoryScreen
from .inbox import InboxScreen
from .leaderboard import LeaderboardScreen
from .race_dialogs import JoinRaceScreen, RaceDealScreen
from .stats import StatsScreen
from .tournaments import TournamentsScreen

HOME_HINT = N_(
    "Enter plays the daily deal · p a practice deal · l the leaderboard · "
    "n races friends on this game · j joins a friend's race by its code"
)
#: the hint when the terminal is narrow (the footer below lists the keys)
HOME_HINT_SHORT = N_("Enter plays the chosen game's daily deal; the keys below do the rest")

#: the home table's columns when the terminal has room for them all (the second: the
#: game's title in the other language, headed by :data:`OTHER_TITLE`)
WIDE_COLUMNS = (N_("game"), "", N_("par"), N_("commitment / seed"), N_("your result"))
#: the heading of the other language's titles, by the player's language
OTHER_TITLE = {"en": N_("Russian"), "ru": N_("English")}
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
        Binding("t", "tournaments", N_("Tournaments")),
        Binding("h", "history", N_("History")),
        Binding("s", "stats", N_("Stats")),
        Binding("f", "friends", N_("Friends")),
        Binding("i", "inbox", N_("Inbox")),
        Binding("c", "calendar", N_("Calendar")),
        Binding("question_mark", "rules", N_("Rules")),
        # one footer entry for both day keys: an 80-column footer keeps to two lines
        Binding("left_square_bracket", "day(-1)", N_("Other day"), key_display="[ ]"),
        Binding("right_square_bracket", "day(1)", N_("Day after"), show=False),
        Binding("q", "app.quit", N_("Quit")),
    ]

    def __init__(self, date: str | None = None) -> None:
        super().__init__()
        self.date = date
        #: the day asked for last (shown once the server answers)
        self.wanted = date
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
        yield Table(id=self.TABLE, cursor_type="row", zebra_stripes=True)
        yield Static(id="friends", markup=False)
        yield Static(id="detail")
        yield Static(id="status")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one(DataTable).focus()
        self.load()

    def on_resize(self, event: Resize) -> None:
        if self.rows:
            self.fill()
        self.show_friends()

    def load_friends(self) -> None:
        """How your friends did today, on the line under the table (none signed in:
        no line), asked in a worker of its own."""
        if self.host.conn.player is not None:
            self.run_latest(self.ask_friends, group="friends")

    async def ask_friends(self) -> None:
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
        with self.unless_gone():
            self.show_friends()

    def on_inbox_changed(self, message: InboxChanged) -> None:
        self.load_friends()

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
        for i, name in enumerate(self.headings(WIDE_COLUMNS)):
            cells = [cell_len(cells[i]) for cells in self.rows.values()]
            need += max([cell_len(name), *cells]) + 2  # a cell's padding
        return need <= self.size.width

    def fill(self) -> None:
        """The table from :attr:`rows`, wide or narrow as the terminal allows."""
        table = self.query_one(DataTable)
        wide = self.wide
        columns = WIDE_COLUMNS if wide else NARROW_COLUMNS
        row = table.cursor_row
        table.clear(columns=columns != self.columns)
        if columns != self.columns:
            table.add_columns(*self.headings(columns))
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

    @staticmethod
    def headings(columns: tuple[str, ...]) -> list[str]:
        other = OTHER_TITLE.get(current().lang, OTHER_TITLE["en"])
        return [_(c) if c else _(other) for c in columns]

    def show_detail(self) -> None:
        """The chosen game in full on the detail line (the narrow table's rest)."""
        slug = self.selected()
        cells = self.rows.get(slug or "")
        if cells is None:
            return
        deal, result = cells[3], cells[4]
        entry = (self.daily.get("games") or {}).get(slug or "") or {}
        if entry.get("seed") is None:
            deal = _("commitment {commitment}", commitment=deal) if deal else ""
        yours = _("yours: {result}", result=result)
        # both titles in English where the line has room for them, else the one name
        # (a second line would push a game off the list)
        for names in (title(slug or "", self.host.titles), game_name(slug or "", self.host.titles)):
            line = " · ".join(part for part in (names, deal, yours) if part)
            if cell_len(line) <= self.size.width - 2:
                break
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

    def on_screen_resume(self) -> None:
        if self.daily:
            self.load()

    def load(self) -> None:
        """Ask again for the day asked for last (shown, or on its way)."""
        self.load_day(self.wanted)

    def load_day(self, wanted: str | None) -> None:
        """Ask for the dailies of ``wanted`` (None: today) and show them: only the
        answer to the latest ask is drawn. A day the server refuses (before its first)
        leaves the day shown as it was, and the server's words on the status line."""
        self.wanted = wanted

        def refused(exc: ClientError) -> None:
            self.wanted = self.date
            self.say(_("error: {error}", error=exc))

        self.fetch(
            lambda: self.host.conn.daily(wanted),
            lambda daily: self.draw(daily, wanted),
            failed=refused,
        )

    def draw(self, daily: dict[str, Any], date: str | None) -> None:
        """The dailies of ``date`` (None: today) as the server answered."""
        self.date, self.daily = date, daily
        if self.today is None and date is None:
            self.today = str(daily.get("date"))
        shown = str(daily.get("date"))
        games = daily.get("games") or {}
        other = "en" if current().lang == "ru" else "ru"
        self.rows = {}
        for slug in list(self.host.titles) or list(games):
            entry = games.get(slug) or {}
            seed = entry.get("seed")
            self.rows[slug] = (
                game_name(slug, self.host.titles),
                title_in(slug, self.host.titles, other),
                par_text(entry),
                _("seed {seed}", seed=seed)
                if seed is not None
                else str(entry.get("commitment") or "")[:12],
                result_text(entry.get("mine")) if entry else _("no daily"),
            )
        self.fill()
        self.load_friends()
        self.query_one("#head", Static).update(
            self.heading(shown) + "\n" + _("streak: {meaning}", meaning=_(STREAK_MEANING))
        )
        waiting = preparing(daily)
        ready = self.open_when_ready
        if ready is not None and ready not in waiting and ready in games:
            self.open_when_ready = None
            self.action_play_daily(ready)
            return
        if waiting:  # the server is still proving them winnable: ask again shortly
            self.say_waiting()
            self.set_timer(REFRESH_PREPARING, self.refresh_waiting)
        else:
            self.say(_(HOME_HINT if self.wide else HOME_HINT_SHORT))
            self.say_unproven()

    def refresh_waiting(self) -> None:
        """Ask again while dailies are being certified (not while another load is on
        its way: its answer will do)."""
        if not self.running():
            self.load()

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

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.action_play_daily()

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

    def action_play_daily(self, slug: str | None = None) -> None:
        slug = slug or self.selected()
        if slug is None:
            return
        if self.date is not None and self.date != self.today:
            # a past day's deal, played after its day: unranked, its number shown;
            # the game of that day already begun goes on
            mine = ((self.daily.get("games") or {}).get(slug) or {}).get("mine") or {}
            resume = str(mine["game_id"]) if mine.get("status") == "playing" else None
            self.act(self.host.open_game(slug, Mode.DAILY, date=self.date, resume=resume))
            return
        entry = (self.daily.get("games") or {}).get(slug) or {}
        if entry.get("preparing"):  # opened as soon as it is certified (load)
            self.open_when_ready = None if self.open_when_ready == slug else slug
            self.say_waiting()
            return
        mine = entry.get("mine") or {}
        if mine.get("status") == "playing" and mine.get("game_id"):
            self.act(self.host.open_game(slug, Mode.DAILY, resume=str(mine["game_id"])))
        else:
            self.act(self.host.open_game(slug, Mode.DAILY))

    def action_practice(self) -> None:
        slug = self.selected()
        if slug is not None:
            self.act(self.host.open_game(slug, Mode.PRACTICE))

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

    def action_tournaments(self) -> None:
        self.app.push_screen(TournamentsScreen(self.selected()))

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

    def action_rules(self) -> None:
        slug = self.selected()
        if slug is not None:
            self.show_rules(slug)

    def action_day(self, delta: int) -> None:
        """The day before or after the one asked for last (``[[[``: three days back);
        a day the server refuses leaves the day shown."""
        base = self.wanted or self.today or str(dt.datetime.now(dt.UTC).date())
        day = dt.date.fromisoformat(base) + dt.timedelta(days=delta)
        if self.today and day > dt.date.fromisoformat(self.today):
            self.say(_("tomorrow's deals are not out yet"))
            return
        self.load_day(day.isoformat())
