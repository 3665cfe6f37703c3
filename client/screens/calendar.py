"""A month of dailies (c on the home screen): each day of the chosen game with your
result, its par and difficulty (●○○ easy … ●●● hard); Enter plays the chosen day's
deal — today's as your daily, a past day's after its day (unranked, its deal's number
shown); a shows the month across every game; [ and ] go a month back and on."""

from __future__ import annotations

import datetime as dt
from typing import Any

from textual.binding import Binding
from textual.widgets import DataTable, Static

from protocol.messages import Mode

from ..inbox import day_text, month_summary
from ..lang import N_, _, current, ngettext
from ..text import title
from .base import LIST_CSS, ListScreen

#: seconds between asks while today's daily is being certified
REFRESH_PREPARING = 3.0


def shift(month: str, by: int) -> str:
    """The month ``by`` months after ``month`` (YYYY-MM)."""
    year, mon = int(month[:4]), int(month[5:7]) - 1 + by
    return f"{year + mon // 12:04d}-{mon % 12 + 1:02d}"


def month_words(month: str) -> str:
    """A month (YYYY-MM) as the player's language says it: "November 2026"."""
    from babel.dates import format_skeleton

    day = dt.date(int(month[:4]), int(month[5:7]), 1)
    return format_skeleton("yMMMM", day, locale=current().lang)


class CalendarScreen(ListScreen):
    DEFAULT_CSS = LIST_CSS.format(name="CalendarScreen")
    TABLE = "calendar"
    BINDINGS = [  # noqa: RUF012 (a key table: alike in shape on every screen, by design)
        Binding("enter", "play", N_("Play")),
        Binding("a", "every_game", N_("All games")),
        Binding("left_square_bracket", "month(-1)", N_("Month before")),
        Binding("right_square_bracket", "month(1)", N_("Month after")),
        Binding("escape", "app.pop_screen", N_("Back")),
        Binding("q", "app.pop_screen", N_("Back")),
    ]

    def __init__(self, game: str | None, today: str | None = None) -> None:
        super().__init__()
        #: the game shown (None: every game, counted)
        self.game = game
        self.today = today or str(dt.datetime.now(dt.UTC).date())
        self.month = self.today[:7]
        self.days: list[dict[str, Any]] = []
        #: the game shown before ``a`` showed every game
        self.remembered = game
        #: the game whose month is drawn (:attr:`days`): the latest answer's
        self.shown: str | None = None

    def on_mount(self) -> None:
        self.query_one(DataTable).focus()  # the load: on_screen_resume (on push too)

    def load(self, note: str = "") -> None:
        """Ask for the month shown of the game shown (every game: None) and draw the
        answer (only that of the latest ask: keys pressed meanwhile may ask again)."""
        month, game = self.month, self.game
        self.fetch(
            lambda: self.host.conn.calendar(month, game),
            lambda result: self.draw(result, month, game, note),
        )

    def draw(self, result: dict[str, Any], month: str, game: str | None, note: str) -> None:
        """The month ``month`` of ``game`` (None: every game) as the server answered it."""
        self.days = list(result.get("days") or [])
        self.shown = game
        table = self.query_one(DataTable)
        table.clear(columns=True)
        if game is None:
            table.add_columns(_("day (UTC)"), _("dailies won"), _("dailies finished"))
            for day in reversed(self.days):
                table.add_row(str(day["date"]), str(day.get("won", 0)), str(day.get("played", 0)))
            what, summary = _("every game"), " · " + month_summary(self.days)
        else:
            table.add_columns(_("day (UTC)"), _("yours"), _("par"), _("difficulty"))
            for day in reversed(self.days):
                table.add_row(*day_text(day))
            what = title(game, self.host.titles)
            won = sum(1 for d in self.days if d.get("status") == "won")
            summary = " · " + ngettext(
                "won {won} of {n} day", "won {won} of {n} days", len(self.days), won=won
            )
        words = month_words(month)
        self.query_one("#head", Static).update(f"pasyans · {words} · {what}{summary}")
        hint = _("Enter plays the chosen day · a all games · [ ] months · q back")
        if game is None:
            hint = _("a one game · [ ] months · q back")
        if not self.days:
            hint = _("no dailies this month · {keys}", keys=hint)
        self.say(f"{note} · {hint}" if note else hint)
        if game is not None and any(
            d["date"] == self.today and d.get("par") is None for d in self.days
        ):  # today's still being certified: its row follows, as the home's does
            self.set_timer(REFRESH_PREPARING, self.refresh_today)

    def refresh_today(self) -> None:
        if self.is_current and not self.running():
            self.load()

    def chosen(self) -> dict[str, Any] | None:
        row = self.query_one(DataTable).cursor_row
        days = list(reversed(self.days))
        return days[row] if 0 <= row < len(days) else None

    def action_play(self) -> None:
        day, game = self.chosen(), self.shown
        if day is None or game is None or game != self.game:
            return  # every game's month, or another month's still on its way
        if day["date"] == self.today:
            self.act(self.host.open_game(game, Mode.DAILY))
        elif day.get("playable"):
            self.act(self.host.open_game(game, Mode.DAILY, date=str(day["date"])))
        else:
            self.say(
                _(
                    "the deal of {day} is not ready yet: the server certifies it",
                    day=current().date(str(day["date"])),
                )
            )

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        self.action_play()

    def action_every_game(self) -> None:
        self.game = self.remembered if self.game is None else None
        self.load()

    def action_month(self, by: int) -> None:
        month = shift(self.month, by)
        if month > self.today[:7]:
            self.say(_("the next month's dailies are not out yet"))
            return
        self.month = month
        self.load()

    def on_screen_resume(self) -> None:
        self.load()
