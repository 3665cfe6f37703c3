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

from ..connection import ClientError
from ..inbox import day_text, month_summary
from ..lang import N_, _, current, ngettext
from ..text import title
from .base import LIST_CSS, ListScreen


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

    async def on_mount(self) -> None:
        await self.load()
        self.query_one(DataTable).focus()

    async def load(self, note: str = "") -> None:
        try:
            result = await self.host.conn.calendar(self.month, self.game)
        except ClientError as exc:
            self.say(_("error: {error}", error=exc))
            return
        self.days = list(result.get("days") or [])
        table = self.query_one(DataTable)
        table.clear(columns=True)
        if self.game is None:
            table.add_columns(_("day (UTC)"), _("dailies won"), _("finished"))
            for day in reversed(self.days):
                table.add_row(str(day["date"]), str(day["won"]), str(day["played"]))
            what, summary = _("every game"), " · " + month_summary(self.days)
        else:
            table.add_columns(_("day (UTC)"), _("yours"), _("par"), _("difficulty"))
            for day in reversed(self.days):
                table.add_row(*day_text(day))
            what = title(self.game, self.host.titles)
            won = sum(1 for d in self.days if d.get("status") == "won")
            summary = " · " + ngettext(
                "won {won} of {n} day", "won {won} of {n} days", len(self.days), won=won
            )
        month = month_words(self.month)
        self.query_one("#head", Static).update(f"pasyans · {month} · {what}{summary}")
        hint = _("Enter plays the chosen day · a all games · [ ] months · q back")
        if self.game is None:
            hint = _("a one game · [ ] months · q back")
        if not self.days:
            hint = _("no dailies this month · {keys}", keys=hint)
        self.say(f"{note} · {hint}" if note else hint)

    def chosen(self) -> dict[str, Any] | None:
        row = self.query_one(DataTable).cursor_row
        days = list(reversed(self.days))
        return days[row] if 0 <= row < len(days) else None

    async def action_play(self) -> None:
        day = self.chosen()
        if day is None or self.game is None:
            return
        if day["date"] == self.today:
            await self.host.open_game(self.game, Mode.DAILY)
        elif day.get("playable"):
            await self.host.open_game(self.game, Mode.DAILY, date=str(day["date"]))
        else:
            self.say(
                _(
                    "the deal of {day} is not ready yet: the server certifies it",
                    day=current().date(str(day["date"])),
                )
            )

    async def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        await self.action_play()

    async def action_every_game(self) -> None:
        self.game = self.remembered if self.game is None else None
        await self.load()

    async def action_month(self, by: int) -> None:
        month = shift(self.month, by)
        if month > self.today[:7]:
            self.say(_("the next month's dailies are not out yet"))
            return
        self.month = month
        await self.load()

    async def on_screen_resume(self) -> None:
        await self.load()
