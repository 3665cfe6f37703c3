"""Your statistics (s on the home screen): per game and overall, and a small bar
chart of the last 30 days' results."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import DataTable, Static

from ..connection import ClientError
from ..records import LOST_CELL, STATS_HEADER, WON_CELL, chart_rows, stats, stats_row
from ..text import STREAK_MEANING, title
from ..widgets import KeyFooter
from .base import HostedScreen


def chart(days: list[Mapping[str, Any]], height: int = 5) -> Text:
    """The chart of :func:`client.records.chart_rows`, won green and lost red."""
    out = Text()
    for row in chart_rows(days, height):
        out.append("│")
        for cell in row:
            style = "green" if cell == WON_CELL else "red" if cell == LOST_CELL else ""
            out.append(cell, style=style)
        out.append("\n")
    out.append("└" + "─" * len(days) + "\n")
    if days:
        first, last = str(days[0]["date"]), str(days[-1]["date"])
        out.append(" " + first + last.rjust(max(len(days) - len(first), len(last) + 1)) + "\n")
    won = sum(int(d.get("won", 0)) for d in days)
    lost = sum(int(d.get("lost", 0)) for d in days)
    out.append(f"last {len(days)} days: {won} won ")
    out.append(WON_CELL, style="green")
    out.append(f", {lost} lost ")
    out.append(LOST_CELL, style="red")
    return out


class StatsScreen(HostedScreen):
    DEFAULT_CSS = """
    StatsScreen { layout: vertical; }
    StatsScreen #head { height: auto; background: $primary; color: $text; padding: 0 1; }
    StatsScreen DataTable { height: 1fr; }
    StatsScreen #chart { height: auto; padding: 0 1; }
    StatsScreen #status { height: auto; padding: 0 1; color: $text-muted; }
    """
    BINDINGS = [  # noqa: RUF012 (a key table: alike in shape on every screen, by design)
        Binding("escape", "app.pop_screen", "Back"),
        Binding("q", "app.pop_screen", "Back"),
    ]

    def __init__(self, player: str | None = None) -> None:
        super().__init__()
        self.player = player
        self.result: dict[str, Any] = {}

    def compose(self) -> ComposeResult:
        yield Static(id="head")
        yield DataTable(id="stats", cursor_type="row", zebra_stripes=True)
        yield Static(id="chart")
        yield Static(id="status")
        yield KeyFooter()

    async def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns(*STATS_HEADER)
        try:
            self.result = await stats(self.host.conn, self.player)
        except ClientError as exc:
            self.say(f"error: {exc}")
            return
        table.add_row(*(str(c) for c in stats_row("all games", self.result["overall"])))
        for slug, block in (self.result.get("games") or {}).items():
            name = title(slug, self.host.titles).split(" — ")[0]
            table.add_row(*(str(c) for c in stats_row(name, block)))
        self.query_one("#head", Static).update(f"pasyans · statistics of {self.result['player']}")
        self.query_one("#chart", Static).update(chart(list(self.result.get("days") or [])))
        self.say(f"streak: {STREAK_MEANING} · q back")
        table.focus()
